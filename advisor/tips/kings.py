"""Keeling's tips for Kings, each a named rule.

Source: George Keeling, "The five great games of patience" (2005), section F,
tips (a)-(h), in our own words in each rule's summary. The rules use only what
the player has seen (advisor.kings_memory): the deal was face up, so the
companion remembers every card of every pile, counts all twelve positions at
once (tips a-d) and knows where in the face-down pile each card that fell on
its own number lies. The unseen face-down cards are never looked at.

Pile priorities (tips a-c, f), drawn with Keeling's marks:
    turn-90        top priority: no card of that rank is left face down, the pile will never be picked up
    (no mark)      middling: not known
    tilt-left-45   fairly low: a card of that rank lies unseen in the face-down pile
    tilt-right-45  very low: a card that fell on its own number is still face down, access will come

Scores (only their order matters):
    100-140  a card to its king: 100 + 10 x the priority of the pile it leaves + the cards it frees at once
    60       put the fan back in the order of tip h
    50       turn the next face-down card
    20       the other direction for a card that fits both kings (tip g)
    10       a card held back by tip g (it fits, but frees nothing and could still serve the other side)
Following the top suggestion therefore plays every useful card, then puts the
fan back, then turns; it never goes round in circles (each move sends a card
home, puts a fan back or turns a card).
"""
from __future__ import annotations

from ..advice import TILT_LEFT, TILT_RIGHT, TURN_90, Context, Danger, Suggestion, TipBook
from ..cards import RANK_LABEL, SUIT_SYMBOL, SUITS, Card
from ..engine import Loc, Move
from ..games.kings import FAN, LEFT, PILE, PILES, RIGHT
from ..kings_memory import (FAIRLY_LOW, MIDDLING, TOP, VERY_LOW, WEIGHT, Knowledge, chain_after, distance,
                            is_dead, king_name, knowledge, sides)

BOOK = TipBook("kings")
SOURCE = "Keeling, Kings"
MARK = {TOP: TURN_90, FAIRLY_LOW: TILT_LEFT, VERY_LOW: TILT_RIGHT, MIDDLING: None}
NEAR = 2          # tip g: the two kings of a suit are "near" when this few ranks apart
RANK_PLURAL = {1: "aces", 11: "jacks", 12: "queens", **{r: f"{RANK_LABEL[r]}s" for r in range(2, 11)}}


# ---------------------------------------------------------------- analysis

class Plan:
    """The shared reading of the position: knowledge, and a verdict for every card that could go to a king."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.k: Knowledge = knowledge(ctx.state, ctx.history)
        self.legal = ctx.game.legal_moves(ctx.state)
        mem = self.k.state
        self.fan_out = bool(ctx.state.areas[FAN])
        self.can_wait = self.fan_out or self.k.down_len > 0
        # verdicts: move -> (kind, score, reason, rule) with kind in play / hold / alt
        self.verdicts: dict[Move, tuple[str, float, str, str]] = {}
        king_moves = [m for m in self.legal if m.action == "move"]
        by_face: dict[tuple[int, str], list[Move]] = {}
        for m in king_moves:
            c = mem.top(m.src).card
            by_face.setdefault(c.face, []).append(m)
        for face, ms in by_face.items():
            self._judge(Card(*face), ms)

    # -- helpers
    def weight(self, loc: Loc) -> float:
        if loc.area == PILE:
            return WEIGHT[self.k.priority[loc.index]]
        ff = self.k.fan_from
        return (WEIGHT[self.k.priority[ff - 1]] if ff else WEIGHT[MIDDLING]) - 0.5

    def where(self, loc: Loc) -> str:
        if loc.area == FAN:
            return f"the fan (place {loc.index + 1})"
        return f"pile {loc.index + 1}"

    def priority_words(self, loc: Loc) -> str:
        if loc.area != PILE:
            return ""
        n = loc.index + 1
        p = self.k.priority[n - 1]
        if p == TOP:
            return f"; pile {n} has top priority: no {RANK_LABEL[n]} is left face down, so it will never be picked up"
        if p == FAIRLY_LOW:
            return f"; pile {n} is a fairly low priority (a {RANK_LABEL[n]} still lies face down, so you will get the pile)"
        if p == VERY_LOW:
            return (f"; pile {n} is a very low priority (a {RANK_LABEL[n]} that fell on its own number comes up in "
                    f"{_turns(self.k.next_turn[n - 1])}), but the move costs nothing")
        return ""

    def follow_up(self, m: Move) -> int:
        return chain_after(self.k.state, m)

    def depth_of_next(self, card: Card, side: str) -> int:
        """How deep the nearest copy of the card this side would want after ``card`` lies (0 = free now)."""
        nxt = card.rank - 1 if side == LEFT else card.rank + 1
        if not 1 <= nxt <= 12:
            return 0
        best = 99
        mem = self.k.state
        for area in (FAN, PILE):
            for p in mem.areas[area]:
                for j, s in enumerate(p):
                    if s.card is not None and s.card.face == (nxt, card.suit):
                        best = min(best, 0 if area == FAN else len(p) - 1 - j)
        return best

    def _set(self, m: Move, kind: str, score: float, reason: str, rule: str) -> None:
        self.verdicts[m] = (kind, score, reason, rule)

    def _judge(self, card: Card, ms: list[Move]) -> None:
        k = self.k
        dsts = sorted({m.dst for m in ms})
        srcs = sorted({m.src for m in ms})
        lneed, rneed = k.left.get(card.suit), k.right.get(card.suit)
        if len(dsts) == 2 and len(srcs) == 1 and self.can_wait:
            # Tip g: one card that both kings of its suit want now.
            chains = {m: self.follow_up(m) for m in ms}
            best = max(ms, key=lambda m: (chains[m], -self.depth_of_next(card, m.dst.area), m.dst.area == LEFT))
            other = next(m for m in ms if m != best)
            if chains[best] == 0:
                for m in ms:
                    self._set(m, "hold", 10 - (m != best) * 0.5,
                              f"the {card.pretty} fits both {king_name(LEFT, card.suit)} and {king_name(RIGHT, card.suit)}, "
                              f"and neither way frees another card now: hold it back until it is clear which side needs it "
                              f"(tip g)" + (" and keep it on top when the fan goes back" if m.src.area == FAN else ""),
                              "left-or-right")
                return
            self._set(best, "play", 100 + 10 * self.weight(best.src) + min(chains[best], 5),
                      f"the {card.pretty} fits both kings of its suit; sending it to {king_name(best.dst.area, card.suit)} "
                      f"lets {chains[best]} more card{'s' if chains[best] != 1 else ''} follow at once, against "
                      f"{chains[other]} the other way (tip g)", "left-or-right")
            self._set(other, "alt", 20,
                      f"the other way for the {card.pretty}: it frees {chains[other]} card{'s' if chains[other] != 1 else ''} "
                      f"at once, against {chains[best]} via {king_name(best.dst.area, card.suit)} (tip g)", "left-or-right")
            return
        near = lneed is not None and rneed is not None and 0 < lneed - rneed <= NEAR
        for m in ms:
            chain = self.follow_up(m)
            king = king_name(m.dst.area, card.suit)
            if near and m.src.area == PILE and chain == 0 and self.can_wait:
                self._set(m, "hold", 10,
                          f"{king_name(LEFT, card.suit)} wants the {Card(lneed, card.suit).pretty} and "
                          f"{king_name(RIGHT, card.suit)} the {Card(rneed, card.suit).pretty}: they are close, so the "
                          f"{card.pretty} could yet be better used on the other side; it frees nothing now and stays on top of "
                          f"pile {m.src.index + 1}, so hold it back for the moment (tip g)", "left-or-right")
                continue
            reason = f"the {card.pretty} is the next card {king} needs, from {self.where(m.src)}"
            if chain:
                reason += f"; {chain} more card{'s' if chain != 1 else ''} can follow at once"
            reason += self.priority_words(m.src)
            if len(srcs) > 1:
                reason += (f"; another {card.pretty} is also free: take this one first since its place is "
                           f"{'harder' if self.weight(m.src) >= max(self.weight(s) for s in srcs) else 'no harder'} to reach later (tip f)")
            rule = "left-or-right" if len(dsts) == 2 else "removal-order"
            self._set(m, "play", 100 + 10 * self.weight(m.src) + min(chain, 5), reason, rule)


def _turns(n: int | None) -> str:
    if n is None:
        return "some turns"
    return "the next turn" if n == 1 else f"{n} turns"


def plan(ctx: Context) -> Plan:
    cached = ctx.__dict__.get("_kings_plan")
    if cached is None:
        cached = ctx.__dict__["_kings_plan"] = Plan(ctx)
    return cached


def _pile_danger(k: Knowledge, n: int, kind: str, reason: str, rule: str) -> Danger:
    return Danger(f"pile{n}", None, None, kind, reason, MARK[k.priority[n - 1]], rule)


# --------------------------------------------------------------- tips a-c

@BOOK.rule("fell-on-own-number", f"{SOURCE}, tip (a)",
           "A card that fell on its own number went face down, so that pile will be picked up later: tilt it "
           "45 degrees to the right; taking cards off it is a very low priority.")
def fell_on_own_number(ctx: Context):
    k = plan(ctx).k
    for n in range(1, PILES + 1):
        if k.priority[n - 1] == VERY_LOW:
            c = next(c for i, c in sorted(k.down_known.items(), reverse=True) if c.rank == n)
            yield _pile_danger(k, n, "own-number",
                               f"the {c.pretty} fell on its own number during the deal and is still face down "
                               f"(it comes up in {_turns(k.next_turn[n - 1])}): pile {n} will be picked up then, "
                               f"so moving cards off it is a very low priority", "fell-on-own-number")


@BOOK.rule("count-under-eight", f"{SOURCE}, tip (b)",
           "Count the cards of each position's number that fall on other piles; under eight means one lies in the "
           "face-down pile, so access to that pile will come: tilt it 45 degrees to the left, a fairly low priority.")
def count_under_eight(ctx: Context):
    k = plan(ctx).k
    for n in range(1, PILES + 1):
        if k.priority[n - 1] == FAIRLY_LOW:
            rem = k.remaining[n - 1]
            yield _pile_danger(k, n, "count-under-eight",
                               f"only {8 - rem} of the eight {RANK_PLURAL[n]} are accounted for outside the face-down pile"
                               + (f" ({k.counts[n - 1]} counted on other piles during the deal)" if k.counts else "")
                               + f": {rem} still lie{'s' if rem == 1 else ''} face down, so pile {n} will be picked up "
                                 f"again; a fairly low priority", "count-under-eight")


@BOOK.rule("count-of-eight", f"{SOURCE}, tip (c)",
           "When all eight cards of a position's number are counted elsewhere, no face-down card will ever give that "
           "pile: turn it through 90 degrees; clearing it is the top priority.")
def count_of_eight(ctx: Context):
    k = plan(ctx).k
    for n in range(1, PILES + 1):
        if k.priority[n - 1] == TOP and k.pile(n):
            yield _pile_danger(k, n, "count-of-eight",
                               f"all eight {RANK_PLURAL[n]} are accounted for outside the face-down pile, so pile {n} "
                               f"will never be picked up: its cards can only leave from the top, one by one; clearing it "
                               f"has top priority", "count-of-eight")


@BOOK.rule("count-board", f"{SOURCE}, tips (b)-(d)",
           "Keep the counts for every position at once (Keeling keeps six, reciting them after every twelve cards); "
           "the board shows what each count means for its pile.")
def count_board(ctx: Context):
    k = plan(ctx).k
    rows = []
    for n in range(1, PILES + 1):
        own = k.own[n - 1] if k.own else None
        counted = k.counts[n - 1] if k.counts else None
        rows.append({
            "pile": n,
            "rank": RANK_LABEL[n],
            "counted_on_other_piles": counted,
            "fell_on_own_number": [c.pretty for c in own] if own is not None else None,
            "unseen_at_deal": (8 - counted - len(own)) if counted is not None and own is not None else None,
            "still_face_down": k.remaining[n - 1],
            "known_turns_away": k.next_turn[n - 1],
            "priority": k.priority[n - 1],
            "mark": MARK[k.priority[n - 1]],
            "cards_in_pile": len(k.pile(n)),
        })
    known = [{"turns_away": k.down_len - i, "card": c.pretty} for i, c in sorted(k.down_known.items(), reverse=True)]
    yield ("count-board", {"positions": rows, "face_down": k.down_len, "face_down_known": known,
                           "unseen_face_down": k.down_len - len(known)})


# ------------------------------------------------------------------ tip e

@BOOK.rule("perfect-memory", f"{SOURCE}, tip (e)",
           "Remember the key cards on the piles (Keeling: aces and queens after the last but one round; a genius "
           "remembers every card). The companion remembers every card of every pile, and where each card the kings "
           "need next lies.")
def perfect_memory(ctx: Context):
    p = plan(ctx)
    k = p.k
    mem = k.state
    piles = []
    for n in range(1, PILES + 1):
        pile = k.pile(n)
        piles.append({"pile": n, "cards": [s.card.pretty if s.card else "?" for s in pile],
                      "covered": k.hidden[n - 1], "returned": n in (mem.info.get("returned") or [])})
    yield ("memory", {"piles": piles, "fan": [q[0].card.pretty if q and q[0].card else "?" for q in mem.areas[FAN]],
                      "fan_from": k.fan_from})
    keys = []
    for area, needs in ((LEFT, k.left), (RIGHT, k.right)):
        for suit in SUITS:
            r = needs[suit]
            if r is None:
                continue
            card = Card(r, suit)
            places = []
            for q, f in enumerate(mem.areas[FAN]):
                if f and f[0].card is not None and f[0].card.face == card.face:
                    places.append({"where": f"fan{q + 1}", "under": 0})
            for n in range(1, PILES + 1):
                pile = k.pile(n)
                for j, s in enumerate(pile):
                    if s.card is not None and s.card.face == card.face:
                        places.append({"where": f"pile{n}", "under": len(pile) - 1 - j})
            for i, c in k.down_known.items():
                if c.face == card.face:
                    places.append({"where": "face-down", "turns_away": k.down_len - i})
            keys.append({"king": king_name(area, suit)[4:], "needs": card.pretty, "places": places})
            for pl in places:
                if pl["where"].startswith("pile") and pl["under"] > 0:
                    n = int(pl["where"][4:])
                    yield (f"remember: the {card.pretty} that {king_name(area, suit)} needs next lies in pile {n} "
                           f"under {pl['under']} card{'s' if pl['under'] != 1 else ''} (tip e)")
    yield ("key-cards", keys)


# ------------------------------------------------------------- tips f and g

@BOOK.rule("removal-order", f"{SOURCE}, tip (f)",
           "Take cards off the playing area in the right order: first from the piles that will never be picked up "
           "(tip c), last from those that will (tips a, b); then turn the next face-down card.")
def removal_order(ctx: Context):
    p = plan(ctx)
    for m, (kind, score, reason, rule) in p.verdicts.items():
        if rule == "removal-order":
            yield Suggestion(str(m), ctx.game.describe(ctx.state, m), reason, score)
    if Move.act("turn") in p.legal:
        fd = p.k.down_len
        known = p.k.down_known.get(fd - 1)
        playing = any(v[0] == "play" for v in p.verdicts.values())
        yield Suggestion("turn", "turn the top face-down card",
                         ("once the cards worth moving have gone to the kings, " if playing else
                          "no card worth moving is left to go to the kings: ")
                         + "turn the next face-down card"
                         + (f" (it is the {known.pretty} that fell on its own number, so pile {known.rank} comes up)"
                            if known else ""), 50)


@BOOK.rule("left-or-right", f"{SOURCE}, tip (g)",
           "When a suit's downward and upward kings come close, hold back a card that could go to either until it is "
           "clear which side it should serve.")
def left_or_right(ctx: Context):
    p = plan(ctx)
    k = p.k
    for m, (kind, score, reason, rule) in p.verdicts.items():
        if rule == "left-or-right":
            yield Suggestion(str(m), ctx.game.describe(ctx.state, m), reason, score)
    for suit in SUITS:
        lneed, rneed = k.left[suit], k.right[suit]
        if lneed is not None and rneed is not None and 0 <= lneed - rneed <= NEAR:
            span = (f"either {Card(lneed, suit).pretty} can go to either king" if lneed == rneed else
                    f"the {SUIT_SYMBOL[suit]} cards from {RANK_LABEL[rneed]} to {RANK_LABEL[lneed]} can still go either way")
            yield (f"{SUIT_SYMBOL[suit]}: the left king wants the {Card(lneed, suit).pretty} and the right one the "
                   f"{Card(rneed, suit).pretty}; {span} (tip g)")


# ------------------------------------------------------------------ tip h

def fan_order(p: Plan) -> tuple[list[int], dict[int, str]]:
    """Fan places (0-based) from the bottom of the returned pile to its top, and why each card lies where it does."""
    k = p.k
    fan = [f[0].card for f in k.state.areas[FAN]]
    tops = {}
    for n in range(1, PILES + 1):
        pile = k.pile(n)
        if pile and pile[-1].card is not None:
            tops.setdefault(pile[-1].card.face, []).append(n)
    why: dict[int, str] = {}
    keys = {}
    for i, c in enumerate(fan):
        if c is None:
            keys[i] = (1, 50.0)
            why[i] = "not known"
            continue
        if is_dead(c, k.left, k.right):
            keys[i] = (2, float(distance(c, k.left, k.right)))
            twin_side = "left" if c.rank == 12 else "right"
            why[i] = f"dead: the other {c.pretty} is already on the {twin_side}, so this one can only be the last card of the other column"
            continue
        sd = sides(c, k.left, k.right)
        d = min(sd.values()) if sd else 99
        bonus, freed = 0, None
        for side, dist in sd.items():
            nxt = c.rank - 1 if side == LEFT else c.rank + 1
            for n in tops.get((nxt, c.suit), []):
                if WEIGHT[k.priority[n - 1]] > bonus:
                    bonus, freed = WEIGHT[k.priority[n - 1]], n
        keys[i] = (1, d - 0.3 * bonus)
        why[i] = ("fits a king now" if d == 0 else f"wanted after {d} more {SUIT_SYMBOL[c.suit]} card{'s' if d != 1 else ''}")
        if freed:
            why[i] += f", then frees the top card of pile {freed} ({k.priority[freed - 1]} priority)"
    order = sorted(range(len(fan)), key=lambda i: (-keys[i][0], -keys[i][1], i))
    return order, why


@BOOK.rule("fan-order", f"{SOURCE}, tip (h)",
           "Before the fan goes back, order it: dead cards (a queen or ace whose twin is already played) at the "
           "bottom, the cards needed soonest, or that would free the top of a higher-priority pile, on top.")
def fan_order_rule(ctx: Context):
    p = plan(ctx)
    if not p.fan_out:
        return
    k = p.k
    fan_slots = ctx.state.areas[FAN]
    mem_fan = [f[0].card for f in k.state.areas[FAN]]
    order, why = fan_order(p)
    for i in order:
        c = mem_fan[i]
        if c is not None and why[i].startswith("dead"):
            yield Danger(f"fan{i + 1}", 0, c.label, "dead", f"the {c.pretty} is {why[i]}; it goes to the bottom of the pile",
                         None, "fan-order")
    if any(mem_fan[i] is None for i in order):
        args = [str(i + 1) for i in order]
    else:
        args = [mem_fan[i].label for i in order]
    move = Move.act("return", *args)
    if ctx.game.why_illegal(ctx.state, move) is not None:
        return
    top = mem_fan[order[-1]] if order else None
    pieces = [f"{mem_fan[i].pretty if mem_fan[i] else '?'} ({why[i]})" for i in reversed(order)]
    n = k.fan_from
    after = (f"pile {n} will be picked up again when the next {RANK_LABEL[n]} is turned" if n and k.remaining[n - 1]
             else f"pile {n} will not be picked up again, so this order is final" if n else "")
    reason = ("from the top down: " + "; ".join(pieces)
              + (f". {after[0].upper()}{after[1:]}" if after else "")
              + (f". Any card that could still go to a king would be buried: play those first" if any(
                  v[0] == "play" for v in p.verdicts.values()) else ""))
    yield Suggestion(str(move), ctx.game.describe(ctx.state, move), reason, 60)
    if top is not None and len(fan_slots) > 1:
        yield f"put the {top.pretty} on top when the fan goes back (tip h)"
