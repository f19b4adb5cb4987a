"""Deck artwork: find the Debian SVG card decks and render every card to PNG.

The Debian packages ``gnome-cards-data`` (aisleriot) and
``kdegames-card-data-kf5`` ship SVG decks in which every card is an element
with an id such as ``1_club``, ``king_heart`` or ``club_king``.  We render each
card on its own with ``rsvg-convert --export-id`` and store
``<out>/<deck>/<label>.png`` (RGBA, transparent outside the card).

Decks used for training are listed in :data:`TRAIN_DECKS`, decks kept out of
training to measure generalisation in :data:`HELDOUT_DECKS`.  Decks were chosen
by looking at the renders: only decks with standard French corner indices
(A K Q J 10..2 and the four French suits) are used.
"""
from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

# the deck art, its renderer, and the faces of the font-drawn training decks (vision.font_decks)
DEBIAN_PACKAGES = ("gnome-cards-data", "kdegames-card-data-kf5", "librsvg2-bin",
                   "fonts-dejavu-core", "fonts-dejavu-extra", "fonts-liberation")
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation")
DECK_DIRS = ("/usr/share/aisleriot/cards", "/usr/share/carddecks")
# fonts-dejavu-core alone makes the DejaVu folder, so a folder does not say fonts-dejavu-extra is in
FONT_MARKERS = ("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
                "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")

SUITS = {"s": "spade", "h": "heart", "d": "diamond", "c": "club"}
RANKS = {"A": ("1", "ace"), "K": ("king",), "Q": ("queen",), "J": ("jack",),
         **{str(n): (str(n),) for n in range(2, 11)}}
# Class order of the real-dev names file.
RANK_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
SUIT_ORDER = ["s", "h", "d", "c"]
LABELS = [r + s for s in SUIT_ORDER for r in RANK_ORDER]

# Filled in after inspecting renders (see models/MODEL_CARD.md).
# Excluded after looking at the renders: gnome-ancient_french (R D V, "1"),
# gnome-atlasnye_skat, gnome-berlin, gnome-lattmann, gnome-rheinland,
# gnome-tarocco (German/Italian letters), gnome-slavic_costumes (Cyrillic),
# gnome-swiss-xvii, kde-xskat-german (non-French suits), gnome-guyenne-classic
# (no index on court cards), gnome-tango_nuevo (rank without suit),
# kde-oxygen, kde-oxygen-air, kde-oxygen-white (no rank letters),
# gnome-tango (index finder fails on its shaded paper), kde-future (not a card layout), kde-konqi-modern, kde-xskat-french (ids not found).
TRAIN_DECKS: list[str] = [
    "gnome-anglo", "gnome-anglo_bitmap", "gnome-anglo_modern", "gnome-anglo_modern_4_color",
    "gnome-anglo_poker", "gnome-atlasnye", "gnome-bellot", "gnome-dondorf", "gnome-gnomangelo",
    "gnome-gnomangelo_bitmap", "gnome-neoclassical", "gnome-neoclassical_4_color",
    "gnome-ornamental", "gnome-paris", "gnome-simplistic", "gnome-tigullio",
    "kde-ancient-egyptians", "kde-dondorf", "kde-gm-paris", "kde-nicu-ornamental",
    "kde-nicu-white", "kde-standard", "kde-tigullio-international",
]
# Kept out of training: each has its own artwork family.
HELDOUT_DECKS: list[str] = ["kde-penguins", "kde-jolly-royal", "gnome-plastic", "gnome-orell"]

# Decks from the npm registry, one SVG file a card: deck name -> (package@version, folder in the
# package, file name pattern with {rank} and {suit}, the package's rank names, its suit names).
# Fetched by name with ``npm pack`` in the data step (:func:`fetch_npm_deck`). Both packages are free
# (MIT; LGPL-3.0) and draw standard French indices; the first is a jumbo-index deck, which no Debian
# deck is.
_HERUKA = ("@heruka_urgyen/react-playing-cards@0.5.0",
           {"A": "A", "K": "K", "Q": "Q", "J": "J", "10": "T", **{str(n): str(n) for n in range(2, 10)}},
           {"s": "S", "h": "H", "d": "D", "c": "C"})
_TOUATI = ("@younestouati/playing-cards-standard-deck@3.0.0",
           {"A": "1", "K": "13", "Q": "12", "J": "11", **{str(n): str(n) for n in range(2, 11)}},
           {"s": "s", "h": "h", "d": "d", "c": "c"})
NPM_DECKS: dict[str, tuple[str, str, str, dict[str, str], dict[str, str]]] = {
    "npm-heruka-jumbo": (_HERUKA[0], "package/src/images/2color-bf", "{rank}{suit}.svg", *_HERUKA[1:]),
    "npm-heruka": (_HERUKA[0], "package/src/images/2color", "{rank}{suit}.svg", *_HERUKA[1:]),
    "npm-touati": (_TOUATI[0], "package/cards", "{rank}{suit}.svg", *_TOUATI[1:]),
}


def deck_files() -> dict[str, Path]:
    """Map a deck name (``gnome-anglo``, ``kde-oxygen``) to its SVG(Z) file."""
    out: dict[str, Path] = {}
    for d in DECK_DIRS:
        p = Path(d)
        if not p.is_dir():
            continue
        for f in sorted(p.rglob("*.svg*")):
            if not re.search(r"\.svgz?$", f.name):
                continue
            prefix = "gnome" if "aisleriot" in str(f) else "kde"
            stem = f.name.split(".")[0]
            if prefix == "kde":
                stem = f.parent.name.replace("svg-", "")
            name = f"{prefix}-{stem}"
            if not name.isascii():
                continue
            out[name] = f
    return out


def install_packages() -> None:
    """Install the Debian packages with the deck artwork (needs root)."""
    if (all(Path(d).is_dir() for d in DECK_DIRS) and all(Path(f).is_file() for f in FONT_MARKERS)
            and shutil.which("rsvg-convert")):
        return
    _apt_install(*DEBIAN_PACKAGES)


def install_npm() -> None:
    """Install npm (Debian's package), which fetches the npm registry's decks (needs root)."""
    if not shutil.which("npm"):
        _apt_install("npm")


def _apt_install(*packages: str) -> None:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    wait = ["-o", "DPkg::Lock::Timeout=600"]     # another apt run may hold the dpkg lock
    subprocess.run(["apt-get", *wait, "update", "-q"], check=True, env=env)
    subprocess.run(["apt-get", *wait, "install", "-y", "-q", *packages], check=True, env=env)


def _read_svg(path: Path) -> str:
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", errors="replace")


def card_ids(path: Path) -> dict[str, str]:
    """Map card label -> element id in the SVG file (empty if no scheme fits)."""
    ids = set(re.findall(r'\bid="([^"]+)"', _read_svg(path)))
    found: dict[str, str] = {}
    for label in LABELS:
        r, s = label[:-1], label[-1]
        suit = SUITS[s]
        for rn in RANKS[r]:
            for cand in (f"{rn}_{suit}", f"{suit}_{rn}"):
                if cand in ids:
                    found[label] = cand
                    break
            if label in found:
                break
    return found if len(found) == 52 else {}


def _alpha_bbox(path: Path):
    import cv2
    im = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if im is None or im.ndim < 3 or im.shape[2] < 4:
        return None, im
    ys, xs = np.nonzero(im[:, :, 3] > 128)
    if len(xs) == 0:
        return None, im
    return (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1), im


def _render_one(args):
    """Render one card so that the card itself is ``width`` px wide, cropped to it.

    rsvg-convert's canvas for ``--export-id`` is often much larger than the
    card (transforms, hidden elements), so render once to measure the card's
    share of the canvas, then again at the right scale.
    """
    svg, el_id, out, width = args
    if out.exists():
        return True
    tmp = out.with_suffix(".tmp.png")
    r = subprocess.run(["rsvg-convert", "-i", el_id, "-w", str(width), str(svg), "-o", str(tmp)],
                       capture_output=True)
    if r.returncode != 0:
        return False
    bb, im = _alpha_bbox(tmp)
    if bb is None:
        tmp.unlink(missing_ok=True)
        return False
    cw = bb[2] - bb[0]
    if abs(cw - width) > 2:
        canvas_w = int(round(im.shape[1] * width / cw))
        if canvas_w > 30000:
            tmp.unlink(missing_ok=True)
            return False
        r = subprocess.run(["rsvg-convert", "-i", el_id, "-w", str(canvas_w), str(svg), "-o", str(tmp)],
                           capture_output=True)
        if r.returncode != 0:
            return False
    return _keep_card(tmp, out)


def _keep_card(tmp: Path, out: Path) -> bool:
    """Save a render cut to the card's opaque part as ``out`` (the render itself is removed)."""
    import cv2
    bb, im = _alpha_bbox(tmp)
    if bb is not None:
        x0, y0, x1, y1 = bb
        cv2.imwrite(str(out), im[y0:y1, x0:x1])
    tmp.unlink(missing_ok=True)
    return bb is not None


def render_deck(name: str, svg: Path, out_dir: Path, width: int = 400, workers: int = 2) -> int:
    ids = card_ids(svg)
    if not ids:
        return 0
    d = out_dir / name
    d.mkdir(parents=True, exist_ok=True)
    jobs = [(svg, el, d / f"{label}.png", width) for label, el in ids.items()]
    with ThreadPoolExecutor(workers) as ex:
        ok = list(ex.map(_render_one, jobs))
    return sum(ok)


def fetch_npm_deck(name: str, cache: Path) -> dict[str, Path]:
    """The card files (label -> SVG) of npm deck ``name``, fetched into ``cache`` with ``npm pack``
    unless already there. Raises RuntimeError naming the package when npm is missing or fails."""
    import tarfile
    spec, folder, pattern, ranks, suits = NPM_DECKS[name]
    root = cache / spec.replace("/", "_").replace("@", "")
    if not (root / folder).is_dir():
        if shutil.which("npm") is None:
            raise RuntimeError(f"npm is needed to fetch the deck {name} ({spec}); install it (apt-get install npm)")
        root.mkdir(parents=True, exist_ok=True)
        r = subprocess.run(["npm", "pack", spec, "--silent", "--pack-destination", str(root)],
                           capture_output=True, text=True)
        tgz = sorted(root.glob("*.tgz"))
        if r.returncode != 0 or not tgz:
            raise RuntimeError(f"npm pack {spec} failed: {(r.stderr or r.stdout).strip()[-300:]}")
        with tarfile.open(tgz[0]) as t:
            t.extractall(root, filter="data")
    files = {label: root / folder / pattern.format(rank=ranks[label[:-1]], suit=suits[label[-1]]) for label in LABELS}
    missing = [str(f) for f in files.values() if not f.is_file()]
    if missing:
        raise RuntimeError(f"deck {name}: {len(missing)} card files missing, e.g. {missing[0]}")
    return files


def _render_file(args) -> bool:
    """One whole SVG file to a PNG ``width`` px wide, cropped to its opaque part."""
    svg, out, width = args
    if out.exists():
        return True
    tmp = out.with_suffix(".tmp.png")
    r = subprocess.run(["rsvg-convert", "-w", str(width), str(svg), "-o", str(tmp)], capture_output=True)
    if r.returncode != 0:
        tmp.unlink(missing_ok=True)
        return False
    return _keep_card(tmp, out)


def render_npm_deck(name: str, out_dir: Path, cache: Path, width: int = 400, workers: int = 2) -> int:
    """Fetch and render npm deck ``name`` to ``out_dir/name/<label>.png``; returns the cards rendered."""
    files = fetch_npm_deck(name, cache)
    d = out_dir / name
    d.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(workers) as ex:
        return sum(ex.map(_render_file, [(svg, d / f"{label}.png", width) for label, svg in files.items()]))
