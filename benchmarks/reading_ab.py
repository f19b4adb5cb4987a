#!/usr/bin/env python3
"""The layout reader as it is now against the reader of another git revision, on the same kept photos (issue 6).

This machine's speed moves by a fifth or more from one run to the next, so a reader timed in one
run and its successor in another can differ by more than a change does. Here both readers run in
one process, taking turns on each photo (which goes first alternates), so that whatever the machine
does falls on both alike. For each game it prints the median read time (``read_sightings`` plus
``look_again``) of each, the ratio of their summed times, and how many photos the two read
differently (state, doubts or message): a change made for speed alone should read none
differently::

    python benchmarks/reading_ab.py --ref HEAD~1 --games pendulum senior-wrangler --layouts 20

The photos are those ``reading_cache.py build`` kept (``--dir``). The other revision's
``vision/reading.py`` is loaded from git as a module of the ``vision`` package; the rest of the
code (detector, rules) is the working tree's for both.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import reading_cache as RC  # noqa: E402
import vision.reading as current  # noqa: E402


def reader_at(ref: str):
    """``vision/reading.py`` as it was at git revision ``ref``, loaded as ``vision._reading_<ref>``."""
    try:
        source = subprocess.run(["git", "show", f"{ref}:vision/reading.py"], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"cannot read vision/reading.py at {ref!r}: {getattr(e, 'stderr', '') or e}") from None
    name = "vision._reading_" + "".join(ch if ch.isalnum() else "_" for ch in ref)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader=None))
    module.__package__ = "vision"           # its relative imports are the working tree's modules
    sys.modules[name] = module               # (dataclasses look their module up while the class is made)
    exec(compile(source, f"{ref}:vision/reading.py", "exec"), module.__dict__)
    return module


def read_once(reader, gid: str, kept: dict):
    """(what was read, seconds): the state, the doubts and the message, as text."""
    r, seconds = RC.read_kept(gid, kept["image"], kept["sights"], kept["weak"], reader)
    return (r.state.dumps() if r.state is not None else None, [d.message for d in r.doubts], r.message), seconds


def compare(args) -> dict:
    other = reader_at(args.ref)
    folder = Path(args.dir)
    results = {}
    for gid in args.games:
        files = sorted((folder / gid).glob("*.pkl"), key=lambda p: int(p.stem))
        files = [p for p in files if args.seed <= int(p.stem) < args.seed + args.layouts]
        if not files:
            raise SystemExit(f"no kept photos of {gid} under {folder}: run reading_cache.py build first")
        times = {"ref": [], "now": []}
        differ = []
        for k, path in enumerate(files):
            kept = RC._load(path)
            order = [("ref", other), ("now", current)]
            if k % 2:
                order.reverse()
            seen = {}
            for label, reader in order:
                seen[label], dt = read_once(reader, gid, kept)
                times[label].append(dt)
            if seen["ref"] != seen["now"]:
                differ.append(int(path.stem))
            print(f"\r{gid}: {k + 1}/{len(files)} photos", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        row = {"photos": len(files), "ref_median_s": round(statistics.median(times["ref"]), 3),
               "now_median_s": round(statistics.median(times["now"]), 3),
               "now_over_ref": round(sum(times["now"]) / sum(times["ref"]), 3), "read_differently": differ}
        results[gid] = row
        print(f"{gid:18s} {row['photos']:3d} photos  {args.ref}: {row['ref_median_s']:.2f} s  now: "
              f"{row['now_median_s']:.2f} s  now/ref {row['now_over_ref']:.2f}  read differently: {len(differ)}"
              + (f" {differ[:10]}" if differ else ""), flush=True)
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref", default="HEAD", help="git revision of the reader to compare with (default HEAD)")
    ap.add_argument("--games", nargs="+", default=["pendulum", "senior-wrangler", "seven-and-six"])
    ap.add_argument("--layouts", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--dir", default=str(ROOT / "data" / "reading-cache"))
    ap.add_argument("--out", help="write the results here as JSON")
    args = ap.parse_args(argv)
    results = compare(args)
    if args.out:
        Path(args.out).write_text(json.dumps({"ref": args.ref, "args": vars(args), "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
