"""Poker Patience advice on hand-built positions. Expected scores are worked out by hand from the book's table."""
from __future__ import annotations

import pytest

from advisor.advice import advise
from advisor.catalogue import fact
from advisor.engine import State, get_game
from advisor.tips import poker_patience as tips
from advisor import poker_patience_solver as solver

G = get_game("poker-patience")
ORD = fact("poker-patience", "ordinary-table")["data"]
COLS = "abcdefghi"

# A square at a1..e5 with d5 and e5 still empty; every complete line scores nothing:
#   row 1  A♥ Q♠ 8♣ 9♠ 2♦     column a  A♥ 10♠ 4♥ 8♥ 3♣
#   row 2  10♠ 3♥ K♥ 9♦ 5♦    column b  Q♠ 3♥ J♠ A♠ 4♠
#   row 3  4♥ J♠ Q♥ 9♣ 7♦     column c  8♣ K♥ Q♥ 2♣ 6♥
#   row 4  8♥ A♠ 2♣ K♣ J♦
#   row 5  3♣ 4♠ 6♥ __ __
# Column d so far: 9♠ 9♦ 9♣ K♣ (threes); column e: 2♦ 5♦ 7♦ J♦ (four diamonds).
ROWS = ["Ah Qs 8c 9s 2d", "10s 3h Kh 9d 5d", "4h Js Qh 9c 7d", "8h As 2c Kc Jd", "3c 4s 6h"]


def position(turned: str, options: dict | None = None, discard=()) -> State:
    areas = {c: [[] for _ in range(9)] for c in COLS}
    for r, row in enumerate(ROWS):
        for c, card in enumerate(row.split()):
            areas[COLS[c]][r] = [card]
    areas["turned"] = [[turned]]
    areas["pack"] = [["~"] * (52 - 24 - len(discard))]
    areas["discard"] = [list(discard)]
    return State.from_json({"game": "poker-patience", "options": options or {}, "info": {"last": "c5"},
                            "areas": areas})


# The 28 unseen cards: spades 2 3 5 6 7 8 K, hearts 2 5 7 10 J, diamonds A 3 4 6 8 10 Q K,
# clubs A 4 5 6 7 10 J Q.
#
# 9♥ at d5: column d = four nines (fours, 16) for sure. The last card Y goes to e5:
#   column e makes a flush (5) with any of the 8 unseen diamonds; a pair (1) with a 2, 5, 7 or J that is
#   not a diamond: 2♠ 5♠ 7♠ 2♥ 5♥ 7♥ J♥ 5♣ 7♣ J♣ = 10 cards;
#   row 5 (3♣ 4♠ 6♥ 9♥ Y) makes a pair (1) with a 3, 4 or 6: 3♠ 6♠ 3♦ 4♦ 6♦ 4♣ 6♣ = 7 cards.
#   Expected: 16 + (8*5 + 10*1 + 7*1) / 28 = 16 + 57/28.
NINE_AT_D5 = 16 + (8 * ORD["flush"] + 10 * ORD["pair"] + 7 * ORD["pair"]) / 28
# 9♥ at e5: column e scores nothing; Y at d5 makes column d a full hand (10) with K♠ or K♦, threes (6)
#   otherwise (26 cards); row 5 (3♣ 4♠ 6♥ Y 9♥) makes a pair with the same 7 cards.
#   Expected: (2*10 + 26*6 + 7*1) / 28 = 183/28.
NINE_AT_E5 = (2 * ORD["full-house"] + 26 * ORD["threes"] + 7 * ORD["pair"]) / 28


def test_the_hand_computed_expectations():
    assert NINE_AT_D5 == pytest.approx(18.0357, abs=1e-4)
    assert NINE_AT_E5 == pytest.approx(6.5357, abs=1e-4)


def test_with_one_card_to_come_the_expectation_is_exact():
    s = position("9h")
    ests = {str(e.move): e for e in solver.expected_scores(s)}
    assert set(ests) == {"turned1>d5", "turned1>e5"}
    assert ests["turned1>d5"].exact and ests["turned1>d5"].samples == 28
    assert ests["turned1>d5"].mean == pytest.approx(NINE_AT_D5)
    assert ests["turned1>e5"].mean == pytest.approx(NINE_AT_E5)


def test_the_advice_names_the_best_placement_and_the_running_score():
    s = position("9h")
    a = advise(s, search=False)
    top = a.suggestions[0]
    assert top.move == "turned1>d5" and top.rule == "best-expected-placement"
    assert "expected final score 18.0" in top.reason and "exactly" in top.reason
    assert "11.5 less" in a.suggestions[1].reason
    # running score: column d holds threes so far, nothing else scores yet
    assert a.panels["score"]["total"] == ORD["threes"]
    assert a.winnable.verdict == "yes" and a.winnable.exact
    assert a.panels["expected-scores"][0]["move"] == "turned1>d5"


def test_a_detrimental_card_goes_to_the_dumping_ground():
    # The 8♠ pairs with nothing it can join and breaks the diamonds of column e.
    s = position("8s")
    assert tips.detrimental(s) is True
    a = advise(s, search=False)
    ground = a.panels["dumping-ground"]
    assert ground["line"] == "row 5" and ground["free"] == ["d5", "e5"]
    dump = [x for x in a.suggestions if "dumping ground" in x.reason]
    assert [x.move for x in dump] == ["turned1>d5"]
    assert any("helps no line" in n for n in a.notes)
    # the sampled (here exact) suggestion agrees: 8♠ at d5 keeps the threes and the diamond chance
    assert a.suggestions[0].move == "turned1>d5"
    assert len({x.move for x in a.suggestions}) == len(a.suggestions), "one entry per move"


def test_a_useful_card_is_not_called_detrimental():
    assert tips.detrimental(position("9h")) is False
    a = advise(position("9h"), search=False)
    assert not any("helps no line" in n for n in a.notes)


def test_discards_are_counted_and_spared_early():
    s = G.new(3, {"variant": "advanced"})
    G.apply(s, G.legal_moves(s)[0])       # first card at e5
    a = advise(s, search=False)
    assert a.panels["discards-left"] == 5
    adv = position("8s", {"variant": "advanced", "joker": "none"}, discard=["Kd", "Qd"])
    a = advise(adv, search=False)
    assert a.panels["discards-left"] == 3
    assert not any("early" in n for n in a.notes), "23 cards laid is not early"


def test_an_early_discard_ranked_first_draws_the_books_caution(monkeypatch):
    opts = {"variant": "advanced", "joker": "none"}
    areas = {c: [[] for _ in range(9)] for c in COLS}
    areas["e"][4] = ["5h"]
    areas["f"][4] = ["9h"]
    areas["turned"] = [["Kc"]]
    areas["pack"] = [["~"] * 49]
    s = State.from_json({"game": "poker-patience", "options": opts, "info": {"last": "f5"}, "areas": areas})
    discard, lay = G.parse_move(s, "turned1>discard1"), G.parse_move(s, "turned1>g5")
    fixed = [solver.Estimate(discard, 61.0, 1.0, 40), solver.Estimate(lay, 60.2, 1.0, 40)]
    monkeypatch.setattr(solver, "expected_scores", lambda state, seconds=0.0: fixed)
    a = advise(s, search=False)
    assert a.suggestions[0].move == "turned1>discard1"
    warn = [n for n in a.notes if "early" in n]
    assert len(warn) == 1 and "0.8 points better than laying it at g5" in warn[0] and "5 discards" in warn[0]
    # ranked second, the discard draws no remark
    monkeypatch.setattr(solver, "expected_scores", lambda state, seconds=0.0: fixed[::-1])
    assert not any("early" in n for n in advise(s, search=False).notes)


def test_sampling_keeps_the_fourth_nine_with_the_other_three():
    # Three nines in row 5; the turned 9♣ is the last nine: only row 5 can ever make fours (16) with it.
    areas = {c: [[] for _ in range(9)] for c in COLS}
    for c, card in zip("abc", ["9s", "9h", "9d"]):
        areas[c][4] = [card]
    areas["turned"] = [["9c"]]
    areas["pack"] = [["~"] * 48]
    s = State.from_json({"game": "poker-patience", "info": {"last": "c5"}, "areas": areas})
    # a fixed number of samples, not a time budget: the same draws on a busy machine as on an idle one
    ests = solver.expected_scores(s, seconds=600, max_samples=8, seed=1)
    assert str(ests[0].move) in ("turned1>d5", "turned1>e5")
    assert not ests[0].exact and ests[0].samples >= 4
    others = [e for e in ests if str(e.move) not in ("turned1>d5", "turned1>e5")]
    assert all(ests[0].mean > e.mean + 5 for e in others)
