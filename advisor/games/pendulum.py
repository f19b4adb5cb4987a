"""Pendulum: a one-pack patience from "Patience Games" (Kellscraft Studio web edition, chapter "Pendulum").

The table, from the far side towards the player::

    A A  .  .  .  .  A A        left-aces1-2 ... right-aces1-2
    top     8 places            the top row; its two corner cards are privileged
    second  8 places
    ...                         each row overlaps the one before it
    sixth   8 places            the lowest row: its cards are exposed at the start

* The four aces come out first; the other 48 cards are dealt in six rows of
  eight. After looking at the deal the player chooses once and for all the
  building order on the aces: up or down, by an interval of 1 to 12, in suit
  and wrapping past the king. The last card of that order (the 13th) is the
  "crowning" card.
* A card is exposed when no card lies below it in its place (column). An
  exposed card (a packet moves whole) may be packed on another exposed card
  the reverse way, in suit; on either top-row corner card at any time; or on
  the card in the row just above it, which it covers (the vertical move).
  Exposed cards (top cards of packets) go out on the aces.
* A gap in the top row is filled only by a crowning card (with its packet).
  Gaps in the lower rows are never filled: when no card can move, the rows
  below the top row are closed up towards the right, next time towards the
  left, and so on alternately (the pendulum).

``rank_choices(state)`` ranks the 24 possible choices of building order by
how many bottom-row cards each frees, as the source advises.
"""
from __future__ import annotations

import random
from typing import Any

from ..cards import RANK_LABEL, SUIT_SYMBOL, Card, interval_sequence, rank_add
from ..engine import Area, Game, Layout, Loc, Move, Option, State, count_word, up

ROWS = ("top", "second", "third", "fourth", "fifth", "sixth")
WIDTH = 8
FOUNDATIONS = (Loc("left-aces", 0), Loc("left-aces", 1), Loc("right-aces", 0), Loc("right-aces", 1))
CORNERS = (0, WIDTH - 1)
STEP_X = 1.2
ROW_GAP = 0.7          # each row covers the lower half of the row above it
TOP_Y = 1.7
DIRECTIONS = ("up", "down")
CHOICES = tuple((d, k) for d in DIRECTIONS for k in range(1, 13))
# Up by k builds as down by 13 - k: these twelve are every order once, each in its smaller interval.
PHOTO_ORDERS = tuple((d, k) for k in range(1, 7) for d in DIRECTIONS)


def step_of(direction: str, interval: int) -> int:
    return interval if direction == "up" else -interval


def building_order(direction: str, interval: int) -> list[int]:
    """The thirteen ranks in building order, from the ace to the crowning card."""
    return interval_sequence(1, step_of(direction, interval))


def _label(rank: int) -> str:
    return RANK_LABEL[rank]


def _a(rank: int) -> str:
    return ("an " if rank in (1, 8) else "a ") + RANK_LABEL[rank]


def _where(area: str, index: int) -> str:
    return f"{area} {index + 1}" if area in ROWS else Loc(area, index).human()


class Pendulum(Game):
    id = "pendulum"
    name = "Pendulum"
    source = "Patience Games (Kellscraft Studio web edition), chapter: Pendulum"
    packs = 1
    option_list = (
        Option("packing", "suit",
               "packing on exposed cards: 'suit' (in suit, as every packing in the source's example game) "
               "or 'any' (the bare rule names no suit)", ("suit", "any")),
    )
    hidden_information = False

    # ------------------------------------------------------------------ layout
    def layout(self, options: dict) -> Layout:
        areas = [
            Area("left-aces", "foundation", 2, origin=(0.0, 0.0), step=(STEP_X, 0.0),
                 note="two aces above the first two places of the top row"),
            Area("right-aces", "foundation", 2, origin=((WIDTH - 2) * STEP_X, 0.0), step=(STEP_X, 0.0),
                 note="two aces above the last two places of the top row; the space between stays empty"),
        ]
        for r, name in enumerate(ROWS):
            note = {0: "the top row: never closed up; a gap takes only a crowning card; "
                       "its two corner cards take packing at any time",
                    5: "the lowest row at the deal: all its cards start exposed"}.get(r, "")
            areas.append(Area(name, "row", WIDTH, origin=(0.0, TOP_Y + r * ROW_GAP), step=(STEP_X, 0.0),
                              fan=(0.0, 0.2), note=note or "a row of eight places; a packet fans slightly towards the player"))
        return Layout(tuple(areas))

    # -------------------------------------------------------------------- deal
    def deal(self, rng: random.Random, options: dict) -> State:
        deck = self.deck()
        rng.shuffle(deck)
        aces = [c for c in deck if c.rank == 1]
        rest = [c for c in deck if c.rank != 1]
        areas: dict[str, list] = {"left-aces": [[up(aces[0])], [up(aces[1])]],
                                  "right-aces": [[up(aces[2])], [up(aces[3])]]}
        for r, name in enumerate(ROWS):
            areas[name] = [[up(c)] for c in rest[r * WIDTH:(r + 1) * WIDTH]]
        return State(self.id, areas, {"phase": "choose"}, dict(options))

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def phase(state: State) -> str:
        return state.info.get("phase", "choose")

    @staticmethod
    def step(state: State) -> int:
        return step_of(state.info["direction"], state.info["interval"])

    @staticmethod
    def _rows(state: State) -> list[list[list]]:
        return [state.areas[name] for name in ROWS]

    @staticmethod
    def _lowest(rows) -> list[int]:
        """For each place (column), the row of its exposed pile, or -1 when the column is empty."""
        low = [-1] * WIDTH
        for r in range(len(ROWS)):
            for c, p in enumerate(rows[r]):
                if p:
                    low[c] = r
        return low

    def _fits_pack(self, state: State, card: Card, onto: Card, step: int) -> bool:
        if card.rank != rank_add(onto.rank, -step):
            return False
        return state.options.get("packing", "suit") == "any" or card.suit == onto.suit

    @staticmethod
    def _foundation_next(state: State, f: Loc, step: int) -> Card | None:
        """The card a foundation takes next (face), None when complete or its top card is unknown.
        (Cards under the top may be unknown: the camera sees only the top of a squared pile.)"""
        pile = state.pile(f)
        if not pile or len(pile) >= 13 or pile[-1].card is None:
            return None
        return Card(rank_add(pile[-1].card.rank, step), pile[-1].card.suit)

    def depth_under(self, state: State, loc: Loc, top: Card) -> int | None:
        """Cards under ``top`` on an ace pile: its place in the chosen building order."""
        if loc not in FOUNDATIONS:
            return None
        if top.rank == 1:
            return 0
        if self.phase(state) != "play" or "direction" not in state.info:
            return None
        return building_order(state.info["direction"], state.info["interval"]).index(top.rank)

    def _card_moves(self, state: State) -> list[Move]:
        """Every legal card move (play phase), foundation moves first for each exposed pile."""
        step = self.step(state)
        crown = rank_add(1, -step)
        rows = self._rows(state)
        low = self._lowest(rows)
        wants = {}
        for f in FOUNDATIONS:
            nxt = self._foundation_next(state, f, step)
            if nxt is not None:
                wants[nxt.face] = f
        # packing targets: exposed piles and the two top-row corners, with their top cards
        targets: list[tuple[int, int, Card]] = []
        for c in range(WIDTH):
            r = low[c]
            if r >= 0 and rows[r][c][-1].card is not None:
                targets.append((r, c, rows[r][c][-1].card))
        for c in CORNERS:
            p = rows[0][c]
            if low[c] > 0 and p and p[-1].card is not None:
                targets.append((0, c, p[-1].card))
        top_gaps = [c for c in range(WIDTH) if not rows[0][c]]
        moves: list[Move] = []
        for c in range(WIDTH):
            r = low[c]
            if r < 0:
                continue
            pile = rows[r][c]
            src = Loc(ROWS[r], c)
            top = pile[-1].card
            if top is not None and top.face in wants:
                moves.append(Move.cards(src, wants[top.face]))
            base = pile[0].card
            if base is None:
                continue
            n = len(pile)
            cands = list(targets)
            if r >= 1:                       # the vertical move: onto the card it covers
                above = rows[r - 1][c]
                if above and above[-1].card is not None:
                    cands.append((r - 1, c, above[-1].card))
            seen = {(r, c)}
            for (tr, tc, card) in cands:
                if (tr, tc) in seen:
                    continue
                seen.add((tr, tc))
                if self._fits_pack(state, base, card, step):
                    moves.append(Move.cards(src, Loc(ROWS[tr], tc), n))
            if r >= 1 and base.rank == crown:
                for g in top_gaps:
                    moves.append(Move.cards(src, Loc("top", g), n))
        return moves

    def _lower_rows_have_cards(self, state: State) -> bool:
        return any(p for name in ROWS[1:] for p in state.areas[name])

    # ------------------------------------------------------------------ moves
    def legal_moves(self, state: State) -> list[Move]:
        if self.phase(state) == "choose":
            return [Move.act("choose", d, k) for d, k in CHOICES]
        if self.is_won(state):
            return []
        moves = self._card_moves(state)
        if not moves and state.info.get("idle_swings", 0) < 2 and self._lower_rows_have_cards(state):
            moves.append(Move.act("swing", state.info.get("next_swing", "right")))
        return moves

    def apply(self, state: State, move: Move) -> None:
        if move.action == "choose":
            direction, interval = move.args[0], int(move.args[1])
            state.info.update({"phase": "play", "direction": direction, "interval": interval,
                               "next_swing": "right", "idle_swings": 0})
            return
        if move.action == "swing":
            self._swing(state, move.args[0] if move.args else state.info["next_swing"])
            state.info["next_swing"] = "left" if state.info["next_swing"] == "right" else "right"
            state.info["idle_swings"] = state.info.get("idle_swings", 0) + 1
            return
        src = state.pile(move.src)
        moving = src[-move.count:]
        del src[-move.count:]
        state.pile(move.dst).extend(moving)
        state.info["idle_swings"] = 0

    @staticmethod
    def _swing(state: State, direction: str) -> None:
        for name in ROWS[1:]:
            row = state.areas[name]
            full = [p for p in row if p]
            gaps = [[] for _ in range(WIDTH - len(full))]
            state.areas[name] = gaps + full if direction == "right" else full + gaps

    def is_won(self, state: State) -> bool:
        return all(len(state.pile(f)) == 13 for f in FOUNDATIONS)

    # ------------------------------------------------------------ why illegal
    def why_illegal(self, state: State, move: Move) -> str | None:
        phase = self.phase(state)
        if move.action == "choose":
            if phase != "choose":
                return (f"the building order was chosen already ({self.order_words(state)}) "
                        "and holds for the whole game")
            if len(move.args) != 2 or move.args[0] not in DIRECTIONS or not move.args[1].isdigit() \
                    or not 1 <= int(move.args[1]) <= 12:
                return "write the choice as a direction and an interval from 1 to 12, e.g. 'choose up 1' or 'choose down 2'"
            if move.args[1] != str(int(move.args[1])):
                return f"write the interval plainly, e.g. 'choose {move.args[0]} {int(move.args[1])}'"
            return None
        if phase == "choose":
            return ("first choose the order of building on the aces, after looking at the deal: "
                    "'choose up 1' (a straight upward sequence), 'choose down 2' (downward by twos), ...")
        if self.is_won(state):
            return "the game is won: every card is on the aces"
        if move.action == "swing":
            return self._why_not_swing(state, move)
        if move.action != "move":
            return f"Pendulum has no {move.action!r} action; its actions are 'choose ...' and 'swing ...'"
        return self._why_not_card_move(state, move)

    def _why_not_swing(self, state: State, move: Move) -> str | None:
        want = state.info.get("next_swing", "right")
        if len(move.args) > 1 or (move.args and move.args[0] not in ("right", "left")):
            return "write the swing as 'swing right' or 'swing left'"
        if move.args and move.args[0] != want:
            return f"the rows swing alternately, and this time they go to the {want}: 'swing {want}'"
        if not self._lower_rows_have_cards(state):
            return "only the top row is left: there is nothing to swing"
        moves = self._card_moves(state)
        if moves:
            return (f"the rows only swing when no card can be moved; {self.describe(state, moves[0])} "
                    f"({moves[0]}) is still possible")
        if state.info.get("idle_swings", 0) >= 2:
            return "the rows have swung both ways without freeing a card: the game is blocked"
        return None

    def _why_not_card_move(self, state: State, move: Move) -> str | None:
        names = self.layout(state.options).names
        for loc in (move.src, move.dst):
            if loc.area not in names:
                return f"there is no area {loc.area!r}"
            if loc.index >= len(state.areas[loc.area]):
                return f"there is no {_where(loc.area, loc.index)}"
        if move.src.area not in ROWS:
            return "cards built on the aces stay there"
        rows = self._rows(state)
        sr, sc = ROWS.index(move.src.area), move.src.index
        src = rows[sr][sc]
        here = _where(move.src.area, sc)
        if not src:
            return f"{here} is empty"
        low = self._lowest(rows)
        if low[sc] != sr:
            covered_by = _where(ROWS[low[sc]], sc)
            return f"the cards at {here} are not exposed: {covered_by} lies below them"
        step = self.step(state)
        top = src[-1].card
        if move.dst.area not in ROWS:      # to the aces
            if move.count != 1:
                return "cards go out on the aces one at a time"
            if top is None:
                return f"the card at {here} is not known"
            pile = state.pile(move.dst)
            there = _where(move.dst.area, move.dst.index)
            if len(pile) >= 13:
                return f"the {there} pile is complete"
            nxt = self._foundation_next(state, move.dst, step)
            if nxt is None:
                return f"the top card of the {there} pile is not known"
            if nxt.face != top.face:
                return (f"the {there} pile builds {self.order_words(state)} in {SUIT_SYMBOL[nxt.suit]} "
                        f"and shows the {pile[-1].card.pretty}: it takes the {nxt.pretty} next, not the {top.pretty}")
            return None
        n = len(src)
        if move.count != n:
            return (f"the packet at {here} ({n} card{'s' if n != 1 else ''}) moves whole: "
                    f"write {move.src}{'x' + str(n) if n != 1 else ''}>{move.dst}")
        base = src[0].card
        if base is None:
            return f"the card at the head of the packet at {here} is not known"
        dr, dc = ROWS.index(move.dst.area), move.dst.index
        there = _where(move.dst.area, dc)
        if (dr, dc) == (sr, sc):
            return f"the packet is already at {here}"
        dst = rows[dr][dc]
        crown = rank_add(1, -step)
        if not dst:
            if dr != 0:
                return "a gap in the lower rows is never filled: it closes up when the rows swing"
            if base.rank != crown:
                return (f"a gap in the top row takes only the crowning card, {_a(crown)} when building "
                        f"{self.order_words(state)}; the packet at {here} starts with the {base.pretty}")
            if sr == 0:
                return "moving a packet along the top row gains nothing; a top-row gap waits for a crowning card from below"
            return None
        onto = dst[-1].card
        vertical = dr == sr - 1 and dc == sc
        corner = dr == 0 and dc in CORNERS
        if not (vertical or corner or low[dc] == dr):
            return (f"{there} is covered by {_where(ROWS[low[dc]], dc)}: packing goes on an exposed card, "
                    "on a top-row corner card, or on the card just above the moving one")
        if onto is None:
            return f"the card at {there} is not known"
        if not self._fits_pack(state, base, onto, step):
            want = Card(rank_add(onto.rank, -step), onto.suit)
            suit = "" if state.options.get("packing", "suit") == "any" else " (in suit)"
            return (f"packing goes the reverse way of the aces: on the {onto.pretty} goes the "
                    f"{want.pretty if suit else _label(want.rank)}{suit}, not the {base.pretty}")
        return None

    # ---------------------------------------------------------------- photos
    def photo_info(self, seen: State) -> dict:
        """Play has begun if a packet or a foundation shows more than an ace. The building order
        is not on the table, but two things show it. Packets: each card lies one interval the
        reverse way on the one under it. The count: a foundation's top card says how many cards
        lie under it in each order, and the table holds only the pack. The order that fits most
        packed pairs read is taken, then the one whose count is nearest the pack's (never over
        it, if it can be helped), then the smaller interval."""
        info = dict(seen.info)
        if not self._begun(seen):
            return info
        on_rows = sum(len(p) for name in ROWS for p in seen.areas.get(name, []))
        tops = [p[-1].card for p in self._ace_piles(seen) if p and p[-1].card is not None]
        pack = len(self.deck())

        def judged(dk: tuple[str, int]) -> tuple[int, int, int]:
            order = building_order(*dk)
            cards = on_rows + sum(order.index(c.rank) + 1 for c in tops) + len(FOUNDATIONS) - len(tops)
            return self._packed_pairs(seen, step_of(*dk)), -max(0, cards - pack), -abs(cards - pack)
        direction, interval = max(PHOTO_ORDERS, key=judged)
        info.update({"phase": "play", "direction": direction, "interval": interval,
                     "next_swing": info.get("next_swing", "right"), "idle_swings": 0})
        return info

    def photo_objections(self, state: State) -> list[str]:
        problems = self.validate(state)
        info = state.info
        if (problems and self.misshapen(state) or info.get("phase") != "play" or info.get("direction") not in DIRECTIONS
                or type(info.get("interval")) is not int):
            return problems
        step = self.step(state)
        for name in ROWS:
            for i, pile in enumerate(state.areas[name]):
                known = [(j, s.card) for j, s in enumerate(pile) if s.card is not None]
                for (j, lower), (k, upper) in zip(known, known[1:]):
                    if k > j + 1 and not self._fits_pack(state, upper, lower, step * (k - j)):
                        problems.append(f"{name} {i + 1}: the {upper.pretty} cannot lie {count_word(k - j)} cards on from the "
                                        f"{lower.pretty} when packing the reverse of {self.order_words(state)}")
                        break
        return problems

    def photo_guesses(self, state: State) -> list[str]:
        if state.info.get("phase") != "play" or "direction" not in state.info:
            return []
        shown = "the packets and the foundations" if self._packed_pairs(state, self.step(state)) else "the foundations"
        return [f"the building order is not on the table: {self.order_words(state)} fits {shown} best; check it",
                f"nor is which way the rows close up next: to the {state.info.get('next_swing', 'right')} is assumed"]

    @staticmethod
    def _ace_piles(state: State) -> list[list]:
        return [state.areas[f.area][f.index] for f in FOUNDATIONS if f.index < len(state.areas.get(f.area, []))]

    def _begun(self, state: State) -> bool:
        return (any(len(p) > 1 for name in ROWS for p in state.areas.get(name, []))
                or any(len(p) > 1 or any(s.card is not None and s.card.rank != 1 for s in p)
                       for p in self._ace_piles(state)))

    def _packed_pairs(self, state: State, step: int) -> int:
        """How many cards read lie on the card under them as packing with ``step`` allows."""
        return sum(1 for name in ROWS for p in state.areas.get(name, []) for lower, upper in zip(p, p[1:])
                   if lower.card is not None and upper.card is not None
                   and self._fits_pack(state, upper.card, lower.card, step))

    # ---------------------------------------------------------------- words
    def order_words(self, state: State) -> str:
        info = state.info
        if "direction" not in info:
            return "not chosen yet"
        k = info["interval"]
        by = {1: "by ones", 2: "by twos", 3: "by threes", 4: "by fours", 5: "by fives", 6: "by sixes"}.get(k, f"by {k}s")
        return f"{info['direction']} {by}"

    def describe(self, state: State, move: Move) -> str:
        if move.action == "choose":
            d, k = move.args[0], int(move.args[1])
            order = " ".join(_label(r) for r in building_order(d, k))
            return f"build {d} by {k} on the aces: {order}; pack the reverse way"
        if move.action == "swing":
            return f"swing the pendulum: close up the broken rows towards the {move.args[0] if move.args else 'next side'}"
        if move.action != "move":
            return str(move)
        try:
            src = state.pile(move.src)
            moving = " ".join(s.card.pretty if s.card else "?" for s in src[-move.count:]) or "?"
            dst = state.pile(move.dst)
        except (KeyError, IndexError):
            return str(move)
        here, there = _where(move.src.area, move.src.index), _where(move.dst.area, move.dst.index)
        if move.dst.area not in ROWS:
            return f"{moving} from {here} out on the {there} pile"
        if not dst:
            return f"{moving} from {here} into the top-row gap at {there}"
        onto = dst[-1].card.pretty if dst[-1].card else "?"
        if move.dst.area == ROWS[ROWS.index(move.src.area) - 1] and move.dst.index == move.src.index:
            return f"{moving} from {here} up onto the {onto} just above it"
        return f"{moving} from {here} onto the {onto} at {there}"

    # -------------------------------------------------------------- validate
    def validate(self, state: State) -> list[str]:
        problems = super().validate(state)
        if problems and self.misshapen(state):
            return problems
        # (not through slots(): the reader validates thousands of candidate states a photo)
        if any(not s.face_up for piles in state.areas.values() for p in piles for s in p):
            problems.append("every card in Pendulum lies face up; a face-down card cannot be part of the game")
        info = state.info
        phase = info.get("phase", "choose")
        if phase not in ("choose", "play"):
            return problems + [f"info.phase must be 'choose' or 'play', not {phase!r}"]
        step = None
        if phase == "play":
            d, k = info.get("direction"), info.get("interval")
            if d not in DIRECTIONS or type(k) is not int or not 1 <= k <= 12:
                return problems + ["in play, info must give the chosen direction ('up' or 'down') and interval (1 to 12)"]
            if info.get("next_swing") not in ("right", "left"):
                problems.append("info.next_swing must be 'right' or 'left'")
            if info.get("idle_swings") not in (0, 1, 2):
                problems.append("info.idle_swings must be 0, 1 or 2")
            step = step_of(d, k)
        suits = []
        for f in FOUNDATIONS:
            pile = state.pile(f)
            where = _where(f.area, f.index)
            if not pile:
                problems.append(f"{where} is empty: the four aces start at the top")
                continue
            ace = pile[0].card
            if ace is not None and ace.rank != 1:
                problems.append(f"{where} starts with the {ace.pretty}; each pile on top starts with an ace")
                continue
            known = next((s.card for s in pile if s.card is not None), None)
            if known is not None:
                suits.append(known.suit)
            if phase == "choose" and len(pile) > 1:
                problems.append(f"{where} has cards on its ace before the building order was chosen")
                continue
            if len(pile) > 13:
                problems.append(f"{where} holds {len(pile)} cards; a suit has 13")
                continue
            if step is not None:
                order = interval_sequence(1, step)
                for j, slot in enumerate(pile):
                    c = slot.card
                    if c is not None and (c.rank != order[j] or c.suit != known.suit):
                        want = Card(order[j], known.suit)
                        problems.append(f"{where}: card {j + 1} is the {c.pretty} but building "
                                        f"{self.order_words(state)} it should be "
                                        f"{want.pretty}")
                        break
        for c, n in ((s, suits.count(s)) for s in set(suits)):
            if n > 1:
                problems.append(f"two piles of {SUIT_SYMBOL[c]} on the aces")
        for name in ROWS:
            for i, pile in enumerate(state.areas[name]):
                if phase == "choose" and len(pile) > 1:
                    problems.append(f"{name} {i + 1} holds {len(pile)} cards before the building order was chosen")
                    continue
                if step is None:
                    continue
                for lower, upper in zip(pile, pile[1:]):
                    if lower.card is not None and upper.card is not None and \
                            not self._fits_pack(state, upper.card, lower.card, step):
                        problems.append(f"{name} {i + 1}: the {upper.card.pretty} cannot lie on the "
                                        f"{lower.card.pretty} when packing the reverse of {self.order_words(state)}")
                        break
        return problems


GAME = Pendulum()


# ------------------------------------------------------------ choosing the order

def _play(state: State, bottom: set, packing: bool) -> tuple[int, list[str]]:
    """Simple play after a choice: out on the aces whenever possible, then (with ``packing``) packet
    moves, each of which empties a place; the rows swing when nothing else is done, until they have
    swung both ways in vain. Returns (cards put out, the lowest row's cards moved)."""
    g = GAME
    moved: set = set()
    start = sum(len(state.pile(f)) for f in FOUNDATIONS)
    for _ in range(500):
        moves = g._card_moves(state)
        m = next((m for m in moves if m.dst.area not in ROWS), None)
        if m is None and packing and moves:
            m = moves[0]
        if m is not None:
            moved.update(s.card for s in state.pile(m.src)[-m.count:] if s.card in bottom)
            g.apply(state, m)
            continue
        if state.info["idle_swings"] >= 2 or not g._lower_rows_have_cards(state):
            break
        g.apply(state, Move.act("swing", state.info["next_swing"]))
    out = sum(len(state.pile(f)) for f in FOUNDATIONS) - start
    return out, sorted(c.pretty for c in moved)


def rank_choices(state: State) -> list[dict[str, Any]]:
    """Every choice of building order with what it frees, best first.

    The source's advice: choose by the lower rows, above all the lowest, whose
    cards must be able to move; its example counts the cards each order
    releases on to the aces, one of them after the rows are closed up. So for
    each choice:

    * ``frees``: cards that go out on the aces by building alone, each
      uncovering the next, the rows swinging when building stops (no packing);
    * ``bottom``: how many of those were in the lowest row (``bottom_cards``);
    * ``at_once``: cards out before any swing;
    * ``played_out``: cards out (of 48) by simple play that also packs
      (aces first, then packets, swinging when blocked) -- 48 means that
      simple play wins.

    Sorted by frees, then bottom, then played_out, then at_once. ``up k`` and
    ``down 13-k`` are the same order; ``same_as`` names the twin. Empty once
    the order has been chosen.
    """
    if GAME.phase(state) != "choose":
        return []
    base = state.copy()
    rows = [base.areas[name] for name in ROWS]
    low_row = max((r for r in range(len(ROWS)) if any(rows[r])), default=0)
    bottom = {s.card for p in rows[low_row] for s in p if s.card is not None}
    results = []
    cache: dict[int, tuple] = {}
    for order, (d, k) in enumerate(CHOICES):
        step = step_of(d, k) % 13
        if step not in cache:
            s = base.copy()
            GAME.apply(s, Move.act("choose", d, k))
            at_once = 0
            probe = s.copy()
            while (m := next((m for m in GAME._card_moves(probe) if m.dst.area not in ROWS), None)):
                GAME.apply(probe, m)
                at_once += 1
            frees, cards = _play(s.copy(), bottom, packing=False)
            played_out, _ = _play(s, bottom, packing=True)
            cache[step] = (frees, len(cards), cards, at_once, played_out)
        frees, n_bottom, cards, at_once, played_out = cache[step]
        twin = ("down", 13 - k) if d == "up" else ("up", 13 - k)
        seq = building_order(d, k)
        results.append({"move": f"choose {d} {k}", "direction": d, "interval": k,
                        "same_as": f"choose {twin[0]} {twin[1]}",
                        "order": [_label(r) for r in seq], "crowning": _label(seq[-1]),
                        "frees": frees, "bottom": n_bottom, "bottom_cards": cards,
                        "at_once": at_once, "played_out": played_out, "_order": order})
    results.sort(key=lambda r: (-r["frees"], -r["bottom"], -r["played_out"], -r["at_once"], r["_order"]))
    for r in results:
        del r["_order"]
    return results
