"""Kings (Keeling, section F): rules derived from the text, the worked facts, deal-time rules and bad input."""
from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from advisor.cards import SUITS, Card, full_deck
from advisor.catalogue import fact
from advisor.engine import Board, Move, MoveError, State, StateError, get_game, playout

G = get_game("kings")
KING_ROW = {s: i for i, s in enumerate("shdc")}


# ------------------------------------------------------------------ helpers

def kings_column(built: dict[str, int] | None = None, side: str = "left") -> list[list[str]]:
    """A king column; ``built`` gives how many cards lie on each suit's king."""
    built = built or {}
    col = []
    for s in "shdc":
        n = built.get(s, 0)
        ranks = [13 - i for i in range(1, n + 1)] if side == "left" else list(range(1, n + 1))
        col.append([f"K{s}"] + [Card(r, s).label for r in ranks])
    return col


def make(piles: dict[int, list[str]] | None = None, *, left: dict | None = None, right: dict | None = None,
         fan: list[str] | None = None, fan_from: int | None = None, down: list[str] | None = None,
         options: dict | None = None, info: dict | None = None) -> State:
    """A hand-built position (not every card need be present)."""
    pile_list = [[] for _ in range(12)]
    for n, cards in (piles or {}).items():
        pile_list[n - 1] = list(cards)
    data = {
        "game": "kings",
        "options": options or {},
        "info": {"fan_from": fan_from, "returned": [], **(info or {})},
        "areas": {
            "left-kings": kings_column(left, "left"),
            "right-kings": kings_column(right, "right"),
            "pile": pile_list,
            "fan": [[c] for c in (fan or [])],
            "face-down": [["~" + c if not c.startswith("~") else c for c in (down or [])]],
        },
    }
    return State.from_json(data)


class FixedOrder(random.Random):
    """An rng whose shuffle lays the deck in a chosen order (the rest after it, unshuffled)."""

    def __init__(self, first: list[str]):
        super().__init__(0)
        self.first = first

    def shuffle(self, x):
        wanted = Counter()
        head = []
        pool = list(x)
        for label in self.first:
            c = next(c for c in pool if c.label == label and wanted[c] == 0)
            wanted[c] += 1
            pool.remove(c)
            head.append(c)
        x[:] = head + pool


def independent_counting_deal(cards: list[Card]):
    """The counting deal written out again from the text, for comparison."""
    piles = {n: [] for n in range(1, 13)}
    face_down = []
    as_seen = []        # what the player saw going face down: the card, or None when put down unseen
    fell_own = {n: [] for n in range(1, 13)}
    queue = [c for c in cards if c.rank != 13]
    counted = 1
    placed_this_round = 0
    while queue:
        card = queue.pop(0)
        if card.rank == counted:
            face_down.append(card)
            as_seen.append(str(card))
            fell_own[counted].append(card)
            continue
        piles[counted].append(card)
        placed_this_round += 1
        counted += 1
        if placed_this_round == 12:
            placed_this_round = 0
            counted = 1
            if queue:
                face_down.append(queue.pop(0))
                as_seen.append(None)
    return piles, face_down, fell_own, as_seen


def labels(pile) -> list[str]:
    return [s.card.label for s in pile]


# ----------------------------------------------------------------- layout

def test_layout_kings_columns_flank_a_four_by_three_playing_area():
    lay = G.layout(G.check_options({}))
    assert sorted(lay.names) == sorted(["left-kings", "right-kings", "pile", "fan", "face-down"])
    left, right, pile = lay["left-kings"], lay["right-kings"], lay["pile"]
    assert left.count == right.count == 4 and pile.count == 12
    pos = [pile.position(i) for i in range(12)]
    rows = sorted({round(y, 6) for _, y in pos})
    cols = sorted({round(x, 6) for x, _ in pos})
    assert len(rows) == 4 and len(cols) == 3
    # Position 1 far left, 3 far right of the far row; 4 starts the next row; 12 is near right.
    assert pos[0][1] == pos[2][1] < pos[3][1] and pos[0][0] == pos[3][0] < pos[1][0] < pos[2][0]
    assert pos[11] == pytest.approx((max(cols), max(rows)))
    # The piles lie between the columns of kings, which stand one above the other.
    assert all(left.position(0)[0] < x < right.position(0)[0] for x, _ in pos)
    assert left.position(0)[1] < left.position(3)[1] and left.position(0)[0] == left.position(3)[0]
    # The fan and the face-down pile lie nearer the player than the playing area; the face-down pile on the right.
    near = max(max(y for _, y in pos), right.position(3)[1])
    assert lay["fan"].origin[1] > near and lay["face-down"].origin[1] > near
    assert lay["face-down"].origin[0] >= max(cols) and lay["fan"].fan == (0.0, 0.0) and lay["fan"].step[0] > 0
    assert pile.fan == (0.0, 0.0), "piles are squared by default"
    assert G.layout(G.check_options({"fans_stay_open": True}))["pile"].fan[0] > 0
    assert pile.to_json()["wrap"] == 3


# ------------------------------------------------------------------- deal

def test_fact_king_order_and_columns():
    order = fact("kings", "king-order")["data"]["order"]
    s = G.new(21)
    for area in ("left-kings", "right-kings"):
        assert [p[0].card.label for p in s.areas[area]] == [f"K{x}" for x in order]
        assert all(len(p) == 1 for p in s.areas[area])
    kings = [p[0].card for a in ("left-kings", "right-kings") for p in s.areas[a]]
    assert Counter(kings) == Counter(c for c in full_deck(2) if c.rank == 13)


def test_fact_deal_size_and_deal_matches_the_counting_rule_written_again():
    f = fact("kings", "deal-size")["data"]
    assert f["packs"] == G.packs
    for seed in (1, 2, 3, 40, 41):
        s = G.new(seed)
        deck = full_deck(2)
        random.Random(seed).shuffle(deck)
        piles, face_down, fell_own, as_seen = independent_counting_deal(deck)
        assert len(deck) - f["kings"] == f["dealt"] == sum(len(p) for p in piles.values()) + len(face_down)
        for n in range(1, 13):
            assert [s_.card for s_ in s.areas["pile"][n - 1]] == piles[n]
            assert all(s_.face_up for s_ in s.areas["pile"][n - 1])
            assert s.info["own_number"][n - 1] == [str(c) for c in fell_own[n]]
        assert [x.card for x in s.areas["face-down"][0]] == face_down
        assert s.info["down_seen"] == as_seen
        assert not any(x.face_up for x in s.areas["face-down"][0])


def test_counting_deal_by_hand():
    # A falls on 1 (face down); 5 goes to position 1; 2 falls on 2; 7 on 2; 3 falls on 3; then ten more
    # non-matching cards fill 3..12; one unseen card; then the second round starts at 1.
    order = ["Ah", "5s", "2d", "7c", "3c",
             "4h", "6s", "8d", "9c", "10h", "Js", "Qd", "2h", "3s", "Ac",   # positions 3..12 (12 face up in all)
             "Ad",                                                          # unseen, face down
             "As", "9s"]                                                    # ace falls on 1 again, 9 goes there
    s = G.deal(FixedOrder(order), G.check_options({}))
    p = s.areas["pile"]
    assert labels(p[0])[:2] == ["5s", "9s"]
    assert labels(p[1])[0] == "7c"
    assert [labels(p[i])[0] for i in range(2, 12)] == ["4h", "6s", "8d", "9c", "10h", "Js", "Qd", "2h", "3s", "Ac"]
    fd = [x.card.label for x in s.areas["face-down"][0]]
    assert fd[:5] == ["Ah", "2d", "3c", "Ad", "As"]
    assert [Card.parse(c).label for c in s.info["own_number"][0]][:2] == ["Ah", "As"]
    assert [Card.parse(c).label for c in s.info["own_number"][1]] [:1] == ["2d"]
    # Counts (tip b): the ace that fell on position 12 and the 2 on position 10 count for positions 1 and 2.
    assert s.info["counts"][0] >= 1 and s.info["counts"][1] >= 1


def match_free_order() -> list[Card]:
    """A deal order in which no card ever falls on its own number."""
    pool = sorted(c for c in full_deck(2) if c.rank != 13)
    order = []
    placed = 0
    while pool:
        pos = placed % 12 + 1
        by_rank = Counter(c.rank for c in pool if c.rank != pos)
        rank = max(by_rank, key=lambda r: (by_rank[r], -r))
        card = next(c for c in pool if c.rank == rank)
        pool.remove(card)
        order.append(card)
        placed += 1
        if placed % 12 == 0 and pool:
            order.append(pool.pop())     # the unseen card
    return order


def test_without_matches_seven_rounds_then_five_cards_and_no_unseen_card_at_the_end():
    deck = match_free_order()
    piles, face_down, fell_own, as_seen = independent_counting_deal(deck)
    assert not any(fell_own.values())
    s = G.deal(FixedOrder([c.label for c in deck]), G.check_options({}))
    assert len(s.areas["face-down"][0]) == 7 == 96 // 13
    assert sum(len(p) for p in s.areas["pile"]) == 89 == 7 * 12 + 5
    assert [len(p) for p in s.areas["pile"]] == [8] * 5 + [7] * 7


def test_fact_face_down_pile_holds_at_least_seven_and_rounds_about_seven():
    minimum = fact("kings", "face-down-at-least")["data"]["minimum"]
    f = fact("kings", "rounds-about-seven")["data"]
    rounds = []
    for seed in range(300):
        s = G.new(seed)
        fd = len(s.areas["face-down"][0])
        assert fd >= minimum
        face_up = sum(len(p) for p in s.areas["pile"])
        assert face_up + fd == 96
        rounds.append(-(-face_up // 12))
    assert abs(statistics.median(rounds) - (f["first"] + f["more_about"])) <= 1


def test_fact_count_of_eight_counts_and_face_down_pile_agree():
    copies = fact("kings", "count-of-eight")["data"]["copies_per_rank"]
    assert copies == 4 * G.packs
    for seed in range(40):
        s = G.new(seed)
        on_piles = Counter(x.card.rank for p in s.areas["pile"] for x in p)
        in_down = Counter(x.card.rank for x in s.areas["face-down"][0])
        for n in range(1, 13):
            assert s.info["counts"][n - 1] == on_piles[n]
            assert (s.info["counts"][n - 1] < copies) == (in_down[n] > 0)
            # No pile holds a card of its own number after the deal: such cards went face down.
            assert all(x.card.rank != n for x in s.areas["pile"][n - 1])
            assert len(s.info["own_number"][n - 1]) <= in_down[n]


# ------------------------------------------------------------------- turn

def test_fact_turning_a_seven_picks_up_the_seventh_pile():
    f = fact("kings", "turned-card-names-pile")["data"]
    s = make({7: ["3s", "Jh", "9d"], 2: ["4c"]}, down=["2c", f"{f['turned_rank']}h"])
    assert Board(s).legal_moves[0] == Move.act("turn")
    G.apply(s, Move.act("turn"))
    assert s.info["fan_from"] == f["pile"]
    assert s.areas["pile"][f["pile"] - 1] == []
    assert [p[0].card.label for p in s.areas["fan"]] == ["3s", "Jh", "9d", "7h"]
    assert all(p[0].face_up for p in s.areas["fan"])
    assert [x.card.label for x in s.areas["face-down"][0]] == ["2c"]


def test_turn_on_an_empty_pile_fans_just_the_turned_card():
    s = make({}, down=["5d"])
    G.apply(s, Move.act("turn"))
    assert [p[0].card.label for p in s.areas["fan"]] == ["5d"] and s.info["fan_from"] == 5


def test_no_turn_while_the_fan_is_out_or_when_nothing_is_face_down():
    s = make({}, fan=["3s"], fan_from=3, down=["4c"])
    assert Move.act("turn") not in G.legal_moves(s)
    assert "fan from pile 3 must be put back" in G.why_illegal(s, Move.act("turn"))
    s = make({1: ["5h"]})
    assert G.why_illegal(s, Move.act("turn")) == "no face-down cards are left to turn"
    assert "nothing after it" in G.why_illegal(make({}, down=["4c"]), Move.act("turn", "now"))


# ------------------------------------------------------------------ moves

def test_left_builds_down_from_queen_right_builds_up_from_ace():
    f = fact("kings", "build-order")["data"]
    for side, ranks in (("left", f["left"]), ("right", f["right"])):
        m = G.parse_move(make({}), f"pile5>{side}-kings3")
        for built, r in enumerate(ranks):
            card = Card(r, "d")
            s = make({5: [card.label]}, **{side: {"d": built}})
            assert G.why_illegal(s, m) is None, (side, r)
            other = Card(ranks[(built + 1) % 12], "d")
            s2 = make({5: [other.label]}, **{side: {"d": built}})
            assert f"takes the {card.pretty} next, not the {other.pretty}" in G.why_illegal(s2, m)
        full = make({}, **{side: {"d": 12}})
        assert G.why_illegal(make({5: ["5d"]}, **{side: {"d": 12}}), m).endswith("is complete")
        assert full.areas[f"{side}-kings"][2][-1].card.rank == ranks[-1]


def _locs(a: str, b: str):
    m = G.parse_move(make({}), f"{a}>{b}")
    return m.src, m.dst


def test_wrong_suit_is_named():
    s = make({3: ["Qh"]})
    reason = G.why_illegal(s, G.parse_move(s, "pile3>left-kings1"))
    assert reason == "the Q♥ can only go on a king of hearts; left kings 1 is the K♠"
    assert G.why_illegal(s, G.parse_move(s, "pile3>left-kings2")) is None
    assert G.why_illegal(s, G.parse_move(s, "pile3>right-kings2")) == (
        "the K♥ on the right builds up from the ace: it takes the A♥ next, not the Q♥")


def test_only_the_top_of_a_pile_moves_but_any_fan_card_does():
    s = make({2: ["As", "8c"]}, fan=["Qc", "4d", "Ad"], fan_from=9)
    legal = {str(m) for m in G.legal_moves(s)}
    assert "fan1>left-kings4" in legal and "fan3>right-kings3" in legal
    assert not any(m.startswith("pile2") for m in legal), "the A♠ is covered by the 8♣"
    assert "return" in legal and "turn" not in legal
    # A card can also be named instead of its place.
    assert G.parse_move(s, "Ad>right-kings3") == G.parse_move(s, "fan3>right-kings3")


def test_a_card_fitting_both_kings_may_go_either_way():
    # Left spades down to the 7, right spades up to the 5: a 6♠ fits both (tip g).
    s = make({4: ["6s"]}, left={"s": 6}, right={"s": 5})
    legal = {str(m) for m in G.legal_moves(s)}
    assert {"pile4>left-kings1", "pile4>right-kings1"} <= legal


def test_moves_that_are_never_allowed_have_reasons():
    s = make({1: ["As"], 5: ["5c"]}, down=["2h"])
    cases = {
        "pile1>pile5": "never put on the piles",
        "left-kings1>right-kings1": "stay there",
        "face-down1>right-kings1": "turn the top one",
        "pile1x2>right-kings1": "one at a time",
        "pile1>fan1": "only go onto the kings",
        "pile13>right-kings1": "there are 12 piles",
        "pile2>right-kings1": "pile 2 is empty",
        "pile1>right-kings5": "four kings in each column",
        "fan1>right-kings1": "no fan out",
    }
    for text, words in cases.items():
        reason = G.why_illegal(s, G.parse_move(s, text))
        assert reason and words in reason, (text, reason)
    assert "has no action" in G.why_illegal(s, Move.act("shuffle"))
    s = make({}, fan=["3s"], fan_from=3)
    assert "its cards are in the fan" in G.why_illegal(s, G.parse_move(s, "pile3>right-kings1"))
    assert "no fan place 4" in G.why_illegal(s, G.parse_move(s, "fan4>right-kings1"))


def test_cards_may_go_up_between_turns():
    s = make({6: ["Qs"]}, down=["3h"])
    legal = [str(m) for m in G.legal_moves(s)]
    assert legal == ["turn", "pile6>left-kings1"]


# ----------------------------------------------------------------- return

def test_return_keeps_the_fan_order_or_takes_any_order():
    base = make({}, fan=["Jc", "4h", "7s"], fan_from=4, down=["9d"])
    s = base.copy()
    G.apply(s, Move.act("return"))
    assert labels(s.areas["pile"][3]) == ["Jc", "4h", "7s"]
    assert s.areas["fan"] == [] and s.info["fan_from"] is None and s.info["returned"] == [4]
    for args, want in ((("7s", "Jc", "4h"), ["7s", "Jc", "4h"]), (("2", "3", "1"), ["4h", "7s", "Jc"]),
                       (("4h", "3", "Jc"), ["4h", "7s", "Jc"])):
        m = Move.act("return", *args)
        assert G.why_illegal(base, m) is None
        s = base.copy()
        G.apply(s, m)
        assert labels(s.areas["pile"][3]) == want
        assert "7♠" in G.describe(base, m)
    assert G.legal_moves(s) == [Move.act("turn")]


def test_return_with_a_wrong_order_is_refused_with_the_reason():
    s = make({}, fan=["Jc", "4h", "4h"], fan_from=4)
    assert "holds 3 cards" in G.why_illegal(s, Move.act("return", "Jc", "4h"))
    assert "not in the fan" in G.why_illegal(s, Move.act("return", "Jc", "4h", "5h"))
    assert "named more often" in G.why_illegal(s, Move.act("return", "Jc", "Jc", "4h"))
    assert G.why_illegal(s, Move.act("return", "4h", "Jc", "4h")) is None
    assert "named twice" in G.why_illegal(s, Move.act("return", "1", "1", "2"))
    assert "does not exist" in G.why_illegal(s, Move.act("return", "1", "2", "9"))
    assert "neither a fan place" in G.why_illegal(s, Move.act("return", "1", "2", "zz"))
    assert "no fan to put back" in G.why_illegal(make({}), Move.act("return"))
    with pytest.raises(MoveError):
        Board(s).push("return 1 2")


def test_the_fan_ends_by_itself_when_all_its_cards_go_up():
    s = make({}, fan=["Qs", "As"], fan_from=12, down=["5c"])
    G.apply(s, G.parse_move(s, "fan1>left-kings1"))
    assert [p[0].card.label for p in s.areas["fan"]] == ["As"] and s.info["fan_from"] == 12
    G.apply(s, G.parse_move(s, "fan1>right-kings1"))
    assert s.areas["fan"] == [] and s.info["fan_from"] is None and s.areas["pile"][11] == []
    assert G.legal_moves(s) == [Move.act("turn")]


# ------------------------------------------------------------ observation

def test_observation_hides_covered_cards_unless_fans_stay_open():
    for open_ in (False, True):
        s = make({8: ["3d", "5c", "9h"], 2: ["Jd", "6c"]}, down=["8s"], options={"fans_stay_open": open_})
        G.apply(s, Move.act("turn"))
        G.apply(s, Move.act("return", "9h", "8s", "3d", "5c"))
        obs = G.observation(s)
        assert [x.token() for x in obs.areas["pile"][1]] == ["?", "6c"], "never fanned: squared"
        want = ["9h", "8s", "3d", "5c"] if open_ else ["?", "?", "?", "5c"]
        assert [x.token() for x in obs.areas["pile"][7]] == want
        assert [x.token() for x in s.areas["pile"][7]] == ["9h", "8s", "3d", "5c"], "the engine remembers"
        assert State.from_json(obs.to_json()) == obs


def test_unknown_cards_never_crash_and_are_not_moved():
    s = make({1: ["?", "?"], 2: ["2s", "?"]}, down=["~", "~"], fan=[], fan_from=None)
    assert G.legal_moves(s) == []
    assert "not known" in G.why_illegal(s, Move.act("turn"))
    assert "not known" in G.why_illegal(s, G.parse_move(s, "pile2>right-kings1"))
    t = make({}, fan=["?", "Ac"], fan_from=1)
    assert [str(m) for m in G.legal_moves(t)] == ["fan2>right-kings4", "return"]
    assert G.why_illegal(t, Move.act("return", "2", "1")) is None
    # A foundation card that cannot be read is implied by its place.
    u = State.from_json({**make({3: ["3h"]}, right={"h": 2}).to_json()})
    data = u.to_json()
    data["areas"]["right-kings"][1] = ["?", "?", "2h"]
    u = State.from_json(data)
    assert [str(m) for m in G.legal_moves(u)] == ["pile3>right-kings2"]


# ------------------------------------------------------------- game end

def test_nearly_won_position_is_won_after_the_last_card():
    left = {s: 12 for s in "shdc"}
    right = {s: 12 for s in "shdc"}
    left["c"] = 11          # the A♣ is still to come on the left
    s = make({1: ["Ac"]}, left=left, right=right)
    assert G.status(s) == "playing" and not G.is_won(s)
    b = Board(s)
    assert G.completion(s) == 95 / 96 and G.completion(G.new(1)) == 0.0
    b.push("Ac>left-kings4")
    assert G.is_won(b.state) and b.status() == "won" and b.legal_moves == []
    assert G.completion(b.state) == 1.0
    assert b.state.card_count() == 104


def test_game_over_when_nothing_is_face_down_and_no_card_fits():
    s = make({1: ["5s"], 2: ["9h"]})
    assert G.legal_moves(s) == [] and G.status(s) == "stuck"


def test_random_playouts_end_with_no_face_down_cards_or_a_win():
    for seed in range(20):
        end, moves = playout(G.new(seed), random.Random(seed))
        assert G.legal_moves(end) == []
        assert end.areas["face-down"][0] == [] and end.areas["fan"] == []
        assert moves.count(Move.act("turn")) == len(G.new(seed).areas["face-down"][0])


# -------------------------------------------------------------- bad input

@pytest.mark.parametrize("edit, words", [
    (lambda d: d["areas"]["pile"][2].append("Kh"), "kings are all taken out"),
    (lambda d: d["areas"]["pile"][2].append("~4h"), "face-down card"),
    (lambda d: d["areas"]["face-down"][0].append("4h"), "face-up card"),
    (lambda d: d["areas"]["left-kings"][0].append("Jc"), "it must be the Q♠"),
    (lambda d: d["areas"]["right-kings"][1].__setitem__(0, "Kd"), "it must be the K♥"),
    (lambda d: d["areas"]["right-kings"].__setitem__(2, []), "K♦ stands there"),
    (lambda d: d["areas"]["fan"].append(["4h"]), "does not say which pile"),
    (lambda d: d["areas"]["fan"].append(["4h", "5h"]), "each fan place holds one card"),
    (lambda d: d["info"].__setitem__("fan_from", 13), "pile number 1-12"),
    (lambda d: d["info"].__setitem__("fan_from", 2), "the fan is empty"),
    (lambda d: d["info"].__setitem__("own_number", [["5h"]] + [[]] * 11), "belongs to position 5"),
    (lambda d: d["info"].__setitem__("counts", [9] * 12), "from 0 to 8"),
    (lambda d: d["info"].__setitem__("returned", "all"), "list of pile numbers"),
    (lambda d: d["info"].__setitem__("down_seen", ["zz"]), "a card or null"),
    (lambda d: d["info"].__setitem__("down_seen", [None]), "never added to it"),
    (lambda d: d["info"]["down_seen"].append("5s"), "disagree"),
    (lambda d: d["options"].__setitem__("fans_stay_open", "yes"), "fans_stay_open"),
])
def test_impossible_states_are_named(edit, words):
    data = G.new(9).to_json()
    edit(data)
    with pytest.raises(StateError, match=words):
        State.from_json(data)


def test_pile_with_cards_while_its_fan_is_out_is_impossible():
    with pytest.raises(StateError, match="pile 4 has cards"):
        make({4: ["3c"]}, fan=["5d"], fan_from=4)


def test_bad_move_text_is_a_clear_error():
    s = G.new(1)
    for text in ("pile>left-kings1", "zz3>left-kings1", "f1>left-kings1", "9x>left-kings1"):
        with pytest.raises(MoveError):
            G.parse_move(s, text)


def test_depth_under_a_king_pile_follows_from_its_top_card():
    s = make({}, left={"h": 4}, right={"c": 6})
    for area, k in (("left-kings", 1), ("right-kings", 3), ("left-kings", 0)):
        pile = s.areas[area][k]
        assert G.depth_under(s, G.parse_move(s, f"pile1>{area}{k + 1}").dst, pile[-1].card) == len(pile) - 1
    assert G.depth_under(s, G.parse_move(s, "pile1>left-kings1").src, Card.parse("5h")) is None
    assert G.depth_under(s, G.parse_move(s, "pile1>left-kings1").dst, Card.parse("5h")) is None, "wrong suit for row 1"


def test_describing_a_turn_never_names_an_unseen_card():
    for seed in range(10):
        s = G.new(seed)
        fd = s.areas["face-down"][0]
        top = fd[-1].card
        words = G.describe(s, Move.act("turn"))
        if s.info["down_seen"][len(fd) - 1] is None:
            assert top.pretty not in words and "pile its rank names" in words
        else:
            assert f"the {top.pretty} that fell on its own number" in words and f"pile {top.rank}" in words
