"""Captain Spaulding (Parlett, Original Patience Games): rules tests from the text."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from advisor.cards import RANK_LABEL, Card, full_deck, parse_rank
from advisor.catalogue import fact
from advisor.engine import Board, Loc, Move, MoveError, State, StateError, get_game

GID = "captain-spaulding"
G = get_game(GID)


def position(aces, kings, columns) -> State:
    """A hand-built state: piles written as lists of card tokens, bottom first."""
    cols = list(columns) + [[] for _ in range(9 - len(columns))]
    return State.from_json({"game": GID, "areas": {"aces": aces, "kings": kings, "column": cols}})


def ace_run(top: int, suit="s", copy=1) -> list[str]:
    return [f"{RANK_LABEL[r]}{suit}:{copy}" for r in range(1, top + 1)]


def king_run(bottom: int, suit="h", copy=1) -> list[str]:
    return [f"{RANK_LABEL[r]}{suit}:{copy}" for r in range(13, bottom - 1, -1)]


BASE_ACES = [["As:1"], ["Ah:1"], ["Ad:1"], ["Ac:1"]]
BASE_KINGS = [["Ks:1"], ["Kh:1"], ["Kd:1"], ["Kc:1"]]


class Rigged:
    """Stands in for random.Random: the 'shuffle' puts the pack in a chosen order."""

    def __init__(self, order):
        self.order = order

    def shuffle(self, deck):
        assert Counter(deck) == Counter(self.order)
        deck[:] = self.order


def rigged_deal(front: list[str]) -> State:
    """Deal with the named cards first (after the top-row aces and kings), then the rest in pack order."""
    front_cards = [Card.parse(t) for t in front]
    rest = [c for c in full_deck(2) if c not in front_cards]
    return G.deal(Rigged(front_cards + rest), {})


# ------------------------------------------------------------------ the source's facts

def test_top_row_fact():
    f = fact(GID, "top-row")["data"]
    s = G.new(1)
    assert [p[0].card.rank for p in s.areas["aces"]] == [parse_rank(r) for r in f["left"]]
    assert [p[0].card.rank for p in s.areas["kings"]] == [parse_rank(r) for r in f["right"]]
    layout = G.layout({})
    # the gap: kings start f["gap"] card places after the last ace, one step further than a neighbour would
    last_ace = layout["aces"].position(3)[0]
    first_king = layout["kings"].position(0)[0]
    step = layout["aces"].step[0]
    assert first_king - last_ace == pytest.approx(step * (f["gap"] + 1))


def test_rows_of_nine_fact_and_vertical_lines():
    f = fact(GID, "rows-of-nine")["data"]
    layout = G.layout({})
    assert layout["column"].count == f["width"]
    xs = lambda area, n: [round(layout[area].position(i)[0], 6) for i in range(n)]
    cols = xs("column", 9)
    assert xs("aces", 4) == [cols[c - 1] for c in f["under_aces"]]
    assert xs("kings", 4) == [cols[c - 1] for c in f["under_kings"]]
    assert cols[f["centre"] - 1] not in xs("aces", 4) + xs("kings", 4)


def test_sequences_fact():
    f = fact(GID, "sequences")["data"]
    assert G.packs == f["packs"] and len(G.deck()) == f["cards"]
    # Complete sequences straight from the fact, suits mixed (pack 1 for the aces, pack 2 for the kings):
    aces = [[f"{r}{'shdc'[(i + j) % 4]}:1" for j, r in enumerate(f["ace_sequence"])] for i in range(4)]
    kings = [[f"{r}{'shdc'[(i + j) % 4]}:2" for j, r in enumerate(f["king_sequence"])] for i in range(4)]
    won = position(aces, kings, [])
    assert won.card_count() == f["cards"] and G.is_won(won) and G.legal_moves(won) == []
    # the same cards in the wrong direction are impossible
    with pytest.raises(StateError, match="should be"):
        position(kings, aces, [])


def test_pictured_deal_card_count():
    """The source's pictured deal built 11 cards during the deal; find such a deal and check its columns."""
    built = fact(GID, "pictured-deal")["data"]["built_during_deal"]
    for seed in range(200):
        s = G.new(seed)
        if sum(len(p) - 1 for a in ("aces", "kings") for p in s.areas[a]) == built:
            break
    else:
        pytest.fail("no seed in 0..199 builds exactly 11 cards during the deal")
    dealt = 104 - 8 - built
    full_rows, extra = divmod(dealt, 9)
    assert [len(p) for p in s.areas["column"]] == [full_rows + (i < extra) for i in range(9)]


# ------------------------------------------------------------------ the deal

def test_deal_top_row_and_rows_of_nine():
    s = G.new(5)
    assert all(p[0].card.rank == 1 for p in s.areas["aces"])
    assert all(p[0].card.rank == 13 for p in s.areas["kings"])
    assert all(slot.face_up for _, _, slot in s.slots())
    lens = [len(p) for p in s.areas["column"]]
    assert max(lens) - min(lens) <= 1 and lens == sorted(lens, reverse=True)


def test_deal_builds_in_line_and_deals_the_next_card_in_its_place():
    # First cards dealt: column 1 gets 2s (fits aces 1) -> built; then 3h (fits aces 1 now) -> built;
    # then 9c stays in column 1. Column 2 gets 2d, which fits aces 2 -> built, then 5c stays.
    s = rigged_deal(["As:1", "Ah:1", "Ad:1", "Ac:1", "Ks:1", "Kh:1", "Kd:1", "Kc:1",
                     "2s:1", "3h:1", "9c:1", "2d:1", "5c:1"])
    # (later cards in the pack order may build on after these)
    assert [str(c.card) for c in s.areas["aces"][0]][:3] == ["As:1", "2s:1", "3h:1"]
    assert [str(c.card) for c in s.areas["aces"][1]][:2] == ["Ah:1", "2d:1"]
    assert str(s.areas["column"][0][0].card) == "9c:1"
    assert str(s.areas["column"][1][0].card) == "5c:1"


def test_deal_does_not_build_out_of_line():
    # A 2 due in column 2 fits aces 1 too, but it is built on aces 2, in its own line;
    # a queen due in column 3 fits every king pile but none in its own line: it stays in the column.
    s = rigged_deal(["As:1", "Ah:1", "Ad:1", "Ac:1", "Ks:1", "Kh:1", "Kd:1", "Kc:1",
                     "9c:1", "2d:1", "7s:1", "Qh:1", "6d:1"])
    assert [str(x.card) for x in s.areas["aces"][1]][:2] == ["Ah:1", "2d:1"]
    assert "2d:1" not in [str(x.card) for x in s.areas["aces"][0]]
    assert [str(p[0].card) for p in s.areas["column"][:4]] == ["9c:1", "7s:1", "Qh:1", "6d:1"]


def test_deal_centre_card_builds_wherever_it_fits():
    # Columns 1-4 get 9c 7s 8h 6d (no fit); the centre card, a queen, fits the kings only -> built there.
    s = rigged_deal(["As:1", "Ah:1", "Ad:1", "Ac:1", "Ks:1", "Kh:1", "Kd:1", "Kc:1",
                     "9c:1", "7s:1", "8h:1", "6d:1", "Qh:1", "10c:1"])
    assert [str(x.card) for x in s.areas["kings"][0]][:2] == ["Ks:1", "Qh:1"]
    assert s.areas["column"][4][0].card == Card.parse("10c:1")


def test_deal_holds_every_card_once():
    s = G.new(9)
    assert Counter(s.known_cards()) == Counter(G.deck())


# ------------------------------------------------------------------ play

def test_positional_building_restriction_in_play():
    # aces 1 wants a 2, aces 2 wants a 3. A 2 at the foot of column 2 may not go to aces 1.
    s = position([["As:1"], ["Ah:1", "2h:1"], ["Ad:1"], ["Ac:1"]], BASE_KINGS,
                 [["9c:1"], ["2s:1"], ["3d:1"]])
    b = Board(s)
    reason = b.why_illegal("column2>aces1")
    assert reason and "own column" in reason and "aces 2" in reason
    # the 3 in column 3 is in line with aces 3 (wants a 2): not with aces 2
    assert b.why_illegal("column3>aces2") is not None
    assert "2♠" in b.why_illegal("column2>aces2") or "3" in b.why_illegal("column2>aces2")
    legal = {str(m) for m in b.legal_moves}
    assert "column2>aces1" not in legal and "column3>aces2" not in legal


def test_in_line_building_from_each_side():
    s = position(BASE_ACES, [["Ks:1"], ["Kh:1"], ["Kd:1"], ["Kc:1", "Qd:1"]],
                 [["9c:1", "2s:2"], [], [], [], [], [], [], [], ["5h:1", "Jd:2"]])
    b = Board(s)
    assert b.why_illegal("column1>aces1") is None
    assert b.why_illegal("column9>kings4") is None
    assert b.why_illegal("column9>kings1") is not None   # kings 1 wants a Q, and it is out of line anyway
    b.push("column1>aces1")
    b.push("column9>kings4")
    assert [str(x.card) for x in b.state.areas["kings"][3]] == ["Kc:1", "Qd:1", "Jd:2"]


def test_centre_column_card_goes_on_any_sequence():
    s = position([["As:1", "2s:1"], ["Ah:1", "2d:1"], ["Ad:1"], ["Ac:1"]],
                 [["Ks:1"], ["Kh:1"], ["Kd:1", "Qs:1", "Jh:1", "10h:1"], ["Kc:1"]],
                 [["8c:1"], ["8d:1"], ["8h:1"], ["8s:1"], ["3c:1"]])
    b = Board(s)
    legal = {str(m) for m in b.legal_moves}
    assert {"column5>aces1", "column5>aces2"} <= legal
    assert "column5>aces3" not in legal
    assert "3" in b.why_illegal("column5>aces3") and "2" in b.why_illegal("column5>aces3")
    assert b.why_illegal("column5>kings3") is not None


def test_packing_one_rank_either_way_any_suit_changing_direction():
    s = position(BASE_ACES, BASE_KINGS, [["5c:1", "6d:1"], ["7s:1"], ["5h:2"], ["Qs:1"], ["Kd:2"], ["As:2"]])
    b = Board(s)
    assert b.why_illegal("column2>column1") is None          # 7 on 6: up
    assert b.why_illegal("column3>column1") is None          # 5 on 6: down, any suit
    b.push("column2>column1")                                 # column 1: 5 6 7
    # after going up with the 7, the column may turn down again: a 6 on the 7
    s2 = position(BASE_ACES, BASE_KINGS, [["5c:1", "6d:1", "7s:1"], ["6h:2"]])
    assert Board(s2).why_illegal("column2>column1") is None
    reason = b.why_illegal("column4>column1")                 # Q on 7
    assert reason and "a J or a K" in reason and "7♠" in reason
    assert "a 6 or an 8" in b.why_illegal("column1>column4")         # 7 on Q
    # no wrapping: a king is not next to an ace
    assert b.why_illegal("column5>column6") is not None
    assert b.why_illegal("column6>column5") is not None


def test_one_card_at_a_time():
    s = position(BASE_ACES, BASE_KINGS, [["5c:1", "6d:1"], ["7s:1"], []])
    b = Board(s)
    reason = b.why_illegal("column1x2>column3")
    assert reason == "only one card may be moved at a time"
    assert all(m.count == 1 for m in b.legal_moves)


def test_a_space_takes_any_exposed_card_and_keeps_its_position():
    s = position([["As:1", "2s:1"], ["Ah:1"], ["Ad:1"], ["Ac:1"]], BASE_KINGS,
                 [["9c:1", "Jh:1"], ["3d:1"], [], ["Qc:1"], []])
    b = Board(s)
    assert b.why_illegal("column1>column3") is None
    assert b.why_illegal("column1>column5") is None
    # the 3 in column 2 is out of line with aces 1 ...
    assert b.why_illegal("column2>aces1") is not None
    # ... moved into the empty centre column it may go anywhere
    b.push("column2>column5")
    assert b.why_illegal("column5>aces1") is None
    # a queen moved into the emptied column 3 is in line with aces 3 only, not with the kings
    b.push("column4>column3")
    assert b.why_illegal("column3>kings1") is not None


def test_built_cards_stay_put_and_actions_are_refused():
    s = position([["As:1", "2s:1"], ["Ah:1"], ["Ad:1"], ["Ac:1"]], BASE_KINGS, [["3c:1"], []])
    b = Board(s)
    assert "foot of a column" in b.why_illegal(Move.cards(Loc("aces", 0), Loc("column", 1)))
    assert "deal" in b.why_illegal(Move.act("deal"))


def test_nearly_won_position_is_won_after_the_last_move():
    aces = [ace_run(13, s, 1) for s in "shdc"]
    kings = [king_run(1, s, 2) for s in "shd"] + [king_run(2, "c", 2)]
    s = position(aces, kings, [[], [], [], [], [], [], [], [], ["Ac:2"]])
    b = Board(s)
    assert b.status() == "playing"
    assert [str(m) for m in b.legal_moves] == ["column9>kings4"] + [f"column9>column{i}" for i in range(1, 9)]
    b.push("column9>kings4")
    assert G.is_won(b.state) and b.status() == "won" and b.legal_moves == []


def test_stuck_when_nothing_moves():
    s = position(BASE_ACES, BASE_KINGS, [["9c:1"], ["5d:1"], ["Jh:1"], ["7s:1"], ["3c:1"], ["9d:1"],
                                         ["5h:2"], ["Js:2"], ["7d:2"]])
    assert G.legal_moves(s) == [] and G.status(s) == "stuck"


# ------------------------------------------------------------------ bad input and partial observations

def test_unknown_cards_do_not_crash():
    data = {"game": GID, "areas": {"aces": [["As", "?"], ["Ah"], ["Ad"], ["Ac"]],
                                   "kings": [["Ks"], ["Kh"], ["Kd"], ["Kc"]],
                                   "column": [["?"], ["3c"], ["9d", "?"], ["2h"], ["2c"], [], [], [], []]}}
    s = State.from_json(data)
    moves = {str(m) for m in G.legal_moves(s)}
    assert "column1>column6" not in moves and "column3>column6" not in moves
    assert "column2>aces1" not in moves        # aces 1's top card is unreadable
    assert "column4>aces4" in moves
    assert "not known" in G.why_illegal(s, Move.cards(Loc("column", 0), Loc("column", 5)))
    assert "not known" in G.why_illegal(s, Move.cards(Loc("column", 4), Loc("aces", 0)))
    assert "not known" in G.why_illegal(s, Move.cards(Loc("column", 1), Loc("column", 2)))


@pytest.mark.parametrize("areas, words", [
    ({"aces": [["As", "3s"], ["Ah"], ["Ad"], ["Ac"]]}, "should be a 2"),
    ({"kings": [["Ks", "Jd"], ["Kh"], ["Kd"], ["Kc"]]}, "should be a Q"),
    ({"aces": [[], ["Ah"], ["Ad"], ["Ac"]]}, "aces 1 is empty"),
    ({"column": [["~5c"], [], [], [], [], [], [], [], []]}, "face-down"),
])
def test_impossible_states_are_named(areas, words):
    data = {"game": GID, "areas": {"aces": [["As"], ["Ah"], ["Ad"], ["Ac"]],
                                   "kings": [["Ks"], ["Kh"], ["Kd"], ["Kc"]], **areas}}
    with pytest.raises(StateError, match=words):
        State.from_json(data)


def test_bad_moves_are_named():
    b = Board(G.new(3))
    with pytest.raises(MoveError, match="no area"):
        b.parse("pile3>column1")
    assert "no column 12" in b.why_illegal(Move.cards(Loc("column", 11), Loc("column", 0)))
    empty = position(BASE_ACES, BASE_KINGS, [["5c:1"]])
    assert "column 2 is empty" in G.why_illegal(empty, Move.cards(Loc("column", 1), Loc("column", 0)))


def test_random_playout_is_quick_and_ends():
    from advisor.engine import playout
    end, moves = playout(G.new(21), random.Random(21))
    assert G.status(end) in {"won", "stuck", "playing"}
    assert Counter(end.known_cards()) == Counter(G.deck())


def test_depth_under_a_sequence_follows_from_its_top_card():
    s = position([ace_run(5)] + BASE_ACES[1:], [king_run(9, "c", 2)] + BASE_KINGS[1:], [["6d:2"], [], [], [], [], ["8c:2"]])
    assert G.depth_under(s, Loc("aces", 0), s.areas["aces"][0][-1].card) == 4
    assert G.depth_under(s, Loc("kings", 0), s.areas["kings"][0][-1].card) == 4
    assert G.depth_under(s, Loc("column", 0), Card.parse("6d")) is None
    # only the top cards seen: the sequences still take the next card
    seen = State.from_json({"game": GID, "areas": {
        "aces": [["?", "?", "?", "?", "5s"], ["Ah"], ["Ad"], ["Ac"]],
        "kings": [["?", "?", "?", "?", "9h"], ["Kh"], ["Kd"], ["Kc"]],
        "column": [["6d"], [], [], [], [], ["8c"], [], [], []]}})
    assert G.why_illegal(seen, Move.cards(Loc("column", 0), Loc("aces", 0))) is None
    assert G.why_illegal(seen, Move.cards(Loc("column", 5), Loc("kings", 0))) is None
