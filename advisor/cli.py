"""Advice commands: advise, solve, bench advice."""
from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

from .advice import advise
from .engine import PatienceError, State, get_game
from .rules_cli import load_state
from .search import Budget, measure, measure_name


def load_history(path: str | None) -> list:
    """A history file is a JSON list of {"state": STATE, "move": "column3>pile5"}."""
    if not path:
        return []
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise PatienceError(f"{path}: not valid JSON ({e.msg})") from None
    if not isinstance(data, list):
        raise PatienceError(f"{path}: a history is a JSON list of {{state, move}} entries")
    out = []
    for k, item in enumerate(data):
        if not isinstance(item, dict) or "state" not in item or "move" not in item:
            raise PatienceError(f"{path}: entry {k + 1} needs 'state' and 'move'")
        s = State.from_json(item["state"])
        out.append((s, get_game(s.game).parse_move(s, item["move"])))
    return out


def cmd_advise(args) -> int:
    state = load_state(args.state)
    a = advise(state, load_history(args.history), search=not args.no_search)
    print(json.dumps(a.to_json(), ensure_ascii=False, indent=1))
    return 0


def exact_solver(game_id: str):
    """The game's exact solver module (``advisor/<module>_solver.py`` with ``solve``), or None."""
    import importlib
    name = f"advisor.{game_id.replace('-', '_')}_solver"
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == name:
            return None
        raise
    return mod if hasattr(mod, "solve") else None


def run_solver(solver, state, seconds: float):
    """``solver.solve`` with a time limit, whichever name the solver gives it (``seconds`` or ``time_limit``)."""
    import inspect
    params = inspect.signature(solver.solve).parameters
    for name in ("seconds", "time_limit"):
        if name in params:
            return solver.solve(state, **{name: seconds})
    return solver.solve(state)


def solution_json(result) -> dict:
    """A solver's answer as JSON, whatever dataclass the game's solver returns."""
    import dataclasses
    if hasattr(result, "to_json"):
        out = result.to_json()
    elif dataclasses.is_dataclass(result):
        out = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
    else:
        out = dict(result)
    if "winnable" not in out:
        out["winnable"] = {"yes": True, "no": False}.get(str(out.get("verdict")), None)
    if isinstance(out.get("plan"), list):
        out["plan"] = [str(m) for m in out["plan"]]
    return out


def cmd_solve(args) -> int:
    state = load_state(args.state)
    solver = exact_solver(state.game)
    if solver is None:
        raise PatienceError(f"no exact solver for {state.game}: it has hidden cards or none is written yet; try 'patience advise'")
    result = run_solver(solver, state, args.seconds)
    print(json.dumps(solution_json(result), ensure_ascii=False, indent=1, default=str))
    return 0


# ------------------------------------------------------------------ bench

def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def _player(kind: str, budget: Budget):
    def advice_player(game, state, rng, history=()):
        a = advise(state, history, search=budget.seconds > 0, budget=budget)
        if a.suggestions:
            return game.parse_move(state, a.suggestions[0].move)
        return game.legal_moves(state)[0]

    def random_player(game, state, rng, history=()):
        return rng.choice(game.legal_moves(state))

    def greedy_player(game, state, rng, history=()):
        return game.legal_moves(state)[0]

    return {"advice": advice_player, "random": random_player, "first-legal": greedy_player}[kind]


def play_deal(game, seed: int, kind: str, budget: Budget, max_moves: int) -> tuple[bool, list[float], float]:
    state = game.new(seed)
    rng = random.Random(seed * 7919 + 1)
    player = _player(kind, budget)
    times, cpu = [], []
    history: list = []   # (state, move) pairs: the advice player remembers the game, as a person at the table would
    for _ in range(max_moves):
        if not game.legal_moves(state):
            break
        t, c = time.perf_counter(), time.process_time()
        m = player(game, state, rng, history)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        if kind == "advice":
            history.append((state.copy(), m))
        game.apply(state, m)
    return game.is_won(state), times, measure(game, state), cpu


def _progress(i: int, n: int, label: str) -> None:
    done = int(30 * i / n)
    print(f"\r{label:12} [{'#' * done}{'.' * (30 - done)}] {i}/{n}", end="", file=sys.stderr, flush=True)
    if i == n:
        print(file=sys.stderr)


def cmd_bench_advice(args) -> int:
    game = get_game(args.game)
    budget = Budget(seconds=args.budget_ms / 1000.0, rollout_moves=args.rollout_moves, clock=args.clock)
    solver = exact_solver(game.id)
    if solver is not None and args.clock == "cpu" and hasattr(solver, "_clock"):
        # on a shared machine a solver's time limit should mean this process's CPU time, like the search's
        wall, solver._clock = solver._clock, time.process_time
        try:
            return _bench_advice(game, args, budget, solver)
        finally:
            solver._clock = wall
    return _bench_advice(game, args, budget, solver)


def _bench_advice(game, args, budget, solver) -> int:
    rows = []
    kinds = args.players.split(",")
    for kind in kinds:
        wins, times, done, cpu, per_deal = 0, [], [], [], []
        for i in range(args.deals):
            won, t, c, u = play_deal(game, args.seed + i, kind, budget, args.max_moves)
            wins += won
            per_deal.append(bool(won))
            times.extend(t)
            cpu.extend(u)
            done.append(c)
            _progress(i + 1, args.deals, kind)
        lo, hi = wilson(wins, args.deals)
        rows.append({"player": kind, "deals": args.deals, "wins": wins, "win_rate": wins / args.deals,
                     "ci95": [round(lo, 4), round(hi, 4)],
                     "mean_completion": round(statistics.mean(done), 4),
                     "median_ms_per_decision": round(1000 * statistics.median(times), 3) if times else None,
                     "median_cpu_ms_per_decision": round(1000 * statistics.median(cpu), 3) if cpu else None,
                     "decisions": len(times), "won_by_deal": per_deal})
    winnable = None
    if solver is not None and not args.no_solver:
        decided = won = 0
        verdicts = []
        for i in range(args.deals):
            w = solution_json(run_solver(solver, game.new(args.seed + i), 1.0))["winnable"]
            verdicts.append(w)
            decided += w is not None
            won += bool(w)
            _progress(i + 1, args.deals, "solver")
        winnable = {"decided": decided, "winnable": won, "deals": args.deals, "winnable_by_deal": verdicts}
    result = {"game": game.id, "seed": args.seed, "budget_ms": args.budget_ms, "clock": args.clock,
              "max_moves": args.max_moves,
              "advice": "tips only" if args.budget_ms <= 0 else f"tips + search, {args.budget_ms:g} ms/decision ({args.clock} clock)",
              "completion_measure": measure_name(game), "players": rows, "solver": winnable}
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"{game.name}: {args.deals} deals from seed {args.seed}, advice: {result['advice']}")
        print(f"{'player':12} {'wins':>6} {'win rate':>9} {'95% CI':>17} {'mean completion':>16} {'median ms/decision':>19} {'(CPU ms)':>9}")
        for r in rows:
            print(f"{r['player']:12} {r['wins']:>6} {r['win_rate']:>9.3f} {str(r['ci95']):>17} {r['mean_completion']:>16.3f} "
                  f"{r['median_ms_per_decision']!s:>19} {r['median_cpu_ms_per_decision']!s:>9}")
        print(f"completion: the game's own measure of how far play got ({result['completion_measure']})")
        if winnable:
            print(f"exact solver: {winnable['winnable']} of {winnable['deals']} deals winnable ({winnable['decided']} decided within 1 s)")
    return 0


def register(sub) -> None:
    p = sub.add_parser("advise", help="advice for a state: ranked moves with reasons, dangers, panels")
    p.add_argument("state", help="state JSON file, or - for standard input")
    p.add_argument("--history", help="JSON list of {state, move} for the moves made so far")
    p.add_argument("--no-search", action="store_true", help="tips only, no play-out search")
    p.set_defaults(func=cmd_advise)

    p = sub.add_parser("solve", help="exact solve (games with no hidden cards, e.g. Senior Wrangler)")
    p.add_argument("state")
    p.add_argument("--seconds", type=float, default=10.0)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("bench", help="benchmarks (not tests)")
    bsub = p.add_subparsers(dest="bench", metavar="WHAT")
    b = bsub.add_parser("advice", help="play seeded deals following advice, at random, and first-legal-move")
    b.add_argument("game")
    b.add_argument("--deals", type=int, default=500)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--players", default="advice,random,first-legal")
    b.add_argument("--budget-ms", type=float, default=20.0, help="search time per decision for the advice player")
    b.add_argument("--rollout-moves", type=int, default=200)
    b.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="what the search budget counts: wall time, or this process's CPU time (fair on a shared machine)")
    b.add_argument("--max-moves", type=int, default=3000, help="stop a deal after this many moves (games that can loop)")
    b.add_argument("--no-solver", action="store_true")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_advice)
