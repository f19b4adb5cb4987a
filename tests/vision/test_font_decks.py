"""Font-drawn training decks: every card drawn, its corner index found where it was printed."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2", reason="vision extra (opencv) is required", exc_type=ImportError)

from vision.decks import LABELS, install_packages  # noqa: E402
from vision.font_decks import (ASPECT, WIDTH, deck_name, draw_deck, font_files, suit_sign, suit_style,  # noqa: E402
                               write_font_decks)
from vision.synth import Deck  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def font_packages():
    """The faces come from Debian's font packages; a clean machine has only some of them (CI runs as root)."""
    install_packages()


def test_upright_faces_of_both_families_are_used():
    files = font_files()
    assert files, "no fonts: the data step installs fonts-dejavu-core, fonts-dejavu-extra and fonts-liberation"
    names = {f.name for f in files}
    assert "DejaVuSerif-Bold.ttf" in names and "LiberationSans-Regular.ttf" in names
    assert not any("Italic" in n or "Oblique" in n for n in names)


@pytest.mark.slow
def test_a_font_deck_loads_with_its_index_in_the_top_left_corner(tmp_path):
    font = next(f for f in font_files() if f.name == "LiberationSerif-Regular.ttf")
    names = write_font_decks(tmp_path, seed=3)
    assert deck_name(font) in names and deck_name(font, drawn=True) in names
    assert len(names) == 2 * len(font_files())
    deck = Deck.load(tmp_path / deck_name(font))
    assert set(deck.images) == set(LABELS) and len(deck.index_boxes) == 52
    assert deck.size == (WIDTH, int(WIDTH * ASPECT))
    for label in ("10h", "Qs", "Ac"):
        x0, y0, x1, y1 = deck.index_boxes[label]
        assert x1 < 0.3 * WIDTH and y1 < 0.3 * WIDTH * ASPECT, (label, deck.index_boxes[label])
        # a "10" is two figures and a suit sign: taller than wide, but not a sliver
        assert 0.2 < (x1 - x0) / (y1 - y0) < 1.0, (label, deck.index_boxes[label])


def test_hearts_are_inked_red_and_spades_dark():
    cards = draw_deck(font_files()[0], seed=1)
    for label, red in (("7h", True), ("7d", True), ("7s", False), ("7c", False)):
        corner = cards[label][: int(0.2 * WIDTH * ASPECT), : int(0.2 * WIDTH), :3].reshape(-1, 3).astype(int)
        ink = corner[corner.sum(1) < 450]             # not paper
        b, g, r = ink.mean(0)
        assert (r > b + 60) == red, (label, ink.mean(0))


def test_the_far_corner_is_the_near_one_turned_half_round():
    card = draw_deck(font_files()[0], seed=2)["Kd"][..., :3].astype(int)
    h = card.shape[0]
    near, far = card[: h // 4, : WIDTH // 4], card[h - h // 4:, WIDTH - WIDTH // 4:][::-1, ::-1]
    assert np.abs(near - far).mean() < 8


def _mask(patch) -> np.ndarray:
    return np.array(patch)[..., 3] > 128


@pytest.mark.parametrize("seed", range(6))
def test_drawn_suit_signs_are_solid_and_tell_club_from_spade(seed):
    style = suit_style(np.random.default_rng(seed))
    signs = {s: _mask(suit_sign(s, 40, (0, 0, 0), style)) for s in "shdc"}
    for s, m in signs.items():
        h, w = m.shape
        assert 38 <= h <= 41 and 0.5 < w / h < 1.1, (s, m.shape)
        assert m.mean() > 0.35, (s, m.mean())          # a filled sign, not an outline
    # a diamond is widest in the middle, a heart near its top, a spade near its bottom half
    widest = {s: int(np.argmax(m.sum(1))) / m.shape[0] for s, m in signs.items()}
    assert 0.35 < widest["d"] < 0.65 and widest["h"] < 0.4 and widest["s"] > 0.3, widest
    # club and spade: the same foot, but not the same outline
    c, s = signs["c"], signs["s"]
    n = min(c.shape[0], s.shape[0]), min(c.shape[1], s.shape[1])
    assert (c[:n[0], :n[1]] != s[:n[0], :n[1]]).mean() > 0.08


def test_a_drawn_suits_deck_is_inked_like_a_font_deck():
    cards = draw_deck(font_files()[0], seed=4, drawn_suits=True)
    assert set(cards) == set(LABELS)
    corner = cards["7h"][: int(0.2 * WIDTH * ASPECT), : int(0.2 * WIDTH), :3].reshape(-1, 3).astype(int)
    ink = corner[corner.sum(1) < 450]
    assert len(ink) and ink[:, 2].mean() > ink[:, 0].mean() + 60
