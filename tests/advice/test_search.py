"""Generic search: determinisation that never peeks, legal suggestions, honest verdicts, budgets by count."""
from __future__ import annotations

import random
import types

import pytest

from advisor import search as S
from advisor.advice import Advice, advise, nearest_legal
from advisor.engine import Loc, Move, get_game

# Play-out budgets by count, never by the clock: a generous time limit with a small play-out cap.
COUNTED = S.Budget(seconds=60.0, rollout_moves=40, max_candidates=6, max_playouts=6)


def hidden_slots(state):
    return [(loc, j) for loc, j, s in state.slots() if s.card is None]


@pytest.fixture(scope="module")
def kings():
    g = get_game("kings")
    s = g.new(11)
    return g, s


# -------------------------------------------------------------- determinise

def test_determinised_worlds_agree_with_the_observation_and_not_with_the_hidden_truth(kings):
    g, truth = kings
    obs = g.observation(truth)
    holes = hidden_slots(obs)
    assert len(holes) > 20
    rng = random.Random(5)
    worlds = [S.determinise(g, obs, rng) for _ in range(6)]
    for w in worlds:
        assert not S.has_hidden(w)
        for (loc, j, o), (_, _, x) in zip(obs.slots(), w.slots()):
            assert o.face_up == x.face_up
            if o.card is not None:
                assert x.card == o.card           # what is seen stays where it is
        # the deck is conserved: every card of the packs exactly once
        assert sorted(map(str, w.known_cards())) == sorted(map(str, g.deck()))
    fills = [tuple(str(w.pile(loc)[j].card) for loc, j in holes) for w in worlds]
    true = tuple(str(truth.pile(loc)[j].card) for loc, j in holes)
    assert len(set(fills)) == len(fills)          # every sample is a different world
    assert all(f != true for f in fills)          # and none is the true deal
    # on average a sampled hidden card matches the truth about as often as chance, not always
    agree = sum(a == b for f in fills for a, b in zip(f, true)) / (len(fills) * len(true))
    assert agree < 0.2


def test_search_sees_only_the_information_state(kings):
    """Two deals that look the same to the player get the same ranking: the hidden cards cannot matter."""
    g, truth = kings
    other = truth.copy()
    # swap two face-down cards of the true state: the player cannot tell the difference
    downs = [(loc, j) for loc, j, s in other.slots() if not s.face_up]
    (l1, j1), (l2, j2) = downs[0], downs[-1]
    a, b = other.pile(l1)[j1], other.pile(l2)[j2]
    assert a.card != b.card
    other.pile(l1)[j1], other.pile(l2)[j2] = b, a
    assert g.observation(other) == g.observation(truth)
    r1 = S.search(g, truth, COUNTED, seed=3)
    r2 = S.search(g, other, COUNTED, seed=3)
    assert [(str(m), round(v, 9), w, n) for m, v, w, n in r1.scored] == \
           [(str(m), round(v, 9), w, n) for m, v, w, n in r2.scored]
    assert r1.hidden


# --------------------------------------------------------------- legality

@pytest.mark.parametrize("game_id,seed", [("kings", 2), ("senior-wrangler", 4), ("captain-spaulding", 1)])
def test_suggestions_are_legal_moves(game_id, seed):
    g = get_game(game_id)
    s = g.new(seed)
    legal = set(g.legal_moves(s))
    for m, *_ in S.search(g, s, COUNTED).scored:
        assert m in legal
    a = advise(s, search=True, budget=COUNTED)
    assert a.suggestions
    for sug in a.suggestions:
        assert g.parse_move(s, sug.move) in legal


def test_transpositions_are_merged_and_never_suggest_an_illegal_move():
    g = get_game("senior-wrangler")
    s = g.new(4)
    res = S.search(g, s, COUNTED)
    legal = g.legal_moves(s)
    assert len(res.scored) + res.merged == len(legal)
    assert len({str(m) for m, *_ in res.scored}) == len(res.scored)


def test_nearest_legal_returns_a_legal_move(kings):
    g, s = kings
    legal = g.legal_moves(s)
    bogus = Move.cards(Loc("pile", 0), Loc("pile", 1))
    assert g.why_illegal(s, bogus) is not None
    near = nearest_legal(s, bogus)
    assert near in legal
    assert nearest_legal(s, Move.act("redeal")) in legal


# --------------------------------------------------------------- budgets

def test_search_respects_a_playout_budget(kings):
    g, s = kings
    for cap in (1, 4, 9):
        res = S.search(g, s, S.Budget(seconds=60.0, rollout_moves=30, max_playouts=cap))
        assert res.playouts == cap
        assert sum(n for *_, n in res.scored) == cap


def test_a_zero_time_budget_still_ranks_every_move_without_playouts(kings):
    g, s = kings
    res = S.search(g, s, S.Budget(seconds=0.0))
    assert res.playouts == 0
    assert {m for m, *_ in res.scored} == set(g.legal_moves(s))


def test_progressive_widening_plays_out_the_best_looking_moves_first():
    g = get_game("senior-wrangler")
    s = g.new(4)
    res = S.search(g, s, S.Budget(seconds=60.0, rollout_moves=20, max_candidates=10, max_playouts=3))
    played = [m for m, _, _, n in res.scored if n]
    assert 1 <= len(played) <= 3


def test_rollout_policy_never_undoes_the_last_move():
    g = get_game("senior-wrangler")
    a, b = Loc("column", 0), Loc("column", 1)
    there, back, other = Move.cards(a, b), Move.cards(b, a), Move.cards(Loc("column", 2), b)
    rng = random.Random(0)
    s = g.new(1)
    picks = {S.policy_move(g, s, [back, other], rng, recent=[there], epsilon=1.0) for _ in range(30)}
    assert picks == {other}


# --------------------------------------------------------------- verdicts

def test_winnable_estimate_reports_its_sample_size(kings):
    g, s = kings
    adv = Advice(g.id)
    S.add_suggestions(g, s, adv, S.Budget(seconds=60.0, rollout_moves=30, max_playouts=5))
    w = adv.winnable
    assert w is not None and not w.exact
    assert w.samples and 1 <= w.samples <= 5
    assert f"of {w.samples} play-outs" in w.reason
    assert "estimated" in w.reason and "floor" in w.reason
    assert 0.0 <= w.probability <= 1.0


def test_exact_solver_verdict_and_plan_where_every_card_is_known(monkeypatch):
    g = get_game("senior-wrangler")
    s = g.new(4)
    first = g.legal_moves(s)[0]
    calls = []

    def solve(state, seconds=1.0):
        calls.append(seconds)
        return {"verdict": "yes", "plan": [first]}

    import advisor.cli as cli
    monkeypatch.setattr(cli, "exact_solver", lambda gid: types.SimpleNamespace(solve=solve))
    S._PLANS.clear()
    adv = Advice(g.id)
    S.add_suggestions(g, s, adv, S.Budget(seconds=0.0))
    assert adv.winnable.exact and adv.winnable.verdict == "yes"
    assert adv.winnable.plan == [str(first)]
    assert adv.suggestions[0].move == str(first) and adv.suggestions[0].rule == "exact-solver"
    adv2 = Advice(g.id)            # the same position again: the cached plan answers, no second solve
    S.add_suggestions(g, s, adv2, S.Budget(seconds=0.0))
    assert len(calls) == 1 and adv2.winnable.exact
    S._PLANS.clear()


def test_no_exact_verdict_where_cards_are_hidden(kings, monkeypatch):
    g, s = kings
    import advisor.cli as cli
    monkeypatch.setattr(cli, "exact_solver", lambda gid: pytest.fail("must not be asked"))
    assert S.exact_verdict(g, s, seconds=0.1) is None


def test_measure_uses_the_games_own_progress():
    assert "progress" in S.measure_name(get_game("seven-and-six"))
    assert "completion" in S.measure_name(get_game("kings"))
    g = get_game("poker-patience")
    assert S.measure(g, g.new(0)) == 0.0


def test_sampled_worlds_keep_the_rules_on_where_a_card_may_lie():
    """A photo may leave a king's place unread while the face-down pile is hidden: the kings
    must not be drawn into the face-down pile (it never holds one), and the unread place
    of a king's column holds the one card its building order puts there."""
    from advisor.engine import State
    g = get_game("kings")
    j = g.new(3).to_json()
    j["areas"]["left-kings"][1] = ["?"]          # the K♥ of the left column not read
    j["areas"]["right-kings"][3] = ["?"]         # nor the K♣ of the right one
    down = j["areas"]["face-down"][0]
    # all but the top face-down card unknown: the turn is legal, the later ones are sampled
    j["areas"]["face-down"][0] = ["~"] * (len(down) - 1) + [down[-1]]
    state = State.from_json(j)
    assert not g.validate(state)
    rng = random.Random(0)
    for _ in range(30):
        w = S.determinise(g, state, rng)
        assert all(s.card.rank != 13 for s in w.areas["face-down"][0])
        assert w.areas["left-kings"][1][0].card.label.startswith("Kh")
        assert w.areas["right-kings"][3][0].card.label.startswith("Kc")
    # the play-outs over such worlds turn many sampled cards: none may be a king
    a = advise(state, [], search=True, budget=S.Budget(seconds=60.0, rollout_moves=400, max_candidates=6,
                                                         max_playouts=20))
    assert a.suggestions


def test_the_solver_thinks_longer_before_the_first_move(monkeypatch):
    """At the opening (no moves made) the exact solver gets OPENING_SECONDS; later the usual short look."""
    from advisor.solving import OPENING_SECONDS
    g = get_game("captain-spaulding")
    s = g.new(3)
    calls = []

    def solve(state, seconds=1.0):
        calls.append(seconds)
        return {"verdict": "unknown"}

    import advisor.cli as cli
    monkeypatch.setattr(cli, "exact_solver", lambda gid: types.SimpleNamespace(solve=solve))
    monkeypatch.setattr(S, "search", lambda *a, **k: types.SimpleNamespace(scored=[], hidden=False))
    S._PLANS.clear()
    S.add_suggestions(g, s, Advice(g.id), S.Budget(seconds=0.0))
    m = g.legal_moves(s)[0]
    later = s.copy()
    g.apply(later, m)
    S.add_suggestions(g, later, Advice(g.id), S.Budget(seconds=0.0), history=[(s, m)])
    assert calls == [OPENING_SECONDS, 0.3]
