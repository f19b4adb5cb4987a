"""Keeling's Uncle Remus tips as rules: hand-built positions with the exact flags and suggestions."""
from __future__ import annotations

import json
from collections import Counter

from advisor.advice import TURN_90, Context, advise
from advisor.catalogue import fact
from advisor.engine import Move, State, get_game
from advisor.tips import uncle_remus as tips

GID = "uncle-remus"
G = get_game(GID)
RANKS_DOWN = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]


def book(suit: str) -> list[str]:
    return [r + suit for r in RANKS_DOWN]


def position(cols: list[list[str]], stock: int = 0, books: tuple[str, ...] = (), options: dict | None = None) -> State:
    """The given columns; the cards not shown lie unknown: ``stock`` of them face down in the stock, one
    unreadable face-up card ('?') in each column not given, the rest unreadable in the last column.
    No tip can use an unreadable card, so the columns not given play no part."""
    used = Counter(t.lstrip("~").split(":")[0] for c in cols for t in c)
    used.update(t for s in books for t in book(s))
    used.pop("", None)
    used.pop("?", None)
    assert not used - Counter(c.label for c in G.deck())
    n = sum(len(c) for c in cols) + 13 * len(books)
    ncol = (options or {}).get("columns", 10)
    columns = [list(c) for c in cols] + [["?"] for _ in range(ncol - 1 - len(cols))] + [[]]
    n += ncol - 1 - len(cols)
    junk = 104 - n - stock
    assert junk >= 0
    if junk:
        assert not columns[-1]
        columns[-1] = ["?"] * junk
    return State.from_json({"game": GID, "options": options or {}, "areas": {
        "column": columns, "stock": [["~"] * stock], "books": [book(s) for s in books]}})


def run(rule, state: State) -> list:
    return list(rule(Context(G, state, ())))


def suggestions(items) -> list[tuple[str, float]]:
    return [(s.move, round(s.score, 2)) for s in items if hasattr(s, "move")]


def panels(items) -> dict:
    return dict(i for i in items if isinstance(i, tuple))


def notes(items) -> list[str]:
    return [i for i in items if isinstance(i, str)]


# ------------------------------------------------------------ tips 2 and 3

def test_mixed_suit_sequences_are_turned_90_degrees():
    f = fact(GID, "false-set")["data"]
    s = position([["~", f["lower"], f["upper"]], ["~", "9s", "8s"], ["~", "Jc", "10s"], ["~", "7c", "5c"],
                  ["~", "3s", "2h"]], stock=44)
    out = run(tips.false_sets, s)
    assert [(d.where, d.depth, d.card, d.kind, d.mark) for d in out] == [
        ("column1", 2, "4h", "false-set", TURN_90),
        ("column3", 2, "10s", "false-set", TURN_90),
        ("column5", 2, "2h", "false-set", TURN_90),
    ]
    assert "the 4♥ lies on the 5♦" in out[0].reason and "Both are red" in out[0].reason
    assert "Both are black" in out[1].reason
    assert "Both are" not in out[2].reason


# ------------------------------------------------------------------- tip 4

def test_same_suit_joins_are_suggested_first_among_simple_moves():
    s = position([["~", "5h", "4s"], ["~", "5s"], ["~", "6c", "5c"], ["~", "6c"], ["~", "5d"],
                  ["3h"], ["~", "4h"]], stock=44)
    out = run(tips.same_suit_first, s)
    assert suggestions(out) == [("column1>column2", 30.01), ("column6>column7", 33.01)]
    assert "joins the 4♠ to the 5♠ of its own suit" in out[0].reason
    assert "empties column 6" in out[1].reason
    # the 5♣ already lies on a club six: moving it to the other six of clubs gains nothing
    assert "column3>column4" not in [m for m, _ in suggestions(out)]


def test_a_move_suggested_by_two_tips_is_listed_once_with_both_reasons():
    # 3♥ onto 4♥ joins a same-suit set and starts a fiddle: the 4♥-3♥ set then goes into the new space
    s = position([["3h"], ["~", "4h"]], stock=44)
    adv = advise(s, search=False)
    moves = [x.move for x in adv.suggestions]
    assert moves[0] == "column1>column2" and moves.count("column1>column2") == 1
    merged = adv.suggestions[0]
    # the look-ahead plans the same fiddle, so its score leads and the others' reasons follow
    assert merged.rule == "look-ahead"
    assert ("also (fiddle): a fiddle of 2 moves (column1>column2, column2x2>column1) turns up a face-down card "
            "in column 2") in merged.reason
    assert "also (same-suit-first): joins the 3♥ to the 4♥" in merged.reason


# -------------------------------------------------------------- tips 5-6

def test_fiddle_of_two_moves_turns_up_a_card():
    s = position([["~", "5h"], ["~", "6d", "Ac"], ["~", "2s"]], stock=44)
    out = run(tips.fiddle_rule, s)
    assert suggestions(out) == [("column2>column3", 48.0)]
    assert out[0].reason == ("a fiddle of 2 moves (column2>column3, column1>column2) turns up a face-down card "
                             "in column 1")


def test_fiddle_finds_a_book_first():
    s = position([["~", *book("s")[:-1]], ["~", "3c", "As"], ["~", "2d"]], stock=4)
    out = run(tips.fiddle_rule, s)
    assert suggestions(out) == [("column2>column1", 50.0)]
    assert out[0].reason == "this move puts a completed book aside"


def test_fiddle_makes_a_space_when_nothing_can_be_turned_up():
    s = position([["4d"], ["~", "5s"]], stock=44)
    out = run(tips.fiddle_rule, s)
    assert suggestions(out) == [("column1>column2", 39.0)]
    assert out[0].reason == "this move makes a new space in column 1"


def test_fiddle_prefers_not_to_lose_a_space():
    # The 7♥ can reach column 3's eight (no space used) or the space; both turn up a card.
    s = position([["~", "7h"], [], ["~", "8c"]], stock=44)
    out = run(tips.fiddle_rule, s)
    assert suggestions(out) == [("column1>column3", 49.0)]


# ------------------------------------------------------------------- tip 8

def test_space_goes_to_the_set_on_fewest_face_down_cards():
    s = position([[], ["~", "~", "~", "9c", "8c"], ["~", "7h"], ["~", "~", "Qd"], ["~", "5s", "4d"]], stock=44)
    out = run(tips.space_choice, s)
    assert suggestions(out) == [("column3>column1", 19.0), ("column4>column1", 17.99),
                                ("column2x2>column1", 16.98)]
    assert "lies on a single face-down card" in out[0].reason and "the fewest" in out[0].reason
    assert "lies on 2 face-down cards" in out[1].reason
    # column 5 cannot go in one piece (the 4♦ is not a diamond set with the 5♠)
    assert all("column5" not in m for m, _ in suggestions(out))


def test_no_space_no_space_advice():
    s = position([["~", "7h"], ["~", "9s"]], stock=44)
    assert run(tips.space_choice, s) == []


# -------------------------------------------------------------- tips 9-11

def test_accessible_columns_are_counted_before_a_deal():
    s = position([["Kh", "Qh"], ["5c"], ["~", "5d"], ["9s", "8h"], []], stock=44)
    out = run(tips.accessible_columns, s)
    assert panels(out)["accessible-columns"] == {"count": 2, "columns": [1, 2], "spaces": [5], "cards_to_deal": 44}
    (note,) = notes(out)
    assert note.startswith("Before you deal: 2 accessible columns (1, 2)")
    assert "A space left open (5)" in note and "king" in note


def test_no_deal_note_once_all_cards_are_dealt():
    s = position([["Kh", "Qh"], ["~", "5d"]], stock=0)
    out = run(tips.accessible_columns, s)
    assert panels(out)["accessible-columns"]["cards_to_deal"] == 0
    assert notes(out) == []


# ------------------------------------------------------------------ tip 12

def test_kings_lying_on_other_cards_are_flagged_once_per_column():
    s = position([["~", "Kc"], ["Kd", "Qd"], ["~", "5h", "Ks", "Kh"]], stock=44)
    out = run(tips.kings_block, s)
    dangers = [i for i in out if not isinstance(i, tuple)]
    assert [(d.where, d.depth, d.card, d.kind, d.mark) for d in dangers] == [
        ("column1", 1, "Kc", "king-blocks", None), ("column3", 2, "Ks", "king-blocks", None)]
    assert "shares the column with 1 more king" in dangers[1].reason
    assert panels(out)["kings-blocking-columns"] == [1, 3]


# ------------------------------------------------------------------ tip 13

def test_king_and_space_placement_for_the_last_four_cards():
    f = fact(GID, "first-four-columns")["data"]
    s = position([["~", "5c"], [], ["~", "9d"], ["~", "Jh"], ["~", "7s"], ["~", "2c"], ["Ks", "Qs"], ["9h"]],
                 stock=44)
    out = run(tips.last_deal_columns, s)
    assert panels(out)["last-deal"] == {"columns": f["last_deal_columns"], "cards_left": 44}
    assert suggestions(out) == [("column7x2>column2", 17.02), ("column8>column2", 15.01)]
    assert "headed by a king" in out[1].reason and "space moves to column 7" in out[1].reason


def test_no_last_deal_advice_once_everything_is_dealt_or_without_a_space_in_the_first_four():
    s = position([["~", "5c"], [], ["Ks", "Qs"]], stock=0)
    assert run(tips.last_deal_columns, s) == []
    s = position([["~", "5c"], ["~", "8d"], ["~", "4h"], ["~", "Jc"], [], ["Ks", "Qs"]], stock=44)
    out = run(tips.last_deal_columns, s)
    assert suggestions(out) == []


def test_nine_columns_leave_five_for_the_last_deal():
    f = fact(GID, "nine-columns")["data"]
    s = position([["~", "5c"]], stock=59, options={"columns": 9})
    out = run(tips.last_deal_columns, s)
    assert panels(out)["last-deal"]["columns"] == list(range(1, f["left_over"] + 1))


# ------------------------------------------------------------------- tip 7

def test_a_potential_book_is_spotted():
    s = position([["Ks", "Qs", "Js", "10s"], ["~", "9s", "8s", "7s"], ["6s", "5s", "4h"], ["~", "4s", "3s", "2s"],
                  ["As"]], stock=44)
    out = run(tips.potential_book, s)
    (spades,) = panels(out)["potential-books"]
    assert spades["suit"] == "♠" and spades["run_from_king"] == 4
    assert spades["cards"]["four"] == ["column4"] and spades["cards"]["ace"] == ["column5"]
    assert notes(out) == ["All thirteen spades are face up (a run of 4 from the king already): see whether you "
                          "can fiddle them into a complete book and put it aside."]


def test_no_potential_book_while_a_card_of_the_suit_is_hidden():
    s = position([["Ks", "Qs", "Js", "10s"], ["~", "9s", "8s", "7s"], ["6s", "5s", "4h"], ["~", "4s", "3s", "2s"],
                  ["~As", "Ac"]], stock=44)
    out = run(tips.potential_book, s)
    assert panels(out)["potential-books"] == [] and notes(out) == []


def test_two_books_aside_are_encouraging():
    s = position([["~", "5c"]], stock=14, books=("h", "d"))
    assert "2 books put aside" in " ".join(notes(run(tips.potential_book, s)))


# ------------------------------------------------------- end of a session

def test_deal_is_the_last_resort():
    s = position([["~", "7h"], ["~", "9s"]], stock=44)
    adv = advise(s, search=False)
    assert [x.move for x in adv.suggestions] == ["deal"]
    # the look-ahead finds no plan and says deal too: one suggestion, both reasons
    assert adv.suggestions[0].rule == "look-ahead" and "also (end-of-session)" in adv.suggestions[0].reason
    assert run(tips.end_of_session, s)[0].score == 5.0
    assert run(tips.end_of_session, position([["~", "7h"]], stock=0)) == []


def test_a_finished_book_still_on_the_table_silences_the_move_tips():
    s = position([["~", *book("c")], ["~", "9d"], ["~", "10s"]], stock=4)
    assert G.legal_moves(s) == [Move.act("remove", "column1")]
    adv = advise(s, search=False)
    assert adv.suggestions == []


# ------------------------------------------------------------ integration

def test_advice_is_json_and_works_on_a_camera_observation():
    obs = G.observation(G.new(3))
    adv = advise(obs, search=False)
    json.dumps(adv.to_json())
    assert adv.suggestions and adv.suggestions[0].rule in {r.name for r in tips.BOOK.rules}


def test_following_the_tips_never_goes_round_in_circles():
    for seed in (1, 2):
        s = G.new(seed)
        seen = set()
        for _ in range(400):
            adv = advise(s, search=False)
            if not adv.suggestions:
                break
            key = s.dumps()
            assert key not in seen
            seen.add(key)
            G.apply(s, G.parse_move(s, adv.suggestions[0].move))
        else:
            raise AssertionError("the tip player did not finish in 400 moves")


def test_every_rule_names_its_tip():
    names = [r.name for r in tips.BOOK.rules]
    assert len(names) == len(set(names))
    assert {"false-set", "accessible-columns", "space-choice", "last-deal-columns", "potential-book"} <= set(names)
    assert all(r.source.startswith("Keeling, Uncle Remus") and r.summary for r in tips.BOOK.rules)
