"""Seven and Six: two packs, thirteen columns, building down in alternate colours.

Rules as George Keeling records them in "The five great games of patience"
(2005), section C; decisions on points the text leaves open are listed in
``seeds/seven-and-six.toml``.

Layout. The thirteen columns are dealt in order 1..13, but lie in two rows
of column heads: columns 1-7 spread across the far half of the table
(area ``far-column``), columns 8-13 half way between them and the player
(area ``near-column``). Everything in this module that runs "in dealing
order" walks far-column 1..7 then near-column 1..6.

A set (the "marriage" rule): the maximal run on top of a column in which
every card lies on the card one rank higher and of the other colour. Only a
whole set moves; a set whose foot is a king moves only into a space, and
only a king's set goes into a space. A column holding nothing but one
complete book (king to ace) is dead: its book is turned face down.
"""
from __future__ import annotations

import random

from ..cards import RANK_LABEL, Card
from ..engine import Area, Game, Layout, Loc, Move, Option, Slot, State

FAR, NEAR, STOCK = "far-column", "near-column", "stock"
N_FAR, N_NEAR = 7, 6
N_COLS = N_FAR + N_NEAR
BOOK = 13
DECK = 104
FIRST_LAYOUT = 4 * N_COLS          # 52 cards: two rows down, two rows up
FACE_DOWN_ROWS = 2

COLS: tuple[Loc, ...] = tuple(Loc(FAR, i) for i in range(N_FAR)) + tuple(Loc(NEAR, i) for i in range(N_NEAR))
COLUMN_NUMBER = {loc: n + 1 for n, loc in enumerate(COLS)}   # 1..13 in dealing order

STRICT = "deal-only-when-blocked"


def _joined(lower: Card, upper: Card) -> bool:
    """``upper`` lies on its immediate senior ``lower`` of the other colour."""
    return lower.rank == upper.rank + 1 and lower.is_red != upper.is_red


def is_book(pile: list[Slot]) -> bool:
    """Exactly one complete book, face up: king at the foot, ace on top, colours alternating."""
    if len(pile) != BOOK:
        return False
    prev = None
    for j, s in enumerate(pile):
        c = s.card
        if not s.face_up or c is None or c.rank != BOOK - j:
            return False
        if prev is not None and prev.is_red == c.is_red:
            return False
        prev = c
    return True


def is_turned_book(pile: list[Slot]) -> bool:
    """A book already turned face down (thirteen face-down cards)."""
    return len(pile) == BOOK and not pile[-1].face_up and not pile[0].face_up and all(not s.face_up for s in pile)


def is_dead(pile: list[Slot]) -> bool:
    """A column whose only occupant is a completed book (turned down, or not yet turned)."""
    return len(pile) == BOOK and (is_turned_book(pile) or is_book(pile))


def top_set(pile: list[Slot]) -> int | None:
    """Length of the set on top of a column.

    0 when nothing can be lifted (a space, or a face-down / unreadable top
    card); None when the top cards are known but the card beneath them is
    face up and unreadable, so whether it belongs to the set is not known.
    """
    n = len(pile)
    if not n:
        return 0
    top = pile[-1]
    if not top.face_up or top.card is None:
        return 0
    k, c = 1, top.card
    while k < n:
        s = pile[n - 1 - k]
        if not s.face_up:
            break
        if s.card is None:
            return None
        if not _joined(s.card, c):
            break
        k += 1
        c = s.card
    return k


def columns(state: State) -> list[list[Slot]]:
    """The thirteen columns in dealing order (the pile lists themselves, not copies)."""
    return state.areas[FAR] + state.areas[NEAR]


def column_name(loc: Loc) -> str:
    return f"{loc.human()} (column {COLUMN_NUMBER[loc]} of 13)" if loc in COLUMN_NUMBER else loc.human()


def _pretty(s: Slot) -> str:
    return s.card.pretty if s.card is not None else ("?" if s.face_up else "a face-down card")


def _colour_word(red: bool) -> str:
    return "red" if red else "black"


def books_on_table(state: State) -> int:
    """Completed books: turned-down columns plus complete face-up books lying anywhere in a column."""
    total = 0
    for p in columns(state):
        if is_turned_book(p):
            total += 1
            continue
        # Scan upward for king..ace runs of face-up known cards.
        run = 0
        prev: Card | None = None
        for s in p:
            c = s.card if s.face_up else None
            if c is None:
                run, prev = 0, None
                continue
            if c.rank == BOOK:
                run = 1
            elif run and prev is not None and _joined(prev, c):
                run += 1
            else:
                run = 0
            prev = c
            if run == BOOK:
                total += 1
                run = 0
    return total


class SevenAndSix(Game):
    id = "seven-and-six"
    name = "Seven and Six"
    source = 'George Keeling, "The five great games of patience" (2005), section C: Seven and Sixes'
    packs = 2
    hidden_information = True
    option_list = (
        Option(STRICT, False,
               "deal the next row only once no move is left other than making a space or putting a king in one "
               "(default: the player may deal whenever they choose)"),
    )

    # ------------------------------------------------------------------ layout
    def layout(self, options: dict) -> Layout:
        fan = (0.0, 0.3)
        return Layout((
            Area(FAR, "column", N_FAR, origin=(0.0, 0.0), step=(1.5, 0.0), fan=fan, face="mixed",
                 note="columns 1-7, spread across the far half of the table; each column fans towards the player, "
                      "two face-down cards at its foot. Keeling's sideways jinking shifts separate sets a little "
                      "right or left, so a set is the cards lying in one straight line."),
            Area(NEAR, "column", N_NEAR, origin=(0.75, 7.0), step=(1.5, 0.0), fan=fan, face="mixed",
                 note="columns 8-13, half way between the far row and the player, each head between two far "
                      "columns so the far columns can grow down between them"),
            Area(STOCK, "stock", 1, origin=(11.0, 0.0), step=(0.0, 0.0), fan=(0.0, 0.0), face="down",
                 note="the 52 cards left after the first lay-out, dealt out a row at a time"),
        ))

    # -------------------------------------------------------------------- deal
    def deal(self, rng: random.Random, options: dict) -> State:
        deck = self.deck()
        rng.shuffle(deck)
        cols: list[list[Slot]] = [[] for _ in range(N_COLS)]
        pos = 0
        for row in range(4):
            for c in range(N_COLS):
                cols[c].append(Slot(deck[pos], row >= FACE_DOWN_ROWS))
                pos += 1
        # The rest stays in the hand; its last card is the next one dealt.
        stock = [Slot(c, False) for c in reversed(deck[pos:])]
        return State(self.id, {FAR: cols[:N_FAR], NEAR: cols[N_FAR:], STOCK: [stock]}, {}, dict(options))

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _deal_targets(cols: list[list[Slot]]) -> list[int]:
        """Columns a row is dealt to, in order: not spaces, not dead books. If none, the spaces."""
        live = [i for i, p in enumerate(cols) if p and not is_dead(p)]
        return live or [i for i, p in enumerate(cols) if not p]

    def _card_moves(self, state: State) -> list[Move]:
        cols = columns(state)
        tops: list[Card | None] = [p[-1].card if p and p[-1].face_up else None for p in cols]
        spaces = [j for j, p in enumerate(cols) if not p]
        moves: list[Move] = []
        for i, p in enumerate(cols):
            k = top_set(p)
            if not k:
                continue
            foot = p[-k].card
            if foot.rank == BOOK:
                if k == len(p):          # this king already lies in a space
                    continue
                moves.extend(Move.cards(COLS[i], COLS[j], k) for j in spaces)
                continue
            for j, t in enumerate(tops):
                if t is not None and j != i and _joined(t, foot):
                    moves.append(Move.cards(COLS[i], COLS[j], k))
        return moves

    def _deal_allowed(self, state: State, card_moves: list[Move] | None = None) -> str | None:
        stock = state.areas[STOCK][0]
        if not stock:
            return "the stock is empty: all 104 cards have been dealt"
        if state.options.get(STRICT):
            cols = columns(state)
            if card_moves is None:
                card_moves = self._card_moves(state)
            for m in card_moves:
                src = cols[COLUMN_NUMBER[m.src] - 1]
                king = src[-m.count].card.rank == BOOK
                if not king and m.count < len(src):
                    return (f"with the option {STRICT}, the next row is dealt only when play is blocked; "
                            f"{self.describe(state, m)} can still be made")
        return None

    # ------------------------------------------------------------------- moves
    def legal_moves(self, state: State) -> list[Move]:
        if self.is_won(state):
            return []
        moves = self._card_moves(state)
        if self._deal_allowed(state, moves) is None:
            moves.append(Move.act("deal"))
        return moves

    def apply(self, state: State, move: Move) -> None:
        cols = columns(state)
        if move.action == "deal":
            stock = state.areas[STOCK][0]
            for i in self._deal_targets(cols):
                if not stock:
                    break
                cols[i].append(stock.pop().turned_up())
                self._settle(cols[i])
            return
        src = state.pile(move.src)
        dst = state.pile(move.dst)
        moving = src[-move.count:]
        del src[-move.count:]
        dst.extend(moving)
        if src and not src[-1].face_up:
            src[-1] = src[-1].turned_up()
        self._settle(dst)

    @staticmethod
    def _settle(pile: list[Slot]) -> None:
        """A column now holding exactly one complete book: turn it face down (the column is dead)."""
        if len(pile) == BOOK and is_book(pile):
            pile[:] = [s.turned_down() for s in pile]

    def is_won(self, state: State) -> bool:
        if state.areas[STOCK][0]:
            return False
        return books_on_table(state) == DECK // BOOK

    def completion(self, state: State) -> float:
        """The protocol's progress measure: this game's own ``progress``."""
        return self.progress(state)

    def progress(self, state: State) -> float:
        """Share of the 104 cards in place: in a dead book, or joined to their senior, or a king at a column's foot."""
        done = 0
        for p in columns(state):
            if is_turned_book(p):
                done += BOOK
                continue
            for j, s in enumerate(p):
                c = s.card
                if not s.face_up or c is None:
                    continue
                if j == 0:
                    done += c.rank == BOOK
                else:
                    below = p[j - 1]
                    done += below.face_up and below.card is not None and _joined(below.card, c)
        return done / DECK

    # ------------------------------------------------------------- explanation
    def why_illegal(self, state: State, move: Move) -> str | None:
        if move.action == "deal":
            if move.args:
                return "deal takes no further words: write just 'deal'"
            return self._deal_allowed(state)
        if move.action != "move":
            return f"Seven and Six has no action {move.action!r}; the one action is 'deal' (the next row from the stock)"
        if self.is_won(state):
            return "the game is won: all eight books are complete"
        if move.src is None or move.dst is None:
            return "a move needs a column to take from and a column to put on, like far-column3>near-column2"
        for loc in (move.src, move.dst):
            if loc.area == STOCK:
                return "cards move only between columns; the stock is dealt out a row at a time with 'deal'"
            if loc.area not in (FAR, NEAR):
                return f"Seven and Six has no area {loc.area!r}"
            n = N_FAR if loc.area == FAR else N_NEAR
            if loc.index >= n:
                return f"there is no {loc.human()}: the {loc.area.split('-')[0]} row has {n} columns"
        if move.src == move.dst:
            return "a set cannot be moved onto its own column"
        if move.count < 1:
            return "at least one card must move"
        src, dst = state.pile(move.src), state.pile(move.dst)
        where, there = column_name(move.src), column_name(move.dst)
        if not src:
            return f"{where} is a space: there is nothing to move"
        if is_dead(src):
            return f"{where} holds a completed book, turned face down: it never moves again"
        if not src[-1].face_up:
            return f"the top card of {where} is face down; turn it up first"
        if src[-1].card is None:
            return f"the top card of {where} is not known, so it cannot be moved"
        k = top_set(src)
        if k is None:
            return (f"the card under the set on top of {where} cannot be read, so it is not known whether it "
                    "belongs to the set")
        if move.count != k:
            cards = " ".join(_pretty(s) for s in src[-k:])
            if move.count < k:
                return (f"cards once joined are never separated: the set on top of {where} is {k} cards "
                        f"({cards}); move all {k} together ({move.src}x{k}>{move.dst})")
            under = src[-k - 1] if len(src) > k else None
            if move.count > len(src):
                return f"{where} holds only {len(src)} card{'s' if len(src) != 1 else ''}"
            return (f"only the top {k} card{'s' if k != 1 else ''} of {where} form a set ({cards}); "
                    f"the {_pretty(under)} beneath {'is face down' if under is not None and not under.face_up else 'is not joined to them'}"
                    + (f": move {move.src}x{k}>{move.dst}" if k > 1 else f": move {move.src}>{move.dst}"))
        foot = src[-k].card
        what = foot.pretty if k == 1 else f"the set {foot.pretty}…{src[-1].card.pretty}"
        if foot.rank == BOOK:
            if dst:
                return f"a king can only go into a space, and {there} is not empty"
            if k == len(src):
                return f"the {foot.pretty} already lies in a space; moving it to another space would change nothing"
            return None
        if not dst:
            return f"only kings go into spaces; {what} has a {foot.pretty} at its foot"
        if is_dead(dst):
            return f"{there} holds a completed book; nothing may be put on it"
        t = dst[-1]
        need = f"a {_colour_word(not foot.is_red)} {RANK_LABEL[foot.rank + 1]}"
        if not t.face_up:
            return f"the top card of {there} is face down"
        if t.card is None:
            return f"the top card of {there} cannot be read, so it is not known to be {need}"
        if t.card.rank == 1:
            return f"nothing can be put on an ace: {what} needs {need}, and {there} shows the {t.card.pretty}"
        if not _joined(t.card, foot):
            return f"{what} can only go on {need}; {there} shows the {t.card.pretty}"
        return None

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            cols = columns(state)
            n = min(len(state.areas[STOCK][0]), len(self._deal_targets(cols)))
            left = len(state.areas[STOCK][0]) - n
            return f"deal a row of {n} card{'s' if n != 1 else ''} from the stock ({left} left after it)"
        if move.action != "move":
            return str(move)
        try:
            src, dst = state.pile(move.src), state.pile(move.dst)
        except (KeyError, IndexError):
            return str(move)
        if len(src) < move.count or move.count < 1:
            return str(move)
        moving = src[-move.count:]
        what = _pretty(moving[0]) if move.count == 1 else f"the set {_pretty(moving[0])}…{_pretty(moving[-1])}"
        onto = f"onto the {_pretty(dst[-1])} in {move.dst.human()}" if dst else f"into the space in {move.dst.human()}"
        return f"{what} from {move.src.human()} {onto}"

    # ---------------------------------------------------------------- validity
    def validate(self, state: State) -> list[str]:
        problems = super().validate(state)
        if problems and self.misshapen(state):
            return problems
        stock_piles = state.areas[STOCK]
        stock = stock_piles[0]
        if any(s.face_up for s in stock):
            problems.append("the stock is held face down; a face-up card there should be on the table")
        if len(stock) > DECK - FIRST_LAYOUT:
            problems.append(f"the stock holds {len(stock)} cards, but only {DECK - FIRST_LAYOUT} remain after the first lay-out")
        total = state.card_count()
        if total != DECK:
            problems.append(f"the state holds {total} cards; Seven and Six always has all {DECK} "
                            "(write unseen ones as ? on the table or ~ in the stock)")
        for loc in COLS:
            p = state.pile(loc)
            name = column_name(loc)
            down = 0
            while down < len(p) and not p[down].face_up:
                down += 1
            if any(not s.face_up for s in p[down:]):
                problems.append(f"{name} has a face-down card above a face-up one; face-down cards lie only at a column's foot")
                continue
            if p and down == len(p):
                if len(p) != BOOK:
                    problems.append(f"{name} shows only face-down cards ({len(p)}): its top card should have been "
                                    f"turned up (a turned-down book has {BOOK} cards)")
                    continue
                prev = None
                for j, s in enumerate(p):
                    if s.card is not None and s.card.rank != BOOK - j:
                        problems.append(f"{name} is a turned-down book, but its card {j + 1} from the foot is the "
                                        f"{s.card.pretty}, not a {RANK_LABEL[BOOK - j]}")
                        break
                    if s.card is not None and prev is not None and prev.is_red == s.card.is_red:
                        problems.append(f"{name} is a turned-down book, but its {prev.pretty} and {s.card.pretty} are the same colour")
                        break
                    prev = s.card
                continue
            if down > FACE_DOWN_ROWS:
                problems.append(f"{name} has {down} face-down cards; only the first two rows are dealt face down")
        return problems


GAME = SevenAndSix()
