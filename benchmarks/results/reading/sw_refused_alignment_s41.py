"""Session 41's look at the Senior Wrangler photos the reader refuses (kept, not part of the benchmark).

For each seed: the reading when the render's true camera is offered as one more alignment, and how far
``register``'s own alignments put the layout's place heads from where the true camera puts them.
Needs the kept 1080p photos: ``python benchmarks/reading_cache.py build --games senior-wrangler --layouts 40``.

    python benchmarks/results/reading/sw_refused_alignment_s41.py 1016 1036
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
import numpy as np  # noqa: E402

import reading_bench as RB  # noqa: E402
import reading_cache as RC  # noqa: E402
import vision.reading as R  # noqa: E402
from advisor.engine import State, get_game  # noqa: E402
from reading_errors import kinds_of_errors  # noqa: E402

GID = "senior-wrangler"


def project(H, pts):
    ph = np.c_[pts, np.ones(len(pts))] @ H.T
    return ph[:, :2] / ph[:, 2:3]


def main(seeds):
    decks, _ = RB.decks_and_detector(type("A", (), {"decks": None, "sightings": "oracle"})())
    game = get_game(GID)
    layout, template = game.layout({}), R._template(game, {})
    pl = R.places(layout, template)
    heads = np.array([p.first for p in pl], float)
    for seed in seeds:
        deck = decks[(seed - 1000) % len(decks)]
        _, _, cam, _ = RB.render_layout(GID, seed, deck, 25, rotation=15.0)
        kept = RC._load(ROOT / "data" / "reading-cache" / GID / f"{seed}.pkl")
        img = kept["image"]
        own = R.register

        def offered(*a, **kw):
            return [(1.0, cam.H.copy())] + list(own(*a, **kw))
        R.register = offered
        try:
            r = R.read_sightings(kept["sights"], GID, image_size=(img.shape[1], img.shape[0]), weak=kept["weak"], image=img)
        finally:
            R.register = own
        print(seed, deck.name, "with the true camera offered:",
              dict(kinds_of_errors(State.from_json(kept["truth"], check=False), r.state, r.doubts)) if r.state else r.message)
        s = R.one_per_place(kept["sights"])
        scale = R.estimate_scale(s)
        first = R.first_grouping(s, scale)
        q0 = np.array([c.anchor for c in first])
        truth_px = project(cam.H, heads)
        errs = sorted((float(np.median(np.hypot(*(project(H, heads) - truth_px).T))), i, f)
                      for i, (f, H) in enumerate(R.register(first, layout, scale, template)))
        print("  register's alignments nearest the truth (median px off, rank, fit):",
              [(round(e, 1), i, round(f, 3)) for e, i, f in errs[:5]])
        print(f"  the true camera: share {R._fit_share(cam.H, q0, pl, layout):.2f}, "
              f"snug {R._snug_share(cam.H, q0, pl, layout):.2f} of the first grouping")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1016, 1036])
