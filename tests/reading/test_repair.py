"""The rules repair a reading: a state the game allows, with every forced guess said as a doubt."""
from __future__ import annotations

from advisor.engine import Slot, get_game
from vision.reading import Doubt, repair


def _sw():
    game = get_game("senior-wrangler")
    return game, game.new(3)


def _two_keys_of_one_rank(state):
    """Swap key 8 with a column card of key 1's rank: a misread that breaks only the keys' rule."""
    k1 = state.areas["key"][0][0].card
    i, j = next((i, j) for i, col in enumerate(state.areas["column"]) for j, s in enumerate(col)
                if s.card.rank == k1.rank)
    state.areas["key"][7][0], state.areas["column"][i][j] = state.areas["column"][i][j], state.areas["key"][7][0]
    return k1, state.areas["key"][7][0].card


def test_a_key_of_a_repeated_rank_is_blanked_when_unsure():
    game, state = _sw()
    template = state.copy()
    k1, twin = _two_keys_of_one_rank(state)
    assert len(game.validate(state)) == 1
    conf = {("key", i, 0): 0.9 for i in range(8)}
    conf[("key", 7, 0)] = 0.3
    doubts: list[Doubt] = []
    repair(game, state, conf, doubts, template)
    assert game.validate(state) == []
    assert state.areas["key"][7][0].card is None and state.areas["key"][0][0].card == k1
    (d,) = [d for d in doubts if d.kind == "impossible-read"]
    assert (d.area, d.pile, d.index) == ("key", 7, 0)
    assert twin.pretty in d.message and "marked unreadable" in d.message


def test_a_sure_read_is_not_overruled():
    game, state = _sw()
    template = state.copy()
    k1, twin = _two_keys_of_one_rank(state)
    conf = {("key", i, 0): 0.95 for i in range(8)}
    conf[("column", 0, 0)] = 0.2     # unsure, but blanking it would not help
    doubts: list[Doubt] = []
    repair(game, state, conf, doubts, template)
    assert state.areas["key"][0][0].card == k1 and state.areas["key"][7][0].card == twin   # left to the player
    assert state.areas["column"][0][0].card is not None
    assert game.validate(state) and not doubts


def test_unreadable_places_go_first_when_a_fan_is_too_long():
    game, state = _sw()
    template = state.copy()
    col = state.areas["column"][2]
    n = len(col)
    # the reader put two unreadable places into column 3 where indices seemed to be missed
    col.insert(4, Slot(None, True))
    col.insert(8, Slot(None, True))
    last = col[-1].card
    doubts = [Doubt("column 3, card 5: index unreadable", "column", 2, 4, "unreadable"),
              Doubt("column 3, card 9: index unreadable", "column", 2, 8, "unreadable"),
              Doubt("column 3, card 12: index unclear", "column", 2, n + 1, "low-confidence")]
    conf = {("column", 2, n + 1): 0.4}
    assert state.card_count() == len(game.deck()) + 2
    repair(game, state, conf, doubts, template)
    assert state.card_count() == len(game.deck()) and game.validate(state) == []
    assert len(state.areas["column"][2]) == n and state.areas["column"][2][-1].card == last
    assert not [d for d in doubts if d.kind == "unreadable"]
    # the doubt and confidence about the last card still point at it
    (low,) = [d for d in doubts if d.kind == "low-confidence"]
    assert low.index == n - 1 and conf == {("column", 2, n - 1): 0.4}
    (count,) = [d for d in doubts if d.kind == "count"]
    assert (count.area, count.pile) == ("column", 2) and "two unreadable" in count.message


def test_a_valid_reading_is_left_alone():
    game, state = _sw()
    before = state.to_json()
    doubts: list[Doubt] = []
    repair(game, state, {("key", 0, 0): 0.2}, doubts, state.copy())
    assert state.to_json() == before and doubts == []
