#!/usr/bin/env python3
"""Benchmark of the exact Senior Wrangler solver on seeded deals.

    nice -n 15 .venv/bin/python benchmarks/sw_solver_bench.py --deals 50 --limit 1.0
    nice -n 15 .venv/bin/python benchmarks/sw_solver_bench.py --start 500 --deals 250 --out /tmp/sw.json

Prints the yes / no / unknown counts and the median CPU and wall seconds per deal.
CPU time is reported next to wall time because the machine is often shared: a
deal that hit its wall-clock limit while other processes ran may well have been
decided on an idle machine.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor.engine import get_game  # noqa: E402
from advisor import senior_wrangler_solver as solver  # noqa: E402
from advisor.senior_wrangler_solver import solve  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--seeds", type=str, default="", help="comma-separated seeds instead of a range")
    ap.add_argument("--limit", type=float, default=1.0, help="seconds per deal")
    ap.add_argument("--out", type=str, default="", help="write per-deal results as JSON here")
    ap.add_argument("--cpu", action="store_true",
                    help="count the limit in CPU seconds of this process (for a busy machine)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="override a numeric module constant of the solver, for experiments")
    ap.add_argument("--solver-seed", type=int, default=0,
                    help="seed of the solver's random play-outs (runs with other seeds show the noise)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.cpu:
        solver._clock = time.process_time
    for kv in args.set:
        name, value = kv.split("=", 1)
        if not hasattr(solver, name):
            ap.error(f"the solver has no constant {name}")
        setattr(solver, name, float(value))
    g = get_game("senior-wrangler")
    seeds = [int(x) for x in args.seeds.split(",") if x] if args.seeds else list(range(args.start, args.start + args.deals))
    rows = []
    counts = {"yes": 0, "no": 0, "unknown": 0}
    for seed in seeds:
        st = g.new(seed)
        c0, w0 = time.process_time(), time.perf_counter()
        sol = solve(st, args.limit, seed=args.solver_seed)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        counts[sol.verdict] += 1
        rows.append({"seed": seed, "verdict": sol.verdict, "cpu": round(cpu, 3), "wall": round(wall, 3),
                     "nodes": sol.nodes, "best": sol.best_played})
        if not args.quiet:
            print(f"seed {seed:5d} {sol.verdict:7s} cpu {cpu:6.3f} wall {wall:6.3f} best {sol.best_played}",
                  flush=True)
    n = len(rows)
    decided = counts["yes"] + counts["no"]
    print(f"{n} deals at {args.limit:g} {'cpu ' if args.cpu else ''}s: yes {counts['yes']}  no {counts['no']}  unknown {counts['unknown']}  "
          f"decided {decided / max(n, 1):.1%}  median cpu {statistics.median(r['cpu'] for r in rows):.3f} s  "
          f"median wall {statistics.median(r['wall'] for r in rows):.3f} s")
    undecided = [r["seed"] for r in rows if r["verdict"] == "unknown"]
    if undecided:
        print("undecided seeds:", ",".join(map(str, undecided)))
    if args.out:
        Path(args.out).write_text(json.dumps({"limit": args.limit, "counts": counts, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
