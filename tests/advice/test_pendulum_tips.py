"""Pendulum tips (choosing the order, stepped rows, crowning gaps, swinging) on hand-built positions."""
from __future__ import annotations

from advisor.advice import advise
from advisor.cards import full_deck
from advisor.engine import State
from advisor.games.pendulum import ROWS

GID = "pendulum"
ACES = {"left-aces": [["As"], ["Ah"]], "right-aces": [["Ad"], ["Ac"]]}


def grid(rows: dict, info=None, aces=ACES) -> State:
    areas = dict(aces)
    for name in ROWS:
        places = rows.get(name, [None] * 8)
        areas[name] = [[] if p is None else ([p] if isinstance(p, str) else list(p)) for p in places]
    return State.from_json({"game": GID, "areas": areas, "info": info or {"phase": "choose"}})


def playing(direction="up", interval=1, **extra):
    return {"phase": "play", "direction": direction, "interval": interval, "next_swing": "right",
            "idle_swings": 0, **extra}


def run(state):
    return advise(state, search=False)


def choosing_example() -> State:
    low = {"fourth": ["7s", "3h", "10d", "10h", "6c", "Qs", "7d", "4c"],
           "fifth": ["10c", "Qh", "7h", "9d", "Jh", "4s", "5h", "9c"],
           "sixth": ["Qc", "9s", "Qd", "8h", "5d", "Js", "6s", "8c"]}
    used = {c for r in low.values() for c in r}
    rest = [c.label for c in full_deck(1) if c.rank != 1 and c.label not in used]
    return grid({name: rest[i * 8:(i + 1) * 8] for i, name in enumerate(ROWS[:3])} | low)


def test_choice_panel_and_suggestions():
    a = run(choosing_example())
    panel = a.panels["pendulum-choices"]
    assert len(panel) == 24
    assert panel[0]["move"] == "choose up 11" and panel[0]["same_as"] == "choose down 2"
    assert panel[0]["frees"] == 5 and panel[0]["lowest_row"] == 3
    moves = [(s.move, s.score, s.rule) for s in a.suggestions]
    assert moves[0] == ("choose up 11", 50, "choose-by-lowest-rows")
    assert [m for m, _, _ in moves] == [panel[0]["move"], panel[2]["move"], panel[4]["move"]]   # twins skipped
    assert [sc for _, sc, _ in moves] == [50, 40, 30]
    assert "5 cards go out" in a.suggestions[0].reason and "choose down 2" in a.suggestions[0].reason
    assert "Q♣" in a.suggestions[0].reason


def test_rows_stepped():
    s = grid({"top": ["Ks", "Qh", "9s", "Jd", "6d", "5h", "8c", "10c"],
              "second": ["7s", "Jc", "10d", None, "9h", None, "6c", None],
              "third": ["3c", "Kh", None, "5s", "9c", None, None, None],
              "fourth": [None, None, None, None, None, None, "4d", None]},
             info=playing())
    a = run(s)
    # second: 5 under 8; third: 4 under 5 (fine); fourth: 1 under 4 (fine): no warning
    assert not any("shorter than the row above" in n for n in a.notes)
    # the third row now has as many cards as the second: the 9♣ may leave it, for the corner 10♣
    s2 = grid({"top": ["Ks", "Qh", "9s", "2d", "6d", "5h", "8c", "10c"],
               "second": ["7s", "Jc", "10d", None, "9h", None, "6c", None],
               "third": ["3c", "Kh", None, "5s", "9c", ["Qd", "Jd"], None, None]},
              info=playing())
    a2 = run(s2)
    assert "keep each row at least one card shorter than the row above; not yet: third (5 under 5)" in a2.notes
    stepped = [(x.move, x.score) for x in a2.suggestions if x.rule == "rows-stepped"]
    assert stepped == [("third5>top8", 1.1)]


def test_crowning_gap_suggested_or_awaited():
    s = grid({"top": [None, "Qh", "9s", "Jd", "6d", "5h", "8c", "10c"],
              "second": ["7s", "Jc", "Ks", None, None, None, None, None]},
             info=playing())
    a = run(s)
    fill = [x for x in a.suggestions if x.rule == "crowning-gap"]
    assert [(x.move, x.score) for x in fill] == [("second3>top1", 3)]
    assert "(K)" in fill[0].reason
    s2 = grid({"top": [None, "Qh", "9s", "Jd", "6d", "5h", "8c", "10c"],
               "second": ["7s", "Jc", "4s", None, None, None, None, None]},
              info=playing("down", 2))
    a2 = run(s2)
    assert "top 1: only a 3 (the crowning card) may fill a top-row gap" in a2.notes


def test_swing_when_blocked_and_lost():
    blocked = {"top": ["Qs", "9s", "6s", "3s", "Kc", "10c", "7c", "4c"],
               "second": ["Qh", None, "9h", None, "6h", None, None, "3h"],
               "third": [None, "Qd", None, None, "9d", "6d", None, None]}
    a = run(grid(blocked, info=playing()))
    swing = [x for x in a.suggestions if x.rule == "swing-when-blocked"]
    assert [(x.move, x.score) for x in swing] == [("swing right", 10)]
    assert a.panels["pendulum-order"]["crowning"] == "K" and a.panels["pendulum-order"]["next_swing"] == "right"
    lost = run(grid(blocked, info=playing(idle_swings=2)))
    assert "the rows have swung both ways without freeing a card: the game is lost" in lost.notes
    assert lost.suggestions == []


def test_simple_play_check_on_the_choice():
    from advisor.engine import get_game
    g = get_game(GID)
    for seed in range(30):
        a = run(g.new(seed))
        panel = a.panels["pendulum-choices"]
        checks = [x for x in a.suggestions if x.rule == "simple-play-wins"]
        if panel[0]["simple_play_out"] == 48 or not any(r["simple_play_out"] == 48 for r in panel):
            assert checks == []
            continue
        [check] = checks
        row = next(r for r in panel if r["move"] == check.move)
        assert row["simple_play_out"] == 48 and check.score == 55
        assert panel[0]["move"] in check.reason
        assert a.suggestions[0] is check
        return
    raise AssertionError("no deal among 30 where the lowest-rows choice fails simple play and another wins")
