"""Uncle Remus rules, from Keeling's text (section D) and the worked facts in seeds/uncle-remus.toml."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from advisor.catalogue import fact
from advisor.cards import SUITS, Card
from advisor.engine import Board, Loc, Move, MoveError, State, StateError, get_game

GID = "uncle-remus"
G = get_game(GID)
RANKS_DOWN = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]


def book(suit: str) -> list[str]:
    return [r + suit for r in RANKS_DOWN]


def label(token: str) -> str:
    return token.lstrip("~").split(":")[0]


def position(cols: list[list[str]], stock: int = 0, books: tuple[str, ...] = (), options: dict | None = None,
             ncol: int = 10) -> State:
    """A hand-built state: the given first columns, ``books`` put aside, ``stock`` cards undealt.

    The two packs' other cards go face down into the stock (``stock`` of them) and the rest face up
    into the last column, ending with an ace if there is one (an ace takes no card). Unknown cards
    ('~', '?') in the columns stand for leftover cards, so the total stays 104.
    """
    deck = Counter(c.label for c in G.deck())
    used = Counter(label(t) for col in cols for t in col)
    used.update(label(t) for s in books for t in book(s))
    unknown = used.pop("", 0) + used.pop("?", 0)      # cards of unknown identity stand for leftovers
    left = deck - used
    assert not (used - deck), "the test position uses more copies than two packs hold"
    rest = sorted(left.elements(), key=lambda x: (x[:-1] == "A", x))
    columns = [list(c) for c in cols] + [[] for _ in range(ncol - len(cols))]
    stock_cards = ["~" + x for x in rest[:stock]]
    junk = rest[stock + unknown:]
    if junk:
        assert not columns[-1], "the last column is kept for the cards not in play"
        columns[-1] = junk
    data = {"game": GID, "options": options or {}, "areas": {
        "column": columns, "stock": [stock_cards], "books": [book(s) for s in books]}}
    return State.from_json(data)


def col(state: State, n: int) -> list[str]:
    return [s.token() for s in state.areas["column"][n - 1]]


def mv(text: str, state: State) -> Move:
    return G.parse_move(state, text)


def legal(state: State, text: str) -> bool:
    return G.why_illegal(state, mv(text, state)) is None


# ----------------------------------------------------------------- the deal

def test_layout_is_four_face_down_rows_under_one_face_up_row_dealt_row_by_row():
    f = fact(GID, "initial-layout")["data"]
    assert f["columns"] * f["rows"] == f["cards"]
    assert f["face_down_rows"] + f["face_up_rows"] == f["rows"]
    state = G.new(21)
    deck = G.deck()
    random.Random(21).shuffle(deck)
    cols = state.areas["column"]
    assert len(cols) == f["columns"]
    for c, pile in enumerate(cols):
        assert len(pile) == f["rows"]
        assert [s.face_up for s in pile] == [False] * f["face_down_rows"] + [True] * f["face_up_rows"]
        # row r of column c is the (r * columns + c)-th card of the shuffled deck
        assert [s.card for s in pile] == [deck[r * f["columns"] + c] for r in range(f["rows"])]
    stock = state.areas["stock"][0]
    assert len(stock) == 2 * 52 - f["cards"]
    assert not any(s.face_up for s in stock)
    assert state.areas["books"] == []
    # the next card dealt is the 51st card of the shuffle, onto column 1
    G.apply(state, Move.act("deal"))
    assert state.areas["column"][0][-1].card == deck[f["cards"]]
    assert state.areas["column"][9][-1].card == deck[f["cards"] + 9]


def test_four_cards_are_left_for_the_last_deal_onto_the_first_four_columns():
    f = fact(GID, "last-deal")["data"]
    left = f["packs"] * 52 - f["layout_cards"] - f["deals_of_ten"] * 10
    assert left == f["left_over"] == 4
    state = G.new(8)
    for _ in range(f["deals_of_ten"]):
        before = [len(p) for p in state.areas["column"]]
        assert legal(state, "deal")
        G.apply(state, Move.act("deal"))
        assert [len(p) for p in state.areas["column"]] == [n + 1 for n in before]
    assert len(state.areas["stock"][0]) == f["left_over"]
    before = [len(p) for p in state.areas["column"]]
    G.apply(state, Move.act("deal"))
    grew = [i + 1 for i, (a, p) in enumerate(zip(before, state.areas["column"])) if len(p) == a + 1]
    assert grew == f["left_over_columns"]
    assert [len(p) for p in state.areas["column"]][4:] == before[4:]
    assert state.areas["stock"][0] == []
    assert Move.act("deal") not in G.legal_moves(state)
    assert "already been dealt" in G.why_illegal(state, Move.act("deal"))


def test_last_deal_onto_first_four_columns_in_words():
    state = G.new(3)
    for _ in range(5):
        G.apply(state, Move.act("deal"))
    assert G.describe(state, Move.act("deal")) == "deal the last four cards onto columns 1 to 4"
    assert "ten cards" in G.describe(G.new(3), Move.act("deal"))


def test_first_four_columns_fact_matches_the_last_deal():
    f = fact(GID, "first-four-columns")["data"]
    assert f["last_deal_columns"] == fact(GID, "last-deal")["data"]["left_over_columns"]
    assert sorted(f["last_deal_columns"] + f["good_space_columns"]) == list(range(1, 11))


def test_nine_column_variant_deals_nines_and_leaves_five():
    f = fact(GID, "nine-columns")["data"]
    assert f["columns"] * 5 == f["layout_cards"]
    assert 104 - f["layout_cards"] - f["full_deals"] * f["cards_per_deal"] == f["left_over"]
    state = G.new(4, {"columns": 9})
    assert len(state.areas["column"]) == 9 and G.layout(state.options)["column"].count == 9
    assert sum(len(p) for p in state.areas["column"]) == f["layout_cards"]
    for _ in range(f["full_deals"]):
        G.apply(state, Move.act("deal"))
    assert len(state.areas["stock"][0]) == f["left_over"]
    before = [len(p) for p in state.areas["column"]]
    G.apply(state, Move.act("deal"))
    assert [len(p) - b for p, b in zip(state.areas["column"], before)] == [1] * 5 + [0] * 4


def test_five_face_down_rows_variant():
    state = G.new(4, {"face_down_rows": 5})
    for pile in state.areas["column"]:
        assert [s.face_up for s in pile] == [False] * 5 + [True]
    assert len(state.areas["stock"][0]) == 104 - 60
    back = State.from_json(state.to_json())
    assert back == state


def test_unknown_option_values_are_refused():
    with pytest.raises(StateError, match="columns"):
        G.check_options({"columns": 8})
    with pytest.raises(StateError, match="no option"):
        G.check_options({"spiders": True})


# ------------------------------------------------------------------ moves

def test_any_card_goes_on_the_next_higher_rank_whatever_its_suit():
    s = position([["~", "8s"], ["~", "7h"], ["~", "9s"], ["~", "8h"]], stock=4)
    assert legal(s, "column2>column1")        # 7♥ on 8♠
    assert legal(s, "column2>column4")        # 7♥ on 8♥
    reason = G.why_illegal(s, mv("column2>column3", s))
    assert "7♥" in reason and "eight" in reason and "9♠" in reason and "column 3" in reason


def test_mixed_suit_sequence_is_not_a_set():
    f = fact(GID, "false-set")["data"]
    upper, lower = Card.parse(f["upper"]), Card.parse(f["lower"])
    assert upper.rank + 1 == lower.rank and upper.suit != lower.suit    # looks like a set
    s = position([["~", "6c", f["lower"], f["upper"]], ["~", "5s"], ["~", "6h"]], stock=4)
    assert f["moves_together"] is False
    reason = G.why_illegal(s, mv("column1x2>column3", s))
    assert reason and "one suit" in reason and upper.pretty in reason and lower.pretty in reason
    assert legal(s, "column1>column2")        # the 4♥ alone goes on the 5♠
    assert Move.cards(Loc("column", 0), Loc("column", 2), 2) not in G.legal_moves(s)


def test_same_suit_run_moves_whole_or_split():
    s = position([["~", "~", "9c", "8s", "7s", "6s"], ["~", "9h"], ["~", "8d"], ["~", "7c"]], stock=4)
    assert legal(s, "column1x3>column2")      # 8♠ 7♠ 6♠ on the 9♥
    assert legal(s, "column1x2>column3")      # 7♠ 6♠ on the 8♦ (the run is split)
    assert legal(s, "column1>column4")        # 6♠ on the 7♣
    reason = G.why_illegal(s, mv("column1x4>column2", s))
    assert "one suit" in reason and "8♠" in reason and "9♣" in reason
    moves = G.legal_moves(s)
    assert Move.cards(Loc("column", 0), Loc("column", 1), 3) in moves
    assert Move.cards(Loc("column", 0), Loc("column", 2), 2) in moves
    G.apply(s, mv("column1x2>column3", s))
    assert col(s, 1) == ["~", "~", "9c", "8s"] and col(s, 3) == ["~", "8d", "7s", "6s"]


def test_out_of_sequence_same_suit_cards_do_not_move_together():
    s = position([["~", "9s", "7s"], ["~", "10h"]], stock=4)
    reason = G.why_illegal(s, mv("column1x2>column2", s))
    assert "in sequence" in reason and "7♠" in reason and "9♠" in reason


def test_face_down_cards_never_move():
    s = position([["~", "~", "5s"], ["~", "Kh"]], stock=4)
    reason = G.why_illegal(s, mv("column1x2>column2", s))
    assert "face-up" in reason and "one face-up card" in reason


def test_any_card_or_same_suit_set_goes_into_a_space_and_a_king_only_there():
    s = position([["~", "Kd"], ["~", "5h", "4h"], [], ["~", "Qs"]], stock=4)
    assert legal(s, "column1>column3")             # a king into the space
    assert legal(s, "column2x2>column3")           # a same-suit set into the space
    assert legal(s, "column4>column3")
    reason = G.why_illegal(s, mv("column1>column4", s))
    assert "K♦" in reason and "space" in reason and "Q♠" in reason


def test_top_face_down_card_turns_up_when_exposed():
    s = position([["~Jc", "~3d", "Kh"], [], ["~", "9c"]], stock=4)
    G.apply(s, mv("column1>column2", s))
    assert col(s, 1) == ["~Jc", "3d"]
    # an unknown face-down card turns up as an unreadable card
    s = position([["~", "~", "Kh"], []], stock=4)
    G.apply(s, mv("column1>column2", s))
    assert col(s, 1) == ["~", "?"]


def test_emptying_a_column_makes_a_space_that_takes_any_card():
    s = position([["5c"], ["~", "6d"], ["~", "Js"]], stock=4)
    G.apply(s, mv("column1>column2", s))
    assert col(s, 1) == []
    assert legal(s, "column3>column1")


def test_deal_may_be_called_while_moves_remain_and_covers_spaces():
    s = position([["5c"], ["~", "6d"], []], stock=14)
    moves = G.legal_moves(s)
    assert Move.act("deal") in moves and len(moves) > 1
    G.apply(s, Move.act("deal"))
    assert len(col(s, 3)) == 1 and col(s, 3)[0][0] != "~"     # the space got a face-up card
    assert len(s.areas["stock"][0]) == 4


# ----------------------------------------------------------------- books

def test_a_completed_book_leaves_play_and_uncovers_the_card_beneath():
    f = fact(GID, "book")["data"]
    assert len(f["example"]) == f["cards"] == f["highest_rank"] - f["lowest_rank"] + 1
    ranks = [Card.parse(c).rank for c in f["example"]]
    assert ranks == list(range(f["highest_rank"], f["lowest_rank"] - 1, -1))
    assert len({Card.parse(c).suit for c in f["example"]}) == 1
    suit = f["example"][0][-1]
    s = position([["~7d", "~2c", f["example"][0]], ["~", *f["example"][1:]]], stock=4)
    G.apply(s, mv(f"column2x{f['cards'] - 1}>column1", s))
    assert [[t.token() for t in b] for b in s.areas["books"]] == [f["example"]]
    assert col(s, 1) == ["~7d", "2c"]
    assert col(s, 2) == ["?"]
    assert G.validate(s) == []
    assert suit == "s"


def test_a_deal_can_complete_a_book():
    # Put an A♥ on top of the stock, swapping it with a card of the last column.
    s = position([["~", *book("h")[:-1]]], stock=14)
    stock = s.areas["stock"][0]
    junk = s.areas["column"][-1]
    ace = next(i for i, t in enumerate(junk) if t.card and t.card.label == "Ah")
    stock[-1], junk[ace] = junk[ace].turned_down(), stock[-1].turned_up()
    assert G.validate(s) == []
    G.apply(s, Move.act("deal"))
    assert [b[-1].card.label for b in s.areas["books"]] == ["Ah"]
    assert col(s, 1) == ["?"]


def test_book_removed_by_hand_option():
    s = position([["~", "Ks"], ["~", *book("s")[1:]], ["~", "9d"]], stock=4,
                 options={"book_removal": "by-hand"})
    G.apply(s, mv("column2x12>column1", s))
    assert s.areas["books"] == []
    moves = G.legal_moves(s)
    assert Move.act("remove", "column1") in moves and Move.act("deal") in moves
    assert "does not end in a completed book" in G.why_illegal(s, Move.act("remove", "column3"))
    board = Board(s)
    board.push("remove c1")
    assert len(board.state.areas["books"]) == 1 and col(board.state, 1) == ["?"]


def test_a_book_still_on_the_table_must_be_removed_first_when_removal_is_automatic():
    s = position([["~", *book("c")], ["~", "9d"], ["~", "10s"]], stock=4)
    assert G.legal_moves(s) == [Move.act("remove", "column1")]
    reason = G.why_illegal(s, mv("column2>column3", s))
    assert "book of clubs" in reason and "remove column1" in reason
    assert "book of clubs" in G.why_illegal(s, Move.act("deal"))


def test_nearly_won_position_is_won_after_the_last_ace():
    s = position([book("s")[:-1], ["As"]], books=("h", "h", "d", "d", "c", "c", "s"))
    assert s.areas["stock"][0] == [] and G.status(s) == "playing"
    assert not G.is_won(s)
    board = Board(s.copy())
    board.push("column2>column1")
    assert board.status() == "won" and G.legal_moves(board.state) == []
    assert len(board.state.areas["books"]) == fact(GID, "book")["data"]["books_to_win"]
    assert all(not p for p in board.state.areas["column"])
    board.pop()
    assert board.state == s


# ------------------------------------------------------------- unknowns

def test_unreadable_cards_only_go_into_spaces():
    s = position([["~", "?"], ["~", "8d"], [], ["~", "7h", "?"]], stock=4)
    moves = [str(m) for m in G.legal_moves(s)]
    assert "column1>column3" in moves
    assert "column1>column2" not in moves
    assert not any(m.startswith("column4x2") for m in moves)
    assert "unreadable" in G.why_illegal(s, mv("column1>column2", s))
    assert "unreadable" in G.why_illegal(s, mv("column4x2>column3", s))


def test_observation_moves_do_not_need_hidden_cards():
    s = G.new(9)
    obs = G.observation(s)
    assert G.legal_moves(obs) == G.legal_moves(s)


# ------------------------------------------------------------- validation

def _data(state: State) -> dict:
    return state.to_json()


def test_impossible_stock_size_is_named():
    d = _data(G.new(1))
    d["areas"]["column"][0].append(d["areas"]["stock"][0].pop())
    d["areas"]["column"][0][-1] = d["areas"]["column"][0][-1].lstrip("~")
    with pytest.raises(StateError, match="stock holds 53 cards"):
        State.from_json(d)


def test_face_down_top_card_is_impossible():
    d = _data(G.new(1))
    d["areas"]["column"][2][-1] = "~" + d["areas"]["column"][2][-1]
    with pytest.raises(StateError, match="column 3 ends in a face-down card"):
        State.from_json(d)


def test_face_down_above_face_up_is_impossible():
    d = _data(G.new(1))
    c = d["areas"]["column"][0]
    c[0] = c[0].lstrip("~")
    with pytest.raises(StateError, match="column 1 has a face-down card lying above a face-up one"):
        State.from_json(d)


def test_too_many_face_down_cards_is_impossible():
    d = _data(G.new(1))
    moved = d["areas"]["column"][1].pop(0)
    d["areas"]["column"][0].insert(0, moved)
    with pytest.raises(StateError, match="column 1 has 5 face-down cards"):
        State.from_json(d)


def test_missing_cards_are_named():
    d = _data(G.new(1))
    d["areas"]["column"][0].pop(0)
    with pytest.raises(StateError, match="103 cards"):
        State.from_json(d)


def test_malformed_book_is_named():
    s = position([["~", "9d"]], stock=4, books=("s",))
    d = s.to_json()
    d["areas"]["books"][0][5], d["areas"]["books"][0][6] = d["areas"]["books"][0][6], d["areas"]["books"][0][5]
    with pytest.raises(StateError, match="book 1 has the 7♠ in place 6"):
        State.from_json(d)


# ------------------------------------------------------------- bad input

@pytest.mark.parametrize("text, words", [
    ("column1>stock1", "column to column"),
    ("column11>column1", "no column 11"),
    ("column1>column1", "already in column 1"),
    ("column1x9>column2", "holds only"),
    ("deal now", "no further words"),
    ("remove", "say which column"),
    ("remove stock1", "removed from a column"),
    ("remove column12", "no column 12"),
    ("shuffle", "no action 'shuffle'"),
])
def test_bad_moves_get_a_reason(text, words):
    s = G.new(2)
    reason = G.why_illegal(s, G.parse_move(s, text))
    assert reason and words in reason


def test_illegal_push_raises_move_error():
    board = Board(G.new(2))
    with pytest.raises(MoveError):
        board.push("column1>stock1")


def test_two_packs_make_two_books_of_each_suit():
    assert Counter(c.suit for c in G.deck()) == {s: 26 for s in SUITS}
    assert fact(GID, "book")["data"]["books_to_win"] == 2 * len(SUITS)
