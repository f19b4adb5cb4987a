"""Synthetic patience scenes with exact corner-index labels.

Reusable API (issue 6 builds on it)::

    deck = Deck.load("data/decks/kde-standard")
    cam = Camera.random(rng, size=(640, 640), center=(3.0, 2.5), card_px=110)
    placements = [Placement("10h", x=1.0, y=1.0, angle=0.0), ...]
    scene = render_scene(placements, deck, cam, rng)
    scene.image          # HxWx3 uint8 BGR
    scene.cards          # per placement: CardInstance(label, quad 4x2 in px, visible fraction)
    scene.index_boxes    # IndexBox(label, xyxy in px, visible fraction, card number, corner)
    scene.labelled()     # only boxes visible enough to be labelled (>= VISIBLE_MIN)

Table coordinates are in card widths: a card is 1 wide and ``deck.aspect`` tall;
``Placement.x, y`` is the card centre on the table, ``angle`` in degrees.
The camera is a homography from the table plane to image pixels.

A corner index is labelled when at least ``VISIBLE_MIN`` (60 %) of its box is
visible: occlusion is computed from an id map of which card (or clutter) is on
top at every pixel, rendered with the same warps as the image.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .decks import LABELS

VISIBLE_MIN = 0.6
CLUTTER_ID = -2
BACKGROUND_ID = -1


# ---------------------------------------------------------------- deck assets
def find_index_box(card_rgba: np.ndarray) -> tuple[int, int, int, int] | None:
    """Box (x0, y0, x1, y1) of the top-left corner index (rank + suit) of a card image.

    Ink = pixels that differ clearly from the card's paper colour.  The rank is
    the top-most character-shaped ink blob near the left edge; blobs level with
    it on either side join it (the "1" and "0" of "10").  The suit pip is the
    nearest blob below that lines up with the rank, within a gap scaled by the
    rank's height (some decks leave a wide gap between the two).  Thin lines
    (court-card frames, borders) never seed or join the box.
    """
    h, w = card_rgba.shape[:2]
    rgb = card_rgba[:, :, :3].astype(np.int16)
    alpha = card_rgba[:, :, 3] if card_rgba.shape[2] == 4 else np.full((h, w), 255, np.uint8)
    rh, rw = int(0.45 * h), int(0.3 * w)
    region = rgb[:rh, :rw]
    # paper colour: median of the region's pixels in a band just inside the margin
    m = max(2, int(0.035 * w))
    paper = np.median(rgb[m:m + 4, int(0.3 * w):int(0.7 * w)].reshape(-1, 3), axis=0)
    diff = np.abs(region - paper).max(axis=2)
    ink = (diff > 60) & (alpha[:rh, :rw] > 200)
    ink[:m, :] = False
    ink[:, :m] = False
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)

    def is_line(b) -> bool:
        long, short = max(b[2], b[3]), min(b[2], b[3])
        # a sans-serif "1" can be 10x taller than wide; frame lines are thinner still
        return long > 0.3 * h or b[2] > 0.25 * w or (long >= 0.06 * h and long > 12 * short)

    blobs = [tuple(int(v) for v in stats[i, :4]) for i in range(1, n)
             if stats[i, 4] >= max(4, 0.00005 * h * w)]
    blobs = [b for b in blobs if not is_line(b)]
    cands = [b for b in blobs if b[0] < 0.17 * w and b[3] >= 0.025 * h]
    if not cands:
        return None
    seed = min(cands, key=lambda b: b[1])
    x0, y0, x1, y1 = seed[0], seed[1], seed[0] + seed[2], seed[1] + seed[3]
    used = {seed}

    def grow(accept) -> bool:
        nonlocal x0, y0, x1, y1
        grown = False
        for b in sorted(blobs, key=lambda b: b[1]):
            if b in used:
                continue
            bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
            if not accept(bx0, by0, bx1, by1):
                continue
            nx0, ny0, nx1, ny1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
            if ny1 - ny0 > 0.42 * h or nx1 - nx0 > 0.24 * w:
                continue
            x0, y0, x1, y1 = nx0, ny0, nx1, ny1
            used.add(b)
            grown = True
        return grown

    def overlap_x(bx0, bx1):
        return min(x1, bx1) - max(x0, bx0)

    def overlap_y(by0, by1):
        return min(y1, by1) - max(y0, by0)

    # the rank: characters level with the seed, on either side, close by
    gap_x = 0.035 * w
    while grow(lambda bx0, by0, bx1, by1: overlap_y(by0, by1) > 0.5 * min(y1 - y0, by1 - by0)
               and (0 <= bx0 - x1 <= gap_x or 0 <= x0 - bx1 <= gap_x)):
        pass
    rank_h = y1 - y0
    # the suit: the nearest blob below that lines up with the rank
    gap_y = max(0.035 * h, 0.7 * rank_h)
    below = [b for b in blobs if b not in used
             and overlap_x(b[0], b[0] + b[2]) > 0.3 * min(x1 - x0, b[2])
             and 0 <= b[1] - y1 <= gap_y and b[2] * b[3] >= 0.1 * (x1 - x0) * rank_h
             # a corner pip is no bigger than the rank; the card's big pips are
             and b[2] <= 1.6 * max(x1 - x0, 0.5 * rank_h) and b[3] <= 1.5 * rank_h]
    if below:
        suit = min(below, key=lambda b: b[1])
        grow(lambda bx0, by0, bx1, by1: (bx0, by0, bx1 - bx0, by1 - by0) == suit)
    # pieces of either (split pips, serifs) that overlap the box or touch it
    while grow(lambda bx0, by0, bx1, by1: overlap_x(bx0, bx1) > 0 and overlap_y(by0, by1) > 0):
        pass
    if (y1 - y0) < 0.06 * h:
        return None
    pad = max(1, int(0.006 * w))
    return (max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad))


def _fits(box, template) -> bool:
    """Same top, bottom and left edge as the template, within a quarter of its size.

    The width is left free (a "10" is wider than a "J"); the height is not,
    because a box that stops short of the template found the rank but lost the suit.
    """
    tw, th = template[2] - template[0], template[3] - template[1]
    w = box[2] - box[0]
    return (abs(box[1] - template[1]) <= 0.25 * th and abs(box[3] - template[3]) <= 0.25 * th
            and abs(box[0] - template[0]) <= 0.5 * tw and 0.4 * tw <= w <= 1.8 * tw)


def consistent_index_boxes(found: dict[str, tuple[int, int, int, int] | None]
                           ) -> dict[str, tuple[int, int, int, int]]:
    """Check each card's index box against the rest of its deck.

    A deck prints its indices in one place, and pip cards (A-10) have no
    pictures or frames that the finder can mistake for a rank.  So the median
    pip-card box of each suit is that suit's template, and a card whose box
    does not line up with the template (a court card whose frame or picture touches
    its index, a missed suit pip) takes the template instead.  Without any
    pip-card box there is nothing to check against, and the boxes are kept.
    """
    pips = {l: b for l, b in found.items() if b is not None and l[:-1] not in ("J", "Q", "K")}
    if not pips:
        return {l: tuple(int(v) for v in b) for l, b in found.items() if b is not None}
    deck_template = np.median(np.array(list(pips.values())), axis=0)
    out: dict[str, tuple[int, int, int, int]] = {}
    for label in LABELS:
        same_suit = [b for l, b in pips.items() if l[-1] == label[-1]]
        template = np.median(np.array(same_suit), axis=0) if len(same_suit) >= 3 else deck_template
        if not _fits(template, deck_template):  # most of this suit's boxes lost their pip
            template = deck_template
        template = tuple(int(round(v)) for v in template)
        b = found.get(label)
        out[label] = tuple(int(v) for v in b) if b is not None and _fits(b, template) else template
    return out


@dataclass
class Deck:
    """Rendered card images of one deck and the top-left index box of each card."""

    name: str
    images: dict[str, np.ndarray]  # label -> RGBA (premultiplied no), all the same size
    index_boxes: dict[str, tuple[int, int, int, int]]

    @property
    def size(self) -> tuple[int, int]:
        h, w = next(iter(self.images.values())).shape[:2]
        return w, h

    @property
    def aspect(self) -> float:
        w, h = self.size
        return h / w

    @classmethod
    def load(cls, folder: str | Path) -> "Deck":
        folder = Path(folder)
        images: dict[str, np.ndarray] = {}
        size = None
        for label in LABELS:
            im = cv2.imread(str(folder / f"{label}.png"), cv2.IMREAD_UNCHANGED)
            if im is None:
                raise FileNotFoundError(folder / f"{label}.png")
            if im.ndim == 2:
                im = cv2.cvtColor(im, cv2.COLOR_GRAY2BGRA)
            if im.shape[2] == 3:
                im = cv2.cvtColor(im, cv2.COLOR_BGR2BGRA)
            if size is None:
                size = (im.shape[1], im.shape[0])
            elif (im.shape[1], im.shape[0]) != size:
                im = cv2.resize(im, size, interpolation=cv2.INTER_AREA)
            images[label] = im
        # v2: the finder and the deck-level check below changed in session 6, so
        # boxes cached by the older finder are not reused.
        cache = folder / "index_boxes.v2.json"
        if cache.is_file():
            boxes = {k: tuple(v) for k, v in json.loads(cache.read_text()).items()}
            if len(boxes) == 52:
                return cls(folder.name, images, boxes)
        found = {label: find_index_box(im) for label, im in images.items()}
        boxes = consistent_index_boxes(found)
        if len(boxes) == 52:
            try:
                cache.write_text(json.dumps({k: [int(x) for x in v] for k, v in boxes.items()}))
            except OSError:
                pass
        return cls(folder.name, images, boxes)


# ---------------------------------------------------------------- scene model
@dataclass
class Placement:
    """One card on the table. ``x, y``: centre in card widths; ``angle`` in degrees."""

    label: str
    x: float
    y: float
    angle: float = 0.0
    copy: int = 0  # which pack (0 or 1) in two-pack games
    face_up: bool = True


@dataclass
class Camera:
    """Homography from table coordinates (card widths) to image pixels."""

    H: np.ndarray
    size: tuple[int, int]  # (width, height) of the image

    @classmethod
    def random(cls, rng: np.random.Generator, size=(640, 640), center=(0.0, 0.0), card_px=110.0,
               tilt_deg: tuple[float, float] = (30.0, 90.0), jitter=0.35) -> "Camera":
        """A camera looking at the table from ``tilt`` degrees (90 = straight down).

        ``card_px``: width of a card near the image centre in pixels.
        """
        W, Hh = size
        tilt = math.radians(rng.uniform(*tilt_deg))
        rot = rng.uniform(-180, 180)
        # foreshortening: vertical compression sin(tilt), top/bottom width ratio
        v = max(0.45, math.sin(tilt))
        k = (1 - v) * rng.uniform(0.3, 0.9)  # perspective strength
        S = 4.0  # table square used to define the mapping (card widths)
        src = np.float32([[-S, -S], [S, -S], [S, S], [-S, S]])
        half = S * card_px
        top, bot = half * (1 - k), half * (1 + k * 0.5)
        dst = np.float32([[-top, -half * v], [top, -half * v], [bot, half * v], [-bot, half * v]])
        c, s = math.cos(math.radians(rot)), math.sin(math.radians(rot))
        R = np.float32([[c, -s], [s, c]])
        # rotate the table first, then project
        src_r = (src @ R.T)
        P = cv2.getPerspectiveTransform(src_r.astype(np.float32), dst)
        T0 = np.array([[1, 0, -center[0]], [0, 1, -center[1]], [0, 0, 1]], float)
        off = rng.uniform(-jitter, jitter, 2) * np.array([W, Hh])
        T1 = np.array([[1, 0, W / 2 + off[0]], [0, 1, Hh / 2 + off[1]], [0, 0, 1]], float)
        return cls(T1 @ P @ T0, (W, Hh))

    @classmethod
    def top_down(cls, size=(640, 640), center=(0.0, 0.0), card_px=110.0) -> "Camera":
        W, Hh = size
        H = np.array([[card_px, 0, W / 2 - card_px * center[0]],
                      [0, card_px, Hh / 2 - card_px * center[1]], [0, 0, 1]], float)
        return cls(H, (W, Hh))


@dataclass
class CardInstance:
    label: str
    quad: np.ndarray  # 4x2 image px: TL, TR, BR, BL of the card
    visible: float  # visible fraction of the card area
    face_up: bool = True


@dataclass
class IndexBox:
    label: str
    xyxy: tuple[float, float, float, float]
    quad: np.ndarray  # 4x2 image px
    visible: float
    card: int  # index into SceneImage.cards
    corner: str  # 'tl', 'br', 'tr', 'bl'


@dataclass
class SceneImage:
    image: np.ndarray
    cards: list[CardInstance] = field(default_factory=list)
    index_boxes: list[IndexBox] = field(default_factory=list)

    def labelled(self, min_visible: float = VISIBLE_MIN) -> list[IndexBox]:
        return [b for b in self.index_boxes if b.visible >= min_visible]

    def yolo_lines(self, min_visible: float = VISIBLE_MIN) -> list[str]:
        h, w = self.image.shape[:2]
        out = []
        for b in self.labelled(min_visible):
            x0, y0, x1, y1 = b.xyxy
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            if x1 - x0 < 2 or y1 - y0 < 2:
                continue
            out.append(f"{LABELS.index(b.label)} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
                       f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
        return out


def _card_affine(p: Placement, deck: Deck) -> np.ndarray:
    """3x3 matrix from card-image pixels to table coordinates."""
    w, h = deck.size
    sc = 1.0 / w
    a = math.radians(p.angle)
    c, s = math.cos(a), math.sin(a)
    A = np.array([[sc, 0, -0.5], [0, sc, -0.5 * h / w], [0, 0, 1]], float)
    R = np.array([[c, -s, p.x], [s, c, p.y], [0, 0, 1]], float)
    return R @ A


def _project(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, float)
    ph = np.hstack([pts, np.ones((len(pts), 1))]) @ H.T
    return ph[:, :2] / ph[:, 2:3]


def make_back(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A procedural card back (RGBA)."""
    w, h = size
    im = np.zeros((h, w, 4), np.uint8)
    im[..., 3] = 255
    im[..., :3] = 245
    col = rng.integers(20, 200, 3)
    b = int(0.06 * w)
    inner = np.zeros((h - 2 * b, w - 2 * b, 3), np.uint8)
    inner[:] = col
    step = int(rng.integers(6, 20))
    col2 = np.clip(col + rng.integers(-80, 80, 3), 0, 255)
    for i in range(-h, w, step):
        cv2.line(inner, (i, 0), (i + h, h), tuple(int(c) for c in col2), max(1, step // 4))
    im[b:h - b, b:w - b, :3] = inner
    return im


def _index_quads(deck: Deck, label: str, four_corners: bool) -> list[tuple[str, np.ndarray]]:
    w, h = deck.size
    x0, y0, x1, y1 = deck.index_boxes[label]
    tl = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
    br = np.array([w, h]) - tl
    out = [("tl", tl), ("br", br)]
    if four_corners:
        tr = tl.copy()
        tr[:, 0] = w - tl[:, 0]
        bl = np.array([w, h]) - tr
        out += [("tr", tr), ("bl", bl)]
    return out


def four_corner_image(deck: Deck, label: str) -> np.ndarray:
    """Card image with the index copied to the other two corners (4-index decks)."""
    im = deck.images[label].copy()
    w, h = deck.size
    x0, y0, x1, y1 = deck.index_boxes[label]
    patch = im[y0:y1, x0:x1].copy()
    # top right: same orientation, mirrored position
    im[y0:y1, w - x1:w - x0] = patch
    # bottom left: rotated 180
    im[h - y1:h - y0, x0:x1] = patch[::-1, ::-1]
    return im


def render_scene(placements: list[Placement], deck: Deck | dict[int, Deck], camera: Camera,
                 rng: np.random.Generator, background: np.ndarray | None = None,
                 four_corners: bool = False, clutter: int = 0, back: np.ndarray | None = None,
                 photometric: bool = True) -> SceneImage:
    """Render placed cards (in order, later on top) onto a table seen by ``camera``.

    ``deck`` may be a dict ``{copy: Deck}`` for two-pack games with different decks.
    Returns the image and, for every card, its quad and for every corner index
    its box and visible fraction.  ``photometric`` adds light, shadow, glare,
    blur, noise (JPEG is left to the caller).
    """
    W, Hh = camera.size
    decks = deck if isinstance(deck, dict) else {0: deck, 1: deck}
    if background is None:
        background = make_background((W, Hh), rng)
    img = background.astype(np.float32).copy()
    ids = np.full((Hh, W), BACKGROUND_ID, np.int32)
    cards: list[CardInstance] = []
    quads: list[tuple[int, str, str, np.ndarray]] = []
    for i, p in enumerate(placements):
        dk = decks.get(p.copy, decks[0])
        w, h = dk.size
        M = camera.H @ _card_affine(p, dk)
        corners = _project(M, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
        cards.append(CardInstance(p.label, corners, 0.0, p.face_up))
        if p.face_up:
            src = four_corner_image(dk, p.label) if four_corners else dk.images[p.label]
        else:
            src = back if back is not None else make_back((w, h), rng)
            if src.shape[:2] != (h, w):
                src = cv2.resize(src, (w, h))
        # warp only over the card's bounding box (speed)
        bx0, by0 = np.floor(corners.min(0)).astype(int)
        bx1, by1 = np.ceil(corners.max(0)).astype(int)
        bx0, by0, bx1, by1 = max(bx0, 0), max(by0, 0), min(bx1, W), min(by1, Hh)
        if bx1 <= bx0 or by1 <= by0:
            continue
        T = np.array([[1, 0, -bx0], [0, 1, -by0], [0, 0, 1]], float)
        # downscale the source first when it is much bigger than its footprint (anti-aliasing)
        scale = max(np.linalg.norm(corners[1] - corners[0]) / w, 1e-3)
        srcim = src
        S = np.eye(3)
        if scale < 0.5:
            f = min(1.0, scale * 2)
            srcim = cv2.resize(src, (max(2, int(w * f)), max(2, int(h * f))), interpolation=cv2.INTER_AREA)
            S = np.diag([w / srcim.shape[1], h / srcim.shape[0], 1.0])
        warped = cv2.warpPerspective(srcim, T @ M @ S, (bx1 - bx0, by1 - by0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        a = warped[..., 3:4].astype(np.float32) / 255.0
        sub = img[by0:by1, bx0:bx1]
        # soft drop shadow under the card
        if photometric:
            sh = cv2.GaussianBlur(a, (0, 0), 2.0 + 3 * rng.random())
            if sh.ndim == 2:
                sh = sh[..., None]
            dx, dy = 2, 3
            shs = np.zeros_like(sh)
            shs[dy:, dx:] = sh[:-dy or None, :-dx or None] if sh.shape[0] > dy and sh.shape[1] > dx else 0
            sub *= 1 - 0.35 * shs * (1 - a)
        sub[:] = sub * (1 - a) + warped[..., :3].astype(np.float32) * a
        ids[by0:by1, bx0:bx1][a[..., 0] > 0.5] = i
        if p.face_up:
            for corner, q in _index_quads(dk, p.label, four_corners):
                quads.append((i, p.label, corner, _project(M, q)))
    # clutter on top (coins, pens, phone) occludes some indices
    for _ in range(clutter):
        _draw_clutter(img, ids, rng)
    # visibility
    for i, c in enumerate(cards):
        area = _poly_area(c.quad)
        if area < 1:
            continue
        x0, y0 = np.floor(c.quad.min(0)).astype(int)
        x1, y1 = np.ceil(c.quad.max(0)).astype(int)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, Hh)
        if x1 <= x0 or y1 <= y0:
            continue
        c.visible = float((ids[y0:y1, x0:x1] == i).sum()) / area
    boxes = []
    for i, label, corner, q in quads:
        x0, y0 = q.min(0)
        x1, y1 = q.max(0)
        area = _poly_area(q)
        if area < 1:
            continue
        ix0, iy0 = int(max(0, math.floor(x0))), int(max(0, math.floor(y0)))
        ix1, iy1 = int(min(W, math.ceil(x1))), int(min(Hh, math.ceil(y1)))
        if ix1 <= ix0 or iy1 <= iy0:
            vis = 0.0
        else:
            m = np.zeros((iy1 - iy0, ix1 - ix0), np.uint8)
            cv2.fillConvexPoly(m, np.round(q - [ix0, iy0]).astype(np.int32), 1)
            full = max(1.0, float(m.sum()) * area / max(1.0, _clipped_area(q, W, Hh)))
            vis = float(((ids[iy0:iy1, ix0:ix1] == i) & (m > 0)).sum()) / full
        boxes.append(IndexBox(label, (float(x0), float(y0), float(x1), float(y1)), q, min(1.0, vis), i, corner))
    if photometric:
        img = _photometric(img, rng)
    return SceneImage(np.clip(img, 0, 255).astype(np.uint8), cards, boxes)


def _poly_area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def _clipped_area(q: np.ndarray, W: int, H: int) -> float:
    ok, inter = cv2.intersectConvexConvex(q.astype(np.float32),
                                          np.float32([[0, 0], [W, 0], [W, H], [0, H]]))
    return float(ok) if ok > 0 else 1e-6


def _draw_clutter(img: np.ndarray, ids: np.ndarray, rng: np.random.Generator) -> None:
    H, W = ids.shape
    m = np.zeros((H, W), np.uint8)
    kind = rng.integers(3)
    cx, cy = int(rng.uniform(0, W)), int(rng.uniform(0, H))
    if kind == 0:  # coin / cup
        cv2.circle(m, (cx, cy), int(rng.uniform(0.02, 0.08) * W), 1, -1)
    elif kind == 1:  # pen
        a = rng.uniform(0, math.pi)
        L = rng.uniform(0.1, 0.4) * W
        cv2.line(m, (cx, cy), (int(cx + L * math.cos(a)), int(cy + L * math.sin(a))), 1,
                 int(rng.uniform(0.006, 0.02) * W))
    else:  # phone / box
        rect = ((cx, cy), (rng.uniform(0.05, 0.2) * W, rng.uniform(0.05, 0.3) * H), rng.uniform(0, 180))
        cv2.fillConvexPoly(m, np.round(cv2.boxPoints(rect)).astype(np.int32), 1)
    col = rng.integers(0, 255, 3).astype(np.float32)
    sel = m > 0
    shade = 0.7 + 0.3 * rng.random()
    img[sel] = col * shade
    ids[sel] = CLUTTER_ID


# ---------------------------------------------------------------- backgrounds
def make_background(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Procedural table: wood, felt, cloth or paper (BGR float32 0..255)."""
    W, H = size
    kind = rng.choice(["wood", "felt", "cloth", "paper", "wood"])
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    base = rng.uniform(40, 220, 3).astype(np.float32)
    if kind == "wood":
        base = np.array([rng.uniform(60, 150), rng.uniform(100, 180), rng.uniform(150, 230)], np.float32)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        noise = cv2.resize(rng.standard_normal((8, 8)).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
        f = rng.uniform(0.02, 0.12)
        grain = np.sin(u * f + noise * rng.uniform(2, 8) + np.sin(v * 0.01) * 2)
        t = (0.85 + 0.15 * grain)[..., None]
        img = base * t
        # planks
        if rng.random() < 0.5:
            pw = rng.uniform(80, 250)
            seams = (np.abs(((v % pw) - pw / 2)) > pw / 2 - 1.5)[..., None]
            img = np.where(seams, img * 0.6, img)
    elif kind == "felt":
        img = np.broadcast_to(base, (H, W, 3)).copy()
    elif kind == "cloth":
        img = np.broadcast_to(base, (H, W, 3)).copy()
        p = rng.uniform(8, 60)
        col2 = rng.uniform(40, 220, 3).astype(np.float32)
        s1 = ((xx % p) < p * rng.uniform(0.2, 0.5))[..., None]
        s2 = ((yy % p) < p * rng.uniform(0.2, 0.5))[..., None]
        img = np.where(s1 | s2, img * 0.5 + col2 * 0.5, img)
    else:  # paper
        img = np.broadcast_to(rng.uniform(180, 245) * np.array([1, 1, rng.uniform(0.95, 1.05)], np.float32),
                              (H, W, 3)).copy()
    img = img + rng.normal(0, rng.uniform(2, 10), (H, W, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.float32)


def _photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    H, W = img.shape[:2]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    # uneven light: linear gradient + vignette
    a = rng.uniform(0, 2 * math.pi)
    g = ((xx - W / 2) * math.cos(a) + (yy - H / 2) * math.sin(a)) / max(W, H)
    light = 1 + rng.uniform(0, 0.5) * g
    if rng.random() < 0.5:
        r2 = ((xx - W / 2) ** 2 + (yy - H / 2) ** 2) / (max(W, H) ** 2)
        light *= 1 - rng.uniform(0, 0.6) * r2
    img = img * light[..., None]
    # colour cast / brightness / contrast
    img = img * rng.uniform(0.8, 1.15, 3).astype(np.float32) * rng.uniform(0.6, 1.2)
    c = rng.uniform(0.6, 1.1)
    img = (img - 128) * c + 128
    # shadow (hand, phone)
    if rng.random() < 0.4:
        m = np.zeros((H, W), np.float32)
        pts = (rng.uniform(0, 1, (5, 2)) * [W, H]).astype(np.int32)
        cv2.fillConvexPoly(m, cv2.convexHull(pts), 1.0)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(5, 30))
        img = img * (1 - rng.uniform(0.2, 0.5) * m)[..., None]
    # glare
    if rng.random() < 0.3:
        m = np.zeros((H, W), np.float32)
        cv2.ellipse(m, (int(rng.uniform(0, W)), int(rng.uniform(0, H))),
                    (int(rng.uniform(20, 150)), int(rng.uniform(10, 80))), rng.uniform(0, 180), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(8, 30))
        img = img + rng.uniform(60, 160) * m[..., None]
    img = np.clip(img, 0, 255)
    # blur: defocus / motion
    r = rng.random()
    if r < 0.55:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0))
    elif r < 0.7:
        k = int(rng.integers(3, 9))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        M = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        ker = cv2.warpAffine(ker, M, (k, k))
        ker /= max(ker.sum(), 1e-6)
        img = cv2.filter2D(img, -1, ker)
    img = img + rng.normal(0, rng.uniform(1, 8), img.shape).astype(np.float32)
    return img


def jpeg(img: np.ndarray, rng: np.random.Generator, lo: int = 35, hi: int = 95) -> np.ndarray:
    q = int(rng.integers(lo, hi))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


# ---------------------------------------------------------------- layouts
def random_layout(rng: np.random.Generator, aspect: float, two_packs: bool | None = None,
                  kind: str | None = None) -> list[Placement]:
    """A patience-like layout: fanned columns, rows, squared piles, hand fans, scattered cards.

    ``kind`` (tableau, rows, scatter, mixed, hands) fixes the sort; by default it is drawn."""
    if two_packs is None:
        two_packs = rng.random() < 0.3
    pool = [(l, 0) for l in LABELS] + ([(l, 1) for l in LABELS] if two_packs else [])
    order = rng.permutation(len(pool))
    it = iter([pool[k] for k in order])
    out: list[Placement] = []

    def nxt():
        try:
            return next(it)
        except StopIteration:
            return None

    kind = kind or rng.choice(["tableau", "tableau", "tableau", "rows", "scatter", "mixed", "hands"])
    jit = lambda s: rng.normal(0, s)  # noqa: E731
    if kind in ("tableau", "mixed"):
        ncol = int(rng.integers(2, 9))
        sp = rng.uniform(1.05, 1.5)
        fan = rng.uniform(0.16, 0.38) * aspect
        for c in range(ncol):
            nd = int(rng.integers(0, 6)) if rng.random() < 0.5 else 0
            nu = int(rng.integers(1, 14))
            for k in range(nd + nu):
                card = nxt()
                if card is None:
                    break
                out.append(Placement(card[0], c * sp + jit(0.02), k * fan + jit(0.01), jit(1.5), card[1],
                                     face_up=k >= nd))
        if kind == "mixed":
            # foundations row above, squared piles
            for f in range(int(rng.integers(1, 5))):
                for _ in range(int(rng.integers(1, 4))):
                    card = nxt()
                    if card is None:
                        break
                    out.append(Placement(card[0], f * sp + jit(0.02), -1.3 * aspect + jit(0.02), jit(2), card[1]))
    elif kind == "rows":
        nrow = int(rng.integers(1, 5))
        # down to 0.1 card widths: in a tight row only a sliver of each index shows
        fan = rng.uniform(0.1, 1.2)
        for r in range(nrow):
            for k in range(int(rng.integers(2, 14))):
                card = nxt()
                if card is None:
                    break
                out.append(Placement(card[0], k * fan + jit(0.02), r * aspect * rng.uniform(1.05, 1.4), jit(2), card[1]))
    elif kind == "hands":
        # Cards turned about a common point near their lower edge, as a held hand is put
        # down: real photos have such fans, where each index shows at a new angle and
        # often only as a narrow wedge.
        for f in range(int(rng.integers(1, 5))):
            n = int(rng.integers(3, 14))
            # turned clockwise, each card leaves the top-left index of the one below in view
            step = rng.uniform(4, 14) * (1 if rng.random() < 0.8 else -1)
            base = rng.uniform(-180, 180)
            radius = rng.uniform(0.5, 1.0) * aspect
            px, py = f * rng.uniform(2.2, 3.2), rng.uniform(0, 1.5)
            for k in range(n):
                card = nxt()
                if card is None:
                    break
                a = base + (k - n / 2) * step
                t = math.radians(a)
                # the card's centre lies `radius` above the pivot, turned with the card
                out.append(Placement(card[0], px + radius * math.sin(t), py - radius * math.cos(t), a, card[1]))
    else:
        n = int(rng.integers(3, 25))
        for _ in range(n):
            card = nxt()
            if card is None:
                break
            out.append(Placement(card[0], rng.uniform(0, 7), rng.uniform(0, 6), rng.uniform(-180, 180), card[1]))
    # waste fan + stock sometimes
    if rng.random() < 0.4:
        y0 = -1.4 * aspect
        out.append(Placement("As", -1.5, y0, jit(2), 0, face_up=False))
        for k in range(int(rng.integers(1, 4))):
            card = nxt()
            if card is None:
                break
            out.append(Placement(card[0], -0.2 + k * 0.25, y0, jit(2), card[1]))
    return out


def thin_strokes(deck: Deck, px: int, labels=None) -> Deck:
    """``deck`` with its ink thinned by ``px`` on every side (the paper grown over the ink).

    Some real decks draw their indices with hairline strokes (a thin 7 under a webcam's
    blur is the commonest real-dev miss), while most of our artwork is bold. Only the
    pictures change: the index boxes stay those of the deck."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * px + 1, 2 * px + 1))
    images = {}
    for label in (deck.images if labels is None else labels):
        im = deck.images[label].copy()
        im[..., :3] = cv2.dilate(im[..., :3], kernel)
        images[label] = im
    return Deck(f"{deck.name}-thin{px}", images, deck.index_boxes)


# Share of training scenes drawn with thinned ink, and how much thinner, per 400 px of card width
# (the strokes of our decks are 6-10 px there; 3 px breaks the thinner ones apart).
THIN_CHANCE = 0.25
THIN_PX = (1, 2)


def random_scene(decks: list[Deck], rng: np.random.Generator, size=(640, 640)) -> SceneImage:
    """A random training scene (layout, camera, table, light) at ``size``."""
    deck = decks[int(rng.integers(len(decks)))]
    dk: Deck | dict[int, Deck] = deck
    if rng.random() < 0.15 and len(decks) > 1:
        dk = {0: deck, 1: decks[int(rng.integers(len(decks)))]}
    pl = random_layout(rng, deck.aspect)
    if rng.random() < THIN_CHANCE:
        used = {p.label for p in pl}
        px = THIN_PX[int(rng.integers(len(THIN_PX)))]
        def thinned(d: Deck) -> Deck:
            return thin_strokes(d, max(1, round(px * d.size[0] / 400)), used)
        dk = {k: thinned(d) for k, d in dk.items()} if isinstance(dk, dict) else thinned(dk)
    xs = np.array([p.x for p in pl]) if pl else np.zeros(1)
    ys = np.array([p.y for p in pl]) if pl else np.zeros(1)
    center = (rng.uniform(xs.min(), xs.max()), rng.uniform(ys.min(), ys.max()))
    # index box height in px ~ 0.16 * card height; real median 47 px at 1080p
    card_px = float(np.exp(rng.uniform(np.log(70), np.log(220))))
    cam = Camera.random(rng, size=size, center=center, card_px=card_px)
    scene = render_scene(pl, dk, cam, rng, four_corners=rng.random() < 0.5,
                         clutter=int(rng.integers(0, 3)))
    scene.image = jpeg(scene.image, rng)
    return scene


def synthetic_deck(width: int = 160, seed: int = 0) -> Deck:
    """A plain deck drawn with OpenCV text (no Debian art needed): for tests and demos.

    Each card shows its rank and suit letter in the top-left corner and, rotated
    180 degrees, in the bottom-right corner, like a real card.
    """
    h = int(round(width * 1.45))
    rng = np.random.default_rng(seed)
    images: dict[str, np.ndarray] = {}
    for label in LABELS:
        im = np.zeros((h, width, 4), np.uint8)
        im[..., :3] = 250
        im[..., 3] = 255
        col = (30, 30, 200) if label[-1] in "hd" else (20, 20, 20)
        fs = width / 160
        rank, suit = label[:-1], label[-1].upper()
        half = np.full((h // 2, width, 3), 250, np.uint8)
        cv2.putText(half, rank, (int(0.05 * width), int(0.2 * width)), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * fs, col,
                    max(1, int(2 * fs)), cv2.LINE_AA)
        cv2.putText(half, suit, (int(0.06 * width), int(0.31 * width)), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * fs, col,
                    max(1, int(2 * fs)), cv2.LINE_AA)
        im[:h // 2, :, :3] = half
        im[h - h // 2:, :, :3] = np.minimum(im[h - h // 2:, :, :3], half[::-1, ::-1])
        # a centre pip so the card is not empty
        cv2.circle(im, (width // 2, h // 2), int(0.12 * width), (*col, 255), -1)
        cv2.rectangle(im, (0, 0), (width - 1, h - 1), (120, 120, 120, 255), 1)
        images[label] = im
    boxes = {}
    for label, im in images.items():
        b = find_index_box(im)
        if b is None:
            raise RuntimeError(f"synthetic deck: no index found on {label}")
        boxes[label] = tuple(int(v) for v in b)
    del rng
    return Deck("synthetic", images, boxes)
