"""Keeling's Senior Wrangler tips as rules: hand-built positions and the exact advice they give."""
from __future__ import annotations

import pytest

from advisor import senior_wrangler_solver as solver
from advisor.advice import advise
from advisor.engine import Board, State
from advisor.tips import senior_wrangler as tips
from sw_positions import G, GID, KEYS8, full_position

DONE = [12] * 7


def st(columns, keys=KEYS8, piles=None, session=1) -> State:
    data = {"game": GID, "info": {"session": session},
            "areas": {"column": [list(c) for c in columns] + [[] for _ in range(8 - len(columns))],
                      "key": [[k] for k in keys],
                      "pile": [list(p) for p in (piles or [])] + [[] for _ in range(8 - len(piles or []))]}}
    return State.from_json(data)


def by_rule(items, rule):
    """Items from one rule; a suggested move made by several rules is listed once, under the best."""
    return [x for x in items if x.rule == rule or f"also ({rule})" in getattr(x, "reason", "")]


def unknown_solver(monkeypatch):
    monkeypatch.setattr(tips, "solve_cached", lambda state, seconds=None: solver.Solution("unknown", reason="test"))


# ------------------------------------------------------------------ solver

def test_solver_rule_puts_the_winning_move_first():
    s = full_position(DONE[:6] + [10, 8], [[13], [5, 13], [7], [6, 12]], session=8)
    a = advise(s, search=False)
    assert a.winnable.verdict == "yes" and a.winnable.exact
    top = a.suggestions[0]
    assert (top.move, top.rule, top.score) == ("column3>pile7", "solver", tips.SCORE_PLAN)
    assert a.winnable.plan[:2] == ["column3>pile7", "column2>pile7"]
    a2 = advise(Board(s).state, search=False)    # same position: answered from the cache
    assert a2.winnable.plan == a.winnable.plan


def test_solver_rule_on_a_lost_position():
    s = full_position(DONE + [8], [[], [], [], [], [], [], [], [13, 6, 5, 12]], session=8)
    a = advise(s, search=False)
    assert a.winnable.verdict == "no" and a.winnable.exact
    assert by_rule(a.suggestions, "solver") == []
    assert a.panels["solver"]["verdict"] == "no"


def test_solver_rule_with_an_unread_card():
    data = G.new(5).to_json()
    data["areas"]["column"][0][0] = "?"
    a = advise(State.from_json(data), search=False)
    assert a.winnable.verdict == "unknown" and not a.winnable.exact
    assert "not been read" in a.winnable.reason


def test_following_the_top_suggestion_wins_a_winnable_deal(monkeypatch):
    calls = []
    real = solver.solve
    monkeypatch.setattr(solver, "solve", lambda *a, **k: calls.append(1) or real(*a, **k))
    b = Board(G.new(13))
    while b.status() == "playing":
        a = advise(b.state, search=False)
        b.push(a.suggestions[0].move)
    assert b.status() == "won"
    assert len(calls) == 1         # the plan is remembered along the way


# ------------------------------------------------------------- pack it in

def _kings_moved(seed, near: bool) -> State:
    s = G.new(seed)
    for col in s.areas["column"]:
        ks = [sl for sl in col if sl.card.rank == 13]
        rest = [sl for sl in col if sl.card.rank != 13]
        col[:] = rest + ks if near else ks + rest
    return State.from_json(s.to_json())


def test_pack_it_in_when_the_kings_lie_near_the_player(monkeypatch):
    unknown_solver(monkeypatch)
    a = advise(_kings_moved(3, near=True), search=False)
    p = a.panels["pack-it-in"]
    assert (p["judgement"], p["kings_near"], p["kings_far"]) == ("pack it in", 8, 0)
    assert "Pack it in and deal again: 8 kings lie among the four cards nearest you in their columns, only 0 among the four furthest." in a.notes


def test_good_chance_when_the_kings_lie_far_away(monkeypatch):
    unknown_solver(monkeypatch)
    p = advise(_kings_moved(3, near=False), search=False).panels["pack-it-in"]
    assert (p["judgement"], p["kings_near"], p["kings_far"]) == ("good chance", 0, 8)


def test_the_solver_overrules_the_rule_of_thumb(monkeypatch):
    monkeypatch.setattr(tips, "solve_cached", lambda state, seconds=None: solver.Solution("yes", ["redeal"], "test"))
    p = advise(_kings_moved(3, near=True), search=False).panels["pack-it-in"]
    assert p["judgement"] == "play on" and "solver" in p["reason"]


def test_no_pack_it_in_judgement_once_play_has_started(monkeypatch):
    unknown_solver(monkeypatch)
    b = Board(G.new(3))
    b.push(next(m for m in b.legal_moves if m.action == "move"))
    assert "pack-it-in" not in advise(b.state, search=False).panels


# --------------------------------------------------------------- tip 1

def test_ninth_row_panel(monkeypatch):
    unknown_solver(monkeypatch)
    s = G.new(1)
    panel = advise(s, search=False).panels["ninth-row"]
    assert [e["column"] for e in panel] == [1, 2, 3, 4, 5, 6, 7]
    for e in panel:
        col = s.areas["column"][e["column"] - 1]
        assert e["beyond_the_gap"] == [{"position": p, "card": col[p - 1].card.label, "goes_to": p - 8}
                                       for p in (9, 10, 11, 12)]


# ------------------------------------------------------- tips 2, 3, 6, 7

def test_king_lying_on_cards_in_a_column_dealt_out_is_a_danger():
    s = st([["2s", "3s", "Kh"], ["5c"], [], [], [], [], [], ["Kd", "9c"]], session=2)
    a = advise(s, search=False)
    kings = by_rule(a.dangers, "king-foresight")
    assert [(d.where, d.depth, d.card, d.kind) for d in kings] == [("column1", 2, "Kh", "king")]
    assert "lies on 2 cards in a column that is never picked up again" in kings[0].reason
    fs = {k["card"]: k for k in a.panels["king-foresight"]}
    assert fs["Kd"]["ground"] and fs["Kd"]["after"] == []


def test_king_that_will_bury_cards_is_foreseen():
    # session 1: the king at position 8 of column 1 goes to column 8, never picked up, onto its 3 cards
    s = st([["2s", "3s", "4s", "6s", "8s", "Jc", "Qc", "Kh"], [], [], [], [], [], [], ["2h", "3h", "4h"]],
           session=1)
    a = advise(s, search=False)
    d = by_rule(a.dangers, "king-foresight")
    assert [(x.where, x.depth, x.card) for x in d] == [("column1", 7, "Kh")]
    assert "will end in column 8 on top of 3 cards" in d[0].reason
    k = a.panels["king-foresight"][0]
    assert k["after"] == [{"session": 1, "column": 8, "position": 4, "beneath": 3, "settled": True}]


def test_a_king_dealt_on_a_column_still_to_come_moves_on():
    # the king goes first to column 6 (on 3 cards), then with column 6 to the empty column 4
    s = st([["2s", "3s", "4s", "6s", "8s", "Kh"], [], [], [], [], ["2h", "3h", "4h"]], session=1)
    a = advise(s, search=False)
    assert by_rule(a.dangers, "king-foresight") == []
    k = a.panels["king-foresight"][0]
    assert [(x["session"], x["column"], x["position"]) for x in k["after"]] == [(1, 6, 4), (6, 4, 1)]
    assert k["ground"]
    assert "The K♥ will end at the bottom of column 4: on the ground, harmless." in a.notes


def test_clear_the_column_a_king_will_fall_into():
    # session 2: the king at the bottom of column 2 will be dealt onto column 1, which keeps
    # whatever is left on it for ever. Column 1 holds two cards; its ten fits pile 1 (key 5).
    s = st([["7h", "10c"], ["Kd", "5c"]], session=2)
    a = advise(s, search=False)
    sug = by_rule(a.suggestions, "kings-on-the-ground")
    # column 1 has been dealt out, so tip 9 suggests the same move with a higher score
    assert [(x.move, x.rule, x.score) for x in sug] == [("column1>pile1", "left-hand-side", tips.SCORE_LEFT)]
    assert "so the K♦ from column 2 lands at its bottom" in sug[0].reason
    assert ("Clear column 1 (2 cards) before ending session 2: the K♦ will then fall to its bottom, "
            "on the ground.") in a.notes
    assert a.panels["kings-to-ground"] == [{"card": "Kd", "from_position": 1, "to_column": 1,
                                            "cards_under_it": 2, "to_clear": 2, "possible": True}]


def test_king_already_headed_for_the_ground_is_reported():
    s = st([[], ["Kd", "5c"]], session=2)
    a = advise(s, search=False)
    assert "The K♦ will fall to the bottom of column 1 at this redeal: on the ground." in a.notes
    assert by_rule(a.dangers, "king-foresight") == []


# ------------------------------------------------------------ tips 4, 5

def test_first_session_note_only_before_the_first_move(monkeypatch):
    unknown_solver(monkeypatch)
    note = tips.rule_first_session
    b = Board(G.new(2))
    assert any("first session matters most" in n for n in advise(b.state, search=False).notes)
    b.push(next(m for m in b.legal_moves if m.action == "move"))
    assert not any("first session matters most" in n for n in advise(b.state, search=False).notes)
    assert note.__name__ == "rule_first_session"


def test_take_column_one_down_to_eight_cards():
    fill = ["2s", "3s", "4s", "6s", "8s", "Jh", "Qh", "2h", "3d"]
    s = st([fill + ["10c"]], session=1)
    sug = by_rule(advise(s, search=False).suggestions, "column-one")
    assert [(x.move, x.score) for x in sug] == [("column1>pile1", tips.SCORE_COLUMN_ONE)]
    assert "column 1 has 10 cards" in sug[0].reason


def test_hold_back_a_card_the_bottom_of_column_one_will_need():
    # session 1, column 1 is down to three cards with the 7♥ at its bottom. Pile 1 (key 5) holds
    # 10 and 2 and wants a seven next; no other pile wants one. The 7♠ on column 3 could take
    # that place now, but the 7♥ will be alone in column 1 in session 2 and may need it.
    s = st([["7h", "Jc", "Qd"], [], ["9h", "7s"]], piles=[["10d", "2c"]], session=1)
    a = advise(s, search=False)
    d = by_rule(a.dangers, "column-one")
    assert [(x.where, x.depth, x.card, x.kind) for x in d] == [("column3", 1, "7s", "hold-back")]
    assert "7♥ at the bottom of column 1" in d[0].reason


# ------------------------------------------------------------ tips 8, 9, 10

def test_left_hand_columns_come_first_and_long_ones_are_flagged():
    s = st([["Jd", "10c"], ["2s", "3s", "4s", "6s", "8s", "Qh", "Jh"], ["Kh"], ["5c"]], session=3)
    a = advise(s, search=False)
    sug = by_rule(a.suggestions, "left-hand-side")
    assert [(x.move, x.score) for x in sug] == [("column1>pile1", tips.SCORE_LEFT)]
    d = by_rule(a.dangers, "left-hand-side")
    assert [(x.where, x.kind) for x in d] == [("column2", "long-left-column")]


def test_a_pile_far_ahead_is_flagged():
    s = st([["Jd"]], piles=[["10d", "2c", "7c", "Qc", "4c", "9c", "Ac", "6c", "Jc"], ["5d"], ["2s"]], session=4)
    d = by_rule(advise(s, search=False).dangers, "balanced-piles")
    assert [(x.where, x.kind) for x in d] == [("pile1", "pile-ahead")]
    assert "pile 1 has 9 cards" in d[0].reason


def test_rules_never_crash_on_unread_cards():
    data = G.new(8).to_json()
    for col in data["areas"]["column"]:
        col[-1] = "?"
    data["areas"]["key"][2] = ["?"]
    a = advise(State.from_json(data), search=False)
    assert a.winnable.verdict == "unknown"


@pytest.mark.parametrize("name", ["solver", "pack-it-in", "ninth-row", "king-foresight", "kings-on-the-ground",
                                  "first-session", "column-one", "left-hand-side", "balanced-piles"])
def test_every_tip_is_a_named_rule_with_its_source(name):
    rule = next(r for r in tips.BOOK.rules if r.name == name)
    assert rule.source.startswith("Keeling, Senior Wrangler") and rule.summary


def test_without_a_verdict_the_best_line_found_is_suggested(monkeypatch):
    monkeypatch.setattr(tips, "solve_cached", lambda state, seconds=None: solver.Solution(
        "unknown", reason="no verdict within 1 s", best_played=80, line=["column1>pile1", "redeal"]))
    s = st([["Jd", "10c"]], session=1)
    a = advise(s, search=False)
    assert a.winnable.verdict == "unknown"
    sug = by_rule(a.suggestions, "solver")
    assert [(x.move, x.score) for x in sug] == [("column1>pile1", tips.SCORE_BEST_LINE)]
    assert "puts 80 of 96 cards on the piles (not known to win)" in sug[0].reason


def test_the_solver_rule_thinks_longer_at_the_opening(monkeypatch):
    from advisor.solving import OPENING_SECONDS
    seen = []

    def fake(state, seconds=None):
        seen.append(seconds)
        return solver.Solution("unknown", reason="test")

    monkeypatch.setattr(tips, "solve_cached", fake)
    s = G.new(5)
    m = G.legal_moves(s)[0]
    later = s.copy()
    G.apply(later, m)
    advise(s, search=False)
    opening = list(seen)
    seen.clear()
    advise(later, [(s, m)], search=False)
    assert opening and set(opening) >= {OPENING_SECONDS}
    assert OPENING_SECONDS not in seen and tips.SOLVE_SECONDS in seen


def test_an_unproved_best_line_is_kept_until_a_look_goes_further(monkeypatch):
    # With no plan found, each look has a best line of its own; the advice keeps to the best seen so far,
    # along its moves, and leaves it only for a line that puts more cards up.
    start = G.new(451)
    moves = [str(m) for m in G.legal_moves(start) if m.action == "move"]
    first, other = moves[0], moves[1]
    b = Board(start.copy())
    b.push(first)
    after = G.legal_moves(b.state)
    second = str(next(m for m in after if m.action == "move"))
    answers = iter([
        solver.Solution("unknown", [], "look 1", 0, 0.0, 50, [first, second]),
        solver.Solution("unknown", [], "look 2", 0, 0.0, 40, ["redeal"]),          # worse: the kept line stays
        solver.Solution("unknown", [], "look 3", 0, 0.0, 60, [other]),             # better: taken
    ])
    monkeypatch.setattr(solver, "solve", lambda *a, **k: next(answers))
    monkeypatch.setattr(tips, "_CACHE", type(tips._CACHE)())
    monkeypatch.setattr(tips, "_LINES", type(tips._LINES)())
    one = tips.solve_cached(start, 0.1)
    assert one.line == [first, second] and one.best_played == 50
    two = tips.solve_cached(b.state, 0.1)
    assert two.line == [second] and two.best_played == 50 and "found earlier" in two.reason
    b.push(second)
    three = tips.solve_cached(b.state, 0.1)
    assert three.line == [other] and three.best_played == 60


def test_a_lost_deal_still_follows_the_best_line_kept(monkeypatch):
    # Once the solver proves the deal lost, the line kept still says how to put the most cards up.
    start = G.new(451)
    first = next(str(m) for m in G.legal_moves(start) if m.action == "move")
    answers = iter([solver.Solution("unknown", [], "look 1", 0, 0.0, 70, [first, "redeal"]),
                    solver.Solution("no", [], "every line of play was examined: none wins", 0, 0.0, 0, [])])
    monkeypatch.setattr(solver, "solve", lambda *a, **k: next(answers))
    monkeypatch.setattr(tips, "_CACHE", type(tips._CACHE)())
    monkeypatch.setattr(tips, "_LINES", type(tips._LINES)())
    tips.solve_cached(start, 0.1)
    b = Board(start.copy())
    b.push(first)
    lost = tips.solve_cached(b.state, 0.1)
    assert lost.verdict == "no" and lost.line == ["redeal"] and lost.best_played == 70
    monkeypatch.setattr(tips, "solve_cached", lambda state, seconds=None: lost)
    top = advise(b.state, [first]).suggestions[0]
    assert top.move == "redeal" and "can no longer be won" in top.reason
