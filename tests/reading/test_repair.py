"""The rules repair a reading: a state the game allows, with every forced guess said as a doubt."""
from __future__ import annotations

from advisor.engine import Card, Loc, Slot, get_game
from vision.reading import Doubt, _point_at_objections, repair


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
    # the reading kept then points at the two keys the objection is about, and at nothing else
    _point_at_objections(game, state, conf, doubts, game.validate(state))
    assert sorted((d.area, d.pile, d.index, d.kind) for d in doubts) == [("key", 0, 0, "impossible"), ("key", 7, 0, "impossible")]
    assert all("same rank" in d.message and "check it" in d.message for d in doubts)


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



def _kings_with_a_suit_misread():
    """Kings after 60 moves, with the 3♣ on top of the K♣'s right-hand column read as the 3♠
    (only the top card shows: no depth under a 3♠ suits the K♣, so none is fitted)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import reading_bench as rb
    from advisor.engine import Card
    from vision.reading import _balance
    game = get_game("kings")
    truth = rb.make_state("kings", 0, 60)
    assert [s.card.label for s in truth.areas["right-kings"][3]] == ["Kc", "Ac", "2c", "3c"]
    read = truth.copy()
    read.areas["right-kings"][3] = [Slot(Card.parse("3s"), True)]
    _balance(game, game.layout(read.options), read.areas, [])
    assert any("3♠" in p for p in game.validate(read))
    return game, read


def test_a_card_the_rules_forbid_is_read_as_its_next_likeliest_label():
    # The classifier was 93% sure of the 3♠ and gave the 3♣ 4%: reading it as the 3♣ removes the
    # rules' objection, so the card is relabelled, and the depth beneath it is fitted again.
    game, read = _kings_with_a_suit_misread()
    conf = {("right-kings", 3, 0): 0.93}
    readings = {("right-kings", 3, 0): {"3s": 0.93, "3c": 0.04}}
    doubts: list[Doubt] = []
    repair(game, read, conf, doubts, game.new(0), readings)
    assert game.validate(read) == []
    pile = read.areas["right-kings"][3]
    assert len(pile) == 4 and pile[-1].card.label == "3c" and read.card_count() == len(game.deck())
    (d,) = [d for d in doubts if d.kind == "relabelled"]
    assert (d.area, d.pile, d.index) == ("right-kings", 3, 3)
    assert "3♠" in d.message and "3♣" in d.message
    # its confidence moved with it, lowered by how much less likely the classifier found the 3♣
    assert list(conf) == [("right-kings", 3, 3)] and conf[("right-kings", 3, 3)] < 0.1


def test_a_card_is_not_relabelled_to_a_reading_the_classifier_all_but_ruled_out():
    # Senior Wrangler's keys may be of any suit and any rank but the king: the rules fix no card there,
    # so a label the classifier gave 0.1% is not taken, even though it would remove the objection.
    game, state = _sw()
    template = state.copy()
    k1, twin = _two_keys_of_one_rank(state)
    free = next(r for r in range(1, 13) if all(k[0].card.rank != r for k in state.areas["key"]))
    other = Card(free, twin.suit).label

    def unread_one_copy_of_other(st):
        # (a full deal holds both copies already: one of them left unread makes room for a relabelling)
        i, j = next((i, j) for i, col in enumerate(st.areas["column"]) for j, s in enumerate(col)
                    if s.card is not None and s.card.label == other)
        st.areas["column"][i][j] = Slot(None, True)
    unread_one_copy_of_other(state)
    problems = game.validate(state)
    conf = {("key", i, 0): 0.93 for i in range(8)}
    doubts: list[Doubt] = []
    repair(game, state, conf, doubts, template, {("key", 7, 0): {twin.label: 0.99, other: 0.001}})
    assert state.areas["key"][7][0].card == twin and game.validate(state) == problems
    assert not [d for d in doubts if d.kind == "relabelled"]
    # with the label a little likelier it is taken
    state2 = template.copy()
    _two_keys_of_one_rank(state2)
    unread_one_copy_of_other(state2)
    repair(game, state2, dict(conf), [], template, {("key", 7, 0): {twin.label: 0.95, other: 0.04}})
    assert state2.areas["key"][7][0].card.label == other and game.validate(state2) == []


def test_a_card_on_a_kings_column_is_read_in_the_column_suit_however_sure_the_classifier_was():
    # The classifier takes some decks' clubs for spades, 99% sure: on the K♣'s column only clubs
    # may lie, so the 3♠ there is read as the 3♣, with a doubt that says why.
    game, read = _kings_with_a_suit_misread()
    conf = {("right-kings", 3, 0): 0.99}
    doubts: list[Doubt] = []
    repair(game, read, conf, doubts, game.new(0), {("right-kings", 3, 0): {"3s": 0.99, "3c": 0.001}})
    assert game.validate(read) == []
    pile = read.areas["right-kings"][3]
    assert [s.card.label if s.card else None for s in pile][-1] == "3c" and len(pile) == 4
    (d,) = [d for d in doubts if d.kind == "relabelled"]
    assert (d.area, d.pile, d.index) == ("right-kings", 3, 3)
    assert "3♠" in d.message and "3♣" in d.message and "only suit the rules allow" in d.message
    assert conf[("right-kings", 3, 3)] < 0.1


def test_a_kings_column_suit_is_not_forced_where_another_card_was_seen_or_the_rank_does_not_fit():
    game, read = _kings_with_a_suit_misread()
    assert game.allowed_faces(read, Loc("pile", 0)) is None
    # a Q♠ read where the 3♣ lies on the K♣'s column: the Q♣ is tried, but it does not fit there either
    # (the column goes K, A, 2, 3), so the reading is left to the player
    read.areas["right-kings"][3] = [Slot(Card.parse("Kc"), True), Slot(Card.parse("Ac"), True),
                                    Slot(Card.parse("2c"), True), Slot(Card.parse("Qs"), True)]
    problems = game.validate(read)
    assert problems
    doubts: list[Doubt] = []
    repair(game, read, {("right-kings", 3, 3): 0.99}, doubts, game.new(0), {("right-kings", 3, 3): {"Qs": 0.99}})
    assert read.areas["right-kings"][3][3].card.label == "Qs"
    assert not [d for d in doubts if d.kind == "relabelled"]


def test_the_rules_choose_the_top_of_a_squared_pile_where_two_cards_were_seen():
    # A long Senior Wrangler column reaches the key row, so its last card (a K) is seen on key 6
    # too. Read as the top, a K there means a finished pile of twelve cards beneath: eleven more
    # cards than the game has, which the repair would otherwise take out of the fans' unreadable
    # places, moving every card after them. The key card seen there is kept instead.
    from advisor.engine import Card
    from vision.reading import SeenCard, _balance, _fit_depths
    game, truth = _sw()
    key6 = truth.areas["key"][5][0].card
    king = Card.parse("K" + key6.suit)
    read = truth.copy()
    read.areas["key"][5] = [Slot(king, True)]
    layout = game.layout(read.options)
    _fit_depths(game, read, [("key", 5)])
    _balance(game, layout, read.areas, [])
    assert len(read.areas["key"][5]) == 13 and read.card_count() > len(game.deck())
    conf = {("key", 5, 12): 0.9}
    readings = {("key", 5, 12): {king.label: 0.9}}
    rivals = {("key", 5, 12): [SeenCard(key6.label, (0.0, 0.0), 0.8, readings={key6.label: 0.8})]}
    doubts = [Doubt(f"key 6: 2 cards seen on a squared pile; kept the top one ({king.pretty})", "key", 5, 12, "conflict")]
    repair(game, read, conf, doubts, game.new(3), readings, rivals)
    assert _labels(read) == _labels(truth)
    assert conf == {("key", 5, 0): 0.8} and readings == {("key", 5, 0): {key6.label: 0.8}}
    (d,) = doubts
    assert (d.kind, d.area, d.pile, d.index) == ("conflict", "key", 5, 0)
    assert key6.pretty in d.message and king.pretty in d.message and "check it" in d.message


def _labels(state):
    return {a: [[s.card.label if s.card else None for s in p] for p in ps] for a, ps in state.areas.items()}


def test_a_squared_pile_keeps_its_top_when_the_rival_fits_no_better():
    # the rival is a card of key 1's rank: as key 6 it would make two keys of one rank
    from vision.reading import SeenCard
    game, state = _sw()
    before = state.to_json()
    k1 = state.areas["key"][0][0].card
    twin = next(s.card for col in state.areas["column"] for s in col if s.card.rank == k1.rank)
    conflict = Doubt("key 6: 2 cards seen on a squared pile; kept the top one", "key", 5, 0, "conflict")
    doubts = [conflict]
    repair(game, state, {("key", 5, 0): 0.9}, doubts, state.copy(), {}, {("key", 5, 0): [SeenCard(twin.label, (0.0, 0.0), 0.9)]})
    assert state.to_json() == before and doubts == [conflict]
