"""Aunty Allis: two packs, three operational rows and a rubbish row.

Rules as George Keeling records them in "The five great games of patience"
(2005), section B; the points the text leaves open are decided in
``seeds/aunty-allis.toml``.

Layout. Four rows of eight, dealt face up row after row: the ``first``,
``second`` and ``third`` rows are the operational rows, the fourth is the
``rubbish`` row, whose piles are fanned towards the player as later deals
land on them. The 72 undealt cards form the ``stock``; aces thrown out go to
the ``discard``.

Piles. Each operational place ends as a pile of four cards of one suit:
the first row builds 2-5-8-J, the second 3-6-9-Q, the third 4-7-10-K. A
place holding anything but such a pile (a card dealt there that is not the
row's starter) holds *junk*; junk leaves only by being built onto its pile
in its own row, or (an ace) thrown out, or (a starter of another row) by
filling a space there. Cards built into their row never move again.

The golden rule. A place of an operational row is never left empty except
for the instant it takes to fill it with that row's starter from another
row. With single-step moves this reads: a move that empties an operational
place is legal only when a complete chain of fills exists; while a place is
empty (the *vacancy*, seen simply as the empty pile) the only legal moves
are the fills of that place, and a fill taken from junk in another row
moves the vacancy there. A chain always ends with a starter taken from the
top of the rubbish row.
"""
from __future__ import annotations

import random
from collections import deque

from ..cards import RANK_NAME, Card
from ..engine import Area, Game, Layout, Loc, Move, Option, Slot, State

FIRST, SECOND, THIRD = "first", "second", "third"
ROWS = (FIRST, SECOND, THIRD)
RUBBISH, STOCK, DISCARD = "rubbish", "stock", "discard"
PLACES = 8
PILE = 4
LAYOUT_CARDS = 4 * PLACES          # 32
STOCK_CARDS = 104 - LAYOUT_CARDS   # 72, nine deals of eight
ACES = 8

START = {FIRST: 2, SECOND: 3, THIRD: 4}
SEQ = {row: tuple(START[row] + 3 * k for k in range(PILE)) for row in ROWS}
ROW_OF_RANK = {r: ROWS[(r - 2) % 3] for r in range(2, 14)}
LEVEL = {r: (r - 2) // 3 for r in range(2, 14)}     # 0 starter .. 3 honour
ROW_WORD = {FIRST: "first row", SECOND: "second row", THIRD: "third row"}

WITHIN = "moves_within_row"

EMPTY, BUILT, JUNK, UNKNOWN = "empty", "built", "junk", "unknown"


def rank_word(rank: int) -> str:
    return RANK_NAME[rank]


def seq_text(row: str) -> str:
    from ..cards import RANK_LABEL
    return "-".join(RANK_LABEL[r] for r in SEQ[row])


def place_status(pile: list[Slot], row: str) -> str:
    """empty, built (a correct pile from its starter), junk, or unknown (one unreadable card)."""
    n = len(pile)
    if n == 0:
        return EMPTY
    if n == 1:
        c = pile[0].card
        if c is None:
            return UNKNOWN
        return BUILT if c.rank == START[row] else JUNK
    return BUILT


def pile_suit(pile: list[Slot]) -> str | None:
    for s in pile:
        if s.card is not None:
            return s.card.suit
    return None


def built_top(pile: list[Slot], row: str) -> Card | None:
    """The card a built pile shows on top, inferred from its height and any known card."""
    suit = pile_suit(pile)
    if suit is None or not pile or len(pile) > PILE:
        return None
    return Card(SEQ[row][len(pile) - 1], suit)


def vacancy(state: State) -> Loc | None:
    """The empty operational place (at most one exists), if any."""
    for row in ROWS:
        for i, p in enumerate(state.areas.get(row, ())):
            if not p:
                return Loc(row, i)
    return None


def _pretty(slot: Slot | None) -> str:
    if slot is None:
        return "nothing"
    if slot.card is None:
        return "an unreadable card" if slot.face_up else "a face-down card"
    return slot.card.pretty


class _Graph:
    """What the golden rule needs to know: where starters lie that could fill a space.

    ``rubbish[row]``: a starter of ``row`` lies on top of the rubbish row.
    ``junk[(holder, row)]``: how many junk cards of row ``holder`` are starters of ``row``.
    """

    __slots__ = ("rubbish", "junk")

    def __init__(self, state: State):
        self.rubbish = {row: False for row in ROWS}
        for p in state.areas[RUBBISH]:
            if p and p[-1].card is not None and p[-1].face_up:
                r = p[-1].card.rank
                for row in ROWS:
                    if r == START[row]:
                        self.rubbish[row] = True
        self.junk: dict[tuple[str, str], int] = {}
        for holder in ROWS:
            for p in state.areas[holder]:
                if len(p) == 1 and p[0].card is not None:
                    r = p[0].card.rank
                    for row in ROWS:
                        if row != holder and r == START[row]:
                            self.junk[(holder, row)] = self.junk.get((holder, row), 0) + 1

    def completable(self, row: str, used: tuple[str, str] | None = None) -> bool:
        """Can a space in ``row`` be filled by a chain of fills ending in the rubbish row?

        ``used`` names one junk card (holder, row) already taken out of the graph.
        """
        seen = {row}
        todo = deque([row])
        while todo:
            x = todo.popleft()
            if self.rubbish[x]:
                return True
            for y in ROWS:
                if y in seen:
                    continue
                n = self.junk.get((y, x), 0) - (1 if used == (y, x) else 0)
                if n > 0:
                    seen.add(y)
                    todo.append(y)
        return False


class AuntyAllis(Game):
    id = "aunty-allis"
    name = "Aunty Allis"
    source = 'George Keeling, "The five great games of patience" (2005), section B: Aunty Allis'
    packs = 2
    hidden_information = True
    option_list = (
        Option(WITHIN, True,
               "a junk card may be built onto a pile in the same operational row it lies in "
               "(false: only from another row, reading the source's 'from another row' strictly)"),
    )

    # ------------------------------------------------------------ layout
    def layout(self, options: dict) -> Layout:
        gap = 1.6   # a card is 1.4 tall; rows a little apart, far to near
        return Layout((
            Area(FIRST, "foundation", PLACES, (0.0, 0.0), (1.2, 0.0),
                 note="first operational row (farthest): piles 2-5-8-J of one suit, squared"),
            Area(SECOND, "foundation", PLACES, (0.0, gap), (1.2, 0.0),
                 note="second operational row: piles 3-6-9-Q of one suit, squared"),
            Area(THIRD, "foundation", PLACES, (0.0, 2 * gap), (1.2, 0.0),
                 note="third operational row: piles 4-7-10-K of one suit, squared"),
            Area(RUBBISH, "rubbish", PLACES, (0.0, 3 * gap), (1.2, 0.0), (0.0, 0.3),
                 note="rubbish row (nearest): each deal adds a card per pile, a little nearer the player"),
            Area(STOCK, "stock", 1, (10.5, 0.0), (0.0, 0.0), face="down", on_table=False,
                 note="the undealt cards, dealt eight at a time onto the rubbish row"),
            Area(DISCARD, "discard", 1, (10.5, 2 * gap), (0.0, 0.0), on_table=False,
                 note="aces thrown out of play"),
        ))

    def deal(self, rng: random.Random, options: dict) -> State:
        deck = self.deck()
        rng.shuffle(deck)
        areas: dict[str, list[list[Slot]]] = {}
        for k, name in enumerate((*ROWS, RUBBISH)):
            areas[name] = [[Slot(c, True)] for c in deck[k * PLACES:(k + 1) * PLACES]]
        # The next card to be dealt lies on top of the stock (the end of the list).
        areas[STOCK] = [[Slot(c, False) for c in reversed(deck[LAYOUT_CARDS:])]]
        areas[DISCARD] = [[]]
        return State(self.id, areas, {}, dict(options))

    # ------------------------------------------------------------ helpers
    @staticmethod
    def _ok_shape(state: State) -> bool:
        for name, n in ((FIRST, PLACES), (SECOND, PLACES), (THIRD, PLACES), (RUBBISH, PLACES),
                        (STOCK, 1), (DISCARD, 1)):
            if len(state.areas.get(name, ())) != n:
                return False
        return True

    def _sources(self, state: State):
        """Cards that may move: rubbish tops and junk places, as (loc, card, holder-row or None)."""
        for i, p in enumerate(state.areas[RUBBISH]):
            if p and p[-1].face_up and p[-1].card is not None:
                yield Loc(RUBBISH, i), p[-1].card, None
        for row in ROWS:
            for i, p in enumerate(state.areas[row]):
                if len(p) == 1 and p[0].card is not None and p[0].card.rank != START[row]:
                    yield Loc(row, i), p[0].card, row

    def _targets(self, state: State, card: Card) -> list[int]:
        """Places in the card's own row whose pile it continues (not starters: those need a space)."""
        if card.rank == 1:
            return []
        row = ROW_OF_RANK[card.rank]
        level = LEVEL[card.rank]
        if level == 0:
            return []
        out = []
        for i, p in enumerate(state.areas[row]):
            if len(p) == level and place_status(p, row) == BUILT:
                top = built_top(p, row)
                if top is not None and top.suit == card.suit:
                    out.append(i)
        return out

    # ------------------------------------------------------------ moves
    def legal_moves(self, state: State) -> list[Move]:
        if not self._ok_shape(state):
            return []
        if self.is_won(state):
            return []
        graph = _Graph(state)
        hole = vacancy(state)
        moves: list[Move] = []
        if hole is not None:
            need = START[hole.area]
            for loc, card, holder in self._sources(state):
                if card.rank != need:
                    continue
                if holder is None or graph.completable(holder, used=(holder, hole.area)):
                    moves.append(Move.cards(loc, hole))
            return moves
        within = state.options.get(WITHIN, True)
        ok_from: dict[str, bool] = {}
        for loc, card, holder in self._sources(state):
            if holder is not None:
                if holder not in ok_from:
                    ok_from[holder] = graph.completable(holder)
                if not ok_from[holder]:
                    continue
            if card.rank == 1:
                moves.append(Move.cards(loc, Loc(DISCARD, 0)))
                continue
            row = ROW_OF_RANK[card.rank]
            if holder == row and not within:
                continue
            for i in self._targets(state, card):
                moves.append(Move.cards(loc, Loc(row, i)))
        if state.areas[STOCK][0]:
            moves.append(Move.act("deal"))
        return moves

    def apply(self, state: State, move: Move) -> None:
        if move.action == "deal":
            stock = state.areas[STOCK][0]
            for i in range(PLACES):
                if not stock:
                    break
                s = stock.pop()
                state.areas[RUBBISH][i].append(Slot(s.card, True))
            return
        src = state.pile(move.src)
        s = src.pop()
        state.pile(move.dst).append(Slot(s.card, True))

    def is_won(self, state: State) -> bool:
        if not self._ok_shape(state):
            return False
        if state.areas[STOCK][0] or any(state.areas[RUBBISH]):
            return False
        return all(len(p) == PILE for row in ROWS for p in state.areas[row])

    def completion(self, state: State) -> float:
        """Share of the 96 non-ace cards built into their piles (junk in the rows does not count)."""
        if self.is_won(state):
            return 1.0
        built = sum(len(p) for row in ROWS for p in state.areas.get(row, ())
                    if place_status(p, row) == BUILT)
        return built / (3 * PLACES * PILE)

    progress = completion

    def depth_under(self, state: State, loc: Loc, top: Card) -> int | None:
        """Cards under ``top`` in an operational place, where the rules fix it.

        An ace, a starter, or a card that does not belong to the row lies alone
        (junk or the foot of a pile): nothing under it. A later card of the row's
        own sequence (a 5 in the first row) may be junk lying alone or the top of
        a pile, so the rules cannot say. The rubbish row is fanned, not squared.
        """
        if loc.area not in ROWS or top.rank == 1 or top.rank not in SEQ[loc.area] or top.rank == START[loc.area]:
            return 0 if loc.area in ROWS else None
        return None

    # ------------------------------------------------------------ reasons
    def why_illegal(self, state: State, move: Move) -> str | None:
        if not self._ok_shape(state):
            return "this state does not have the Aunty Allis layout (three operational rows, rubbish row, stock, discard)"
        hole = vacancy(state)
        if move.action != "move":
            if move.action != "deal":
                return f"Aunty Allis has no action {move.action!r}; the only action is 'deal' (eight cards onto the rubbish row)"
            if move.args:
                return "'deal' takes no words after it"
            if self.is_won(state):
                return "the game is already won"
            if hole is not None:
                return (f"{hole.human()} is empty: by the golden rule it must be filled at once with a "
                        f"{rank_word(START[hole.area])} before anything else, dealing included")
            if not state.areas[STOCK][0]:
                return "the stock is used up: all nine deals of eight have been made"
            return None
        if move.count != 1:
            return "cards move one at a time in Aunty Allis"
        layout = self.layout(state.options)
        for loc in (move.src, move.dst):
            if loc.area not in layout.names:
                return f"there is no area {loc.area!r}"
            n = len(state.areas[loc.area])
            if loc.index >= n:
                return f"{loc.area} has {n} place{'s' if n != 1 else ''}; there is no {loc.human()}"
        src, dst = move.src, move.dst
        if src.area == STOCK:
            return "cards leave the stock only by dealing eight at a time onto the rubbish row: use 'deal'"
        if src.area == DISCARD:
            return "aces thrown out are out of play for good"
        if src == dst:
            return "a card cannot move onto its own place"
        pile = state.pile(src)
        if not pile:
            return f"{src.human()} is empty: there is no card to move"
        slot = pile[-1]
        if slot.card is None:
            return f"the card on top of {src.human()} cannot be read, so the move cannot be checked"
        card = slot.card
        holder = None
        if src.area in ROWS:
            st = place_status(pile, src.area)
            if st == BUILT:
                return (f"the {card.pretty} is already built into its pile in the {ROW_WORD[src.area]}; "
                        "cards in their operational row never move again")
            holder = src.area
        graph = _Graph(state)
        if hole is not None:
            need = START[hole.area]
            if dst != hole or card.rank != need:
                return (f"{hole.human()} is empty: by the golden rule it must be filled at once with a "
                        f"{rank_word(need)} from another row, and nothing else may happen first")
            if holder is not None and not graph.completable(holder, used=(holder, hole.area)):
                return (f"taking the {card.pretty} out of the {ROW_WORD[holder]} would leave a space there "
                        f"that no {rank_word(START[holder])} could fill at once (golden rule)")
            return None
        if dst.area == STOCK:
            return "no card goes back to the stock"
        if dst.area == RUBBISH:
            return "nothing is ever put on the rubbish row except the cards dealt from the stock"
        if dst.area == DISCARD:
            if card.rank != 1:
                return f"only aces are thrown out; the {card.pretty} must be built in the {ROW_WORD[ROW_OF_RANK[card.rank]]}"
            if holder is not None and not graph.completable(holder):
                return (f"throwing out the {card.pretty} would leave a space in the {ROW_WORD[holder]}, and no "
                        f"{rank_word(START[holder])} is ready (on top of the rubbish row or as junk in another row) "
                        "to fill it at once: the golden rule forbids it")
            return None
        # destination: an operational place
        if card.rank == 1:
            return f"aces are never built; the {card.pretty} can only be thrown out (to the discard)"
        row = ROW_OF_RANK[card.rank]
        if dst.area != row:
            return f"the {card.pretty} belongs in the {ROW_WORD[row]} ({seq_text(row)}), not the {ROW_WORD[dst.area]}"
        level = LEVEL[card.rank]
        target = state.pile(dst)
        tstat = place_status(target, row)
        if level == 0:
            return (f"a {rank_word(card.rank)} can only go into an empty place of the {ROW_WORD[row]}, and "
                    f"{dst.human()} is not empty; a place is emptied only by moving its card out and "
                    "filling it at once (golden rule)")
        if tstat == JUNK:
            return (f"{dst.human()} holds the {target[0].card.pretty}, which does not belong there; nothing "
                    f"is built on it: the {card.pretty} goes on the {Card(card.rank - 3, card.suit).pretty}")
        if tstat == UNKNOWN:
            return f"the card in {dst.human()} cannot be read, so the move cannot be checked"
        top = built_top(target, row)
        if top is None:
            return f"the cards in {dst.human()} cannot be read, so the move cannot be checked"
        if len(target) >= PILE:
            return f"the pile in {dst.human()} is complete (up to the {top.pretty})"
        if top.suit != card.suit or top.rank != card.rank - 3:
            return (f"the {card.pretty} goes on the {Card(card.rank - 3, card.suit).pretty}; "
                    f"{dst.human()} shows the {top.pretty}")
        if holder == row and not state.options.get(WITHIN, True):
            return (f"with the option {WITHIN} off, a junk card is built only from another row, and the "
                    f"{card.pretty} lies in the {ROW_WORD[row]} already")
        if holder is not None and not graph.completable(holder):
            return (f"moving the {card.pretty} out of the {ROW_WORD[holder]} would leave a space there, and no "
                    f"{rank_word(START[holder])} is ready (on top of the rubbish row or as junk in another row) "
                    "to fill it at once: the golden rule forbids it")
        return None

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            n = len(state.areas.get(STOCK, [[]])[0]) if state.areas.get(STOCK) else 0
            done = (STOCK_CARDS - n) // PLACES + 1
            return f"deal eight cards onto the rubbish row (deal {done} of 9)"
        if move.action != "move":
            return str(move)
        try:
            slot = state.top(move.src)
        except (KeyError, IndexError):
            slot = None
        what = _pretty(slot)
        where = move.src.human()
        if move.dst.area == DISCARD:
            return f"throw out the {what} from {where}"
        try:
            target = state.pile(move.dst)
        except (KeyError, IndexError):
            target = None
        if target is not None and not target:
            return f"fill the empty {move.dst.human()} with the {what} from {where}"
        if target and move.dst.area in ROWS:
            top = built_top(target, move.dst.area)
            if top is not None:
                return f"build the {what} from {where} on the {top.pretty} in {move.dst.human()}"
        return f"the {what} from {where} to {move.dst.human()}"

    # ------------------------------------------------------------ validation
    def validate(self, state: State) -> list[str]:
        problems = super().validate(state)
        if not self._ok_shape(state):
            return problems
        for name in (*ROWS, RUBBISH, DISCARD):
            for i, p in enumerate(state.areas[name]):
                if any(not s.face_up for s in p):
                    problems.append(f"{Loc(name, i).human()} holds a face-down card; only the stock lies face down")
        stock = state.areas[STOCK][0]
        if any(s.face_up for s in stock):
            problems.append("the stock holds a face-up card; the undealt cards are face down")
        if len(stock) > STOCK_CARDS:
            problems.append(f"the stock holds {len(stock)} cards, but only {STOCK_CARDS} are left after the lay-out")
        elif len(stock) % PLACES:
            problems.append(f"the stock holds {len(stock)} cards; it shrinks by eight at every deal, "
                            f"so it can only hold {', '.join(str(n) for n in range(STOCK_CARDS, -1, -PLACES))}")
        discard = state.areas[DISCARD][0]
        for s in discard:
            if s.card is not None and s.card.rank != 1:
                problems.append(f"the discard holds the {s.card.pretty}; only aces are thrown out")
        if len(discard) > ACES:
            problems.append(f"the discard holds {len(discard)} cards; two packs have only {ACES} aces")
        empties = []
        for row in ROWS:
            for i, p in enumerate(state.areas[row]):
                where = Loc(row, i).human()
                if not p:
                    empties.append(where)
                    continue
                if len(p) > PILE:
                    problems.append(f"{where} holds {len(p)} cards; a pile there is at most four ({seq_text(row)})")
                    continue
                if len(p) >= 2:
                    suits = set()
                    for j, s in enumerate(p):
                        if s.card is None:
                            continue
                        suits.add(s.card.suit)
                        if s.card.rank != SEQ[row][j]:
                            problems.append(f"{where}: the {s.card.pretty} cannot be card {j + 1} of a pile in the "
                                            f"{ROW_WORD[row]}, which goes {seq_text(row)} in one suit")
                    if len(suits) > 1:
                        problems.append(f"{where} mixes suits; a pile is built in one suit")
        if len(empties) > 1:
            problems.append(f"{len(empties)} operational places are empty ({', '.join(empties)}); the golden rule "
                            "allows at most one, and only while it is being filled")
        elif len(empties) == 1 and not problems:
            hole = vacancy(state)
            unknown = any(p and p[-1].card is None for p in state.areas[RUBBISH]) or any(
                len(p) == 1 and p[0].card is None for row in ROWS for p in state.areas[row])
            if not unknown and not _Graph(state).completable(hole.area):
                problems.append(f"{hole.human()} is empty and no {rank_word(START[hole.area])} can fill it "
                                "(none on top of the rubbish row or as junk in another row): the golden rule is broken")
        return problems


GAME = AuntyAllis()
