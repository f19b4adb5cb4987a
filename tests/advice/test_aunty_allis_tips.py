"""Keeling's Aunty Allis tips (section B, part 4) as named rules, on hand-built positions."""
from __future__ import annotations

import random

import pytest

from advisor.advice import TILT_LEFT, TILT_RIGHT, TURN_90, advise
from advisor.cards import Card
from advisor.catalogue import fact
from advisor.engine import Slot, State, get_game
from advisor import aunty_allis_solver as solver
from advisor.tips.aunty_allis import BOOK, analyse
from tests.rules.test_aunty_allis import make

GID = "aunty-allis"
G = get_game(GID)
SEQ = {"first": [2, 5, 8, 11], "second": [3, 6, 9, 12], "third": [4, 7, 10, 13]}
ACES = ["As", "As", "Ah", "Ah", "Ad", "Ad", "Ac", "Ac"]


def fresh(first, second, third, rubbish, seed=0) -> State:
    """A lay-out as dealt: the four rows given in full, the other 72 cards shuffled into the stock."""
    given = [Card.parse(c) for row in (first, second, third, rubbish) for c in row]
    left = G.deck()
    for c in given:
        left.remove(next(x for x in left if x.face == c.face))
    random.Random(seed).shuffle(left)
    data = {"game": GID, "areas": {
        "first": [[c] for c in first], "second": [[c] for c in second], "third": [[c] for c in third],
        "rubbish": [[c] for c in rubbish], "stock": [["~" + str(c) for c in left]], "discard": [[]]}}
    return State.from_json(data)


def tips(state):
    return advise(state, search=False)


def flags(advice, kind=None):
    """{(place, depth, card, kind, mark)} of the dangers raised."""
    return {(d.where, d.depth, d.card, d.kind, d.mark) for d in advice.dangers if kind is None or d.kind == kind}


def suggested(advice):
    return [(s.move, s.rule) for s in advice.suggestions]


def test_every_tip_is_a_named_rule_with_its_source():
    names = [r.name for r in BOOK.rules]
    assert {"dead-cards", "danger-cards", "postpone-for-a-starter", "reshuffle-now", "play-order",
            "rescue-live-cards", "throw-out-aces", "spend-spaces-well"} <= set(names)
    assert all("Keeling" in r.source and r.summary for r in BOOK.rules)


# ------------------------------------------------------------- dead cards

def test_after_the_lay_out_honours_and_their_immediate_juniors_are_dead():
    f = fact(GID, "immediate-junior")["data"]
    senior, junior = Card.parse(f["senior"]), Card.parse(f["junior"])
    assert senior.suit == junior.suit and senior.rank - junior.rank == 3 and senior.rank in (11, 12, 13)
    s = fresh(["Ah", "5s", "9d", "3c", "Kh", "2s", "7h", "6c"], ["10s", "4h", "8c", "Qh", "2d", "5c", "As", "Jd"],
              ["7s", "3d", "Qc", "6d", "9s", "4s", "Ks", "2h"], ["Kd", "10c", "5h", "Qs", "9h", "4c", "Jc", "8d"])
    a = tips(s)
    dead = flags(a, "dead")
    assert dead == {("rubbish1", 0, "Kd", "dead", TILT_RIGHT), ("rubbish2", 0, "10c", "dead", TILT_RIGHT),
                    ("rubbish4", 0, "Qs", "dead", TILT_RIGHT), ("rubbish5", 0, "9h", "dead", TILT_RIGHT),
                    ("rubbish7", 0, "Jc", "dead", TILT_RIGHT), ("rubbish8", 0, "8d", "dead", TILT_RIGHT)}
    assert a.panels["dead-cards"] == {"dead": 6, "rubbish": 8, "all_dead": False}
    # the ten is dead as the immediate junior of the king of its suit
    why = next(d.reason for d in a.dangers if d.card == "10c")
    assert "immediate junior" in why and "K♣" in why


def test_a_potential_dead_card_on_a_dead_card_is_dead_but_not_on_a_live_one():
    s = make(rubbish={1: "Ks 8c", 2: "5h Js", 3: "Qd Ac"}, stock=8)
    dead = flags(tips(s), "dead")
    assert ("rubbish1", 1, "8c", "dead", TILT_RIGHT) in dead
    assert ("rubbish3", 1, "Ac", "dead", TILT_RIGHT) in dead
    assert not any(w == "rubbish2" for w, *_ in dead)      # the 5♥ is live, so the J♠ on it is not dead


def test_dead_chain_fact_queen_nine_six_three_of_a_suit():
    chain = fact(GID, "dead-chain")["data"]["chain"]
    cards = [Card.parse(c) for c in chain]
    # independently: one suit, each a senior of the next by three ranks, all of the second row (3-6-9-Q)
    assert len({c.suit for c in cards}) == 1 and [c.rank for c in cards] == [12, 9, 6, 3]
    s = make(second={1: "3h"}, rubbish={1: " ".join(chain)}, stock=8)
    a = tips(s)
    assert flags(a, "dead") == {("rubbish1", j, c, "dead", TILT_RIGHT) for j, c in enumerate(chain)}
    assert "chain" in next(d.reason for d in a.dangers if d.card == chain[2])
    # out of order the chain breaks: the six on the three of the same suit is not dead
    broken = make(second={1: "3h"}, rubbish={1: f"{chain[0]} {chain[1]} {chain[3]} {chain[2]}"}, stock=8)
    assert {(w, j) for w, j, *_ in flags(tips(broken), "dead")} == {("rubbish1", 0), ("rubbish1", 1), ("rubbish1", 2)}


def test_a_card_dies_later_when_all_its_seniors_are_settled():
    # the six of hearts: one nine and one queen are built; the other queen is dead, the other nine still to come
    waiting = make(second={1: "3h 6h 9h Qh"}, rubbish={1: "6h", 2: "Kc Qh"},
                   stock="9h 7c 7c 7s 7s 7d 7d 5c")
    assert ("rubbish1", 0) not in {(w, j) for w, j, *_ in flags(tips(waiting), "dead")}
    # once the other nine has fallen on the dead queen, nothing that needs the six can land on it
    settled = make(second={1: "3h 6h 9h Qh"}, rubbish={1: "6h", 2: "Kc Qh 9h"}, stock=8)
    a = tips(settled)
    assert ("rubbish1", 0, "6h", "dead", TILT_RIGHT) in flags(a, "dead")
    assert "later death" in next(d.reason for d in a.dangers if d.card == "6h")


# ----------------------------------------------------------- danger cards

def test_danger_card_fact_a_king_on_its_ten():
    f = fact(GID, "danger-card")["data"]
    k, ten = f["danger"], f["lies_on"]
    s = make(third={1: "4d", 2: "4d 7d"}, rubbish={1: f"{ten} 5s {k}", 2: "Qc"}, stock=8)
    a = tips(s)
    assert flags(a, "danger") == {("rubbish1", 2, k, "danger", TURN_90)}
    assert ("rubbish1", 0, ten, "dead", TILT_RIGHT) in flags(a)
    assert a.winnable is None


def test_a_danger_card_is_relieved_when_its_twin_falls_dead_then_it_plays_first():
    # the other king of diamonds lands on the dead queen of clubs
    s = make(third={1: "4d 7d", 2: "4d 7d"}, rubbish={1: "10d Kd", 2: "Qc Kd", 3: "10d"}, stock=8)
    a = tips(s)
    assert flags(a, "play-first") == {("rubbish1", 1, "Kd", "play-first", TILT_LEFT)}
    assert ("rubbish2", 1, "Kd", "dead", TILT_RIGHT) in flags(a)
    assert not flags(a, "danger")
    # on a live card the twin brings no relief
    s2 = make(third={1: "4d 7d", 2: "4d 7d"}, rubbish={1: "10d Kd", 2: "5h Kd", 3: "10d"}, stock=8)
    assert flags(tips(s2), "danger") == {("rubbish1", 1, "Kd", "danger", TURN_90)}


def test_the_relieved_card_is_suggested_before_its_twin():
    s = make(third={1: "4d 7d 10d", 2: "4d 7d"}, rubbish={1: "10d Kd", 2: "Qc Kd"}, stock=8)
    a = tips(s)
    assert ("rubbish1>third1", "danger-cards") in suggested(a)
    assert "rubbish2>third1" not in [m for m, _ in suggested(a)]
    assert any("do not play the K♦ in rubbish 2 before the one in rubbish 1" in n for n in a.notes)


def test_hopeless_king_fact_is_blocked_and_the_game_lost():
    f = fact(GID, "hopeless-king")["data"]
    suit = Card.parse(f["built"]).suit
    s = make(third={1: f"4{suit} 7{suit} 10{suit} K{suit}", 2: f"4{suit}"},
             rubbish={3: f"{f['on']} {f['falls']}"}, stock=8)
    a = tips(s)
    assert flags(a, "blocked") == {("rubbish3", 1, f["falls"], "blocked", TURN_90)}
    assert a.winnable.verdict == "no" and a.winnable.exact
    assert a.panels["reshuffle"]["advised"]


# ---------------------------------------------------------- plain advice

def test_an_ace_on_top_of_the_rubbish_row_is_always_suggested():
    s = make(first={1: "2h"}, rubbish={1: "Kd Ah", 2: "5h"}, stock=8)
    a = tips(s)
    best = a.suggestions[0]
    assert (best.move, best.rule) == ("rubbish1>discard1", "throw-out-aces")


def test_live_cards_are_rescued_and_dead_ones_can_wait():
    # the 5♥ (live, on the 6♣) and the 10♣ (dead: immediate junior of the K♣) can both be built
    s = make(first={1: "2h"}, third={1: "4c 7c"}, rubbish={1: "6c 5h", 2: "10c"}, stock=8)
    a = tips(s)
    moves = suggested(a)
    assert ("rubbish1>first1", "rescue-live-cards") in moves
    assert "rubbish2>third1" not in [m for m, _ in moves]


def test_a_place_is_opened_for_a_live_starter():
    s = make(second={4: "Ac"}, rubbish={1: "Qh 9h 3c"}, stock=32)
    a = tips(s)
    assert suggested(a) == [("second4>discard1", "rescue-live-cards")]
    assert "3♣" in a.suggestions[0].reason


def test_a_card_is_not_built_before_its_twin_lying_on_a_junior():
    # both kings of diamonds could go on the 10♦; the one lying on the other 10♦ must go first
    s = make(third={1: "4d 7d 10d", 2: "4d 7d"}, rubbish={1: "10d Kd", 2: "5h Kd"}, stock=8)
    a = tips(s)
    assert flags(a, "danger") == {("rubbish1", 1, "Kd", "danger", TURN_90)}
    assert suggested(a) == [("rubbish1>third1", "rescue-live-cards")]


def top_suggestion(**layout):
    """The advice for a hand-made layout, and its first suggestion."""
    a = tips(make(**layout))
    return a, a.suggestions[0]


def test_a_space_is_filled_from_junk_in_another_row_before_the_rubbish_row():
    # Second 1 is empty. The 3♣ on the rubbish row could fill it, but the 3♥ lying as junk in the first row can
    # too, and the 2♦ on the rubbish row then fills first 3: one space seats two starters. The old advice took
    # the 3♣ from the rubbish row and left the 3♥ stuck in the first row.
    a, best = top_suggestion(first={3: "3h"}, second={1: ""}, rubbish={1: "3c", 2: "2d"}, stock=8)
    assert (best.move, best.rule) == ("first3>second1", "spend-spaces-well")
    assert "two starters" in best.reason
    assert ("rubbish1>second1", "rescue-live-cards") in suggested(a)     # still listed, below


def test_a_card_is_built_out_of_an_operational_row_before_its_twin_on_the_rubbish_row():
    # Both fives of clubs can go on the 2♣: the one in the rubbish row (live) and the one lying as junk in the
    # second row. The old advice built the rubbish one, leaving the other stuck as junk; building the junk one
    # opens second 2 for the 3♥ waiting on the rubbish row.
    a, best = top_suggestion(first={1: "2c"}, second={2: "5c"}, rubbish={1: "5c", 2: "3h"}, stock=8)
    assert (best.move, best.rule) == ("second2>first1", "spend-spaces-well")
    assert "opens a place" in best.reason
    assert "rubbish1>first1" not in [m for m, _ in suggested(a)]
    # but a twin lying on its own junior on the rubbish row still goes first (tip 7)
    s = make(third={1: "4d 7d 10d"}, first={2: "Kd"}, rubbish={1: "10d Kd", 2: "2h"}, stock=8)
    a = tips(s)
    assert a.suggestions[0].move == "rubbish1>third1"
    assert ("first2>third1", "spend-spaces-well") not in suggested(a)


def test_postpone_keeping_the_only_opening_for_a_starter_still_to_come():
    # Row two can open one place only (the ace); the only three ready is the 3♥ on top of its dead chain.
    s = make(second={4: "Ac"}, rubbish={1: "Qh 9h 6h 3h"}, stock=32)
    a = tips(s)
    assert flags(a, "postpone") == {("second4", 0, "Ac", "postpone", None)}
    assert a.panels["openings"]["second"]["can_open_now"] == 1
    assert any("keeping the place" in n for n in a.notes)
    # a live three is worth bringing in at once: no postponement
    s = make(second={4: "Ac"}, rubbish={1: "Qh 9h 3c"}, stock=32)
    assert not flags(tips(s), "postpone")


def test_reshuffle_a_lay_out_without_aces_in_the_operational_rows_or_crowded_with_honours():
    s = G.new(1)
    rows_aces = sum(1 for r in SEQ for p in s.areas[r] if p[0].card.rank == 1)
    a = tips(s)
    assert a.panels["reshuffle"]["advised"] == (rows_aces == 0 or any(
        sum(1 for p in s.areas[r] if p[0].card.rank > 10) >= 4 for r in SEQ))
    rubbish = ["5h", "6h", "7h", "8h", "9h", "10h", "5d", "6d"]
    crowded = fresh(["Kh", "Qs", "Jd", "Kc", "Ad", "2s", "5s", "8s"], ["As", "3s", "6s", "9s", "Qd", "4d", "7d", "10d"],
                    ["4s", "7s", "10s", "Ks", "2c", "3c", "4c", "5c"], rubbish)
    reasons = tips(crowded).panels["reshuffle"]["reasons"]
    assert len(reasons) == 1 and "honours" in reasons[0] and "first row" in reasons[0]
    no_aces = fresh(["Kh", "Qs", "2d", "5c", "2h", "2s", "5s", "8s"], ["3h", "3s", "6s", "9s", "Qd", "4d", "7d", "10d"],
                    ["4s", "7s", "10s", "Ks", "2c", "3c", "4c", "Jc"], rubbish)
    reasons = tips(no_aces).panels["reshuffle"]["reasons"]
    assert len(reasons) == 1
    assert any("no ace" in r for r in reasons)


# ------------------------------------------------------ the order of play

def test_winning_with_dead_cards_needs_the_right_order():
    aces = ACES[:-1]
    s = make(third={1: "4d 7d", 2: "4d 7d"}, rubbish={1: "10d Kd", 2: "Ac Kd", 3: "10d"}, discard=aces)
    a = tips(s)
    assert a.winnable.verdict == "yes" and a.winnable.exact
    plan = a.winnable.plan
    # the relieved king (rubbish 1) is built before its twin (rubbish 2)
    assert plan.index("rubbish1>third1") < plan.index("rubbish2>third2")
    assert a.suggestions[0].move == plan[0] and a.suggestions[0].rule == "play-order"
    board = s.copy()
    for m in plan:
        G.apply(board, G.parse_move(board, m))
    assert G.is_won(board)
    # playing the twin first loses: the solver says so
    wrong = s.copy()
    for m in ("rubbish3>third1", "rubbish2>third1"):
        G.apply(wrong, G.parse_move(wrong, m))
    assert solver.solve(wrong).verdict == "no"


def test_all_dead_win_fact_thirty_dead_cards_played_out():
    need = fact(GID, "all-dead-win")["data"]["rubbish_cards_at_least"]
    # ten chains honour-junior-junior in ten suit-rows, each pile of the rubbish row a stack of chains
    chains = []
    for row in SEQ:
        for suit in "shdc":
            chains.append([Card(SEQ[row][3], suit), Card(SEQ[row][2], suit), Card(SEQ[row][1], suit)])
    chains = chains[:10]
    rubbish = {i + 1: "" for i in range(8)}
    for k, ch in enumerate(chains):
        rubbish[k % 8 + 1] += " " + " ".join(c.label for c in ch)
    places = {row: {} for row in SEQ}
    for ch in chains:
        row = next(r for r in SEQ if ch[0].rank in SEQ[r])
        places[row][len(places[row]) + 1] = f"{SEQ[row][0]}{ch[0].suit}"
    s = make(**places, rubbish={k: v.strip() for k, v in rubbish.items()}, discard=ACES)
    total = sum(len(p) for p in s.areas["rubbish"])
    assert total >= need
    a = tips(s)
    assert a.panels["dead-cards"] == {"dead": total, "rubbish": total, "all_dead": True}
    assert a.winnable.verdict == "yes" and len(a.winnable.plan) == total


# ------------------------------------------------------------------ solver

def _reverse_position(seed: int, steps: int) -> State:
    """A position reached from a won table by undoing random moves: winnable by construction."""
    rng = random.Random(seed)
    areas = {}
    for r in SEQ:
        areas[r] = [[Slot(Card(x, s, c)) for x in SEQ[r]] for s in "shdc" for c in (1, 2)]
        rng.shuffle(areas[r])
    areas["rubbish"] = [[] for _ in range(8)]
    areas["stock"] = [[]]
    areas["discard"] = [[Slot(Card(1, s, c)) for s in "shdc" for c in (1, 2)]]
    junk = set()
    for _ in range(steps):
        k, i = rng.random(), rng.randrange(8)
        if k < 0.15 and areas["discard"][0]:
            areas["rubbish"][i].append(areas["discard"][0].pop())          # undo an ace thrown out
        elif k < 0.4:                                                        # undo a golden-rule chain
            r, p = rng.choice(list(SEQ)), rng.randrange(8)
            if (r, p) in junk or len(areas[r][p]) != 1:
                continue
            tops = [(r2, q) for r2 in SEQ for q in range(8)
                    if (r2, q) not in junk and len(areas[r2][q]) >= 2 and (r2, q) != (r, p)]
            if rng.random() < 0.3 and areas["discard"][0]:
                j = areas["discard"][0].pop()
            elif tops:
                r2, q = rng.choice(tops)
                j = areas[r2][q].pop()
            else:
                continue
            areas["rubbish"][i].append(areas[r][p].pop())
            areas[r][p].append(j)
            junk.add((r, p))
        else:                                                                # undo a build
            cands = [(r, p) for r in SEQ for p in range(8) if (r, p) not in junk and len(areas[r][p]) >= 2]
            r, p = rng.choice(cands)
            areas["rubbish"][i].append(areas[r][p].pop())
    return State.from_json(State(GID, areas, {}, {}).to_json())


@pytest.mark.parametrize("seed", range(6))
def test_solver_wins_positions_built_backwards_from_a_win(seed):
    s = _reverse_position(seed, 40 + 7 * seed)
    sol = solver.solve(s, seconds=5)
    assert sol.verdict == "yes"
    for m in sol.plan:
        assert G.why_illegal(s, m) is None
        G.apply(s, m)
    assert G.is_won(s)


def _brute(state, cap=4000):
    lost = set()
    count = [0]

    def dfs(s):
        if G.is_won(s):
            return True
        key = s.dumps()
        if key in lost:
            return False
        count[0] += 1
        if count[0] > cap:
            raise TimeoutError
        for m in G.legal_moves(s):
            c = s.copy()
            G.apply(c, m)
            if dfs(c):
                return True
        lost.add(key)
        return False
    try:
        return "yes" if dfs(state) else "no"
    except TimeoutError:
        return None


def test_solver_agrees_with_brute_force_on_small_end_games():
    checked = 0
    verdicts = set()
    for seed in range(12):
        s = _reverse_position(100 + seed, 14)
        # spoil half of them: turn the longest rubbish pile upside down
        if seed % 2:
            longest = max(s.areas["rubbish"], key=len)
            longest.reverse()
        expect = _brute(s)
        if expect is None:
            continue
        assert solver.solve(s).verdict == expect, seed
        verdicts.add(expect)
        checked += 1
    assert checked >= 8 and verdicts == {"yes", "no"}


def test_solver_needs_the_stock_used_up_and_every_card_known():
    s = G.new(3)
    assert solver.solve(s).verdict == "unknown"
    assert "stock" in solver.solvable_now(s)


def test_advice_never_peeks_at_the_stock_and_survives_unknown_cards():
    s = G.new(9)
    obs = G.observation(s)
    a_full, a_obs = tips(s), tips(obs)
    assert flags(a_full) == flags(a_obs) and suggested(a_full) == suggested(a_obs)
    data = s.to_json()
    data["areas"]["rubbish"][0] = ["?"]
    data["areas"]["first"][0] = ["?"]
    tips(State.from_json(data))     # no crash
    assert analyse(State.from_json(data)).of(0, 0) == "unknown"
