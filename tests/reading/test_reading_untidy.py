"""Layouts put down by hand: piles a little off their places, fans running a little askew.

A player does not lay cards on a grid. Each column starts a few millimetres off where a ruler would put it,
and runs a degree or two aslant. A single alignment of the whole layout cannot follow that, so when the
reader judges an alignment it takes each fan as moved onto its place (``vision.reading.straightened``).
"""
from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest

from advisor.engine import get_game
from vision import reading
from vision.fake_sightings import camera, extent, sightings_for
from vision.reading import Place, places, read_sightings, straightened

from test_reading import SIZE, pendulum_in_play, visible_equal


def _hand(gid: str, seed: int, shift: float, turn_deg: float, squared: bool = False) -> dict:
    """Every fanned pile of the game (and with ``squared`` every squared one) moved by up to ``shift`` card
    widths, and each fan turned up to ``turn_deg``."""
    rng = random.Random(seed)
    layout = get_game(gid).layout({})
    return {(a.name, i): (rng.uniform(-shift, shift), rng.uniform(-shift, shift),
                          np.radians(rng.uniform(-turn_deg, turn_deg)))
            for a in layout.areas if a.on_table and (squared or a.fan != (0.0, 0.0)) for i in range(a.count)}


def _column(H: np.ndarray, pl: list[Place], pile: int, n: int, dx: float, dy: float, turn: float) -> np.ndarray:
    """The photo points of ``n`` cards of a Senior Wrangler column laid ``dx, dy`` off and ``turn`` aslant."""
    p = next(p for p in pl if p.area.name == "column" and p.pile == pile)
    fan = np.array(p.area.fan)
    c, s = np.cos(turn), np.sin(turn)
    rel = np.outer(np.arange(n), fan)
    at = p.table + rel @ np.array([[c, s], [-s, c]]) + [dx, dy]
    return reading._apply(H, at)


def test_a_column_laid_off_its_place_and_askew_is_taken_onto_it():
    pl = places(get_game("senior-wrangler").layout({}))
    H = np.array([[90.0, 8.0, 300.0], [-5.0, 85.0, 120.0], [0.0, 0.0005, 1.0]])
    q = _column(H, pl, 2, 9, dx=0.09, dy=-0.07, turn=np.radians(3.0))
    moved = straightened(q, H, pl)
    assert moved is not None
    head = next(p for p in pl if p.area.name == "column" and p.pile == 2).table
    tab = reading._apply(np.linalg.inv(H), moved)
    assert np.abs(tab - (head + np.outer(np.arange(9), [0.0, 0.3]))).max() < 0.01


def test_a_column_far_off_its_place_or_a_lone_card_is_left_where_it_lies():
    pl = places(get_game("senior-wrangler").layout({}))
    H = np.diag([90.0, 90.0, 1.0])
    far = _column(H, pl, 3, 6, dx=0.3, dy=0.0, turn=0.0)       # a quarter card width is a hand's most
    lone = _column(H, pl, 5, 1, dx=0.1, dy=0.05, turn=0.0)     # one card says nothing of its pile's lie
    assert straightened(np.vstack([far, lone]), H, pl) is None


def _read_as_dealt_but_not_on_the_grid(gid: str, seed: int, hand: dict, monkeypatch) -> None:
    """A deal of ``gid`` laid by ``hand`` is read exactly; judged on the layout's grid alone, as the reader
    before session 50 judged it, the same sightings were refused as no layout of the game."""
    truth = get_game(gid).new(seed)
    rng = random.Random(seed)
    H = camera(rng, extent=extent(truth))
    sights = sightings_for(truth, H, rng, jitter=0.02, hand=hand)
    r = read_sightings(sights, gid, image_size=SIZE)
    assert r.state is not None, r.message
    assert visible_equal(truth, r.state) == []
    assert not any("lie loosely" in d.message for d in r.doubts)
    monkeypatch.setattr(reading, "STRAIGHTEN", 0)
    monkeypatch.setattr(reading, "SQUARED_HAND", 1.0)
    monkeypatch.setattr(reading, "LOOSE_SNUG", 0.0)     # (session 55's second bar for loose layouts, not there then)
    assert read_sightings(sights, gid, image_size=SIZE).state is None


# Columns up to a fifth of a card width (about 12 mm) off their places and 3 degrees aslant. Further along
# than that a column's first card lies nearer half a fan step off, and which place it holds is a guess.
@pytest.mark.parametrize("gid, seed", [("senior-wrangler", 2), ("senior-wrangler", 3), ("seven-and-six", 2),
                                       ("seven-and-six", 4)])
def test_a_layout_laid_by_hand_is_read_as_dealt(gid, seed, monkeypatch):
    _read_as_dealt_but_not_on_the_grid(gid, seed, _hand(gid, seed, 0.2, 3.0), monkeypatch)


# Piles of one visible card, a fifth of a card width off their places either way: a fan is judged against
# its own line, but such a pile only against its place, so those are judged more loosely (SQUARED_HAND).
@pytest.mark.parametrize("gid, seed", [("aunty-allis", 1), ("aunty-allis", 2), ("kings", 1), ("kings", 3),
                                       ("interregnum", 3)])
def test_squared_piles_put_down_by_hand_are_read_as_dealt(gid, seed, monkeypatch):
    _read_as_dealt_but_not_on_the_grid(gid, seed, _hand(gid, seed, 0.2, 0.0, squared=True), monkeypatch)


def test_a_layout_laid_loosely_is_read_with_a_doubt_rather_than_refused(monkeypatch):
    # Columns up to 0.3 card widths off their places and 5 degrees aslant: every alignment lies under the
    # reader's bar for a layout (MIN_SNUG), so the photo was refused. The snuggest alignments over the lower
    # bar (LOOSE_SNUG) are read after all, and the reading says how loosely the cards lie.
    truth = get_game("senior-wrangler").new(2)
    rng = random.Random(2)
    H = camera(rng, extent=extent(truth))
    sights = sightings_for(truth, H, rng, jitter=0.02, hand=_hand("senior-wrangler", 2, 0.3, 5.0))
    r = read_sightings(sights, "senior-wrangler", image_size=SIZE)
    assert r.state is not None, r.message
    loose = [d for d in r.doubts if "lie loosely" in d.message]
    assert len(loose) == 1 and loose[0].kind == "ambiguous" and loose[0].area is None
    assert "square the layout up" in loose[0].message
    laid = [[s.card.label for s in p] for p in truth.areas["column"]]
    read = [[s.card.label for s in p if s.card] for p in r.state.areas["column"]]
    assert sum(a == b for a, b in zip(laid, read)) >= 4          # half the columns read exactly as laid
    monkeypatch.setattr(reading, "LOOSE_SNUG", 0.0)
    refused = read_sightings(sights, "senior-wrangler", image_size=SIZE)
    assert refused.state is None and "not laid out on its places" in refused.message


def test_a_layout_laid_too_loosely_is_refused_with_a_word_on_squaring_it_up():
    # columns and piles up to a third of a card width off and 8 degrees aslant: past what the reader allows a
    # hand, so not read; the message says what to do about it
    truth = get_game("senior-wrangler").new(1)
    rng = random.Random(1)
    H = camera(rng, extent=extent(truth))
    sights = sightings_for(truth, H, rng, jitter=0.02, hand=_hand("senior-wrangler", 1, 0.35, 8.0, squared=True))
    r = read_sightings(sights, "senior-wrangler", image_size=SIZE)
    assert r.state is None
    assert "not laid out on its places" in r.message and "square the columns and piles up" in r.message


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_kings_fan_spread_by_hand_is_read_card_by_card(seed, monkeypatch):
    """The picked-up pile is spread in one stroke: here its line starts a fifth of a card width (over half a
    place) right of where the layout starts it, and one card lies a further third of a place along. Each card
    rounded to its nearest place on its own, the fan read one place on from there, its first place empty."""
    from test_reading import _kings_with_a_fan
    truth = _kings_with_a_fan(seed, least=5)
    n = len(truth.areas["fan"])
    step = get_game("kings").layout({})["fan"].step[0]
    hand = {("fan", i): (0.2 + (step / 3 if i == 2 else 0.0), 0.03, 0.0) for i in range(n)}
    rng = random.Random(seed)
    H = camera(rng, extent=extent(truth))
    sights = sightings_for(truth, H, rng, jitter=0.01, hand=hand)
    fan = lambda s: [[c.card.label if c.card else None for c in p] for p in s.areas["fan"]]  # noqa: E731
    r = read_sightings(sights, "kings", image_size=SIZE)
    assert r.state is not None, r.message
    assert fan(r.state) == fan(truth)
    assert not [d for d in r.doubts if d.area == "fan"]
    monkeypatch.setattr(reading, "GROWING_FIT", 0)
    before = read_sightings(sights, "kings", image_size=SIZE)
    assert before.state is not None and fan(before.state) != fan(truth)


@pytest.mark.parametrize("seed, place", [(2, 0), (3, 1), (4, 2)])
def test_a_pendulum_row_card_laid_high_is_read_at_its_place_when_the_packet_above_cannot_hold_it(seed, place, monkeypatch):
    """A Pendulum packet fans down towards the row below, and reaches it after three cards. The second row's
    card here lies 0.15 card widths high: as near the packet above's next steps as its own place. Read at
    the packet's end, the packet breaks the building order and the card's own place is read empty; the
    rules put it back, and a doubt says where else it could lie."""
    game = get_game("pendulum")
    truth = pendulum_in_play(seed)
    assert len(truth.areas["second"][place]) == 1 and truth.areas["top"][place]
    rng = random.Random(seed)
    H = camera(rng, extent=extent(truth))
    sights = sightings_for(truth, H, rng, jitter=0.02, hand={("second", place): (0.0, -0.15, 0.0)})
    r = read_sightings(sights, "pendulum", image_size=SIZE)
    assert r.state is not None, r.message
    assert visible_equal(truth, r.state) == []
    assert game.validate(r.state) == []
    said = [d for d in r.doubts if d.kind == "conflict" and (d.area, d.pile, d.index) == ("second", place, 0)]
    assert len(said) == 1 and f"the end of top {place + 1}" in said[0].message
    monkeypatch.setattr(reading, "FAN_END_RULES", 0)
    before = read_sightings(sights, "pendulum", image_size=SIZE)
    assert before.state is not None and not before.state.areas["second"][place]
    assert before.state.areas["top"][place][-1].card == truth.areas["second"][place][0].card


def test_a_card_put_down_by_hand_moves_and_turns_all_its_indices_together():
    """``sightings_for``'s ``card_shift`` and ``card_turn`` (the fake reading benchmark's hand-laid cards) move a
    card, not each index: its two indices stay a card's diagonal apart, turned with it."""
    truth = get_game("interregnum").new(1)
    H = np.diag([100.0, 100.0, 1.0])
    tidy = sightings_for(truth, H)
    moved = sightings_for(truth, H, random.Random(3), card_shift=0.05, card_turn=4.0)
    assert [s.label for s in tidy] == [s.label for s in moved]

    def pairs(ss):
        out = defaultdict(list)
        for s in ss:
            out[s.label].append(np.array([(s.box[0] + s.box[2]) / 200, (s.box[1] + s.box[3]) / 200]))
        return {k: v for k, v in out.items() if len(v) == 2}

    a, b = pairs(tidy), pairs(moved)
    assert len(a) >= 8
    shifts, turns = [], []
    for label, (p, q) in a.items():
        r, s = b[label]
        assert np.linalg.norm((s - r)) == pytest.approx(np.linalg.norm(q - p), abs=1e-6)   # one card, not two
        shifts.append(np.linalg.norm((r + s) / 2 - (p + q) / 2))
        turns.append(abs(np.degrees(np.arctan2(*(s - r)) - np.arctan2(*(q - p)))))
    assert max(shifts) > 0.01 and max(turns) > 0.5
