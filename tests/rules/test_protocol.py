"""Properties every game must have, whatever its rules (run for every registered game)."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.engine import Board, Move, MoveError, State, StateError, games, get_game

GAME_IDS = sorted(games())
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_STEPS = 300


def faces(state: State) -> Counter:
    return Counter(str(s.card) for _, _, s in state.slots())


def test_at_least_the_five_great_games_are_registered():
    assert {"aunty-allis", "seven-and-six", "uncle-remus", "senior-wrangler", "kings"} <= set(GAME_IDS)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_same_seed_same_deal_and_different_seeds_differ(gid):
    g = get_game(gid)
    assert g.new(7) == g.new(7)
    assert g.new(7) != g.new(8)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_deal_holds_exactly_the_deck(gid):
    g = get_game(gid)
    s = g.new(3)
    assert all(slot.card is not None for _, _, slot in s.slots()), "a dealt state knows every card"
    assert Counter(str(c) for c in s.known_cards()) == Counter(str(c) for c in g.deck())


@pytest.mark.parametrize("gid", GAME_IDS)
def test_layout_names_every_area_of_the_state(gid):
    g = get_game(gid)
    s = g.new(1)
    layout = g.layout(s.options)
    assert list(s.areas) == layout.names
    for a in layout.areas:
        if a.count:
            assert len(s.areas[a.name]) == a.count


@pytest.mark.parametrize("gid", GAME_IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), walk=st.integers(0, 10**6))
def test_random_playout_conserves_cards_and_stays_valid(gid, seed, walk):
    g = get_game(gid)
    state = g.new(seed)
    deck = faces(state)
    rng = random.Random(walk)
    for _ in range(MAX_STEPS):
        legal = g.legal_moves(state)
        if not legal:
            break
        assert len(set(legal)) == len(legal), "legal moves are listed once each"
        m = rng.choice(legal)
        assert g.why_illegal(state, m) is None
        g.apply(state, m)
        assert faces(state) == deck, f"cards not conserved after {m}"
        assert g.validate(state) == [], f"invalid state after {m}"
    assert g.status(state) in {"won", "stuck", "playing"}


@pytest.mark.parametrize("gid", GAME_IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), walk=st.integers(0, 10**6))
def test_push_then_pop_round_trips(gid, seed, walk):
    board = Board.deal(gid, seed)
    rng = random.Random(walk)
    snapshots = [board.state.copy()]
    for _ in range(60):
        legal = board.legal_moves
        if not legal:
            break
        board.push(rng.choice(legal))
        snapshots.append(board.state.copy())
    while board.move_stack:
        board.pop()
        snapshots.pop()
        assert board.state == snapshots[-1]


@pytest.mark.parametrize("gid", GAME_IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), walk=st.integers(0, 10**6), steps=st.integers(0, 80))
def test_json_round_trips_at_any_point(gid, seed, walk, steps):
    g = get_game(gid)
    state = g.new(seed)
    rng = random.Random(walk)
    for _ in range(steps):
        legal = g.legal_moves(state)
        if not legal:
            break
        g.apply(state, rng.choice(legal))
    text = json.dumps(state.to_json())
    back = State.from_json(text)
    assert back == state
    assert g.legal_moves(back) == g.legal_moves(state)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_legal_moves_print_and_parse_back(gid):
    board = Board.deal(gid, 11)
    rng = random.Random(5)
    for _ in range(40):
        legal = board.legal_moves
        if not legal:
            break
        for m in legal:
            assert board.parse(str(m)) == m
        board.push(rng.choice(legal))


@pytest.mark.parametrize("gid", GAME_IDS)
def test_an_illegal_move_is_refused_with_a_reason(gid):
    board = Board.deal(gid, 2)
    bogus = Move.act("fly-to-the-moon")
    reason = board.why_illegal(bogus)
    assert isinstance(reason, str) and reason
    with pytest.raises(MoveError):
        board.push(bogus)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_observation_hides_face_down_cards_and_still_loads(gid):
    g = get_game(gid)
    s = g.new(4)
    obs = g.observation(s)
    assert all(slot.card is None for _, _, slot in obs.slots() if not slot.face_up)
    assert State.from_json(obs.to_json()) == obs
    g.legal_moves(obs)  # a partial observation must not crash move generation


@pytest.mark.parametrize("gid", GAME_IDS)
def test_too_many_copies_is_named(gid):
    g = get_game(gid)
    data = g.new(5).to_json()
    # Turn every card into the ace of spades: far more copies than packs allow.
    data["areas"] = {a: [["As" for _ in p] for p in piles] for a, piles in data["areas"].items()}
    with pytest.raises(StateError, match="A♠"):
        State.from_json(data)


def test_unknown_game_is_named():
    with pytest.raises(Exception, match="unknown game 'chess'"):
        get_game("chess")


@pytest.mark.parametrize("gid", sorted(games()))
def test_a_layout_is_made_once_for_each_set_of_options(gid):
    game = get_game(gid)
    options = game.check_options({})
    assert game.layout(options) is game.layout(dict(options))
    assert game.layout(options) == type(game).layout.__wrapped__(game, options)


def test_layouts_for_other_options_are_their_own():
    kings = get_game("kings")
    spread, squared = kings.layout({"fans_stay_open": True}), kings.layout({"fans_stay_open": False})
    assert spread is not squared and spread != squared
    assert kings.layout({"fans_stay_open": True}) is spread
