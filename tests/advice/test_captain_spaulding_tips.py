"""Captain Spaulding tip (through the centre column) on hand-built positions."""
from __future__ import annotations

from advisor.advice import advise
from advisor.engine import State

GID = "captain-spaulding"
ACES = [["As:1"], ["Ah:1"], ["Ad:1"], ["Ac:1"]]
KINGS = [["Ks:1"], ["Kh:1"], ["Kd:1"], ["Kc:1"]]


def position(columns, aces=ACES, kings=KINGS) -> State:
    cols = list(columns) + [[] for _ in range(9 - len(columns))]
    return State.from_json({"game": GID, "areas": {"aces": aces, "kings": kings, "column": cols}})


def run(state):
    return advise(state, search=False)


def test_out_of_line_card_goes_to_the_empty_centre():
    # The queen in column 2 fits every king pile but lies under aces 2; the centre column is empty.
    s = position([["9c:1"], ["5d:1", "Qh:2"], ["7s:1"], ["8s:2"], [], ["6h:1"], ["9d:2"], ["4c:2"], ["Jh:1"]])
    a = run(s)
    top = a.suggestions[0]
    assert (top.move, top.rule, top.score) == ("column2>column5", "through-the-centre", 40)
    assert "Q♥" in top.reason and "kings 1 or kings 2 or kings 3 or kings 4" in top.reason
    assert a.dangers == []


def test_out_of_line_card_goes_to_the_empty_column_under_its_sequence():
    # The 2 in column 7 fits aces 3 (only); the centre is occupied, column 3 is empty.
    s = position([["9c:1"], ["5d:1"], [], ["8s:2"], ["Jd:1"], ["6h:1"], ["9d:2", "2c:2"], ["4c:2"], ["Jh:1"]],
                 aces=[["As:1", "2s:1"], ["Ah:1", "2h:1"], ["Ad:1"], ["Ac:1", "2d:1"]])
    a = run(s)
    assert [(x.move, x.score) for x in a.suggestions] == [("column7>column3", 35)]
    assert "aces 3" in a.suggestions[0].reason


def test_out_of_line_card_is_flagged_when_no_place_is_free():
    s = position([["9c:1"], ["5d:1"], ["10h:1"], ["8s:2"], ["Jd:1"], ["6h:1"], ["9d:2", "2c:2"], ["4c:2"], ["Jh:1"]],
                 aces=[["As:1", "2s:1"], ["Ah:1", "2h:1"], ["Ad:1"], ["Ac:1", "2d:1"]])
    a = run(s)
    assert a.suggestions == []
    [d] = a.dangers
    assert (d.where, d.depth, d.card, d.kind, d.rule) == ("column7", 1, "2c", "out-of-line", "through-the-centre")
    assert "aces 3" in d.reason and "column 3" in d.reason


def test_in_line_and_centre_cards_are_not_flagged():
    # column 1's 2 is in line with aces 1; the centre card may go anywhere already
    s = position([["9c:1", "2s:2"], ["5d:1"], ["10h:1"], ["8s:2"], ["2h:2"], ["6h:1"], ["9d:2"], ["4c:2"], ["Jh:1"]])
    a = run(s)
    assert a.suggestions == [] and a.dangers == []
