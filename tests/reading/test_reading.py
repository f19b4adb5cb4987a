"""Reading a layout from sightings: grouping, registration, placement, doubts and changes."""
from __future__ import annotations

import random

import pytest

from advisor.engine import State, games, get_game
from vision.fake_sightings import FakeSighting, camera, extent, sightings_for
from vision.reading import estimate_scale, group_cards, group_columns, read_sightings

GAMES = sorted(games())


def visible_equal(truth: State, read: State) -> list[str]:
    """Differences on the face-up cards that lie on the table."""
    layout = get_game(truth.game).layout(truth.options)
    diffs = []
    for a in layout.areas:
        if not a.on_table or a.kind == "facedown":
            continue
        for i, (p, q) in enumerate(zip(truth.areas[a.name], read.areas[a.name])):
            tp = [s.card.label for s in p if s.face_up and s.card]
            tq = [s.card.label for s in q if s.face_up and s.card]
            if a.fan == (0.0, 0.0):
                tp, tq = tp[-1:], tq[-1:]
            if tp != tq:
                diffs.append(f"{a.name}{i + 1}: {tp} != {tq}")
    return diffs


@pytest.mark.parametrize("gid", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_dealt_layout_is_read_back_from_an_angled_view(gid, seed):
    truth = get_game(gid).new(seed)
    rng = random.Random(seed)
    H = camera(rng, extent=extent(truth))
    r = read_sightings(sightings_for(truth, H, rng, jitter=0.02), gid, image_size=(1920, 1080))
    assert r.state is not None, r.message
    assert visible_equal(truth, r.state) == []
    assert get_game(gid).validate(r.state) == []


def test_twins_in_a_two_pack_game_stay_two_cards():
    # Two 7♠ one fan step apart in one column, and a single card with both indices seen.
    s = [FakeSighting("7s", (100, 100, 120, 140)), FakeSighting("7s", (100, 130, 120, 170)),
         FakeSighting("Qh", (300, 100, 320, 140)), FakeSighting("Qh", (376, 200, 396, 240))]
    cards = group_cards(s, estimate_scale(s))
    assert sorted(c.label for c in cards) == ["7s", "7s", "Qh"]


def test_columns_are_grouped_without_a_game():
    s = []
    for col in range(3):
        for j in range(4):
            s.append(FakeSighting(f"{j + 2}{'shd'[col]}", (100 + 150 * col, 100 + 30 * j, 120 + 150 * col, 140 + 30 * j)))
    cols = group_columns(s)
    assert sorted([c.label for c in col] for col in cols) == [[f"{j + 2}{x}" for j in range(4)] for x in "dhs"]


def test_no_cards_and_wrong_game_give_a_message_not_a_state():
    r = read_sightings([], "senior-wrangler")
    assert r.state is None and "no cards" in r.message
    truth = get_game("senior-wrangler").new(1)
    H = camera(random.Random(1), extent=extent(truth))
    r2 = read_sightings(sightings_for(truth, H), "kings", image_size=(1920, 1080))
    assert r2.state is None and "does not look like a Kings layout" in r2.message


def test_three_copies_in_a_two_pack_game_are_flagged():
    truth = get_game("senior-wrangler").new(3)
    H = camera(random.Random(3), extent=extent(truth))
    sights = sightings_for(truth, H)
    # Misread two other cards as the first column's exposed card.
    top = truth.areas["column"][0][-1].card.label
    others = [k for k, s in enumerate(sights) if s.label != top][:2]
    for k in others:
        sights[k].label = top
        sights[k].conf = 0.4
    r = read_sightings(sights, "senior-wrangler", image_size=(1920, 1080))
    assert r.state is not None
    assert any("seen in a two-pack game" in d.message for d in r.doubts)
    assert get_game("senior-wrangler").validate(r.state) == []


def test_a_later_photo_is_explained_as_moves():
    g = get_game("senior-wrangler")
    before = g.new(4)
    legal = [m for m in g.legal_moves(before) if m.action == "move"]
    assert legal
    after = before.copy()
    g.apply(after, legal[0])
    H = camera(random.Random(4), extent=extent(before))
    r = read_sightings(sightings_for(after, H), "senior-wrangler", previous=before, image_size=(1920, 1080))
    assert r.state is not None, r.message
    assert [(c.move, c.legal) for c in r.changes] == [(str(legal[0]), True)]
