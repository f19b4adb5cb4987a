"""Senior Wrangler, as George Keeling plays it ("The five great games of patience", 2005).

Two packs, every card face up. Eight key cards of eight different ranks (no
king) lie in a row; in front of each, a pile is built by adding the key's
rank again and again, modulo 13: a key of 5 takes 10, 2, 7, Q, 4, 9, A, 6, J,
3, 8 and lastly K. The other 96 cards lie in eight columns at the far side;
only the card nearest the player (the top) of a column may move, onto the pile
that needs its rank next. Suits and colours never matter.

Play is in eight sessions. At the end of session ``s`` (the ``redeal``
action) the cards left in column ``s`` are picked up and dealt one at a time
across the tops of the columns, the card that lay furthest from the player
first, starting at column 1 and wrapping after column 8. The eighth session
has no redeal after it: when nothing more can be moved the game is over. The
game is won when every column card is on a pile.

Areas
    ``column``  eight columns, far side, fanned towards the player;
                pile index 0 is the card furthest from the player.
    ``key``     the eight key cards; a finished pile (twelve cards, king on
                top) is put on its key card, so the key pile then holds 13.
    ``pile``    the eight piles being built, nearest the player.
"""
from __future__ import annotations

import random
from typing import Any

from ..cards import RANK_LABEL, RANK_NAME, Card
from ..engine import Area, Game, Layout, Loc, Move, Slot, State, up

NCOL = 8
COLUMN_LEN = 12      # cards per column in the first lay-out
PILE_LEN = 12        # cards on a finished pile (the key card is not counted)
SESSIONS = 8         # the last session has no redeal after it
KING = 13


def pile_rank(key: int, n: int) -> int:
    """Rank of the ``n``-th card (0-based) of the pile built on a key of rank ``key``.

    The first card is twice the key, each next one the key more, modulo 13
    with the king as 13: so card ``n`` is ``(n + 2) * key`` mod 13.
    """
    return ((n + 2) * key - 1) % 13 + 1


def pile_sequence(key: int) -> list[int]:
    return [pile_rank(key, n) for n in range(PILE_LEN)]


# NEED[key][n]: rank the pile on this key needs when it holds n cards (n < 12).
NEED = {k: tuple(pile_sequence(k)) for k in range(1, 13)}
# POS[key][rank]: where a card of this rank goes on this key's pile (None for the key's own rank).
POS = {k: {r: (NEED[k].index(r) if r in NEED[k] else None) for r in range(1, 14)} for k in range(1, 13)}

_COL = [Loc("column", i) for i in range(NCOL)]
_PILE = [Loc("pile", j) for j in range(NCOL)]
_MOVE = [[Move.cards(_COL[i], _PILE[j]) for j in range(NCOL)] for i in range(NCOL)]
REDEAL = Move.act("redeal")


def _rank_words(r: int) -> str:
    return {1: "an ace", 8: "an eight", 11: "a jack", 12: "a queen", 13: "a king"}.get(r, f"a {RANK_NAME[r]}")


def redeal_target(index: int) -> int:
    """Column (0-based) that the card ``index`` places from the bottom of a picked-up column is dealt onto."""
    return index % NCOL


class SeniorWrangler(Game):
    id = "senior-wrangler"
    name = "Senior Wrangler"
    source = 'George Keeling, "The five great games of patience" (2005), section E'
    packs = 2
    option_list = ()
    hidden_information = False

    # ------------------------------------------------------------ layout
    def layout(self, options: dict) -> Layout:
        return Layout((
            Area("column", "column", NCOL, origin=(0.0, 0.0), step=(1.2, 0.0), fan=(0.0, 0.3),
                 note="far side of the table; each column fans towards the player, its top card nearest; "
                      "Keeling leaves a half gap between the 8th and 9th card of each column"),
            Area("key", "key", NCOL, origin=(0.0, 6.5), step=(1.2, 0.0), fan=(0.0, 0.0),
                 note="the eight key cards in a row; a finished pile is squared on top of its key card"),
            Area("pile", "foundation", NCOL, origin=(0.0, 8.3), step=(1.2, 0.0), fan=(0.0, 0.0),
                 note="the piles being built, between the key cards and the player, each in front of its key"),
        ))

    # -------------------------------------------------------------- deal
    def deal(self, rng: random.Random, options: dict) -> State:
        deck = self.deck()
        rng.shuffle(deck)
        keys: list[Card] = []
        set_aside: list[Card] = []     # kings and repeated ranks met while dealing the keys
        i = 0
        while len(keys) < NCOL:
            c = deck[i]
            i += 1
            if c.rank == KING or any(k.rank == c.rank for k in keys):
                set_aside.append(c)
            else:
                keys.append(c)
        # The set-aside cards start the columns (column 1, 2, ... wrapping), then the
        # rows are completed across the columns: one round-robin sequence.
        rest = set_aside + deck[i:]
        columns: list[list[Slot]] = [[] for _ in range(NCOL)]
        for j, c in enumerate(rest):
            columns[j % NCOL].append(up(c))
        return State(self.id, {"column": columns,
                               "key": [[up(k)] for k in keys],
                               "pile": [[] for _ in range(NCOL)]},
                     {"session": 1}, dict(options))

    # ----------------------------------------------------------- helpers
    @staticmethod
    def session(state: State) -> int:
        s = state.info.get("session", 1)
        return s if isinstance(s, int) and not isinstance(s, bool) else 1

    @staticmethod
    def key_rank(state: State, j: int) -> int | None:
        kp = state.areas["key"][j]
        return kp[0].card.rank if kp and kp[0].card is not None else None

    @staticmethod
    def progress(state: State, j: int) -> int:
        """Cards on pile ``j`` (12 when finished, whether or not it was put on its key)."""
        kp = state.areas["key"][j]
        if len(kp) > 1:
            return PILE_LEN
        return min(len(state.areas["pile"][j]), PILE_LEN)

    def needs(self, state: State, j: int) -> int | None:
        """Rank pile ``j`` needs next; None when finished or its key is not known."""
        k = self.key_rank(state, j)
        n = self.progress(state, j)
        if k is None or k == KING or n >= PILE_LEN:
            return None
        return NEED[k][n]

    # ------------------------------------------------------------ moves
    def legal_moves(self, state: State) -> list[Move]:
        areas = state.areas
        keys = areas["key"]
        piles = areas["pile"]
        wanted: dict[int, list[int]] = {}
        complete = 0
        for j in range(NCOL):
            kp = keys[j]
            n = len(piles[j])
            if len(kp) > 1 or n >= PILE_LEN:
                complete += 1
                continue
            if not kp or kp[0].card is None:
                continue
            k = kp[0].card.rank
            if k == KING:
                continue
            wanted.setdefault(NEED[k][n], []).append(j)
        if complete == NCOL and not any(areas["column"]):
            return []
        moves: list[Move] = []
        for i, col in enumerate(areas["column"]):
            if col:
                top = col[-1].card
                if top is not None:
                    for j in wanted.get(top.rank, ()):
                        moves.append(_MOVE[i][j])
        if self.session(state) < SESSIONS:
            moves.append(REDEAL)
        return moves

    def apply(self, state: State, move: Move) -> None:
        if move.action == "redeal":
            s = self.session(state)
            cols = state.areas["column"]
            picked = cols[s - 1]
            cols[s - 1] = []
            for idx, slot in enumerate(picked):
                cols[redeal_target(idx)].append(slot)
            state.info["session"] = s + 1
            return
        slot = state.areas["column"][move.src.index].pop()
        j = move.dst.index
        pile = state.areas["pile"][j]
        pile.append(slot)
        if len(pile) == PILE_LEN:        # finished: the pile goes onto its key card
            state.areas["key"][j].extend(pile)
            state.areas["pile"][j] = []

    def depth_under(self, state: State, loc: Loc, top: Card) -> int | None:
        """A pile's top card tells its depth: the key fixes the order (for a key of 5: 10, 2, 7, ...)."""
        if loc.area == "pile":
            keys = state.areas.get("key", [])
            key = keys[loc.index][0].card if loc.index < len(keys) and keys[loc.index] else None
            if key is None or key.rank == 13:
                return None
            return POS[key.rank].get(top.rank)
        if loc.area == "key":
            # A key alone shows itself; a finished pile's king lies on the key and twelve cards.
            return 12 if top.rank == 13 else 0
        return None

    def completion(self, state: State) -> float:
        """Share of the 96 column cards on the piles, a finished pile counted whole (its twelve cards lie
        on its key card then, not in a pile area, so the protocol's default would lose them)."""
        if self.is_won(state):
            return 1.0
        return sum(self.progress(state, j) for j in range(NCOL)) / (NCOL * PILE_LEN)

    def is_won(self, state: State) -> bool:
        return (not any(state.areas["column"])
                and all(self.progress(state, j) == PILE_LEN for j in range(NCOL)))

    def why_illegal(self, state: State, move: Move) -> str | None:
        if move.action != "move":
            if move.action != "redeal":
                return (f"Senior Wrangler has no action {move.action!r}: the only action is 'redeal', "
                        f"which ends the session; otherwise move a column's top card onto a pile, like column3>pile5")
            if move.args:
                return "redeal takes no words after it"
            if self.is_won(state):
                return "the game is already won"
            s = self.session(state)
            if s >= SESSIONS:
                return "this is the eighth and last session: there is no redeal after it"
            return None
        src, dst = move.src, move.dst
        if src.area != "column":
            what = "a key card" if src.area == "key" else "a card on a pile"
            return f"only the top card of a column may be moved; {what} stays where it is"
        if dst.area != "pile":
            if dst.area == "key":
                return (f"cards are built on the piles in front of the key cards, not on the key cards: "
                        f"write pile{dst.index + 1} instead of key{dst.index + 1}")
            return "cards go from a column onto a pile; cards never move onto a column"
        if not 0 <= src.index < NCOL:
            return f"there is no column {src.index + 1}: the columns are numbered 1 to {NCOL}"
        if not 0 <= dst.index < NCOL:
            return f"there is no pile {dst.index + 1}: the piles are numbered 1 to {NCOL}"
        if move.count != 1:
            return "cards move one at a time in Senior Wrangler: only the top card of a column"
        col = state.areas["column"][src.index]
        if not col:
            return f"column {src.index + 1} is empty"
        top = col[-1].card
        if top is None:
            return f"the top card of column {src.index + 1} has not been read, so it cannot be checked"
        j = dst.index
        if self.progress(state, j) >= PILE_LEN:
            return f"pile {j + 1} is finished (its king is on), so nothing more goes on it"
        k = self.key_rank(state, j)
        if k is None:
            return f"the key card of pile {j + 1} has not been read, so the card it needs is not known"
        if k == KING:
            return f"a king cannot be a key card, so pile {j + 1} cannot be built"
        need = NEED[k][self.progress(state, j)]
        if top.rank != need:
            key_card = state.areas["key"][j][0].card
            return (f"pile {j + 1} (key {key_card.pretty}) needs {_rank_words(need)} next; "
                    f"column {src.index + 1} shows the {top.pretty}")
        return None

    def describe(self, state: State, move: Move) -> str:
        if move.action == "redeal":
            s = self.session(state)
            if not 1 <= s < SESSIONS:
                return "redeal"
            n = len(state.areas["column"][s - 1])
            what = f"its {n} card{'s' if n != 1 else ''}" if n else "nothing (it is empty)"
            return (f"end session {s}: pick up column {s} and deal {what} across the tops "
                    f"of the columns from column 1")
        if move.action != "move":
            return str(move)
        try:
            card = state.areas["column"][move.src.index][-1].card
            key = state.areas["key"][move.dst.index][0].card
        except (IndexError, KeyError):
            return super().describe(state, move)
        c = card.pretty if card else "card"
        k = f" (key {key.pretty})" if key else ""
        return f"{c} from column {move.src.index + 1} onto pile {move.dst.index + 1}{k}"

    # --------------------------------------------------------- validate
    def validate(self, state: State) -> list[str]:
        problems = super().validate(state)
        if problems and any("must have" in p or "missing" in p for p in problems):
            return problems
        s = state.info.get("session", 1)
        if not isinstance(s, int) or isinstance(s, bool) or not 1 <= s <= SESSIONS:
            problems.append(f"info.session must be a whole number from 1 to {SESSIONS}, got {s!r}")
        for name, piles in state.areas.items():
            for i, p in enumerate(piles):
                if any(not sl.face_up for sl in p):
                    problems.append(f"{name} {i + 1} holds a face-down card, but every card is face up in Senior Wrangler")
        keys = state.areas["key"]
        piles = state.areas["pile"]
        seen_keys: dict[int, int] = {}
        for j in range(NCOL):
            kp, pile = keys[j], piles[j]
            if not kp:
                if pile:
                    problems.append(f"pile {j + 1} has cards but no key card")
                continue
            if len(kp) not in (1, 1 + PILE_LEN):
                problems.append(f"key {j + 1} holds {len(kp)} cards: a key card alone, "
                                f"or with its finished pile of {PILE_LEN} on it")
            if len(kp) > 1 and pile:
                problems.append(f"pile {j + 1} is finished and on its key card, yet more cards lie in front of it")
            if len(pile) > PILE_LEN:
                problems.append(f"pile {j + 1} holds {len(pile)} cards; a pile is finished at {PILE_LEN}")
            key = kp[0].card
            if key is None:
                continue
            if key.rank == KING:
                problems.append(f"key {j + 1} is the {key.pretty}, but a king is never a key card")
                continue
            if key.rank in seen_keys:
                problems.append(f"keys {seen_keys[key.rank] + 1} and {j + 1} have the same rank ({RANK_LABEL[key.rank]}); "
                                f"the key cards are all of different ranks")
            seen_keys.setdefault(key.rank, j)
            built = kp[1:] if len(kp) > 1 else pile
            for n, sl in enumerate(built[:PILE_LEN]):
                if sl.card is not None and sl.card.rank != NEED[key.rank][n]:
                    problems.append(f"card {n + 1} of pile {j + 1} is the {sl.card.pretty}, but on key "
                                    f"{key.pretty} it must be {_rank_words(NEED[key.rank][n])}")
        return problems


GAME = SeniorWrangler()
