"""Interregnum (Whitmore Jones, New Games of Patience, 1911): rules from the text, worked facts, deal, bad input."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from advisor.cards import RANK_LABEL, SUITS, Card, full_deck
from advisor.catalogue import fact
from advisor.engine import Board, Loc, Move, MoveError, Slot, State, StateError, get_game

G = get_game("interregnum")


def up_from(rank: int, steps: int) -> int:
    """The rank ``steps`` above ``rank``, king followed by ace (worked out by hand, not with the engine)."""
    return (rank - 1 + steps) % 13 + 1


def label(rank: int, suit: str) -> str:
    return RANK_LABEL[rank] + suit


def make(top, bottom, inter=None, stock: int | list = 88) -> State:
    """A hand-built position. ``top``: 8 labels or None; ``bottom``: 8 lists; ``stock``: a count of unknown cards or labels."""
    stock_pile = ["~"] * stock if isinstance(stock, int) else ["~" + c for c in stock]
    data = {"game": "interregnum", "areas": {
        "top": [[c] if c else [] for c in top],
        "interregnum": inter or [[] for _ in range(8)],
        "bottom": [list(p) for p in bottom],
        "stock": [stock_pile]}}
    return State.from_json(data)


def move(text: str, state: State) -> Move:
    return G.parse_move(state, text)


# ------------------------------------------------------------------ deal

def test_deal_lays_two_rows_of_eight_and_keeps_88_face_down():
    s = G.new(12)
    counts = fact("interregnum", "counts")["data"]
    assert [len(p) for p in s.areas["top"]] == [1] * 8
    assert [len(p) for p in s.areas["bottom"]] == [1] * 8
    assert s.areas["interregnum"] == [[] for _ in range(8)]
    assert len(s.areas["stock"][0]) == counts["stock"] == 104 - counts["first_rows"]
    assert all(slot.face_up for a in ("top", "bottom") for p in s.areas[a] for slot in p)
    assert not any(slot.face_up for slot in s.areas["stock"][0])
    assert Counter(c.face for c in s.known_cards()) == Counter(c.face for c in full_deck(2))


def test_eleven_fresh_rows_then_the_stock_is_done():
    counts = fact("interregnum", "counts")["data"]
    s = G.new(3)
    for k in range(counts["fresh_rows"]):
        assert Move.act("deal") in G.legal_moves(s)
        before = [len(p) for p in s.areas["bottom"]]
        G.apply(s, Move.act("deal"))
        assert [len(p) for p in s.areas["bottom"]] == [n + 1 for n in before]
    assert s.areas["stock"][0] == []
    assert Move.act("deal") not in G.legal_moves(s)
    assert "stock" in G.why_illegal(s, Move.act("deal"))


def test_a_fresh_row_also_fills_empty_places_and_covers_the_old_row():
    s = make(["7s", "Ad", "Qs", "5c", "6h", "8d", "Jc", "Ks"],
             [["8s"], [], ["3d"], ["4s"], ["Kd"], ["10h"], ["10c"], ["Jd"]],
             stock=["9c", "9d", "9h", "2c", "2d", "2h", "3c", "3h"])
    G.apply(s, Move.act("deal"))
    # the stock's last card is dealt first, to pile 1
    assert [str(p[-1]) for p in s.areas["bottom"]] == ["3h", "3c", "2h", "2d", "2c", "9h", "9d", "9c"]
    assert [len(p) for p in s.areas["bottom"]] == [2, 1, 2, 2, 2, 2, 2, 2]
    # the eight of spades is covered now: the seven of spades' packet cannot take it
    assert Move.cards(Loc("bottom", 0), Loc("interregnum", 0)) not in G.legal_moves(s)


# ----------------------------------------------------- the text's example

def example_state() -> State:
    f = fact("interregnum", "first-layout-example")["data"]
    top = f["top_named"] + f["top_filler"]
    bottom = [[c] for c in f["bottom_named"] + f["bottom_filler"]]
    return make(top, bottom)


def test_the_texts_first_layout_disposes_of_five_lowest_row_cards():
    f = fact("interregnum", "first-layout-example")["data"]
    s = example_state()
    top = [p[0].card.label for p in s.areas["top"]]
    made = []
    while True:
        builds = [m for m in G.legal_moves(s) if m.action == "move"]
        if not builds:
            break
        m = builds[0]
        made.append([s.pile(m.src)[-1].card.label, top[m.dst.index]])
        G.apply(s, m)
    assert sorted(made) == sorted(f["builds"])
    left = [p[-1].card.label for p in s.areas["bottom"] if p]
    assert len(f["bottom_named"] + f["bottom_filler"]) - len(left) == f["disposed"]
    assert sorted(left) == sorted(f["bottom_filler"])
    # the two, three and four went one on another under the ace of diamonds
    assert [x.card.label for x in s.areas["interregnum"][1]] == ["2s", "3d", "4s"]
    assert G.legal_moves(s) == [Move.act("deal")]


def test_the_first_builds_ignore_suit():
    s = example_state()
    # the eight of spades under the seven; the two of spades under the ace of DIAMONDS
    assert G.why_illegal(s, move("8s>interregnum1", s)) is None
    assert G.why_illegal(s, move("2s>interregnum2", s)) is None
    assert G.why_illegal(s, move("Kd>interregnum3", s)) is None
    # the three of diamonds must wait for the two
    reason = G.why_illegal(s, move("3d>interregnum2", s))
    assert "two" in reason and "3♦" in reason and "A♦" in reason


# ------------------------------------------------------------ building

def packet_under(top_rank: int, n: int, suit: str = "h") -> list[str]:
    return [label(up_from(top_rank, k), suit) for k in range(1, n + 1)]


def test_a_packet_turns_the_corner_from_king_to_ace():
    inter = [[] for _ in range(8)]
    inter[2] = ["Kd"]                       # under the queen of spades
    s = make(["7s", "Ad", "Qs", "5c", "6h", "8d", "Jc", "Ks"],
             [["Ac"], ["2c"], ["9c"], ["4d"], ["5s"], ["10h"], ["10c"], ["Jd"]], inter, stock=80)
    assert G.why_illegal(s, move("Ac>interregnum3", s)) is None
    reason = G.why_illegal(s, move("2c>interregnum3", s))
    assert "K♦" in reason and "an ace" in reason


def test_cards_only_go_under_the_top_card_they_follow_and_only_from_the_lowest_row():
    s = example_state()
    assert "only into the interregnum" in G.why_illegal(s, Move.cards(Loc("bottom", 0), Loc("bottom", 1)))
    assert "eight" in G.why_illegal(s, Move.cards(Loc("bottom", 1), Loc("interregnum", 0)))  # 2♠ under 7♠
    assert "crown" in G.why_illegal(s, Move.cards(Loc("top", 0), Loc("interregnum", 0)))
    assert "one at a time" in G.why_illegal(s, Move.cards(Loc("bottom", 0), Loc("interregnum", 0), 2))
    assert "dealt a row at a time" in G.why_illegal(s, Move.cards(Loc("stock", 0), Loc("interregnum", 0)))
    G.apply(s, Move.cards(Loc("bottom", 0), Loc("interregnum", 0)))
    assert "stays there" in G.why_illegal(s, Move.cards(Loc("interregnum", 0), Loc("interregnum", 3)))


def test_crowning_a_packet_of_twelve_turns_it_down():
    q = 12
    inter = [[] for _ in range(8)]
    inter[2] = packet_under(q, 12)          # K A 2 ... J under the queen of spades
    assert inter[2][0] == "Kh" and inter[2][1] == "Ah" and inter[2][-1] == "Jh"
    s = make(["7s", "Ad", "Qs", "5c", "6h", "8d", "Jc", "Ks"],
             [["Qd"], ["2c"], ["9c"], ["4d"], ["5s"], ["10h"], ["10c"], ["Jd"]], inter, stock=72)
    crown = Move.cards(Loc("top", 2), Loc("interregnum", 2))
    assert crown in G.legal_moves(s)
    # another queen from the lowest row may not continue a full packet
    reason = G.why_illegal(s, move("Qd>interregnum3", s))
    assert "crown" in reason and "Q♠" in reason
    assert "beneath it" in G.why_illegal(s, Move.cards(Loc("top", 2), Loc("interregnum", 3)))
    G.apply(s, crown)
    packet = s.areas["interregnum"][2]
    assert len(packet) == 13 and not any(x.face_up for x in packet) and packet[-1].card.label == "Qs"
    assert s.areas["top"][2] == []
    assert G.validate(s) == []
    assert "already crowned" in G.why_illegal(s, move("Qd>interregnum3", s))


def test_no_crown_before_twelve():
    inter = [[] for _ in range(8)]
    inter[0] = packet_under(7, 11, "c")
    s = make(["7s", "Ad", "Qs", "5c", "6h", "8d", "Jc", "Ks"],
             [["9d"], ["2c"], ["9c"], ["4d"], ["5s"], ["10h"], ["10c"], ["Jd"]], inter, stock=72)
    reason = G.why_illegal(s, Move.cards(Loc("top", 0), Loc("interregnum", 0)))
    assert "11 cards" in reason
    assert Move.cards(Loc("top", 0), Loc("interregnum", 0)) not in G.legal_moves(s)


def winning_position() -> tuple[State, Move]:
    """Seven packets crowned, the eighth waiting for its crown; stock and lowest row empty."""
    tops = [7, 1, 12, 5, 6, 8, 11, 13]
    inter, top = [], []
    for j, t in enumerate(tops):
        suit = SUITS[j % 4]          # each suit twice: every face twice, as in two packs
        cards = packet_under(t, 12, suit)
        if j < 7:
            inter.append(["~" + c for c in cards + [label(t, suit)]])
            top.append(None)
        else:
            inter.append(cards)
            top.append(label(t, suit))
    s = make(top, [[] for _ in range(8)], inter, stock=0)
    return s, Move.cards(Loc("top", 7), Loc("interregnum", 7))


def test_the_last_crown_wins_and_ends_the_game():
    s, last = winning_position()
    assert Counter(c.face for c in s.known_cards()) == Counter(c.face for c in full_deck(2))
    assert G.legal_moves(s) == [last]
    assert G.status(s) == "playing" and not G.is_won(s)
    board = Board(s)
    board.push(str(last))
    assert G.is_won(board.state) and board.status() == "won"
    assert G.legal_moves(board.state) == []


def test_stuck_when_stock_empty_and_nothing_builds():
    s = make(["7s", "Ad", "Qs", "5c", "6h", "8d", "Jc", "Ks"],
             [["10h"], ["10c"], ["Jd"], [], [], [], [], []], stock=0)
    assert G.legal_moves(s) == [] and G.status(s) == "stuck"


# --------------------------------------------------------- impossible states

@pytest.mark.parametrize("change, words", [
    (lambda d: d["areas"]["top"][0].append("7h"), "holds 2 cards"),
    (lambda d: d["areas"]["stock"][0].pop(), "eight at a time"),
    (lambda d: d["areas"]["interregnum"][0].extend(["8s", "10s"]), "does not run upwards"),
    (lambda d: d["areas"]["bottom"][0].insert(0, "9d"), "only 1 row has"),
    (lambda d: d["areas"]["bottom"][1].append("~5d"), "face-down"),
])
def test_impossible_positions_are_named(change, words):
    data = example_state().to_json()
    change(data)
    with pytest.raises(StateError, match=words):
        State.from_json(data)


def test_a_packet_without_its_top_card_is_impossible():
    data = example_state().to_json()
    data["areas"]["interregnum"][0] = ["8s"]
    data["areas"]["top"][0] = []
    with pytest.raises(StateError, match="no top-row card over it"):
        State.from_json(data)


# ------------------------------------------------------- unknown cards, input

def test_unknown_cards_give_no_moves_but_no_crash():
    s = make(["?", "Ad", "Qs", "5c", "6h", "8d", "Jc", "Ks"],
             [["?"], ["2s"], ["?"], ["4s"], ["Kd"], ["10h"], ["10c"], ["Jd"]], stock=88)
    moves = [str(m) for m in G.legal_moves(s)]
    assert moves == ["bottom2>interregnum2", "bottom5>interregnum3", "deal"]
    assert "cannot be read" in G.why_illegal(s, Move.cards(Loc("bottom", 0), Loc("interregnum", 0)))
    obs = G.observation(G.new(5))
    G.apply(obs, Move.act("deal"))
    assert all(p[-1].card is None and p[-1].face_up for p in obs.areas["bottom"])
    assert G.validate(obs) == []


def test_bad_input_is_refused_in_words():
    board = Board(example_state())
    with pytest.raises(MoveError, match="only 8 piles"):
        board.push("bottom9>interregnum1")
    with pytest.raises(MoveError, match="no action"):
        board.push("shuffle")
    with pytest.raises(MoveError, match="no area"):
        board.push("waste1>interregnum1")
    with pytest.raises(StateError):
        State.from_json({"game": "interregnum", "areas": {"top": "7s"}})


def test_a_packets_top_card_tells_its_depth():
    inter = [[] for _ in range(8)]
    inter[2] = packet_under(12, 5)            # K A 2 3 4 under the queen of spades: 4 cards under the 4♥
    s = make(["7s", "Ad", "Qs", "5c", "6h", "8d", "Jc", "Ks"],
             [["9d"], ["2c"], ["9c"], ["4d"], ["5s"], ["10h"], ["10c"], ["Jd"]], inter, stock=80)
    assert G.depth_under(s, Loc("interregnum", 2), Card.parse("4h")) == 4
    assert G.depth_under(s, Loc("interregnum", 2), Card.parse("Kh")) == 0
    assert G.depth_under(s, Loc("bottom", 0), Card.parse("9d")) is None


def test_a_photo_reading_puts_the_uncounted_cards_under_the_lowest_row_so_the_stock_goes_by_eights():
    # Two rows dealt (stock 72) and three cards built: the lowest row holds 21 cards, of which a photo
    # shows the eight on top. Read from the photo, the 13 beneath seem to be in the stock (85 cards),
    # which no deal of eight at a time leaves; the cards beyond 80 lie under the lowest row instead.
    inter = [[] for _ in range(8)]
    inter[2] = packet_under(12, 3)
    top = ["7s", "Ad", "Qs", "5c", "6h", "8d", "Jc", "Ks"]
    tops = [["9d"], ["2c"], ["9c"], ["4d"], ["5s"], ["10h"], ["10c"], ["Jd"]]
    seen = make(top, tops, inter, stock=80)
    seen.areas["stock"][0].extend(seen.areas["stock"][0][:5])
    assert seen.card_count() == 104 and any("eight at a time" in p for p in G.validate(seen))
    words = G.settle_unseen(seen)
    assert len(seen.areas["stock"][0]) == 80
    assert [len(p) for p in seen.areas["bottom"]] == [2, 2, 2, 2, 2, 1, 1, 1]
    assert [p[-1].card.label for p in seen.areas["bottom"]] == [p[0] for p in tops]
    assert all(p[0].card is None for p in seen.areas["bottom"][:5])
    assert seen.card_count() == 104 and G.validate(seen) == []
    assert words and "5 card(s)" in words[0] and "stock holds 80" in words[0]
    # a stock that goes by eights already, and an empty place (nothing can lie under it), are left alone
    fine = make(top, tops, inter, stock=80)
    assert G.settle_unseen(fine) == [] and len(fine.areas["stock"][0]) == 80
    gap = make(top, [["9d"], [], [], [], [], [], [], []], stock=80)
    gap.areas["stock"][0].extend([Slot(None, False)] * 3)
    G.settle_unseen(gap)
    assert [len(p) for p in gap.areas["bottom"]] == [2, 0, 0, 0, 0, 0, 0, 0] and len(gap.areas["stock"][0]) == 82
