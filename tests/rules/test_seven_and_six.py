"""Seven and Six rules, from Keeling's text (section C) and the decisions in seeds/seven-and-six.toml."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from advisor.catalogue import fact
from advisor.cards import Card, full_deck
from advisor.engine import Board, Loc, Move, MoveError, State, StateError, get_game, playout

GID = "seven-and-six"
G = get_game(GID)
FAR, NEAR, STOCK = "far-column", "near-column", "stock"


# ----------------------------------------------------------------- helpers

def loc(n: int) -> Loc:
    """Column n (1..13) in dealing order."""
    return Loc(FAR, n - 1) if n <= 7 else Loc(NEAR, n - 8)


def book_cards(black_king: bool, pool: Counter) -> list[str] | None:
    """A king-to-ace book taken from ``pool`` (faces), colours alternating, or None."""
    out = []
    for j, rank in enumerate(range(13, 0, -1)):
        black = black_king if j % 2 == 0 else not black_king
        for suit in ("sc" if black else "hd"):
            label = {13: "K", 12: "Q", 11: "J", 1: "A"}.get(rank, str(rank)) + suit
            if pool[label] > 0:
                out.append(label)
                break
        else:
            return None
    return out


def position(cols: dict[int, list[str]], stock: list[str] | None = None, options: dict | None = None,
             stock_top: list[str] = ()) -> State:
    """A full 104-card state with the given columns (1..13, tokens bottom first).

    Cards not named go, by default, into the stock (top = last); if that would be
    more than the 52 cards the stock can hold, complete turned-down books are
    first made of them in the columns not named. Other unnamed columns are spaces.
    """
    pool = Counter(label.lstrip("~") for label in (c.label for c in full_deck(2)))
    named = [t for p in cols.values() for t in p] + list(stock or []) + list(stock_top)
    unknown = 0
    for t in named:
        if t.lstrip("~") in ("", "?"):
            unknown += 1
            continue
        face = Card.parse(t.lstrip("~")).label
        pool[face] -= 1
        assert pool[face] >= 0, f"too many {face} in the test position"
    for _ in range(unknown):            # an unseen card stands for one of the cards not named
        pool[max(c for c, n in pool.items() if n > 0)] -= 1
    areas_cols = {n: list(p) for n, p in cols.items()}
    free = [n for n in range(1, 14) if n not in cols]
    if stock is None:
        black = True
        while sum(pool.values()) > 52:
            b = book_cards(black, pool) or book_cards(not black, pool)
            assert b and free, "cannot park the spare cards in books"
            for c in b:
                pool[c] -= 1
            areas_cols[free.pop(0)] = ["~" + c for c in b]
            black = not black
        stock = ["~" + c for c, n in sorted(pool.items()) for _ in range(n)]
    stock = list(stock) + ["~" + c for c in reversed(stock_top)]   # stock_top[0] is dealt first
    data = {"game": GID, "options": options or {},
            "areas": {FAR: [areas_cols.get(n, []) for n in range(1, 8)],
                      NEAR: [areas_cols.get(n, []) for n in range(8, 14)],
                      STOCK: [stock]}}
    return State.from_json(data)


def col(state: State, n: int) -> list[str]:
    return [s.token() for s in state.pile(loc(n))]


def cards_of(state: State, n: int) -> list[str]:
    return [s.card.label if s.card else s.token() for s in state.pile(loc(n))]


BLACK_BOOK = ["Ks", "Qh", "Jc", "10d", "9s", "8h", "7c", "6d", "5s", "4h", "3c", "2d", "As"]
RED_BOOK = ["Kh", "Qs", "Jd", "10c", "9h", "8s", "7d", "6c", "5h", "4s", "3d", "2c", "Ah"]
BLACK_BOOK2 = ["Kc", "Qd", "Js", "10h", "9c", "8d", "7s", "6h", "5c", "4d", "3s", "2h", "Ac"]
RED_BOOK2 = ["Kd", "Qc", "Jh", "10s", "9d", "8c", "7h", "6s", "5d", "4c", "3h", "2s", "Ad"]
ALL_BOOKS = [BLACK_BOOK, RED_BOOK, BLACK_BOOK2, RED_BOOK2] * 2   # the two packs exactly


def test_the_eight_test_books_are_exactly_the_two_packs():
    assert Counter(c for b in ALL_BOOKS for c in b) == Counter(c.label for c in full_deck(2))


def filled(cols: dict[int, list[str]], into: list[int], stock_size: int) -> State:
    """A 104-card state: ``cols`` as given, ``stock_size`` spare cards in the stock and the
    rest spread round-robin over the (empty) columns ``into``, two face down at each foot."""
    pool = Counter(c.label for c in full_deck(2))
    for p in cols.values():
        for t in p:
            pool[Card.parse(t.lstrip("~")).label] -= 1
    spare = [c for c, n in sorted(pool.items()) for _ in range(n)]
    random.Random(0).shuffle(spare)
    stock, rest = spare[:stock_size], spare[stock_size:]
    cols = {n: list(p) for n, p in cols.items()}
    for n in into:
        cols[n] = []
    for k, c in enumerate(rest):
        n = into[k % len(into)]
        cols[n].append(("~" if len(cols[n]) < 2 else "") + c)
    return position(cols, stock=["~" + c for c in stock])


# -------------------------------------------------------------- the deal

def test_first_layout_rows_as_the_source_describes():
    f = fact(GID, "initial-layout")["data"]
    seed = 12
    s = G.new(seed)
    deck = full_deck(2)
    random.Random(seed).shuffle(deck)
    assert len(s.areas[FAR]) == f["far_columns"] == 7
    assert len(s.areas[NEAR]) == f["near_columns"] == 6
    rows = f["face_down_rows"] + f["face_up_rows"]
    for n in range(1, f["columns"] + 1):
        pile = s.pile(loc(n))
        assert len(pile) == rows
        # row r of column n is the (13r + n)-th card off the shuffled pack
        assert [x.card for x in pile] == [deck[13 * r + n - 1] for r in range(rows)]
        assert [x.face_up for x in pile] == [False] * f["face_down_rows"] + [True] * f["face_up_rows"]
    stock = s.areas[STOCK][0]
    assert sum(len(p) for p in s.areas[FAR] + s.areas[NEAR]) == f["cards"]
    assert len(stock) == 104 - f["cards"] == fact(GID, "dealing-sessions")["data"]["stock_after_layout"]
    assert all(not x.face_up for x in stock)
    # the next card dealt (top of the stock) is the 53rd card off the pack
    assert stock[-1].card == deck[52]


def test_whole_game_fact_matches_the_deck():
    f = fact(GID, "whole-game")["data"]
    assert G.packs == f["packs"]
    assert len(G.deck()) == f["cards"] == f["book_length"] * f["books_to_win"]
    assert Counter(c.face for c in G.deck()) == Counter({(r, s): 2 for r in range(1, 14) for s in "shdc"})


def test_layout_has_two_rows_of_column_heads():
    layout = G.layout({})
    far, near = layout[FAR], layout[NEAR]
    assert (far.count, near.count) == (7, 6)
    far_heads = [far.position(i) for i in range(7)]
    near_heads = [near.position(i) for i in range(6)]
    # the six lie nearer the player (y grows towards the player) than the seven
    assert min(y for _, y in near_heads) > max(y for _, y in far_heads)
    # the columns fan towards the player
    assert far.fan[1] > 0 and near.fan[1] > 0
    # each near head lies between two far heads, so far columns can grow between them
    for i, (x, _) in enumerate(near_heads):
        assert far_heads[i][0] < x < far_heads[i + 1][0]
    assert layout[STOCK].kind == "stock"


# ----------------------------------------------------------- card moves

def test_a_black_seven_goes_on_a_red_eight():
    f = fact(GID, "single-card-move")["data"]
    s = position({1: ["~2h", "~3h", "Qd", f["card"]], 2: ["~4h", "~5h", "Jh", f["onto"]], 3: ["~4d", "Jc", "8c"]})
    m = Move.cards(loc(1), loc(2))
    assert (G.why_illegal(s, m) is None) is f["legal"]
    assert m in G.legal_moves(s)
    G.apply(s, m)
    assert cards_of(s, 2)[-2:] == [f["onto"], f["card"]]
    # same colour: refused, and the reason names what is needed and what is there
    s = position({1: ["~2h", "~3h", "Qd", "7s"], 3: ["~4d", "Jc", "8c"]})
    reason = G.why_illegal(s, Move.cards(loc(1), loc(3)))
    assert "red 8" in reason and "8♣" in reason and "7♠" in reason


def test_a_card_must_go_on_the_next_rank_up():
    s = position({1: ["~2h", "~3h", "Qd", "7s"], 2: ["~4d", "Jc", "9h"]})
    reason = G.why_illegal(s, Move.cards(loc(1), loc(2)))
    assert "red 8" in reason and "9♥" in reason


def test_a_joined_set_moves_whole_onto_a_black_nine():
    f = fact(GID, "set-move")["data"]
    s = position({1: ["~2h", "~3h", "Qd"] + f["set"], 2: ["~4d", "Jd", f["onto"]]})
    m = Move.cards(loc(1), loc(2), len(f["set"]))
    assert (G.why_illegal(s, m) is None) is f["legal"]
    assert G.legal_moves(s)[0] == m
    G.apply(s, m)
    assert cards_of(s, 2) == ["4d", "Jd", f["onto"], *f["set"]]
    assert cards_of(s, 1)[-1] == "Qd"


def test_married_cards_are_never_separated():
    s = position({1: ["~2h", "~3h", "Qd", "8h", "7s"], 2: ["~4d", "Jd", "8d"]})
    # the 7♠ alone could sit on the 8♦, but it is joined to the 8♥
    m = Move.cards(loc(1), loc(2), 1)
    reason = G.why_illegal(s, m)
    assert reason and "never separated" in reason and "8♥" in reason
    assert m not in G.legal_moves(s)
    assert all(not (mv.src == loc(1) and mv.count == 1) for mv in G.legal_moves(s))


def test_cards_not_in_sequence_are_not_a_set():
    # the 8♥ lies on a queen, so the set on column 1 is 8♥ 7♠ only
    s = position({1: ["~2h", "~3h", "Qd", "8h", "7s"], 2: ["~4d", "Jd", "9c"]})
    reason = G.why_illegal(s, Move.cards(loc(1), loc(2), 3))
    assert "only the top 2 cards" in reason and "Q♦" in reason
    # a set lying straight on face-down cards: the face-down card is not part of it
    s = position({1: ["~2h", "8h", "7s"], 2: ["~4d", "Jd", "9c"]})
    assert "face down" in G.why_illegal(s, Move.cards(loc(1), loc(2), 3))


def test_a_card_dealt_onto_its_senior_is_joined_to_it():
    # decision: the set is the run as it lies, however it came together
    s = position({1: ["~2h", "~3h", "Qd", "9c"], 2: ["~4d", "Jd", "9s"]}, stock_top=["8h"])
    G.apply(s, Move.act("deal"))        # the 8♥ is the first card dealt, to column 1
    assert cards_of(s, 1)[-2:] == ["9c", "8h"]
    assert "never separated" in G.why_illegal(s, Move.cards(loc(1), loc(2), 1))


# ---------------------------------------------------------- kings, aces, spaces

def test_only_kings_go_into_spaces_and_kings_only_into_spaces():
    f = fact(GID, "spaces-and-kings")["data"]
    s = position({1: ["~2h", "~3h", "Qd", "Ks"], 2: [], 3: ["~4d", "5c", "Qs"], 4: ["~5d", "6c", "Ah"],
                  5: ["~6d", "8s", "Kh", "Qc"]})
    k_space = Move.cards(loc(1), loc(2))
    assert (G.why_illegal(s, k_space) is None) is f["king_into_space"]
    q_space = Move.cards(loc(3), loc(2))
    assert (G.why_illegal(s, q_space) is None) is f["queen_into_space"]
    assert "only kings" in G.why_illegal(s, q_space)
    k_card = Move.cards(loc(1), loc(3))
    assert (G.why_illegal(s, k_card) is None) is f["king_onto_card"]
    assert "space" in G.why_illegal(s, k_card)
    # a king carries its set with it
    assert G.why_illegal(s, Move.cards(loc(5), loc(2), 2)) is None
    legal = G.legal_moves(s)
    assert Move.cards(loc(5), loc(2), 2) in legal and k_space in legal and q_space not in legal


def test_nothing_can_be_put_on_an_ace():
    f = fact(GID, "spaces-and-kings")["data"]
    assert f["card_onto_ace"] is False
    s = position({1: ["~2h", "~3h", "Qd", "Ah"], 2: ["~4d", "Jd", "As"], 3: ["~5d", "Jc", "2c"]})
    reason = G.why_illegal(s, Move.cards(loc(3), loc(1)))
    assert "ace" in reason
    assert all(m.dst not in (loc(1), loc(2)) for m in G.legal_moves(s))


def test_a_king_already_in_a_space_stays_there():
    s = position({1: ["Ks", "Qh"], 2: []})
    m = Move.cards(loc(1), loc(2), 2)
    assert "already lies in a space" in G.why_illegal(s, m)
    assert m not in G.legal_moves(s)


def test_emptying_face_up_cards_turns_the_top_hidden_card():
    s = position({1: ["~2h", "~3h", "9d", "8c"], 2: ["~4d", "Jd", "10s"]})
    # 9♦ 8♣ is a set on face-down cards; it moves onto the 10♠
    G.apply(s, Move.cards(loc(1), loc(2), 2))
    assert col(s, 1) == ["~2h", "3h"]
    s = position({1: ["3h", "9d", "8c"], 2: ["~4d", "Jd", "10s"]})
    G.apply(s, Move.cards(loc(1), loc(2), 2))
    assert col(s, 1) == ["3h"]


def test_moving_everything_off_a_column_makes_a_space():
    s = position({1: ["9d", "8c"], 2: ["~4d", "Jd", "10s"], 3: ["~5d", "Kc"]})
    G.apply(s, Move.cards(loc(1), loc(2), 2))
    assert col(s, 1) == []
    assert Move.cards(loc(3), loc(1)) in G.legal_moves(s)


# ------------------------------------------------------------------- books

def test_a_complete_book_moved_into_a_space_is_turned_down_and_dead():
    s = position({1: ["~2h", "~3h", *BLACK_BOOK], 2: [], 3: ["~4d", "Jd"]})
    G.apply(s, Move.cards(loc(1), loc(2), 13))
    assert col(s, 2) == ["~" + c for c in BLACK_BOOK]
    assert col(s, 1) == ["~2h", "3h"]
    # nothing goes on it, it never moves, and no card is dealt to it
    reason = G.why_illegal(s, Move.cards(loc(2), loc(3)))
    assert "completed book" in reason
    before = len(s.pile(loc(2)))
    G.apply(s, Move.act("deal"))
    assert len(s.pile(loc(2))) == before


def test_a_book_completed_in_place_in_a_space_is_turned_down_too():
    s = position({1: BLACK_BOOK[:-1], 2: ["~4d", "Jd", "As"]})
    G.apply(s, Move.cards(loc(2), loc(1)))
    assert col(s, 1) == ["~" + c for c in BLACK_BOOK]


def test_a_book_on_other_cards_stays_up_until_it_reaches_a_space():
    s = position({1: ["~2h", "~3h", *BLACK_BOOK[:-1]], 2: ["~4d", "Jd", "As"], 3: ["~5d", "Qd"]})
    G.apply(s, Move.cards(loc(2), loc(1)))
    assert col(s, 1)[-13:] == BLACK_BOOK
    assert G.validate(s) == []


# ---------------------------------------------------------------- dealing

def test_a_row_goes_to_every_column_in_order_from_column_one():
    s = G.new(5)
    stock = [x.card for x in s.areas[STOCK][0]]
    G.apply(s, Move.act("deal"))
    for n in range(1, 14):
        top = s.pile(loc(n))[-1]
        assert top.face_up and top.card == stock[-n]
    assert len(s.areas[STOCK][0]) == 52 - 13


def test_five_sessions_when_no_row_is_short():
    f = fact(GID, "dealing-sessions")["data"]
    s = G.new(9)
    sessions = 1
    while Move.act("deal") in G.legal_moves(s):
        G.apply(s, Move.act("deal"))
        sessions += 1
    assert sessions == f["at_least"]
    assert G.why_illegal(s, Move.act("deal")).startswith("the stock is empty")


def test_spaces_and_dead_columns_are_skipped_and_the_next_deal_starts_again_at_column_one():
    f = fact(GID, "dealing-sessions")["data"]
    # columns 2 and 9 are spaces, column 5 a dead book; fourteen cards are left in the stock
    live = [n for n in range(1, 14) if n not in (2, 5, 9)]
    s = filled({2: [], 9: [], 5: ["~" + c for c in BLACK_BOOK]}, live, 14)
    stock = s.areas[STOCK][0]
    nxt = [x.card for x in reversed(stock)]
    counts = {n: len(s.pile(loc(n))) for n in range(1, 14)}
    assert Move.act("deal") in G.legal_moves(s)
    G.apply(s, Move.act("deal"))
    for k, n in enumerate(live):
        assert s.pile(loc(n))[-1].card == nxt[k]
        assert len(s.pile(loc(n))) == counts[n] + 1
    assert s.pile(loc(2)) == [] and s.pile(loc(9)) == [] and len(s.pile(loc(5))) == 13
    assert len(stock) == 14 - len(live) == 4
    # the short row leaves four cards, and the next deal begins at column 1 again
    G.apply(s, Move.act("deal"))
    assert stock == []
    assert s.pile(loc(f["sixth_starts_at_column"]))[-1].card == nxt[len(live)]
    assert [s.pile(loc(n))[-1].card for n in live[:4]] == nxt[len(live):]
    assert G.validate(s) == []


def test_a_sixth_session_is_needed_when_a_space_stays_open():
    f = fact(GID, "dealing-sessions")["data"]
    # a full stock, with column 13 kept as a space and column 12 a dead book: 11 columns take cards
    s = filled({13: [], 12: ["~" + c for c in RED_BOOK]}, list(range(1, 12)), f["stock_after_layout"])
    sessions, rows = 1, []
    while Move.act("deal") in G.legal_moves(s):
        before = {n: len(s.pile(loc(n))) for n in range(1, 14)}
        G.apply(s, Move.act("deal"))
        rows.append([n for n in range(1, 14) if len(s.pile(loc(n))) > before[n]])
        sessions += 1
    assert sessions == f["at_least"] + 1
    assert [len(r) for r in rows] == [11, 11, 11, 11, 52 - 44]
    assert rows[-1] == list(range(f["sixth_starts_at_column"], 9))


def test_with_every_column_empty_or_dead_the_row_goes_into_the_spaces():
    cols = {n: [] for n in range(1, 14)}
    for n, b in zip((1, 2, 3, 4), (BLACK_BOOK, RED_BOOK, BLACK_BOOK, RED_BOOK)):
        cols[n] = ["~" + c for c in b]
    s = position(cols)
    assert len(s.areas[STOCK][0]) == 52
    assert Move.act("deal") in G.legal_moves(s)
    G.apply(s, Move.act("deal"))
    assert [len(s.pile(loc(n))) for n in range(1, 14)] == [13] * 4 + [1] * 9
    assert len(s.areas[STOCK][0]) == 43


def test_strict_dealing_option():
    opts = {"deal-only-when-blocked": True}
    # columns 5-8 take the spare cards as turned-down books; 4 and 9-13 are spaces
    s = position({1: ["~2h", "~3h", "Qd", "7s"], 2: ["~4h", "~5h", "Jh", "8h"], 3: ["~4d", "Kh"], 4: []},
                 options=opts)
    reason = G.why_illegal(s, Move.act("deal"))
    assert reason and "7♠" in reason and "blocked" in reason
    G.apply(s, Move.cards(loc(1), loc(2)))
    # left: the K♥ could go into any space, which does not hold back the deal
    spaces = [4, 9, 10, 11, 12, 13]
    assert G.legal_moves(s) == [Move.cards(loc(3), loc(n)) for n in spaces] + [Move.act("deal")]
    # a move that would empty a column (make a space) does not hold back the deal either
    s = position({1: ["9d", "8c"], 2: ["~4d", "Jd", "10s"], 3: ["~4h", "Qh"]}, options=opts)
    assert G.legal_moves(s)[0] == Move.cards(loc(1), loc(2), 2)
    assert G.why_illegal(s, Move.act("deal")) is None
    # without the option the player may deal at any time
    s = position({1: ["~2h", "~3h", "Qd", "7s"], 2: ["~4h", "~5h", "Jh", "8h"]})
    assert G.why_illegal(s, Move.act("deal")) is None


# ------------------------------------------------------------------- end

def test_completing_the_eighth_book_wins_and_ends_play():
    f = fact(GID, "whole-game")["data"]
    cols = {n: ["~" + c for c in ALL_BOOKS[n - 1]] for n in range(1, f["books_to_win"])}
    last = ALL_BOOKS[f["books_to_win"] - 1]
    cols[8] = last[:-1]
    cols[9] = [last[-1]]
    s = position(cols, stock=[])
    assert G.status(s) == "playing" and not G.is_won(s)
    assert G.legal_moves(s) == [Move.cards(loc(9), loc(8))]
    G.apply(s, Move.cards(loc(9), loc(8)))
    assert G.is_won(s) and G.status(s) == "won" and G.legal_moves(s) == []
    assert "won" in G.why_illegal(s, Move.cards(loc(8), loc(9)))


def test_eight_books_win_even_if_two_lie_on_each_other():
    cols = {n: ["~" + c for c in ALL_BOOKS[n - 1]] for n in range(1, 7)}
    cols[7] = ALL_BOOKS[6] + ALL_BOOKS[7]
    s = position(cols, stock=[])
    assert G.is_won(s) and G.legal_moves(s) == []


def test_stuck_when_the_stock_is_out_and_no_move_is_left():
    cols = {n: ["~" + c for c in ALL_BOOKS[n]] for n in range(1, 8)}
    last = ALL_BOOKS[0]                 # ends 3c 2d As
    cols[8] = last[:-2]
    cols[9] = ["~2d", "As"]             # the 2♦ the 3♣ needs is hidden under the A♠
    s = position(cols, stock=[])
    assert G.legal_moves(s) == [] and G.status(s) == "stuck" and not G.is_won(s)
    assert "stock is empty" in G.why_illegal(s, Move.act("deal"))


def test_random_playouts_always_finish():
    for seed in range(20):
        end, moves = playout(G.new(seed), random.Random(seed), max_moves=3000)
        assert len(moves) < 3000
        assert G.legal_moves(end) == [] and G.status(end) in ("won", "stuck")
        assert not end.areas[STOCK][0]


# ------------------------------------------------------------- bad input

def test_bad_moves_are_named():
    s = G.new(3)
    assert "no far column 9" in G.why_illegal(s, Move.cards(Loc(FAR, 8), Loc(NEAR, 0)))
    assert "stock" in G.why_illegal(s, Move.cards(Loc(STOCK, 0), Loc(FAR, 0)))
    assert "deal" in G.why_illegal(s, Move.act("redeal"))
    assert "no further words" in G.why_illegal(s, Move.act("deal", "2"))
    assert "own column" in G.why_illegal(s, Move.cards(Loc(FAR, 0), Loc(FAR, 0)))
    board = Board(s)
    with pytest.raises(MoveError):
        board.push("f9>n1")
    with pytest.raises(MoveError, match="stock"):
        board.push("stock1>far-column2")
    with pytest.raises(MoveError):
        board.push("fly")


def _turn(pile, j, up):
    t = pile[j].lstrip("~")
    pile[j] = t if up else "~" + t


@pytest.mark.parametrize("edit, words", [
    (lambda d: _turn(d["areas"][FAR][0], 2, False), "3 face-down cards"),
    (lambda d: (_turn(d["areas"][FAR][0], 0, True), _turn(d["areas"][FAR][0], 2, False)), "face-down card above"),
    (lambda d: d["areas"][STOCK][0].extend("~" + t for t in d["areas"][FAR][0][2:]) or d["areas"][FAR][0].__delitem__(slice(2, None)), "turned up"),
    (lambda d: _turn(d["areas"][STOCK][0], 0, True), "stock is held face down"),
    (lambda d: d["areas"][STOCK][0].pop(), "holds 103 cards"),
])
def test_impossible_states_are_named(edit, words):
    data = G.new(6).to_json()
    edit(data)
    with pytest.raises(StateError, match=words):
        State.from_json(data)


def test_a_turned_down_book_must_be_a_book():
    cols = {1: ["~" + c for c in BLACK_BOOK]}
    good = position(cols)
    data = good.to_json()
    pile = data["areas"][FAR][0]
    pile[3], pile[4] = pile[4], pile[3]
    with pytest.raises(StateError, match="turned-down book"):
        State.from_json(data)


def test_too_many_cards_in_the_stock_is_named():
    with pytest.raises(StateError, match="stock holds 53 cards"):
        filled({}, list(range(1, 14)), 53)
    assert len(filled({}, list(range(1, 14)), 52).areas[STOCK][0]) == 52


# ------------------------------------------------------------ unknown cards

def test_unknown_cards_never_crash_and_are_never_moved():
    s = G.observation(G.new(8))
    G.legal_moves(s)
    # a column whose set cannot be told apart from the unreadable card under it
    s = position({1: ["~2h", "?", "8h", "7s"], 2: ["~4d", "Jd", "9c"]}, )
    assert all(m.src != loc(1) for m in G.legal_moves(s))
    assert "cannot be read" in G.why_illegal(s, Move.cards(loc(1), loc(2), 2))
    # an unreadable top card is neither moved nor built on
    s = position({1: ["~2h", "?"], 2: ["~4d", "Jd", "9c"], 3: ["~5d", "8h"]})
    assert all(loc(1) not in (m.src, m.dst) for m in G.legal_moves(s))


def test_turning_up_an_unknown_card_leaves_it_unknown():
    s = position({1: ["~", "~", "9d", "8c"], 2: ["~4d", "Jd", "10s"]})
    G.apply(s, Move.cards(loc(1), loc(2), 2))
    assert col(s, 1) == ["~", "?"]
    assert G.validate(s) == []
    s = G.observation(G.new(4))
    G.apply(s, Move.act("deal"))
    assert all(s.pile(loc(n))[-1].token() == "?" for n in range(1, 14))


def test_state_json_round_trip_and_describe_use_suit_symbols():
    s = position({1: ["~2h", "~3h", "Qd", "8h", "7s"], 2: ["~4d", "Jd", "9c"]})
    assert State.from_json(json.dumps(s.to_json())) == s
    words = G.describe(s, Move.cards(loc(1), loc(2), 2))
    assert "8♥" in words and "7♠" in words and "9♣" in words
    assert "deal a row" in G.describe(s, Move.act("deal"))


def test_short_notation_and_card_names_are_understood():
    s = position({1: ["~2h", "~3h", "Qd", "7s"], 2: ["~4h", "~5h", "Jh", "8h"]})
    board = Board(s)
    assert board.parse("f1>f2") == Move.cards(loc(1), loc(2))
    assert board.parse("7s>far-column2") == Move.cards(loc(1), loc(2))
    s = position({8: ["~2h", "~3h", "Qd", "7s"], 13: ["~4h", "~5h", "Jh", "8h"]})
    assert Board(s).parse("n1>n6") == Move.cards(loc(8), loc(13)) and G.why_illegal(s, Move.cards(loc(8), loc(13))) is None
