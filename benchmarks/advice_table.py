"""Run `patience bench advice` for every game in resumable chunks, then print the table.

    python benchmarks/advice_table.py run --deals 500 --chunk 50      # long: run it niced, in the background
    python benchmarks/advice_table.py table                           # markdown table from what has run

Each chunk (game, first seed) is one JSON file under --out, so an interrupted run
resumes where it stopped and chunks can be spread over several processes
(`--part k/n`, or simply the same command twice: a chunk being run is locked).  The table pools the chunks: wins and completion over deals,
Wilson 95% intervals recomputed on the pooled counts, timing as the median of
the chunks' medians.  Where a game has an exact solver, the table also says
how many deals it proved winnable within 1 s, and whether the advice player
won each of those deals.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from advisor.cli import wilson  # noqa: E402
from advisor.engine import games  # noqa: E402

PLAYERS = ("advice", "random", "first-legal")


def chunk_path(out: Path, game: str, seed: int) -> Path:
    return out / f"{game}_{seed:05d}.json"


def run(args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ids = args.games.split(",") if args.games else sorted(games())
    jobs = [(g, s) for g in ids for s in range(args.seed, args.seed + args.deals, args.chunk)]
    k, n = (int(x) for x in args.part.split("/"))
    jobs = jobs[k - 1::n]
    for j, (g, s) in enumerate(jobs, 1):
        path = chunk_path(out, g, s)
        lock = path.with_suffix(".lock")
        if path.exists():
            continue
        try:   # another process may be running this chunk: several `run`s share the work
            lock.touch(exist_ok=False)
        except FileExistsError:
            continue
        deals = min(args.chunk, args.seed + args.deals - s)
        cmd = [sys.executable, "-m", "patience.cli", "bench", "advice", g, "--players", ",".join(PLAYERS),
               "--deals", str(deals), "--seed", str(s), "--json", "--budget-ms", str(args.budget_ms),
               "--clock", "cpu", "--max-moves", str(args.max_moves)]
        print(f"[{j}/{len(jobs)}] {g} seeds {s}-{s + deals - 1}", file=sys.stderr, flush=True)
        try:
            res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        finally:
            lock.unlink(missing_ok=True)
        if res.returncode != 0:
            print(res.stderr[-2000:], file=sys.stderr)
            return res.returncode
        tmp = path.with_suffix(".part")
        tmp.write_text(res.stdout)
        tmp.replace(path)   # a chunk is either whole or absent
    return 0


def table(args) -> int:
    out = Path(args.out)
    by_game: dict[str, list[dict]] = {}
    for p in sorted(out.glob("*.json")):
        r = json.loads(p.read_text())
        by_game.setdefault(r["game"], []).append(r)
    print("| game | player | deals (seeds) | wins | win rate | 95% CI (Wilson) | mean completion "
          "| median ms/decision (wall) | median CPU ms/decision |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|")
    notes = []
    for g, chunks in sorted(by_game.items()):
        chunks.sort(key=lambda r: r["seed"])
        lo_seed = chunks[0]["seed"]
        hi_seed = max(r["seed"] + r["players"][0]["deals"] for r in chunks) - 1
        for kind in PLAYERS:
            rows = [p for r in chunks for p in r["players"] if p["player"] == kind]
            if not rows:
                continue
            n = sum(p["deals"] for p in rows)
            w = sum(p["wins"] for p in rows)
            comp = sum(p["mean_completion"] * p["deals"] for p in rows) / n
            lo, hi = wilson(w, n)
            wall = statistics.median(p["median_ms_per_decision"] for p in rows if p["median_ms_per_decision"] is not None)
            cpu = statistics.median(p["median_cpu_ms_per_decision"] for p in rows
                                    if p["median_cpu_ms_per_decision"] is not None)
            name = f"**{kind}**" if kind == "advice" else kind
            print(f"| {g} | {name} | {n} ({lo_seed}–{hi_seed}) | {w} | {100 * w / n:.1f}% | "
                  f"{100 * lo:.1f}–{100 * hi:.1f}% | {comp:.3f} | {wall:.2f} | {cpu:.2f} |")
        solved = [r["solver"] for r in chunks if r.get("solver")]
        if solved and any(s["decided"] for s in solved):   # a solver that never decides says nothing
            n = sum(s["deals"] for s in solved)
            dec = sum(s["decided"] for s in solved)
            yes = sum(s["winnable"] for s in solved)
            note = f"{g}: exact solver at 1 s per deal decided {dec} of {n} deals ({yes} winnable, {dec - yes} lost)"
            won = [p["won_by_deal"] for r in chunks for p in r["players"] if p["player"] == "advice"]
            verdicts = [s.get("winnable_by_deal") for s in solved]
            if all(v is not None for v in verdicts) and len(won) == len(verdicts):
                pairs = [(v, x) for vs, ws in zip(verdicts, won) for v, x in zip(vs, ws)]
                proved = sum(1 for v, _ in pairs if v is True)
                missed = sum(1 for v, x in pairs if v is True and not x)
                note += f"; the advice player won {proved - missed} of the {proved} deals proved winnable"
            notes.append(note)
    for line in notes:
        print(f"\n{line}.")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--games", help="comma-separated game ids (default: every game)")
    r.add_argument("--deals", type=int, default=500)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--chunk", type=int, default=50)
    r.add_argument("--budget-ms", type=float, default=5.0)
    r.add_argument("--max-moves", type=int, default=500)
    r.add_argument("--part", default="1/1", help="k/n: run every n-th chunk starting at the k-th")
    t = sub.add_parser("table")
    for p in (r, t):
        p.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "advice"))
    args = ap.parse_args(argv)
    return run(args) if args.cmd == "run" else table(args)


if __name__ == "__main__":
    sys.exit(main())
