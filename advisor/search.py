"""Search-based suggestions for every game.

Flat Monte Carlo with determinisation: the advisor must not peek at cards
the player cannot see, so it starts from the game's *observation* of the
state, fills every unknown card by sampling from the cards not yet seen
(consistent with the packs), and plays each candidate move out with a
light policy. A move's value is its win rate in those play-outs plus a
little credit for progress (cards home), so that hopeless positions still
rank moves sensibly.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass

from .engine import Game, Move, State, get_game


@dataclass
class Budget:
    seconds: float = 0.6        # wall time for ranking all candidate moves
    rollout_moves: int = 400    # cap on one play-out's length (some games can loop)
    max_candidates: int = 24    # moves to evaluate (the rest get their heuristic score only)


def unseen_cards(game: Game, state: State) -> list:
    """Cards of the packs not named anywhere in the state."""
    left = Counter(c.face for c in game.deck())
    left.subtract(c.face for c in state.known_cards())
    pool = []
    by_face: dict = {}
    for c in game.deck():
        by_face.setdefault(c.face, []).append(c)
    used = Counter(c for c in state.known_cards())
    for face, n in left.items():
        spare = [c for c in by_face[face] if not used[c]]
        pool.extend(spare[:max(n, 0)])
    return pool


def determinise(game: Game, state: State, rng: random.Random) -> State:
    """A full state consistent with what is known: unknown cards drawn from the unseen ones."""
    holes = [(a, i, j) for a, piles in state.areas.items() for i, p in enumerate(piles)
             for j, s in enumerate(p) if s.card is None]
    if not holes:
        return state.copy()
    pool = unseen_cards(game, state)
    rng.shuffle(pool)
    out = state.copy()
    for (a, i, j), card in zip(holes, pool):
        s = out.areas[a][i][j]
        out.areas[a][i][j] = type(s)(card, s.face_up)
    return out


def has_hidden(state: State) -> bool:
    return any(s.card is None for _, _, s in state.slots())


def progress(game: Game, state: State) -> float:
    return game.completion(state)


def _heuristic(game: Game, state: State, move: Move) -> float:
    """Cheap prior: moves that put cards home first, actions (deal, redeal) last."""
    if move.action != "move":
        return -1.0
    kind = game.layout(state.options)[move.dst.area].kind
    return {"foundation": 2.0, "pile": 0.5, "key": 0.5}.get(kind, 0.0)


def policy_move(game: Game, state: State, legal: list[Move], rng: random.Random) -> Move:
    """The play-out policy: mostly the best cheap-heuristic move, sometimes a random one."""
    if rng.random() < 0.25:
        return rng.choice(legal)
    best = max(_heuristic(game, state, m) for m in legal)
    return rng.choice([m for m in legal if _heuristic(game, state, m) == best])


def rollout(game: Game, state: State, rng: random.Random, cap: int) -> tuple[bool, float]:
    for _ in range(cap):
        legal = game.legal_moves(state)
        if not legal:
            break
        game.apply(state, policy_move(game, state, legal, rng))
    return game.is_won(state), progress(game, state)


def evaluate(game: Game, state: State, budget: Budget, seed: int = 0, history=()) -> list[tuple[Move, float, int, int]]:
    """(move, value, wins, play-outs) for each legal move, best first."""
    legal = game.legal_moves(state)
    if not legal:
        return []
    rng = random.Random(seed)
    base = game.information_state(state, history)
    hidden = has_hidden(base)
    ranked = sorted(legal, key=lambda m: -_heuristic(game, state, m))
    cands = ranked[:budget.max_candidates]
    stats = {m: [0, 0, 0.0] for m in cands}   # wins, runs, progress sum
    deadline = time.perf_counter() + budget.seconds
    while time.perf_counter() < deadline:
        world = determinise(game, base, rng) if hidden else base
        for m in cands:
            s = world.copy()
            if game.why_illegal(s, m) is not None:   # a sampled world may differ in what is legal
                continue
            game.apply(s, m)
            won, prog = rollout(game, s, rng, budget.rollout_moves)
            st = stats[m]
            st[0] += won
            st[1] += 1
            st[2] += prog
            if time.perf_counter() >= deadline:
                break
    out = []
    for m in ranked:
        if m in stats and stats[m][1]:
            w, n, p = stats[m]
            out.append((m, w / n + 0.25 * p / n + 0.01 * _heuristic(game, state, m), w, n))
        else:
            out.append((m, 0.01 * _heuristic(game, state, m) - 1, 0, 0))
    out.sort(key=lambda t: -t[1])
    return out


def add_suggestions(game: Game, state: State, advice, budget: Budget | None = None, top: int = 5, history=()) -> None:
    from .advice import Suggestion, Winnable
    budget = budget or Budget()
    scored = evaluate(game, state, budget, history=history)
    if not scored:
        return
    runs = sum(n for _, _, _, n in scored)
    wins = sum(w for _, _, w, _ in scored)
    for rank, (m, value, w, n) in enumerate(scored[:top]):
        if n:
            reason = (f"in {n} sampled play-outs after this move, {w} reached a win"
                      + (" (the hidden cards were drawn at random from the cards not yet seen)" if has_hidden(game.information_state(state, history)) else "")
                      + (f"; it ranks first of {len(scored)} legal moves" if rank == 0 else ""))
        else:
            reason = "not explored within the time budget; ranked by a simple rule (cards home first)"
        # Tip books may already suggest this move with a reason of their own: keep theirs, add the search figure.
        existing = next((s for s in advice.suggestions if s.move == str(m)), None)
        if existing:
            existing.reason += (f" — search agrees: {reason}" if w else f" — search: {reason}")
            existing.score = max(existing.score, 10 + value)
        else:
            advice.suggestions.append(Suggestion(str(m), game.describe(state, m), reason, value, "search"))
    if advice.winnable is None and runs:
        p = wins / runs
        advice.winnable = Winnable(
            verdict="likely" if p >= 0.5 else ("possible" if p > 0 else "unlikely"),
            exact=False, probability=round(p, 3), samples=runs,
            reason=f"estimated from {runs} random play-outs with a simple policy; a careful player does better, so read it as a floor")


def suggest(state: State, budget: Budget | None = None) -> list[tuple[Move, float, int, int]]:
    return evaluate(get_game(state.game), state, budget or Budget())
