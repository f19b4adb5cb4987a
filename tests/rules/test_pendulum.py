"""Pendulum (Patience Games, Kellscraft Studio web edition): rules tests from the text."""
from __future__ import annotations

import pytest

from advisor.cards import Card, full_deck, interval_sequence, parse_rank
from advisor.catalogue import fact
from advisor.engine import Board, Loc, Move, MoveError, State, StateError, get_game
from advisor.games.pendulum import FOUNDATIONS, ROWS, building_order, rank_choices

GID = "pendulum"
G = get_game(GID)
ACES = {"left-aces": [["As"], ["Ah"]], "right-aces": [["Ad"], ["Ac"]]}


def grid(rows: dict, aces: dict | None = None, info: dict | None = None, options: dict | None = None,
         check: bool = True) -> State:
    """A hand-built state. ``rows`` maps a row name to its 8 places: a card token, a list of tokens
    (a packet, bottom first), or None for a gap. Rows not given are empty. ``check=False``: as a
    photo is first read, with a fresh deal's info whatever the cards show."""
    areas = dict(aces or ACES)
    for name in ROWS:
        places = rows.get(name, [None] * 8)
        assert len(places) == 8
        areas[name] = [[] if p is None else ([p] if isinstance(p, str) else list(p)) for p in places]
    data = {"game": GID, "areas": areas, "info": info or {"phase": "choose"}}
    if options:
        data["options"] = options
    return State.from_json(data, check=check)


def playing(direction="up", interval=1, **extra):
    return {"phase": "play", "direction": direction, "interval": interval, "next_swing": "right",
            "idle_swings": 0, **extra}


def ranks(labels):
    return [parse_rank(x) for x in labels]


# ------------------------------------------------------------------ the source's facts

@pytest.mark.parametrize("name", ["down-by-twos", "up-by-threes"])
def test_worked_building_orders(name):
    f = fact(GID, name)["data"]
    step = f["interval"] if f["direction"] == "up" else -f["interval"]
    assert ranks(f["order"]) == interval_sequence(1, step)
    assert ranks(f["order"]) == building_order(f["direction"], f["interval"])
    assert len(set(ranks(f["order"]))) == 13
    assert ranks([f["crowning"]]) == ranks(f["order"][-1:])


@pytest.mark.parametrize("name", ["down-by-twos", "up-by-threes"])
def test_only_the_crowning_card_fills_a_top_row_gap(name):
    f = fact(GID, name)["data"]
    crown = f["crowning"]
    other = f["order"][5]                    # some card that is not the crowning one
    top = ["9h", None, "9s", "9d", "9c", "Jh", "Jd", "Js"]
    if crown in ("9", "J") or other in ("9", "J"):
        top = ["8h", None, "8s", "8d", "8c", "6h", "6d", "6s"]
    s = grid({"top": top, "second": [f"{crown}c", f"{other}c", None, None, None, None, None, None]},
             info=playing(f["direction"], f["interval"]))
    assert G.why_illegal(s, Move.cards(Loc("second", 0), Loc("top", 1))) is None
    reason = G.why_illegal(s, Move.cards(Loc("second", 1), Loc("top", 1)))
    assert reason and "only the crowning card" in reason and crown in reason


def test_straight_orders_crown_with_king_and_two():
    f = fact(GID, "straight-crowning")["data"]
    assert building_order("up", 1)[-1] == parse_rank(f["up_1"])
    assert building_order("down", 1)[-1] == parse_rank(f["down_1"])
    for (d, crown, wrong) in (("up", f["up_1"], f["down_1"]), ("down", f["down_1"], f["up_1"])):
        s = grid({"top": [None, "9h", "9s", "9d", "9c", "6h", "6d", "6s"],
                  "second": [f"{crown}c", f"{wrong}c", None, None, None, None, None, None]},
                 info=playing(d, 1))
        legal = {str(m) for m in G.legal_moves(s)}
        assert "second1>top1" in legal and "second2>top1" not in legal


def test_layout_fact():
    f = fact(GID, "layout")["data"]
    layout = G.layout({})
    rows = [a for a in layout.areas if a.kind == "row"]
    assert len(rows) == f["rows"] and all(a.count == f["per_row"] for a in rows)
    top = layout["top"]
    xs = lambda area, n: [round(layout[area].position(i)[0], 6) for i in range(n)]
    assert xs("left-aces", 2) == [round(top.position(c - 1)[0], 6) for c in f["left_aces_over"]]
    assert xs("right-aces", 2) == [round(top.position(c - 1)[0], 6) for c in f["right_aces_over"]]
    # rows lie one below the other, towards the player
    ys = [a.origin[1] for a in rows]
    assert ys == sorted(ys) and layout["left-aces"].origin[1] < ys[0]


def test_vertical_move_fact():
    f = fact(GID, "vertical-move")["data"]
    nine, ten, jack = f["moving"], f["above"], f["then_onto"]
    s = grid({"top": ["2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
              "second": ["2h", ten, "4h", "5h", "6h", "7h", "8h", "9h"],
              "third": ["2d", nine, jack, None, None, None, None, None]},
             info=playing(f["direction"], f["interval"]))
    b = Board(s)
    assert b.why_illegal("third2>second2") is None         # up on the 10 it covers
    b.push("third2>second2")
    assert b.why_illegal("second2x2>third3") is None        # the 10, with the 9, on the exposed jack
    b.push("second2x2>third3")
    assert [x.card.label for x in b.state.areas["third"][2]] == [jack, ten, nine]
    # the vertical move is only onto the card just above
    s2 = grid({"top": ["2s", ten, "4s", "5s", "6s", "7s", "8s", "9s"],
               "second": ["2h", "4h", "5h", "6h", "7h", "8h", "9h", "10h"],
               "third": ["2d", nine, None, None, None, None, None, None]}, info=playing())
    assert "covered by" in G.why_illegal(s2, Move.cards(Loc("third", 1), Loc("top", 1)))


def test_choosing_example_ranks_down_by_twos_first():
    """The source's example of choosing: only its two lowest rows are shown; ours add upper rows that
    free nothing. Building down by twos releases five cards, one of them after the rows move up."""
    f = fact(GID, "choosing-example")["data"]
    low = {"fourth": ["7s", "3h", "10d", "10h", "6c", "Qs", "7d", "4c"],
           "fifth": ["10c", "Qh", "7h", "9d", "Jh", "4s", "5h", "9c"],
           "sixth": ["Qc", "9s", "Qd", "8h", "5d", "Js", "6s", "8c"]}
    used = {c for r in low.values() for c in r}
    rest = [c.label for c in full_deck(1) if c.rank != 1 and c.label not in used]
    rows = {name: rest[i * 8:(i + 1) * 8] for i, name in enumerate(ROWS[:3])} | low
    s = grid(rows)
    ranked = rank_choices(s)
    assert len(ranked) == 24 and len({r["move"] for r in ranked}) == 24
    best = ranked[0]
    assert {best["move"], best["same_as"]} == {f"choose {f['best']}", "choose up 11"}
    assert ranked[1]["move"] == best["same_as"]
    assert best["frees"] == f["released"]
    assert all(r["frees"] < f["released"] for r in ranked[2:])
    assert sorted(best["bottom_cards"]) == sorted(Card.parse(c).pretty for c in f["lowest_row"] + f["then"][1:])
    # the queen of hearts needs the swing: before any swing only four go out
    assert best["at_once"] == f["released"] - len(f["after_swing"])
    b = Board(s)
    b.push("choose down 2")
    for _ in range(4):
        out = [m for m in b.legal_moves if m.dst is not None and m.dst.area.endswith("aces")]
        b.push(out[0])
    on_aces = {x.card.label for f_ in FOUNDATIONS for x in b.state.pile(f_)}
    assert set(f["lowest_row"] + f["then"]) <= on_aces and f["waiting"] not in on_aces
    assert f["after_swing"][0] not in on_aces


# ------------------------------------------------------------------ the deal and the choice

def test_deal():
    s = G.new(4)
    aces = [s.pile(f)[0].card for f in FOUNDATIONS]
    assert sorted(c.suit for c in aces) == sorted("shdc") and all(c.rank == 1 for c in aces)
    assert all(len(s.areas[r]) == 8 and all(len(p) == 1 for p in s.areas[r]) for r in ROWS)
    assert s.info == {"phase": "choose"}


def test_the_choice_comes_first_and_holds():
    b = Board(G.new(4))
    legal = [str(m) for m in b.legal_moves]
    assert legal == [f"choose {d} {k}" for d in ("up", "down") for k in range(1, 13)]
    assert "choose" in b.why_illegal("sixth1>fifth2")
    assert b.why_illegal("choose up 13") is not None and b.why_illegal("choose sideways 2") is not None
    b.push("choose down 2")
    assert b.state.info["direction"] == "down" and b.state.info["interval"] == 2
    assert "holds for the whole game" in b.why_illegal("choose up 1")
    assert not any(m.action == "choose" for m in b.legal_moves)


def test_choice_twins_play_alike():
    s = G.new(6)
    a, b = s.copy(), s.copy()
    G.apply(a, Move.act("choose", "up", 11))
    G.apply(b, Move.act("choose", "down", 2))
    assert G.legal_moves(a) == G.legal_moves(b)


# ------------------------------------------------------------------ play

def test_covered_cards_do_not_move():
    s = grid({"top": ["9s", "3s", "4s", "5s", "6s", "7s", "8s", "Ks"],
              "second": ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h"],
              "third": ["2s", None, None, None, None, None, None, None]}, info=playing())
    reason = G.why_illegal(s, Move.cards(Loc("second", 0), Loc("left-aces", 1)))
    assert reason and "third 1 lies below" in reason
    assert G.why_illegal(s, Move.cards(Loc("third", 0), Loc("left-aces", 0))) is None


def test_packing_goes_the_reverse_way_in_suit():
    rows = {"top": ["Ks", "3s", "4s", "5s", "6s", "7s", "8s", "Kd"],
            "second": ["10h", "9h", "8h", "10s", "6h", "7h", "Qh", "Jh"]}
    s = grid(rows, info=playing("up", 1))
    assert G.why_illegal(s, Move.cards(Loc("second", 1), Loc("second", 0))) is None     # 9h on 10h
    reason = G.why_illegal(s, Move.cards(Loc("second", 1), Loc("second", 3)))           # 9h on 10s
    assert reason and "9♠" in reason and "in suit" in reason
    assert G.why_illegal(s, Move.cards(Loc("second", 0), Loc("second", 1))) is not None  # 10 on 9: wrong way
    any_suit = grid(rows, info=playing("up", 1), options={"packing": "any"})
    assert G.why_illegal(any_suit, Move.cards(Loc("second", 1), Loc("second", 3))) is None
    # building down by twos on the aces, packing goes up by twos: an 8 on a 6, not a 4
    down = grid(rows | {"second": ["6h", "8h", "4h", "10s", "Qh", "7h", "9h", "Jh"]}, info=playing("down", 2))
    assert G.why_illegal(down, Move.cards(Loc("second", 1), Loc("second", 0))) is None
    assert G.why_illegal(down, Move.cards(Loc("second", 2), Loc("second", 0))) is not None
    # wrapping: down by twos, on the 2 goes the king (2, K, J ... run the other way round)
    wrap = grid(rows | {"second": ["2h", "Kh", "4h", "10s", "Qh", "7h", "9h", "Jh"]}, info=playing("down", 2))
    assert G.why_illegal(wrap, Move.cards(Loc("second", 0), Loc("second", 1))) is None


def test_a_packet_moves_whole_and_only_its_top_card_goes_out():
    s = grid({"top": ["Ks", "3s", "4s", "5s", "6s", "7s", "8s", "Kd"],
              "second": [["10h", "9h"], "Jh", "2h", None, None, None, None, None]},
             aces={"left-aces": [["As"], ["Ah"]], "right-aces": [["Ad"], ["Ac"]]}, info=playing())
    reason = G.why_illegal(s, Move.cards(Loc("second", 0), Loc("second", 1), 1))
    assert reason and "moves whole" in reason and "second1x2>second2" in reason
    assert G.why_illegal(s, Move.cards(Loc("second", 0), Loc("second", 1), 2)) is None
    assert G.why_illegal(s, Move.cards(Loc("second", 2), Loc("left-aces", 1))) is None
    assert "one at a time" in G.why_illegal(s, Move.cards(Loc("second", 0), Loc("left-aces", 1), 2))


def test_building_on_the_aces_in_suit_and_order():
    s = grid({"top": ["Ks", "3s", "4s", "5s", "6s", "7s", "8s", "Kd"],
              "second": ["2h", "3h", "2s", None, None, None, None, None]},
             aces={"left-aces": [["As"], ["Ah"]], "right-aces": [["Ad"], ["Ac"]]}, info=playing())
    legal = {str(m) for m in G.legal_moves(s)}
    assert {"second1>left-aces2", "second3>left-aces1"} <= legal
    reason = G.why_illegal(s, Move.cards(Loc("second", 1), Loc("left-aces", 2 - 1)))
    assert reason and "2♥" in reason and "3♥" in reason
    assert "cards built on the aces stay there" == G.why_illegal(
        s, Move.cards(Loc("left-aces", 0), Loc("second", 3)))


def test_corner_cards_are_privileged():
    rows = {"top": ["10s", "3h", "4h", "5h", "Jd", "7h", "8h", "6c"],
            "second": ["2c", "9c", "4c", "Qc", "6d", "7c", "8c", "9d"],
            "third": ["Kh", "9s", "5c", "10d", None, None, None, None]}
    s = grid(rows, info=playing())
    # the 9s and the 5c of the third row may go on the covered corner cards, the 10s and the 6c
    assert G.why_illegal(s, Move.cards(Loc("third", 1), Loc("top", 0))) is None
    assert G.why_illegal(s, Move.cards(Loc("third", 2), Loc("top", 7))) is None
    assert {"third2>top1", "third3>top8"} <= {str(m) for m in G.legal_moves(s)}
    # the covered jack of diamonds is not a corner: the 10d may not go on it
    assert "covered by" in G.why_illegal(s, Move.cards(Loc("third", 3), Loc("top", 4)))
    # a covered corner card cannot itself move
    assert "not exposed" in G.why_illegal(s, Move.cards(Loc("top", 7), Loc("second", 4)))


def test_gaps():
    s = grid({"top": [None, "3s", "4s", "5s", "6s", "7s", "8s", "Kd"],
              "second": [None, "Qc", "Kh", "Ks", None, None, None, None],
              "third": [None, "9s", None, None, None, None, None, None]}, info=playing())
    assert "never filled" in G.why_illegal(s, Move.cards(Loc("third", 1), Loc("second", 0)))
    assert G.why_illegal(s, Move.cards(Loc("second", 2), Loc("top", 0))) is None
    assert "gains nothing" in G.why_illegal(s, Move.cards(Loc("top", 7), Loc("top", 0)))


def test_swing_only_when_blocked_and_alternating():
    blocked = {"top": ["Qs", "9s", "6s", "3s", "Kc", "10c", "7c", "4c"],
               "second": ["Qh", None, "9h", None, "6h", None, None, "3h"],
               "third": [None, "Qd", None, None, "9d", "6d", None, None]}
    s = grid(blocked, info=playing())
    b = Board(s)
    assert [str(m) for m in b.legal_moves] == ["swing right"]
    assert "to the right" in b.why_illegal("swing left")
    b.push("swing right")
    second = [p[0].card.label if p else None for p in b.state.areas["second"]]
    third = [p[0].card.label if p else None for p in b.state.areas["third"]]
    assert second == [None, None, None, None, "Qh", "9h", "6h", "3h"]
    assert third == [None, None, None, None, None, "Qd", "9d", "6d"]
    assert [p[0].card.label for p in b.state.areas["top"]] == blocked["top"]     # the top row never moves
    assert b.state.info["next_swing"] == "left"
    # nothing moves after that swing either: swing left, then the game is over
    assert [str(m) for m in b.legal_moves] == ["swing left"]
    b.push("swing left")
    assert [p[0].card.label if p else None for p in b.state.areas["second"]] == ["Qh", "9h", "6h", "3h"] + [None] * 4
    assert b.legal_moves == [] and b.status() == "stuck"
    assert "blocked" in b.why_illegal("swing right")


def test_swing_refused_while_a_card_can_move_and_a_move_resets_the_count():
    s = grid({"top": ["Qs", "Js", "10s", "9s", "8s", "7s", "6s", "5s"],
              "second": ["2h", None, "Jh", None, None, None, None, None],
              "third": [None, "Qd", None, None, None, None, None, None]}, info=playing(idle_swings=1))
    b = Board(s)
    reason = b.why_illegal("swing right")
    assert reason and "second1>left-aces2" in reason
    b.push("second1>left-aces2")
    assert b.state.info["idle_swings"] == 0


def test_nearly_won_and_won():
    def run(suit, top):
        return [f"{r}{suit}" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][:top]]
    aces = {"left-aces": [run("s", 13), run("h", 13)], "right-aces": [run("d", 13), run("c", 12)]}
    s = grid({"top": [None] * 7 + ["Kc"]}, aces=aces, info=playing())
    b = Board(s)
    assert [str(m) for m in b.legal_moves] == ["top8>right-aces2"]
    b.push("top8>right-aces2")
    assert b.status() == "won" and b.legal_moves == []


# ------------------------------------------------------------------ bad input and partial observations

def test_unknown_cards_do_not_crash():
    s = State.from_json({"game": GID, "info": playing(), "areas": {
        **ACES, "top": [["?"], ["3s"], ["4s"], ["5s"], ["6s"], ["7s"], ["8s"], ["9s"]],
        "second": [["2h"], ["?"], [], [], [], [], [], []]}})
    moves = {str(m) for m in G.legal_moves(s)}
    assert "second1>left-aces2" in moves
    assert "not known" in G.why_illegal(s, Move.cards(Loc("second", 1), Loc("left-aces", 0)))


@pytest.mark.parametrize("info, areas, words", [
    ({"phase": "play", "direction": "up"}, {}, "interval"),
    ({"phase": "later"}, {}, "phase"),
    (None, {"left-aces": [["As", "2s"], ["Ah"]]}, "before the building order was chosen"),
    ({"phase": "play", "direction": "up", "interval": 2, "next_swing": "right", "idle_swings": 0},
     {"left-aces": [["As", "2s"], ["Ah"]]}, "should be 3♠"),
    (None, {"left-aces": [["As"], ["As"]]}, "A♠"),
    (None, {"left-aces": [["2s"], ["Ah"]]}, "starts with an ace"),
    (None, {"top": [["~5c"], [], [], [], [], [], [], []]}, "face up"),
    ({"phase": "play", "direction": "up", "interval": 1, "next_swing": "right", "idle_swings": 0},
     {"top": [["5c", "4h"], [], [], [], [], [], [], []]}, "cannot lie on"),
])
def test_impossible_states_are_named(info, areas, words):
    data = {"game": GID, "areas": {**ACES, **areas}}
    if info is not None:
        data["info"] = info
    with pytest.raises(StateError, match=words):
        State.from_json(data)


def test_bad_moves_are_named():
    b = Board(G.new(3))
    with pytest.raises(MoveError):
        b.parse("row3>top1")
    b.push("choose up 1")
    assert "no sixth 9" in b.why_illegal(Move.cards(Loc("sixth", 8), Loc("top", 0)))
    assert "'fly'" in b.why_illegal(Move.act("fly"))
    assert "swing" in b.why_illegal(Move.act("swing", "up"))


def test_depth_under_an_ace_pile_follows_the_chosen_order():
    s = grid({"top": ["Ks"] + [None] * 7, "second": ["9h"] + [None] * 7},
             aces={"left-aces": [["As", "Qs", "10s", "8s"], ["Ah"]], "right-aces": [["Ad"], ["Ac"]]},
             info=playing("down", 2))
    f = Loc("left-aces", 0)
    assert G.depth_under(s, f, Card.parse("8s")) == 3
    assert G.depth_under(s, f, Card.parse("3s")) == 12            # the crowning card of down-by-twos
    assert G.depth_under(s, Loc("top", 0), Card.parse("Ks")) is None
    # only the top card seen (as the camera sees a squared pile): still builds on it
    seen = State.from_json({"game": GID, "info": playing("down", 2), "areas": {
        "left-aces": [["?", "?", "?", "8s"], ["Ah"]], "right-aces": [["Ad"], ["Ac"]],
        "top": [["6s"], [], [], [], [], [], [], []]}})
    assert G.why_illegal(seen, Move.cards(Loc("top", 0), f)) is None
    choosing = G.new(1)
    assert G.depth_under(choosing, f, choosing.pile(f)[0].card) == 0


# ------------------------------------------------------------------ the source's example game

# Our copy of the source lost the example game's diagrams, so its lay-out is reconstructed: a deal
# on which every narrated move below is legal in turn, each swing coming only when no card can move.
EXAMPLE_DEAL = {
    "top":    ["9s", "5d", "7c", "6h", "Jh", "2c", "4s", "5c"],
    "second": ["10h", "Js", "3c", "7h", "7s", "Kd", "6s", "9d"],
    "third":  ["6c", "Jc", "7d", "4h", "3h", "5h", "Qs", "9c"],
    "fourth": ["8h", "5s", "4d", "8d", "4c", "Qd", "8c", "Qc"],
    "fifth":  ["9h", "Kh", "10d", "6d", "10s", "3d", "10c", "8s"],
    "sixth":  ["2h", "Qh", "2d", "Ks", "Jd", "3s", "2s", "Kc"],
}
EXAMPLE_REPLAYED = 34     # narrated steps our reconstruction carries: up to the 5 of hearts going out


def _find(state, pred):
    for name in ROWS:
        for c, p in enumerate(state.areas[name]):
            if p and pred(p):
                return Loc(name, c)
    return None


def _narrated(state, text: str) -> Move:
    """The narrated step as a move of ours, checking what the text says about it."""
    words = text.split()
    if words[0] == "swing":
        return Move.act("swing", state.info["next_swing"])
    x = Card.parse(words[1])
    if words[0] == "out":
        src = _find(state, lambda p: p[-1].card.face == x.face)
        dst = next(f for f in FOUNDATIONS if state.pile(f)[0].card.suit == x.suit)
        return Move.cards(src, dst)
    src = _find(state, lambda p: p[0].card.face == x.face)
    n = len(state.pile(src))
    if words[0] == "fill":
        gap = next(c for c, p in enumerate(state.areas["top"]) if not p)
        return Move.cards(src, Loc("top", gap), n)
    y = Card.parse(words[2])
    dst = _find(state, lambda p: p[-1].card.face == y.face)
    rs, rd = ROWS.index(src.area), ROWS.index(dst.area)
    if words[0] == "up":          # the vertical move: onto the card just above
        assert (rd, dst.index) == (rs - 1, src.index), text
    if words[0] == "down":        # the card comes down to a lower row
        assert rd > rs, text
    if words[0] == "corner":      # on a top-row corner card, covered at the time: the privilege
        assert dst.area == "top" and dst.index in (0, 7), text
        assert any(state.areas[r][dst.index] for r in ROWS[1:]), text
    return Move.cards(src, dst, n)


def test_example_game_replays_on_a_reconstructed_deal():
    f = fact(GID, "example-game")["data"]
    b = Board(grid(EXAMPLE_DEAL))
    b.push("choose " + f["choice"])
    swings = 0
    for text in f["moves"][:EXAMPLE_REPLAYED]:
        m = _narrated(b.state, text)
        reason = b.why_illegal(m)
        assert reason is None, f"{text}: {reason}"
        if text == "swing":
            swings += 1
            assert [str(x) for x in b.legal_moves] == [str(m)], "the rows swing only when no card can move"
            assert m.args[0] == ("right" if swings % 2 else "left"), "the swings alternate, starting to the right"
        b.push(m)
        if text == "out 4d":
            # the text's account of the lay-out before the first swing
            piles = {tuple(s.card.label for s in p) for name in ROWS for p in b.state.areas[name]}
            assert ("Kh", "Qh") in piles and ("Qd", "Jd", "10d") in piles
        if swings == 1 and text == "swing":
            low = G._lowest([b.state.areas[r] for r in ROWS])
            exposed = {b.state.areas[ROWS[low[c]]][c][-1].card.label for c in range(8) if low[c] >= 0}
            assert {"8h", "9h"} <= exposed, "after the first swing the 8 and 9 of hearts are exposed"
    assert swings == 4
    # the source's pendulum has swung four times, the spades are out to the 4 and a crowning king of spades
    # leads its packet in a top-row gap; the rest of the text (closing up the second row, then the end)
    # needs the lost diagram.
    assert [x.card.label for x in b.state.pile(FOUNDATIONS[0])][-1] == "4s"
    assert [x.card.label for x in b.state.areas["top"][1]] == ["Ks", "Qs", "Js", "10s"]


# ------------------------------------------------------------------ a layout first seen in a photo

def test_a_photo_of_the_deal_is_still_choosing():
    seen = G.new(3)
    assert G.photo_info(seen) == {"phase": "choose"}
    assert G.photo_guesses(seen) == []


def test_a_photo_shows_the_building_order_through_its_packets():
    # building up by fours, packing goes down by fours in suit: the 8h on the Qh, the 3c on the 7c on the Jc
    seen = grid({"top": ["Ks", "3s", "4s", "5s", "6s", "7s", "8s", "Kd"],
                 "second": [["Qh", "8h"], ["Jc", "7c", "3c"], "2h", None, None, None, None, None]}, check=False)
    info = G.photo_info(seen)
    assert (info["phase"], info["direction"], info["interval"]) == ("play", "up", 4)
    seen.info = info
    assert G.validate(seen) == []
    assert G.photo_guesses(seen) == ["the building order is not on the table: up by fours fits the packets "
                                     "and the foundations best; check it",
                                     "nor is which way the rows close up next: to the right is assumed"]


@pytest.mark.parametrize("packet, order", [(["4h", "6h", "8h"], ("down", 2)),
                                           (["3d", "7d", "Jd"], ("down", 4)),     # also up by nines
                                           (["Jd", "7d", "3d"], ("up", 4))])      # also down by nines
def test_an_order_read_from_a_packet_is_named_by_its_smaller_interval(packet, order):
    seen = grid({"second": [packet, None, None, None, None, None, None, None]}, check=False)
    info = G.photo_info(seen)
    assert (info["direction"], info["interval"]) == order
    assert building_order(*order) == building_order(order[0] == "up" and "down" or "up", 13 - order[1])


def test_with_no_packet_the_count_shows_the_order():
    # 5s and 5c on their aces; 46 cards on the rows. Up by fours puts one card under each 5 (52 in all);
    # up by ones would put four there (58), more than the pack
    deck = [c for c in full_deck(1) if c.rank != 1 and c.label not in ("5s", "5c")]
    labels = [c.label for c in deck]
    assert len(labels) == 46
    rows = {name: (labels[r * 8:(r + 1) * 8] + [None] * 8)[:8] for r, name in enumerate(ROWS)}
    seen = grid(rows, aces={"left-aces": [["5s"], ["5c"]], "right-aces": [["Ad"], ["Ah"]]}, check=False)
    info = G.photo_info(seen)
    assert (info["phase"], info["direction"], info["interval"]) == ("play", "up", 4)
    seen.info = info
    assert G.photo_guesses(seen)[0] == ("the building order is not on the table: up by fours fits the foundations "
                                        "best; check it")


@pytest.mark.parametrize("packet, objected", [
    (["Qh", "?", "4h"], False),          # up by fours: the 8♥ would lie between
    (["Qh", "?", "?", "Kh"], False),     # Q 8 4 K: three steps back, wrapping past the ace
    (["Qh", "?", "8h"], True),           # one step back from the Q♥, not two
    (["Qh", "?", "4c"], True),           # two steps back, but another suit
])
def test_a_packet_read_with_a_card_missed_must_bridge_the_cards_read_either_side(packet, objected):
    # a photo may miss an index in a packet: the cards read either side still show whether any card
    # could lie there. validate judges neighbours only (an unknown card may be anything); the reader's
    # stricter objections see the gap
    s = grid({"top": [packet, None, None, None, None, None, None, None]}, info=playing("up", 4), check=False)
    assert not [p for p in G.validate(s) if p.startswith("top 1")]
    problems = [p for p in G.photo_objections(s) if p.startswith("top 1")]
    assert problems == (["top 1: the " + Card.parse(packet[-1]).pretty + " cannot lie two cards on from the Q♥ "
                         "when packing the reverse of up by fours"] if objected else [])


def test_a_malformed_order_draws_the_same_objection_from_photo_objections_as_from_validate():
    s = grid({"top": [["Qh", "?", "8h"], None, None, None, None, None, None, None]},
             info={"phase": "play", "direction": "up"}, check=False)
    assert G.photo_objections(s) == G.validate(s) and any("interval" in p for p in G.validate(s))


def test_a_card_read_twice_hides_none_of_the_packing_objections():
    # a reader weighing two readings of a photo counts the rules' objections: a misread copy
    # must not hide the packets that break the building order
    s = grid({"top": ["Ks", "3s", "4s", "5s", "6s", "7s", "8s", "7s"],
              "second": [["Qh", "3c"], None, None, None, None, None, None, None]},
             info=playing("up", 4), check=False)
    problems = G.validate(s)
    assert any("two 7♠" in p for p in problems)
    assert any("3♣ cannot lie on the Q♥" in p for p in problems)
    assert not G.misshapen(s)
    s.areas["second"].pop()
    assert G.misshapen(s) and G.validate(s)[0] == "second must have 8 piles, not 7"
