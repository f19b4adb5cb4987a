"""Poker Patience, Advanced Poker and Serpent Poker (Mary Whitmore Jones,
*New Games of Patience*, 1911).

One pack. Cards are turned one at a time and each is laid down, for good,
touching (side or corner) a card already laid, until twenty-five cards make
a square of five by five. Each of the five rows and five columns then scores
as a poker hand by the book's table.

* **Advanced Poker**: the higher table; up to five turned cards may be
  discarded instead of placed (thirty drawn in all); a joker plays wild,
  taking a different value in its row and in its column.
* **Serpent Poker**: each card goes squarely (side by side, not corner to
  corner) next to the card laid just before it; only when that card has no
  free side left may the next go anywhere touching the square. Ordinary table.

The square is not marked out in advance: it grows from the first card in
any direction, as long as it can still end five by five. We record it on a
9 x 9 board with the first card in the middle (``e5``), so every square the
player can build fits: columns ``a``..``i`` left to right, rows 1..9 from the
top.

Areas
    ``pack``       the cards not yet turned (face down)
    ``turned``     the card just turned, waiting to be placed
    ``a`` .. ``i``  the nine board columns, nine cells each (one card a cell)
    ``discard``    cards discarded (Advanced Poker only, five at most)
Moves
    ``turned1>e5``   lay the turned card at e5 (the card may be named: ``7h>e5``)
    ``turned1>discard1``   discard it (Advanced Poker)
    ``joker f4``     lay the joker at f4
    ``turn``         turn the next card (only when none is waiting)

The joker is not one of the 52 cards of ``advisor.cards``, so it is kept in
``State.info``: ``joker`` is where it is (``pack``, ``hand``, ``turned`` or
``placed``), ``joker_at`` its cell once placed, and ``joker_deep`` (hidden in
the player's observation) how many cards lie above it in the pack.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Iterable, Sequence

from ..cards import SUITS, Card, rank_add
from ..engine import Area, Game, Layout, Loc, Move, Option, State, Slot, down, up

# ---------------------------------------------------------------- scoring

JOKER = "joker"          # stands for the joker in a line of cards

#: Points by hand, as printed in the book. The ordinary table's figures for
#: the flush sequence, the straight and the flush are illegible in our copy of
#: the text; they are the standard English values (see seeds/poker-patience.toml).
TABLES: dict[str, dict[str, int]] = {
    "ordinary": {"straight-flush": 30, "fours": 16, "straight": 12, "full-house": 10,
                 "threes": 6, "flush": 5, "two-pairs": 3, "pair": 1},
    "advanced": {"royal-flush": 30, "fives": 30, "straight-flush": 25, "fours": 20, "straight": 16,
                 "full-house": 12, "flush": 8, "threes": 5, "two-pairs": 3, "pair": 1},
}
HAND_NAMES = {"royal-flush": "royal flush", "fives": "fives", "straight-flush": "flush sequence",
              "fours": "fours", "straight": "straight sequence", "full-house": "full hand",
              "flush": "flush", "threes": "threes", "two-pairs": "two pairs", "pair": "one pair",
              "nothing": "nothing"}
_ORDER = ("royal-flush", "fives", "straight-flush", "fours", "straight", "full-house",
          "flush", "threes", "two-pairs", "pair")
_ROYAL = frozenset({1, 10, 11, 12, 13})
_ALL_FACES = tuple((r, s) for s in SUITS for r in range(1, 14))


def table_for(variant: str) -> dict[str, int]:
    return TABLES["advanced" if variant == "advanced" else "ordinary"]


def is_sequence(ranks: Iterable[int], ace_middle: bool = False) -> bool:
    """Five different ranks in sequence; the ace is below the two or above the king,
    and in the middle (Q K A 2 3) only when ``ace_middle``."""
    rs = set(ranks)
    if len(rs) != 5:
        return False
    if max(rs) - min(rs) == 4:
        return True
    if 1 in rs:
        high = {14 if r == 1 else r for r in rs}
        if max(high) - min(high) == 4:
            return True
    if ace_middle:
        return any(rs == {rank_add(start, k) for k in range(5)} for start in range(1, 14))
    return False


def _hands(faces: Sequence[tuple[int, str]], ace_middle: bool) -> set[str]:
    """Every hand of the table that these cards (rank, suit; repeats allowed) make."""
    ranks = [r for r, _ in faces]
    counts = sorted(Counter(ranks).values(), reverse=True) + [0, 0]
    c0, c1 = counts[0], counts[1]
    made = set()
    if c0 >= 5:
        made.add("fives")
    if c0 >= 4:
        made.add("fours")
    if c0 >= 3:
        made.add("threes")
        if c1 >= 2:
            made.add("full-house")
    if c0 >= 2:
        made.add("pair")
        if c1 >= 2:
            made.add("two-pairs")
    if len(faces) == 5:
        flush = len({s for _, s in faces}) == 1
        straight = is_sequence(ranks, ace_middle)
        if flush:
            made.add("flush")
        if straight:
            made.add("straight")
        if flush and straight:
            made.add("straight-flush")
            if set(ranks) == _ROYAL:
                made.add("royal-flush")
    return made


def _best(made: set[str], table: dict[str, int]) -> tuple[str, int]:
    best, pts = "nothing", 0
    for h in _ORDER:
        if h in made and table.get(h, 0) > pts:
            best, pts = h, table[h]
    return best, pts


def line_hand(cards: Sequence, variant: str = "ordinary", ace_middle: bool = False) -> tuple[str, int]:
    """(hand, points) of one row or column: ``cards`` are Cards and at most one JOKER.

    The joker takes whichever value scores most in this line. Lines of fewer
    than five cards can only score pairs, threes and fours.
    """
    table = table_for(variant)
    faces = [c.face for c in cards if isinstance(c, Card)]
    jokers = sum(1 for c in cards if isinstance(c, str) and c == JOKER)
    if len(faces) + jokers != len(cards):
        raise ValueError("a line holds cards and at most one joker")
    if not jokers:
        return _best(_hands(faces, ace_middle), table)
    if jokers > 1:
        raise ValueError("a line holds one joker at most")
    best = ("nothing", 0)
    for f in _ALL_FACES:
        h = _best(_hands(faces + [f], ace_middle), table)
        if h[1] > best[1]:
            best = h
    return best


def score_line(cards: Sequence, variant: str = "ordinary", ace_middle: bool = False) -> int:
    """Points one row or column scores (see :func:`line_hand`)."""
    return line_hand(cards, variant, ace_middle)[1]


def score_grid(grid: Sequence[Sequence], variant: str = "ordinary", ace_middle: bool = False) -> int:
    """Total of a square given as rows of cards (None for an empty place, JOKER for the joker)."""
    total = 0
    rows = [list(r) for r in grid]
    width = max((len(r) for r in rows), default=0)
    cols = [[r[c] for r in rows if c < len(r)] for c in range(width)]
    for line in rows + cols:
        cards = [c for c in line if c is not None]
        total += score_line(cards, variant, ace_middle)
    return total


# ---------------------------------------------------------------- the board

COLS = "abcdefghi"
SIZE = 9             # the board the square grows on
SIDE = 5             # the finished square
CENTRE = (4, 4)      # e5: the first card
CELLS = SIDE * SIDE
MAX_DISCARDS = 5
JOKER_PLACES = ("pack", "hand", "turned", "placed")


def cell_name(c: int, r: int) -> str:
    return f"{COLS[c]}{r + 1}"


def parse_cell(text: str) -> tuple[int, int] | None:
    t = str(text).strip().lower()
    if len(t) >= 2 and t[0] in COLS and t[1:].isdigit() and 1 <= int(t[1:]) <= SIZE:
        return COLS.index(t[0]), int(t[1:]) - 1
    return None


_NEIGH8 = {(c, r): tuple((c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)
                         if (dc or dr) and 0 <= c + dc < SIZE and 0 <= r + dr < SIZE)
           for c in range(SIZE) for r in range(SIZE)}
_NEIGH4 = {(c, r): tuple((c + dc, r + dr) for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1))
                         if 0 <= c + dc < SIZE and 0 <= r + dr < SIZE)
           for c in range(SIZE) for r in range(SIZE)}


class PokerPatience(Game):
    id = "poker-patience"
    name = "Poker Patience"
    source = "Mary Whitmore Jones, New Games of Patience (1911): Poker, Advanced Poker and Serpent Poker Patience"
    packs = 1
    hidden_information = True
    option_list = (
        Option("variant", "ordinary", "ordinary Poker Patience; advanced (higher table, five discards, a joker); "
               "serpent (each card squarely next to the last)", ("ordinary", "advanced", "serpent")),
        Option("joker", "as-variant", "as-variant: shuffled into the pack in Advanced Poker, none otherwise; "
               "in-pack: shuffled in and turned like any card; in-hand: held by the player and laid when chosen; none",
               ("as-variant", "none", "in-pack", "in-hand")),
        Option("ace_middle", False, "let an ace (or king) sit in the middle of a sequence, as J Q K A 2 "
               "(allowed by some players of Advanced Poker)"),
    )

    def layout(self, options: dict) -> Layout:
        areas = [Area("pack", "stock", 1, origin=(11.5, 0.0), face="down", note="the cards still to be turned")]
        areas.append(Area("turned", "pile", 1, origin=(11.5, 1.6), note="the card just turned, to be laid on the square"))
        for k, col in enumerate(COLS):
            areas.append(Area(col, "cell", SIZE, origin=(1.1 * k, 0.0), step=(0.0, 1.5),
                              note=f"board column {col}: the first card lies at e5 and the square grows round it"))
        areas.append(Area("discard", "discard", 1, origin=(11.5, 3.2),
                          note="Advanced Poker: up to five turned cards set aside unplayed"))
        return Layout(tuple(areas))

    # ------------------------------------------------------------ options
    @staticmethod
    def joker_mode(options: dict) -> str:
        j = options.get("joker", "as-variant")
        if j == "as-variant":
            return "in-pack" if options.get("variant") == "advanced" else "none"
        return j

    def deal(self, rng: random.Random, options: dict) -> State:
        deck = self.deck()
        rng.shuffle(deck)
        areas = {"pack": [[down(c) for c in reversed(deck)]], "turned": [[]]}
        for col in COLS:
            areas[col] = [[] for _ in range(SIZE)]
        areas["discard"] = [[]]
        info: dict = {"last": None}
        mode = self.joker_mode(options)
        if mode == "in-pack":
            info.update(joker="pack", joker_at=None, joker_deep=rng.randint(0, len(deck)))
        elif mode == "in-hand":
            info.update(joker="hand", joker_at=None)
        state = State(self.id, areas, info, dict(options))
        self._turn(state)
        return state

    # ------------------------------------------------------------ helpers
    def _joker(self, state: State) -> tuple[str | None, tuple[int, int] | None]:
        mode = self.joker_mode(state.options)
        if mode == "none":
            return None, None
        where = state.info.get("joker", "pack" if mode == "in-pack" else "hand")
        at = parse_cell(state.info["joker_at"]) if where == "placed" and isinstance(state.info.get("joker_at"), str) else None
        return where, at

    def grid(self, state: State) -> dict[tuple[int, int], object]:
        """Occupied cells: (column, row) -> Card, None (unreadable) or JOKER."""
        g: dict[tuple[int, int], object] = {}
        for c, col in enumerate(COLS):
            for r, pile in enumerate(state.areas[col]):
                if pile:
                    g[(c, r)] = pile[-1].card
        _, at = self._joker(state)
        if at is not None:
            g[at] = JOKER
        return g

    @staticmethod
    def _fits(occupied: Iterable[tuple[int, int]], cell: tuple[int, int]) -> bool:
        cs = [c for c, _ in occupied] + [cell[0]]
        rs = [r for _, r in occupied] + [cell[1]]
        return max(cs) - min(cs) < SIDE and max(rs) - min(rs) < SIDE

    def targets(self, state: State) -> list[tuple[int, int]]:
        """Cells where the next card may be laid, in board order (column a first, top to bottom)."""
        g = self.grid(state)
        if len(g) >= CELLS:
            return []
        if not g:
            return [CENTRE]
        occ = list(g)
        if state.options.get("variant") == "serpent":
            last = parse_cell(state.info.get("last") or "") if isinstance(state.info.get("last"), str) else None
            if last is not None and last in g:
                near = [n for n in _NEIGH4[last] if n not in g and self._fits(occ, n)]
                if near:
                    return sorted(near)
        cands = {n for cell in g for n in _NEIGH8[cell] if n not in g}
        return sorted(n for n in cands if self._fits(occ, n))

    def _turn(self, state: State) -> None:
        """Turn the next card of the pack (the joker when its turn comes)."""
        if len(self.grid(state)) >= CELLS or state.areas["turned"][0]:
            return
        where, _ = self._joker(state)
        pack = state.areas["pack"][0]
        if where == "turned":
            return
        if where == "pack":
            deep = state.info.get("joker_deep")
            if (isinstance(deep, int) and deep <= 0) or not pack:
                state.info["joker"] = "turned"
                state.info["joker_deep"] = None
                return
            if isinstance(deep, int):
                state.info["joker_deep"] = deep - 1
        if pack:
            state.areas["turned"][0].append(pack.pop().turned_up())

    def score(self, state: State) -> int:
        return score_square(state)

    def completion(self, state: State) -> float:
        """The protocol's progress measure: this game's own ``progress``."""
        return self.progress(state)

    def progress(self, state: State) -> float:
        return score_square(state) / 100

    # -------------------------------------------------------------- moves
    def legal_moves(self, state: State) -> list[Move]:
        moves: list[Move] = []
        targets = self.targets(state)
        if not targets:
            return moves
        where, _ = self._joker(state)
        if state.areas["turned"][0]:
            src = Loc("turned", 0)
            moves.extend(Move.cards(src, Loc(COLS[c], r)) for c, r in targets)
            if state.options.get("variant") == "advanced" and len(state.areas["discard"][0]) < MAX_DISCARDS:
                moves.append(Move.cards(src, Loc("discard", 0)))
        if where in ("hand", "turned"):
            moves.extend(Move.act("joker", cell_name(c, r)) for c, r in targets)
        if not state.areas["turned"][0] and where != "turned" and (state.areas["pack"][0] or where == "pack"):
            moves.append(Move.act("turn"))
        return moves

    def why_illegal(self, state: State, move: Move) -> str | None:
        g = self.grid(state)
        full = len(g) >= CELLS
        where, _ = self._joker(state)
        if move.action == "turn":
            if move.args:
                return "turn takes no further words"
            if full:
                return "the square is complete: the game is over"
            if state.areas["turned"][0] or where == "turned":
                return "a turned card is already waiting to be laid"
            if not state.areas["pack"][0] and where != "pack":
                return "the pack is empty"
            return None
        if move.action == "joker":
            if self.joker_mode(state.options) == "none":
                return "this game is played without a joker"
            if where == "placed":
                return "the joker has already been laid"
            if where == "pack":
                return "the joker is still in the pack; it can be laid only when it is turned up"
            if len(move.args) != 1 or parse_cell(move.args[0]) is None:
                return "say where the joker goes, as a board cell from a1 to i9: joker e5"
            return self._place_problem(state, g, parse_cell(move.args[0]), "the joker")
        if move.action != "move":
            return (f"Poker Patience has no action {move.action!r}; lay the turned card on a cell (turned1>e5), "
                    f"or use joker <cell> or turn")
        src, dst = move.src, move.dst
        if src.area != "turned" or src.index != 0:
            return "only the card just turned can be moved: a card once laid stays where it is"
        if move.count != 1:
            return "cards are laid one at a time"
        if full:
            return "the square is complete: the game is over"
        if not state.areas["turned"][0]:
            return ("the joker is waiting to be laid: joker <cell>" if where == "turned"
                    else "no card has been turned yet: turn first")
        card = state.areas["turned"][0][-1].card
        what = f"the {card.pretty}" if card else "the turned card"
        if dst.area == "discard":
            if dst.index != 0:
                return "there is only one discard pile (discard1)"
            if state.options.get("variant") != "advanced":
                return "discarding is a privilege of Advanced Poker only: every card turned must be laid"
            if len(state.areas["discard"][0]) >= MAX_DISCARDS:
                return "all five discards have been used: this card must be laid"
            return None
        if dst.area not in COLS:
            return f"{what} must go on a cell of the square (a1 to i9), or to discard1 in Advanced Poker"
        if dst.index >= SIZE:
            return f"the board has rows 1 to {SIZE} only"
        return self._place_problem(state, g, (COLS.index(dst.area), dst.index), what)

    def _place_problem(self, state: State, g: dict, cell: tuple[int, int], what: str) -> str | None:
        name = cell_name(*cell)
        if len(g) >= CELLS:
            return "the square is complete: the game is over"
        if cell in g:
            held = g[cell]
            return f"{name} already holds {'the joker' if held is JOKER else ('the ' + held.pretty if held else 'a card')}"
        if not g:
            return None if cell == CENTRE else f"the first card is laid in the middle of the board, at {cell_name(*CENTRE)}"
        if cell in self.targets(state):
            return None
        if not any(n in g for n in _NEIGH8[cell]):
            return f"{name} does not touch any card already laid; each card must touch one (side or corner)"
        if not self._fits(list(g), cell):
            cs = [c for c, _ in g] + [cell[0]]
            rs = [r for _, r in g] + [cell[1]]
            w, h = max(cs) - min(cs) + 1, max(rs) - min(rs) + 1
            return (f"{what} at {name} would make the square {max(w, h)} cards "
                    f"{'wide' if w > SIDE else 'tall'}; it must end five by five")
        last = state.info.get("last")
        lc = parse_cell(last) if isinstance(last, str) else None
        if state.options.get("variant") == "serpent" and lc in g:
            held = g[lc]
            lname = ("the joker" if held is JOKER else f"the {held.pretty}" if held else "the last card") + f" at {last}"
            free = [cell_name(*n) for n in _NEIGH4[lc] if n not in g and self._fits(list(g), n)]
            return (f"in Serpent Poker each card goes squarely beside the one laid just before it ({lname}), "
                    f"so {what} may go only at {' or '.join(free)}")
        return f"{what} cannot be laid at {name}"

    def apply(self, state: State, move: Move) -> None:
        if move.action == "turn":
            self._turn(state)
            return
        if move.action == "joker":
            c, r = parse_cell(move.args[0])
            came_from = state.info.get("joker")
            state.info["joker"] = "placed"
            state.info["joker_at"] = cell_name(c, r)
            state.info["last"] = cell_name(c, r)
            if came_from == "turned":
                self._turn(state)
            return
        slot = state.areas["turned"][0].pop()
        if move.dst.area == "discard":
            state.areas["discard"][0].append(slot)
        else:
            state.pile(move.dst).append(slot)
            state.info["last"] = str(move.dst)
        self._turn(state)

    def is_won(self, state: State) -> bool:
        """The game is over, with a score, once the square is complete."""
        return len(self.grid(state)) >= CELLS

    def photo_info(self, seen: State) -> dict:
        """A square first seen in a photo: where the joker lies in the pack, and which card was laid last,
        cannot be known."""
        info = dict(seen.info)
        info["last"] = None
        if "joker_deep" in info:
            info["joker_deep"] = None
        return info

    def photo_equivalents(self, state: State) -> list[tuple[State, dict[tuple[str, int], tuple[str, int]]]]:
        """The square moved anywhere on the board that leaves it room to grow to five by five every
        way it could before: which card was laid first (at e5) does not show."""
        g = self.grid(state)
        if not g:
            return []
        cs, rs = [c for c, _ in g], [r for _, r in g]
        out = []
        room_c, room_r = SIDE - 1 - (max(cs) - min(cs)), SIDE - 1 - (max(rs) - min(rs))
        for dc in range(room_c - min(cs), len(COLS) - room_c - max(cs)):
            for dr in range(room_r - min(rs), SIZE - room_r - max(rs)):
                if (dc, dr) == (0, 0):
                    continue
                moved = state.copy()
                where = {}
                for col in COLS:
                    moved.areas[col] = [[] for _ in range(SIZE)]
                for c, col in enumerate(COLS):
                    for r, pile in enumerate(state.areas[col]):
                        if 0 <= c + dc < len(COLS) and 0 <= r + dr < SIZE:
                            where[(col, r)] = (COLS[c + dc], r + dr)
                            moved.areas[COLS[c + dc]][r + dr] = list(pile)
                for key in ("last", "joker_at"):
                    cell = parse_cell(state.info[key]) if isinstance(state.info.get(key), str) else None
                    if cell is not None:
                        moved.info[key] = cell_name(cell[0] + dc, cell[1] + dr)
                out.append((moved, where))
        return out

    def observation(self, state: State) -> State:
        obs = super().observation(state)
        if "joker_deep" in obs.info:
            obs.info["joker_deep"] = None
        return obs

    def describe(self, state: State, move: Move) -> str:
        try:
            g = self.grid(state)
            if move.action == "turn":
                return "turn the next card of the pack"
            if move.action == "joker":
                cell = parse_cell(move.args[0])
                return f"lay the joker at {move.args[0]}{_beside(g, cell)}"
            if move.action != "move":
                return str(move)
            slot = state.areas["turned"][0][-1] if state.areas["turned"][0] else None
            what = f"the {slot.card.pretty}" if slot and slot.card else "the turned card"
            if move.dst.area == "discard":
                return f"discard {what} ({MAX_DISCARDS - len(state.areas['discard'][0]) - 1} discards left after this)"
            cell = (COLS.index(move.dst.area), move.dst.index)
            return f"lay {what} at {move.dst}{_beside(g, cell)}"
        except (KeyError, IndexError, ValueError, TypeError):
            return str(move)

    # ------------------------------------------------------------ validity
    def validate(self, state: State) -> list[str]:
        problems = super().validate(state)
        layout = self.layout(state.options)
        if any(n not in state.areas or len(state.areas[n]) != layout[n].count for n in layout.names):
            return problems
        for col in COLS:
            for r, pile in enumerate(state.areas[col]):
                if len(pile) > 1:
                    problems.append(f"{col}{r + 1} holds {len(pile)} cards; a cell holds one")
                if any(not s.face_up for s in pile):
                    problems.append(f"the card at {col}{r + 1} should be face up")
        if len(state.areas["turned"][0]) > 1:
            problems.append("only one turned card can be waiting at a time")
        if any(not s.face_up for s in state.areas["turned"][0]):
            problems.append("the turned card should be face up")
        if any(s.face_up for s in state.areas["pack"][0]):
            problems.append("the pack should be face down")
        discards = state.areas["discard"][0]
        if discards and state.options.get("variant") != "advanced":
            problems.append("only Advanced Poker allows discards")
        if len(discards) > MAX_DISCARDS:
            problems.append(f"{len(discards)} discards; five at most are allowed")
        problems.extend(self._check_info(state))
        if problems:
            return problems
        g = self.grid(state)
        if g:
            cs = [c for c, _ in g]
            rs = [r for _, r in g]
            if max(cs) - min(cs) >= SIDE or max(rs) - min(rs) >= SIDE:
                problems.append("the cards laid do not fit in a square of five by five")
            seen, todo = set(), [next(iter(g))]
            while todo:
                cell = todo.pop()
                if cell in seen:
                    continue
                seen.add(cell)
                todo.extend(n for n in _NEIGH8[cell] if n in g and n not in seen)
            if len(seen) != len(g):
                problems.append("some cards laid touch no other card; each card must touch one already laid")
        return problems

    def _check_info(self, state: State) -> list[str]:
        problems = []
        info = state.info
        last = info.get("last")
        if last is not None:
            cell = parse_cell(last) if isinstance(last, str) else None
            if cell is None:
                problems.append(f"info 'last' must name a board cell such as e5, not {last!r}")
        mode = self.joker_mode(state.options)
        if mode == "none":
            if info.get("joker") is not None or info.get("joker_at") is not None:
                problems.append("this game is played without a joker, but the state places one")
            cell = parse_cell(last) if isinstance(last, str) else None
            if cell is not None and not state.areas[COLS[cell[0]]][cell[1]]:
                problems.append(f"the last card laid is said to be at {last}, which is empty")
            return problems
        where = info.get("joker", "pack" if mode == "in-pack" else "hand")
        allowed = ("pack", "turned", "placed") if mode == "in-pack" else ("hand", "placed")
        if where not in allowed:
            problems.append(f"info 'joker' must be one of {', '.join(allowed)} for this game, not {where!r}")
            return problems
        at = info.get("joker_at")
        if where == "placed":
            cell = parse_cell(at) if isinstance(at, str) else None
            if cell is None:
                problems.append("the joker is laid but info 'joker_at' does not name its cell (such as e5)")
            elif state.areas[COLS[cell[0]]][cell[1]]:
                problems.append(f"the joker is said to lie at {at}, but a card lies there")
        elif at is not None:
            problems.append("info 'joker_at' is set but the joker has not been laid")
        deep = info.get("joker_deep")
        if deep is not None and (where != "pack" or not isinstance(deep, int) or isinstance(deep, bool)
                                 or not 0 <= deep <= len(state.areas["pack"][0])):
            problems.append("info 'joker_deep' must be the number of cards above the joker in the pack")
        if where == "turned" and state.areas["turned"][0]:
            problems.append("the joker and a card cannot both be waiting to be laid")
        if last is not None and parse_cell(last):
            c, r = parse_cell(last)
            if not state.areas[COLS[c]][r] and not (where == "placed" and at == last):
                problems.append(f"the last card laid is said to be at {last}, which is empty")
        return problems


def _beside(g: dict, cell: tuple[int, int] | None) -> str:
    """Where a cell lies relative to a card already laid, in words."""
    if cell is None:
        return ""
    words = {(1, 0): "right of", (-1, 0): "left of", (0, 1): "below", (0, -1): "above",
             (1, 1): "below and right of", (-1, 1): "below and left of",
             (1, -1): "above and right of", (-1, -1): "above and left of"}
    for (dc, dr), w in words.items():
        n = (cell[0] - dc, cell[1] - dr)
        if n in g:
            held = g[n]
            return f", {w} the {'joker' if held is JOKER else (held.pretty if held else 'unreadable card')}"
    return ""


def square_lines(state: State) -> list[dict]:
    """Each row and column of the square laid so far, with its hand and points."""
    game = GAME
    g = game.grid(state)
    variant = state.options.get("variant", "ordinary")
    ace_middle = bool(state.options.get("ace_middle", False))
    out = []
    if not g:
        return out
    for r in sorted({r for _, r in g}):
        cells = sorted(c for c, rr in g if rr == r)
        cards = [g[(c, r)] for c in cells if g[(c, r)] is not None]
        hand, pts = line_hand(cards, variant, ace_middle)
        out.append({"line": f"row {r + 1}", "cells": [cell_name(c, r) for c in cells], "hand": HAND_NAMES[hand], "points": pts})
    for c in sorted({c for c, _ in g}):
        cells = sorted(r for cc, r in g if cc == c)
        cards = [g[(c, r)] for r in cells if g[(c, r)] is not None]
        hand, pts = line_hand(cards, variant, ace_middle)
        out.append({"line": f"column {COLS[c]}", "cells": [cell_name(c, r) for r in cells], "hand": HAND_NAMES[hand], "points": pts})
    return out


def score_square(state: State) -> int:
    """Points of the square laid so far: every row and column scored by the variant's table."""
    return sum(line["points"] for line in square_lines(state))


GAME = PokerPatience()
