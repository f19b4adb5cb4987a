"""The pip judge: a number card's big pips tell the two suits of a colour apart."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="vision extra (opencv) is required", exc_type=ImportError)

from vision.decks import install_packages  # noqa: E402
from vision.font_decks import draw_deck, font_files  # noqa: E402
from vision.pips import (COLOUR, PIP_MODEL, PX, YES, PipJudge, features, pip_log_odds,  # noqa: E402
                         synthetic_pips)


@pytest.fixture(scope="module", autouse=True)
def font_packages():
    install_packages()


@pytest.fixture(scope="module")
def judge():
    j = PipJudge.load()
    assert j is not None, f"the pip judge ships in the repository: {PIP_MODEL}"
    return j


def _view(card: np.ndarray) -> np.ndarray:
    """A drawn card (BGRA) as the reader sees it: square on, PX pixels a card width, on its paper."""
    h, w = card.shape[:2]
    small = cv2.resize(card, (PX, int(round(h * PX / w))), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = small[..., 3:] / 255.0
    return (small[..., :3] * alpha + 245 * (1 - alpha)).astype(np.uint8)


def test_the_shipped_judge_names_fresh_drawn_pips_of_each_colour(judge):
    # drawn with another seed than the judge was fitted on: new proportions, sizes and blur
    for colour, floor in (("black", 0.85), ("red", 0.95)):
        X, Y = synthetic_pips(600, colour, seed=12345)
        w = judge.weights[colour]
        h = np.maximum(X @ w["0_weight"].T + w["0_bias"], 0)
        said = (h @ w["2_weight"].T + w["2_bias"])[:, 0] > 0
        assert (said == (Y > 0.5)).mean() >= floor, colour


def test_the_top_pips_of_a_drawn_card_show_its_suit_while_the_lower_half_is_covered(judge):
    # A card in a fan shows its top only: the next card covers the rest. The drawn decks print every
    # pip upright, so covering the lower half also keeps upside-down reading out of the test.
    font = next(f for f in font_files() if f.name == "LiberationSerif-Regular.ttf")
    deck = draw_deck(font, seed=5, drawn_suits=True)
    for label in ("7c", "7s", "9d", "4h", "8c", "6s"):
        view = _view(deck[label])
        hidden = np.zeros(view.shape[:2], bool)
        hidden[int(0.45 * view.shape[0]):] = True
        odds = pip_log_odds(view, hidden, COLOUR[label[-1]], judge)
        assert odds, label
        says_yes = sum(odds) > 0
        assert says_yes == (label[-1] == YES[COLOUR[label[-1]]]), (label, odds)


def test_a_pip_cut_from_above_or_the_side_is_not_judged(judge):
    font = next(f for f in font_files() if f.name == "LiberationSans-Regular.ttf")
    view = _view(draw_deck(font, seed=2, drawn_suits=True)["4c"])
    everything = np.ones(view.shape[:2], bool)
    assert pip_log_odds(view, everything, "black", judge) == []
    # a card lying over the middle column from the right cuts the pips there from the side
    hidden = np.zeros(view.shape[:2], bool)
    hidden[:, PX // 2:] = True
    side = pip_log_odds(view, hidden, "black", judge)
    whole = pip_log_odds(view, np.zeros_like(hidden), "black", judge)
    assert len(side) < len(whole)


def test_features_are_the_inks_shape_at_a_fixed_size_and_its_proportions():
    ink = np.zeros((20, 10), np.float32)
    ink[5:15, 2:8] = 1.0
    f = features(ink)
    assert f.shape == (16 * 16 + 2,)
    assert f[-2] == pytest.approx(0.5) and f[-1] == 1.0
    assert 0.0 <= f[:-2].min() and f[:-2].max() <= 1.0


@pytest.mark.parametrize("font_name", ["LiberationSerif-Regular.ttf", "LiberationSans-Regular.ttf", "DejaVuSans.ttf"])
def test_the_loop_of_an_upright_six_is_low_and_of_a_nine_high_and_an_eight_has_no_one_loop(font_name):
    # The reader cuts a card's top-left index upright (the layout says which way up the card lies):
    # a 6 is a 9 turned half round, so only where the loop lies tells them apart.
    import cv2
    from vision.reading import rank_loop
    font = next(f for f in font_files() if f.name == font_name)
    deck = draw_deck(font, seed=1)

    def index_view(label):
        card = deck[label].astype(np.float32)
        if card.shape[2] == 4:       # drawn with transparency: lay it on white paper
            alpha = card[..., 3:] / 255.0
            card = card[..., :3] * alpha + 255.0 * (1 - alpha)
        card = card.astype(np.uint8)
        w = card.shape[1]
        # the reader's window: 0.34 x 0.50 card widths around the index centre, 300 px a card width
        from vision.reading import INDEX_CENTRE
        pad = cv2.copyMakeBorder(card, w, w, w, w, cv2.BORDER_CONSTANT, value=(90, 60, 40))   # the table around it
        cx, cy = (INDEX_CENTRE * w + w).astype(int)
        corner = pad[cy - int(0.25 * w): cy + int(0.25 * w), cx - int(0.17 * w): cx + int(0.17 * w)]
        return cv2.resize(corner, (102, 150), interpolation=cv2.INTER_AREA)
    for suit in "hs":
        six, nine = rank_loop(index_view("6" + suit), suit == "h"), rank_loop(index_view("9" + suit), suit == "h")
        assert six is not None and six > 0.55, (font_name, suit, six)
        assert nine is not None and nine < 0.45, (font_name, suit, nine)
        # turned half round, the six reads as a nine would
        turned = rank_loop(np.ascontiguousarray(index_view("6" + suit)[::-1, ::-1]), suit == "h")
        assert turned is None or turned < 0.45
    assert rank_loop(index_view("8s"), False) is None
