"""The suit told by a card's big pips, where its corner index leaves it in doubt.

On some decks the index's suit sign is a few pixels of ink, and the index classifier takes
one black suit for the other (gnome-plastic's clubs read as spades at most of their
indices). The pips in the body of a number card are three or four times larger, and
wherever the layout leaves them in view (the exposed card of a fan, a card on its own, a
strip of a covered card that shows its top row) their shape settles the suit.

The pip judge is a small network per colour (clubs against spades, diamonds against
hearts; one hidden layer) on a pip's ink shape, scaled to a small square, upright (a pip in
a card's lower half is turned first), whole or cut across its lower part by the next card
of a fan. It is trained only on drawn signs:
the suit glyphs of the system's fonts and signs drawn with varied proportions
(:func:`vision.font_decks.suit_sign`), blurred and shrunk as a photo would show them, so
no deck, held out or not, is learnt (``scripts/train_pips.py``, :func:`train`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

SIDE = 16                         # a pip's ink, scaled to SIDE x SIDE
HIDDEN = 128                      # the judge's hidden units
PX = 64                           # a card's canonical view: pixels per card width
PIP_MODEL = Path(__file__).resolve().parent.parent / "models" / "pips.npz"
# the suit each colour's model says yes to (its log-odds are for this suit against the other)
YES = {"black": "c", "red": "d"}
COLOUR = {"s": "black", "c": "black", "h": "red", "d": "red"}
SUIT_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf",
              "LiberationSans-Regular.ttf", "LiberationSerif-Regular.ttf", "LiberationMono-Regular.ttf",
              "LiberationSans-Bold.ttf")
GLYPH = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


def features(ink: np.ndarray) -> np.ndarray:
    """One pip's ink (2-D, 0 paper .. 1 ink, cut to the pip's box) -> the judge's inputs: the ink
    scaled to SIDE x SIDE (its own contrast stretched) and the box's width over its height."""
    import cv2

    h, w = ink.shape
    sq = cv2.resize(ink.astype(np.float32), (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    lo, hi = float(sq.min()), float(sq.max())
    sq = (sq - lo) / max(hi - lo, 1e-3)
    return np.concatenate([sq.ravel(), [w / max(h, 1), 1.0]]).astype(np.float32)


def _glyph(suit: str, font: Path, px: int):
    from PIL import Image, ImageDraw, ImageFont

    ft = ImageFont.truetype(str(font), px * 2)
    img = Image.new("L", (px * 4, px * 4), 0)
    ImageDraw.Draw(img).text((px, px), GLYPH[suit], font=ft, fill=255)
    box = img.getbbox()
    return np.asarray(img.crop(box), np.float32) / 255.0 if box else None


def _drawn(suit: str, rng: np.random.Generator, px: int):
    from .font_decks import suit_sign, suit_style

    img = suit_sign(suit, px * 4, (0, 0, 0), suit_style(rng))
    return np.asarray(img, np.float32)[..., 3] / 255.0


def synthetic_pips(n: int, colour: str, seed: int = 0, fonts: Sequence[Path] = ()) -> tuple[np.ndarray, np.ndarray]:
    """``n`` pips of one colour's two suits drawn as a photo shows them (shrunk to 4-30 px tall,
    stretched and turned a little, blurred, noisy, some cut across their lower part): features (n, SIDE*SIDE+2) and 1 for the
    colour's ``YES`` suit, 0 for the other."""
    import cv2

    rng = np.random.default_rng(seed)
    suits = [s for s, c in COLOUR.items() if c == colour]
    X, Y = [], []
    while len(X) < n:
        suit = suits[int(rng.integers(2))]
        big = 48
        if fonts and rng.random() < 0.4:
            shape = _glyph(suit, fonts[int(rng.integers(len(fonts)))], big)
        else:
            shape = _drawn(suit, rng, big // 4 + 1)
        if shape is None or shape.size == 0:
            continue
        # a little perspective and turn, then shrunk to a photo's pip size
        h, w = shape.shape
        pad = np.pad(shape, ((h // 4, h // 4), (w // 4, w // 4)))
        ph, pw = pad.shape
        ang = rng.uniform(-8, 8)
        M = cv2.getRotationMatrix2D((pw / 2, ph / 2), ang, 1.0)
        M[0, :2] *= rng.uniform(0.8, 1.2)
        M[1, :2] *= rng.uniform(0.85, 1.15)
        M[0, 1] += rng.uniform(-0.1, 0.1)
        pad = cv2.warpAffine(pad, M, (pw, ph))
        # the photo's pip (4-30 px tall), then the card's canonical view (PX per card width); small blurred
        # pips of the two suits look alike, and the judge learns to say little of them
        src, dst = float(np.exp(rng.uniform(np.log(4), np.log(30)))), rng.uniform(0.09, 0.32) * PX
        f = src / h
        small = cv2.resize(pad, (max(3, round(pw * f)), max(3, round(ph * f))), interpolation=cv2.INTER_AREA)
        if rng.random() < 0.7:
            small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.5))
        small = small * rng.uniform(0.5, 1.0) + rng.normal(0, rng.uniform(0, 0.06), small.shape)
        g = dst / src
        up = cv2.resize(small.astype(np.float32), (max(3, round(small.shape[1] * g)), max(3, round(small.shape[0] * g))),
                        interpolation=cv2.INTER_AREA if g < 1 else cv2.INTER_LINEAR)
        cut = _cut(up)
        if cut is None:
            continue
        if rng.random() < CUT_SHARE:
            # the strip of a card in a fan: the next card's edge cuts its top pips across
            cut = cut[:max(3, int(round(cut.shape[0] * rng.uniform(*CUT_KEPT))))]
        X.append(features(cut))
        Y.append(1 if suit == YES[colour] else 0)
    return np.stack(X), np.array(Y, np.float32)


def _cut(ink: np.ndarray, level: float = 0.5) -> np.ndarray | None:
    """The box round the largest blob of ``ink`` above ``level`` of its peak, one pixel wider."""
    import cv2

    peak = float(ink.max())
    if peak <= 0.1:
        return None
    n, lab, stats, _ = cv2.connectedComponentsWithStats((ink >= level * peak).astype(np.uint8), connectivity=8)
    if n < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[k, :4])
    return ink[max(0, y - 1):y + h + 1, max(0, x - 1):x + w + 1]


def train(out: Path = PIP_MODEL, n: int = 60000, seed: int = 0, log=print) -> dict:
    """Fit both colours' judges on drawn pips; writes ``out`` (.npz) and returns the fit's figures."""
    from .decks import FONT_DIRS

    fonts = [Path(d) / f for d in FONT_DIRS for f in SUIT_FONTS if (Path(d) / f).is_file()]
    weights, summary = {}, {}
    for colour in ("black", "red"):
        X, Y = synthetic_pips(n, colour, seed, fonts)
        Xv, Yv = synthetic_pips(max(500, n // 10), colour, seed + 1000, fonts)
        w = _fit_mlp(X, Y, seed=seed)
        weights.update({f"{colour}_{k}": v for k, v in w.items()})
        acc = float(((_forward(w, Xv) > 0) == (Yv > 0.5)).mean())
        summary[colour] = {"pips": int(len(X)), "drawn_val_accuracy": round(acc, 4)}
        log(f"pips {colour}: {summary[colour]}")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, **weights)
    return summary


def _fit_mlp(X: np.ndarray, Y: np.ndarray, hidden: int = HIDDEN, epochs: int = 30, seed: int = 0) -> dict[str, np.ndarray]:
    """One hidden layer (a pip's upright and upside-down shapes are both one suit: no line parts them)."""
    import torch

    torch.manual_seed(seed)
    net = torch.nn.Sequential(torch.nn.Linear(X.shape[1], hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-4)
    Xt, Yt = torch.from_numpy(X), torch.from_numpy(Y)
    g = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for idx in torch.randperm(len(X), generator=g).split(256):
            loss = torch.nn.functional.binary_cross_entropy_with_logits(net(Xt[idx])[:, 0], Yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return {k.replace(".", "_"): v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}


def _forward(w: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    h = np.maximum(x @ w["0_weight"].T + w["0_bias"], 0)
    return (h @ w["2_weight"].T + w["2_bias"])[..., 0]


@dataclass
class PipJudge:
    """Log-odds of a pip's suit: for clubs against spades (black), diamonds against hearts (red)."""
    weights: dict[str, dict[str, np.ndarray]]

    @classmethod
    def load(cls, path: Path = PIP_MODEL) -> "PipJudge | None":
        if not Path(path).is_file():
            return None
        with np.load(path) as z:
            return cls({c: {k[len(c) + 1:]: z[k] for k in z.files if k.startswith(c + "_")} for c in ("black", "red")})

    def log_odds(self, ink: np.ndarray, colour: str) -> float:
        return float(_forward(self.weights[colour], features(ink)[None, :])[0])


# ---------------------------------------------------------------- pips on a photographed card

TOP, BOTTOM = 0.38, 0.62          # pip centres above TOP (card heights) stand upright, below BOTTOM upside down;
                                  # between, decks differ, so those pips are not judged
PIP_HEIGHT = (0.09, 0.42)         # a pip's height, card widths
PIPS_COUNTED = 4                  # pips of one card judged (one card's pips are one shape: more say little more)
LEVELS = (0.5, 0.7, 0.85)          # ink levels a pip is looked for at, lowest first
CUT_SHARE = 0.4                   # drawn pips cut across by a covering card's edge...
CUT_KEPT = (0.45, 0.95)           # ...keeping this much of their height
PIP_CAP = 4.0                     # one pip's log-odds are held within this


def card_view(image: np.ndarray, H: np.ndarray, top_left: tuple[float, float], aspect: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """The card whose top-left corner lies at ``top_left`` on the table (card widths; ``H`` maps the
    table to the photo), seen square on at PX pixels per card width, and which of its pixels lie
    outside the photo."""
    import cv2

    S = np.array([[1.0 / PX, 0, top_left[0]], [0, 1.0 / PX, top_left[1]], [0, 0, 1]])
    # (outside the photo is painted pure green, a colour no ink or paper is)
    view = cv2.warpPerspective(image, H @ S, (PX, int(round(PX * aspect))),
                               flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=(0, 255, 0))
    return view, (view[..., 0] == 0) & (view[..., 1] == 255) & (view[..., 2] == 0)


def ink(view: np.ndarray, colour: str) -> np.ndarray:
    """How much each pixel of a card's view is ``colour``'s ink (0 paper .. 1), against its own paper."""
    v = view.astype(np.float32)
    grey = v.mean(2)
    flat = grey.ravel()
    k = int(0.9 * (flat.size - 1))
    paper = float(np.partition(flat, k)[k])          # (the 90th percentile, without a sort)
    if colour == "black":
        return np.clip((paper - grey) / max(paper * 0.6, 40.0), 0, 1) * (v.max(2) - v.min(2) < 60)
    redness = v[..., 2] - v[..., :2].max(2)
    return np.clip(redness / 110.0, 0, 1)


def pip_log_odds(view: np.ndarray, hidden: np.ndarray, colour: str, judge: PipJudge) -> list[float]:
    """Each pip in view: its log-odds for ``YES[colour]`` against the other suit of the colour.

    ``hidden``: the view's pixels covered by other cards or outside the photo. A pip touching them is
    judged only if they cut its lower part off (the strip of a card in a fan); a pip in a corner
    index's column, or in the middle band of the card (printed either way up), is not judged."""
    import cv2

    m = ink(view, colour)
    m[hidden] = 0.0          # (ink under another card is that card's, and ends a pip it cuts at its edge)
    h, w = m.shape
    blocked = cv2.dilate(hidden.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    taken = np.zeros((h, w), bool)
    found = []
    # blurred pips close together run into one blob at half ink: they part at a higher level
    for level in LEVELS:
        n, lab, st, _ = cv2.connectedComponentsWithStats((m >= level).astype(np.uint8), connectivity=8)
        x, y, bw, bh = st[:, 0], st[:, 1], st[:, 2], st[:, 3]
        fits = (x >= 0.2 * w) & (x + bw <= 0.8 * w) & (bh >= PIP_HEIGHT[0] * w) & (bh <= PIP_HEIGHT[1] * w)
        for k in np.flatnonzero(fits[1:]) + 1:
            x, y, bw, bh = (int(t) for t in st[k, :4])
            # (in the blob's own box, a pixel wider: the touching and marking below need no more)
            y0, y1, x0, x1 = max(0, y - 1), min(h, y + bh + 1), max(0, x - 1), min(w, x + bw + 1)
            mine = lab[y0:y1, x0:x1] == k
            if taken[y0:y1, x0:x1][mine].any():
                continue
            touch = np.flatnonzero((blocked[y0:y1, x0:x1] & mine).any(axis=1)) + y0
            if len(touch):
                # cut across by a card lying over its lower part (a fan's next card) and at least
                # CUT_KEPT[0] of a pip's usual shape left; cut anywhere else, it is not judged
                if touch.min() < y + bh - 2 or not 0.5 <= bw / bh <= 1.6 / CUT_KEPT[0]:
                    continue
            elif not 0.5 <= bw / bh <= 1.6:
                continue
            taken[y0:y1, x0:x1] |= cv2.dilate(mine.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            yc = (y + bh / 2) / h
            if TOP <= yc <= BOTTOM:
                continue
            cut = m[y0:y1, x0:x1]
            if yc > BOTTOM:
                cut = cut[::-1, ::-1]
            found.append(float(np.clip(judge.log_odds(cut, colour), -PIP_CAP, PIP_CAP)))
    return found
