"""Where the layout reader's wrong cards are, by kind, on the photos ``reading_cache.py build`` kept (issue 6).

The benchmark counts wrong cards; to choose what to work on next one needs to know why they are
wrong. Each pile of each kept photo is read again and compared with the truth:

* ``refused``: no state at all (every card of the photo counts);
* ``pile length``: the pile was read with more or fewer cards than it holds (its order is then
  off from the first missing or extra card, so every wrong card of it counts here);
* in a pile of the right length, card by card: ``unread`` (``?``), ``suit, same colour`` (♣/♠ or
  ♦/♥ swapped), ``suit, other colour``, ``rank`` (suit right), ``other``.

Counts are given per game and per deck::

    python benchmarks/reading_errors.py --games senior-wrangler seven-and-six --layouts 40

``--cut right`` (or ``bottom``) reads each photo with that side cut off (``--keep``: the share kept; the
sightings are those wholly inside the part kept), for partial photos: the cards of places outside it are
wrong then, whatever the reader does, so compare the totals of two readers, not one with the whole photos.

``--read-conf T`` reads each photo as if the detector's reading threshold were ``T``: the kept sightings and weak
ones are split again at ``T`` (no lower than ``vision.reading.WEAK_CONF``, below which none were kept).
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import reading_cache as RC  # noqa: E402
from reading_bench import flag_test, visible_piles  # noqa: E402
from advisor.engine import State, get_game  # noqa: E402

RED = set("hd")


def kinds_of_errors(truth: State, read: State | None, doubts: list = (), unflagged_only: bool = False) -> Counter:
    """Wrong cards of one photo by kind (see the module's note); with ``unflagged_only``, only those no
    doubt points at (as ``reading_bench.compare`` judges a card flagged). As the benchmark does, a state the
    game plays alike and no photo tells from the truth (Poker Patience's square at another place) is as
    right as the truth: the one the reading matches best is used."""
    best = _kinds(truth, read, doubts, unflagged_only)
    if read is not None:
        for other, _ in get_game(truth.game).photo_equivalents(truth):
            got = _kinds(other, read, doubts, unflagged_only)
            if sum(got.values()) < sum(best.values()):
                best = got
    return best


def _kinds(truth: State, read: State | None, doubts, unflagged_only: bool) -> Counter:
    t = visible_piles(truth)
    out: Counter = Counter()
    if read is None:
        out["refused"] += sum(len(v) for v in t.values())     # (the benchmark counts them unflagged, too)
        return out
    points_at = flag_test(doubts)
    r = visible_piles(read)
    rj = {key: [x[0] for x in v] for key, v in r.items()}
    for key in set(t) | set(r):
        tv, rv = [x[1] for x in t.get(key, [])], [x[1] for x in r.get(key, [])]
        wrong = [k for k in range(max(len(tv), len(rv)))
                 if not (k < len(tv) and k < len(rv) and tv[k] == rv[k])
                 and not (k >= len(tv) and rv[k] is None)]
        if unflagged_only:
            wrong = [k for k in wrong if not points_at(*key, rj[key][k] if k < len(rj.get(key, [])) else None)]
        if not wrong:
            continue
        if len(tv) != len(rv):
            out["pile length"] += len(wrong)
            continue
        for k in wrong:
            a, b = tv[k], rv[k]
            if b is None:
                out["unread"] += 1
            elif a[:-1] == b[:-1]:
                out["suit, same colour" if (a[-1] in RED) == (b[-1] in RED) else "suit, other colour"] += 1
            elif a[-1] == b[-1]:
                out["rank"] += 1
            else:
                out["other"] += 1
    return out


def split_at(sights, weak, threshold: float) -> tuple[list, list]:
    """A photo's kept sightings split again at another reading threshold: (those at or above it, the weak rest)."""
    every = list(sights) + list(weak)
    return [s for s in every if s.conf >= threshold], [s for s in every if s.conf < threshold]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="*", default=["senior-wrangler"])
    ap.add_argument("--layouts", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--dir", default=str(ROOT / "data" / "reading-cache"))
    ap.add_argument("--unflagged", action="store_true", help="count only the wrong cards no doubt points at")
    ap.add_argument("--cut", choices=("right", "bottom"), help="read each photo with this side cut off")
    ap.add_argument("--keep", type=float, default=0.6, help="with --cut: the share of the photo kept")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="another value for a numeric constant of vision.reading (as reading_cache.py read)")
    ap.add_argument("--read-conf", type=float,
                    help="split the kept sightings at this reading threshold instead of the detector's own "
                         "(the weak ones were kept down to vision.reading.WEAK_CONF)")
    args = ap.parse_args(argv)
    from vision.reading import WEAK_CONF
    if args.read_conf is not None and args.read_conf < WEAK_CONF:
        raise SystemExit(f"--read-conf must be at least {WEAK_CONF}: weaker sightings were not kept")
    RC.apply_settings(args.set)
    from vision.reading import read_photo_sightings
    folder = Path(args.dir)
    kinds = sorted({"refused", "pile length", "unread", "suit, same colour", "suit, other colour", "rank", "other"})
    for gid in args.games:
        by_deck: dict[str, Counter] = defaultdict(Counter)
        files = sorted((folder / gid).glob("*.pkl"), key=lambda p: int(p.stem))
        files = [p for p in files if args.seed <= int(p.stem) < args.seed + args.layouts]
        if not files:
            raise SystemExit(f"no kept photos of {gid} under {folder}: run reading_cache.py build first")
        for path in files:
            kept = RC._load(path)
            img, sights, weak = kept["image"], kept["sights"], kept["weak"]
            if args.read_conf is not None:
                sights, weak = split_at(sights, weak, args.read_conf)
            if args.cut:
                h, w = img.shape[:2]
                x1, y1 = (int(w * args.keep), h) if args.cut == "right" else (w, int(h * args.keep))
                img = np.ascontiguousarray(img[:y1, :x1])
                sights, weak = ([s for s in group if s.box[2] <= x1 and s.box[3] <= y1] for group in (sights, weak))
            r = read_photo_sightings(img, sights, weak, gid)
            by_deck[kept["deck"]] += kinds_of_errors(State.from_json(kept["truth"], check=False), r.state, r.doubts,
                                                     args.unflagged)
        total = sum(by_deck.values(), Counter())
        print(f"\n{gid}: {len(files)} photos, {sum(total.values())} wrong cards{' no doubt points at' if args.unflagged else ''}")
        print(f"| deck | {' | '.join(kinds)} |")
        print("|---" * (len(kinds) + 1) + "|")
        for deck in sorted(by_deck) + ["all"]:
            c = total if deck == "all" else by_deck[deck]
            print(f"| {deck} | {' | '.join(str(c[k]) for k in kinds)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
