"""Poker Patience, Advanced and Serpent Poker (Whitmore Jones, New Games of Patience, 1911).

Every expected score below is worked out by hand from the book's tables
(seeds/poker-patience.toml, facts ordinary-table and advanced-table), never
taken from the code's output.
"""
from __future__ import annotations

from collections import Counter

import pytest

from advisor.cards import Card, full_deck
from advisor.catalogue import fact
from advisor.engine import Board, Loc, Move, MoveError, State, StateError, get_game
from advisor.games.poker_patience import (JOKER, line_hand, score_grid, score_line, score_square,
                                          square_lines)

G = get_game("poker-patience")
ORD = fact("poker-patience", "ordinary-table")["data"]
ADV = fact("poker-patience", "advanced-table")["data"]
COLS = "abcdefghi"


def cards(text: str) -> list:
    return [JOKER if t == "Jk" else Card.parse(t) for t in text.split()]


def make(placed: dict[str, str], *, turned: str | None = "?", pack: int = 20, discard=(), options=None,
         info=None) -> State:
    """A hand-built position: ``placed`` maps cells (e5) to cards."""
    areas = {col: [[] for _ in range(9)] for col in COLS}
    for cell, c in placed.items():
        areas[cell[0]][int(cell[1:]) - 1] = [c]
    areas["pack"] = [["~"] * pack]
    areas["turned"] = [[turned] if turned else []]
    areas["discard"] = [list(discard)]
    return State.from_json({"game": "poker-patience", "options": options or {}, "info": info or {}, "areas": areas})


def square(rows: list[str], origin: str = "a1") -> dict[str, str]:
    """Cells of a square given row by row, its top-left corner at ``origin``."""
    c0, r0 = COLS.index(origin[0]), int(origin[1:])
    out = {}
    for dr, row in enumerate(rows):
        for dc, c in enumerate(row.split()):
            out[f"{COLS[c0 + dc]}{r0 + dr}"] = c
    return out


# ------------------------------------------------------------ the tables

@pytest.mark.parametrize("hand, key", [
    ("5h 6h 7h 8h 9h", "straight-flush"),
    ("9s 9h 9d 9c Ks", "fours"),
    ("4c 5d 6s 7h 8c", "straight"),
    ("7c 7d 7s 8c 8d", "full-house"),
    ("Qc Qd Qs 2h 8c", "threes"),
    ("2c 6c 9c Jc Kc", "flush"),
    ("3c 3d 5s 5h Kc", "two-pairs"),
    ("Ac Ad 5s 9h Kc", "pair"),
])
def test_each_hand_of_the_ordinary_table(hand, key):
    assert score_line(cards(hand)) == ORD[key]


def test_the_tables_legible_figures():
    # the five figures of the ordinary table legible in the text
    assert [ORD[k] for k in ORD["legible"]] == [16, 10, 6, 3, 1]


@pytest.mark.parametrize("hand, key", [
    ("10s Js Qs Ks As", "royal-flush"),
    ("5h 6h 7h 8h 9h", "straight-flush"),
    ("9s 9h 9d 9c Ks", "fours"),
    ("4c 5d 6s 7h 8c", "straight"),
    ("7c 7d 7s 8c 8d", "full-house"),
    ("2c 6c 9c Jc Kc", "flush"),
    ("Qc Qd Qs 2h 8c", "threes"),
    ("3c 3d 5s 5h Kc", "two-pairs"),
    ("Ac Ad 5s 9h Kc", "pair"),
    ("Jk 9s 9h 9d 9c", "fives"),
])
def test_each_hand_of_the_advanced_table(hand, key):
    assert score_line(cards(hand), "advanced") == ADV[key]


def test_a_royal_flush_is_a_flush_sequence_in_the_ordinary_game():
    assert score_line(cards("10s Js Qs Ks As")) == ORD["straight-flush"] == 30


def test_nothing_scores_nothing():
    assert score_line(cards("2c 5d 9s Jh Kc")) == 0
    assert score_line(cards("2c 5c 9c Jc Kd")) == 0     # four clubs is no flush


def test_the_ace_is_high_or_low_never_in_the_middle():
    f = fact("poker-patience", "ace-in-sequences")["data"]
    suits = "shdcs"
    line = lambda ranks: [Card.parse(r + s) for r, s in zip(ranks, suits)]
    assert score_line(line(f["forbidden"])) == 0
    for ok in f["allowed"]:
        assert score_line(line(ok)) == ORD["straight"]
    # some players of Advanced Poker allow it in the middle
    wrap = fact("poker-patience", "ace-middle-variant")["data"]["sequence"]
    assert score_line(line(wrap), "advanced") == 0
    assert score_line(line(wrap), "advanced", ace_middle=True) == ADV["straight"]
    assert score_line(line(f["forbidden"]), ace_middle=True) == ORD["straight"]


def test_partial_lines_score_only_sets():
    assert score_line(cards("Kc Kd")) == 1
    assert score_line(cards("Kc Kd 5s 5h")) == 3
    assert score_line(cards("Kc Kd Ks")) == 6
    assert score_line(cards("2c 3c 4c 5c")) == 0          # no sequence or flush short of five


# -------------------------------------------------------------- the joker

@pytest.mark.parametrize("hand, key", [
    ("Jk 10s Js Qs Ks", "royal-flush"),      # as the ace of spades (as the nine it is only 25)
    ("Jk 2h 5h 9h Kh", "flush"),
    ("Jk 6s 6h 3d 9c", "threes"),
    ("Jk 6s 6h 3d 3c", "full-house"),
    ("Jk 4c 5d 7h 8c", "straight"),
])
def test_the_joker_takes_the_best_value(hand, key):
    assert score_line(cards(hand), "advanced") == ADV[key]


def test_the_joker_plays_two_parts():
    f = fact("poker-patience", "joker-two-parts")["data"]
    row = cards("2s 3s 4s 5s Jk")          # wants the six of spades: a flush sequence
    col = cards("Jh Jd Jc Jk 7c")          # wants a jack: fours
    assert line_hand(row, "advanced") == ("straight-flush", ADV["straight-flush"])
    assert line_hand(col, "advanced") == ("fours", ADV["fours"])
    assert f["column_as"] == "J" and f["row_as"] == "6s"
    # in one square, the same joker at the crossing
    g = [[None] * 5 for _ in range(5)]
    g[3] = cards("2s 3s 4s 5s Jk")
    for r, c in zip((0, 1, 2, 4), cards("Jh Jd Jc 7c")):
        g[r][4] = c
    # row 4: flush sequence 25; column 5: fours 20; other lines: single cards, nothing
    assert score_grid(g, "advanced") == 25 + 20


def test_without_fives_in_the_ordinary_table_four_and_the_joker_are_fours():
    assert score_line(cards("Jk 9s 9h 9d 9c")) == ORD["fours"]


# ------------------------------------------------------------ whole squares

SQUARE_A = ["2h 3h 4h 5h 6h",      # flush sequence 30
            "9s 9h 9d 9c Ks",      # fours 16
            "10c Jd Qs Kh Ac",     # straight 12
            "7c 7d 7s 8c 8d",      # full hand 10
            "3c 6c Jc 2c Qc"]      # flush 5
# columns: 2h 9s 10c 7c 3c / 3h 9h Jd 7d 6c / 4h 9d Qs 7s Jc / 5h 9c Kh 8c 2c / 6h Ks Ac 8d Qc: nothing
SQUARE_A_ORDINARY = 30 + 16 + 12 + 10 + 5

SQUARE_B = ["As Ah Ad 5c 5d",      # full hand: 10 ordinary, 12 advanced
            "Ks Kh 4c 4d 9s",      # two pairs: 3 / 3
            "Qs 2h 2d 2c 8h",      # threes: 6 / 5
            "Js 6h 6d 10c 3h",     # one pair: 1 / 1
            "10s 7h 8d 3c 4s"]     # nothing
# column a: As Ks Qs Js 10s, royal: 30 / 30; column b: Ah Kh 2h 6h 7h, flush: 5 / 8;
# columns c, d, e (Ad 4c 2d 6d 8d / 5c 4d 2c 10c 3c / 5d 9s 8h 3h 4s): nothing
SQUARE_B_ORDINARY = 10 + 3 + 6 + 1 + 0 + 30 + 5
SQUARE_B_ADVANCED = 12 + 3 + 5 + 1 + 0 + 30 + 8


def test_hand_made_squares_score_by_the_book():
    grid_a = [cards(r) for r in SQUARE_A]
    grid_b = [cards(r) for r in SQUARE_B]
    for g in (grid_a, grid_b):
        assert len({c for row in g for c in row}) == 25
    assert score_grid(grid_a) == SQUARE_A_ORDINARY == 73
    assert score_grid(grid_b) == SQUARE_B_ORDINARY == 55
    assert score_grid(grid_b, "advanced") == SQUARE_B_ADVANCED == 59


def test_a_complete_square_ends_the_game_with_its_score():
    s = make(square(SQUARE_B, "c3"), turned=None, pack=27, info={"last": "g7"})
    assert G.is_won(s) and G.legal_moves(s) == [] and G.status(s) == "won"
    assert score_square(s) == SQUARE_B_ORDINARY
    lines = {l["line"]: (l["hand"], l["points"]) for l in square_lines(s)}
    assert lines["column c"] == ("flush sequence", 30) and lines["row 5"] == ("threes", 6)
    adv = make(square(SQUARE_B, "c3"), turned=None, pack=27, options={"variant": "advanced"})
    assert score_square(adv) == SQUARE_B_ADVANCED


def test_the_last_card_completes_the_square():
    cells = square(SQUARE_A, "a1")
    last = cells.pop("e5")
    s = make(cells, turned=last, pack=26)
    assert not G.is_won(s)
    # a running score counts the sets already made: rows 1-4 and the four-card row 5 (3c 6c Jc 2c: nothing)
    assert score_square(s) == 30 + 16 + 12 + 10
    assert [str(m) for m in G.legal_moves(s)] == ["turned1>e5"]
    board = Board(s)
    board.push("Qc>e5")
    assert board.status() == "won" and score_square(board.state) == SQUARE_A_ORDINARY
    assert board.state.areas["turned"][0] == []


# ------------------------------------------------------------ placement

def test_the_first_card_goes_in_the_middle_then_anywhere_touching():
    s = G.new(1)
    assert [str(m) for m in G.legal_moves(s)] == ["turned1>e5"]
    assert "middle" in G.why_illegal(s, Move.cards(Loc("turned", 0), Loc("a", 0)))
    G.apply(s, G.legal_moves(s)[0])
    assert len(s.areas["turned"][0]) == 1, "the next card is turned at once"
    assert sorted(str(m.dst) for m in G.legal_moves(s)) == sorted(["d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"])


def test_a_card_must_touch_one_already_laid():
    s = make({"e5": "Kh", "f5": "2c"}, turned="7d")
    reason = G.why_illegal(s, G.parse_move(s, "7d>e7"))
    assert "does not touch" in reason
    assert G.why_illegal(s, G.parse_move(s, "7d>g6")) is None        # a corner touch is enough
    assert "already holds the K♥" in G.why_illegal(s, G.parse_move(s, "7d>e5"))


def test_the_square_must_end_five_by_five():
    s = make(square(["2c 3d 4h 5s 6c"], "e5"), turned="Kd")
    reason = G.why_illegal(s, G.parse_move(s, "Kd>d5"))
    assert "6 cards wide" in reason and "five by five" in reason
    assert G.why_illegal(s, G.parse_move(s, "Kd>e4")) is None
    targets = {str(m.dst) for m in G.legal_moves(s)}
    assert targets == {f"{c}{r}" for c in "efghi" for r in (4, 6)}


def test_only_the_turned_card_moves():
    s = make({"e5": "Kh"}, turned="7d")
    assert "stays where it is" in G.why_illegal(s, Move.cards(Loc("e", 4), Loc("e", 5)))
    assert "one at a time" in G.why_illegal(s, Move.cards(Loc("turned", 0), Loc("e", 5), 2))


def test_serpent_each_card_squarely_beside_the_last():
    opts = {"variant": "serpent"}
    s = make({"e5": "Kh", "f5": "2c"}, turned="7d", options=opts, info={"last": "f5"})
    assert sorted(str(m.dst) for m in G.legal_moves(s)) == ["f4", "f6", "g5"]
    reason = G.why_illegal(s, G.parse_move(s, "7d>e4"))      # touches the K♥ only
    assert "squarely" in reason and "2♣ at f5" in reason
    assert G.why_illegal(s, G.parse_move(s, "7d>g6")) is not None   # a corner of the 2♣ is not enough


def test_serpent_free_choice_when_the_last_card_is_hemmed_in():
    opts = {"variant": "serpent"}
    placed = {"e5": "Kh", "e4": "2c", "d5": "3c", "f5": "4c", "e6": "5c"}
    s = make(placed, turned="7d", options=opts, info={"last": "e5"})
    targets = {str(m.dst) for m in G.legal_moves(s)}
    assert {"d4", "f4", "d6", "f6", "e3", "c5", "g5", "e7"} <= targets     # anywhere touching
    # in a corner of a fixed five-by-five: a1 ... e5 spanned, last card at a1 with both sides taken
    corner = {"a1": "Kh", "b1": "2c", "a2": "3c", "b2": "4c", "c3": "5c", "d4": "6c", "e5": "8c"}
    s = make(corner, turned="7d", options=opts, info={"last": "a1"})
    targets = {str(m.dst) for m in G.legal_moves(s)}
    assert "c1" in targets and "b3" in targets and "f6" not in targets


def test_discards_only_in_advanced_and_five_at_most():
    s = make({"e5": "Kh"}, turned="7d")
    assert "Advanced Poker only" in G.why_illegal(s, G.parse_move(s, "turned1>discard1"))
    adv = {"variant": "advanced", "joker": "none"}
    four = make({"e5": "Kh"}, turned="7d", discard=["2c", "3c", "4c", "5c"], options=adv)
    assert G.why_illegal(four, G.parse_move(four, "turned1>discard1")) is None
    five = make({"e5": "Kh"}, turned="7d", discard=["2c", "3c", "4c", "5c", "6c"], options=adv)
    assert "all five discards" in G.why_illegal(five, G.parse_move(five, "turned1>discard1"))
    assert all(m.dst != Loc("discard", 0) for m in G.legal_moves(five))


def test_thirty_cards_at_most_are_drawn_in_advanced_poker():
    f = fact("poker-patience", "advanced-draw")["data"]
    s = G.new(9, {"variant": "advanced", "joker": "none"})
    drawn = 1
    while G.legal_moves(s):
        legal = G.legal_moves(s)
        discard = [m for m in legal if m.action == "move" and m.dst.area == "discard"]
        G.apply(s, discard[0] if discard else legal[0])
        drawn = 52 - len(s.areas["pack"][0])
    assert len(s.areas["discard"][0]) == f["discards"]
    assert drawn == f["drawn"]
    assert G.is_won(s)


def test_joker_in_the_pack_comes_up_and_is_laid_by_name():
    adv = {"variant": "advanced"}
    s = make({"e5": "Kh"}, turned=None, options=adv, info={"joker": "pack", "joker_deep": 0, "last": "e5"})
    assert [str(m) for m in G.legal_moves(s)] == ["turn"]
    G.apply(s, Move.act("turn"))
    assert s.info["joker"] == "turned" and s.areas["turned"][0] == []
    legal = [str(m) for m in G.legal_moves(s)]
    assert "joker f5" in legal and all(m.startswith("joker ") for m in legal)
    assert "joker is waiting" in G.why_illegal(s, Move.cards(Loc("turned", 0), Loc("f", 4)))
    board = Board(s)
    board.push("joker f5")
    assert board.state.info["joker_at"] == "f5" and len(board.state.areas["turned"][0]) == 1
    assert "already been laid" in board.why_illegal("joker f6")


def test_joker_in_hand_may_be_laid_at_any_time():
    s = make({"e5": "Kh"}, turned="7d", options={"joker": "in-hand"}, info={"last": "e5"})
    legal = [str(m) for m in G.legal_moves(s)]
    assert "turned1>f5" in legal and "joker f5" in legal
    G.apply(s, Move.act("joker", "f5"))
    assert s.areas["turned"][0][0].card == Card.parse("7d"), "the turned card still waits"
    assert s.info["last"] == "f5"


def test_the_joker_counts_in_the_running_score():
    s = make({"e5": "Kh", "f5": "Ks"}, turned="7d", options={"joker": "in-hand"}, info={"last": "f5"})
    assert score_square(s) == ORD["pair"]
    G.apply(s, Move.act("joker", "g5"))
    assert score_square(s) == ORD["threes"]


def test_a_joker_dealt_into_the_pack_is_hidden_from_the_player():
    s = G.new(4, {"variant": "advanced"})
    assert s.info["joker"] in ("pack", "turned")
    assert isinstance(s.info["joker_deep"], int) or s.info["joker"] == "turned"
    obs = G.observation(s)
    assert obs.info.get("joker_deep") is None
    assert State.from_json(obs.to_json()) == obs
    assert G.legal_moves(obs)


def test_the_deal_is_the_whole_pack_with_one_card_turned():
    s = G.new(2)
    assert Counter(c.face for c in s.known_cards()) == Counter(c.face for c in full_deck(1))
    assert len(s.areas["turned"][0]) == 1 and len(s.areas["pack"][0]) == 51
    assert not any(x.face_up for x in s.areas["pack"][0])


# ------------------------------------------------------- impossible, bad input

@pytest.mark.parametrize("placed, extra, words", [
    ({"e5": "Kh", "g7": "2c"}, {}, "touch no other card"),
    ({"a5": "Kh", "b5": "2c", "c5": "3c", "d5": "4c", "e5": "5c", "f5": "6c"}, {}, "five by five"),
    ({"e5": "Kh"}, {"discard": ["2c"]}, "only Advanced Poker allows discards"),
    ({"e5": "Kh"}, {"info": {"joker": "placed", "joker_at": "e6"}}, "without a joker"),
    ({"e5": "Kh"}, {"info": {"last": "e7"}}, "which is empty"),
    ({"e5": "Kh"}, {"info": {"last": 5}}, "must name a board cell"),
])
def test_impossible_positions_are_named(placed, extra, words):
    with pytest.raises(StateError, match=words):
        make(placed, **extra)


def test_joker_bookkeeping_is_checked():
    adv = {"variant": "advanced"}
    with pytest.raises(StateError, match="a card lies there"):
        make({"e5": "Kh"}, options=adv, info={"joker": "placed", "joker_at": "e5"})
    with pytest.raises(StateError, match="must be one of"):
        make({"e5": "Kh"}, options=adv, info={"joker": "hand"})
    with pytest.raises(StateError, match="both be waiting"):
        make({"e5": "Kh"}, turned="7d", options=adv, info={"joker": "turned"})
    with pytest.raises(StateError, match="option 'variant'"):
        make({"e5": "Kh"}, options={"variant": "strip"})


def test_unknown_cards_are_laid_without_a_crash():
    s = make({"e5": "?"}, turned="?")
    assert len(G.legal_moves(s)) == 8
    assert score_square(s) == 0
    obs = G.observation(G.new(6))
    G.apply(obs, G.legal_moves(obs)[0])
    # the face-up turned card was seen; the next one, turned from the unknown pack, is unreadable
    assert obs.areas["e"][4][0].card is not None and obs.areas["turned"][0][0].card is None


def test_bad_input_is_refused_in_words():
    board = Board(make({"e5": "Kh"}, turned="7d"))
    with pytest.raises(MoveError, match="rows 1 to 9"):
        board.push("turned1>e10")
    with pytest.raises(MoveError, match="without a joker"):
        board.push("joker f5")
    with pytest.raises(MoveError, match="no action"):
        board.push("shuffle")
    with pytest.raises(MoveError, match="a cell of the square"):
        board.push("turned1>pack1")
    j = Board(make({"e5": "Kh"}, turned="7d", options={"joker": "in-hand"}))
    with pytest.raises(MoveError, match="board cell"):
        j.push("joker z9")
    with pytest.raises(ValueError):
        score_line(cards("Jk Jk 2c"))


@pytest.mark.parametrize("options", [{"variant": "advanced"}, {"variant": "serpent"},
                                     {"variant": "advanced", "joker": "in-hand", "ace_middle": True},
                                     {"variant": "serpent", "joker": "in-pack"}])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_variants_play_out_to_a_complete_valid_square(options, seed):
    import json
    import random
    rng = random.Random(seed)
    s = G.new(seed, options)
    deck = Counter(str(x) for x in s.known_cards())
    while G.legal_moves(s):
        legal = G.legal_moves(s)
        assert len(set(legal)) == len(legal)
        m = rng.choice(legal)
        assert G.why_illegal(s, m) is None
        G.apply(s, m)
        assert Counter(str(x) for x in s.known_cards()) == deck
        assert G.validate(s) == []
        assert State.from_json(json.dumps(s.to_json())) == s
    assert G.is_won(s) and len(G.grid(s)) == 25
    placed_joker = s.info.get("joker") == "placed"
    assert sum(1 for col in COLS for p in s.areas[col] if p) == 25 - placed_joker


def test_a_square_first_seen_in_a_photo_knows_neither_the_joker_depth_nor_the_last_card():
    fresh = G.new(8, {"variant": "advanced"})
    fresh.info["last"] = "e5"
    info = G.photo_info(fresh)
    assert info["last"] is None and info.get("joker_deep") is None


def test_a_photo_cannot_tell_where_the_square_was_begun():
    # three cards in an L, 2 wide and 2 tall: it may grow 3 more cells every way, so on a 9 x 9 board
    # its left column lies in column d or e (4 or 5) and its top row in row 4 or 5
    s = make({"e5": "7h", "f5": "8h", "f6": "9c"}, info={"last": "f6"})
    moved = G.photo_equivalents(s)
    assert len(moved) == 2 * 2 - 1
    for other, where in moved:
        assert G.validate(other) == []
        assert sorted(str(c) for c in G.grid(other).values()) == sorted(str(c) for c in G.grid(s).values())
        # the same cards beside each other, and the same moves open (the square can grow alike)
        assert len(G.legal_moves(other)) == len(G.legal_moves(s))
        ec, er = where[("e", 4)]
        assert other.areas[ec][er][0].card == Card.parse("7h")
        assert other.info["last"] == f"{COLS[COLS.index(ec) + 1]}{er + 2}"
    assert {where[("e", 4)] for _, where in moved} == {("d", 3), ("d", 4), ("e", 3)}
    assert G.photo_equivalents(make({})) == []
    # a finished square may lie anywhere on the board
    full = make(square(["2h 3h 4h 5h 6h", "2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2s 3s 4s 5s 6s", "7h 7c 7d 7s 8h"],
                       origin="c3"), turned=None)
    assert len(G.photo_equivalents(full)) == 5 * 5 - 1
