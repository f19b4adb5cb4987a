"""Sightings computed straight from a state and the layout geometry, with no image.

Used to test the reading step apart from the detector, and to measure it:
every visible corner index of every card is projected through a camera
homography, as the detector would report it on a perfect day.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from advisor.engine import CARD_ASPECT, State, get_game

from .reading import INDEX_CENTRE, INDEX_HEIGHT, OPPOSITE, _apply


@dataclass
class FakeSighting:
    label: str
    box: tuple[float, float, float, float]
    conf: float = 0.95


def camera(rng: random.Random, width: int = 1920, height: int = 1080, extent=(10.0, 10.0), tilt: float = 0.25,
           rotation: float = 8.0) -> np.ndarray:
    """A homography from table (card widths) to pixels: the layout fills most of the frame, seen at an angle.

    ``tilt``: the far edge looks up to this share narrower; ``rotation``: up to this many degrees either way.
    """
    import cv2
    ex, ey = extent
    src = np.float32([[0, 0], [ex, 0], [ex, ey], [0, ey]])
    margin = 0.08
    w, h = width * (1 - 2 * margin), height * (1 - 2 * margin)
    s = min(w / ex, h / ey)
    cx, cy = width / 2, height / 2
    far = 1 - tilt * rng.random()          # the far edge looks narrower
    rot = math.radians(rng.uniform(-rotation, rotation))
    pts = []
    for x, y in src:
        px, py = (x - ex / 2) * s, (y - ey / 2) * s
        if y == 0:
            px *= far
        qx = px * math.cos(rot) - py * math.sin(rot)
        qy = px * math.sin(rot) + py * math.cos(rot)
        pts.append([cx + qx, cy + qy])
    return cv2.getPerspectiveTransform(src, np.float32(pts))


def extent(state: State) -> tuple[float, float]:
    layout = get_game(state.game).layout(state.options)
    xs, ys = [0.0], [0.0]
    for a in layout.areas:
        if not a.on_table:
            continue
        for i, p in enumerate(state.areas[a.name]):
            for j in range(max(1, len(p))):
                x, y = a.position(i, j)
                xs.append(x + 1)
                ys.append(y + CARD_ASPECT)
    return max(xs), max(ys)


def sightings_for(state: State, H: np.ndarray, rng: random.Random | None = None, jitter: float = 0.0,
                  index_height: float = INDEX_HEIGHT, index_centre=INDEX_CENTRE, opposite=OPPOSITE,
                  four_corners: bool = False, hand: dict | None = None, card_shift: float = 0.0,
                  card_turn: float = 0.0) -> list[FakeSighting]:
    """The corner indices a perfect detector reports; the other arguments describe the deck
    (by default the proportions the reader assumes; a deck of tall cards with small indices differs).

    ``hand``: piles put down by hand, off the grid: (area, pile) -> (dx, dy, turn), the pile moved by
    (dx, dy) card widths and its fan's line turned by ``turn`` radians about its first card.

    ``card_shift``: each card put down a little off its place by hand, N(0, card_shift) card widths each way;
    unlike ``jitter`` (each index's own noise) it moves all of a card's indices together. ``card_turn``: each
    card turned N(0, card_turn) degrees about its middle.

    ``four_corners``: a deck with an index in all four corners. A card covered by the next one of
    a column fanned downwards then shows its top-right index too (only columns: other fans here
    are rows, whose next card covers that corner), and the exposed card all four.
    """
    rng = rng or random.Random(0)
    layout = get_game(state.game).layout(state.options)
    out = []
    half = np.array([0.1, index_height / 2])
    for a in layout.areas:
        if not a.on_table or a.kind == "facedown":
            continue
        for i, p in enumerate(state.areas[a.name]):
            squared = a.fan == (0.0, 0.0)
            for j, s in enumerate(p):
                if not s.face_up or s.card is None:
                    continue
                top = j == len(p) - 1
                if squared and not top:
                    continue
                corner = np.array(a.position(i, 0 if squared else j))
                if hand and (a.name, i) in hand:
                    dx, dy, turn = hand[(a.name, i)]
                    first = np.array(a.position(i, 0))
                    c_, s_ = np.cos(turn), np.sin(turn)
                    rel = corner - first
                    corner = first + np.array([c_ * rel[0] - s_ * rel[1], s_ * rel[0] + c_ * rel[1]]) + np.array([dx, dy])
                if card_shift:
                    corner = corner + np.array([rng.gauss(0, card_shift), rng.gauss(0, card_shift)])
                offsets = [index_centre]
                downwards = a.fan[0] == 0.0 and a.fan[1] > 0.0
                if four_corners and (top or downwards):
                    offsets.append(index_centre + np.array([opposite[0], 0.0]))
                if top:
                    offsets.append(index_centre + opposite)
                    if four_corners:
                        offsets.append(index_centre + np.array([0.0, opposite[1]]))
                if card_turn:
                    # the card turned about its middle: its indices move each their own way
                    t = math.radians(rng.gauss(0, card_turn))
                    mid = np.array([0.5, CARD_ASPECT / 2])
                    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
                    offsets = [mid + rot @ (o - mid) for o in offsets]
                centres = [corner + o for o in offsets]
                for c in centres:
                    c = c + np.array([rng.gauss(0, jitter), rng.gauss(0, jitter)])
                    quad = _apply(H, np.array([c - half, c + half, [c[0] - half[0], c[1] + half[1]], [c[0] + half[0], c[1] - half[1]]]))
                    x1, y1 = quad.min(axis=0)
                    x2, y2 = quad.max(axis=0)
                    out.append(FakeSighting(s.card.label, (float(x1), float(y1), float(x2), float(y2))))
    return out
