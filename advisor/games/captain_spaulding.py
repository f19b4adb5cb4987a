"""Captain Spaulding: David Parlett's two-pack open packer (from his "Original Patience Games").

The table, from the far side towards the player::

    aces1 aces2 aces3 aces4  (gap)  kings1 kings2 kings3 kings4
    col1  col2  col3  col4   col5   col6   col7   col8   col9
     ...   rows of nine dealt downwards, each column fanned towards the player

* The top row holds four aces and four kings, one above each of columns 1-4
  and 6-9; nothing lies above the centre column (column 5). The aces build
  up to king, the kings down to ace, whatever the suits.
* The remaining 96 cards are dealt in rows of nine. A card whose place lies
  under a sequence it fits is built there at once and the next card is dealt
  to the same place; a card due in the centre column is built on any
  sequence it fits.
* In play only the card at the foot of a column moves, one at a time. It may
  be built on the sequence heading its own column (the centre column's card
  on any of the eight), packed on the foot of another column one rank above
  or below it in any suit, or moved into an emptied column.

Everything is face up: the game has no hidden information.
"""
from __future__ import annotations

import random

from ..cards import Card, RANK_LABEL
from ..engine import Area, Game, Layout, Loc, Move, Slot, State, up

COLUMNS = 9
CENTRE = 4            # 0-based index of the centre column
SEQUENCES = 4         # ace piles, and king piles
ROW_STEP = 1.2        # card widths between neighbouring piles of a row
COLUMN_FAN = 0.3      # each dealt row overlaps the one before it, towards the player


def _rank(rank: int) -> str:
    return RANK_LABEL[rank]


def _a(rank: int) -> str:
    """'a 6', 'an 8', 'an A'."""
    return ("an " if rank in (1, 8) else "a ") + RANK_LABEL[rank]


class CaptainSpaulding(Game):
    id = "captain-spaulding"
    name = "Captain Spaulding"
    source = "David Parlett, Original Patience Games: Captain Spaulding"
    packs = 2
    option_list = ()
    hidden_information = False

    # ------------------------------------------------------------------ layout
    def layout(self, options: dict) -> Layout:
        return Layout((
            Area("aces", "foundation", SEQUENCES, origin=(0.0, 0.0), step=(ROW_STEP, 0.0),
                 note="the four aces at the left of the top row, built up to king regardless of suit; "
                      "ace pile i heads column i"),
            Area("kings", "foundation", SEQUENCES, origin=((SEQUENCES + 1) * ROW_STEP, 0.0), step=(ROW_STEP, 0.0),
                 note="the four kings at the right of the top row, after a one-card gap above the centre column; "
                      "built down to ace regardless of suit; king pile i heads column i + 5"),
            Area("column", "column", COLUMNS, origin=(0.0, 1.7), step=(ROW_STEP, 0.0), fan=(0.0, COLUMN_FAN),
                 note="nine columns dealt row by row; the last card (nearest the player) is exposed; "
                      "column 5 is the privileged centre column"),
        ))

    # --------------------------------------------------------------- helpers
    @staticmethod
    def _foundation_of(col: int) -> Loc | None:
        """The sequence vertically in line with a column (None for the centre column)."""
        if col < CENTRE:
            return Loc("aces", col)
        if col > CENTRE:
            return Loc("kings", col - CENTRE - 1)
        return None

    @staticmethod
    def _foundations() -> list[Loc]:
        return [Loc("aces", i) for i in range(SEQUENCES)] + [Loc("kings", i) for i in range(SEQUENCES)]

    @staticmethod
    def _needs(state: State, f: Loc) -> int | None:
        """The rank a sequence takes next; None when it is complete or its top card is unknown."""
        pile = state.areas[f.area][f.index]
        n = len(pile)
        if n >= 13:
            return None
        if n and pile[-1].card is None:
            return None
        return n + 1 if f.area == "aces" else 13 - n

    def _fits(self, state: State, card: Card, f: Loc) -> bool:
        return self._needs(state, f) == card.rank

    @staticmethod
    def _top_card(state: State, loc: Loc) -> Card | None:
        pile = state.areas[loc.area][loc.index]
        return pile[-1].card if pile else None

    def depth_under(self, state: State, loc: Loc, top: Card) -> int | None:
        """Cards under ``top`` on a top-row sequence: fixed by its rank (a 5 on an ace pile has four)."""
        if loc.area == "aces":
            return top.rank - 1
        if loc.area == "kings":
            return 13 - top.rank
        return None

    # -------------------------------------------------------------------- deal
    def deal(self, rng: random.Random, options: dict) -> State:
        deck = self.deck()
        rng.shuffle(deck)
        # Take out the first four aces and the first four kings met in the shuffled packs.
        aces, kings, rest = [], [], []
        for c in deck:
            if c.rank == 1 and len(aces) < SEQUENCES:
                aces.append(c)
            elif c.rank == 13 and len(kings) < SEQUENCES:
                kings.append(c)
            else:
                rest.append(c)
        state = State(self.id, {
            "aces": [[up(c)] for c in aces],
            "kings": [[up(c)] for c in kings],
            "column": [[] for _ in range(COLUMNS)],
        }, {}, dict(options))
        place = 0
        for card in rest:
            col = place % COLUMNS
            targets = [self._foundation_of(col)] if col != CENTRE else self._foundations()
            fit = next((f for f in targets if self._fits(state, card, f)), None)
            if fit is not None:
                state.pile(fit).append(up(card))   # built; the next card is dealt to the same place
                continue
            state.areas["column"][col].append(up(card))
            place += 1
        return state

    # ------------------------------------------------------------------ moves
    def legal_moves(self, state: State) -> list[Move]:
        cols = state.areas["column"]
        tops = [p[-1].card if p else None for p in cols]
        moves: list[Move] = []
        for c, card in enumerate(tops):
            if card is None:
                continue
            src = Loc("column", c)
            targets = [self._foundation_of(c)] if c != CENTRE else self._foundations()
            for f in targets:
                if self._fits(state, card, f):
                    moves.append(Move.cards(src, f))
            for d in range(COLUMNS):
                if d == c:
                    continue
                if not cols[d]:
                    moves.append(Move.cards(src, Loc("column", d)))
                elif tops[d] is not None and abs(tops[d].rank - card.rank) == 1:
                    moves.append(Move.cards(src, Loc("column", d)))
        return moves

    def apply(self, state: State, move: Move) -> None:
        card = state.pile(move.src).pop()
        state.pile(move.dst).append(card)

    def why_illegal(self, state: State, move: Move) -> str | None:
        if move.action != "move":
            return (f"Captain Spaulding has no {move.action!r} action: the building during the deal is automatic, "
                    "and every move takes the card at the foot of a column")
        areas = self.layout(state.options).names
        for loc in (move.src, move.dst):
            if loc.area not in areas:
                return f"there is no area {loc.area!r}"
            if loc.index >= len(state.areas[loc.area]):
                return f"there is no {loc.human()}"
        if move.src.area != "column":
            return "cards built on the top-row sequences stay there; only the foot of a column moves"
        if move.count != 1:
            return "only one card may be moved at a time"
        src = state.pile(move.src)
        if not src:
            return f"{move.src.human()} is empty"
        card = src[-1].card
        if card is None:
            return f"the card at the foot of {move.src.human()} is not known"
        c = move.src.index
        if move.dst.area in ("aces", "kings"):
            if c != CENTRE and move.dst != self._foundation_of(c):
                own = self._foundation_of(c)
                return (f"the {card.pretty} in {move.src.human()} may only be built on the sequence above its own "
                        f"column ({own.human()}); only the centre column's card may go to any sequence")
            pile = state.pile(move.dst)
            if len(pile) >= 13:
                return f"{move.dst.human()} is complete"
            need = self._needs(state, move.dst)
            if need is None:
                return f"the top card of {move.dst.human()} is not known"
            if need != card.rank:
                shows = pile[-1].card.pretty if pile else "nothing"
                way = "up" if move.dst.area == "aces" else "down"
                return (f"{move.dst.human()} builds {way} and shows the {shows}, so it takes {_a(need)} next, "
                        f"not the {card.pretty}")
            return None
        # column to column
        if move.dst.index == c:
            return f"the {card.pretty} is already in {move.src.human()}"
        dst = state.pile(move.dst)
        if not dst:
            return None
        other = dst[-1].card
        if other is None:
            return f"the card at the foot of {move.dst.human()} is not known"
        if abs(other.rank - card.rank) != 1:
            wanted = " or ".join(_a(r) for r in (card.rank - 1, card.rank + 1) if 1 <= r <= 13)
            return (f"the {card.pretty} can only be packed on {wanted} (any suit); "
                    f"{move.dst.human()} shows the {other.pretty}")
        return None

    def describe(self, state: State, move: Move) -> str:
        if move.action != "move":
            return str(move)
        card = self._top_card(state, move.src) if move.src.area in state.areas and \
            move.src.index < len(state.areas[move.src.area]) else None
        what = card.pretty if card else "the card"
        if move.dst.area in ("aces", "kings"):
            return f"build {what} from {move.src.human()} on {move.dst.human()}"
        if not state.pile(move.dst):
            return f"move {what} from {move.src.human()} into the empty {move.dst.human()}"
        return f"pack {what} from {move.src.human()} on {move.dst.human()}"

    def is_won(self, state: State) -> bool:
        return all(len(p) == 13 for a in ("aces", "kings") for p in state.areas[a])

    # --------------------------------------------------------------- validate
    def validate(self, state: State) -> list[str]:
        problems = super().validate(state)
        if problems and self.misshapen(state):
            return problems
        for loc, _, slot in state.slots():
            if not slot.face_up:
                problems.append(f"{loc.human()} has a face-down card; every card in Captain Spaulding lies face up")
                break
        for area, first, step in (("aces", 1, 1), ("kings", 13, -1)):
            for i, pile in enumerate(state.areas[area]):
                where = Loc(area, i).human()
                if not pile:
                    problems.append(f"{where} is empty: the top row starts with four aces and four kings")
                    continue
                if len(pile) > 13:
                    problems.append(f"{where} holds {len(pile)} cards; a sequence has at most 13")
                    continue
                for j, slot in enumerate(pile):
                    want = first + step * j
                    if slot.card is not None and slot.card.rank != want:
                        problems.append(f"{where}: card {j + 1} is the {slot.card.pretty} but should be {_a(want)}")
                        break
        return problems


GAME = CaptainSpaulding()
