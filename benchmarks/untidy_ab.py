#!/usr/bin/env python3
"""Hand-laid layouts read with and without the reader's allowance for a hand (issue 6).

A player lays the cards by hand, not on a ruled grid: each pile starts a little off its place, a fan runs
a little aslant, each card lies a little askew. ``reading_bench.py render --untidy U`` renders such layouts
(U = 1: the sizes of ``reading_bench.UNTIDY``). Here each photo is rendered and detected once, then read
twice, taking turns: as the reader judged alignments before session 50 (``STRAIGHTEN`` 0, ``SQUARED_HAND``
1: the layout's grid only), and as it does now (each fan taken onto its place, squared piles given a hand's
room). Prints, per game, cards right and photos refused, both ways::

    python benchmarks/untidy_ab.py --games senior-wrangler kings --untidy 1.5 --layouts 8 [--sightings oracle]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import reading_bench as RB  # noqa: E402
from advisor.engine import games  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="*", default=sorted(games()))
    ap.add_argument("--untidy", type=float, default=1.0, help="how untidily the cards are laid (0: on the grid)")
    ap.add_argument("--layouts", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--sightings", choices=("detector", "oracle"), default="detector")
    ap.add_argument("--out", help="write the two tallies per game here as JSON")
    args = ap.parse_args(argv)
    import vision.reading as R
    from vision.synth import jpeg
    from vision.types import Sighting

    now = {"STRAIGHTEN": R.STRAIGHTEN, "SQUARED_HAND": R.SQUARED_HAND}
    ways = {"grid only": {"STRAIGHTEN": 0, "SQUARED_HAND": 1.0}, "by hand": now}
    decks, detect = RB.decks_and_detector(argparse.Namespace(decks=None, sightings=args.sightings))
    out = {}
    try:
        for gid in args.games:
            tallies = {name: RB.Tally() for name in ways}
            for n in range(args.layouts):
                seed = args.seed + n
                truth, scene, cam, nrng = RB.render_layout(gid, seed, decks[n % len(decks)], 25, untidy=args.untidy)
                image, weak, ddt = None, (), None
                if detect is None:
                    sights = [Sighting(b.label, tuple(b.xyxy), 0.99) for b in scene.labelled()]
                else:
                    image = jpeg(scene.image, nrng, 70, 95)
                    t0 = time.perf_counter()
                    sights, weak = detect(image)
                    ddt = time.perf_counter() - t0
                unseen = RB.unseen_cards(truth, scene) if detect is None else set()
                for name, settings in ways.items():
                    for k, v in settings.items():
                        setattr(R, k, v)
                    t0 = time.perf_counter()
                    r = R.read_sightings(sights, gid, image_size=cam.size, weak=weak, image=image)
                    if image is not None:
                        R.look_again(image, r)
                    tallies[name].add(RB.compare(truth, r.state, r.doubts, unseen), time.perf_counter() - t0,
                                      f"{gid} seed {seed}", r.message, ddt)
            out[gid] = {name: t.summary() for name, t in tallies.items()}
            print(f"{gid:18s} untidy {args.untidy}: " + " | ".join(
                f"{name}: cards right {s['card_accuracy']:.1%}, refused {s['no_state']}/{s['layouts']}"
                for name, s in out[gid].items()), flush=True)
    finally:
        for k, v in now.items():
            setattr(R, k, v)
    if args.out:
        Path(args.out).write_text(json.dumps({"untidy": args.untidy, "sightings": args.sightings, "games": out}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
