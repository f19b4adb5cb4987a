"""Whitmore Jones's Interregnum tip (when to build, when to hold back) on hand-built positions."""
from __future__ import annotations

import random
from collections import Counter

from advisor.advice import advise
from advisor.cards import Card
from advisor.engine import Loc, Move, State, get_game
from advisor.tips import interregnum as tips

G = get_game("interregnum")
# Top-row fillers whose next ranks (6, 10, J, J, A, A) lie nowhere in these lowest rows.
FILL_TOP = ["5c", "9h", "10d", "10c", "Kc", "Ks"]


def position(top: list, bottom: list[list[str]], inter=None, stock: int = 80) -> State:
    return State.from_json({"game": "interregnum", "areas": {
        "top": [[c] if c else [] for c in top], "interregnum": inter or [[] for _ in range(8)],
        "bottom": bottom, "stock": [["~"] * stock]}})


def run(state: State):
    return advise(state, search=False)


TWO_FIVES = (["4s", "8h"] + FILL_TOP,
             [["9c", "5d"], ["7h", "5s"], ["2c"], ["2d"], ["3h"], ["3c"], ["4h"], ["4d"]])
BUILD_5D = [(0, 0), (0, 1)]      # 5♦ under the 4♠, which frees the 9♣ for the 8♥: two cards built
BUILD_5S = [(1, 0)]              # 5♠ under the 4♠: one card built, the 5♦ stays on the 9♣


def test_of_two_fives_the_one_that_does_better_in_the_futures_played_is_built():
    # Packet 1 (under the 4♠) wants a five, packet 2 (under the 8♥) a nine; only one five can go.
    # Building the 5♦ frees the 9♣ and builds two cards now, so the quick measure prefers it.
    s = position(*TWO_FIVES, stock=8)
    assert tips.plan_builds(s, futures=[])["plan"] == BUILD_5D       # no futures: the quick measure
    # The last row, as dealt from pile 1 to pile 8: A, 8, 4, A, 4, 9, 9, 9. After the 5♦ and 9♣, it
    # builds the two aces and the 2♦ under the K♣ and K♠, and then nothing fits: 5 cards in all.
    # After the 5♠ instead, the 8♥ still wants a nine: the 9 dealt on the 3♣ goes, the 3♣ then goes
    # under the K♣ after its A and 2♦, then the 4 from the 2♣ and the 5♦ from the 9♣, and the 2♣
    # under the K♠: 9 cards in all. Judged by that future, the 5♠ is built and the 5♦ held back.
    future = [9, 9, 9, 4, 1, 4, 8, 1]
    r = tips.plan_builds(s, futures=[future])
    assert r["plan"] == BUILD_5S and r["most"] == 2 and r["samples"] == 1
    assert r["value"][0] == 9 / 100          # no win, 9 cards built in that future
    assert r["first"][(0, 0)][0][0] == 5 / 100


def test_the_suggestion_and_flags_say_why_in_plain_words():
    s = position(*TWO_FIVES, stock=72)
    a = run(s)
    top = a.suggestions[0]
    r = tips.plan_builds(s)
    assert top.rule == "build-or-hold-back" and top.move == str(tips._move(*r["plan"][0]))
    assert f"played on in {tips.SAMPLES} sampled orders of the cards still to come" in top.reason
    panel = a.panels["interregnum-plan"]
    assert panel["plan"] == [str(tips._move(i, j)) for i, j in r["plan"]]
    assert panel["sampled_futures"] == tips.SAMPLES and panel["most_builds"] == 2
    # whichever five is chosen, the other cannot lead to as many cards built or is not flagged at all
    for d in a.dangers:
        assert d.kind == "hold-back" and "hold it back" in d.reason
    assert any("do not deal yet" in n for n in a.notes)


def test_the_futures_are_drawn_from_the_cards_nobody_has_seen():
    s = G.new(5)
    truth = Counter(c.card.rank for c in s.areas["stock"][0])
    p = tips._Planner(G.information_state(s))
    assert p.unseen_ranks(G.information_state(s)) == truth
    futures = p.futures(G.information_state(s), 3, random.Random(0))
    assert all(Counter(f) == truth for f in futures)


def test_the_advice_never_reads_the_order_of_the_stock():
    # two deals that differ only in the order of the stock get the same advice
    s = G.new(7)
    other = s.copy()
    random.Random(1).shuffle(other.areas["stock"][0])
    assert [x.card for x in other.areas["stock"][0]] != [x.card for x in s.areas["stock"][0]]
    a, b = advise(s, search=False), advise(other, search=False)
    assert a.to_json() == b.to_json()


def test_the_unseen_cards_count_a_crowned_packet_as_one_of_each_rank():
    # packet 1 was crowned by the Q♠ and turned down: what the player sees of it is thirteen backs
    inter = [[] for _ in range(8)]
    inter[0] = ["~"] * 13
    obs = position([None, "8h"] + FILL_TOP, [["2c"], ["2d"], ["3h"], ["3c"], ["4h"], ["4d"], ["7c"], ["7d"]], inter, stock=72)
    left = tips._Planner(obs).unseen_ranks(obs)
    seen = Counter({r: 1 for r in range(1, 14)})          # the crowned packet
    seen.update(Card.parse(c).rank for c in ["8h"] + FILL_TOP + ["2c", "2d", "3h", "3c", "4h", "4d", "7c", "7d"])
    assert left == Counter({r: 8 - seen[r] for r in range(1, 14)})
    assert sum(left.values()) == 104 - 13 - 15


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


def _last_row_dealt(seed: int) -> State:
    """Play the deal by the tip's plan before every deal, up to the moment the last row is dealt."""
    s = G.new(seed)
    while s.areas["stock"][0]:
        for m in G.legal_moves(s):
            if m.action == "move" and m.src.area == "top":
                G.apply(s, m)
        for i, j in tips.plan_builds(G.information_state(s))["plan"]:
            G.apply(s, tips._move(i, j))
        G.apply(s, Move.act("deal"))
    return s


def test_once_the_stock_is_out_the_verdict_is_exact_and_its_plan_wins():
    s = _last_row_dealt(0)
    w = advise(G.information_state(s), search=False).winnable
    assert (w.verdict, w.exact, w.probability) == ("yes", True, 1.0)
    for text in w.plan:
        m = G.parse_move(s, text)
        assert G.why_illegal(s, m) is None
        G.apply(s, m)
    assert G.is_won(s)


def test_once_the_stock_is_out_a_lost_deal_is_said_to_be_lost():
    s = _last_row_dealt(2)
    w = advise(G.information_state(s), search=False).winnable
    assert (w.verdict, w.exact, w.probability, w.plan) == ("no", True, 0.0, [])
    # it is: no build order left completes every packet (the plan takes the most cards it can)
    for i, j in tips.plan_builds(s)["plan"]:
        G.apply(s, tips._move(i, j))
    for m in G.legal_moves(s):
        if m.src is not None and m.src.area == "top":
            G.apply(s, m)
    assert not G.is_won(s) and not [m for m in G.legal_moves(s) if m.action == "move"]


def test_before_the_stock_is_out_the_chance_is_an_estimate_with_its_sample_size():
    w = advise(G.information_state(G.new(4)), search=False).winnable
    assert not w.exact and w.samples == tips.SAMPLES and 0.0 <= w.probability <= 1.0
    assert f"of {tips.SAMPLES} sampled orders" in w.reason and "floor" in w.reason
