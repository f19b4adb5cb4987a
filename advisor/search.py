"""Search-based suggestions for every game.

Flat Monte Carlo with determinisation. The advisor must not peek at cards
the player cannot see, so it starts from the game's *information state*
(what a player with perfect memory knows: ``Game.information_state``),
fills every unknown card by sampling from the cards not yet seen
(consistent with the packs), and plays each candidate move out with a
light policy.

How a decision is made (``search``):

1. **One-ply look-ahead.** Every legal move is tried once in a sampled
   world and the game's progress measure (``measure``) read off; moves that
   lead to the same position (transpositions) are merged, the first kept.
   This alone is a sensible greedy player when the time budget is tiny.
2. **Play-outs with progressive widening.** In passes, each over a fresh
   sampled world (the same world for every candidate of a pass: common
   random numbers), the best candidates by the look-ahead are played out
   with the roll-out policy; each pass admits two more candidates.
3. A move's value is its play-out win rate plus credit for the progress
   reached at the end of the play-outs (most deals of most games are lost,
   and progress still tells a good loss from a bad one), with the one-ply
   figure as a small tie-breaker.

The roll-out policy (``policy_move``) prefers cards home, moves that turn up
a face-down card and card moves over deals; it never undoes one of the last
few moves (the commonest cycle) and, after a long run of card moves without
a deal, prefers the deal (to break longer cycles).

When every card is known and the game has an exact solver
(``advisor/<game>_solver.py``), ``exact_verdict`` asks it, and a winning
plan is cached position by position so that following it costs nothing.
"""
from __future__ import annotations

import random
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field

from .engine import Game, Move, State, get_game
from .solving import thinking_time


@dataclass
class Budget:
    seconds: float = 0.6        # wall time for ranking all candidate moves
    rollout_moves: int = 400    # cap on one play-out's length (some games can loop)
    max_candidates: int = 24    # moves to play out (the rest get their look-ahead score only)
    max_playouts: int | None = None   # optional cap on play-outs (deterministic budgets, tests)
    widen: int = 2              # candidates admitted per pass after the first three
    clock: str = "wall"         # "wall" (what a person waits) or "cpu" (process time: benchmarks on a shared machine)

    def now(self) -> float:
        return time.process_time() if self.clock == "cpu" else time.perf_counter()


@dataclass
class SearchResult:
    scored: list[tuple[Move, float, int, int]]   # (move, value, wins, play-outs), best first
    worlds: int = 0                              # sampled worlds (passes)
    playouts: int = 0                            # play-outs in all
    hidden: bool = False                         # were hidden cards sampled?
    merged: int = 0                              # legal moves merged as transpositions
    progress_sum: dict = field(default_factory=dict)


# ------------------------------------------------------------ determinising

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
    """A full state consistent with what is known: unknown cards drawn from the unseen ones.

    ``state`` must be what the player knows (an observation or information
    state): known cards stay exactly where they are, and only the unknown
    slots are filled, so nothing hidden in the true state can leak in.
    """
    holes = [(a, i, j) for a, piles in state.areas.items() for i, p in enumerate(piles)
             for j, s in enumerate(p) if s.card is None]
    if not holes:
        return state.copy()
    pool = unseen_cards(game, state)
    rng.shuffle(pool)
    out = state.copy()
    # The most constrained holes are filled first (in Kings a foundation slot
    # holds one exact card and no king lies in the face-down pile); a hole no
    # remaining card may fill takes any card rather than stay empty.
    fits = {h: sum(game.could_hold(h[0], h[1], h[2], c) for c in pool) for h in holes}
    for a, i, j in sorted(holes, key=lambda h: fits[h]):
        if not pool:
            break
        k = next((n for n, c in enumerate(pool) if game.could_hold(a, i, j, c)), 0)
        s = out.areas[a][i][j]
        out.areas[a][i][j] = type(s)(pool.pop(k), s.face_up)
    return out


def has_hidden(state: State) -> bool:
    return any(s.card is None for _, _, s in state.slots())


# ------------------------------------------------------------------ measure

_MEASURE: dict[type, object] = {}


def measure(game: Game, state: State) -> float:
    """How far play has come, on the game's own scale: ``Game.completion``.

    The protocol's default (cards on foundation areas / deck size) is
    computed here with the layout facts cached, since it runs at every
    play-out's end.
    """
    cls = type(game)
    fn = _MEASURE.get(cls)
    if fn is None:
        fn = _MEASURE[cls] = "default" if cls.completion is Game.completion else "completion"
    if fn == "default":
        return _default_completion(game, state)
    return float(game.completion(state))


_FOUNDATIONS: dict = {}


def _default_completion(game: Game, state: State) -> float:
    """``Game.completion`` (cards on foundation areas / deck size), with the layout facts cached."""
    if game.is_won(state):
        return 1.0
    key = (game.id, tuple(sorted((k, repr(v)) for k, v in state.options.items())))
    facts = _FOUNDATIONS.get(key)
    if facts is None:
        names = tuple(a.name for a in game.layout(state.options).areas if a.kind == "foundation")
        facts = _FOUNDATIONS[key] = (names, max(1, len(game.deck())))
    names, size = facts
    return sum(len(p) for a in names for p in state.areas.get(a, ())) / size


def measure_name(game: Game) -> str:
    """Which measure ``measure`` uses for this game, in words (for benchmark tables)."""
    measure(game, game.new(0))
    fn = _MEASURE[type(game)]
    fn = "completion" if fn == "default" else fn
    doc = (getattr(type(game), fn).__doc__ or "").strip().splitlines()
    return f"{fn}: {doc[0]}" if doc else fn


progress = measure   # the old name


# ----------------------------------------------------------------- policy

_KIND_BONUS = {"foundation": 2.0, "pile": 0.5, "key": 0.5}


def _kinds(game: Game, state: State) -> dict:
    return {a.name: a.kind for a in game.layout(state.options).areas}


def _heuristic(game: Game, state: State, move: Move, kinds: dict | None = None) -> float:
    """Cheap prior: cards home first, then moves that turn up a face-down card; actions (deal, redeal) last."""
    if move.action != "move":
        return -1.0
    kinds = kinds if kinds is not None else _kinds(game, state)
    h = _KIND_BONUS.get(kinds.get(move.dst.area), 0.0)
    try:
        src = state.areas[move.src.area][move.src.index]
    except (KeyError, IndexError):
        return h
    if len(src) > move.count and not src[-move.count - 1].face_up:
        h += 0.75           # turns up a card
    elif len(src) == move.count and kinds.get(move.src.area) in ("column", "row", "reserve", "cell"):
        h += 0.25           # empties a place
    return h


def policy_move(game: Game, state: State, legal: list[Move], rng: random.Random,
                recent: list[Move] | None = None, since_action: int = 0, kinds: dict | None = None,
                epsilon: float = 0.15) -> Move:
    """The play-out policy: mostly the best cheap-heuristic move, sometimes a random one, never an undo."""
    banned = {(m.dst, m.src, m.count) for m in (recent or ()) if m.action == "move"}
    pool = [m for m in legal if m.action != "move" or (m.src, m.dst, m.count) not in banned] or legal
    if len(pool) == 1:
        return pool[0]
    if rng.random() < epsilon:
        return rng.choice(pool)
    kinds = kinds if kinds is not None else _kinds(game, state)
    long_loop = since_action > 40
    best, best_h = [], None
    for m in pool:
        h = _heuristic(game, state, m, kinds)
        if long_loop and m.action != "move":
            h = 10.0
        if best_h is None or h > best_h:
            best, best_h = [m], h
        elif h == best_h:
            best.append(m)
    return rng.choice(best)


def rollout(game: Game, state: State, rng: random.Random, cap: int,
            deadline: float | None = None, now=time.perf_counter) -> tuple[bool, float] | None:
    """Play ``state`` out in place with the policy; (won, measure at the end), or None when the deadline came first."""
    kinds = _kinds(game, state)
    recent: list[Move] = []
    since_action = 0
    for k in range(cap):
        if deadline is not None and k % 8 == 7 and now() >= deadline:
            return None
        legal = game.legal_moves(state)
        if not legal:
            break
        m = policy_move(game, state, legal, rng, recent, since_action, kinds)
        game.apply(state, m)
        recent.append(m)
        if len(recent) > 6:
            recent.pop(0)
        since_action = 0 if m.action != "move" else since_action + 1
    return game.is_won(state), measure(game, state)


# ------------------------------------------------------------------ search

PROGRESS_WEIGHT = 0.5    # value = win rate + PROGRESS_WEIGHT * mean final measure + 0.05 * one-ply measure


def _key(state: State) -> tuple:
    return tuple(tuple(tuple(p) for p in piles) for piles in state.areas.values()) \
        + (repr(sorted(state.info.items(), key=lambda kv: kv[0])),)


def search(game: Game, state: State, budget: Budget, seed: int = 0, history=()) -> SearchResult:
    legal = game.legal_moves(state)
    if not legal:
        return SearchResult([])
    rng = random.Random(seed)
    now = budget.now
    deadline = now() + budget.seconds
    base = game.information_state(state, history)
    hidden = has_hidden(base)
    kinds = _kinds(game, state)

    # 1. one-ply look-ahead in one sampled world, merging transpositions
    world = determinise(game, base, rng) if hidden else base
    world_legal = set(game.legal_moves(world)) if hidden else None
    one_ply: dict[Move, float] = {}
    seen: dict[tuple, Move] = {}
    merged = 0
    dropped: set = set()
    for m in sorted(legal, key=lambda m: -_heuristic(game, state, m, kinds)):
        s = world.copy()
        if hidden and m not in world_legal:
            one_ply[m] = _heuristic(game, state, m, kinds) * 0.01 - 0.5
            continue
        game.apply(s, m)
        if not hidden:
            k = _key(s)
            if k in seen:
                merged += 1
                dropped.add(m)
                continue
            seen[k] = m
        one_ply[m] = measure(game, s) + (1.0 if game.is_won(s) else 0.0) + 0.01 * _heuristic(game, state, m, kinds)
        if now() >= deadline and len(one_ply) >= 1:
            break
    for m in legal:   # moves the look-ahead did not reach (time) keep their heuristic only
        if m not in one_ply and m not in dropped:
            one_ply.setdefault(m, 0.01 * _heuristic(game, state, m, kinds) - 1.0)
    order = sorted(one_ply, key=lambda m: -one_ply[m])
    cands = order[:budget.max_candidates]

    # 2. play-outs, widening the candidate set pass by pass
    stats = {m: [0, 0, 0.0] for m in cands}   # wins, runs, final-measure sum
    worlds = playouts = 0
    width = min(3, len(cands))
    cap = budget.max_playouts
    while now() < deadline and (cap is None or playouts < cap):
        world = determinise(game, base, rng) if hidden else base
        worlds += 1
        world_legal = set(game.legal_moves(world)) if hidden else None
        for m in cands[:width]:
            if hidden and m not in world_legal:   # a sampled world may differ in what is legal
                continue
            s = world.copy()
            game.apply(s, m)
            # a play-out the deadline cuts short is dropped: the budget holds, even when it buys none
            out = rollout(game, s, rng, budget.rollout_moves, deadline, now)
            if out is None:
                break
            won, prog = out
            st = stats[m]
            st[0] += won
            st[1] += 1
            st[2] += prog
            playouts += 1
            if now() >= deadline or (cap is not None and playouts >= cap):
                break
        width = min(len(cands), width + budget.widen)

    # 3. values
    out = []
    for m in order:
        st = stats.get(m)
        if st and st[1]:
            w, n, p = st
            out.append((m, w / n + PROGRESS_WEIGHT * p / n + 0.05 * one_ply[m], w, n))
        else:
            out.append((m, one_ply[m] - 2.0, 0, 0))   # below every played-out move
    out.sort(key=lambda t: -t[1])
    return SearchResult(out, worlds, playouts, hidden, merged)


def evaluate(game: Game, state: State, budget: Budget, seed: int = 0, history=()) -> list[tuple[Move, float, int, int]]:
    """(move, value, wins, play-outs) for each legal move (transpositions merged), best first."""
    return search(game, state, budget, seed, history).scored


# ------------------------------------------------------------ exact verdict

_PLANS: "OrderedDict[str, list[str]]" = OrderedDict()   # position -> rest of a winning plan
_PLAN_CACHE = 4096


def _remember_plan(game: Game, state: State, plan: list[str]) -> None:
    s = state.copy()
    for k, text in enumerate(plan):
        _PLANS[s.dumps()] = plan[k:]
        try:
            game.apply(s, game.parse_move(s, text))
        except Exception:   # a plan we cannot replay is not cached further
            break
    while len(_PLANS) > _PLAN_CACHE:
        _PLANS.popitem(last=False)


def exact_verdict(game: Game, state: State, seconds: float, history=()):
    """An exact Winnable from the game's solver when every card is known, else None."""
    from .advice import Winnable
    from .cli import exact_solver, run_solver, solution_json
    if game.hidden_information:   # the game's own tip book judges positions where it happens to be exact (Aunty Allis)
        return None
    solver = exact_solver(game.id)
    if solver is None:
        return None
    base = game.information_state(state, history)
    if has_hidden(base):
        return None
    if game.is_won(state):
        return Winnable("yes", exact=True, probability=1.0, reason="the game is won")
    cached = _PLANS.get(state.dumps())
    if cached is not None:
        _PLANS.move_to_end(state.dumps())
        return Winnable("yes", exact=True, probability=1.0, plan=list(cached),
                        reason=f"exact: a winning plan of {len(cached)} moves remains (found by the solver earlier)")
    try:
        sol = solution_json(run_solver(solver, state, seconds))
    except Exception as e:   # a solver failure must not take the advice down
        return None
    w = sol.get("winnable")
    why = str(sol.get("reason") or "")
    if w is True:
        plan = [str(m) for m in sol.get("plan") or []]
        if plan:
            _remember_plan(game, state, plan)
        return Winnable("yes", exact=True, probability=1.0, plan=plan,
                        reason="exact: the solver found a winning plan" + (f" ({why})" if why else ""))
    if w is False:
        return Winnable("no", exact=True, probability=0.0,
                        reason="exact: the solver proved no sequence of moves wins from here" + (f" ({why})" if why else ""))
    return None


# -------------------------------------------------------------- suggestions

def add_suggestions(game: Game, state: State, advice, budget: Budget | None = None, top: int = 5, history=()) -> None:
    from .advice import Suggestion, Winnable
    budget = budget or Budget()
    if advice.winnable is None:
        exact = exact_verdict(game, state, seconds=thinking_time(history, min(1.0, max(0.3, budget.seconds))),
                              history=history)
        if exact is not None:
            advice.winnable = exact
            if exact.verdict == "yes" and exact.plan:
                first = exact.plan[0]
                existing = next((s for s in advice.suggestions if s.move == first), None)
                why = f"first move of a winning plan found by the exact solver ({len(exact.plan)} moves in all)"
                if existing:
                    existing.reason += f" — and {why}"
                    existing.score = max(existing.score, 1000.0)
                else:
                    m = game.parse_move(state, first)
                    advice.suggestions.append(Suggestion(first, game.describe(state, m), why, 1000.0, "exact-solver"))
                return   # the plan wins: no need to search
    res = search(game, state, budget, history=history)
    scored = res.scored
    if not scored:
        return
    sampled = " (the hidden cards drawn at random from the cards not yet seen)" if res.hidden else ""
    for rank, (m, value, w, n) in enumerate(scored[:top]):
        if n:
            reason = (f"in {n} play-outs after this move{sampled}, {w} reached a win"
                      + (f"; it ranks first of {len(scored)} moves" if rank == 0 else ""))
        else:
            reason = "not played out within the time budget; ranked by looking one move ahead"
        # Tip books may already suggest this move with a reason of their own: keep theirs, add the search figure.
        existing = next((s for s in advice.suggestions if s.move == str(m)), None)
        if existing:
            existing.reason += (f" — search agrees: {reason}" if w else f" — search: {reason}")
            existing.score = max(existing.score, 10 + value)
        else:
            advice.suggestions.append(Suggestion(str(m), game.describe(state, m), reason, value, "search"))
    if advice.winnable is None and res.playouts:
        m, _, w, n = max(scored, key=lambda t: (t[3] > 0, t[2] / t[3] if t[3] else 0, t[3]))
        if n:
            p = w / n
            advice.winnable = Winnable(
                verdict="likely" if p >= 0.5 else ("possible" if p > 0 else "unknown"),
                exact=False, probability=round(p, 3), samples=n,
                reason=(f"estimated, not proved: {w} of {n} play-outs after the best move ({m}) were won"
                        + (", with the hidden cards drawn at random from those not yet seen" if res.hidden else "")
                        + ". The play-outs follow a quick rule of thumb, so a careful player does better: "
                          "read it as a floor" + (", and 0 wins does not mean the deal is lost" if w == 0 else "")))


def suggest(state: State, budget: Budget | None = None) -> list[tuple[Move, float, int, int]]:
    return evaluate(get_game(state.game), state, budget or Budget())
