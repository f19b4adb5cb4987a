"""Keeling's tips for Aunty Allis, each a named rule.

Source: George Keeling, "The five great games of patience" (2005), section B,
part 4 (tips 1-8 and the paragraphs before them on when to shuffle again).
The rules read only what the player can see: they work on the observation
(face-down stock hidden), so they never peek at the undealt cards.

Words used here (decided in seeds/aunty-allis.toml):

* the *seniors* of a card are the cards of its suit that go after it in the
  same operational row (the 9 and Q of hearts for the 6 of hearts); its
  *juniors* are the ones that go before it.
* a rubbish-row card is **dead** (tilted 45 degrees right) when it lies at the
  foot of its pile or on a dead (or relieved) card, does not lie on one of
  its own juniors, and is a potential dead card: an ace, an honour (J, Q, K),
  an immediate junior of an honour (8, 9, 10), a card lying straight on one
  of its own seniors (a chain such as Q, 9, 6, 3 of hearts), or a card whose
  seniors are all settled - built, junk in an operational row (they go
  straight to their pile), or dead in the rubbish row (a later death).
* a **danger card** (turned 90 degrees) lies on one of its own juniors. It
  is **relieved** (tilted 45 degrees left: play it before its twin) once its
  twin is dead in the rubbish row, and **blocked** when it can never be
  played because every copy it still needs lies beneath it.

Scores (only their order matters):
    100      first move of an exact winning plan (stock used up, every card known)
    40       throw out an ace on top of the rubbish row
    35       play a relieved danger card before its twin
    30       spend spaces well: fill a space with a starter lying as junk in another row (the space passes on,
             seating two starters); build a card out of an operational row rather than its twin from the
             rubbish row (it opens a place) - unless the twin lies on its own junior (tip 7)
    20-28    rescue a live (not dead) rubbish card: build it, or use it to fill a space
    18       open a place in an operational row for a live starter on top of the rubbish row
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..advice import TILT_LEFT, TILT_RIGHT, TURN_90, Advice, Context, Danger, Suggestion, TipBook, Winnable
from ..cards import RANK_NAME, Card
from ..engine import Loc, State
from ..games.aunty_allis import (DISCARD, JUNK, BUILT, LEVEL, PLACES, ROW_OF_RANK, ROW_WORD, ROWS, RUBBISH,
                                 SEQ, START, STOCK, STOCK_CARDS, place_status, pile_suit, vacancy)
from .. import aunty_allis_solver as solver

SOURCE = "Keeling, Aunty Allis"
HONOUR_CROWD = 4        # junk honours in one operational row that make a fresh lay-out not worth playing
BURIED_SHARE = 0.5      # share of the starters still needed that lie buried under higher cards


BOOK = TipBook("aunty-allis")


# ------------------------------------------------------------------ analysis

def _row(card: Card) -> str | None:
    return None if card.rank == 1 else ROW_OF_RANK[card.rank]


def is_senior(a: Card, b: Card) -> bool:
    """``a`` goes after ``b`` in the same pile (same suit, same row, higher)."""
    return (a.rank != 1 and b.rank != 1 and a.suit == b.suit and ROW_OF_RANK[a.rank] == ROW_OF_RANK[b.rank]
            and a.rank > b.rank)


def seniors(card: Card) -> list[int]:
    if card.rank == 1:
        return []
    return [r for r in SEQ[ROW_OF_RANK[card.rank]] if r > card.rank]


@dataclass
class Analysis:
    """Keeling's marks for every rubbish-row card, keyed by (pile index, depth from the bottom)."""

    status: dict[tuple[int, int], str] = field(default_factory=dict)   # dead, play-first, danger, blocked, live
    why: dict[tuple[int, int], str] = field(default_factory=dict)
    cards: dict[tuple[int, int], Card] = field(default_factory=dict)

    def of(self, i: int, j: int) -> str:
        return self.status.get((i, j), "unknown")

    def top(self, state: State, i: int) -> str | None:
        p = state.areas[RUBBISH][i]
        return self.of(i, len(p) - 1) if p else None

    @property
    def all_dead(self) -> bool:
        return bool(self.status) and all(v in ("dead", "play-first") for v in self.status.values())


def _piles_of(state: State, row: str, suit: str) -> list[int]:
    """Heights of the built piles of ``suit`` in ``row``."""
    out = []
    for p in state.areas[row]:
        if p and place_status(p, row) == BUILT and pile_suit(p) == suit:
            out.append(len(p))
    return out


def _built_copies(state: State, card: Card) -> int:
    """Copies of ``card`` already built into piles (a pile higher than the card's level holds one)."""
    if card.rank == 1:
        return 0
    row = ROW_OF_RANK[card.rank]
    return sum(1 for h in _piles_of(state, row, card.suit) if h > LEVEL[card.rank])


def _junk_copies(state: State) -> dict[tuple[int, str], int]:
    out: dict[tuple[int, str], int] = {}
    for row in ROWS:
        for p in state.areas[row]:
            if len(p) == 1 and p[0].card is not None and place_status(p, row) == JUNK:
                f = p[0].card.face
                out[f] = out.get(f, 0) + 1
    return out


def blocked(state: State, pile: list, j: int) -> bool:
    """The card at depth ``j`` can never be played: every way to raise a pile to it needs a card beneath it."""
    y = pile[j].card
    if y is None or y.rank == 1:
        return False
    row, k = ROW_OF_RANK[y.rank], LEVEL[y.rank]
    if k == 0:
        return False
    heights = _piles_of(state, row, y.suit)
    beneath = [s.card for s in pile[:j] if s.card is not None]

    def avail(level: int) -> int:
        rank = SEQ[row][level]
        return (2 - sum(1 for h in heights if h > level)
                - sum(1 for c in beneath if c.face == (rank, y.suit)))

    candidates = [h for h in heights if h <= k] + [0] * max(0, 2 - len(heights))
    for h in candidates:
        if all(avail(level) >= 1 for level in range(h, k)):
            return False
    return True


def analyse(state: State) -> Analysis:
    """Dead, relieved, danger and blocked cards of the rubbish row (least fixed point of the rules above)."""
    a = Analysis()
    rub = state.areas[RUBBISH]
    junk = _junk_copies(state)
    over_junior: dict[tuple[int, int], Card] = {}
    fatal: set[tuple[int, int]] = set()
    for i, p in enumerate(rub):
        for j, s in enumerate(p):
            if s.card is None:
                continue
            a.cards[(i, j)] = s.card
            low = next((b.card for b in p[:j] if b.card is not None and is_senior(s.card, b.card)), None)
            if low is not None:
                over_junior[(i, j)] = low
                if blocked(state, p, j):
                    fatal.add((i, j))
    dead: set[tuple[int, int]] = set()
    relieved: set[tuple[int, int]] = set()
    reason: dict[tuple[int, int], str] = {}

    def settled(rank: int, suit: str) -> int:
        c = Card(rank, suit)
        n = _built_copies(state, c) + junk.get(c.face, 0)
        n += sum(1 for pos in dead | relieved if a.cards[pos].face == c.face)
        return n

    def potential(i: int, j: int) -> str | None:
        x = a.cards[(i, j)]
        if x.rank == 1:
            return f"an ace is thrown out as soon as it is uncovered, so the {x.pretty} never holds anything up"
        lv = LEVEL[x.rank]
        if lv == 3:
            return f"the {x.pretty} is an honour: no card of its pile comes after it, so whatever lands on it can go first"
        if lv == 2:
            hon = Card(SEQ[ROW_OF_RANK[x.rank]][3], x.suit)
            return (f"the {x.pretty} is the immediate junior of the {hon.pretty}: only that honour could be held up "
                    "by it, and an honour landing on it is flagged as a danger card")
        if j > 0:
            b = rub[i][j - 1].card
            if b is not None and is_senior(b, x):
                return (f"the {x.pretty} lies straight on its own senior, the {b.pretty}: the chain comes off "
                        "in playing order")
        missing = [Card(r, x.suit) for r in seniors(x) if settled(r, x.suit) < 2]
        if not missing:
            return (f"every senior of the {x.pretty} is already built, waiting as junk in its row, or dead "
                    "in the rubbish row, so no card that needs it can land on it any more (a later death)")
        return None

    changed = True
    while changed:
        changed = False
        for i, p in enumerate(rub):
            for j in range(len(p)):
                pos = (i, j)
                if pos not in a.cards:
                    break
                if j > 0 and (i, j - 1) not in dead and (i, j - 1) not in relieved:
                    break
                if pos in dead or pos in relieved:
                    continue
                x = a.cards[pos]
                if pos in over_junior:
                    if pos in fatal:
                        break
                    twin = [q for q in dead if q != pos and a.cards[q].face == x.face]
                    if twin:
                        relieved.add(pos)
                        ti, tj = twin[0]
                        reason[pos] = (f"the {x.pretty} lies on the {over_junior[pos].pretty} but its twin in "
                                       f"rubbish {ti + 1} is now dead, so the peril is gone provided this "
                                       f"{x.pretty} is played before its twin (tilt 45° left)")
                        changed = True
                    else:
                        break
                    continue
                why = potential(i, j)
                if why is None:
                    break
                dead.add(pos)
                where = "it lies at the foot of its pile" if j == 0 else "it lies on a dead card"
                reason[pos] = f"{why}; {where} (tilt 45° right)"
                changed = True
    for pos, x in a.cards.items():
        if pos in dead:
            a.status[pos] = "dead"
        elif pos in relieved:
            a.status[pos] = "play-first"
        elif pos in fatal:
            a.status[pos] = "blocked"
            a.why[pos] = (f"the {x.pretty} lies on the {over_junior[pos].pretty} and can never be played: "
                          f"every {x.pretty} pile still to be raised needs a card buried beneath it, "
                          "so this game cannot be won (Keeling would shuffle and start again)")
            continue
        elif pos in over_junior:
            a.status[pos] = "danger"
            a.why[pos] = (f"the {x.pretty} lies on its own junior, the {over_junior[pos].pretty}: unless its twin "
                          "is settled first, the two may block each other for good (turn it 90°)")
            continue
        else:
            a.status[pos] = "live"
            continue
        a.why[pos] = reason[pos]
    return a


def over_junior_of(state: State, i: int, j: int) -> Card | None:
    """The first junior of the card at rubbish ``i`` depth ``j`` that lies beneath it, if any."""
    pile = state.areas[RUBBISH][i]
    y = pile[j].card
    return next((b.card for b in pile[:j] if b.card is not None and y is not None and is_senior(y, b.card)), None)


def _obs(ctx: Context) -> State:
    return ctx.game.observation(ctx.state)


def _rubbish_loc(i: int) -> str:
    return str(Loc(RUBBISH, i))


# ------------------------------------------------------------------ the tips

@BOOK.rule("dead-cards", f"{SOURCE}, tips 3-6",
           "Dead cards in the rubbish row (tilted 45° right): honours and their immediate juniors at first, "
           "then any potential dead card landing on a dead one, chains such as Q-9-6-3 of a suit, and cards "
           "whose seniors have all been settled since.")
def dead_cards(ctx: Context):
    s = _obs(ctx)
    a = analyse(s)
    n = 0
    for (i, j), st in sorted(a.status.items()):
        if st == "dead":
            n += 1
            yield Danger(_rubbish_loc(i), j, a.cards[(i, j)].label, "dead", a.why[(i, j)], TILT_RIGHT)
    total = len(a.cards)
    yield ("dead-cards", {"dead": n, "rubbish": total, "all_dead": a.all_dead})
    if total and a.all_dead:
        if s.areas[STOCK][0]:
            yield (f"so far every card in the rubbish row ({total}) is dead or relieved: none of them "
                   "holds up another")
        else:
            yield (f"every card left in the rubbish row ({total}) is dead or relieved: take care to play "
                   "them in the right order (see the plan)")


@BOOK.rule("danger-cards", f"{SOURCE}, tip 7",
           "A senior lying on one of its juniors is a danger card (turned 90°); when its twin falls dead, the "
           "peril is gone and it is tilted 45° left: play it before its twin. A danger card that can never be "
           "played means the game is lost.")
def danger_cards(ctx: Context):
    s = _obs(ctx)
    a = analyse(s)
    for (i, j), st in sorted(a.status.items()):
        x = a.cards[(i, j)]
        if st == "danger":
            yield Danger(_rubbish_loc(i), j, x.label, "danger", a.why[(i, j)], TURN_90)
        elif st == "play-first":
            yield Danger(_rubbish_loc(i), j, x.label, "play-first", a.why[(i, j)], TILT_LEFT)
        elif st == "blocked":
            yield Danger(_rubbish_loc(i), j, x.label, "blocked", a.why[(i, j)], TURN_90)
    # Play a relieved card before its twin whenever it can go.
    legal = ctx.game.legal_moves(ctx.state)
    for m in legal:
        if m.action == "move" and m.src.area == RUBBISH:
            p = s.areas[RUBBISH][m.src.index]
            if a.of(m.src.index, len(p) - 1) == "play-first":
                x = p[-1].card
                yield Suggestion(str(m), ctx.game.describe(ctx.state, m),
                                 f"the {x.pretty} was a danger card, relieved when its twin fell dead: it must be "
                                 "played before its twin, and it can go now", 35)
    for (i, j), st in sorted(a.status.items()):
        if st != "play-first":
            continue
        x = a.cards[(i, j)]
        twin = next(((ti, tj) for (ti, tj), c in a.cards.items() if (ti, tj) != (i, j) and c.face == x.face), None)
        if twin is not None and twin[1] == len(s.areas[RUBBISH][twin[0]]) - 1:
            yield (f"do not play the {x.pretty} in rubbish {twin[0] + 1} before the one in rubbish {i + 1}: "
                   f"that one lies on the {over_junior_of(s, i, j).pretty} and must go first")
    fatal = [(i, j) for (i, j), st in a.status.items() if st == "blocked"]
    if fatal:
        i, j = min(fatal)
        yield Winnable("no", exact=True, reason=a.why[(i, j)])


@BOOK.rule("throw-out-aces", f"{SOURCE}, rules of play",
           "An ace on top of the rubbish row is thrown out at once: it frees the card beneath and costs nothing.")
def throw_out_aces(ctx: Context):
    for m in ctx.game.legal_moves(ctx.state):
        if m.action == "move" and m.src.area == RUBBISH and m.dst.area == DISCARD:
            yield Suggestion(str(m), ctx.game.describe(ctx.state, m),
                             "an ace on top of the rubbish row only covers the card beneath it; throwing it out "
                             "never costs anything", 40)


@BOOK.rule("rescue-live-cards", f"{SOURCE}, tips 2, 3 and 5",
           "Dead cards can wait; move first the live ones, which the next deal may bury, opening a place in "
           "their row for live starters (but never building a card before a twin that lies on its junior).")
def rescue_live_cards(ctx: Context):
    s = _obs(ctx)
    a = analyse(s)
    legal = ctx.game.legal_moves(ctx.state)
    for m in legal:
        if m.action != "move" or m.src.area != RUBBISH or m.dst.area == DISCARD:
            continue
        i = m.src.index
        p = s.areas[RUBBISH][i]
        st = a.of(i, len(p) - 1)
        if st not in ("live", "danger"):
            continue
        x = p[-1].card
        if st == "live" and _twin_must_go_first(s, a, i, len(p) - 1):
            continue
        if _junk_twin_goes_first(s, legal, m):
            continue
        under = len(p) - 1
        filling = not ctx.state.pile(m.dst)
        what = "fill the empty place with it" if filling else "build it"
        reason = (f"the {x.pretty} is not dead: the next deal could bury it, so {what} now"
                  + (f"; it also uncovers {under} card{'s' if under != 1 else ''} beneath" if under else ""))
        yield Suggestion(str(m), ctx.game.describe(ctx.state, m), reason, 20 + min(under, 8))
    # Open a place (throw out an ace or build a junk card away) for a live starter waiting on the rubbish row.
    if vacancy(s) is not None:
        return
    for row in ROWS:
        live = [(i, p[-1].card) for i, p in enumerate(s.areas[RUBBISH])
                if p and p[-1].card is not None and p[-1].card.rank == START[row] and a.of(i, len(p) - 1) == "live"]
        if not live:
            continue
        openers = [m for m in legal if m.action == "move" and m.src.area == row]
        # a junk card built away opens the place and builds a card; an ace only opens it
        openers.sort(key=lambda m: m.dst.area == DISCARD)
        if openers:
            m = openers[0]
            i, c = live[0]
            yield Suggestion(str(m), ctx.game.describe(ctx.state, m),
                             f"opens a place in the {ROW_WORD[row]} for the {c.pretty} in rubbish {i + 1}, which is "
                             "not dead and could be buried by the next deal", 18)


def _twin_must_go_first(s: State, a: Analysis, i: int, j: int) -> bool:
    """The card's twin lies on one of its juniors, so the twin should be built first (tip 7)."""
    x = a.cards[(i, j)]
    for (ti, tj), c in a.cards.items():
        if (ti, tj) != (i, j) and c.face == x.face and a.of(ti, tj) in ("danger", "play-first"):
            return True
    return False


def _junk_twin_goes_first(s: State, legal: list, m) -> bool:
    """A junk card in an operational row can take the rubbish card's target pile (see spend-spaces-well)."""
    if m.src.area != RUBBISH or m.dst.area not in ROWS or not s.pile(m.dst):
        return False
    if over_junior_of(s, m.src.index, len(s.areas[RUBBISH][m.src.index]) - 1) is not None:
        return False    # tip 7: a card lying on its own junior goes first
    return any(o.action == "move" and o.src.area in ROWS and o.dst == m.dst for o in legal)


@BOOK.rule("spend-spaces-well", f"{SOURCE}, tip 2",
           "Places for starters are what the game runs short of: fill a space with a starter lying as junk in "
           "another row first (the space passes to that row, so one space seats two starters), and when the same "
           "card could be built from the rubbish row or out of an operational row, build the one in the row, "
           "which opens a place there.")
def spend_spaces_well(ctx: Context):
    s = _obs(ctx)
    legal = ctx.game.legal_moves(ctx.state)
    hole = vacancy(s)
    for m in legal:
        if m.action != "move" or m.src.area not in ROWS or m.dst.area == DISCARD:
            continue
        x = s.pile(m.src)[0].card
        holder = ROW_WORD[m.src.area]
        if hole is not None:
            reason = (f"the {x.pretty} lies as junk in the {holder}: moving it into the space seats it and passes "
                      f"the space on to the {holder}, so one space seats two starters, where a starter from the "
                      "rubbish row would seat only one")
            yield Suggestion(str(m), ctx.game.describe(ctx.state, m), reason, 30)
            continue
        twins = [o for o in legal if o.action == "move" and o.src.area == RUBBISH and o.dst == m.dst]
        if not twins or not all(_junk_twin_goes_first(s, legal, o) for o in twins):
            continue
        where = ", ".join(f"rubbish {o.src.index + 1}" for o in twins)
        reason = (f"the {x.pretty} could go on the pile in {m.dst.human()} from the {holder} or from {where}: "
                  f"build the one in the {holder}, which opens a place there for a starter; the one in the rubbish "
                  "row can wait for the other pile of its suit")
        yield Suggestion(str(m), ctx.game.describe(ctx.state, m), reason, 30)


@BOOK.rule("postpone-for-a-starter", f"{SOURCE}, tips 2 and 5",
           "Count the places each operational row can open for starters; if a row can open only one and the "
           "only starter ready for it is dead (so it can wait), keep that place for a starter still to come.")
def postpone(ctx: Context):
    s = _obs(ctx)
    if vacancy(s) is not None:
        return
    a = analyse(s)
    legal = ctx.game.legal_moves(ctx.state)
    panel = {}
    for row in ROWS:
        opening = sorted({m.src.index for m in legal if m.action == "move" and m.src.area == row})
        ready = []
        for i, p in enumerate(s.areas[RUBBISH]):
            if p and p[-1].card is not None and p[-1].card.rank == START[row]:
                ready.append((i, p[-1].card, a.of(i, len(p) - 1)))
        built = sum(1 for p in s.areas[row] if p and place_status(p, row) == BUILT)
        in_junk = sum(1 for r in ROWS if r != row for p in s.areas[r]
                      if len(p) == 1 and p[0].card is not None and p[0].card.rank == START[row])
        to_come = PLACES - built - len(ready) - in_junk
        panel[row] = {"can_open_now": len(opening), "starters_ready": len(ready),
                      "starters_to_come": to_come, "places_to_fill": PLACES - built}
        if len(opening) == 1 and ready and all(st in ("dead", "play-first") for _, _, st in ready) and to_come > 0:
            place = opening[0]
            x = s.areas[row][place][0].card
            names = ", ".join(f"the {c.pretty} in rubbish {i + 1}" for i, c, _ in ready)
            word = RANK_NAME[START[row]]
            reason = (f"{Loc(row, place).human()} (the {x.pretty}) is the only place the {ROW_WORD[row]} can open "
                      f"now; the only {word}{'s' if len(ready) > 1 else ''} ready ({names}) "
                      f"{'are' if len(ready) > 1 else 'is'} dead and can wait, while {to_come} more "
                      f"{word}{'s' if to_come != 1 else ''} may still come: think of keeping the place for one of them")
            yield Danger(str(Loc(row, place)), 0, x.label, "postpone", reason, None)
            yield reason
    yield ("openings", panel)


@BOOK.rule("reshuffle-now", f"{SOURCE}, tips (before tip 1)",
           "Some deals are not worth playing: no ace in the operational rows, or honours crowding one operational "
           "row, right after the lay-out; later, a mass of starters buried under higher cards, or a card that "
           "can never be played (a twin king on the seven).")
def reshuffle(ctx: Context):
    s = _obs(ctx)
    reasons = []
    fresh = len(s.areas[STOCK][0]) == STOCK_CARDS and all(len(p) <= 1 for p in s.areas[RUBBISH])
    if fresh:
        aces = sum(1 for r in ROWS for p in s.areas[r] if len(p) == 1 and p[0].card is not None and p[0].card.rank == 1)
        if aces == 0:
            reasons.append("there is no ace in the operational rows, so no place can be opened for a starter "
                           "except by building a junk card away")
        for row in ROWS:
            honours = [p[0].card for p in s.areas[row]
                       if len(p) == 1 and p[0].card is not None and p[0].card.rank > 10]
            if len(honours) >= HONOUR_CROWD:
                reasons.append(f"{len(honours)} honours ({' '.join(c.pretty for c in honours)}) crowd the "
                               f"{ROW_WORD[row]}: they leave only at the very end of their piles, blocking the way in")
    else:
        buried = 0
        for p in s.areas[RUBBISH]:
            for j, slot in enumerate(p):
                c = slot.card
                if c is None or c.rank not in (2, 3, 4) or j == len(p) - 1:
                    continue
                if any(b.card is not None and b.card.rank != 1 and LEVEL[b.card.rank] > 0 for b in p[j + 1:]):
                    buried += 1
        needed = sum(1 for r in ROWS for p in s.areas[r] if not (p and place_status(p, r) == BUILT))
        if needed and buried >= max(4, BURIED_SHARE * needed):
            reasons.append(f"{buried} starters lie buried in the rubbish row under higher cards, out of "
                           f"{needed} still needed")
    a = analyse(s)
    for (i, j), st in sorted(a.status.items()):
        if st == "blocked":
            reasons.append(f"rubbish {i + 1}: {a.why[(i, j)]}")
    yield ("reshuffle", {"advised": bool(reasons), "reasons": reasons})
    for r in reasons:
        yield f"shuffle again? {r}"


@BOOK.rule("play-order", f"{SOURCE}, tip 6",
           "With the stock used up every card is known: find the order of play that clears the rubbish row "
           "(the dead cards must still come off in the right order, a relieved card before its twin).")
def play_order(ctx: Context):
    s = _obs(ctx)
    if solver.solvable_now(s) is not None:
        return
    sol = solver.solve(s, seconds=1.0)
    if sol.verdict == "yes":
        plan = [str(m) for m in sol.plan]
        if plan:
            first = sol.plan[0]
            yield Suggestion(plan[0], ctx.game.describe(ctx.state, first),
                             f"first move of a winning order of play ({len(plan)} moves in all)", 100)
        yield Winnable("yes", exact=True, probability=1.0, plan=plan, reason=sol.reason)
    elif sol.verdict == "no":
        yield Winnable("no", exact=True, probability=0.0, reason=sol.reason)
