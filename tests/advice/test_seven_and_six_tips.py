"""Keeling's Seven and Six tips (section C, tips 7-14) as named rules, on hand-built positions."""
from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest

from advisor.advice import TURN_90, Context, Danger, Suggestion, Winnable, advise
from advisor.catalogue import fact
from advisor.cards import Card, full_deck
from advisor.engine import Loc, State, get_game
from advisor.tips import seven_and_six as tips

GID = "seven-and-six"
G = get_game(GID)
FAR, NEAR, STOCK = "far-column", "near-column", "stock"

B1 = ["Ks", "Qh", "Jc", "10d", "9s", "8h", "7c", "6d", "5s", "4h", "3c", "2d", "As"]
R1 = ["Kh", "Qs", "Jd", "10c", "9h", "8s", "7d", "6c", "5h", "4s", "3d", "2c", "Ah"]
B2 = ["Kc", "Qd", "Js", "10h", "9c", "8d", "7s", "6h", "5c", "4d", "3s", "2h", "Ac"]
R2 = ["Kd", "Qc", "Jh", "10s", "9d", "8c", "7h", "6s", "5d", "4c", "3h", "2s", "Ad"]
ALL_BOOKS = [B1, R1, B2, R2] * 2


def loc(n: int) -> Loc:
    return Loc(FAR, n - 1) if n <= 7 else Loc(NEAR, n - 8)


def where(n: int) -> str:
    return str(loc(n))


def position(cols: dict[int, list[str]], stock: list[str]) -> State:
    """A state with exactly these columns (1..13; others empty) and stock."""
    return State.from_json({"game": GID, "areas": {
        FAR: [cols.get(n, []) for n in range(1, 8)], NEAR: [cols.get(n, []) for n in range(8, 14)], STOCK: [stock]}})


def _face(t: str) -> str:
    return Card.parse(t.lstrip("~")).label


def _joined(lower: str, upper: str) -> bool:
    a, b = Card.parse(lower), Card.parse(upper)
    return a.rank == b.rank + 1 and a.is_red != b.is_red


def table(cols: dict[int, list[str]], books: int = 0, hide: tuple[str, ...] = ()) -> State:
    """A 104-card state: ``cols`` as given (``[]`` for a space); of the other columns the first ``books``
    hold turned-down books and the rest a single harmless face-up card on two face-down ones (no king, no
    ace, and neither senior nor junior of any face-up card); the remaining cards form the stock.
    Cards in ``hide`` are never shown face up by the filler, nor put in books."""
    pool = Counter(c.label for c in full_deck(2))
    for t in (t for p in cols.values() for t in p):
        pool[_face(t)] -= 1
    assert all(n >= 0 for n in pool.values()), "a card is named too often"
    out = {n: list(p) for n, p in cols.items()}
    free = [n for n in range(1, 14) if n not in cols]
    for _ in range(books):
        book = next(b for b in (R1, R2, B1, B2) if all(pool[c] > 0 for c in b) and not set(b) & set(hide))
        for c in book:
            pool[c] -= 1
        out[free.pop(0)] = ["~" + c for c in book]
    up = [_face(t) for p in out.values() for t in p if not t.startswith("~")]
    spare = sorted((c for c, n in pool.items() for _ in range(n)), key=lambda c: (c in hide, c))
    for n in free:
        pick = next(c for c in spare if c not in hide and Card.parse(c).rank not in (1, 13)
                    and not any(_joined(u, c) or _joined(c, u) for u in up))
        spare.remove(pick)
        low = [c for c in spare if c not in hide][:2] or spare[:2]
        for c in low:
            spare.remove(c)
        out[n] = ["~" + low[0], "~" + low[1], pick]
        up.append(pick)
    assert len(spare) <= 52, f"{len(spare)} cards left for the stock: park more books"
    return position(out, ["~" + c for c in spare])


def run(rule, state: State, history=()):
    return list(rule(Context(G, state, history)))


def dangers(items, kind=None):
    return [d for d in items if isinstance(d, Danger) and (kind is None or d.kind == kind)]


def suggestions(items):
    return [s for s in items if isinstance(s, Suggestion)]


def panels(items) -> dict:
    return {k: v for k, v in (i for i in items if isinstance(i, tuple))}


def notes(items) -> list[str]:
    return [i for i in items if isinstance(i, str)]


# ------------------------------------------------------------------ tip 8

SIXES_AND_SEVENS = ("7c", "7s", "6h", "6d")


def test_junior_above_its_own_senior_is_flagged_at_right_angles():
    f = fact(GID, "danger-signal")["data"]
    s = table({1: ["~2h", "~3h", *f["column"]], 2: ["~4d", "Qs", "9d"]}, books=2, hide=SIXES_AND_SEVENS)
    out = run(tips.junior_at_risk, s)
    [d] = dangers(out)
    assert (d.where, d.depth, d.card, d.kind, d.mark) == (where(1), 4, f["junior"], "junior-at-risk", TURN_90)
    assert f["mark"] == TURN_90
    assert "7♣" in d.reason and f"{f['other_juniors']} others are not yet taken" in d.reason
    assert not suggestions(out)          # no black 7 shows anywhere else yet


def test_a_senior_showing_elsewhere_is_the_remedy():
    s = table({1: ["~2h", "~3h", "7c", "Jd", "6h"], 2: ["~4d", "Qs", "7s"]}, books=2)
    out = run(tips.junior_at_risk, s)
    [sug] = suggestions(out)
    assert sug.move == "far-column1>far-column2" and "junior at risk" in sug.reason
    a = advise(s, search=False)
    assert a.suggestions[0].move == "far-column1>far-column2"
    assert any(d.kind == "junior-at-risk" and d.mark == TURN_90 for d in a.dangers)


def test_when_the_other_three_seniors_are_married_the_game_is_lost():
    # Keeling: if the other three red sixes joined their black sevens, defeat would be certain
    f = fact(GID, "danger-signal")["data"]
    s = table({1: ["~2h", "~3h", *f["column"]],
               2: ["~4d", "7s", "6d"], 3: ["~5d", "7s", "6h"], 4: ["~8h", "7c", "6d"]}, books=2)
    out = run(tips.junior_at_risk, s)
    [d] = dangers(out)
    assert (d.where, d.card) == (where(1), "6h") and "game is lost" in d.reason
    [w] = [i for i in out if isinstance(i, Winnable)]
    assert (w.verdict, w.exact) == ("no", True)
    # one black 7 still unmarried: not lost yet
    s = table({1: ["~2h", "~3h", *f["column"]],
               2: ["~4d", "7s", "6d"], 3: ["~5d", "7s", "6h"], 4: ["~8h", "7c", "Jh"]}, books=2)
    out = run(tips.junior_at_risk, s)
    [d] = dangers(out)
    assert "1 other is not yet taken" in d.reason
    assert [i for i in out if i is not d] == []


def test_cards_joined_to_their_senior_are_not_at_risk():
    s = table({1: ["~2h", "~3h", "8d", "7c", "6h"]}, books=2)     # 6♥ lies straight on the 7♣: joined
    assert dangers(run(tips.junior_at_risk, s)) == []


# ------------------------------------------------------------------ tip 9

def _endgame() -> State:
    """Seven turned-down books known to the player; the eighth book's cards are on the table, three hidden."""
    cols = {n: ["~" + c for c in ALL_BOOKS[n - 1]] for n in range(1, 8)}
    # the last book is R2: Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 2s Ad
    cols[8] = ["~10s", "~4c", "9d"]
    cols[9] = ["~3h", "Kd", "Qc", "Jh"]
    cols[10] = ["8c", "7h", "6s", "5d"]
    cols[11] = ["2s"]
    cols[12] = ["Ad"]
    return position(cols, [])


def _brute_force(state: State, column: int, wanted: set[tuple[int, bool]]) -> Fraction:
    """Put the unseen cards in the unseen places every possible way; how often is a wanted card in ``column``?"""
    def turned_book(p):
        return len(p) == 13 and all(not x.face_up for x in p)
    slots, seen = [], Counter(c.label for c in full_deck(2))
    for n in range(1, 14):
        p = state.pile(loc(n))
        for j, x in enumerate(p):
            if x.face_up or turned_book(p):
                seen[x.card.label] -= 1
            else:
                slots.append(n)
    unseen = [Card.parse(c) for c, k in seen.items() for _ in range(k)]
    assert len(unseen) == len(slots)
    hits = total = 0
    for perm in itertools.permutations(unseen):
        total += 1
        hits += any(n == column and (c.rank, c.is_red) in wanted for n, c in zip(slots, perm))
    return Fraction(hits, total)


def test_concealed_senior_probability_matches_counting_every_deal():
    s = _endgame()
    out = run(tips.concealed_senior, s)
    panel = {(p["where"], p["card"]): p["probability"] for p in panels(out)["hidden-seniors"]}
    expected = _brute_force(s, 8, {(10, False)})     # the 9♦ wants a black 10
    assert expected == Fraction(2, 3)
    assert panel[(where(8), "9d")] == pytest.approx(float(expected), abs=1e-3)
    [d] = dangers(out, "concealed-danger")
    assert (d.where, d.depth, d.card) == (where(8), 2, "9d") and "67%" in d.reason


def test_no_concealed_danger_when_every_senior_is_in_sight():
    data = _endgame().to_json()
    # swap the hidden 10♠ with the 2♠ of column 11: the last black 10 is now in sight
    data["areas"][NEAR][0][0] = "~2s"
    data["areas"][NEAR][3] = ["10s"]
    s = State.from_json(data)
    out = run(tips.concealed_senior, s)
    panel = {(p["where"], p["card"]): p["probability"] for p in panels(out)["hidden-seniors"]}
    assert panel[(where(8), "9d")] == 0.0
    assert dangers(out, "concealed-danger") == []


def test_a_column_of_many_jinks_is_itself_a_danger():
    s = table({1: ["~2h", "~3h", "9d", "Qc", "5d", "Jh"], 2: ["~4d", "~4s", "9c", "8h"]}, books=2)
    out = run(tips.concealed_senior, s)
    jinks = dangers(out, "many-jinks")
    assert [(d.where, d.depth) for d in jinks] == [(where(1), None)]
    assert "4 separate sets" in jinks[0].reason
    # the chance covers the seniors of all four sets: a black 10, a red K, a black 6, a black Q
    view = tips.View.of(s)
    union = {(10, False), (13, True), (6, False), (12, False)}
    assert f"{round(100 * view.hidden_among(union, 2))}%" in jinks[0].reason
    assert view.hidden_among(union, 2) > max(view.hidden_among({c}, 2) for c in union)


def test_the_player_is_not_credited_with_knowing_face_down_cards():
    s = table({1: ["~7c", "~3h", "Jd", "6h"]}, books=2)
    data = s.to_json()
    for area in (FAR, NEAR):
        for p in data["areas"][area]:
            if not (len(p) == 13 and all(t.startswith("~") for t in p)):
                p[:] = ["~" if t.startswith("~") else t for t in p]
    data["areas"][STOCK][0] = ["~"] * len(data["areas"][STOCK][0])
    blind = State.from_json(data)
    p1 = {(p["where"], p["card"]): p["probability"] for p in panels(run(tips.concealed_senior, s))["hidden-seniors"]}
    p2 = {(p["where"], p["card"]): p["probability"] for p in panels(run(tips.concealed_senior, blind))["hidden-seniors"]}
    assert p1 == p2 and 0 < p1[(where(1), "6h")] < 1


# -------------------------------------------------------------- tips 10-12

def test_kings_are_curses_and_many_of_them_make_a_space_urgent():
    f = fact(GID, "curses")["data"]
    assert f["curses"] == ["K", "A"]
    s = table({1: ["~2h", "~3h", "Ks"], 2: ["~4h", "9d", "Kh"], 3: ["~4d", "Kc", "Qd"],
               4: ["9d", "8c"], 5: ["~5d", "Qs", "10s"], 6: ["~5h", "10c", "9h"]}, books=2)
    out = run(tips.kings_curse, s)
    assert [(d.where, d.depth, d.card) for d in dangers(out, "curse")] == [
        (where(1), 2, "Ks"), (where(2), 2, "Kh"), (where(3), 1, "Kc")]
    assert "3 kings are waiting" in notes(out)[0]
    [sug] = suggestions(out)
    assert sug.move == "far-column4x2>far-column5" and "makes a space" in sug.reason


def test_a_king_in_a_space_is_no_curse():
    s = table({1: ["Ks", "Qh"], 2: ["~4h", "9d"]}, books=2)
    assert dangers(run(tips.kings_curse, s)) == []


def test_aces_on_the_ends_of_columns_are_curses():
    s = table({1: ["~2h", "9c", "Ah"], 2: ["~4h", "9d", "As"], 3: ["~4d", "Jc", "Ac"], 4: ["~5d", "3h", "2s"]}, books=2)
    out = run(tips.aces_curse, s)
    assert [(d.where, d.card, d.kind) for d in dangers(out)] == [
        (where(1), "Ah", "curse"), (where(2), "As", "curse"), (where(3), "Ac", "curse")]
    assert "3 columns end in an ace" in notes(out)[0]
    assert [x.move for x in suggestions(out)] == ["far-column1>far-column4"]
    s = table({1: ["~2h", "9c", "Ah"], 2: ["~4h", "9d", "8s"]}, books=2)
    out = run(tips.aces_curse, s)
    assert len(dangers(out)) == 1 and not notes(out) and not suggestions(out)


# ------------------------------------------------------------------ tip 7

def test_two_juniors_for_one_senior_wait_while_a_card_can_be_turned_up():
    s = table({1: ["~2h", "~3h", "Qs", "6h"], 2: ["~4h", "Jc", "6d"], 3: ["~5d", "Qh", "7s"],
               4: ["~5h", "8c"], 5: ["~4d", "Kc", "9h"]}, books=2)
    out = run(tips.two_juniors, s)
    [contest] = panels(out)["contests"]
    assert contest["kind"] == "contested" and contest["wanted"] == "black 7"
    assert sorted(contest["juniors"]) == [f"6d@{where(2)}", f"6h@{where(1)}"]
    assert contest["seniors"] == [f"7s@{where(3)}"]
    assert any("put the choice off" in n for n in notes(out))
    # the 8♣ can leave column 4 and turn up its face-down card: do that first
    [sug] = suggestions(out)
    assert sug.move == "far-column4>far-column5" and "second senior" in sug.reason
    # the look-ahead agrees: its first choice turns a card up rather than choosing a six
    assert advise(s, search=False).suggestions[0].move == "far-column4>far-column5"


def test_when_the_choice_cannot_wait_the_junior_at_risk_goes_first():
    s = table({1: ["~2h", "~3h", "Qs", "6h"], 2: ["~4h", "7c", "Jc", "6d"], 3: ["~5d", "Qh", "7s"]}, books=2)
    out = run(tips.two_juniors, s)
    [sug] = suggestions(out)
    assert sug.move == "far-column2>far-column3" and "junior at risk" in sug.reason
    assert advise(s, search=False).suggestions[0].move == "far-column2>far-column3"


def test_one_junior_two_seniors_does_not_matter():
    s = table({1: ["~2h", "~3h", "Qs", "6h"], 2: ["~4h", "Jc", "7c"], 3: ["~5d", "Qh", "7s"]}, books=2)
    out = run(tips.two_juniors, s)
    assert any("seldom matters" in n for n in notes(out)) and not suggestions(out)
    assert panels(out)["contests"][0]["kind"] == "spare-seniors"


# ------------------------------------------------------------------ tip 13

def test_hold_the_kings_back_when_no_move_would_follow():
    # one space (column 13); the K♠ and K♥ could fill it, but the cards under them lead nowhere
    s = table({1: ["~2h", "~3h", "4c", "Ks"], 2: ["~4h", "~5h", "4d", "Kh"], 3: ["~4d", "Jc", "9h"], 13: []}, books=2)
    out = run(tips.hold_king_back, s)
    [sug] = suggestions(out)
    assert sug.move == "deal" and "keep the space" in sug.reason
    assert any("hold the kings" in n for n in notes(out))
    assert advise(s, search=False).suggestions[0].move == "deal"


def test_a_king_whose_move_opens_play_is_chosen():
    # moving the K♥ uncovers the 8♣, which can then go on the 9♥
    s = table({1: ["~2h", "~3h", "4c", "Ks"], 2: ["~4h", "~5h", "8c", "Kh"], 3: ["~4d", "Jc", "9h"], 13: []}, books=2)
    out = run(tips.hold_king_back, s)
    [sug] = suggestions(out)
    assert sug.move == "far-column2>near-column6" and "opens further play" in sug.reason
    assert advise(s, search=False).suggestions[0].move == "far-column2>near-column6"


def test_hold_back_only_applies_to_one_space_and_several_kings():
    s = table({1: ["~2h", "~3h", "4c", "Ks"], 3: ["~4d", "Jc", "9h"], 13: []}, books=2)
    assert run(tips.hold_king_back, s) == []


# ------------------------------------------------------------------ tip 14

def test_too_many_dead_columns():
    cols = {n: ["~" + c for c in ALL_BOOKS[n - 1]] for n in (1, 2, 3)}
    cols.update({4: ["~2h", "~3h", "Jc", "9h"], 5: [], 6: ["~4h", "10c", "8d"]})
    out = run(tips.dead_columns, table(cols))
    col_panel = panels(out)["columns"]
    assert col_panel["books"] == [where(1), where(2), where(3)]
    assert col_panel["spaces"] == col_panel["idle_spaces"] == [where(5)]
    assert col_panel["working"] == 9
    dead = dangers(out, "dead-column")
    assert [d.where for d in dead] == [where(1), where(2), where(3), where(5)]
    assert all("4 of the 13 columns are dead" in d.reason for d in dead)


def test_two_dead_columns_are_not_yet_flagged():
    cols = {n: ["~" + c for c in ALL_BOOKS[n - 1]] for n in (1, 2)}
    cols.update({3: ["~2h", "~3h", "Jc", "9h"], 4: ["~4h", "10c", "8d"]})
    out = run(tips.dead_columns, table(cols))
    assert dangers(out) == []
    assert panels(out)["columns"]["working"] == 11


# --------------------------------------------------------------- look-ahead

def test_the_look_ahead_prefers_turning_cards_up_and_deals_when_nothing_gains():
    s = table({1: ["~2h", "~3h", "9d", "8c"], 2: ["~4d", "Jd", "10s"], 3: ["~5d", "Qc", "10c"]}, books=2)
    best = max(suggestions(run(tips.session_plan, s)), key=lambda x: x.score)
    assert best.move == "far-column1x2>far-column2" and "turns up 1 face-down card" in best.reason
    s = table({1: ["~2h", "~3h", "9d", "Qc"], 2: ["~4d", "Jd", "10d"]}, books=2)
    [sug] = suggestions(run(tips.session_plan, s))
    assert sug.move == "deal"


def test_advice_is_json_and_every_rule_is_named_with_its_tip():
    a = advise(G.new(3), search=False)
    json.dumps(a.to_json())
    assert {r.name for r in tips.BOOK.rules} == {"session-plan", "two-juniors", "junior-at-risk", "concealed-senior",
                                                 "kings-curse", "aces-curse", "hold-king-back", "dead-columns"}
    assert all("tip" in r.source for r in tips.BOOK.rules)
    assert a.suggestions and len({x.move for x in a.suggestions}) == len(a.suggestions)


def test_tips_never_crash_on_a_partly_seen_table():
    data = G.observation(G.new(5)).to_json()
    data["areas"][FAR][0][-1] = "?"
    advise(State.from_json(data), search=False)
