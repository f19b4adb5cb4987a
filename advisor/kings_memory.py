"""What a Kings player with a perfect memory knows, for the tips (Keeling, section F, tips a-h).

Everything here uses only what the player has seen: the face-up cards of the
deal (every card in every pile was face up at some moment), the cards that
fell on their own number (and so where they lie in the face-down pile), and
the fans they put back. The cards put down unseen are never looked at: the
face-down pile is read for its length only.

``recall(state, history)`` fills covered pile cards that a photo cannot see
('?') from the latest earlier state that still knew them. ``Knowledge``
gathers the counts of tips a-c, the pile priorities they give, the next card
each king needs and how far away each card is from being wanted.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from .cards import SUIT_SYMBOL, SUITS, Card, CardError
from .engine import Move, Slot, State
from .games.kings import COPIES, DOWN, FAN, GAME, LEFT, PILE, PILES, RIGHT, _need

# Pile priorities (Keeling tips a-c and f) and their weights for ranking.
TOP, MIDDLING, FAIRLY_LOW, VERY_LOW = "top", "middling", "fairly-low", "very-low"
WEIGHT = {TOP: 3, MIDDLING: 2, FAIRLY_LOW: 1, VERY_LOW: 0}
NEVER = 99   # distance of a card no king can take (cannot happen in a true state)


def _card(text) -> Card | None:
    if not isinstance(text, str):
        return None
    try:
        return Card.parse(text)
    except CardError:
        return None


# ------------------------------------------------------------------ memory

def _fill(now: list[Slot], before: list[Slot]) -> list[Slot] | None:
    """``now`` with unknown cards taken from ``before`` when ``before`` can be the same pile (maybe taller), else None."""
    if len(before) < len(now):
        return None
    for a, b in zip(now, before):
        if a.card is not None and b.card is not None and a.card.face != b.card.face:
            return None
    return [b if a.card is None and b.card is not None else a for a, b in zip(now, before)]


def recall(state: State, history: Sequence[tuple[State, Move]] = ()) -> State:
    """The state as remembered: covered pile and fan cards known from earlier states are filled in.

    ``history`` holds (state, move) pairs, oldest first. For each pile with
    unknown cards, the latest earlier state whose pile can be the same one (as
    tall or taller, agreeing on every card both know) lends its cards; the
    state just after each recorded move counts too, so a fan put back in a new
    order is remembered in that order (it is later than the older one).
    """
    out = state.copy()
    earlier: list[State] = []
    gaps = any(x.card is None for area in (PILE, FAN) for p in out.areas.get(area, []) for x in p)
    for before, move in reversed(list(history) if gaps else []):
        if before.game != state.game:
            continue
        # What the player saw just after the move (e.g. the order a fan went back in), then just before it.
        try:
            if GAME.why_illegal(before, move) is None:
                after = before.copy()
                GAME.apply(after, move)
                earlier.append(after)
        except (KeyError, IndexError, AttributeError, TypeError, ValueError):
            pass
        earlier.append(before)
    # The fan only remembers states of the same fan: from the turn that laid it out until now.
    ff = out.info.get("fan_from")
    same_fan = []
    for s in earlier:
        if ff is None or s.info.get("fan_from") != ff or not s.areas.get(FAN):
            break
        same_fan.append(s)
    for area in (PILE, FAN):
        for i, pile in enumerate(out.areas.get(area, [])):
            if all(s.card is not None for s in pile):
                continue
            for s in (earlier if area == PILE else same_fan):
                piles = s.areas.get(area, [])
                if i < len(piles):
                    filled = _fill(pile, piles[i])
                    if filled is not None and filled != pile:
                        out.areas[area][i] = pile = filled
                        if all(x.card is not None for x in pile):
                            break
    # Deal-time knowledge that a photo lacks comes from the earliest state that has it.
    for key in ("counts", "own_number", "down_seen"):
        if out.info.get(key) is None:
            for s, _ in history:
                if s.info.get(key) is not None:
                    out.info[key] = s.info[key]
                    break
    # Never keep the identities of face-down cards: the advice may not peek at them.
    out.areas[DOWN] = [[Slot(None, False) for _ in p] for p in out.areas[DOWN]]
    return out


# --------------------------------------------------------------- knowledge

def needs(state: State) -> tuple[dict[str, int | None], dict[str, int | None]]:
    """The rank each left and each right king takes next, by suit (None once that king is complete)."""
    left = {s: _need(LEFT, len(state.areas[LEFT][k])) for k, s in enumerate(SUITS)}
    right = {s: _need(RIGHT, len(state.areas[RIGHT][k])) for k, s in enumerate(SUITS)}
    return left, right


def sides(card: Card, left: dict, right: dict) -> dict[str, int]:
    """For each side that can still take ``card``, how many cards of its suit must go there first."""
    out = {}
    lneed, rneed = left.get(card.suit), right.get(card.suit)
    if lneed is not None and card.rank <= lneed:
        out[LEFT] = lneed - card.rank
    if rneed is not None and card.rank >= rneed:
        out[RIGHT] = card.rank - rneed
    return out


def distance(card: Card, left: dict, right: dict) -> int:
    """How many cards of the suit must reach the kings before this card can go (0 = it fits now)."""
    d = sides(card, left, right)
    return min(d.values()) if d else NEVER


def is_dead(card: Card, left: dict, right: dict) -> bool:
    """Keeling's dead card (tip h): a queen whose twin is already on the left king, or an ace whose twin is
    already on the right king. It can only be the last card of the other column."""
    sd = sides(card, left, right)
    if card.rank == 12:
        return LEFT not in sd and RIGHT in sd
    if card.rank == 1:
        return RIGHT not in sd and LEFT in sd
    return False


@dataclass
class Knowledge:
    state: State                      # the remembered state (face-down identities blanked)
    left: dict[str, int | None]
    right: dict[str, int | None]
    counts: list[int] | None          # tip b: cards of rank n counted on other piles during the deal
    own: list[list[Card]] | None      # tip a: cards that fell on their own number, per position
    down_len: int
    down_known: dict[int, Card]       # index in the face-down pile (0 = bottom) -> card seen going there
    remaining: list[int | None]       # per position n: cards of rank n still face down (None: not sure)
    next_turn: list[int | None]       # per position n: turns until a remembered rank-n card comes up
    priority: list[str]
    hidden: list[list[bool]] = field(default_factory=list)   # covered at the table (not visible now)

    @property
    def fan_from(self) -> int | None:
        return self.state.info.get("fan_from")

    def pile(self, n: int) -> list[Slot]:
        return self.state.areas[PILE][n - 1]


def knowledge(state: State, history: Sequence[tuple[State, Move]] = ()) -> Knowledge:
    mem = recall(state, history)
    left, right = needs(mem)
    info = mem.info
    counts = info.get("counts")
    counts = counts if isinstance(counts, list) and len(counts) == PILES else None
    own_raw = info.get("own_number")
    own = ([[c for c in map(_card, x) if c is not None] for x in own_raw]
           if isinstance(own_raw, list) and len(own_raw) == PILES else None)
    down_len = len(state.areas[DOWN][0]) if state.areas[DOWN] else 0
    seen = info.get("down_seen")
    down_known: dict[int, Card] = {}
    if isinstance(seen, list) and len(seen) >= down_len:
        for i in range(down_len):
            c = _card(seen[i])
            if c is not None:
                down_known[i] = c
    # Cards of each rank known outside the face-down pile (the kings' piles by their length).
    outside = Counter()
    unknown_outside = 0
    for area in (PILE, FAN):
        for p in mem.areas[area]:
            for s in p:
                if s.card is None:
                    unknown_outside += 1
                else:
                    outside[s.card.rank] += 1
    for k in range(4):
        for r in range(1, 13):
            outside[r] += (len(mem.areas[LEFT][k]) >= 14 - r) + (len(mem.areas[RIGHT][k]) >= r + 1)
    remaining: list[int | None] = []
    untouched = isinstance(seen, list) and down_len == len(seen)
    for n in range(1, PILES + 1):
        if unknown_outside == 0:
            remaining.append(max(0, COPIES - outside[n]))
        elif counts is not None and untouched:
            remaining.append(COPIES - counts[n - 1])
        else:
            remaining.append(None)
    next_turn: list[int | None] = [None] * PILES
    for i in sorted(down_known, reverse=True):       # the top of the pile is turned first
        n = down_known[i].rank
        if next_turn[n - 1] is None:
            next_turn[n - 1] = down_len - i
    priority = []
    for n in range(1, PILES + 1):
        if next_turn[n - 1] is not None:
            priority.append(VERY_LOW)
        elif remaining[n - 1] == 0:
            priority.append(TOP)
        elif remaining[n - 1] is not None:
            priority.append(FAIRLY_LOW)
        else:
            priority.append(MIDDLING)
    fanned = set(state.info.get("returned") or ()) if state.options.get("fans_stay_open") else set()
    hidden = [[(j < len(p) - 1) and (n + 1 not in fanned) for j in range(len(p))]
              for n, p in enumerate(mem.areas[PILE])]
    return Knowledge(mem, left, right, counts, own, down_len, down_known, remaining, next_turn, priority, hidden)


def chain_after(state: State, move: Move) -> int:
    """How many more cards can go to the kings straight after ``move`` (no turning, first fit each time)."""
    s = state.copy()
    GAME.apply(s, move)
    n = 0
    while n < 96:
        nxt = next((m for m in GAME.legal_moves(s) if m.action == "move"), None)
        if nxt is None:
            break
        GAME.apply(s, nxt)
        n += 1
    return n


def king_name(area: str, suit: str) -> str:
    return f"the {'left' if area == LEFT else 'right'} K{SUIT_SYMBOL[suit]}"
