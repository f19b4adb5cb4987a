"""Keeling's tips for Seven and Six, each a named rule.

Source: George Keeling, "The five great games of patience" (2005), section C,
tips 7-14 (tips 1-6 are about laying the cards out neatly, which the page
does for the player). The rules look only at what the player can see: cards
face down in live columns and in the stock count as unknown even when the
state knows them.

Scores (only their order matters):
    30+    the first move of the best line of card moves found by the session
           look-ahead (advisor.seven_and_six_plan), more for a bigger gain
    25     deal: no card move gains anything (the look-ahead)
    14-18  moves a single tip recommends (these usually agree with the
           look-ahead, whose suggestion then carries both reasons)

Thresholds the source leaves to judgement (recorded in seeds/seven-and-six.toml):
    KINGS_MANY   face-up kings lying on other cards, with no space, that make a space urgent (tip 11)
    ACES_MANY    columns ending in an ace that make a shortage of columns (tip 12)
    DEAD_MANY    dead columns (turned-down books, spaces no king can fill) that do the same (tip 14)
    CONCEALED    chance at which a junior's hidden senior is flagged (tip 9)
    JINKS_MANY   separate sets in one column on hidden cards that flag the column (tip 9)
"""
from __future__ import annotations

from ..advice import TURN_90, Advice, Context, Danger, Suggestion, TipBook, Winnable
from ..cards import RANK_LABEL, Card
from ..engine import Move, State
from ..games.seven_and_six import BOOK as BOOK_LEN
from ..games.seven_and_six import COLS, STOCK, columns, is_dead, top_set
from .. import seven_and_six_plan as plan_mod
from ..seven_and_six_plan import View, face_down, juniors_at_risk, makes_space, senior_class, sets_of, turns_up

KINGS_MANY = 3
ACES_MANY = 3
DEAD_MANY = 3
CONCEALED = 0.25
JINKS_MANY = 3

SOURCE = "Keeling, Seven and Six"


BOOK = TipBook("seven-and-six")


# ------------------------------------------------------------------ helpers

def _where(i: int) -> str:
    return str(COLS[i])


def _human(i: int) -> str:
    return COLS[i].human()


def _class_words(cls: tuple[int, bool], plural: bool = False) -> str:
    rank, red = cls
    word = RANK_LABEL[rank] + ("s" if plural else "")
    return f"{'red' if red else 'black'} {word}"


def _set_words(pile, lo: int) -> str:
    if lo == len(pile) - 1:
        return f"the {pile[lo].card.pretty}"
    top = pile[-1].card
    return f"the {pile[lo].card.pretty}…{top.pretty if top else '?'} set"


def _suggest(ctx: Context, move: Move, reason: str, score: float) -> Suggestion:
    return Suggestion(move=str(move), says=ctx.game.describe(ctx.state, move), reason=reason, score=score)


def _card_moves(ctx: Context) -> list[Move]:
    return [m for m in ctx.game.legal_moves(ctx.state) if m.action == "move"]


def _deal_legal(ctx: Context) -> bool:
    return ctx.game.why_illegal(ctx.state, Move.act("deal")) is None


def _percent(p: float) -> str:
    return f"{round(100 * p)}%"


# ----------------------------------------------------------- look-ahead (all tips)

_FEATURE_WORDS = {
    "hidden": ("turns up {n} face-down card{s}", -1),
    "spaces": ("makes {n} space{s}", 1),
    "kings": ("settles {n} king{s} lying on other cards", -1),
    "risk": ("frees {n} junior{s} at risk", -1),
    "books": ("turns down {n} finished book{s}", 1),
    "joins": ("joins {n} card{s} to {their} senior{s}", 1),
}


def _effects(before: dict, after: dict) -> str:
    parts = []
    for key, (text, sign) in _FEATURE_WORDS.items():
        n = (after[key] - before[key]) * sign
        if n > 0:
            parts.append(text.format(n=n, s="" if n == 1 else "s", their="its" if n == 1 else "their"))
    return ", ".join(parts) or "changes nothing that counts"


@BOOK.rule("session-plan", f"{SOURCE}, tips 7, 8, 11, 13 and 14 (the companion's look-ahead)",
           "Tries the card moves available before the next deal, in every order, and scores where they lead: "
           "face-down cards turned up and spaces made count most, a king on other cards and a junior above its "
           "own senior count against, and each card joined to its senior is progress. When no line gains, deal.")
def session_plan(ctx: Context):
    state = ctx.state
    if ctx.game.is_won(state) or not ctx.game.legal_moves(state):
        return
    p = plan_mod.plan(state)
    view = ctx.game.observation(state)
    before = plan_mod.features(view)
    best = max(p.values.values(), default=None)
    contested = {m for g in _contests(ctx) if not g.get("spare") for m in g["moves"]} if p.values else set()
    if p.values:
        yield ("plan", {"gain": round(best - p.root, 2), "line": [str(m) for m in p.lines[max(p.values, key=p.values.get)]],
                        "nodes": p.nodes, "complete": p.complete})
    deal_ok = _deal_legal(ctx)
    if best is None or (best <= p.root + 1e-9 and deal_ok):
        if deal_ok:
            left = len(state.areas[STOCK][0])
            yield _suggest(ctx, Move.act("deal"),
                           "no card move now gains anything (none turns up a card, makes a space, settles a king or "
                           f"joins a card without cost), so deal the next row; {left} card{'s' if left != 1 else ''} "
                           "left in the stock", 25.0)
        return
    for m, v in p.values.items():
        gain = v - p.root
        if gain <= 1e-9 and deal_ok:
            continue
        line = p.lines[m]
        end = view.copy()
        for x in line:
            ctx.game.apply(end, x)
        after = plan_mod.features(end)
        # ties: first turn a card up (tip 9), then make a space, and keep a contested choice for last (tip 7)
        bonus = 0.3 * turns_up(state, m) + 0.2 * makes_space(state, m) - 0.4 * (m in contested)
        shown = ", ".join(map(str, line[:4])) + (f" and {len(line) - 4} more" if len(line) > 4 else "")
        steps = "this move" if len(line) == 1 else f"the line {shown} ({len(line)} moves)"
        reason = f"{steps} {_effects(before, after)}"
        if not deal_ok and gain <= 1e-9:
            reason += "; the stock is out, so play on even though nothing is gained"
        yield _suggest(ctx, m, reason, 30.0 + gain + bonus if gain > 0 else 20.0 + gain + bonus)


# ------------------------------------------------------------------- tip 7

def _contests(ctx: Context) -> list[dict]:
    """Card moves grouped by the kind of senior they need: first the groups where more juniors want that kind
    than there are seniors showing (contested), then those with more seniors than juniors (``spare``)."""
    groups: dict[tuple[int, bool], dict] = {}
    for m in _card_moves(ctx):
        foot = ctx.state.pile(m.src)[-m.count].card
        if foot.rank == BOOK_LEN:
            continue
        cls = senior_class(foot)
        g = groups.setdefault(cls, {"class": cls, "juniors": {}, "seniors": {}, "moves": []})
        g["juniors"][m.src] = foot
        g["seniors"][m.dst] = ctx.state.pile(m.dst)[-1].card
        g["moves"].append(m)
    return ([g for g in groups.values() if len(g["juniors"]) > len(g["seniors"])]
            + [dict(g, spare=True) for g in groups.values() if len(g["juniors"]) < len(g["seniors"])])


@BOOK.rule("two-juniors", f"{SOURCE}, tip 7",
           "When two juniors want the same senior, put the choice off as long as you can: turning up a face-down "
           "card may bring a second senior. When two seniors could take one junior, it hardly matters which.")
def two_juniors(ctx: Context):
    groups = _contests(ctx)
    if not groups:
        return
    panel = []
    contested_moves = set()
    for g in groups:
        juniors = ", ".join(f"{c.pretty} ({loc.human()})" for loc, c in g["juniors"].items())
        seniors = ", ".join(f"{c.pretty} ({loc.human()})" for loc, c in g["seniors"].items())
        panel.append({"wanted": _class_words(g["class"]), "juniors": [f"{c.label}@{loc}" for loc, c in g["juniors"].items()],
                      "seniors": [f"{c.label}@{loc}" for loc, c in g["seniors"].items()],
                      "kind": "spare-seniors" if g.get("spare") else "contested"})
        if g.get("spare"):
            yield (f"{juniors} can go on any of {seniors}: it very seldom matters which (tip 7)")
            continue
        contested_moves.update(g["moves"])
        yield (f"{juniors} all want a {_class_words(g['class'])} and only {seniors} shows: put the choice off as long "
               "as possible, a second one may turn up from the face-down cards (tip 7)")
    yield ("contests", panel)
    if not contested_moves:
        return
    others = [m for m in _card_moves(ctx) if m not in contested_moves]
    reveal = [m for m in others if turns_up(ctx.state, m)]
    for m in reveal:
        yield _suggest(ctx, m, "make this before choosing between the juniors: it turns up a face-down card, which "
                               "may be the second senior they need", 16.0)
    if others:
        return
    # The choice can wait no longer: be guided by the other tips.
    risky = {(r.col, r.depth) for r in juniors_at_risk(ctx.state)}
    best, why = None, ""
    for m in sorted(contested_moves):
        src = ctx.state.pile(m.src)
        lo = len(src) - m.count
        rank = ((COLS.index(m.src), lo) in risky, turns_up(ctx.state, m), makes_space(ctx.state, m), lo)
        if best is None or rank > best[0]:
            reasons = [t for t, ok in zip(("it frees a junior at risk (tip 8)", "it turns up a face-down card",
                                           "it makes a space"), rank[:3]) if ok]
            best, why = (rank, m), ("; ".join(reasons) or f"it uncovers the most cards ({lo} lie beneath it)")
    yield _suggest(ctx, best[1], f"nothing else is left to do first, so choose now: {why}", 16.0)


# ------------------------------------------------------------------- tip 8

@BOOK.rule("junior-at-risk", f"{SOURCE}, tip 8",
           "A card or set lying above one of its own seniors in the same column, with other cards between, is a "
           "danger: if the other seniors all get married to other juniors it can never move and the game is lost. "
           "Turn it at right angles and move it as soon as a senior shows elsewhere.")
def junior_at_risk(ctx: Context):
    state = ctx.state
    cols = columns(state)
    legal = _card_moves(ctx)
    for r in juniors_at_risk(state):
        cls = senior_class(r.card)
        others = r.free_seniors
        reason = (f"the {r.card.pretty} lies above the {r.senior.pretty} in its own column with other cards "
                  f"between: it can only leave on another {_class_words(cls)}")
        if others == 0:
            reason += ("; none is left (the others are married to juniors already or buried here), so it can "
                       "never move and the game is lost")
        else:
            reason += f"; {others} other{'s are' if others != 1 else ' is'} not yet taken by a junior"
        yield Danger(where=_where(r.col), depth=r.depth, card=r.card.label, kind="junior-at-risk",
                     reason=reason, mark=TURN_90)
        if others == 0:
            yield Winnable(verdict="no", exact=True,
                           reason=f"the {r.card.pretty} in {_human(r.col)} can never move: every other "
                                  f"{_class_words(cls)} is married or buried beneath it (tip 8)")
        pile = cols[r.col]
        k = top_set(pile)
        if k and len(pile) - k == r.depth:
            for m in legal:
                if m.src == COLS[r.col]:
                    yield _suggest(ctx, m, f"frees the junior at risk {_set_words(pile, r.depth)} from above the "
                                           f"{r.senior.pretty} (tip 8)", 18.0)


# ------------------------------------------------------------------- tip 9

@BOOK.rule("concealed-senior", f"{SOURCE}, tip 9",
           "The senior of a card may be hidden among the face-down cards under it, a concealed form of the same "
           "danger; the more separate sets (sideways jinks) a column holds, the likelier it is, so a column of "
           "many jinks is itself a danger signal.")
def concealed_senior(ctx: Context):
    state = ctx.state
    view = View.of(state)
    panel = []
    for i, p in enumerate(columns(state)):
        if not p or is_dead(p):
            continue
        d = face_down(p)
        if not d:
            continue
        feet = []
        for lo, _ in sets_of(p):
            c = p[lo].card
            if c is None or c.rank == BOOK_LEN:
                continue
            prob = view.hidden_among({senior_class(c)}, d)
            feet.append((lo, c, prob))
            panel.append({"where": _where(i), "depth": lo, "card": c.label, "probability": round(prob, 3)})
            if prob >= CONCEALED:
                yield Danger(where=_where(i), depth=lo, card=c.label, kind="concealed-danger",
                             reason=(f"a {_class_words(senior_class(c))} for the {c.pretty} may lie among the {d} "
                                     f"face-down card{'s' if d != 1 else ''} under it: chance {_percent(prob)}"))
        if len(feet) >= JINKS_MANY:
            union = {senior_class(c) for _, c, _ in feet}
            prob = view.hidden_among(union, d)
            yield Danger(where=_where(i), depth=None, card=None, kind="many-jinks",
                         reason=(f"{len(feet)} separate sets lie on {d} face-down card{'s' if d != 1 else ''}: "
                                 f"the chance that one of them has its senior hidden underneath is {_percent(prob)}; "
                                 "clear this column as soon as you can"))
    yield ("hidden-seniors", panel)


# -------------------------------------------------------------- tips 10-12

def _kings_waiting(state: State) -> list[tuple[int, int, Card]]:
    out = []
    for i, p in enumerate(columns(state)):
        if not p or is_dead(p):
            continue
        for j, s in enumerate(p):
            if j > 0 and s.face_up and s.card is not None and s.card.rank == BOOK_LEN:
                out.append((i, j, s.card))
    return out


@BOOK.rule("kings-curse", f"{SOURCE}, tips 10 and 11",
           "Kings are a curse: they move only into spaces, so every card under a king is locked until a space "
           "opens. With many kings waiting and no space, making a space comes first.")
def kings_curse(ctx: Context):
    state = ctx.state
    cols = columns(state)
    waiting = _kings_waiting(state)
    spaces = [i for i, p in enumerate(cols) if not p]
    for i, j, k in waiting:
        under = j
        yield Danger(where=_where(i), depth=j, card=k.label, kind="curse",
                     reason=(f"the {k.pretty} can only move into a space; the {under} card{'s' if under != 1 else ''} "
                             "under it stay locked until then"))
    if len(waiting) >= KINGS_MANY and not spaces:
        yield (f"{len(waiting)} kings are waiting and there is no space: making one is the priority (tip 11)")
        for m in _card_moves(ctx):
            if makes_space(state, m):
                yield _suggest(ctx, m, f"makes a space for the {len(waiting)} kings waiting (tip 11)", 17.0)


@BOOK.rule("aces-curse", f"{SOURCE}, tips 10 and 12",
           "Aces are a curse too: nothing can go on an ace, so each column ending in one is closed to moves. "
           "Too many of them leave too few columns to move cards between.")
def aces_curse(ctx: Context):
    state = ctx.state
    cols = columns(state)
    tops = [i for i, p in enumerate(cols)
            if p and not is_dead(p) and p[-1].face_up and p[-1].card is not None and p[-1].card.rank == 1]
    for i in tops:
        a = cols[i][-1].card
        yield Danger(where=_where(i), depth=len(cols[i]) - 1, card=a.label, kind="curse",
                     reason=f"nothing can be put on the {a.pretty}: {_human(i)} takes no card until it moves on")
    if len(tops) >= ACES_MANY:
        yield (f"{len(tops)} columns end in an ace: too few columns are left to take cards (tip 12)")
        for m in _card_moves(ctx):
            if COLS.index(m.src) in tops:
                yield _suggest(ctx, m, f"takes an ace off the end of {m.src.human()}, opening it to moves again (tip 12)", 15.0)


# ------------------------------------------------------------------ tip 13

@BOOK.rule("hold-king-back", f"{SOURCE}, tip 13",
           "With one space and several kings able to go into it, when no king's move would lead to a further move, "
           "keep the space and choose the king after the next deal.")
def hold_king_back(ctx: Context):
    state = ctx.state
    cols = columns(state)
    spaces = [i for i, p in enumerate(cols) if not p]
    if len(spaces) != 1:
        return
    kings = [m for m in _card_moves(ctx) if not state.pile(m.dst)]
    if len({m.src for m in kings}) < 2:
        return
    view = ctx.game.observation(state)
    openers = []
    for m in kings:
        if turns_up(state, m):
            openers.append((m, "it turns up a face-down card"))
            continue
        after = view.copy()
        ctx.game.apply(after, m)
        follow = [x for x in ctx.game._card_moves(after) if m.src in (x.src, x.dst)]
        if follow:
            openers.append((m, f"it lets {ctx.game.describe(after, follow[0])} follow"))
    names = ", ".join(state.pile(m.src)[-m.count].card.pretty for m in kings)
    if openers:
        for m, why in openers:
            yield _suggest(ctx, m, f"of the kings that could fill the one space ({names}), this one opens further "
                                   f"play: {why} (tip 13)", 14.0)
        return
    if state.areas[STOCK][0] and _deal_legal(ctx):
        yield _suggest(ctx, Move.act("deal"),
                       f"the kings {names} could fill the one space, but no such move leads anywhere: keep the space "
                       "and choose the king after the next deal (tip 13)", 14.0)
        yield (f"hold the kings {names} back from the space until the next row is dealt (tip 13)")


# ------------------------------------------------------------------ tip 14

@BOOK.rule("dead-columns", f"{SOURCE}, tip 14",
           "Finished books turned down and spaces waiting for kings are dead columns: a game going well can "
           "still run short of columns to move cards between.")
def dead_columns(ctx: Context):
    state = ctx.state
    cols = columns(state)
    books = [i for i, p in enumerate(cols) if p and is_dead(p)]
    spaces = [i for i, p in enumerate(cols) if not p]
    king_can_come = any(not state.pile(m.dst) for m in _card_moves(ctx))
    idle = [] if king_can_come else spaces
    aces = [i for i, p in enumerate(cols) if p and not is_dead(p) and p[-1].face_up and p[-1].card is not None
            and p[-1].card.rank == 1]
    working = len(cols) - len(books) - len(spaces)
    yield ("columns", {"working": working, "books": [_where(i) for i in books], "spaces": [_where(i) for i in spaces],
                       "idle_spaces": [_where(i) for i in idle], "ace_ends": [_where(i) for i in aces]})
    dead = books + idle
    if len(dead) >= DEAD_MANY:
        for i in sorted(dead):
            what = "holds a finished book" if i in books else "is a space no king can fill yet"
            yield Danger(where=_where(i), depth=None, card=None, kind="dead-column",
                         reason=(f"{_human(i)} {what}: {len(dead)} of the 13 columns are dead, leaving {working} "
                                 "to move cards between (tip 14)"))
