"""Whitmore Jones's Interregnum tip (when to build, when to hold back) on hand-built positions."""
from __future__ import annotations

from advisor.advice import advise
from advisor.engine import Loc, Move, State, get_game
from advisor.tips import interregnum as tips

G = get_game("interregnum")
# Top-row fillers whose next ranks (6, 10, J, J, A, A) lie nowhere in these lowest rows.
FILL_TOP = ["5c", "9h", "10d", "10c", "Kc", "Ks"]


def position(top: list[str], bottom: list[list[str]], inter=None, stock: int = 80) -> State:
    return State.from_json({"game": "interregnum", "areas": {
        "top": [[c] for c in top], "interregnum": inter or [[] for _ in range(8)],
        "bottom": bottom, "stock": [["~"] * stock]}})


def run(state: State):
    return advise(state, search=False)


def test_of_two_fives_build_the_one_that_frees_a_useful_card():
    # packet 1 (under the 4♠) wants a five; packet 2 (under the 8♥) wants a nine.
    # 5♦ lies on the 9♣, 5♠ lies on the 7♥: only one five can go, and only the 5♦ frees a card that builds.
    s = position(["4s", "8h"] + FILL_TOP,
                 [["9c", "5d"], ["7h", "5s"], ["2c"], ["2d"], ["3h"], ["3c"], ["4h"], ["4d"]], stock=72)
    a = run(s)
    top = a.suggestions[0]
    assert top.move == "bottom1>interregnum1" and top.rule == "build-or-hold-back"
    assert "builds 2 cards" in top.reason
    assert a.panels["interregnum-plan"]["plan"] == ["bottom1>interregnum1", "bottom1>interregnum2"]
    holds = [d for d in a.dangers if d.kind == "hold-back"]
    assert [(d.where, d.card) for d in holds] == [("bottom2", "5s")]
    assert "only 1 build" in holds[0].reason and "against 2" in holds[0].reason
    assert any("do not deal yet" in n for n in a.notes)


def test_order_matters_when_one_build_changes_what_a_packet_wants():
    # Packet 1 (under the A♣) wants a two. The 2♥ lies on the 3♦; the 2♠ lies on nothing useful (the K♥).
    # Building 2♥ first frees 3♦, which goes next on the same packet; then the 2♠ is no longer wanted.
    s = position(["Ac", "8h"] + FILL_TOP,
                 [["3d", "2h"], ["Kh", "2s"], ["9d"], ["9s"], ["Qh"], ["Qd"], ["8c"], ["8d"]], stock=72)
    a = run(s)
    assert a.suggestions[0].move == "bottom1>interregnum1"
    # 9♦ and 9♠ both fit under the 8♥ but one after the other only one can: each plan builds 3
    assert a.panels["interregnum-plan"]["builds_before_deal"] == 3
    assert [d.card for d in a.dangers if d.kind == "hold-back"] == ["2s"]


def test_crown_first_and_deal_only_when_nothing_builds():
    packet = ["Kh", "Ah", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "10h", "Jh"]
    inter = [[] for _ in range(8)]
    inter[0] = packet
    s = position(["Qs", "8h"] + FILL_TOP, [["2c"], ["2d"], ["3h"], ["3c"], ["4h"], ["4d"], ["7c"], ["7d"]],
                 inter, stock=72)
    a = run(s)
    assert [x.move for x in a.suggestions] == ["top1>interregnum1", "deal"]
    assert a.suggestions[0].rule == "crown"
    assert not a.dangers


def test_no_advice_to_deal_when_the_stock_is_empty():
    s = position(["Qs", "8h"] + FILL_TOP, [["2c"], ["2d"], ["3h"], ["3c"], ["4h"], ["4d"], ["7c"], ["7d"]], stock=0)
    a = run(s)
    assert a.suggestions == [] and G.status(s) == "stuck"


def test_unknown_cards_in_the_lowest_row_are_not_planned_with():
    s = position(["4s", "8h"] + FILL_TOP,
                 [["?", "5d"], ["7h", "?"], ["2c"], ["2d"], ["3h"], ["3c"], ["4h"], ["4d"]], stock=72)
    r = tips.plan_builds(s)
    assert r["built"] == 1 and r["plan"] == [(0, 0)]


def test_the_plan_is_exhaustive_on_a_real_deal():
    s = G.new(21)
    r = tips.plan_builds(s)
    assert r["exhaustive"]
    # following the plan builds exactly as many cards as it promised
    for i, j in r["plan"]:
        m = Move.cards(Loc("bottom", i), Loc("interregnum", j))
        assert G.why_illegal(s, m) is None
        G.apply(s, m)
    assert tips.plan_builds(s)["built"] == 0
