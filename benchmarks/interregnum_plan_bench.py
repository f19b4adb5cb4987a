"""How well the Interregnum tip's choice alone plays: the build plan before each deal, nothing else.

    python benchmarks/interregnum_plan_bench.py --start 100 --deals 200 --samples 16
    python benchmarks/interregnum_plan_bench.py --start 100 --deals 200 --samples 0       # the quick measure
    python benchmarks/interregnum_plan_bench.py --start 0 --deals 100 --clairvoyant        # knows the stock

Each deal is played by one rule: before every deal of a fresh row, follow
``plan_builds`` (crowning whenever a packet is complete), then deal. With
``--samples 0`` the plan is the quick measure's (most cards built, then the
cards left nearest to being wanted); with ``--clairvoyant`` the positions are
judged by the true order of the stock (one play-out each), which no player
can know: an upper bound for the choice. It is a measurement, not a test.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor.engine import Loc, Move, get_game  # noqa: E402
from advisor.tips import interregnum as tips  # noqa: E402

G = get_game("interregnum")


def crown_all(state) -> None:
    for m in G.legal_moves(state):
        if m.action == "move" and m.src.area == "top":
            G.apply(state, m)


def play(seed: int, samples: int, clairvoyant: bool) -> tuple[bool, int]:
    state = G.new(seed)
    phase = 0
    while True:
        crown_all(state)
        info = G.information_state(state)
        futures = [[s.card.rank for s in state.areas["stock"][0]]] if clairvoyant else None
        r = tips.plan_builds(info, samples=samples, seed=phase, futures=futures)
        for i, j in r["plan"]:
            m = Move.cards(Loc("bottom", i), Loc("interregnum", j))
            problem = G.why_illegal(state, m)
            assert problem is None, problem
            G.apply(state, m)
            crown_all(state)
        if G.is_won(state) or not state.areas["stock"][0]:
            return G.is_won(state), sum(len(p) for p in state.areas["interregnum"])
        G.apply(state, Move.act("deal"))
        phase += 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--samples", type=int, default=tips.SAMPLES, help="sampled futures (0: the quick measure)")
    ap.add_argument("--clairvoyant", action="store_true", help="judge by the true order of the stock")
    args = ap.parse_args(argv)
    t0 = time.process_time()
    wins = cards = 0
    for n, seed in enumerate(range(args.start, args.start + args.deals), 1):
        won, built = play(seed, args.samples, args.clairvoyant)
        wins += won
        cards += built
        print(f"\r[{n}/{args.deals}] wins {wins}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    how = "true stock order" if args.clairvoyant else (f"{args.samples} sampled futures" if args.samples else "quick measure")
    print(f"seeds {args.start}-{args.start + args.deals - 1}, {how}: wins {wins} of {args.deals}, "
          f"mean cards built {cards / args.deals:.1f} of 104, {time.process_time() - t0:.0f} CPU s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
