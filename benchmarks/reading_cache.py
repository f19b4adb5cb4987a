#!/usr/bin/env python3
"""The reading benchmark's render mode, with the detector's work kept on disk (issue 6).

Rendering a layout and running the detector cost about nine tenths of a render-mode run; the
reader itself is quick. ``build`` renders and detects once per layout, keeps the photo (PNG,
after the benchmark's own JPEG round trip), the sightings and the true state under ``--dir``,
and prints the same table as ``reading_bench.py render``. ``read`` reads the kept photos again
with the reader as it is now (and ``--set`` to try another value of one of its constants), so
that a change to the reader is measured on hundreds of photos in minutes::

    python benchmarks/reading_cache.py build --games senior-wrangler --layouts 200 --dir data/reading-cache
    python benchmarks/reading_cache.py read --games senior-wrangler --dir data/reading-cache [--set PHANTOM_COST=2]

``build --photos DIR`` takes the photos kept under DIR instead of rendering them again, and detects
afresh (another detector, set by ``PATIENCE_DETECTOR_MODEL``, on the very same photos).

Both write their summary as JSON with ``--out``. The photos are rendered exactly as
``reading_bench.py render`` renders them (same seeds, decks and camera), so both give the same
figures on the same seeds.
"""
from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import reading_bench as RB  # noqa: E402
from advisor.engine import State, games  # noqa: E402


def _file(folder: Path, gid: str, seed: int) -> Path:
    return folder / gid / f"{seed}.pkl"


def build(args) -> dict:
    import cv2

    from vision.synth import jpeg
    decks, detect = RB.decks_and_detector(argparse.Namespace(decks=args.decks, sightings="detector"))
    folder = Path(args.dir)
    size = RB.photo_size(args.size)
    results = {}
    for gid in args.games:
        (folder / gid).mkdir(parents=True, exist_ok=True)
        tally = RB.Tally()
        t_start = time.perf_counter()
        for n in range(args.layouts):
            seed = args.seed + n
            deck = decks[n % len(decks)]
            path = _file(folder, gid, seed)
            if path.exists():
                kept = _load(path)
                truth, image, sights, weak, ddt = kept["truth"], kept["image"], kept["sights"], kept["weak"], kept["detect_s"]
                deck_name = kept["deck"]
            else:
                source = _file(Path(args.photos), gid, seed) if args.photos else None
                if source is not None and source.exists():
                    # the same photo another detector saw: only the detection is made again
                    old = _load(source)
                    truth, image = State.from_json(old["truth"], check=False), old["image"]
                    deck_name = old["deck"]
                else:
                    deck_name = deck.name
                    truth, scene, cam, nrng = RB.render_layout(gid, seed, deck, args.moves, rotation=args.rotation,
                                                               size=size, untidy=args.untidy, fan_spread=args.fan_spread)
                    image = jpeg(scene.image, nrng, 70, 95)
                t0 = time.perf_counter()
                sights, weak = detect(image)
                ddt = time.perf_counter() - t0
                ok, png = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
                tmp = path.with_suffix(".tmp")
                tmp.write_bytes(pickle.dumps({"truth": truth.to_json(), "png": png.tobytes(), "sights": sights,
                                              "weak": weak, "detect_s": ddt, "deck": deck_name}))
                tmp.replace(path)              # a run cut off never leaves half a file
                truth = truth.to_json()
            row, dt, message = _read_one(gid, truth, image, sights, weak)
            tally.add(row, dt, f"{gid} seed {seed} deck {deck_name}", message, ddt)
            _progress(gid, n + 1, args.layouts, t_start)
        results[gid] = tally.summary()
        RB.print_table({gid: results[gid]}, extra_cols=True)
    return results


def _load(path: Path) -> dict:
    import cv2
    import numpy as np
    kept = pickle.loads(path.read_bytes())
    kept["image"] = cv2.imdecode(np.frombuffer(kept["png"], np.uint8), cv2.IMREAD_COLOR)
    return kept


def read_kept(gid: str, image, sights, weak, reader=None):
    """A kept photo read as ``read_layout`` reads it (``read_photo_sightings``: ``read_sightings`` then
    ``look_again``), by ``reader`` (a module like ``vision.reading``, which it is by default): (the Reading,
    seconds). A reader from before ``read_photo_sightings`` reads it as it did."""
    if reader is None:
        import vision.reading as reader
    t0 = time.perf_counter()
    if hasattr(reader, "read_photo_sightings"):
        r = reader.read_photo_sightings(image, sights, weak, gid)
    else:
        r = reader.read_sightings(sights, gid, image_size=(image.shape[1], image.shape[0]), weak=weak, image=image)
        reader.look_again(image, r)
    return r, time.perf_counter() - t0


def turned_photo(image, sights, weak, k: int):
    """A kept photo and its detections as if the photo had been taken turned ``k`` quarter turns counter-clockwise
    (the detections turned with it, not made again: the detector looks at each photo turned half round as well)."""
    from vision.reading import turn_sightings
    if k % 4 == 0:
        return image, sights, weak
    h, w = image.shape[:2]
    return (np.ascontiguousarray(np.rot90(image, k)), turn_sightings(sights, k, w, h), turn_sightings(weak, k, w, h))


def _read_one(gid: str, truth_json: dict, image, sights, weak, turn: int = 0):
    truth = State.from_json(truth_json, check=False)
    r, dt = read_kept(gid, *turned_photo(image, sights, weak, turn))
    return RB.compare(truth, r.state, r.doubts, set()), dt, r.message


def _progress(gid: str, done: int, total: int, t_start: float) -> None:
    if sys.stderr.isatty() or done % 10 == 0 or done == total:
        per = (time.perf_counter() - t_start) / done
        print(f"\r{gid}: {done}/{total} layouts, {per:.1f} s each, about {per * (total - done) / 60:.0f} min left",
              end="\n" if done == total or not sys.stderr.isatty() else "", file=sys.stderr, flush=True)


def apply_settings(pairs: list[str]) -> None:
    """``--set NAME=VALUE``: another value for a numeric constant of vision.reading, for this run only."""
    import vision.reading as reading
    for kv in pairs:
        name, value = kv.split("=", 1)
        if not hasattr(reading, name):
            raise SystemExit(f"vision.reading has no constant {name}")
        setattr(reading, name, type(getattr(reading, name))(float(value)))


def read(args) -> dict:
    apply_settings(args.set)
    folder = Path(args.dir)
    results = {}
    for gid in args.games:
        tally = RB.Tally()
        files = sorted((folder / gid).glob("*.pkl"), key=lambda p: int(p.stem))
        files = [p for p in files if args.seed <= int(p.stem) < args.seed + args.layouts]
        if not files:
            raise SystemExit(f"no kept photos of {gid} under {folder}: run build first")
        t_start = time.perf_counter()
        for i, path in enumerate(files):
            kept = _load(path)
            row, dt, message = _read_one(gid, kept["truth"], kept["image"], kept["sights"], kept["weak"], args.turn)
            tally.add(row, dt, f"{gid} seed {path.stem} deck {kept['deck']}", message, kept["detect_s"])
            _progress(gid, i + 1, len(files), t_start)
        results[gid] = tally.summary()
        RB.print_table({gid: results[gid]}, extra_cols=True)
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    every = sorted(games())
    for name in ("build", "read"):
        p = sub.add_parser(name)
        p.add_argument("--games", nargs="*", default=every)
        p.add_argument("--layouts", type=int, default=200)
        p.add_argument("--seed", type=int, default=1000)
        p.add_argument("--dir", default=str(ROOT / "data" / "reading-cache"))
        p.add_argument("--out")
    b = sub.choices["build"]
    b.add_argument("--moves", type=int, default=25, help="random legal moves after the deal: 0..this many")
    b.add_argument("--rotation", type=float, default=15.0, help="camera turned up to this many degrees")
    b.add_argument("--untidy", type=float, default=0.0,
                   help="cards put down by hand (reading_bench.UNTIDY at 1); use a --dir of its own for each value")
    b.add_argument("--fan-spread", type=float, default=0.0, help="each fanned pile's step varies (log sd)")
    b.add_argument("--decks", nargs="*", help="deck folders under data/decks (default: the held-out decks)")
    b.add_argument("--size", default="1920x1080", help="the photos' pixels, WIDTHxHEIGHT (a 12 MP phone: 4000x3000); "
                   "keep each size in its own --dir")
    b.add_argument("--photos", help="take each layout's photo from this folder of kept photos (when there) instead "
                   "of rendering it: another detector on the same photos")
    sub.choices["read"].add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                                     help="another value for a numeric constant of vision.reading")
    sub.choices["read"].add_argument("--turn", type=int, default=0, choices=(0, 1, 2, 3),
                                     help="read each photo turned this many quarter turns counter-clockwise (2: as "
                                     "if taken from across the table), its detections turned with it")
    args = ap.parse_args(argv)
    t0 = time.time()
    results = build(args) if args.mode == "build" else read(args)
    if args.out:
        # the same shape as reading_bench.py's files, so that both are compared alike
        out = {"mode": f"render (reading_cache {args.mode})", "args": vars(args), "wall_s": round(time.time() - t0, 1),
               "results": results}
        Path(args.out).write_text(json.dumps(out, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
