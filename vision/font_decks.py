"""Decks drawn from the system's fonts, to widen the index styles the classifier learns.

The Debian packages give 23 training decks, and a deck the model never saw
costs about 9 mAP50 points, mostly in naming the card: its index is set in a
type the classifier has not met. Drawing extra decks in every upright face of
the DejaVu and Liberation families (sans, serif, mono, condensed; regular and
bold), with the layout of the corner varied per deck, adds that variety at no
download. These decks are for training only: validation and the held-out decks
stay real artwork, so the figures still measure real designs.

Every face gives two decks: one with DejaVu's suit signs, one with suit signs
drawn from circles and polygons whose proportions vary from deck to deck
(:func:`suit_sign`). All font decks once shared DejaVu's one set of signs, and
the classifier's commonest mistake on an unseen deck is a club read as a spade:
printers' clubs range from three thin lobes to three fat balls that nearly
merge into a spade's outline, so the shape of the signs needs variety too.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .decks import FONT_DIRS, LABELS
# Slanted and hairline faces are left out: no playing card sets its index that way.
SKIP = ("Oblique", "Italic", "ExtraLight", "Math")
SUIT_FONT = "DejaVuSans.ttf"
SUIT_GLYPHS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
WIDTH, ASPECT = 400, 1.4


def font_files() -> list[Path]:
    found = []
    for d in FONT_DIRS:
        found += [p for p in sorted(Path(d).glob("*.ttf")) if not any(k in p.name for k in SKIP)]
    return found


DRAWN = "-drawn-suits"


def deck_name(font: Path, drawn: bool = False) -> str:
    return "font-" + font.stem.lower() + (DRAWN if drawn else "")


def suit_style(rng: np.random.Generator) -> dict[str, float]:
    """One deck's suit-sign proportions (fractions of the sign's height)."""
    return {"lobe": rng.uniform(0.17, 0.3),       # club lobe radius: thin to fat
            "spread": rng.uniform(0.95, 1.45),    # club side lobes apart, in lobe radii
            "heart": rng.uniform(0.22, 0.3),      # heart / spade lobe radius
            "stem": rng.uniform(0.12, 0.42),      # width of the club / spade foot
            "foot": rng.uniform(0.18, 0.32),      # height of the foot
            "diamond": rng.uniform(0.6, 0.85),    # diamond width / height
            "bend": rng.uniform(0.0, 0.12)}       # diamond sides bent inward


def suit_sign(suit: str, height: int, ink, style: dict[str, float]):
    """A suit sign ``height`` px tall on a transparent patch, drawn at 4x and shrunk (smooth edges)."""
    from PIL import Image, ImageDraw

    k = 4
    S = height * k
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill = (*ink, 255)

    def disc(cx, cy, r):
        d.ellipse(((cx - r) * S, (cy - r) * S, (cx + r) * S, (cy + r) * S), fill=fill)

    def poly(pts):
        d.polygon([(x * S, y * S) for x, y in pts], fill=fill)

    def heart(point_down: bool, top: float, bottom: float):
        # two lobes and the wedge joining them to the point; flipped for a spade
        r = style["heart"]
        y = top + r if point_down else bottom - r
        tip = bottom if point_down else top
        for cx in (0.5 - 0.85 * r, 0.5 + 0.85 * r):
            disc(cx, y, r)
        side = y + (0.35 * r if point_down else -0.35 * r)
        poly([(0.5 - 1.8 * r, side), (0.5 + 1.8 * r, side), (0.5, tip)])

    def foot():
        w, h = style["stem"], style["foot"]
        poly([(0.5 - 0.06, 1 - h - 0.05), (0.5 + 0.06, 1 - h - 0.05), (0.5 + w / 2, 1.0), (0.5 - w / 2, 1.0)])

    if suit == "h":
        heart(True, 0.0, 1.0)
    elif suit == "s":
        heart(False, 0.0, 1 - style["foot"] * 0.6)
        foot()
    elif suit == "c":
        r, spread = style["lobe"], style["spread"]
        low = 1 - style["foot"] - r * 0.7
        disc(0.5, r + 0.01, r)
        for cx in (0.5 - spread * r, 0.5 + spread * r):
            disc(cx, low, r)
        disc(0.5, (r + low) / 2 + 0.03, r * 0.6)
        foot()
    else:
        w, b = style["diamond"] / 2, style["bend"]
        pts = []
        corners = [(0.5, 0.0), (0.5 + w, 0.5), (0.5, 1.0), (0.5 - w, 0.5)]
        for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
            for t in np.linspace(0, 1, 8, endpoint=False):
                # pulled toward the centre most at mid-side
                x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                pull = b * 4 * t * (1 - t)
                pts.append((x + (0.5 - x) * pull, y + (0.5 - y) * pull))
        poly(pts)
    box = img.getbbox() or (0, 0, S, S)
    img = img.crop(box)
    return img.resize((max(1, round(img.width / k)), max(1, round(img.height / k))), Image.LANCZOS)


def _suit_font_path() -> Path:
    for d in FONT_DIRS:
        if (Path(d) / SUIT_FONT).is_file():
            return Path(d) / SUIT_FONT
    raise FileNotFoundError(f"{SUIT_FONT} not found in {FONT_DIRS} (the data step installs the font packages: vision.decks.DEBIAN_PACKAGES)")


def draw_deck(font: Path, seed: int = 0, drawn_suits: bool = False) -> dict[str, np.ndarray]:
    """label -> BGRA card image (WIDTH wide) with ``font``'s ranks and DejaVu's suit signs
    (``drawn_suits``: signs of this deck's own proportions, :func:`suit_sign`)."""
    from PIL import Image, ImageDraw, ImageFont

    rng = np.random.default_rng(seed)
    W, H = WIDTH, int(WIDTH * ASPECT)
    # one corner layout per deck, as a printer would choose it
    rank_h = rng.uniform(0.06, 0.095) * H
    suit_scale = rng.uniform(0.55, 0.9)
    margin_x, margin_y = rng.uniform(0.03, 0.07) * W, rng.uniform(0.025, 0.06) * H
    gap = rng.uniform(0.05, 0.3) * rank_h
    # printers squeeze a "10" to about the width of one figure and a half
    ten_w = rng.uniform(0.9, 1.3) * rank_h
    paper = tuple(int(v) for v in rng.integers(236, 256, 3))
    red = (int(rng.integers(170, 235)), int(rng.integers(0, 45)), int(rng.integers(0, 55)))
    black = tuple(int(v) for v in rng.integers(0, 45, 3))
    rank_font = ImageFont.truetype(str(font), 10)
    # size the face so that its digits are rank_h tall
    top, bottom = rank_font.getbbox("8")[1], rank_font.getbbox("8")[3]
    rank_font = ImageFont.truetype(str(font), max(8, int(round(10 * rank_h / max(1, bottom - top)))))
    suit_path = str(_suit_font_path())
    suit_font = ImageFont.truetype(suit_path, max(8, int(round(rank_h * suit_scale * 1.25))))
    pip_font = ImageFont.truetype(suit_path, int(0.12 * H))
    radius = int(rng.uniform(0.03, 0.07) * W)
    style = suit_style(rng) if drawn_suits else None
    out = {}
    for label in LABELS:
        rank, suit = label[:-1], label[-1]
        ink = red if suit in "hd" else black
        img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        d.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=(*paper, 255), outline=(150, 150, 150, 255))
        corner = Image.new("RGBA", (W, H // 2), (0, 0, 0, 0))
        c = ImageDraw.Draw(corner)
        patch = _text_patch(rank, rank_font, ink, ten_w if rank == "10" else None)
        x = margin_x + 0.5 * max(0, rank_h * 0.75 - patch.width)
        corner.alpha_composite(patch, (int(round(x)), int(round(margin_y))))
        rb = (0, 0, patch.width, patch.height)
        centre = x + (rb[2] - rb[0]) / 2
        if style is None:
            sb = c.textbbox((0, 0), SUIT_GLYPHS[suit], font=suit_font)
            c.text((centre - (sb[2] + sb[0]) / 2, margin_y + (rb[3] - rb[1]) + gap - sb[1]), SUIT_GLYPHS[suit],
                   font=suit_font, fill=(*ink, 255))
            pip = None
        else:
            sign = suit_sign(suit, max(6, round(rank_h * suit_scale)), ink, style)
            corner.alpha_composite(sign, (int(round(centre - sign.width / 2)), int(round(margin_y + (rb[3] - rb[1]) + gap))))
            pip = suit_sign(suit, int(0.1 * H), ink, style)
        img.alpha_composite(corner)
        img.alpha_composite(corner.rotate(180), (0, H - H // 2))
        _middle(img, d, rank, SUIT_GLYPHS[suit], ink, W, H, rng, pip_font, pip)
        a = np.array(img)
        out[label] = np.ascontiguousarray(a[..., [2, 1, 0, 3]])
    return out


def _text_patch(text: str, font, ink, max_width: float | None):
    """``text`` inked on a transparent patch cut to its ink, squeezed to ``max_width`` if wider."""
    from PIL import Image, ImageDraw

    b = ImageDraw.Draw(Image.new("RGBA", (1, 1))).textbbox((0, 0), text, font=font)
    patch = Image.new("RGBA", (b[2] - b[0] + 2, b[3] - b[1] + 2), (0, 0, 0, 0))
    ImageDraw.Draw(patch).text((1 - b[0], 1 - b[1]), text, font=font, fill=(*ink, 255))
    if max_width and patch.width > max_width:
        patch = patch.resize((int(round(max_width)), patch.height), Image.LANCZOS)
    return patch


def _middle(img, d, rank: str, glyph: str, ink, W: int, H: int, rng, pip_font, pip=None) -> None:
    """The card's middle: pips for a number card, a framed picture for a court card, one big pip for an ace.
    ``pip``: a drawn sign (patch) to use instead of the font's ``glyph``."""
    x0, y0, x1, y1 = 0.24 * W, 0.16 * H, 0.76 * W, 0.84 * H
    if rank in ("J", "Q", "K"):
        d.rectangle((x0, y0, x1, y1), outline=(*ink, 255), width=2)
        for _ in range(6):
            col = tuple(int(v) for v in rng.integers(0, 256, 3))
            cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
            r = rng.uniform(0.04, 0.12) * W
            d.ellipse((max(x0, cx - r), max(y0, cy - r), min(x1, cx + r), min(y1, cy + r)), fill=(*col, 255))
        return
    n = 1 if rank == "A" else int(rank)
    cols = 1 if n <= 3 else 2 if n <= 8 or n == 10 else 3
    rows = -(-n // cols)
    k = 0
    for r in range(rows):
        for cix in range(cols):
            if k == n:
                break
            px = x0 + (x1 - x0) * (cix + 0.5) / cols
            py = y0 + (y1 - y0) * (r + 0.5) / rows
            if pip is not None:
                img.alpha_composite(pip, (int(px - pip.width / 2), int(py - pip.height / 2)))
            else:
                b = d.textbbox((0, 0), glyph, font=pip_font)
                d.text((px - (b[0] + b[2]) / 2, py - (b[1] + b[3]) / 2), glyph, font=pip_font, fill=(*ink, 255))
            k += 1


def write_font_decks(out: Path, seed: int = 0) -> list[str]:
    """Draw each face's two decks (font signs, drawn signs) into ``out/<deck>/<label>.png``,
    skipping decks already there; their names."""
    import cv2

    names = []
    fonts = font_files()
    for i, font in enumerate(fonts):
        for drawn in (False, True):
            d = out / deck_name(font, drawn)
            names.append(d.name)
            if d.is_dir() and len(list(d.glob("*.png"))) >= 52:
                continue
            d.mkdir(parents=True, exist_ok=True)
            for label, im in draw_deck(font, seed + i + (len(fonts) if drawn else 0), drawn_suits=drawn).items():
                cv2.imwrite(str(d / f"{label}.png"), im)
    return names
