"""Kings, after George Keeling, "The five great games of patience" (2005), section F.

Two packs. The eight kings are taken out first and stand in two columns of
four (spades, hearts, diamonds, clubs from the far end). The left column is
built downwards from the queen to the ace in suit, the right column upwards
from the ace to the queen. The other 96 cards are dealt by counting into
twelve squared piles in four rows of three; a card whose rank matches the
number counted goes face down on the face-down pile instead, and after each
twelve face-up cards one more card goes there unseen.

Play: ``turn`` turns the top face-down card; its rank names the pile that is
picked up and fanned, with the turned card, at the near edge (area ``fan``,
one card per place). Any fan card and the top card of any pile may go onto
its king. ``return`` puts the fan back on its position: bare ``return`` keeps
the fan's order (``fan1`` at the bottom, the last fan card on top), or the
player names every fan card once, bottom first, by card (``return 3s Qh 7d``)
or by fan place (``return 3 1 2``).

Areas: ``left-kings`` and ``right-kings`` (4 foundations each, the king at
the bottom), ``pile`` (12 positions, position n is numbered n), ``fan`` (one
card per place while a pile is picked up) and ``face-down``.

State.info:
    ``fan_from``   the position the fan was picked up from, or null;
    ``own_number`` for each position, the cards that fell on their own number
                   during the deal (they went face down; the player saw them);
    ``counts``     for each position n, how many cards of rank n fell on other
                   piles during the deal (the count of Keeling's tip b);
    ``down_seen``  the face-down pile as the player saw it built, bottom first:
                   the card for each one that fell on its own number, null for
                   each one put down unseen (the pile is turned from the top, so
                   entry i is still face down while the pile has more than i cards);
    ``returned``   positions whose fan has been put back at least once (with
                   the ``fans_stay_open`` option their cards stay visible).
"""
from __future__ import annotations

import random

from ..cards import RANK_NAME, SUIT_NAME, SUIT_SYMBOL, SUITS, Card, CardError
from ..engine import Area, Game, Layout, Loc, Move, Option, Slot, State

PILES = 12
LEFT, RIGHT, PILE, FAN, DOWN = "left-kings", "right-kings", "pile", "fan", "face-down"
KING_AREAS = (LEFT, RIGHT)
COPIES = 8          # cards of each rank in two packs
TOTAL = 104
TURN = Move.act("turn")
RETURN = Move.act("return")


# ------------------------------------------------------------------ geometry

ROW_GAP = 1.6      # kings and pile rows share this spacing, so each row of piles is level with a pair of kings
PILE_X0 = 2.0
PILE_DX = 2.6      # wide gaps: a pile may be fanned to the right
RIGHT_X = PILE_X0 + 2 * PILE_DX + 3.0
NEAR_Y = 3 * ROW_GAP + 1.4 + 1.2


def _make_layout(fans_open: bool) -> Layout:
    return Layout((
        Area(LEFT, "foundation", 4, origin=(0.0, 0.0), step=(0.0, ROW_GAP),
             note="kings of spades, hearts, diamonds, clubs from the far end; built down from the queen to the ace in suit; squared"),
        Area(PILE, "pile", PILES, origin=(PILE_X0, 0.0), step=(PILE_DX, 0.0), wrap=3, wrap_step=(0.0, ROW_GAP),
             fan=(0.2, 0.0) if fans_open else (0.0, 0.0),
             note="positions 1-12 in four rows of three, numbered left to right from the far row; squared piles"
                  + ("; a pile that has been fanned and put back stays fanned to the right" if fans_open else "")),
        Area(RIGHT, "foundation", 4, origin=(RIGHT_X, 0.0), step=(0.0, ROW_GAP),
             note="kings of spades, hearts, diamonds, clubs from the far end; built up from the ace to the queen in suit; squared"),
        Area(FAN, "fan", 0, origin=(PILE_X0, NEAR_Y), step=(0.35, 0.0),
             note="the picked-up pile and the card turned for it, fanned left to right at the near edge; one card per place"),
        Area(DOWN, "facedown", 1, origin=(RIGHT_X, NEAR_Y), face="down",
             note="the face-down pile in the near right-hand corner; its top card is turned next"),
    ))


_LAYOUTS = {False: _make_layout(False), True: _make_layout(True)}


# --------------------------------------------------------------------- words

def _rank_words(rank: int) -> str:
    return RANK_NAME[rank]


def _king_words(area: str, index: int) -> str:
    side = "left" if area == LEFT else "right"
    return f"the K{SUIT_SYMBOL[SUITS[index]]} on the {side}"


def _need(area: str, length: int) -> int | None:
    """The rank a king pile of ``length`` cards takes next (None when complete or kingless)."""
    if not 1 <= length < 13:
        return None
    return 13 - length if area == LEFT else length


def _cards_words(cards: list[Card | None]) -> str:
    return " ".join(c.pretty if c is not None else "?" for c in cards)


class Kings(Game):
    id = "kings"
    name = "Kings"
    source = 'George Keeling, "The five great games of patience" (2005), section F: Kings'
    packs = 2
    hidden_information = True
    option_list = (
        Option("fans_stay_open", False,
               "Keeling's family rule: a fan put back stays fanned, so every card of the pile can be seen "
               "(only its top card may still be moved). Off by default: the pile is squared again."),
    )

    # ------------------------------------------------------------ layout
    def layout(self, options: dict) -> Layout:
        return _LAYOUTS[bool((options or {}).get("fans_stay_open", False))]

    # -------------------------------------------------------------- deal
    def deal(self, rng: random.Random, options: dict) -> State:
        deck = self.deck()
        rng.shuffle(deck)
        # The kings come out first: the first one of each suit found goes to the left column.
        left: dict[str, Card] = {}
        right: dict[str, Card] = {}
        rest: list[Card] = []
        for c in deck:
            if c.rank == 13:
                (right if c.suit in left else left)[c.suit] = c
            else:
                rest.append(c)
        piles: list[list[Slot]] = [[] for _ in range(PILES)]
        facedown: list[Slot] = []
        own: list[list[str]] = [[] for _ in range(PILES)]
        seen: list[str | None] = []
        counts = [0] * PILES
        pos = 0
        i = 0
        n = len(rest)
        while i < n:
            c = rest[i]
            i += 1
            if c.rank == pos + 1:
                # It fell on its own number: face down on the face-down pile, and the
                # next card goes into the same position (the count resumes there).
                facedown.append(Slot(c, False))
                own[pos].append(str(c))
                seen.append(str(c))
                continue
            piles[pos].append(Slot(c, True))
            counts[c.rank - 1] += 1
            pos += 1
            if pos == PILES:
                pos = 0
                if i < n:   # one card face down, unseen, after every twelve face-up cards
                    facedown.append(Slot(rest[i], False))
                    seen.append(None)
                    i += 1
        areas = {
            LEFT: [[Slot(left[s], True)] for s in SUITS],
            PILE: piles,
            RIGHT: [[Slot(right[s], True)] for s in SUITS],
            FAN: [],
            DOWN: [facedown],
        }
        info = {"fan_from": None, "own_number": own, "counts": counts, "down_seen": seen, "returned": []}
        return State(self.id, areas, info, dict(options))

    # ------------------------------------------------------------- moves
    def _needs(self, state: State) -> dict[tuple[int, str], list[Loc]]:
        needs: dict[tuple[int, str], list[Loc]] = {}
        for area in KING_AREAS:
            for k, p in enumerate(state.areas[area]):
                r = _need(area, len(p))
                if r is not None:
                    needs.setdefault((r, SUITS[k]), []).append(Loc(area, k))
        return needs

    def legal_moves(self, state: State) -> list[Move]:
        areas = state.areas
        fan = areas[FAN]
        fd = areas[DOWN][0]
        moves: list[Move] = []
        if not fan and fd and fd[-1].card is not None:
            moves.append(TURN)
        needs = self._needs(state)
        for area in (FAN, PILE):
            for i, p in enumerate(areas[area]):
                if p:
                    c = p[-1].card
                    if c is not None:
                        for dst in needs.get((c.rank, c.suit), ()):
                            moves.append(Move("move", Loc(area, i), dst, 1, ()))
        if fan:
            moves.append(RETURN)
        return moves

    def why_illegal(self, state: State, move: Move) -> str | None:
        fan = state.areas[FAN]
        if move.action == "turn":
            if move.args:
                return "'turn' takes nothing after it: it turns the top face-down card"
            if fan:
                return (f"the fan from pile {state.info.get('fan_from')} must be put back (with 'return') "
                        "before the next face-down card is turned")
            fd = state.areas[DOWN][0]
            if not fd:
                return "no face-down cards are left to turn"
            if fd[-1].card is None:
                return ("the top face-down card is not known here, so the pile it names cannot be picked up; "
                        "turn it over at the table and show it")
            return None
        if move.action == "return":
            if not fan:
                return "there is no fan to put back: turn the next face-down card first"
            _, reason = self._fan_order(fan, move.args)
            return reason
        if move.action != "move":
            return (f"Kings has no action {move.action!r}: the actions are 'turn' and 'return', "
                    "and cards move onto the kings like pile3>right-kings2")
        return self._why_move_illegal(state, move)

    def _why_move_illegal(self, state: State, move: Move) -> str | None:
        src, dst = move.src, move.dst
        if src is None or dst is None:
            return "a card move needs a place to take the card from and a king to put it on"
        if src.area in KING_AREAS:
            return "cards on the kings stay there"
        if src.area == DOWN:
            return "face-down cards never go straight to the kings: turn the top one with 'turn'"
        if dst.area not in KING_AREAS:
            if dst.area == PILE:
                return "cards are never put on the piles; only a fan goes back on its position, with 'return'"
            return f"cards only go onto the kings (left-kings1-4 or right-kings1-4), not onto the {dst.area}"
        if move.count != 1:
            return "cards go onto the kings one at a time"
        if not 0 <= dst.index < 4:
            return f"there are four kings in each column, numbered 1 to 4 from the far end; {dst.human()} does not exist"
        piles = state.areas[src.area]
        if not 0 <= src.index < len(piles):
            if src.area == FAN:
                return (f"the fan holds {len(piles)} card{'s' if len(piles) != 1 else ''}; there is no fan place {src.index + 1}"
                        if piles else "there is no fan out: turn the next face-down card first")
            return f"there are {PILES} piles, numbered 1 to {PILES}; {src.human()} does not exist"
        p = piles[src.index]
        if not p:
            if src.area == PILE and state.info.get("fan_from") == src.index + 1:
                return f"pile {src.index + 1} is empty: its cards are in the fan"
            return f"{src.human()} is empty"
        card = p[-1].card
        if card is None:
            return f"the top card of {src.human()} is not known"
        suit = SUITS[dst.index]
        king = _king_words(dst.area, dst.index)
        if card.suit != suit:
            return (f"the {card.pretty} can only go on a king of {SUIT_NAME[card.suit]}; "
                    f"{dst.human()} is the K{SUIT_SYMBOL[suit]}")
        length = len(state.pile(dst))
        need = _need(dst.area, length)
        if need is None:
            return f"{king} is complete" if length >= 13 else f"{king} is missing"
        if card.rank != need:
            way = "down from the queen" if dst.area == LEFT else "up from the ace"
            return (f"{king} builds {way}: it takes the {Card(need, suit).pretty} next, not the {card.pretty}")
        return None

    def _fan_order(self, fan: list[list[Slot]], args: tuple[str, ...]) -> tuple[list[int] | None, str | None]:
        """The fan places (0-based), bottom of the returned pile first, or the reason the order is wrong."""
        n = len(fan)
        if not args:
            return list(range(n)), None
        slots = [p[0] if p else None for p in fan]
        listing = _cards_words([s.card if s else None for s in slots])
        if len(args) != n:
            return None, (f"the fan holds {n} card{'s' if n != 1 else ''} ({listing}): name each once, from the bottom "
                          f"of the pile to its top, or write just 'return' to keep the fan's order")
        used = [False] * n
        order: list[int] = []
        for a in args:
            if a.isdigit():
                i = int(a) - 1
                if not 0 <= i < n:
                    return None, f"fan place {a} does not exist: the fan has places 1 to {n}"
                if used[i]:
                    return None, f"fan place {a} is named twice"
            else:
                try:
                    c = Card.parse(a)
                except CardError as e:
                    return None, f"{a!r} is neither a fan place (1 to {n}) nor a card: {e}"
                hits = [j for j, s in enumerate(slots) if s is not None and s.card is not None
                        and s.card.face == c.face and (c.copy == 0 or s.card.copy == c.copy)]
                if not hits:
                    return None, f"the {c.pretty} is not in the fan ({listing})"
                free = [j for j in hits if not used[j]]
                if not free:
                    return None, f"the {c.pretty} is named more often than it lies in the fan ({listing})"
                i = free[0]
            used[i] = True
            order.append(i)
        return order, None

    def could_hold(self, area: str, pile: int, depth: int, card: Card) -> bool:
        # A king's column is built in one order from the king, so its every place names one card;
        # and the kings all leave the pack before the count starts, so none is ever dealt or turned.
        if area in KING_AREAS:
            rank = 13 if depth == 0 else (13 - depth if area == LEFT else depth)
            return card.suit == SUITS[pile] and card.rank == rank
        return card.rank != 13

    def apply(self, state: State, move: Move) -> None:
        areas = state.areas
        info = state.info
        if move.action == "turn":
            fd = areas[DOWN][0]
            card = fd.pop().card
            n = card.rank
            pile = areas[PILE][n - 1]
            areas[FAN] = [[s] for s in pile] + [[Slot(card, True)]]
            areas[PILE][n - 1] = []
            info["fan_from"] = n
        elif move.action == "return":
            fan = areas[FAN]
            order, reason = self._fan_order(fan, move.args)
            if order is None:
                raise ValueError(reason)
            n = info["fan_from"]
            areas[PILE][n - 1] = [fan[i][0] for i in order]
            areas[FAN] = []
            info["fan_from"] = None
            returned = info.setdefault("returned", [])
            if n not in returned:
                returned.append(n)
                returned.sort()
        else:
            slot = state.pile(move.src).pop()
            state.pile(move.dst).append(slot)
            if move.src.area == FAN:
                del areas[FAN][move.src.index]
                if not areas[FAN]:
                    # Every card of the fan went to the kings: nothing is left to put back.
                    info["fan_from"] = None

    def is_won(self, state: State) -> bool:
        return all(len(p) == 13 for a in KING_AREAS for p in state.areas[a])

    def completion(self, state: State) -> float:
        """The share of the 96 dealt cards that are on the kings (the kings themselves do not count)."""
        home = sum(max(0, len(p) - 1) for a in KING_AREAS for p in state.areas[a])
        return home / 96

    # ------------------------------------------------------------- words
    def describe(self, state: State, move: Move) -> str:
        try:
            if move.action == "turn":
                # Name the card only when the player saw it go down (it fell on its own number): no peeking.
                fd = state.areas[DOWN][0]
                seen = state.info.get("down_seen")
                c = _card_or_none(seen[len(fd) - 1]) if fd and isinstance(seen, list) and len(seen) >= len(fd) else None
                if c is None:
                    return ("turn the top face-down card, pick up the pile its rank names and fan it "
                            "with the turned card at the near edge")
                return (f"turn the top face-down card: it is the {c.pretty} that fell on its own number, so pick up "
                        f"pile {c.rank} and fan it with the {c.pretty} at the near edge")
            if move.action == "return":
                fan = state.areas[FAN]
                order, _ = self._fan_order(fan, move.args)
                if order is None:
                    return str(move)
                cards = [fan[i][0].card for i in order]
                return (f"put the fan back on pile {state.info.get('fan_from')}, from the bottom up: {_cards_words(cards)}"
                        + (f" (the {cards[-1].pretty} on top)" if cards and cards[-1] is not None else ""))
            if move.action == "move":
                c = state.top(move.src).card
                side = "down" if move.dst.area == LEFT else "up"
                return f"{c.pretty} from {move.src.human()} onto {_king_words(move.dst.area, move.dst.index)} (building {side})"
        except (AttributeError, IndexError, KeyError, TypeError):
            pass
        return str(move)

    def allowed_faces(self, state: State, loc: Loc) -> frozenset[tuple[int, str]] | None:
        """A king's column holds its king and the other cards of its suit, nothing else."""
        if loc.area not in KING_AREAS or not 0 <= loc.index < len(SUITS):
            return None
        return frozenset((r, SUITS[loc.index]) for r in range(1, 14))

    def depth_under(self, state: State, loc: Loc, top: Card) -> int | None:
        """Cards under ``top`` on a king (the build is fixed); None for the squared piles of the playing area."""
        if loc.area not in KING_AREAS or not 0 <= loc.index < 4 or top.suit != SUITS[loc.index]:
            return None
        if top.rank == 13:
            return 0
        return 13 - top.rank if loc.area == LEFT else top.rank

    # ------------------------------------------------------- observation
    def photo_info(self, seen: State) -> dict:
        """A photo shows nothing of the deal's counts or of the face-down pile's history."""
        return {"fan_from": None, "returned": []}

    def information_state(self, state: State, history=()) -> State:
        """The view now, with covered cards recalled from what was seen before (tip e's perfect memory)."""
        from ..kings_memory import recall
        return recall(self.observation(state), history)

    def observation(self, state: State) -> State:
        """What the player sees: face-down cards hidden, and in a squared pile only the top card.

        Covered cards of a pile become face-up unknown ('?'), unless the
        ``fans_stay_open`` option is on and that pile's fan has been put back
        (then the whole pile lies fanned and visible). The kings' piles keep
        their cards: each is implied by the pile's length. ``info`` keeps what
        the player saw during the deal.
        """
        obs = super().observation(state)
        open_ = set(obs.info.get("returned") or ()) if obs.options.get("fans_stay_open") else set()
        for i, p in enumerate(obs.areas[PILE]):
            if i + 1 in open_:
                continue
            for j in range(len(p) - 1):
                p[j] = Slot(None, True)
        return obs

    # ---------------------------------------------------------- validate
    def validate(self, state: State) -> list[str]:
        problems = super().validate(state)
        if problems and any(a not in state.areas for a in (LEFT, RIGHT, PILE, FAN, DOWN)):
            return problems
        areas = state.areas
        # The kings and what is built on them.
        for area in KING_AREAS:
            side = "left" if area == LEFT else "right"
            for k, p in enumerate(areas[area]):
                suit = SUITS[k]
                where = f"{side} king {k + 1} (the K{SUIT_SYMBOL[suit]})"
                if not p:
                    problems.append(f"{area}{k + 1} is empty: the K{SUIT_SYMBOL[suit]} stands there from the start")
                    continue
                if len(p) > 13:
                    problems.append(f"{where} holds {len(p)} cards; a finished column pile holds 13")
                for j, s in enumerate(p):
                    if not s.face_up:
                        problems.append(f"a face-down card lies on {where}")
                        break
                    if s.card is None:
                        continue
                    want = 13 if j == 0 else (13 - j if area == LEFT else j)
                    if j < 13 and s.card.face != (want, suit):
                        problems.append(f"card {j + 1} of {area}{k + 1} is the {s.card.pretty}; it must be the "
                                        f"{Card(want, suit).pretty}" + (" (the king)" if j == 0 else
                                        f" ({side} column builds {'down from the queen' if area == LEFT else 'up from the ace'})"))
                        break
        # Kings never leave their columns; nothing face down lies in the playing area or the fan.
        for area in (PILE, FAN, DOWN):
            for i, p in enumerate(areas[area]):
                for s in p:
                    if s.card is not None and s.card.rank == 13:
                        problems.append(f"the {s.card.pretty} lies in {area}{i + 1}; the kings are all taken out before the deal")
                    if area != DOWN and not s.face_up:
                        problems.append(f"{area}{i + 1} holds a face-down card; cards in the "
                                        f"{'playing area' if area == PILE else 'fan'} lie face up")
                        break
                    if area == DOWN and s.face_up:
                        problems.append("the face-down pile holds a face-up card")
                        break
        for i, p in enumerate(areas[FAN]):
            if len(p) != 1:
                problems.append(f"fan place {i + 1} holds {len(p)} cards; each fan place holds one card")
        # Phase data.
        info = state.info
        ff = info.get("fan_from")
        if ff is not None and (type(ff) is not int or not 1 <= ff <= PILES):
            problems.append(f"info 'fan_from' must be a pile number 1-{PILES} or null, not {ff!r}")
        elif areas[FAN] and ff is None:
            problems.append("a fan is out but info 'fan_from' does not say which pile it was picked up from")
        elif ff is not None and not areas[FAN]:
            problems.append(f"info 'fan_from' says pile {ff} is fanned out, but the fan is empty")
        elif ff is not None and areas[PILE][ff - 1]:
            problems.append(f"pile {ff} has cards, yet its cards should be out in the fan")
        returned = info.get("returned", [])
        if not isinstance(returned, list) or any(type(x) is not int or not 1 <= x <= PILES for x in returned):
            problems.append(f"info 'returned' must be a list of pile numbers 1-{PILES}")
        own = info.get("own_number")
        if own is not None:
            if not isinstance(own, list) or len(own) != PILES or not all(isinstance(x, list) for x in own):
                problems.append(f"info 'own_number' must be {PILES} lists of cards, one per position")
                own = None
            else:
                for i, cards in enumerate(own):
                    for t in cards:
                        try:
                            c = Card.parse(t) if isinstance(t, str) else None
                        except CardError:
                            c = None
                        if c is None:
                            problems.append(f"info 'own_number' position {i + 1}: {t!r} is not a card")
                        elif c.rank != i + 1:
                            problems.append(f"info 'own_number' says the {c.pretty} fell on its own number at "
                                            f"position {i + 1}, but a {_rank_words(c.rank)} belongs to position {c.rank}")
        counts = info.get("counts")
        if counts is not None:
            if (not isinstance(counts, list) or len(counts) != PILES
                    or any(type(x) is not int or not 0 <= x <= COPIES for x in counts)):
                problems.append(f"info 'counts' must be {PILES} whole numbers from 0 to {COPIES}")
            elif own is not None:
                for i in range(PILES):
                    if counts[i] + len(own[i]) > COPIES:
                        problems.append(f"position {i + 1}: {counts[i]} {_rank_words(i + 1)}s counted on other piles "
                                        f"and {len(own[i])} on their own number make more than {COPIES}")
        seen = info.get("down_seen")
        if seen is not None:
            seen_cards = [_card_or_none(t) for t in seen] if isinstance(seen, list) else None
            if seen_cards is None or any(t is not None and c is None for t, c in zip(seen, seen_cards)):
                problems.append("info 'down_seen' must be a list holding a card or null for each face-down card dealt")
            else:
                if len(seen) < len(areas[DOWN][0]):
                    problems.append(f"info 'down_seen' records {len(seen)} face-down cards but the face-down pile holds "
                                    f"{len(areas[DOWN][0])}; cards are never added to it after the deal")
                if own is not None:
                    own_faces = sorted(c.face for x in own for c in map(_card_or_none, x) if c is not None)
                    if sorted(c.face for c in seen_cards if c is not None) != own_faces:
                        problems.append("info 'down_seen' and 'own_number' disagree about the cards that fell on their own number")
        return problems


def _card_or_none(text) -> Card | None:
    if not isinstance(text, str):
        return None
    try:
        return Card.parse(text)
    except CardError:
        return None


GAME = Kings()
