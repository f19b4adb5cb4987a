"""The Uncle Remus look-ahead (advisor/uncle_remus_plan.py and the tip book's look-ahead rule).

Hand-built positions, each with the plan a careful player would choose and why. The expected
moves come from the position, worked out by hand with the tips' aims (spaces, cards turned up,
same-suit building), not from running the code.
"""
from __future__ import annotations

import random

import pytest

from advisor import uncle_remus_plan as planner
from advisor.advice import advise
from advisor.engine import Slot, get_game

from test_uncle_remus_tips import book, position

G = get_game("uncle-remus")


@pytest.fixture(autouse=True)
def fresh_plans():
    planner.forget()
    yield
    planner.forget()


def top(state):
    return advise(state, search=False).suggestions[0]


def test_a_move_that_frees_a_space_comes_before_one_that_only_tidies():
    # The 4♣ could go onto the 5♦ at once, but then the 5♦ could never join the 6♠ (a mixed pair does not
    # move as one). Moving the 5♦ first empties column 1, and the 4♣ still follows onto it.
    s = position([["5d"], ["~", "6s"], ["Qd", "Jh", "4c"]], stock=44)
    sug = top(s)
    assert sug.move == "column1>column2" and sug.rule == "look-ahead"
    assert "makes one new space" in sug.reason
    plan = planner.plan_for(s)
    assert plan.notation == ["column1>column2", "column3>column2"]


def test_the_space_goes_to_the_card_with_fewer_face_down_cards_beneath():
    # Tip 8: the 7♥ lies on one face-down card, the Q♦ on three. Putting the 7♥ into the space turns up the
    # last face-down card of column 2; the queen would leave two still hidden.
    s = position([[], ["~", "7h"], ["~", "~", "~", "Qd"]], stock=44)
    sug = top(s)
    assert sug.move == "column2>column1"
    assert "turns up one face-down card" in sug.reason


def test_same_suit_is_preferred_to_another_suit():
    # The 8♥ can go on the 9♣ or on the 9♥; both turn up the card beneath it, and only the heart builds a book.
    s = position([["~", "~", "8h"], ["~", "9c"], ["~", "9h"]], stock=44)
    assert top(s).move == "column1>column3"


def test_a_book_is_put_aside():
    s = position([["~", *book("s")[:-1]], ["~", "3c", "As"], ["~", "2d"]], stock=4)
    sug = top(s)
    assert sug.move == "column2>column1"
    assert "puts one book aside" in sug.reason


def test_deal_only_when_no_plan_gains_anything():
    # Nothing can move: the 7♥ and the 9♠ have no senior on view and there is no space.
    s = position([["~", "7h"], ["~", "9s"]], stock=44)
    assert planner.plan_for(s) is None
    sug = top(s)
    assert sug.move == "deal" and sug.rule == "look-ahead"
    assert "deal" in sug.reason
    # the same with the 8♦ on view: it goes onto the 9♠ and turns up a card first
    s = position([["~", "7h"], ["~", "9s"], ["~", "8d"]], stock=44)
    assert top(s).move == "column3>column2"


def test_no_deal_advice_once_everything_is_dealt():
    s = position([["~", "7h"], ["~", "9s"]], stock=0)
    adv = advise(s, search=False)
    assert all(x.rule != "look-ahead" for x in adv.suggestions)
    assert any("game is over" in n for n in adv.notes)


def test_a_plan_is_followed_to_its_end_and_each_step_keeps_its_reason():
    s = position([["5d"], ["~", "6s"], ["Qd", "Jh", "4c"]], stock=44)
    first = top(s)
    G.apply(s, G.parse_move(s, first.move))
    second = top(s)
    assert second.move == "column3>column2"
    # the 4♣ leaves the J♥, which is not its senior, for the 5♦, which is
    assert "not its senior" in second.reason


@pytest.mark.parametrize("seed", [5, 11])
def test_the_advice_never_reads_face_down_cards_or_the_stock(seed):
    true = G.new(seed)
    other = true.copy()
    cols = other.areas["column"]
    downs = [(i, j) for i, p in enumerate(cols) for j, x in enumerate(p) if not x.face_up]
    hidden = [cols[i][j].card for i, j in downs] + [x.card for x in other.areas["stock"][0]]
    random.Random(seed).shuffle(hidden)
    for (i, j), c in zip(downs, hidden):
        cols[i][j] = Slot(c, False)
    other.areas["stock"][0] = [Slot(c, False) for c in hidden[len(downs):]]
    assert other.dumps() != true.dumps()
    a = [(x.move, x.reason) for x in advise(true, search=False).suggestions]
    planner.forget()
    b = [(x.move, x.reason) for x in advise(other, search=False).suggestions]
    assert a == b
    planner.forget()
    c = [(x.move, x.reason) for x in advise(G.observation(true), search=False).suggestions]
    assert a == c


def test_positions_with_the_columns_in_another_order_are_one_position():
    cols = planner.encode(position([["5d"], ["~", "6s"], ["Qd", "Jh", "4c"]], stock=44))
    swapped = (cols[1], cols[0]) + cols[2:]
    assert planner._key(cols) == planner._key(swapped)
    assert planner.score(cols, 0) == planner.score(swapped, 0)
