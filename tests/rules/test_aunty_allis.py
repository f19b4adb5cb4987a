"""Aunty Allis rules, from Keeling's text (section B) and the decisions in seeds/aunty-allis.toml."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from advisor.cards import Card, full_deck
from advisor.catalogue import fact
from advisor.engine import Board, Loc, Move, MoveError, State, StateError, get_game

GID = "aunty-allis"
G = get_game(GID)
ROWS = ("first", "second", "third")
SEQ = {"first": [2, 5, 8, 11], "second": [3, 6, 9, 12], "third": [4, 7, 10, 13]}
LABEL = {1: "A", 11: "J", 12: "Q", 13: "K", **{r: str(r) for r in range(2, 11)}}


def make(first=None, second=None, third=None, rubbish=None, stock=0, discard=(), options=None) -> State:
    """A hand-built position.

    Operational rows: dicts {place (1-based): "card card ..." (bottom first) or "" for empty}.
    Rubbish: dict {pile: "card card ..."}. Discard: list of aces. Stock: a number of face-down
    cards (aces first, then honours). Every other operational place gets a complete pile of its
    row where the cards allow, else a junk card that no pile of the position can take; no card
    appears more than twice. ``stock`` may also name the face-down cards, bottom first (the last named is dealt first).
    """
    given = {"first": first or {}, "second": second or {}, "third": third or {}}
    rub = rubbish or {}
    areas = {r: [None] * 8 for r in ROWS}
    used = Counter()

    def take(text):
        cards = [Card.parse(t) for t in text.split()]
        used.update(c.face for c in cards)
        return cards

    for r in ROWS:
        for place, text in given[r].items():
            areas[r][place - 1] = take(text)
    specified = {r: [p for p in areas[r] if p] for r in ROWS}
    rubbish_piles = [take(rub.get(i + 1, "")) for i in range(8)]
    disc = take(" ".join(discard))
    stock_cards = take(stock) if isinstance(stock, str) else []
    stock = len(stock_cards) if isinstance(stock, str) else stock
    for rank in (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2):
        for suit in "shdc":
            while len(stock_cards) < stock and used[(rank, suit)] < 2:
                used[(rank, suit)] += 1
                stock_cards.append(Card(rank, suit))
    assert len(stock_cards) == stock
    holes = []
    for r in ROWS:
        for i in range(8):
            if areas[r][i] is not None:
                continue
            for suit in "shdc":
                faces = [(rank, suit) for rank in SEQ[r]]
                if all(used[f] < 2 for f in faces):
                    used.update(faces)
                    areas[r][i] = [Card(*f) for f in faces]
                    break
            else:
                holes.append((r, i))
    row_of = {rank: r for r in ROWS for rank in SEQ[r]}
    level = {rank: SEQ[row_of[rank]].index(rank) for rank in row_of}
    for r, i in holes:
        for rank in (13, 12, 11, 10, 9, 8, 7, 6, 5):
            suit = next((x for x in "shdc" if used[(rank, x)] < 2 and not any(
                p[0].suit == x and len(p) == level[rank] and p[0].rank == SEQ[row_of[rank]][0]
                for p in specified[row_of[rank]])), None)
            if suit:
                used[(rank, suit)] += 1
                areas[r][i] = [Card(rank, suit)]
                break
        else:
            raise AssertionError("no inert card left to fill the layout with")
    data = {
        "game": GID,
        "options": options or {},
        "areas": {
            **{r: [[c.label for c in p] for p in areas[r]] for r in ROWS},
            "rubbish": [[c.label for c in p] for p in rubbish_piles],
            "stock": [["~" + c.label for c in stock_cards]],
            "discard": [[c.label for c in disc]],
        },
    }
    return State.from_json(data)


def legal(state) -> list[str]:
    return [str(m) for m in G.legal_moves(state)]


def why(state, text) -> str | None:
    return G.why_illegal(state, G.parse_move(state, text))


def play(state, text) -> None:
    m = G.parse_move(state, text)
    assert G.why_illegal(state, m) is None, G.why_illegal(state, m)
    G.apply(state, m)


# ----------------------------------------------------------------- the deal

def test_layout_fact_four_rows_of_eight_face_up_and_the_stock():
    f = fact(GID, "layout")["data"]
    s = G.new(12)
    rows = [s.areas[a] for a in ("first", "second", "third", "rubbish")]
    assert len(rows) == f["rows"]
    assert all(len(r) == f["per_row"] for r in rows)
    assert all(len(p) == 1 and p[0].face_up for r in rows for p in r)
    assert sum(len(p) for r in rows for p in r) == f["layout_cards"]
    assert len([a for a in ROWS]) == f["operational_rows"]
    assert all(not slot.face_up for slot in s.areas["stock"][0])
    assert s.areas["discard"] == [[]]


def test_deal_goes_row_by_row_and_the_stock_top_is_dealt_next():
    deck = full_deck(2)
    random.Random(33).shuffle(deck)
    s = G.new(33)
    for k, area in enumerate(("first", "second", "third", "rubbish")):
        assert [p[0].card for p in s.areas[area]] == deck[8 * k:8 * k + 8]
    play(s, "deal")
    assert [p[-1].card for p in s.areas["rubbish"]] == deck[32:40]
    assert all(p[-1].face_up for p in s.areas["rubbish"])


def test_deals_fact_nine_deals_of_eight_then_the_stock_is_used_up():
    f = fact(GID, "deals")["data"]
    assert 52 * f["packs"] - 32 == f["stock"] == f["per_deal"] * f["deals"]
    assert 4 * f["packs"] == f["aces_out"] and (52 * f["packs"] - f["aces_out"]) // 4 == f["piles"]
    assert sum(len(G.new(1).areas[r]) for r in ROWS) == f["piles"]
    s = G.new(4)
    assert len(s.areas["stock"][0]) == f["stock"]
    for n in range(f["deals"]):
        # deal regardless of the moves on offer: dealing is the player's choice
        assert "deal" in legal(s)
        play(s, "deal")
    assert s.areas["stock"] == [[]]
    assert all(len(p) == 1 + f["deals"] for p in s.areas["rubbish"])
    assert "deal" not in legal(s)
    assert "used up" in why(s, "deal")


def test_a_deal_lands_on_empty_rubbish_piles_too():
    s = make(rubbish={1: "Kh", 3: "Qs"}, stock=8)
    top = [slot.card for slot in reversed(s.areas["stock"][0])]
    play(s, "deal")
    assert [len(p) for p in s.areas["rubbish"]] == [2, 1, 2, 1, 1, 1, 1, 1]
    assert [p[-1].card for p in s.areas["rubbish"]] == top


# ------------------------------------------------------------- the piles

def test_pile_sequences_fact_each_row_builds_by_threes_in_one_suit():
    seqs = fact(GID, "pile-sequences")["data"]
    for row in ROWS:
        ranks = seqs[row]
        # every step is three ranks up, the jack/queen/king at the end
        assert all(Card.parse(b + "h").rank - Card.parse(a + "h").rank == 3 for a, b in zip(ranks, ranks[1:]))
        s = make(**{row: {1: ranks[0] + "h"}},
                 rubbish={1: ranks[3] + "h", 2: ranks[2] + "h", 3: ranks[1] + "h",
                          4: ranks[1] + "s"}, stock=0)
        # the wrong suit is refused, the next card of the suit goes on
        assert "goes on the" in why(s, f"rubbish4>{row}1")
        assert why(s, f"rubbish1>{row}1") is not None      # not yet: the honour needs the whole pile
        play(s, f"rubbish3>{row}1")
        play(s, f"rubbish2>{row}1")
        play(s, f"rubbish1>{row}1")
        assert [slot.card.label for slot in s.areas[row][0]] == [r + "h" for r in ranks]


def test_a_card_for_another_row_is_refused_naming_its_row():
    s = make(first={1: "2h"}, second={1: "3h"}, rubbish={1: "6h"})
    assert legal(s) == ["rubbish1>second1"]
    reason = why(s, "rubbish1>first1")
    assert "second row" in reason and "3-6-9-Q" in reason


def test_a_complete_pile_takes_nothing_more():
    s = make(rubbish={1: "Jh"})
    assert "complete" in why(s, "rubbish1>first1")


def test_nothing_is_built_on_junk():
    s = make(first={1: "9c"}, rubbish={1: "5c"})
    assert "does not belong" in why(s, "rubbish1>first1")


def test_only_the_top_card_of_a_rubbish_pile_plays():
    s = make(first={1: "2h"}, rubbish={1: "5h Kc"})
    assert "rubbish1>first1" not in legal(s)
    assert "K♣" in why(s, "rubbish1>first1")


def test_cards_in_their_row_never_move_again():
    s = make(first={1: "2h 5h"}, second={1: "As"}, rubbish={1: "3d"})
    reason = why(s, "first1>discard1")
    assert "never move again" in reason
    # a starter dealt into its own row counts as built too
    s = make(first={1: "2h"}, second={1: "Ad"}, rubbish={1: "3d"})
    assert "never move again" in why(s, "first1>second1")


# ------------------------------------------------------------------ aces

def test_aces_on_top_of_the_rubbish_row_are_thrown_out_freely():
    s = make(rubbish={2: "Ah", 3: "Ad Kh"})
    assert legal(s) == ["rubbish2>discard1"]
    play(s, "rubbish2>discard1")
    assert [x.card.label for x in s.areas["discard"][0]] == ["Ah"]
    assert "only aces" in why(make(rubbish={1: "Kh"}), "rubbish1>discard1")


def test_aces_are_never_built():
    s = make(rubbish={1: "As"})
    assert "never built" in why(s, "rubbish1>first1")


def test_an_ace_in_an_operational_row_needs_an_immediate_starter():
    # no four anywhere: the ace in the third row must stay (golden rule)
    s = make(third={5: "Ac"}, rubbish={1: "Kh"}, stock=8)
    assert "third5>discard1" not in legal(s)
    reason = why(s, "third5>discard1")
    assert "golden rule" in reason and "four" in reason
    # with a four on top of the rubbish row it may go, and the four must follow at once
    s = make(third={5: "Ac"}, rubbish={1: "Kh", 2: "4d", 3: "4s"}, stock=8)
    play(s, "third5>discard1")
    assert s.areas["third"][4] == []
    assert legal(s) == ["rubbish2>third5", "rubbish3>third5"]
    assert "golden rule" in why(s, "deal")
    assert "golden rule" in why(s, "rubbish1>discard1") or "must be filled" in why(s, "rubbish1>discard1")
    play(s, "rubbish3>third5")
    assert [x.card.label for x in s.areas["third"][4]] == ["4s"]
    assert "deal" in legal(s)


# ----------------------------------------------------------- golden rule

def test_a_chain_of_fills_through_another_row():
    # Ace in the first row; the only two lies as junk in the second row; a three is on the rubbish row.
    s = make(first={1: "Ah"}, second={4: "2c"}, rubbish={1: "3d", 2: "Qh"})
    assert legal(s) == ["first1>discard1"]
    play(s, "first1>discard1")
    assert legal(s) == ["second4>first1"]
    play(s, "second4>first1")
    assert s.areas["second"][3] == []
    assert legal(s) == ["rubbish1>second4"]
    play(s, "rubbish1>second4")
    assert G.validate(s) == []
    assert [x.card.label for x in s.areas["first"][0]] == ["2c"]


def test_a_chain_that_cannot_be_completed_is_not_started():
    # The two in the second row could fill the first row, but nothing could then fill the second row.
    s = make(first={1: "Ah"}, second={4: "2c"}, rubbish={1: "Qh"})
    assert legal(s) == []
    assert "golden rule" in why(s, "first1>discard1")


def test_a_fill_that_would_dead_end_is_refused_while_another_completes():
    # Vacancy in row one; the two of clubs lies as junk in row three (no four anywhere),
    # the two of spades as junk in row two (a three waits on the rubbish row).
    s = make(first={1: "Ah"}, second={2: "2s"}, third={3: "2c"}, rubbish={1: "3h"})
    play(s, "first1>discard1")
    assert legal(s) == ["second2>first1"]
    assert "no four" in why(s, "third3>first1")


def test_a_junk_card_leaves_its_place_only_with_a_starter_ready():
    s = make(first={1: "2h"}, third={6: "5h"}, rubbish={1: "Qd"})
    assert "third6>first1" not in legal(s)
    assert "golden rule" in why(s, "third6>first1")
    s = make(first={1: "2h"}, third={6: "5h"}, rubbish={1: "Qd", 2: "4c"})
    play(s, "third6>first1")
    assert legal(s) == ["rubbish2>third6"]


def test_a_starter_cannot_enter_an_occupied_place():
    s = make(first={3: "9d"}, rubbish={1: "2s"})
    assert "2s" not in " ".join(legal(s))
    assert "golden rule" in why(s, "rubbish1>first3")


def test_building_within_the_row_is_an_option():
    kwargs = dict(first={1: "2h", 5: "5h"}, rubbish={1: "2d"})
    s = make(**kwargs)
    assert "first5>first1" in legal(s)
    strict = make(**kwargs, options={"moves_within_row": False})
    assert "first5>first1" not in legal(strict)
    assert "moves_within_row" in why(strict, "first5>first1")
    # from another row it is still fine
    s = make(first={1: "2h"}, second={5: "5h"}, rubbish={1: "3d"}, options={"moves_within_row": False})
    assert "second5>first1" in legal(s)


def test_the_stock_the_discard_and_the_rubbish_row_are_not_destinations_or_sources():
    s = make(first={1: "2h"}, rubbish={1: "5h", 2: "Ad"}, stock=8, discard=["As"])
    assert "deal" in why(s, "stock1>rubbish1")
    assert "out of play" in why(s, "discard1>rubbish1")
    assert "rubbish row" in why(s, "rubbish1>rubbish3")
    assert "one at a time" in G.why_illegal(s, Move.cards(Loc("rubbish", 0), Loc("first", 0), 2))
    assert "no " in why(s, "first9>discard1")
    assert why(s, "fly") and "deal" in why(s, "fly")


# ---------------------------------------------------------------- the end

def test_won_on_the_last_card_and_then_nothing_is_left_to_do():
    s = make(first={8: "2c 5c 8c"}, rubbish={5: "Jc"}, discard=["As", "As", "Ah", "Ah", "Ad", "Ad", "Ac", "Ac"])
    assert G.status(s) == "playing"
    assert not G.is_won(s)
    board = Board(s)
    board.push("rubbish5>first8")
    assert board.status() == "won"
    assert board.legal_moves == []
    assert "already won" in board.why_illegal("deal")
    board.pop()
    assert board.status() == "playing"


def test_an_ace_left_in_the_rubbish_row_means_not_yet_won():
    s = make(rubbish={5: "Ac"}, discard=["As", "As", "Ah", "Ah", "Ad", "Ad", "Ac"])
    assert not G.is_won(s)
    play(s, "rubbish5>discard1")
    assert G.is_won(s)


def test_hopeless_king_fact_the_seven_under_the_king_is_lost():
    f = fact(GID, "hopeless-king")["data"]
    built, falls, on = (Card.parse(f[k]) for k in ("built", "falls", "on"))
    assert built.face == falls.face
    suit = built.suit
    s = make(third={1: f"4{suit} 7{suit} 10{suit} K{suit}", 2: f"4{suit}"},
             rubbish={3: f"{on.label} {falls.label}", 4: f"10{suit}"})
    # nothing can reach the seven: the king covering it needs that very seven first
    assert legal(s) == []
    assert G.status(s) == "stuck"


# ------------------------------------------------------ partial observations

def test_unreadable_cards_are_never_moved_but_piles_with_a_known_card_are_built_on():
    data = make(first={1: "2h 5h", 2: "9s"}, rubbish={1: "8h", 2: "As"}).to_json()
    data["areas"]["first"][0] = ["?", "5h"]
    data["areas"]["first"][1] = ["?"]
    data["areas"]["rubbish"][2] = ["?"]
    data["areas"]["first"][0] = ["2h", "?"]          # the top is unreadable, but it can only be the 5♥
    s = State.from_json(data)
    assert legal(s) == ["rubbish1>first1", "rubbish2>discard1"]
    assert "cannot be read" in why(s, "rubbish3>first2")
    obs = G.observation(make(stock=16))
    assert all(x.card is None for x in obs.areas["stock"][0])
    assert "deal" in legal(obs)
    play(obs, "deal")
    assert [x.token() for x in obs.areas["rubbish"][0]] == ["?"]


# --------------------------------------------------------------- bad input

@pytest.mark.parametrize("edit, words", [
    (lambda d: d["areas"]["first"].__setitem__(0, []) or d["areas"]["second"].__setitem__(0, []), "at most one"),
    (lambda d: d["areas"]["first"].__setitem__(0, ["2h", "6h"]), "cannot be card 2"),
    (lambda d: d["areas"]["second"].__setitem__(0, ["3h", "6s"]), "mixes suits"),
    (lambda d: d["areas"]["third"].__setitem__(0, ["4h", "7h", "10h", "Kh", "Kh"]), "at most four"),
    (lambda d: d["areas"]["stock"].__setitem__(0, ["~"] * 5), "eight at every deal"),
    (lambda d: d["areas"]["stock"].__setitem__(0, ["~"] * 7 + ["5c"]), "face-up"),
    (lambda d: d["areas"]["discard"].__setitem__(0, ["7h"]), "only aces"),
    (lambda d: d["areas"]["rubbish"].__setitem__(0, ["~Kh"]), "face-down"),
])
def test_impossible_states_are_named(edit, words):
    data = make(stock=0).to_json()
    edit(data)
    with pytest.raises(StateError, match=words):
        State.from_json(data)


def test_an_empty_place_nobody_can_fill_is_impossible():
    data = make(first={1: "Ah"}, rubbish={1: "Qh"}).to_json()
    data["areas"]["first"][0] = []
    with pytest.raises(StateError, match="golden rule is broken"):
        State.from_json(data)


def test_bad_moves_and_options_are_refused_with_messages():
    s = G.new(2)
    with pytest.raises(MoveError):
        G.parse_move(s, "nowhere3>first1")
    with pytest.raises(StateError, match="moves_within_row"):
        State.from_json({**s.to_json(), "options": {"moves_within_row": "sometimes"}})
    with pytest.raises(StateError, match="no option"):
        State.from_json({**s.to_json(), "options": {"jokers": True}})
    board = Board(s)
    with pytest.raises(MoveError, match="only"):
        board.push(next(f"rubbish{i + 1}>discard1" for i, p in enumerate(s.areas["rubbish"])
                        if p[-1].card.rank != 1))


def test_cli_deal_moves_check(tmp_path):
    exe = Path(sys.executable).with_name("patience")
    if not exe.exists():
        exe = None
    cmd = [str(exe)] if exe else [sys.executable, "-m", "patience.cli"]
    out = subprocess.run(cmd + ["deal", GID, "--seed", "1"], capture_output=True, text=True, check=True).stdout
    path = tmp_path / "s.json"
    path.write_text(out)
    assert State.from_json(out) == G.new(1)
    moves = json.loads(subprocess.run(cmd + ["moves", str(path)], capture_output=True, text=True, check=True).stdout)
    assert [m["move"] for m in moves] == legal(G.new(1))
    bad = subprocess.run(cmd + ["check", str(path), "stock1>first1"], capture_output=True, text=True)
    assert bad.returncode != 0 and "illegal" in bad.stdout and "Traceback" not in bad.stderr


def test_depth_under_a_squared_operational_card():
    s = G.new(1)
    first, rubbish = Loc("first", 0), Loc("rubbish", 0)
    assert G.depth_under(s, first, Card.parse("Ah")) == 0          # an ace lies alone
    assert G.depth_under(s, first, Card.parse("2h")) == 0          # the foot of a pile
    assert G.depth_under(s, first, Card.parse("Kh")) == 0          # not of this row: junk, alone
    assert G.depth_under(s, first, Card.parse("8h")) is None       # junk, or the top of 2-5-8
    assert G.depth_under(s, Loc("third", 3), Card.parse("4c")) == 0
    assert G.depth_under(s, rubbish, Card.parse("8h")) is None      # fanned: every card is seen


def test_completion_counts_only_built_cards():
    s = make(first={1: "2h 5h 8h"}, rubbish={1: "Jh"})
    # 23 complete piles or junk fillers: count the built cards independently
    built = sum(len(p) for r in ROWS for p in s.areas[r]
                if len(p) > 1 or p[0].card.rank == SEQ[r][0])
    assert G.completion(s) == built / 96
    play(s, "rubbish1>first1")
    assert G.completion(s) == (built + 1) / 96
    assert G.completion(G.new(2)) < 0.1
