"""Interregnum (Mary Whitmore Jones, *New Games of Patience*, 1911).

Two packs. A row of eight cards above, a gap the width of a row (the
"interregnum"), and eight cards below. Under each card of the top row a
packet is built in the interregnum, upwards regardless of suit and turning
the corner from king to ace, starting with the rank just above that
top-row card. Only the exposed cards of the lowest row may be built. When
the player wishes, a fresh row of eight is dealt across the lowest row,
one card on each of its piles (vacancies included), until the stock is
gone. A packet holding the twelve ranks above its top-row card is crowned
by that card and turned face down. The game is won when all eight packets
are crowned. There is no waste heap and no redeal.

Areas
    ``top``          the row of eight crowning cards (one card or none each)
    ``interregnum``  the eight packets, each under its top-row card
    ``bottom``       the lowest row: eight piles, each new row dealt over it
    ``stock``        the undealt cards, face down
Moves
    ``bottom3>interregnum5``   build the exposed card of lowest-row pile 3
    ``top5>interregnum5``      crown packet 5 with the card above it
    ``deal``                   deal a fresh row of eight across the lowest row
"""
from __future__ import annotations

import random

from ..cards import RANK_NAME, Card, rank_add
from ..engine import Area, Game, Layout, Loc, Move, State, Slot, down, up

ROW = 8
PACKET = 12          # cards built under a top-row card before it crowns them
FIRST_DEAL = 2 * ROW
STOCK_SIZE = 104 - FIRST_DEAL
ROWS_TO_DEAL = STOCK_SIZE // ROW   # eleven fresh rows


def _an(rank: int) -> str:
    word = RANK_NAME[rank]
    return ("an " if word[0] in "ae" else "a ") + word


def _show(slot: Slot | None) -> str:
    if slot is None:
        return "nothing"
    return slot.card.pretty if slot.card is not None else ("an unreadable card" if slot.face_up else "a face-down card")


class Interregnum(Game):
    id = "interregnum"
    name = "Interregnum"
    source = "Mary Whitmore Jones, New Games of Patience (1911): Interregnum Patience"
    packs = 2
    option_list = ()
    hidden_information = True

    _LAYOUT = Layout((
        Area("top", "row", ROW, origin=(0.0, 0.0), step=(1.2, 0.0),
             note="the crowning cards; each leaves when it crowns the packet beneath it"),
        Area("interregnum", "foundation", ROW, origin=(0.0, 1.6), step=(1.2, 0.0),
             face="mixed", note="packets built upwards from the rank above the card overhead; turned down when crowned"),
        Area("bottom", "row", ROW, origin=(0.0, 3.2), step=(1.2, 0.0),
             note="the lowest row; each fresh row of eight is dealt squarely over it"),
        Area("stock", "stock", 1, origin=(10.0, 3.2), face="down",
             note="the cards still to be dealt, eight at a time"),
    ))

    # ------------------------------------------------------------ layout/deal
    def layout(self, options: dict) -> Layout:
        return self._LAYOUT

    def deal(self, rng: random.Random, options: dict) -> State:
        deck = self.deck()
        rng.shuffle(deck)
        top = [[up(c)] for c in deck[:ROW]]
        bottom = [[up(c)] for c in deck[ROW:FIRST_DEAL]]
        stock = [down(c) for c in reversed(deck[FIRST_DEAL:])]   # next card dealt is the last
        return State(self.id, {"top": top, "interregnum": [[] for _ in range(ROW)],
                               "bottom": bottom, "stock": [stock]}, {}, dict(options))

    # ------------------------------------------------------------- helpers
    @staticmethod
    def crowned(packet: list[Slot]) -> bool:
        return len(packet) == PACKET + 1

    @staticmethod
    def needed_rank(state: State, j: int) -> int | None:
        """The rank packet ``j`` takes next from the lowest row (None: unknown, or none)."""
        packet = state.areas["interregnum"][j]
        n = len(packet)
        if n >= PACKET:
            return None
        top = state.areas["top"][j]
        if top and top[0].card is not None:
            return rank_add(top[0].card.rank, n + 1)
        for k in range(n - 1, -1, -1):
            if packet[k].card is not None:
                return rank_add(packet[k].card.rank, n - k)
        return None

    @staticmethod
    def rows_left(state: State) -> int:
        return len(state.areas["stock"][0]) // ROW

    # -------------------------------------------------------------- moves
    def legal_moves(self, state: State) -> list[Move]:
        moves: list[Move] = []
        inter = state.areas["interregnum"]
        needs = [self.needed_rank(state, j) for j in range(ROW)]
        for i, pile in enumerate(state.areas["bottom"]):
            if not pile or pile[-1].card is None or not pile[-1].face_up:
                continue
            r = pile[-1].card.rank
            for j in range(ROW):
                if needs[j] == r and (inter[j] or state.areas["top"][j]):
                    moves.append(Move.cards(Loc("bottom", i), Loc("interregnum", j)))
        for j in range(ROW):
            if len(inter[j]) == PACKET and state.areas["top"][j]:
                moves.append(Move.cards(Loc("top", j), Loc("interregnum", j)))
        if state.areas["stock"][0]:
            moves.append(Move.act("deal"))
        return moves

    def why_illegal(self, state: State, move: Move) -> str | None:
        if move.action != "move":
            if move.action != "deal":
                return f"Interregnum has no action {move.action!r}; the only action is deal (a fresh row of eight across the lowest row)"
            if move.args:
                return "deal takes no further words"
            if not state.areas["stock"][0]:
                return "the stock is used up: all eleven fresh rows have been dealt, and there is no second chance"
            return None
        src, dst = move.src, move.dst
        for loc in (src, dst):
            if loc.area not in state.areas:
                return f"Interregnum has no area {loc.area!r}"
            if loc.index >= len(state.areas[loc.area]):
                return f"{loc.area} has only {len(state.areas[loc.area])} pile{'s' if len(state.areas[loc.area]) != 1 else ''}; there is no {loc.human()}"
        if move.count != 1:
            return "cards are moved one at a time"
        if src.area == "stock":
            return "the stock is only dealt a row at a time (the deal action), never card by card"
        if src.area == "interregnum":
            return "a card built into the interregnum stays there"
        if dst.area != "interregnum":
            return "cards go only into the interregnum, to build a packet under a top-row card"
        packet = state.pile(dst)
        above = state.areas["top"][dst.index]
        if self.crowned(packet):
            return f"packet {dst.index + 1} is already crowned and turned down"
        if src.area == "top":
            if src.index != dst.index:
                return (f"a top-row card only crowns the packet beneath it: {_show(above[0] if above else None)} "
                        f"is over packet {src.index + 1}, not {dst.index + 1}")
            if not above:
                return f"there is no card left in top-row place {src.index + 1}"
            if len(packet) < PACKET:
                return (f"the packet under the {_show(above[0])} holds {len(packet)} card{'s' if len(packet) != 1 else ''}; "
                        f"it is crowned only when it holds the twelve ranks above it")
            return None
        # src is the lowest row
        pile = state.pile(src)
        if not pile:
            return f"lowest-row pile {src.index + 1} is empty"
        card = pile[-1].card
        if card is None:
            return f"the exposed card of lowest-row pile {src.index + 1} cannot be read"
        if len(packet) == PACKET:
            return (f"packet {dst.index + 1} holds its twelve cards and waits only for its crown, "
                    f"the {_show(above[0]) if above else 'card above it'}")
        if not packet and not above:
            return f"there is no top-row card over interregnum place {dst.index + 1} to build under"
        need = self.needed_rank(state, dst.index)
        if need is None:
            return f"the rank packet {dst.index + 1} needs cannot be read from this position"
        if card.rank != need:
            if not packet:
                return (f"the space under the {_show(above[0])} takes only {_an(need)} (the next rank up, any suit); "
                        f"the {card.pretty} is not that")
            return (f"packet {dst.index + 1} shows the {_show(packet[-1])}, so it takes {_an(need)} "
                    f"(one rank up, any suit), not the {card.pretty}")
        return None

    def apply(self, state: State, move: Move) -> None:
        if move.action == "deal":
            stock = state.areas["stock"][0]
            for pile in state.areas["bottom"]:
                if stock:
                    pile.append(stock.pop().turned_up())
            return
        if move.src.area == "top":
            crown = state.areas["top"][move.src.index].pop()
            packet = state.areas["interregnum"][move.dst.index]
            packet.append(crown)
            packet[:] = [s.turned_down() for s in packet]
            return
        card = state.pile(move.src).pop()
        state.pile(move.dst).append(card)

    def is_won(self, state: State) -> bool:
        return all(self.crowned(p) for p in state.areas["interregnum"])

    def depth_under(self, state: State, loc: Loc, top: Card) -> int | None:
        """An interregnum packet runs up from the rank above its top-row card, so its top card tells its depth."""
        if loc.area != "interregnum" or loc.index >= ROW:
            return None
        above = state.areas["top"][loc.index]
        if not above or above[0].card is None:
            return None
        return (top.rank - above[0].card.rank - 1) % 13

    def settle_unseen(self, state: State) -> list[str]:
        """The stock goes out a row of eight at a time, so it holds a multiple of eight cards; the cards
        a photo cannot count beyond that lie under the lowest row's top cards (rows dealt over them),
        one more under each pile in turn, as far as the rows dealt allow."""
        stock, bottom = state.areas.get("stock"), state.areas.get("bottom")
        if not stock or len(stock) != 1 or not bottom or len(bottom) != ROW:
            return []
        n = len(stock[0])
        keep = min(STOCK_SIZE, n // ROW * ROW)
        if keep == n or any(s.card is not None for s in stock[0][keep:]):
            return []
        dealt = (STOCK_SIZE - keep) // ROW
        # round by round, one card under each pile that can still hold one (an empty place has nothing under it)
        lengths = [len(p) for p in bottom]
        under = [i for rnd in range(dealt + 1) for i, k in enumerate(lengths) if k and k + rnd <= dealt][:n - keep]
        if not under:
            return []
        for i in under:
            bottom[i].insert(0, Slot(None, True))
        del stock[0][n - len(under):]
        return [f"{len(under)} card(s) assumed under the lowest row's top cards, so that the stock holds "
                f"{len(stock[0])} (it is dealt eight at a time): how deep each pile is cannot be seen"]

    def completion(self, state: State) -> float:
        """The protocol's progress measure: this game's own ``progress``."""
        return self.progress(state)

    def progress(self, state: State) -> float:
        """Share of the 104 cards gathered into the interregnum."""
        return sum(len(p) for p in state.areas["interregnum"]) / 104

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            n = self.rows_left(state)
            return f"deal a fresh row of eight across the lowest row ({n - 1} more after this)"
        if move.action != "move":
            return str(move)
        try:
            above = state.areas["top"][move.dst.index]
            if move.src.area == "top":
                return f"crown packet {move.dst.index + 1} with the {_show(above[0] if above else None)} and turn it down"
            card = _show(state.pile(move.src)[-1] if state.pile(move.src) else None)
            return (f"build the {card} from lowest-row pile {move.src.index + 1} into the interregnum "
                    f"under the {_show(above[0] if above else None)}")
        except (KeyError, IndexError):
            return str(move)

    # ----------------------------------------------------------- validity
    def validate(self, state: State) -> list[str]:
        problems = super().validate(state)
        if any(name not in state.areas for name in self._LAYOUT.names):
            return problems
        top, inter, bottom = state.areas["top"], state.areas["interregnum"], state.areas["bottom"]
        stock = state.areas["stock"]
        if len(top) != ROW or len(inter) != ROW or len(bottom) != ROW or len(stock) != 1:
            return problems
        for j, p in enumerate(top):
            if len(p) > 1:
                problems.append(f"top-row place {j + 1} holds {len(p)} cards; it holds one card at most")
            if any(not s.face_up for s in p):
                problems.append(f"the top-row card {j + 1} should be face up")
        for i, p in enumerate(bottom):
            if any(not s.face_up for s in p):
                problems.append(f"lowest-row pile {i + 1} has a face-down card; every row is dealt face up")
        if any(s.face_up for s in stock[0]):
            problems.append("the stock should be face down")
        n_stock = len(stock[0])
        if n_stock > STOCK_SIZE or n_stock % ROW:
            problems.append(f"the stock holds {n_stock} cards; it starts with {STOCK_SIZE} and is dealt eight at a time")
        else:
            dealt = (STOCK_SIZE - n_stock) // ROW
            for i, p in enumerate(bottom):
                if len(p) > dealt + 1:
                    problems.append(f"lowest-row pile {i + 1} holds {len(p)} cards but only {dealt + 1} "
                                    f"{'row has' if dealt == 0 else 'rows have'} been dealt")
        crowned = 0
        for j, p in enumerate(inter):
            where = f"packet {j + 1}"
            if self.crowned(p):
                crowned += 1
                if any(s.face_up for s in p):
                    problems.append(f"{where} is complete and should be turned down")
                if top[j]:
                    problems.append(f"{where} is crowned, yet a card still lies in the top row above it")
                ranks = [(k, s.card.rank) for k, s in enumerate(p) if s.card is not None]
                if len({rank_add(r, -k) for k, r in ranks}) > 1:
                    problems.append(f"{where} is not one unbroken upward sequence")
                continue
            if len(p) > PACKET + 1:
                problems.append(f"{where} holds {len(p)} cards; a packet is thirteen at most")
                continue
            if any(not s.face_up for s in p):
                problems.append(f"{where} has a face-down card but is not complete")
            if p and not top[j]:
                problems.append(f"{where} has no top-row card over it and is not crowned")
            # position k of the packet holds the rank k+1 above the top-row card
            known = [(k + 1, s.card) for k, s in enumerate(p) if s.card is not None]
            if top[j] and top[j][0].card is not None:
                known.insert(0, (0, top[j][0].card))
            offsets = {rank_add(c.rank, -k) for k, c in known}
            if len(offsets) > 1:
                base = top[j][0].card.pretty if top[j] and top[j][0].card else "its first card"
                problems.append(f"{where} does not run upwards one rank at a time from {base}")
        if crowned + sum(1 for p in top if p) != ROW:
            problems.append(f"{sum(1 for p in top if p)} top-row cards and {crowned} crowned packets: together they must make eight")
        return problems


GAME = Interregnum()
