"""Keeling's Kings tips (a)-(h) as rules: hand-built positions with the exact flags and suggestions."""
from __future__ import annotations

import time
from collections import Counter

import pytest

from advisor.advice import TILT_LEFT, TILT_RIGHT, TURN_90, Context, advise
from advisor.cards import Card, full_deck
from advisor.engine import Move, Slot, State, get_game
from advisor.kings_memory import FAIRLY_LOW, TOP, VERY_LOW, knowledge, recall
from advisor.tips import kings as tips

G = get_game("kings")
SUITS = "shdc"


# ------------------------------------------------------------------ helpers

def column(built: dict[str, int], side: str) -> list[list[str]]:
    out = []
    for s in SUITS:
        n = built.get(s, 0)
        ranks = [13 - i for i in range(1, n + 1)] if side == "left" else list(range(1, n + 1))
        out.append([f"K{s}"] + [Card(r, s).label for r in ranks])
    return out


def position(piles: dict[int, list[str]], *, left: dict | None = None, right: dict | None = None,
             fan: list[str] | None = None, fan_from: int | None = None, seen: dict[int, str] | None = None,
             options: dict | None = None, counts: list[int] | None = None) -> State:
    """A full 104-card position: the given piles, kings and fan; every other card lies face down.

    ``seen`` maps a place in the face-down pile, counted from its top (1 = turned next), to a card the
    player saw fall on its own number; the other face-down cards were put down unseen.
    """
    left, right = left or {}, right or {}
    lcol, rcol = column(left, "left"), column(right, "right")
    placed = Counter(t for p in lcol + rcol for t in p)
    placed.update(t for p in piles.values() for t in p)
    placed.update(fan or [])
    rest = Counter(c.label for c in full_deck(2))
    rest.subtract(placed)
    assert all(v >= 0 for v in rest.values()), rest
    down = sorted(rest.elements(), key=lambda t: (Card.parse(t).suit, Card.parse(t).rank))
    seen = seen or {}
    for place, label in seen.items():
        down.remove(label)
    down_seen: list = [None] * (len(down) + len(seen))
    for place, label in sorted(seen.items(), key=lambda kv: -kv[0]):
        i = len(down_seen) - place
        down.insert(i, label)
        down_seen[i] = label
    own = [[] for _ in range(12)]
    for label in seen.values():
        own[Card.parse(label).rank - 1].append(label)
    pile_list = [list(piles.get(n, [])) for n in range(1, 13)]
    info = {"fan_from": fan_from, "returned": [], "own_number": own, "down_seen": down_seen}
    if counts is not None:
        info["counts"] = counts
    return State.from_json({"game": "kings", "options": options or {}, "info": info, "areas": {
        "left-kings": lcol, "right-kings": rcol, "pile": pile_list,
        "fan": [[t] for t in (fan or [])], "face-down": [["~" + t for t in down]]}})


def all_of(rank: str, but: int = 0) -> list[str]:
    """Every card of a rank (eight in two packs), less ``but`` of them."""
    cards = [rank + s for s in SUITS for _ in range(2)]
    return cards[:len(cards) - but]


def run(rule, state: State, history=()) -> list:
    return list(rule(Context(G, state, history)))


def suggestions(items) -> list[tuple[str, float]]:
    return [(s.move, round(s.score, 2)) for s in items if hasattr(s, "move")]


def dangers(items) -> list[tuple[str, str, str | None]]:
    return [(d.where, d.kind, d.mark) for d in items if hasattr(d, "mark")]


def panels(items) -> dict:
    return dict(i for i in items if isinstance(i, tuple))


def notes(items) -> list[str]:
    return [i for i in items if isinstance(i, str)]


# ------------------------------------------------------------ tips a to d

@pytest.mark.parametrize("seed", [1, 2, 3, 17])
def test_tilts_after_the_deal_are_keelings(seed):
    s = G.new(seed)
    on_other = Counter(x.card.rank for p in s.areas["pile"] for x in p)    # counted independently of info
    own = {n: [t for t in s.info["own_number"][n - 1]] for n in range(1, 13)}
    want = {}
    for n in range(1, 13):
        if own[n]:
            want[f"pile{n}"] = ("own-number", TILT_RIGHT)        # tip a
        elif on_other[n] < 8:
            want[f"pile{n}"] = ("count-under-eight", TILT_LEFT)  # tip b
        else:
            want[f"pile{n}"] = ("count-of-eight", TURN_90)       # tip c
    got = {}
    for rule in (tips.fell_on_own_number, tips.count_under_eight, tips.count_of_eight):
        for where, kind, mark in dangers(run(rule, s)):
            assert where not in got
            got[where] = (kind, mark)
    assert got == want


def test_count_board_after_the_deal():
    s = G.new(5)
    board = panels(run(tips.count_board, s))["count-board"]
    on_other = Counter(x.card.rank for p in s.areas["pile"] for x in p)
    fd = s.areas["face-down"][0]
    assert board["face_down"] == len(fd)
    for row in board["positions"]:
        n = row["pile"]
        own = [Card.parse(t) for t in s.info["own_number"][n - 1]]
        assert row["counted_on_other_piles"] == on_other[n]
        assert row["fell_on_own_number"] == [c.pretty for c in own]
        assert row["unseen_at_deal"] == 8 - on_other[n] - len(own)
        assert row["still_face_down"] == sum(1 for x in fd if x.card.rank == n)
        assert row["cards_in_pile"] == len(s.areas["pile"][n - 1])
    # Every card that fell on its own number is placed in the face-down pile, counted from the top.
    known = {(k["turns_away"], k["card"]) for k in board["face_down_known"]}
    assert known == {(len(fd) - i, Card.parse(t).pretty) for i, t in enumerate(s.info["down_seen"]) if t}
    assert board["unseen_face_down"] == sum(1 for t in s.info["down_seen"] if t is None)


def test_tilt_right_then_top_priority_once_its_card_is_turned():
    # Seven 7s lie on other piles; the eighth, the 7♥, fell on its own number and is next to turn.
    sevens = ["7s", "7s", "7h", "7d", "7d", "7c", "7c"]
    s = position({7: ["3c", "Jd"], 1: sevens[:4], 2: sevens[4:]}, seen={1: "7h"})
    items = run(tips.fell_on_own_number, s)
    assert dangers(items) == [("pile7", "own-number", TILT_RIGHT)]
    assert "comes up in the next turn" in items[0].reason
    assert knowledge(s).priority[6] == VERY_LOW
    G.apply(s, Move.act("turn"))
    G.apply(s, Move.act("return"))
    assert dangers(run(tips.fell_on_own_number, s)) == []
    assert dangers(run(tips.count_of_eight, s)) == [("pile7", "count-of-eight", TURN_90)]


def test_count_under_eight_reason_names_the_count():
    s = position({4: ["9s"], 2: all_of("4", but=1)}, counts=[0, 0, 0, 7] + [0] * 8)
    items = [d for d in run(tips.count_under_eight, s) if d.where == "pile4"]
    assert [(d.kind, d.mark) for d in items] == [("count-under-eight", TILT_LEFT)]
    assert "only 7 of the eight 4s" in items[0].reason and "7 counted on other piles" in items[0].reason
    assert knowledge(s).priority[3] == FAIRLY_LOW


# ------------------------------------------------------------------ tip e

def test_memory_fills_what_the_camera_cannot_see():
    s0 = position({3: ["5h", "Qs", "9c", "Ac"], 5: ["2d", "8h"]})
    m = G.parse_move(s0, "pile3>right-kings4")
    s1 = s0.copy()
    G.apply(s1, m)
    seen = G.observation(s1)
    assert [x.token() for x in seen.areas["pile"][2]] == ["?", "?", "9c"]
    mem = recall(seen, [(s0, m)])
    assert [x.card.label for x in mem.areas["pile"][2]] == ["5h", "Qs", "9c"]
    assert all(x.card is None for x in mem.areas["face-down"][0]), "never the face-down cards"
    items = run(tips.perfect_memory, seen, [(s0, m)])
    memory = panels(items)["memory"]
    assert memory["piles"][2] == {"pile": 3, "cards": ["5♥", "Q♠", "9♣"], "covered": [True, True, False], "returned": False}
    assert "remember: the Q♠ that the left K♠ needs next lies in pile 3 under 1 card (tip e)" in notes(items)
    keys = {k["needs"]: k["places"] for k in panels(items)["key-cards"]}
    assert {"where": "pile3", "under": 1} in keys["Q♠"]
    assert "A♣" not in keys and "2♣" in keys, "the A♣ went home; the right K♣ now needs the 2♣"


def test_memory_prefers_the_order_the_fan_went_back_in():
    s0 = position({6: ["2s", "Jh"]}, seen={1: "6c"})
    history = []
    s = s0.copy()
    for text in ("turn", "return 6c 2s Jh"):
        mv = G.parse_move(s, text)
        history.append((s.copy(), mv))
        G.apply(s, mv)
    seen = G.observation(s)
    assert [x.token() for x in seen.areas["pile"][5]] == ["?", "?", "Jh"]
    assert [x.card.label for x in recall(seen, history).areas["pile"][5]] == ["6c", "2s", "Jh"]
    # Knowing only the pile before it was picked up, the new order cannot be guessed.
    assert [x.token() for x in recall(seen, history[:1]).areas["pile"][5]] == ["?", "?", "Jh"]


def test_keeling_fans_stay_open_shows_the_pile_and_memory_agrees():
    s = position({6: ["2s", "Jh"]}, seen={1: "6c"}, options={"fans_stay_open": True})
    G.apply(s, Move.act("turn"))
    G.apply(s, Move.act("return", "6c", "2s", "Jh"))
    memory = panels(run(tips.perfect_memory, s))["memory"]
    assert memory["piles"][5] == {"pile": 6, "cards": ["6♣", "2♠", "J♥"], "covered": [False, False, False], "returned": True}


# ------------------------------------------------------------------ tip f

def test_removal_order_takes_the_copy_from_the_pile_never_picked_up():
    # Both Q♠ are free: pile 2 (all 2s elsewhere: top priority) and pile 9 (its 9♦ fell on its own number).
    s = position({2: ["5c", "Qs"], 9: ["4h", "Qs"], 1: all_of("2")[:4], 3: all_of("2")[4:]}, seen={3: "9d"})
    k = knowledge(s)
    assert k.priority[1] == TOP and k.priority[8] == VERY_LOW
    items = run(tips.removal_order, s)
    assert suggestions(items) == [("pile2>left-kings1", 130.0), ("pile9>left-kings1", 100.0), ("turn", 50.0)]
    assert "top priority" in items[0].reason and "harder to reach later" in items[0].reason
    assert "very low priority" in items[1].reason


def test_turn_is_suggested_once_nothing_is_worth_moving():
    s = position({4: ["9s"]})
    items = run(tips.removal_order, s)
    assert suggestions(items) == [("turn", 50.0)]
    assert items[0].reason.startswith("no card worth moving")


# ------------------------------------------------------------------ tip g

def test_a_card_fitting_both_kings_that_frees_nothing_is_held():
    # Left spades wait for the 6♠ (Q..7 home), right spades too (A..5 home); one 6♠ is free.
    s = position({4: ["6s"], 8: ["3h"]}, left={"s": 6}, right={"s": 5})
    items = run(tips.left_or_right, s)
    assert suggestions(items) == [("pile4>left-kings1", 10.0), ("pile4>right-kings1", 9.5)]
    assert "hold it back" in items[0].reason
    assert "♠: the left king wants the 6♠ and the right one the 6♠; either 6♠ can go to either king (tip g)" in notes(items)


def test_a_card_fitting_both_kings_goes_where_it_frees_more():
    # The 5♠ lies on top of pile 8: the 6♠ going left frees it (left then wants the 5♠); going right frees nothing.
    s = position({4: ["6s"], 8: ["5s"]}, left={"s": 6}, right={"s": 5})
    # Pile 4 is a fairly low priority (weight 1): seven 4s are still face down.
    assert knowledge(s).priority[3] == FAIRLY_LOW
    items = run(tips.left_or_right, s)
    assert suggestions(items) == [("pile4>left-kings1", 100 + 10 * 1 + 1), ("pile4>right-kings1", 20.0)]
    assert "lets 1 more card follow at once, against 0 the other way" in items[0].reason


def test_near_kings_hold_a_pile_card_that_frees_nothing_but_not_at_the_end():
    # Left spades want the 8♠, right spades the 6♠: they are two apart.
    s = position({4: ["8s"]}, left={"s": 4}, right={"s": 5})
    items = run(tips.left_or_right, s)
    assert suggestions(items) == [("pile4>left-kings1", 10.0)]
    assert notes(items) == ["♠: the left king wants the 8♠ and the right one the 6♠; the ♠ cards from 6 to 8 can still go either way (tip g)"]
    assert suggestions(run(tips.removal_order, s)) == [("turn", 50.0)]
    # With nothing left to turn and no fan, holding back gains nothing: play it.
    data = s.to_json()
    data["areas"]["pile"][0] = [t.lstrip("~") for t in data["areas"]["face-down"][0]]
    data["areas"]["face-down"] = [[]]
    data["info"]["down_seen"] = []
    end = State.from_json(data)
    assert ("pile4>left-kings1", 100.0 + 10 * 3) in suggestions(run(tips.removal_order, end))


# ------------------------------------------------------------------ tip h

def test_fan_order_dead_cards_bottom_soonest_on_top():
    # The left K♥ already has one Q♥ (so the other Q♥ is dead); right clubs want the 3♣, left clubs the Q♣.
    s = position({}, left={"h": 1}, right={"c": 2}, fan=["Qh", "9c", "4c", "3c"], fan_from=10)
    items = run(tips.fan_order_rule, s)
    assert dangers(items) == [("fan1", "dead", None)]
    assert suggestions(items) == [("return Qh 9c 4c 3c", 60.0)]
    assert notes(items) == ["put the 3♣ on top when the fan goes back (tip h)"]
    # Shuffled fan, same advice.
    s = position({}, left={"h": 1}, right={"c": 2}, fan=["3c", "4c", "Qh", "9c"], fan_from=10)
    assert suggestions(run(tips.fan_order_rule, s)) == [("return Qh 9c 4c 3c", 60.0)]


def test_fan_order_puts_the_card_that_frees_a_top_priority_pile_higher():
    # Right diamonds want the 3♦, right hearts the 3♥: the 4♦ and 4♥ are each one card away.
    # The 5♥ tops pile 2, which will never be picked up (all 2s are elsewhere): the 4♥ frees it, so it goes higher.
    s = position({2: ["5h"], 1: ["2s", "2s", "2h"], 3: ["2d", "2c", "2c"]}, right={"d": 2, "h": 2},
                 fan=["4h", "4d"], fan_from=11)
    assert suggestions(run(tips.fan_order_rule, s)) == [("return 4d 4h", 60.0)]


def test_no_fan_no_fan_advice():
    assert run(tips.fan_order_rule, position({4: ["9s"]})) == []


# --------------------------------------------------------------- together

def test_following_the_advice_plays_then_returns_then_turns():
    s = position({2: ["As"], 5: ["9d"]}, seen={1: "5h"})
    order = []
    for _ in range(6):
        if not G.legal_moves(s):
            break
        a = advise(s, search=False)
        m = G.parse_move(s, a.suggestions[0].move)
        order.append(m.action)
        G.apply(s, m)
    # The A♠ goes home; the 5♥ is turned and pile 5 fanned; nothing in the fan fits, so it goes back.
    assert order[:3] == ["move", "turn", "return"]
    assert [x.card.label for x in s.areas["pile"][4]][:2] == ["5h", "9d"]


def test_advice_on_a_photo_with_unknown_cards_does_not_crash():
    s = G.new(8)
    obs = G.observation(s)
    obs.info = {"fan_from": None}
    a = advise(State.from_json(obs.to_json()), search=False)
    board = a.panels["count-board"]
    assert all(row["counted_on_other_piles"] is None for row in board["positions"])
    assert all(d.mark is None for d in a.dangers if d.kind in ("own-number", "count-under-eight", "count-of-eight"))


def test_advice_is_quick():
    s = G.new(12)
    G.apply(s, Move.act("turn"))
    t = time.perf_counter()
    advise(s, search=False)
    assert time.perf_counter() - t < 0.5


def test_an_unreadable_fan_card_is_remembered_only_from_the_same_fan():
    s0 = position({6: ["2s", "Jh"], 9: ["4d"]}, seen={1: "6c", 2: "9h"})
    history = []
    s = s0.copy()
    for text in ("turn", "return"):
        mv = G.parse_move(s, text)
        history.append((s.copy(), mv))
        G.apply(s, mv)
    # Pile 9 is picked up next: its fan is [4♦, 9♥]. A photo cannot read the 4♦.
    history.append((s.copy(), Move.act("turn")))
    G.apply(s, Move.act("turn"))
    photo = s.copy()
    photo.areas["fan"][0] = [Slot(None, True)]
    assert [x.card.label for x in recall(photo, history).areas["fan"][0]] == ["4d"]
    # Without the turn that laid this fan out, the older fan (2♠ J♥ 6♣ of pile 6) must not be used.
    assert recall(photo, history[:2]).areas["fan"][0][0].card is None
