#!/usr/bin/env python3
"""Photo-to-advice round trip of the web API (issue 7): target <= 1.5 s for a 1080p photo.

    .venv/bin/python benchmarks/roundtrip_bench.py --game kings --photos 5

For each photo: ``POST /api/sessions/<sid>/photo`` (decode, detect, read the
layout, store) then ``GET /api/sessions/<sid>/advice`` (with the page's own
search time).  The photos are rendered 1920x1080 layouts of seeded deals
(``benchmarks/reading_bench.py``'s renderer, held-out decks), or ``--photo``
files.  Runs through Flask's test client, so network time is not counted.
A photo whose reading is refused (an impossible state) is reported as such:
it has no advice to time.
"""
from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def rendered_photos(game: str, n: int, seed: int) -> list[bytes]:
    import cv2

    import reading_bench as rb
    from vision.decks import HELDOUT_DECKS

    decks = rb.load_decks(HELDOUT_DECKS)
    out = []
    for k in range(n):
        _, scene, _, _ = rb.render_layout(game, seed + k, decks[k % len(decks)], four_corners=False)
        ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        out.append(buf.tobytes())
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="kings")
    ap.add_argument("--photos", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--photo", action="append", default=[], help="use these files instead of renders")
    ap.add_argument("--advice-seconds", type=float, default=0.6, help="the page's search time (its default)")
    a = ap.parse_args(argv)

    from webui import create_app

    photos = [Path(p).read_bytes() for p in a.photo] or rendered_photos(a.game, a.photos, a.seed)
    with tempfile.TemporaryDirectory() as d:
        app = create_app({"DATA_DIR": d, "TESTING": True})
        c = app.test_client()
        c.get("/api/games")
        rows = []
        for k, data in enumerate(photos):
            sid = c.post("/api/sessions", json={"game": a.game}).get_json()["session"]["id"]
            t0 = time.perf_counter()
            r = c.post(f"/api/sessions/{sid}/photo", data={"photo": (io.BytesIO(data), "layout.jpg")},
                       content_type="multipart/form-data")
            t1 = time.perf_counter()
            if r.status_code != 200:
                print(f"photo {k}: refused ({r.status_code}): {r.get_json().get('error', '')[:120]}")
                rows.append({"read_s": t1 - t0, "refused": True})
                continue
            doubts = len(r.get_json()["reading"].get("doubts", []))
            adv = c.get(f"/api/sessions/{sid}/advice?seconds={a.advice_seconds}")
            t2 = time.perf_counter()
            ok = adv.status_code == 200
            print(f"photo {k}: read {t1 - t0:.2f} s ({doubts} doubts), advice {t2 - t1:.2f} s, "
                  f"round trip {t2 - t0:.2f} s{'' if ok else f' (advice error {adv.status_code})'}")
            rows.append({"read_s": t1 - t0, "advice_s": t2 - t1, "total_s": t2 - t0, "refused": False})
    done = [r for r in rows if not r["refused"]]
    print(f"{a.game}: {len(done)}/{len(rows)} photos read into a state; "
          + (f"median read {statistics.median(r['read_s'] for r in done):.2f} s, "
             f"advice {statistics.median(r['advice_s'] for r in done):.2f} s, "
             f"round trip {statistics.median(r['total_s'] for r in done):.2f} s" if done else "no round trip"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
