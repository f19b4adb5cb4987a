"""Uncle Remus: a two-pack patience building same-suit books, after George Keeling.

Source: George Keeling, "The five great games of patience" (2005), section D.
The catalogue entry ``seeds/uncle-remus.toml`` records the rules in our own
words and every decision taken where the text leaves room.

In short: ten columns of five cards (four face down, the fifth face up); any
face-up card goes onto the next higher rank whatever its suit; several cards
move together only when they are one suit and in sequence; anything may go
into a space; a completed same-suit book, king down to ace, leaves play. The
player deals ten more cards (one on every column, spaces included) whenever
they choose; after five such deals the last four cards go onto the first
four columns.

State
    ``column``  the columns, bottom (furthest from the player) first; the
                face-down cards lie at the bottom of each.
    ``stock``   one pile: the cards not yet dealt, face down, next card last.
    ``books``   one pile per completed book put aside, king first, ace last.

Actions
    ``deal``            deal the next row from the stock.
    ``remove columnN``  put aside the completed book lying at the top of
                        column N (offered on its own when removal is
                        automatic but a state read from the table still shows
                        a completed book; offered beside other moves with the
                        ``book_removal = "by-hand"`` option).
"""
from __future__ import annotations

import random
import re
from functools import lru_cache

from ..cards import RANK_NAME, SUIT_NAME, SUIT_SYMBOL
from ..engine import Area, Game, Layout, Loc, Move, MoveError, Option, Slot, State

COLUMN, STOCK, BOOKS = "column", "stock", "books"
BOOK_SIZE = 13
DECK_SIZE = 104
ACTIONS = ("deal", "remove")
_NUMBER_WORD = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine", 10: "ten"}


def _word(n: int) -> str:
    return _NUMBER_WORD.get(n, str(n))


def _pretty(slot: Slot) -> str:
    if slot.card is None:
        return "an unreadable card" if slot.face_up else "a face-down card"
    return slot.card.pretty


def run_length(pile: list[Slot]) -> int:
    """How many cards at the top of ``pile`` form one same-suit sequence that may move together.

    0 for an empty pile or a pile whose top is face down or unreadable.
    """
    n = len(pile)
    if not n:
        return 0
    top = pile[-1]
    if not top.face_up or top.card is None:
        return 0
    suit, rank = top.card.suit, top.card.rank
    k = 1
    while k < n:
        below = pile[-k - 1]
        c = below.card
        if not below.face_up or c is None or c.suit != suit or c.rank != rank + 1:
            break
        rank += 1
        k += 1
    return k


def book_on_top(pile: list[Slot]) -> bool:
    """True when the top thirteen cards are a whole book: one suit, king down to ace."""
    return len(pile) >= BOOK_SIZE and pile[-1].card is not None and pile[-1].card.rank == 1 \
        and run_length(pile) >= BOOK_SIZE


def face_down_count(pile: list[Slot]) -> int:
    return sum(1 for s in pile if not s.face_up)


def stock_sizes(columns: int, face_down_rows: int) -> list[int]:
    """Every size the stock can have: after the lay-out, after each deal, and empty."""
    left = DECK_SIZE - columns * (face_down_rows + 1)
    sizes = []
    while left > 0:
        sizes.append(left)
        left -= min(columns, left)
    sizes.append(0)
    return sizes


@lru_cache(maxsize=None)
def _layout(columns: int) -> Layout:
    return Layout((
        Area(COLUMN, "column", columns, origin=(0.0, 0.0), step=(1.2, 0.0), fan=(0.0, 0.3), face="mixed",
             note="dealt far from the player, growing towards them; the face-down cards at the bottom "
                  "overlap closely (about 0.1 card widths apart) so that their number shows, the face-up "
                  "cards above them are spread about 0.3 apart, so that each index shows whole (rank and suit)"),
        Area(STOCK, "stock", 1, origin=(columns * 1.2 + 0.5, 0.0), fan=(0.0, 0.0), face="down", on_table=False,
             note="the cards still to be dealt, held or put aside as one face-down packet"),
        Area(BOOKS, "discard", 0, origin=(columns * 1.2 + 0.5, 2.0), fan=(0.0, 0.0), face="up", on_table=False,
             note="completed books, king to ace of one suit, put aside out of play: one pile per book"),
    ))


class UncleRemus(Game):
    id = "uncle-remus"
    name = "Uncle Remus"
    source = 'George Keeling, "The five great games of patience" (2005), section D: Uncle Remus'
    packs = 2
    hidden_information = True
    option_list = (
        Option("columns", 10, "number of columns; Keeling sometimes played with nine to make the game harder",
               (10, 9)),
        Option("face_down_rows", 4, "face-down rows in the lay-out (under one face-up row); "
               "Keeling sometimes used five to make the game harder", (4, 5)),
        Option("book_removal", "automatic", "a completed book leaves play at once (automatic), or the player "
               "removes it with the action 'remove columnN' (by-hand)", ("automatic", "by-hand")),
    )

    # ------------------------------------------------------------ layout/deal
    def layout(self, options: dict) -> Layout:
        return _layout(int(options.get("columns", 10)))

    def deal(self, rng: random.Random, options: dict) -> State:
        options = self.check_options(options)
        ncol, rows = options["columns"], options["face_down_rows"]
        deck = self.deck()
        rng.shuffle(deck)
        columns: list[list[Slot]] = [[] for _ in range(ncol)]
        pos = 0
        for row in range(rows + 1):          # row by row, left to right; the last row face up
            for c in range(ncol):
                columns[c].append(Slot(deck[pos], row == rows))
                pos += 1
        # The undealt cards, face down; the next to be dealt is the last of the list.
        stock = [Slot(c, False) for c in reversed(deck[pos:])]
        return State(self.id, {COLUMN: columns, STOCK: [stock], BOOKS: []}, {}, options)

    # --------------------------------------------------------------- helpers
    @staticmethod
    def _auto(state: State) -> bool:
        return state.options.get("book_removal", "automatic") == "automatic"

    @staticmethod
    def _stock(state: State) -> list[Slot]:
        piles = state.areas.get(STOCK) or [[]]
        return piles[0]

    @staticmethod
    def _books_waiting(state: State) -> list[int]:
        return [i for i, p in enumerate(state.areas[COLUMN]) if book_on_top(p)]

    def _remove_arg(self, state: State, move: Move) -> tuple[int | None, str | None]:
        """The column index named by ``remove columnN``, or a reason it cannot be read."""
        if len(move.args) != 1:
            return None, "say which column holds the book, like: remove column3"
        m = re.fullmatch(r"([a-z][a-z-]*?)(\d+)", move.args[0].strip().lower())
        if not m:
            return None, f"{move.args[0]!r} is not a column: write it like column3"
        try:
            area = self.layout(state.options).resolve(m.group(1))
        except MoveError as e:
            return None, str(e)
        if area != COLUMN:
            return None, "books are removed from a column, like: remove column3"
        idx = int(m.group(2)) - 1
        ncol = len(state.areas[COLUMN])
        if not 0 <= idx < ncol:
            return None, f"there is no column {m.group(2)}: this game has {ncol} columns"
        return idx, None

    # ------------------------------------------------------------ legal moves
    def legal_moves(self, state: State) -> list[Move]:
        cols = state.areas[COLUMN]
        waiting = self._books_waiting(state)
        removes = [Move.act("remove", f"{COLUMN}{i + 1}") for i in waiting]
        if waiting and self._auto(state):
            return removes          # the book leaves play before anything else happens
        spaces: list[int] = []
        by_rank: dict[int, list[int]] = {}
        for i, p in enumerate(cols):
            if not p:
                spaces.append(i)
            else:
                t = p[-1]
                if t.face_up and t.card is not None:
                    by_rank.setdefault(t.card.rank, []).append(i)
        moves: list[Move] = []
        for i, p in enumerate(cols):
            if not p or not p[-1].face_up:
                continue
            src = Loc(COLUMN, i)
            if p[-1].card is None:
                # An unreadable card may still go into a space, which takes any card.
                moves.extend(Move.cards(src, Loc(COLUMN, j), 1) for j in spaces)
                continue
            for k in range(1, run_length(p) + 1):
                seniors = by_rank.get(p[-k].card.rank + 1, ())
                targets = sorted([*seniors, *spaces]) if spaces and seniors else (seniors or spaces)
                moves.extend(Move.cards(src, Loc(COLUMN, j), k) for j in targets if j != i)
        if self._stock(state):
            moves.append(Move.act("deal"))
        moves.extend(removes)
        return moves

    def why_illegal(self, state: State, move: Move) -> str | None:
        cols = state.areas[COLUMN]
        ncol = len(cols)
        waiting = self._books_waiting(state)
        if move.action == "remove":
            idx, problem = self._remove_arg(state, move)
            if problem:
                return problem
            if not book_on_top(cols[idx]):
                return (f"column {idx + 1} does not end in a completed book: a book is thirteen cards of one "
                        "suit lying in order from the king down to the ace at the top")
            return None
        if waiting and self._auto(state):
            i = waiting[0]
            suit = SUIT_NAME[cols[i][-1].card.suit]
            return (f"the completed book of {suit} in column {i + 1} leaves play first: "
                    f"remove column{i + 1}")
        if move.action == "deal":
            if move.args:
                return "deal takes no further words: write just deal"
            if not self._stock(state):
                return f"all {DECK_SIZE} cards have already been dealt"
            return None
        if move.action != "move":
            return f"Uncle Remus has no action {move.action!r}; its actions are deal and remove columnN"
        src, dst, count = move.src, move.dst, move.count
        for loc in (src, dst):
            if loc.area != COLUMN:
                return (f"cards move only from column to column, not to or from the {loc.area}: "
                        "the stock is dealt with the action deal, and completed books leave play")
            if not 0 <= loc.index < ncol:
                return f"there is no column {loc.index + 1}: this game has {ncol} columns"
        if src == dst:
            return f"the cards are already in column {src.index + 1}"
        pile, target = cols[src.index], cols[dst.index]
        if not pile:
            return f"column {src.index + 1} is empty: there is nothing to move"
        if count < 1:
            return "a move carries at least one card"
        if count > len(pile):
            return f"column {src.index + 1} holds only {_word(len(pile))} card{'s' if len(pile) != 1 else ''}"
        moving = pile[-count:]
        for j, s in enumerate(moving):
            if not s.face_up:
                shown = len(pile) - face_down_count(pile)
                return (f"only face-up cards move, and column {src.index + 1} has only "
                        f"{_word(shown)} face-up card{'s' if shown != 1 else ''}")
        head = moving[0]
        if count > 1:
            for j in range(count - 1, 0, -1):       # from the top card downwards
                upper, lower = moving[j], moving[j - 1]
                if upper.card is None or lower.card is None:
                    return (f"column {src.index + 1} shows an unreadable card among the {_word(count)}: "
                            "a set can only move when every card is known to be one suit and in sequence")
                if upper.card.suit != lower.card.suit:
                    return (f"several cards move together only when they are all one suit: the "
                            f"{upper.card.pretty} lies on the {lower.card.pretty}")
                if upper.card.rank + 1 != lower.card.rank:
                    return (f"several cards move together only when they are in sequence: the "
                            f"{upper.card.pretty} lies on the {lower.card.pretty}")
        if not target:
            return None                              # any card or same-suit set may go into a space
        top = target[-1]
        if head.card is None:
            return (f"the card to move from column {src.index + 1} is unreadable: only a space is sure "
                    "to take it")
        what = head.card.pretty if count == 1 else f"set headed by the {head.card.pretty}"
        if head.card.rank == 13:
            shown = _pretty(top)
            return (f"the {what} can only go into a space, since no card ranks above a king; "
                    f"column {dst.index + 1} shows {'the ' if top.card else ''}{shown}")
        need = RANK_NAME[head.card.rank + 1]
        if not top.face_up or top.card is None:
            return (f"the {what} can only go on {'an' if need[0] in 'ae' else 'a'} {need} (any suit) or "
                    f"into a space; the top of column {dst.index + 1} cannot be read")
        if top.card.rank != head.card.rank + 1:
            return (f"the {what} can only go on {'an' if need[0] in 'ae' else 'a'} {need} (any suit) or "
                    f"into a space; column {dst.index + 1} shows the {top.card.pretty}")
        return None

    # ------------------------------------------------------------------ apply
    def apply(self, state: State, move: Move) -> None:
        cols = state.areas[COLUMN]
        auto = self._auto(state)
        if move.action == "remove":
            idx, _ = self._remove_arg(state, move)
            self._put_aside(state, idx)
            return
        if move.action == "deal":
            stock = self._stock(state)
            n = min(len(cols), len(stock))
            for c in range(n):
                cols[c].append(stock.pop().turned_up())
            if auto:
                for c in range(n):
                    if book_on_top(cols[c]):
                        self._put_aside(state, c)
            return
        pile, target = cols[move.src.index], cols[move.dst.index]
        moving = pile[-move.count:]
        del pile[-move.count:]
        target.extend(moving)
        self._turn_up(pile)
        if auto and book_on_top(target):
            self._put_aside(state, move.dst.index)

    @staticmethod
    def _turn_up(pile: list[Slot]) -> None:
        if pile and not pile[-1].face_up:
            pile[-1] = pile[-1].turned_up()

    def _put_aside(self, state: State, idx: int) -> None:
        pile = state.areas[COLUMN][idx]
        book = pile[-BOOK_SIZE:]
        del pile[-BOOK_SIZE:]
        state.areas[BOOKS].append(book)
        self._turn_up(pile)

    def is_won(self, state: State) -> bool:
        books = state.areas.get(BOOKS, [])
        return len(books) == 8 and all(len(b) == BOOK_SIZE for b in books)

    def completion(self, state: State) -> float:
        """Progress 0..1: cards in books count fully, same-suit links and turned-up cards a little."""
        if self.is_won(state):
            return 1.0
        done = BOOK_SIZE * len(state.areas.get(BOOKS, []))
        links = hidden = 0
        for p in state.areas.get(COLUMN, []):
            hidden += face_down_count(p)
            for j in range(1, len(p)):
                lo, hi = p[j - 1].card, p[j].card
                if lo is not None and hi is not None and p[j - 1].face_up and lo.suit == hi.suit \
                        and lo.rank == hi.rank + 1:
                    links += 1
        rows = int(state.options.get("face_down_rows", 4))
        revealed = max(0, rows * len(state.areas.get(COLUMN, [])) - hidden)
        return min(0.99, (done + 0.5 * links + 0.25 * revealed) / DECK_SIZE)

    # --------------------------------------------------------------- describe
    def describe(self, state: State, move: Move) -> str:
        try:
            cols = state.areas[COLUMN]
            if move.action == "deal":
                n = min(len(cols), len(self._stock(state)))
                if n == len(cols):
                    return f"deal {_word(n)} cards, one onto every column, spaces included"
                return f"deal the last {_word(n)} cards onto columns 1 to {n}"
            if move.action == "remove":
                idx, problem = self._remove_arg(state, move)
                if problem or not cols[idx]:
                    return str(move)
                return f"put aside the completed book of {SUIT_NAME[cols[idx][-1].card.suit]} from column {idx + 1}"
            if move.action == "move":
                pile = cols[move.src.index]
                target = cols[move.dst.index]
                moving = pile[-move.count:]
                what = " ".join(_pretty(s) for s in moving)
                where = (f"into the space in column {move.dst.index + 1}" if not target
                         else f"onto the {_pretty(target[-1])} in column {move.dst.index + 1}")
                return f"{what} from column {move.src.index + 1} {where}"
        except (IndexError, KeyError, AttributeError):
            pass
        return super().describe(state, move) if move.action == "move" else str(move)

    # --------------------------------------------------------------- validate
    def validate(self, state: State) -> list[str]:
        problems = super().validate(state)
        cols = state.areas.get(COLUMN)
        stock_piles = state.areas.get(STOCK)
        books = state.areas.get(BOOKS)
        if cols is None or stock_piles is None or books is None:
            return problems
        rows = int(state.options.get("face_down_rows", 4))
        ncol = len(cols)
        for i, p in enumerate(cols):
            downs = face_down_count(p)
            if downs and any(s.face_up for s in p[:downs]):
                problems.append(f"column {i + 1} has a face-down card lying above a face-up one; face-down "
                                "cards are only those of the lay-out, at the bottom")
            elif p and not p[-1].face_up:
                problems.append(f"column {i + 1} ends in a face-down card, which should have been turned up")
            if downs > rows:
                problems.append(f"column {i + 1} has {downs} face-down cards but the lay-out puts only "
                                f"{rows} face down in each column")
        if len(stock_piles) != 1:
            problems.append("the stock is a single pile")
        else:
            sizes = stock_sizes(ncol, rows)
            if len(stock_piles[0]) not in sizes:
                problems.append(f"the stock holds {len(stock_piles[0])} cards, but with {ncol} columns it can "
                                f"only hold {', '.join(map(str, sizes))} (after the lay-out and after each deal)")
        if len(books) > 8:
            problems.append(f"{len(books)} books put aside, but two packs make only eight")
        for b, pile in enumerate(books):
            if len(pile) != BOOK_SIZE:
                problems.append(f"book {b + 1} has {len(pile)} cards; a book has thirteen")
                continue
            suits = {s.card.suit for s in pile if s.card is not None}
            if len(suits) > 1:
                problems.append(f"book {b + 1} mixes suits ({' '.join(SUIT_SYMBOL[x] for x in sorted(suits))}); "
                                "a book is all one suit")
            for j, s in enumerate(pile):
                if s.card is not None and s.card.rank != BOOK_SIZE - j:
                    problems.append(f"book {b + 1} has the {s.card.pretty} in place {j + 1}; a book runs "
                                    "from the king down to the ace")
                    break
        total = state.card_count()
        if total < DECK_SIZE:           # too many is named by the base class
            problems.append(f"the state holds {total} cards, but Uncle Remus uses all {DECK_SIZE} cards of two "
                            "packs (face-down and undealt cards included)")
        return problems


GAME = UncleRemus()
