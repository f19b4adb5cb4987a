"""From corner-index sightings to the tableau of a chosen game.

The steps, each a small function:

1. ``group_cards``: sightings of one label that sit at the offsets of one
   card's own corners are one physical card. Twins of a two-pack game sit
   elsewhere (another pile, or one fan step away) and stay apart.
2. ``register``: find where the game's layout lies in the photo. A
   similarity transform is found by voting (every card against every place
   it could be), then refined to a homography of the table plane from the
   matched pile heads, so a photo taken at an angle still gives straight
   rows and columns.
3. ``assign``: each card goes to an area and pile of the layout; within a
   fan, order follows the fan direction and the last card is exposed. How
   many cards a fan holds is fitted to where its indices lie and, where an
   index was missed, to the card edges the photo shows across the fan
   (``fan_edges``).
   Once each card's place, and so which way up it lies, is known, its name
   is weighed again: ``balance_suits`` (a colour whose suits the classifier
   splits far less evenly than a deal would), ``suits_from_pips`` (the big
   pips in view), ``sixes_and_nines`` (where the loop of an upright 6 or 9
   lies) and ``settle_copies`` (no more copies than the packs hold).
4. ``compose``: what the photo cannot show (face-down cards, the stock,
   cards under a squared pile) comes from the previous reading when there is
   one, else from what the rules say the deal holds, and every such
   assumption is a doubt.
5. ``explain_changes``: a later photo is compared with the previous state
   and the difference is told as moves, each checked for legality.

Geometry is in card widths on the table (see ``advisor.engine.Area``).
"""
from __future__ import annotations

import bisect
import functools
import heapq
import math
import re
import statistics
from collections import Counter, defaultdict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from advisor.cards import SUIT_NAME, SUIT_SYMBOL, Card
from advisor.engine import CARD_ASPECT, Area, Game, Layout, Loc, Move, Slot, State, a_or_an, count_word, get_game

# The reader's innermost loops in C (vision/_readfast.c: placing cards, and register's vote), built at install
# time where a C compiler is found. They give what the numpy versions give, bit for bit, in a fraction of the
# time (placing alone was a fifth to a quarter of a reading). USE_C = 0 makes the reader use the numpy versions
# (for comparisons); without a compiler they do the work.
try:
    from . import _readfast
except ImportError:
    _readfast = None
USE_C = 1

# Where the top-left index centre lies on a card, in card widths from its top-left corner,
# and the offset to the opposite (rotated) index. Typical of the decks we train on.
INDEX_CENTRE = np.array([0.12, 0.24])
INDEX_HEIGHT = 0.30          # index box height (rank + suit) in card widths: 0.26-0.37 in our decks, 0.21 on real eyeplay cards
OPPOSITE = np.array([1.0 - 2 * 0.12, CARD_ASPECT - 2 * 0.24])
LOW_CONFIDENCE = 0.5
MAX_FAN = 30
MAX_HIDDEN = 6            # face-down cards a mixed fan may hold under its first visible card
# Share of a fan step the first card seen may lie short of a whole number of steps from the fan's
# head and still have that many cards missed before it. It was 0.08 card widths, which is 0.27 of a
# Senior Wrangler step but 0.4 of a Pendulum one: a Pendulum packet's second card, seen alone at 0.84
# of a step, was read as its first. Held-out renders through the detector, wrong cards (seeds
# 1000-1019 of the nine games 2192 -> 2127, Senior Wrangler 555 -> 513, Pendulum 359 -> 344; Senior
# Wrangler 1000-1059 1707 -> 1659; 0.2 did less, 0.05 about as well; chosen on those, then Senior
# Wrangler 1060-1199 4666 -> 4620).
LEAD_SLACK = 0.12
MAX_GAP = 3.5             # fan steps between two cards seen in one fan (indices missed between them) before the chain breaks
# Whether that gap is also cut to half a step short of where the fan meets another pile's head (1: yes;
# ``_Arrays.reach``). Pendulum's rows lie 0.7 card widths apart, 3.5 packet steps: the head card of a row
# was taken for a packet card of the row above, past missed indices, and the row's place read empty, often
# with no doubt on the card lost. In no other game does a fan meet another pile's head within its gap.
REACH_GAP = 1
# Rounds in which a card that breaks its fan's chain tries its next cheapest place. Under Pendulum's
# rows the packets of every row above run down the same column, as near a card as the head it belongs to:
# four rounds ran out on them before the head. Held-out renders through the detector (session 33),
# Pendulum wrong cards, seeds 1000-1039: 349 -> 267 with REACH_GAP, -> 252 with 8 rounds; 200 layouts
# 2 560 -> 1 652 -> 1 157 (exact 6.0 -> 14.5 -> 26.0%; 1 155 as committed, with STACK_LOOK); the other
# eight games read the same.
LOCATE_ROUNDS = 8
# A card within this many fan steps of where a fan meets another pile's head is that pile's head card, not a
# card of the fan, unless the fan's previous card seen lies at most REACH_NEAR_GAP steps before it (no index
# missed between). Pendulum's next row begins at 3.5 packet steps, halfway between two steps of the packet
# above, so where the packet's indices were missed a row's head card was still taken for a packet card past
# them (and its own place read empty). Held-out renders through the detector, Pendulum wrong cards, seeds
# 1000-1039 (tried on): off 210; 0.3 208; 0.4 191; 0.5 198; 0.55 206; 0.6 260. Seeds 1040-1199 (checked
# after): off 854; 0.4 818; 0.45 881; 0.5 706 (35.0% exact, was 30.6%). Most of each total is a few photos
# whose whole alignment flips one way or the other (60-90 cards each); without those, at 0.5 25 photos read
# better and 7 worse (684 -> 630 wrong cards). Half a step is kept: a card nearer the head than either step.
# The other eight games read the same (no fan of theirs meets a head within its reach).
REACH_NEAR = 0.5
REACH_NEAR_GAP = 1.5
MAX_GAP_ALONE = 8.0       # the same, once the alignment is chosen, for a card no other pile could hold
ACROSS = 0.35             # how far (card widths) a card may lie beside the line of its fan


@dataclass
class SeenCard:
    """One physical card: its label, the top-left index centre in pixels and its evidence."""

    label: str
    anchor: tuple[float, float]
    conf: float
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    table: tuple[float, float] | None = None   # anchor on the table, after registration
    along: float | None = None                 # distance along its pile's fan from the pile's head
    others: list[str] = field(default_factory=list)   # other labels read on the same card (a misread index)
    readings: dict[str, float] = field(default_factory=dict)   # label -> how likely its indices say it (Sighting.readings)
    first_read: str | None = None              # the label first read, when the rules made the reader take another
    index_read: str | None = None              # the label its indices gave, when its pips or the photo's suit balance made it the other suit of its colour
    pips: int = 0                              # its pips judged (vision.pips)
    crowd: int = 0                             # copies of its label first read in the layout, when more than the packs hold


@dataclass
class Doubt:
    message: str
    area: str | None = None
    pile: int | None = None
    index: int | None = None
    kind: str = "doubt"


@dataclass
class Change:
    move: str
    says: str
    legal: bool | None
    reason: str | None = None


@dataclass
class Reading:
    state: State | None
    confidences: dict[tuple[str, int, int], float] = field(default_factory=dict)
    doubts: list[Doubt] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    sightings: list[Any] = field(default_factory=list)
    message: str = ""
    # fan places where the spacing says a card lies but no index was read, and places supposed face
    # down under a fan's first face-up card: (area, pile, index) -> the index box that card would
    # show face up, in pixels (for a second look at the photo, ``look_again``); index -1, -2, ...: the
    # places above a fan's first card where the deal allows more face-down cards than were read, and
    # one more (a box on the strip such a card would show; ``look_again`` uses them up)
    gaps: dict[tuple[str, int, int], tuple[float, float, float, float]] = field(default_factory=dict)
    # fans whose spacing fits one more card: (area, pile, index) -> the index box a card put before the
    # one now at ``index`` would show, the labels the cards on both sides of it were read as (``look_again``
    # checks the place is still between them), and how much worse that fit is than the length read (log-odds)
    one_more: dict[tuple[str, int, int], tuple[tuple[float, float, float, float], str, str, float]] = field(default_factory=dict)
    # places in the photo read empty, in a game that keeps every card on the table: (area, pile) -> the
    # index box its first card would show (``look_again`` asks the classifier there while cards are missing)
    empty: dict[tuple[str, int], tuple[float, float, float, float]] = field(default_factory=dict)
    # how well the state kept explains the photo, as the reader judged its alignments (higher is better;
    # None without a state): the photo's quarter turns are read apart and compared by it (``read_layout``)
    score: float | None = None
    # the homography from table (card widths) to photo pixels of the state kept (None without a state)
    alignment: np.ndarray | None = None
    # quarter turns (counter-clockwise) the photo was read turned by: its layout lay on its side, or upside down, in it
    turned: int = 0

    def to_json(self) -> dict:
        return {
            "game": self.state.game if self.state is not None else None,
            "state": self.state.to_json() if self.state is not None else None,
            "confidences": [{"area": a, "pile": p, "index": i, "conf": round(c, 3)}
                            for (a, p, i), c in sorted(self.confidences.items())],
            "doubts": [d.__dict__ for d in self.doubts],
            "changes": [c.__dict__ for c in self.changes],
            "sightings": [{"label": s.label, "box": [round(float(v), 1) for v in s.box], "conf": round(float(s.conf), 3)}
                          for s in self.sightings],
            "message": self.message,
            "turned_degrees": 90 * self.turned,
        }


# ------------------------------------------------------------------ 1. cards

# Two corner-index boxes that overlap more than this are one index seen twice: the
# detector sometimes keeps a second box slid about a third of an index along a tight fan,
# or names the same index twice, and either would be read as an extra card. Labelled indices
# never overlap more than 0.19 (all 5 065 of real-dev, and 1 630 in 20 rendered layouts), so
# no real index is lost by this.
SAME_INDEX = 0.3


def one_per_place(sightings: Sequence[Any], iou: float = SAME_INDEX) -> list:
    """The surest sighting of each place on the photo (see ``SAME_INDEX``), surest first."""
    from .detector import nms
    sightings = list(sightings)
    if len(sightings) < 2:
        return sightings
    boxes = np.array([s.box for s in sightings], dtype=float).reshape(-1, 4)
    return [sightings[k] for k in nms(boxes, np.array([float(s.conf) for s in sightings]), iou)]


def estimate_scale(sightings: Sequence[Any]) -> float:
    """Pixels per card width, from the median index box height."""
    hs = [s.box[3] - s.box[1] for s in sightings]
    return float(np.median(hs)) / INDEX_HEIGHT if hs else 1.0


def group_cards(sightings: Sequence[Any], scale: float, H: np.ndarray | None = None,
                opp: np.ndarray = OPPOSITE) -> list[SeenCard]:
    """Merge the sightings of one label that are corners of the same physical card.

    Without ``H`` offsets are judged in pixels at the median scale; with the
    table homography ``H`` they are judged on the table, free of perspective.
    """
    unit = 1.0 if H is not None else scale
    ax, ay = np.asarray(opp) * unit
    own_offsets = [(ax, 0.0), (0.0, ay), (ax, ay), (ax, -ay)]
    # Before the table is known perspective stretches offsets, so the first pass is lenient; it only feeds registration.
    tol = (0.16 if H is not None else 0.4) * unit
    # Corner indices differ in height (a court card's index may show its suit alone): more slack downwards.
    tol_y = (0.3 if H is not None else 0.4) * unit
    Hinv = np.linalg.inv(H) if H is not None else None
    all_centres = np.array([_centre(x.box) for x in sightings], dtype=float).reshape(-1, 2)
    all_judged = all_centres if Hinv is None else _apply(Hinv, all_centres)
    by_label: dict[str, list[int]] = defaultdict(list)
    for k, s in enumerate(sightings):
        by_label[s.label].append(k)
    cards = []
    for label, idx in by_label.items():
        parent = {k: k for k in idx}

        def find(k):
            while parent[k] != k:
                parent[k] = parent[parent[k]]
                k = parent[k]
            return k

        centres = {k: all_centres[k] for k in idx}
        judged = {k: tuple(all_judged[k]) for k in idx}
        pairs = []
        for a in idx:
            for b in idx:
                if a >= b:
                    continue
                dx, dy = abs(judged[a][0] - judged[b][0]), abs(judged[a][1] - judged[b][1])
                # (the extra slack downwards only on the diagonal: a twin one row below must stay apart)
                same_sign = (judged[a][0] - judged[b][0]) * (judged[a][1] - judged[b][1]) > 0    # a TL-BR diagonal
                if min(math.hypot((dx - ox) / tol, (dy - abs(oy)) / (tol_y if ox and oy > 0 and same_sign else tol))
                       for ox, oy in own_offsets) < 1.0:
                    pairs.append((a, b))
        # (whether another index lies between is asked of all a label's pairs at once: it is the costly test)
        for (a, b), covered in zip(pairs, _something_between(all_judged, pairs, 0.12 * unit)):
            if not covered:
                parent[find(a)] = find(b)
        groups: dict[int, list[int]] = defaultdict(list)
        for k in idx:
            groups[find(k)].append(k)
        for members in groups.values():
            # The top-left index is the one nearest the card's top-left: smallest x + y.
            members = sorted(members, key=lambda k: judged[k][0] + judged[k][1])
            # (in pixels, before the table is known, offsets are too rough to split a group by)
            for mine in _split_twins(members, judged, ax, ay, tol, tol_y) if H is not None else [members]:
                cards.append(SeenCard(label, centres[mine[0]], max(float(sightings[k].conf) for k in mine),
                                      [tuple(map(float, sightings[k].box)) for k in mine],
                                      readings=_pooled_readings([sightings[k] for k in mine])))
    if H is not None:
        _complete_corners(cards, Hinv, tol, opp)
        _merge_misread(cards, Hinv, tol, opp)
    return cards


def _pooled_readings(sightings: Sequence[Any]) -> dict[str, float]:
    """label -> the most any of one card's indices gives it (``Sighting.readings``)."""
    out: dict[str, float] = {}
    for s in sightings:
        _keep_likeliest(out, getattr(s, "readings", ()) or ())
    return out


def _keep_likeliest(into: dict[str, float], readings: Iterable[tuple[str, float]]) -> None:
    for label, p in readings:
        into[label] = max(p, into.get(label, 0.0))


def _split_twins(members: list[int], judged: dict, ax: float, ay: float, tol: float, tol_y: float) -> list[list[int]]:
    """One group of same-label indices (top-left first) split into cards.

    Chained pairs can join two twins: in a fan, one twin's far corner may lie level with
    the other's near one. A card is only the indices at its own corners from its top-left
    one; and an index that has a far corner of its own is some card's top-left index, so
    it is never taken as another card's side corner.
    """
    def off(k: int, m: int, ox: float, oy: float) -> float:
        return math.hypot((judged[m][0] - judged[k][0] - ox) / tol, (judged[m][1] - judged[k][1] - oy) / tol_y)

    heads = {k for k in members if any(off(k, m, ax, ay) < 1.0 for m in members)}
    out = []
    while members:
        k0 = members[0]
        mine = [k for k in members if k == k0 or off(k0, k, ax, ay) < 1.0
                or (k not in heads and min(off(k0, k, ax, 0.0), off(k0, k, 0.0, ay)) < 1.0)]
        members = [k for k in members if k not in mine]
        out.append(mine)
    return out


def _merge_misread(cards: list[SeenCard], Hinv: np.ndarray, tol: float, opp: np.ndarray = OPPOSITE) -> None:
    """Two one-index cards of different labels at two corners of one card are one card misread.

    The far (rotated) corner is one such place. Four-corner decks add the top-right and
    bottom-left ones; there the two labels must also be plausible readings of one index
    (the same rank, or one among the other's ``readings``), since a card of a tight row or
    fan may lie about that far away. A corner that a card lying on this one covers shows
    nothing. The surer label is kept; the other is remembered for a doubt.
    """
    lone = [c for c in cards if len(c.boxes) == 1]
    if len(lone) < 2:
        return
    pts = _apply(Hinv, np.array([c.anchor for c in lone]))
    # every index seen, not only each card's anchor: in a four-corner deck the top-right index of the
    # card below may be all that shows a lone index is covered (two of one rank in a column otherwise
    # pair up as one card's top and bottom corners)
    every = _apply(Hinv, np.array([_centre(b) for c in cards for b in c.boxes]))
    d = every[None, :, :] - pts[:, None, :]                                          # [a, other]
    down = ((np.abs(d[..., 0]) < 0.2) & (d[..., 1] > 0.05) & (d[..., 1] < opp[1] - 0.1)).any(axis=1)
    across = ((np.abs(d[..., 1]) < 0.2) & (d[..., 0] > 0.05) & (d[..., 0] < opp[0] - 0.1)).any(axis=1)
    rel = pts[None, :, :] - pts[:, None, :]                                          # [a, b]: b - a
    corners = ((opp, ~(down | across), False),
               (np.array([opp[0], 0.0]), ~across, True),
               (np.array([0.0, opp[1]]), ~down, True))
    gone: set[int] = set()
    for offset, shows, must_look_alike in corners:
        near = (np.linalg.norm(rel - offset, axis=2) < tol) & shows[:, None]
        for a, b in zip(*np.nonzero(near)):
            if a == b or a in gone or b in gone or lone[a].label == lone[b].label:
                continue
            if must_look_alike and not _look_alike(lone[a], lone[b]):
                continue
            keep, other = (lone[a], lone[b]) if lone[a].conf >= lone[b].conf else (lone[b], lone[a])
            keep.others.append(other.label)
            if keep is lone[b]:        # the anchor is the near (top-left) index
                keep.anchor = lone[a].anchor
            keep.boxes = lone[a].boxes + lone[b].boxes
            _keep_likeliest(keep.readings, other.readings.items())
            gone.add(b if keep is lone[a] else a)
    drop = {id(lone[k]) for k in gone}
    cards[:] = [c for c in cards if id(c) not in drop]


# Whether two cards of two indices each, of labels one index could give, at the four corners of one card with
# nothing between, are one card (1) or only a lone index joins a card that way (0). A card of a four-corner deck
# lying whole at a fan's end may read one label at its top corners and another at its bottom ones; apart,
# the second looked like one more card of the fan beyond its end.
COMPLETE_PAIRS = 1


def _complete_corners(cards: list[SeenCard], Hinv: np.ndarray, tol: float, opp: np.ndarray = OPPOSITE) -> None:
    """Cards whose indices together lie at the corners of one card, with nothing on it between, are one card.

    A fully shown card of a four-corner deck may give three indices one label and the fourth
    another, or its indices of one label may pair up as two cards (the offsets of a deck with
    tall cards): the label the most indices agree on is kept, the other remembered for a
    doubt. Two labels must be readings one index could give (``_look_alike``), and one side
    must be a lone index, or (``COMPLETE_PAIRS``) both two indices, of which the label all four make
    likeliest is kept (``_label_odds``). No other index may lie inside the card or on an edge between its
    corners: one that does shows the card is covered there, by a card lying further along.
    """
    every = _apply(Hinv, np.array([_centre(b) for c in cards for b in c.boxes]).reshape(-1, 2))
    owner = np.array([k for k, c in enumerate(cards) for _ in c.boxes])
    at = np.split(every, np.cumsum([len(c.boxes) for c in cards])[:-1])       # each card's points
    # (indices at one card's corners lie within a card's diagonal of each other: only such pairs are tried)
    middle = np.array([p.mean(axis=0) for p in at]).reshape(-1, 2)
    reach = float(np.hypot(*opp)) + 2 * tol
    # (points spaced so within each card and across two cards are so together: each card's own is kept, and
    # only the pairs across are asked, all of one card's neighbours at once)
    spaced = np.array([_corner_spaced(p, 2 * tol, opp) for p in at], bool)
    gone: set[int] = set()
    for k, c in enumerate(cards):
        if k in gone or not spaced[k]:
            continue
        around = [m for m in map(int, np.flatnonzero(np.hypot(*(middle - middle[k]).T) < reach))
                if m != k and m not in gone and spaced[m]
                and max(2, len(c.boxes)) <= len(cards[m].boxes) <= 4 - len(c.boxes)]
        for m, fits in zip(around, _spaced_across(at[k], [at[m] for m in around], 2 * tol, opp)):
            if not fits:
                continue
            card = cards[m]
            pts = np.concatenate([at[k], at[m]])
            if card.label != c.label and ((len(c.boxes) > 1 and not COMPLETE_PAIRS) or not _look_alike(card, c)):
                continue
            if not _one_card(pts, tol, opp):
                continue
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            o = every[(owner != k) & (owner != m)]
            # inside the card, or on an edge between two corners (a row or column lying on it)
            between = (o > lo + 0.12) & (o < hi - 0.12)
            near = (o > lo - 0.12) & (o < hi + 0.12)
            if ((between[:, 0] & near[:, 1]) | (between[:, 1] & near[:, 0])).any():
                continue
            if c.label != card.label:
                # the label more indices give; between two indices each, the one all four make likelier
                if len(c.boxes) == len(card.boxes) and _label_odds(c, card) > 0:
                    card.label, other = c.label, card.label
                else:
                    other = c.label
                card.others.append(other)
            else:
                card.conf = max(card.conf, c.conf)
            card.boxes = card.boxes + c.boxes
            _keep_likeliest(card.readings, c.readings.items())
            if at[k].sum(axis=1).min() < at[m].sum(axis=1).min():
                card.anchor = c.anchor       # the anchor is the top-left index
            owner[owner == k] = m
            at[m] = pts           # (spaced, having passed)
            middle[m] = pts.mean(axis=0)
            gone.add(k)
            break
    cards[:] = [c for k, c in enumerate(cards) if k not in gone]


def _label_odds(a: SeenCard, b: SeenCard) -> float:
    """How much likelier (log) ``a``'s label is than ``b``'s for one card that shows the indices of both, each
    index weighed by its card's pooled readings (``_two_readings``, at least ``RELABEL_MIN``)."""
    odds = 0.0
    for c in (a, b):
        pa, pb = _two_readings(c, a.label, b.label, RELABEL_MIN)
        odds += len(c.boxes) * (math.log(pa) - math.log(pb))
    return odds


def _corner_spaced(pts: np.ndarray, tol: float, opp: np.ndarray) -> bool:
    """Whether every two of the table points ``pts`` lie level or a card's side (``opp``) apart along each
    axis, within ``tol``: true of any points at corners of one card (within half ``tol`` of them), and
    cheap, so most pairs of cards that are not one are told so before ``_one_card``."""
    d = np.abs(pts[:, None, :] - pts[None, :, :])
    return bool(np.all((d < tol) | (np.abs(d - opp) < tol)))


def _spaced_across(pts: np.ndarray, others: Sequence[np.ndarray], tol: float, opp: np.ndarray) -> np.ndarray:
    """For each point set of ``others``, whether each of its points and each of ``pts`` lie as ``_corner_spaced``
    asks: with both sets spaced so themselves, the two together are."""
    if not others:
        return np.zeros(0, bool)
    q = np.concatenate(others)
    d = np.abs(pts[:, None, :] - q[None, :, :])
    ok = ((d < tol) | (np.abs(d - opp) < tol)).all(axis=(0, 2))
    return np.logical_and.reduceat(ok, np.cumsum([0] + [len(o) for o in others[:-1]]))


def _one_card(pts: np.ndarray, tol: float, opp: np.ndarray) -> bool:
    """Whether the table points ``pts`` lie at distinct corners of one card (``opp`` apart)."""
    for p in pts:
        for sx in (1.0, -1.0):
            for sy in (1.0, -1.0):
                corners = p + np.array([[0.0, 0.0], [sx * opp[0], 0.0], [0.0, sy * opp[1]], [sx * opp[0], sy * opp[1]]])
                d = np.linalg.norm(pts[:, None, :] - corners[None, :, :], axis=2)
                at = d.argmin(axis=1)
                if (d.min(axis=1) < tol).all() and len(set(at.tolist())) == len(pts):
                    return True
    return False


def _look_alike(a: SeenCard, b: SeenCard) -> bool:
    """Two readings one index could give: the same rank, or one label among the other's likely readings."""
    return (Card.parse(a.label).rank == Card.parse(b.label).rank
            or a.readings.get(b.label, 0.0) >= RELABEL_MIN or b.readings.get(a.label, 0.0) >= RELABEL_MIN)


def _something_between(pts: np.ndarray, pairs: Sequence[tuple[int, int]], margin: float) -> np.ndarray:
    """For each pair (a, b) of indices, whether another index lies inside the rectangle the two span: so they
    are not one uncovered card."""
    if not len(pairs):
        return np.zeros(0, bool)
    ab = np.asarray(pairs, dtype=int).reshape(-1, 2)
    A, B = pts[ab[:, 0]], pts[ab[:, 1]]
    lo = np.minimum(A, B) + margin
    hi = np.maximum(A, B) - margin
    # along an axis where the two lie level (a column, or a row fanned sideways) the band is widened instead
    flat = (hi <= lo) * margin * 2
    inside = np.all((pts[None] >= (lo - flat)[:, None]) & (pts[None] <= (hi + flat)[:, None]), axis=2)   # [pair, index]
    rows = np.arange(len(ab))
    inside[rows, ab[:, 0]] = False
    inside[rows, ab[:, 1]] = False
    return inside.any(axis=1)


def _centre(box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)


def rectifier(sightings: Sequence[Any]) -> np.ndarray:
    """A homography of the photo that undoes the perspective of the table plane up to an affine map.

    Seen at an angle, near indices look bigger than far ones. For a plane,
    the cube root of an index's area in the photo is a linear function of
    where it lies (it is ``l . p``, with ``l`` the image of the horizon
    line), so a robust plane fit of the cube roots gives ``l``, and
    ``p -> p / (l . p)`` maps the photo to an affine image of the table.
    Identity when the sizes show no clear slope or there are too few indices.
    """
    if len(sightings) < 8:
        return np.eye(3)
    b = np.array([s.box for s in sightings], dtype=float)
    c = np.c_[(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2]
    area = np.clip((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]), 1e-6, None)
    y = np.cbrt(area)
    mid = np.median(c, axis=0)
    spread = max(float(np.ptp(c[:, 0])), float(np.ptp(c[:, 1])), 1.0)
    X = np.c_[(c - mid) / spread, np.ones(len(c))]
    keep = np.ones(len(c), bool)
    coef = None
    for _ in range(3):
        if keep.sum() < 8:
            return np.eye(3)
        coef, *_ = np.linalg.lstsq(X[keep], y[keep], rcond=None)
        res = np.abs(X @ coef - y)
        mad = float(np.median(res[keep])) + 1e-9
        keep = res < 3.0 * 1.4826 * mad
    a, bb, k = coef
    if k <= 0:
        return np.eye(3)
    pred = X @ coef
    if pred.min() <= 0.3 * k or pred.max() / pred.min() < 1.08:
        return np.eye(3)      # no clear slope, or a fit that puts the horizon inside the photo
    # l . p in pixels, normalised to 1 at the middle of the cards
    l = np.array([a / spread / k, bb / spread / k, 1.0 - (a * mid[0] + bb * mid[1]) / spread / k])
    P = np.array([[1.0, 0, 0], [0, 1.0, 0], l])
    # keep the middle of the cards where it was
    m = _apply(P, mid)[0]
    return np.array([[1, 0, mid[0] - m[0]], [0, 1, mid[1] - m[1]], [0, 0, 1.0]]) @ P


def estimate_opposite(sightings: Sequence[Any], H: np.ndarray, span: tuple | None = None) -> np.ndarray:
    """Offset on the table from a card's top-left index to its rotated bottom-right one, for this deck.

    Decks differ (corner indices sit 0.08-0.13 card widths in, cards are
    1.33-1.67 widths tall): pairs of sightings of one label whose table
    offset lies in ``span`` (default ``OPPOSITE_RANGE``) show this deck's;
    their median is taken when at least three agree.
    """
    try:
        tab = _apply(np.linalg.inv(H), np.array([_centre(s.box) for s in sightings], dtype=float))
    except np.linalg.LinAlgError:
        return OPPOSITE
    by_label: dict[str, list[int]] = defaultdict(list)
    for k, s in enumerate(sightings):
        by_label[s.label].append(k)
    offs = []
    for idx in by_label.values():
        if len(idx) < 2:
            continue
        pts = tab[idx]
        d = (pts[None, :, :] - pts[:, None, :]).reshape(-1, 2)
        lo, hi = span or OPPOSITE_RANGE
        offs.extend(d[np.all((d > lo) & (d < hi), axis=1)])
    if len(offs) < 3:
        return OPPOSITE
    # The deck's offset is the one most pairs agree on; other pairs are twins or chance.
    offs = np.array(offs)
    near = np.linalg.norm(offs[:, None, :] - offs[None, :, :], axis=2) < OPPOSITE_AGREE
    k = int(np.argmax(near.sum(axis=1)))
    if near[k].sum() < 3:
        return OPPOSITE
    return np.median(offs[near[k]], axis=0)


# Card widths: the offsets a deck's far index may have from its near one (decks: 0.74-0.84 across,
# 0.85-1.25 down, as cards are 1.33-1.67 widths tall), and how closely pairs of one deck agree.
OPPOSITE_RANGE = (np.array([0.55, 0.6]), np.array([1.0, 1.55]))
OPPOSITE_AGREE = 0.1
# The same in pixels over ``estimate_scale``, before the table is known. That scale takes every
# deck's index to be INDEX_HEIGHT tall, and decks' indices are 0.21-0.37 card widths tall, so an
# offset may look up to about 1.4 times larger or smaller; perspective adds to it.
PIXEL_OPPOSITE_RANGE = (np.array([0.4, 0.45]), np.array([1.5, 2.2]))


def first_grouping(sightings: Sequence[Any], scale: float) -> list[SeenCard]:
    """The cards the sightings make before the table is known, paired by this deck's own corner
    offset (in pixels over ``scale``) where it pairs more indices into cards than ``OPPOSITE`` does.

    A deck with small indices on tall cards (gnome-orell) has its far index much further from
    the near one than ``OPPOSITE`` says, and with every card counted twice no alignment fits.
    But the pairs that agree on an offset are not always one card's corners: on some real-dev
    photos of rows of cards they agree on another offset, which pairs fewer (up to a third more cards).
    """
    usual = group_cards(sightings, scale)
    own = estimate_opposite(sightings, np.diag([scale, scale, 1.0]), PIXEL_OPPOSITE_RANGE)
    if np.allclose(own, OPPOSITE):
        return usual
    mine = group_cards(sightings, scale, opp=own)
    return mine if len(mine) < len(usual) else usual


# -------------------------------------------------------------- 2. register

@dataclass
class Place:
    area: Area
    pile: int
    table: np.ndarray     # index centre of the pile's first card, on the table
    first: np.ndarray     # index centre of its first face-up card, as the deal (or last photo) has it
    filled: bool = False  # the deal (or last photo) has cards there


def places(layout: Layout, template: State | None = None) -> list[Place]:
    """Every on-table pile, with where its first *visible* card should lie (face-down cards are not seen)."""
    out = []
    for a in layout.areas:
        if not _visible_area(a):
            continue
        for i in range(a.count):
            head = np.array(a.position(i, 0)) + INDEX_CENTRE
            hidden = 0
            filled = False
            if template is not None and i < len(template.areas.get(a.name, [])):
                pile = template.areas[a.name][i]
                filled = bool(pile)
                while hidden < len(pile) and not pile[hidden].face_up:
                    hidden += 1
            out.append(Place(a, i, head, head + hidden * np.array(a.fan), filled))
    return out


def _visible_area(a: Area) -> bool:
    """Areas whose cards a photo can show: on the table, not face down, with a fixed number of piles."""
    return a.on_table and a.kind != "facedown" and a.face != "down" and a.count > 0


def _fan_points(p: Place, n: int = 8) -> list[np.ndarray]:
    fan = np.array(p.area.fan)
    if not fan.any():
        return [p.table]
    return [p.first + j * fan for j in range(n)]


VOTED = 200          # alignments scored after voting
HASH = 4096          # vote bins (hashed)
MAX_VOTERS = 70      # cards that vote
SCALES = np.array([0.72, 0.8, 0.88, 0.96, 1.05, 1.15, 1.26, 1.38])   # of the scale the index heights suggest
TURNS = range(-30, 31, 3)   # degrees the layout may be turned in the photo
BIN = 0.3           # card widths: vote bins, coarse (the pose grid is coarse too); refining does the rest
PER_POSE = 3         # alignments kept per turn, scale and foreshortening
# Where fans are stepped closer than a vote bin (Pendulum's packets), a fan's further steps crowd the
# bins beside the true translation, which then comes fourth to sixth in its pose as often as first:
# half a pixel of change in the boxes could drop it, and the whole layout was read a row off. The
# next DEEPER bins of each pose are then kept apart: their best DEEPER_SCORED by votes are scored and
# their best DEEPER_REFINED by fit refined, besides (never instead of) the alignments kept as before.
# Not for other layouts: there they let random scatters fit too (session 29, docs/benchmarks.md).
DEEPER = 3
DEEPER_SCORED = 30
DEEPER_REFINED = 2


def register(cards: Sequence[SeenCard], layout: Layout, scale: float, template: State | None = None,
             P: np.ndarray | None = None, opp: np.ndarray = OPPOSITE) -> list[tuple[float, np.ndarray]]:
    """Homographies mapping table coordinates (card widths) to pixels, best first, each with its fit.

    ``P`` (see ``rectifier``) takes the photo to an affine image of the
    table; there an affine map is found by voting: every card against every
    place it could be, for each turn, scale and foreshortening (the layout
    looks squashed along the direction the camera tilts). The best are
    refined to homographies of the photo. The fit is the share of cards
    that lie where the layout can hold them, less a small penalty for loose
    fits (see ``_fit_score``).
    """
    pl = places(layout, template)
    if not cards or not pl:
        return [(0.0, np.eye(3))]
    P = np.eye(3) if P is None else P
    Pinv = np.linalg.inv(P)
    q = np.array([c.anchor for c in cards], dtype=float)
    qr = _apply(P, q)
    # Voting with every card is slow and no surer than with a good share of them.
    qr_vote = qr if len(qr) <= MAX_VOTERS else qr[np.random.default_rng(0).choice(len(qr), MAX_VOTERS, replace=False)]
    qx, qy = qr_vote[:, 0].copy(), qr_vote[:, 1].copy()
    slot_sets = [np.array([pt for p in pl for pt in _fan_points(p, 4)], dtype=float)]
    fine_fans = any(0.0 < math.hypot(*p.area.fan) < BIN for p in pl)
    deep = DEEPER if fine_fans else 0
    if fine_fans:
        # A fan stepped closer than a vote bin puts the votes of its further steps in the bins beside
        # the true one, where they can outvote it: Pendulum's packets (fanned 0.2 widths, rows 0.7
        # apart) were read a row or two off. A second vote with pile heads alone finds those; the
        # first still finds the layouts it did.
        slot_sets.append(np.array([p.first for p in pl], dtype=float))
    # The direction the camera tilts: the horizon's normal, else the photo's vertical.
    g = P[2, :2]
    g = g / np.linalg.norm(g) if np.linalg.norm(g) > 1e-12 else np.array([0.0, 1.0])
    # One or two cards cannot show by where they lie how the layout is turned or scaled: take the
    # photo as upright, or turned as their own corners show.
    few = len(cards) <= 2
    few_turn = _corner_turn(cards) if few and CORNER_TURN else None
    n_scored = VOTED if len(cards) > 6 else 8 * VOTED
    votes_seen: list[int] = []            # the votes of every alignment so far, in order

    def outvoted(n: int) -> bool:
        """Whether n_scored alignments so far have at least ``n`` votes (this one is counted, too)."""
        beaten = len(votes_seen) - bisect.bisect_left(votes_seen, n) >= n_scored
        bisect.insort(votes_seen, n)
        return beaten
    squash = [1.0] if few else [1.0, 0.82, 0.67, 0.55, 0.45]
    scored = []
    scored_extra: list = []
    degs = [few_turn or 0] if few else list(TURNS)
    ranks = (PER_POSE + deep) if len(cards) > 6 else 100
    rotations = np.array([[[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]]
                          for th in map(math.radians, degs)])
    for near_slots in slot_sets:
        candidates = []
        extra: list = []
        found_extra = 0
        votes_seen.clear()
        for f in squash:
            M = np.eye(2) + (f - 1.0) * np.outer(g, g)
            # (where their corners show the turn, the scale is still voted for: two cards can say it)
            for s in scale * (np.array([1.0]) if few and few_turn is None else SCALES / f):
                Rs = (s * M) @ rotations                                           # turns x 2 x 2
                # every card against every slot: the translation that would put it there, x and y apart,
                # for every turn at once (one turn at a time, the calls cost more than the arithmetic)
                sl = near_slots @ Rs.transpose(0, 2, 1)                            # turns x slots x 2
                tops, mean = _pose_votes(qx, qy, sl, BIN * s * f, ranks)
                for t, R in enumerate(Rs):
                    for grid, top in enumerate(tops):
                        for rank, (k, n) in enumerate(top[t]):
                            if n < (1 if few else 2):
                                break
                            deeper = len(cards) > 6 and rank >= PER_POSE
                            # Every unsquashed pose may be scored; another only if its votes still rank it
                            # among the n_scored best (later ones only push it further down). Making the
                            # alignments that cannot be scored took a tenth of the reading time.
                            if not deeper and outvoted(n) and f != 1.0:
                                continue
                            if deeper and len(extra) >= DEEPER_SCORED and n <= extra[0][0]:
                                continue     # (fewer votes than every deeper bin kept: not worth its mean)
                            tt = mean(grid, t, rank)     # the bin's mean translation
                            A = np.array([[R[0, 0], R[0, 1], tt[0]], [R[1, 0], R[1, 1], tt[1]], [0, 0, 1.0]])
                            if deeper:
                                # the best DEEPER_SCORED by votes, in a heap (ties: the first found)
                                item = (n, -found_extra, Pinv @ A)
                                found_extra += 1
                                (heapq.heappush if len(extra) < DEEPER_SCORED else heapq.heapreplace)(extra, item)
                            else:
                                candidates.append((0.0, n, Pinv @ A, f))
        # Votes are cheap; scoring is not: score only the alignments with the most votes.
        candidates.sort(key=lambda c: -c[1])
        # the unsquashed poses are scored in any case: squashing adds look-alikes that may outvote them
        # (the heads' vote is sharper: its best half-share holds every alignment the full share found,
        # on 20 Pendulum renders and 30 fakes)
        keep = n_scored if near_slots is slot_sets[0] else n_scored // 2
        scored += candidates[:keep] + [c for c in candidates[keep:] if c[3] == 1.0][:VOTED // 3]
        scored_extra += [(n, H) for n, _, H in sorted(extra, key=lambda c: (-c[0], -c[1]))]
    fits = _fit_scores([H for _, _, H, _ in scored] + [H for _, H in scored_extra], q, pl)
    candidates = [(fit, v, H) for fit, (_, v, H, _) in zip(fits, scored)]
    deeper_cands = [(fit, v, H) for fit, (v, H) in zip(fits[len(scored):], scored_extra)]
    # Periodic layouts (rows of equal spacing) have shifted look-alikes, and an affine map fits
    # only part of a layout seen at an angle: refine the alignments that explain the most
    # cards and those with the most votes, each to a homography, and rank them.
    by_fit = sorted(candidates, key=lambda c: (-c[0], -c[1]))[:REFINED]
    by_fit += sorted(deeper_cands, key=lambda c: (-c[0], -c[1]))[:DEEPER_REFINED]
    by_votes = sorted(candidates, key=lambda c: (-c[1], -c[0]))[:REFINED // 2]
    refined: list[tuple[float, np.ndarray]] = []
    tried: set[int] = set()
    todo = []
    for _, _, H in by_fit + by_votes:
        if id(H) in tried:           # among the most voted and the best fitting both
            continue
        tried.add(id(H))
        todo.append(H)
    # Every alignment's first refit is needed whatever the others give: start them all on the other
    # core (each point set once), and refine one by one as before.
    fitted: dict[bytes, Any] = {}
    far_of = _far_indices(cards)
    firsts = []
    for H in todo:
        points = _refit_points(H, q, pl, opp, far_of)
        firsts.append(points)
        if points is not None:
            key = points[0].tobytes() + points[1].tobytes()
            if key not in fitted:
                fitted[key] = _refit_ahead(*points)
    for H, points in zip(todo, firsts):
        H, fit = _refine(H, cards, pl, scale, opp, refined, fitted, far_of, points)
        refined.append((fit, H))
    refined.sort(key=lambda c: -c[0])
    return _distinct(refined, pl, scale)


REFINED = 12         # alignments refined to a homography

# A card seen at two corners side by side (or one above the other) shows how the layout is turned:
# the line between them runs along the card's edge. Pairs further than this (degrees) off the photo's
# axes are taken for a diagonal (top-left to bottom-right), whose slope depends on the deck: 45-59
# degrees in ours, so a layout turned under 10 degrees never takes one for an edge.
CORNER_TURN = 1
CORNER_AXIS = 20.0


def _corner_turn(cards: Sequence[SeenCard]) -> float | None:
    """How far (degrees) the cards are turned in the photo, from the indices of one card that lie
    along one of its edges; None if no card shows two such indices."""
    turns = []
    for c in cards:
        pts = [np.array(_centre(b)) for b in c.boxes]
        for a in range(len(pts)):
            for b in range(a + 1, len(pts)):
                dx, dy = pts[b] - pts[a]
                off = (math.degrees(math.atan2(dy, dx)) + 45.0) % 90.0 - 45.0       # its angle to the nearest photo axis
                if abs(off) <= CORNER_AXIS:
                    turns.append(off)
    return float(np.median(turns)) if turns else None


# Vote bins are hashed from floor(u) in two's complement: only the low bits of the hash are kept, so
# floor(u) + VOTE_OFFSET (a multiple of HASH) hashes alike, and truncating u + VOTE_OFFSET (positive for
# any translation a photo holds) gives it without a floor pass, in 32-bit arithmetic.
VOTE_OFFSET = 1 << 20


def _vote_bins(ux: np.ndarray, uy: np.ndarray, shift: float) -> np.ndarray:
    """The hashed vote bin of each translation (in bin widths), the grid shifted ``shift`` of a bin."""
    bx = (ux + (shift + VOTE_OFFSET)).astype(np.int32)
    bx *= np.int32(73856093)
    by = (uy + (shift + VOTE_OFFSET)).astype(np.int32)
    by *= np.int32(19349663)
    bx ^= by
    bx &= np.int32(HASH - 1)
    return bx


def _pose_votes(qx: np.ndarray, qy: np.ndarray, sl: np.ndarray, width: float, ranks: int):
    """``register``'s vote at one pose: every card (``qx``, ``qy``) against every slot (``sl``: turns x
    slots x 2, turned and scaled) gives the translation that would put it there. Translations are voted
    into hashed bins of ``width``, twice (the second grid shifted half a bin, so that a cluster on a bin
    edge is not split); a hash collision only adds a stray vote.

    Returns ``(tops, mean)``: ``tops[g][t]`` the ``ranks`` fullest bins of grid g and turn t as (bin, votes),
    fullest first (``_top_bins_each``), and ``mean(g, t, rank)`` the mean translation of that bin's votes."""
    T = len(sl)
    if _readfast is not None and USE_C:
        k = np.empty((2, T, ranks), np.int64)
        n = np.empty((2, T, ranks), np.int64)
        tt = np.empty((2, T, ranks, 2))
        _readfast.vote(qx, qy, np.ascontiguousarray(sl, dtype=float), T, len(qx), sl.shape[1], float(width), HASH,
                       ranks, k, n, tt)
        kl, nl = k.tolist(), n.tolist()
        return [[[(b, v) for b, v in zip(kl[g][t], nl[g][t]) if v > 0] for t in range(T)] for g in range(2)], \
            lambda g, t, rank: tt[g, t, rank]
    tx = (qx[None, :, None] - sl[:, None, :, 0]).reshape(T, -1)
    ty = (qy[None, :, None] - sl[:, None, :, 1]).reshape(T, -1)
    ux, uy = tx / width, ty / width
    turn_offsets = HASH * np.arange(T)[:, None]      # each turn's votes in bins of its own
    flats, tops = [], []
    for shift in (0.0, 0.5):
        flats.append(flat := _vote_bins(ux, uy, shift))
        counts = np.bincount((flat + turn_offsets).ravel(), minlength=HASH * T).reshape(T, HASH)
        tops.append(_top_bins_each(counts, ranks))

    def mean(g: int, t: int, rank: int) -> np.ndarray:
        # (only the bins still wanted after the vote count's cuts: most are not)
        hit = flats[g][t] == tops[g][t][rank][0]
        return np.stack([tx[t][hit], ty[t][hit]], axis=1).mean(axis=0)
    return tops, mean


def _top_bins_each(counts: np.ndarray, n: int) -> list[list[tuple[int, int]]]:
    """The ``n`` fullest bins of each row of ``counts`` (one row a turn), fullest first, as (bin, votes);
    ``counts`` is used up. A row's list ends at its first empty bin.

    (Passes of argmax, one a rank for every row at once: a partial sort of all the bins, a thousand
    poses a reading, cost more than the voting itself.)"""
    rows = np.arange(len(counts))
    out: list[list[tuple[int, int]]] = [[] for _ in rows]
    live = np.ones(len(counts), bool)
    for _ in range(min(n, counts.shape[1])):
        k = counts.argmax(axis=1)
        v = counts[rows, k]
        live &= v > 0
        if not live.any():
            break
        kl, vl = k.tolist(), v.tolist()
        for r in np.flatnonzero(live).tolist():
            out[r].append((kl[r], vl[r]))
        counts[rows, k] = -1
    return out


def _distinct(cands: list[tuple[float, np.ndarray]], pl: Sequence[Place], scale: float) -> list[tuple[float, np.ndarray]]:
    """Drop alignments that put every place where a better one already puts it."""
    out: list[tuple[float, np.ndarray]] = []
    seen: list[np.ndarray] = []
    for f, H in cands:
        px = _heads_in_photo(H, pl)
        if px is None or any(_same_places(px, o, scale) for o in seen):
            continue
        seen.append(px)
        out.append((f, H))
    return out


def _heads_in_photo(H: np.ndarray, pl: Sequence[Place]) -> np.ndarray | None:
    """Where an alignment puts the pile heads in the photo; None if it takes one out of the picture."""
    px = _apply(H, _Arrays.of(pl).heads)
    return px if np.isfinite(px).all() else None


def _same_places(px: np.ndarray, other: np.ndarray, scale: float) -> bool:
    """Whether two alignments' pile heads (``_heads_in_photo``) lie in the same places."""
    return bool(np.median(np.linalg.norm(px - other, axis=1)) < 0.25 * scale)


class _Arrays:
    """The places as arrays, computed once per list of places (scoring runs hundreds of times a reading)."""

    _cache: dict[int, tuple[Sequence[Place], "_Arrays"]] = {}

    def __init__(self, pl: Sequence[Place]):
        self.heads = np.array([p.table for p in pl], dtype=float).reshape(-1, 2)
        self.firsts = np.array([p.first for p in pl], dtype=float).reshape(-1, 2)
        self.fans = np.array([p.area.fan for p in pl], dtype=float).reshape(-1, 2)
        self.flen = np.linalg.norm(self.fans, axis=1)
        self.unit = np.where(self.flen[:, None] > 0, self.fans / np.maximum(self.flen, 1e-9)[:, None], 0.0)
        self.open_fan = np.array([p.area.face == "up" for p in pl], dtype=bool)
        self.filled = np.array([p.filled for p in pl], dtype=bool)
        # How far along its fan a place runs before it meets another pile's head (inf where it never does):
        # a card seen that far on from the one before lies there, not a few missed indices further on.
        d = self.heads[None, :, :] - self.heads[:, None, :]                   # P x P: from place p to head q
        ahead = (d * self.unit[:, None, :]).sum(axis=2)
        beside = np.abs(d[..., 0] * self.unit[:, None, 1] - d[..., 1] * self.unit[:, None, 0])
        meets = (self.flen[:, None] > 0) & (ahead > 0.05) & (beside < ACROSS / 2)
        self.reach = np.where(meets, ahead, np.inf).min(axis=1) if len(pl) else np.zeros(0)

    @classmethod
    def of(cls, pl: Sequence[Place]) -> "_Arrays":
        hit = cls._cache.get(id(pl))
        if hit is None or hit[0] is not pl:
            if len(cls._cache) > 64:
                cls._cache.clear()
            hit = (pl, cls(pl))
            cls._cache[id(pl)] = hit
        return hit[1]


def _fit_score(H: np.ndarray, q: np.ndarray, pl: Sequence[Place]) -> float:
    """Share of cards that sit where the layout can hold them (fans must start at their head), less
    a small penalty for loose fits, plus a smaller bonus for cards where the last state (or the deal)
    had some (see ``_fit_scores``)."""
    return _fit_scores([H], q, pl)[0]


TIGHT = 0.1     # card widths: how far off its slot a card still fits snugly


def _fit_scores(Hs: Sequence[np.ndarray], q: np.ndarray, pl: Sequence[Place], chunk: int = 24) -> list[float]:
    """The fit of each alignment: the share of cards that sit where the layout can hold them (fans
    must start at their head), less a small penalty for loose fits, plus a smaller bonus for cards
    where the last state (or the deal) had some; 0 for a map that takes the cards nowhere.

    Scored ``chunk`` alignments at a time: the per-place work for the chunk at once (register scores
    hundreds; one by one that took a fifth of a Pendulum reading), the sums one alignment at a time,
    so that the numbers do not depend on the chunk.
    """
    out = [0.0] * len(Hs)
    tabs, which = [], []
    for i, H in enumerate(Hs):
        tab = _on_table(H, q)
        if tab is not None:
            tabs.append(tab)
            which.append(i)
    if not which:
        return out
    arr = _Arrays.of(pl)
    for lo in range(0, len(which), chunk):
        tab = np.stack(tabs[lo:lo + chunk])                      # K x N x 2
        owner, along, ok = _locate_many(tab, pl)
        own = np.maximum(owner, 0)
        # Ties between look-alike alignments (shifted by a fan step or a row) go to the tighter fit:
        # squared places and fan heads close to where the card lies, fans straight.
        resid = np.linalg.norm(tab - arr.firsts[own], axis=2)
        fans = arr.flen[own]
        # the first card of each place: smallest along among the place's fitting cards
        first = np.zeros(owner.shape, bool)
        if ok.any():
            kk, cc = np.where(ok)
            order = np.lexsort((along[kk, cc], owner[kk, cc], kk))
            ko, co = kk[order], cc[order]
            key_o = owner[ko, co]
            starts = np.concatenate(([True], (key_o[1:] != key_o[:-1]) | (ko[1:] != ko[:-1])))
            first[ko[starts], co[starts]] = True
        # A fan that may start face down shows its head only through the deal's (or last photo's) count: a weaker hint.
        r = np.where(fans > 0, np.where(first, np.where(arr.open_fan[own], resid, 0.5 * resid), 0.0), resid)
        # Each card's own tightness: across its fan and off the nearest fan step (off its place, if squared).
        # Seen at a steep angle, an alignment shifted by a fan step fits nearly as many cards, but loosely.
        tight = _off_place(tab, owner, along, pl) + np.where((fans > 0) & first & arr.open_fan[own], resid, 0.0)
        snug = np.exp(-(tight / TIGHT) ** 2)
        # Last, between alignments equal on all that, prefer cards where the last state (or the deal) had some.
        filled_ok = arr.filled[own] & ok
        for k in range(len(tab)):
            okk = ok[k]
            prior = float(filled_ok[k].sum()) / max(1, int(okk.sum()))
            out[which[lo + k]] = (float((okk * (0.5 + 0.5 * snug[k])).mean())
                                  - 0.1 * float(r[k][okk].mean() if okk.any() else 1.0) + 0.01 * prior)
    return out


def _step_residual(along: np.ndarray, fl) -> np.ndarray:
    """How far (card widths, signed) a card ``along`` a fan of step ``fl`` lies past its nearest fan step;
    before the fan's head, how far past the head (a negative number)."""
    return np.where(along <= 0, along, along - np.round(along / fl) * fl)


def _off_place(tab: np.ndarray, owner: np.ndarray, along: np.ndarray, pl: Sequence[Place]) -> np.ndarray:
    """How far (card widths) each table point lies off the place ``owner`` gives it: across the fan's
    line plus off the nearest fan step, or off the centre of a squared place (any leading shape)."""
    arr = _Arrays.of(pl)
    own = np.maximum(owner, 0)
    d = tab - arr.heads[own]
    fans = arr.flen[own]
    across = np.abs(d[..., 0] * arr.unit[own, 1] - d[..., 1] * arr.unit[own, 0])
    fl = np.maximum(fans, 1e-9)
    step_off = np.abs(_step_residual(along, fl))
    return np.where(fans > 0, across + step_off, np.linalg.norm(d, axis=-1))


def _plausible_size(H: np.ndarray, sightings: Sequence[Any]) -> bool:
    """Whether ``H`` could be a camera's view of the table: indices come out index-sized (about
    0.2-0.4 card widths tall), and the photo is not stretched much more one way than the other.

    An alignment that squeezes a scatter of cards into one fan fits many of
    them, but makes every index tiny or huge. One that squeezes a scatter
    sideways onto the lines of a few columns keeps the indices' height, so
    the stretch is judged too: a flat table seen from an elevation e is
    foreshortened 1/sin(e) along the view and not across it.
    """
    try:
        Hinv = np.linalg.inv(H)
    except np.linalg.LinAlgError:
        return False
    b = np.array([s.box for s in sightings], dtype=float)
    cx = (b[:, 0] + b[:, 2]) / 2
    top = _apply(Hinv, np.c_[cx, b[:, 1]])
    bottom = _apply(Hinv, np.c_[cx, b[:, 3]])
    h = float(np.median(np.linalg.norm(bottom - top, axis=1)))
    return INDEX_HEIGHT_RANGE[0] <= h <= INDEX_HEIGHT_RANGE[1] and _stretch(Hinv, np.c_[cx, (b[:, 1] + b[:, 3]) / 2]) <= MAX_STRETCH


INDEX_HEIGHT_RANGE = (0.12, 0.7)    # card widths: index heights an alignment may imply (decks: 0.21-0.37, boxes grow when turned)
MAX_STRETCH = 3.0    # 1/sin(20 deg): photos taken lower over the table than that are not what the reader is for (the render bench goes down to 35)


def _stretch(Hinv: np.ndarray, pts: np.ndarray) -> float:
    """Median over ``pts`` of how much more the photo-to-table map ``Hinv`` stretches one way than the other."""
    if not len(pts):
        return 1.0
    e = 1.0     # pixels: a step small next to an index, large next to rounding
    here = _apply(Hinv, pts)
    jx = _apply(Hinv, pts + [e, 0.0]) - here
    jy = _apply(Hinv, pts + [0.0, e]) - here
    J = np.stack([jx, jy], axis=2)                       # N x 2 x 2: the map's local linear part
    sv = np.linalg.svd(J, compute_uv=False)
    ratio = sv[:, 0] / np.maximum(sv[:, 1], 1e-12)
    ratio = np.where(np.isfinite(ratio), ratio, np.inf)
    return float(np.median(ratio))


def _fit_share(H: np.ndarray, q: np.ndarray, pl: Sequence[Place], layout: Layout | None = None) -> float:
    """Share of cards that sit where the layout can hold them.

    A fan holds one card a step: a card that would share its step with another of its fan
    is not one the layout explains. (Scattered cards squeezed onto the lines of a few
    columns lie in the strips, but bunched; a real fan's cards never are.)
    With ``layout``, cards on the line of an area that grows one place at a time count
    too (such areas take no part in finding the alignment: they have no fixed places).
    """
    seen = _explained(H, q, pl, layout)
    return float(seen[0].mean()) if seen is not None else 0.0


def _explained(H: np.ndarray, q: np.ndarray, pl: Sequence[Place], layout: Layout | None = None
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """For each card: whether the layout explains it (see ``_fit_share``), and how far (card widths)
    off its place it lies (inf where unexplained); None when ``H`` maps the cards nowhere."""
    tab = _on_table(H, q)
    if tab is None:
        return None
    owner, along, ok = _locate(tab, pl)
    ok = ok & ~_crowded(owner, along, ok, pl) & _snug(tab, owner, pl)
    off = np.where(ok, _off_place(tab, owner, along, pl), np.inf)
    off = np.where(_Arrays.of(pl).flen[np.maximum(owner, 0)] <= 0, off / SQUARED_HAND, off)
    if layout is not None and not ok.all():
        for a in layout.areas:
            if _growing(a):
                on, _, off_line = _on_growing_line(tab, a)
                off = np.where(~ok & on, np.minimum(off, off_line), off)
                ok = ok | on
    return ok, off


# Card widths off its place within which a card counts as lying on it, each tolerance counting
# for a quarter: a card 0.05 off counts whole, 0.12 off half, more than 0.2 off not at all.
SNUG_WITHIN = (0.06, 0.1, 0.15, 0.2)
# ... times this for a squared pile's card: a pile put down by hand lies a few millimetres off its place
# (a fan's cards are judged against their own fan, see STRAIGHTEN; a pile of one card has nothing to be
# judged against but its place).
SQUARED_HAND = 2.0


# Cards put down by hand do not lie on a grid: a column starts a little off its place and runs a
# little askew, which one alignment of the whole layout cannot follow, so that a hand-laid layout looked
# like no deal (too few cards snug on their places) and was refused. When an alignment is judged, each
# fan holding at least STRAIGHTEN_CARDS cards is taken as moved onto its place by its own offset (across
# its line and along it, within a fan step) and turn: the median and the fitted slope of where its cards
# lie, when they are within STRAIGHTEN_MAX card widths and STRAIGHTEN_TURN (a column further off is not a
# hand's untidiness). Only the judging sees the fans so moved; the reading itself places the cards where
# they lie, so a tidy photo is read as before. 0: off.
STRAIGHTEN = 1
STRAIGHTEN_CARDS = 2
STRAIGHTEN_MAX = 0.25
STRAIGHTEN_TURN = 0.1     # slope across / along: about 6 degrees


def straightened(q: np.ndarray, H: np.ndarray, pl: Sequence[Place]) -> np.ndarray | None:
    """The photo points ``q`` (cards' anchors) with each hand-laid fan moved onto its place (see
    STRAIGHTEN), or None when no fan was moved."""
    if not STRAIGHTEN or len(q) < STRAIGHTEN_CARDS or not len(pl):
        return None
    tab = _on_table(H, q)
    if tab is None:
        return None
    owner, along, ok = _locate(tab, pl)
    arr = _Arrays.of(pl)
    new = tab.copy()
    moved = False
    for p in np.unique(owner[ok & (owner >= 0)]):
        if arr.flen[p] <= 0:
            continue
        m = np.flatnonzero(ok & (owner == p))
        if len(m) < STRAIGHTEN_CARDS:
            continue
        unit, fl = arr.unit[p], arr.flen[p]
        normal = np.array([unit[1], -unit[0]])
        across = (tab[m] - arr.heads[p]) @ normal
        al = along[m]
        res = _step_residual(al, fl)
        slope = 0.0
        if len(m) >= 4 and np.ptp(al) > 2 * fl:
            slope = float(np.polyfit(al, across, 1)[0])
            if abs(slope) > STRAIGHTEN_TURN:
                continue
        shift_across = float(np.median(across - slope * al))
        shift_along = float(np.median(res))
        if abs(shift_across) > STRAIGHTEN_MAX or abs(shift_along) > STRAIGHTEN_MAX:
            continue
        new[m] = tab[m] - np.outer(shift_across + slope * al, normal) - shift_along * unit
        moved = True
    return _apply(H, new) if moved else None


def _snug_share(H: np.ndarray, q: np.ndarray, pl: Sequence[Place], layout: Layout | None = None) -> float:
    """How many of the cards lie on the layout's places the way laid-out cards do: in line and
    a fan step apart (or squarely on a squared place), as a share of the cards (see SNUG_WITHIN).

    Cards dropped at random on a layout whose fans are stepped finer than a card's own
    looseness (Pendulum's packets) all lie inside its strips, so the share the layout
    explains cannot tell them from a deal; how snugly they lie can: after refining, a
    rendered deal through the detector scores 0.6-1.0 and a scatter 0.2-0.5.
    """
    seen = _explained(H, q, pl, layout)
    return _snugness(seen[1]) if seen is not None else 0.0


def _snugness(off: np.ndarray) -> float:
    """The snug share of cards lying ``off`` their places (card widths; inf where unexplained)."""
    return float(np.mean([(off < t).mean() for t in SNUG_WITHIN])) if len(off) else 0.0


# Card widths: how close to a squared place's centre a card must lie to count as explained by it.
# A card is placed on a squared pile up to SQUARED_FIT away (a card put down askew), but a layout
# of squared piles only (Aunty Allis) then takes nearly any scatter of cards: 24 of 24 random
# scatters fitted it, and 6 do with this check. Real piles lie snugly once the alignment is refined
# (rendered held-out layouts just dealt, read through the detector, 20 a game: refused now, one Aunty Allis,
# one Senior Wrangler and one Kings photo, read before with 3 of 32, 16 of 104 and 5 of 20 cards
# right; one Kings photo refused before is read now).
SQUARED_SNUG = 0.35


def _snug(tab: np.ndarray, owner: np.ndarray, pl: Sequence[Place]) -> np.ndarray:
    """False for cards on a squared place further than SQUARED_SNUG from its centre (True elsewhere)."""
    arr = _Arrays.of(pl)
    out = np.ones(len(owner), bool)
    sq = (owner >= 0) & (arr.flen[np.maximum(owner, 0)] <= 0)
    if sq.any():
        d = tab[sq] - arr.heads[owner[sq]]
        out[sq] = np.hypot(d[:, 0], d[:, 1] / 1.2) < SQUARED_SNUG
    return out


def _crowded(owner: np.ndarray, along: np.ndarray, ok: np.ndarray, pl: Sequence[Place]) -> np.ndarray:
    """Fitting cards of a fan that lie closer than CROWDED steps after the card before them in it.

    Squared places are left alone: a long column may run into one, and a card put
    down askew on a squared pile may show beside the top one.
    """
    flen = _Arrays.of(pl).flen
    out = np.zeros(len(owner), bool)
    for k in np.unique(owner[ok & (owner >= 0)]):
        if flen[k] <= 0:
            continue
        idx = np.where(ok & (owner == k))[0]
        idx = idx[np.argsort(along[idx])]
        last = -np.inf
        for c in idx:
            if along[c] - last < CROWDED * flen[k]:
                out[c] = True
            else:
                last = along[c]
    return out


CROWDED = 0.4    # fan steps: below the tightest fan the reader allows (see _photo_step), less index noise


def _on_growing_line(tab: np.ndarray, a: Area) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which table points lie on the line of a growing area, how far along it they lie, and how
    far off its nearest place (across the line plus along it; card widths)."""
    step = float(np.hypot(*a.step))
    unit = np.array(a.step, dtype=float) / step
    d = tab - (np.array(a.position(0, 0)) + INDEX_CENTRE)
    along = d @ unit
    across = np.abs(d[:, 0] * unit[1] - d[:, 1] * unit[0])
    off = across + np.abs(along - np.round(along / step) * step)
    return (across < ACROSS) & (along > -0.5 * step) & (along < MAX_FAN * step), along, off


def _on_table(H: np.ndarray, q: np.ndarray) -> np.ndarray | None:
    """Photo points ``q`` on the table under the alignment ``H``; None when ``H`` maps them nowhere."""
    try:
        tab = _apply(np.linalg.inv(H), q)
    except np.linalg.LinAlgError:
        return None
    return tab if np.isfinite(tab).all() else None


SQUARED_FIT = 0.5    # card widths: how far off a squared place's centre a card still lies on it


def _place_costs(tab: np.ndarray, pl: Sequence[Place]) -> tuple[np.ndarray, np.ndarray]:
    """Cost of putting each table point in each place (inf where it cannot lie) and its distance along the fan.

    A fanned place is an open-ended strip, so in layouts whose strips overlap
    (rows fanned towards the next row) a card may lie in several. The cost is
    the distance across the strip plus the distance to the nearest fan step,
    so a card at the head of the next row fits there better than between two
    steps of the row above. A squared place a strip runs into takes precedence.
    """
    arr = _Arrays.of(pl)
    heads, flen, unit = arr.heads, arr.flen, arr.unit
    # (x and y apart: a sum over an axis of two costs more than the products)
    dx = tab[:, 0, None] - heads[None, :, 0]                       # N x P
    dy = tab[:, 1, None] - heads[None, :, 1]
    along = dx * unit[None, :, 0] + dy * unit[None, :, 1]
    across = np.abs(dx * unit[None, :, 1] - dy * unit[None, :, 0])
    fanned = flen > 0
    in_fan = fanned[None, :] & (along > -0.45) & (along < MAX_FAN * flen[None, :] + 0.5) & (across < ACROSS)
    fl = np.maximum(flen, 1e-9)[None, :]
    step_off = np.abs(_step_residual(along, fl))
    sq_dist = np.hypot(dx, dy / 1.2)
    in_sq = (~fanned[None, :]) & (sq_dist < SQUARED_FIT)
    cost = np.where(in_sq, sq_dist - 10.0, np.where(in_fan, across + step_off, np.inf))
    return cost, along


def _locate(tab: np.ndarray, pl: Sequence[Place]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each table point: the place holding it (-1 for none), its distance along the fan, and whether it fits.

    Each card goes to its cheapest place; a card that breaks its fan's chain
    (a long gap from the head) tries its next place, a few rounds.
    """
    owner, along, ok = _locate_many(tab[None], pl)
    return owner[0], along[0], ok[0]


def _locate_many(tab: np.ndarray, pl: Sequence[Place]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``_locate`` for K alignments' table points at once (K x N x 2): owner, along and fit, each K x N.

    An alignment whose cards all found their places is left as it is while the others retry (each
    alignment's places are its own, so only those still retrying are placed again).
    """
    K, n = tab.shape[:2]
    if not n or not len(pl):       # no cards, or no place to hold one
        return np.full((K, n), -1), np.zeros((K, n)), np.zeros((K, n), bool)
    if _readfast is not None and USE_C:
        return _locate_many_fast(tab, pl)
    cost, along = _place_costs(tab.reshape(-1, 2), pl)
    P = cost.shape[1]
    cost = cost.reshape(K, n, P)
    along = along.reshape(K, n, P)
    owner = np.empty((K, n), int)
    al = np.empty((K, n))
    ok = np.empty((K, n), bool)
    live = np.arange(K)                       # the alignments still placing cards
    finite_n = np.isfinite(cost).sum(axis=2)
    for _ in range(LOCATE_ROUNDS):
        o = np.argmin(cost, axis=2)
        o = np.where(np.isfinite(np.take_along_axis(cost, o[..., None], axis=2)[..., 0]), o, -1)
        a = np.take_along_axis(along, np.maximum(o, 0)[..., None], axis=2)[..., 0]
        good = _consistent_many(o, a, pl)
        owner[live], al[live], ok[live] = o, a, good
        retry = (~good) & (o >= 0) & (finite_n > 1)
        again = np.flatnonzero(retry.any(axis=1))
        if not len(again):
            break
        live, retry, o = live[again], retry[again], o[again]
        cost, along = cost[again], along[again]            # the retrying alignments' rows (a copy)
        kk, rows = np.nonzero(retry)
        cost[kk, rows, o[retry]] = np.inf
        finite_n = np.isfinite(cost).sum(axis=2)
    return owner, al, ok


def _locate_many_fast(tab: np.ndarray, pl: Sequence[Place]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``_locate_many`` in C (the rules' constants are read at each call, as the numpy version does)."""
    arr = _Arrays.of(pl)
    K, n = tab.shape[:2]
    owner = np.empty((K, n), np.int64)
    along = np.empty((K, n))
    ok = np.empty((K, n), bool)
    _readfast.locate_many(np.ascontiguousarray(tab, dtype=float), arr.heads, arr.flen, arr.unit, arr.open_fan,
                          arr.reach, owner, along, ok, K, n, len(pl),
                          (float(MAX_FAN), float(ACROSS), float(SQUARED_FIT), int(LOCATE_ROUNDS), float(MAX_GAP),
                           float(MAX_HIDDEN), int(bool(REACH_GAP)), float(REACH_NEAR), float(REACH_NEAR_GAP)))
    return owner, along, ok


def _consistent_many(owner: np.ndarray, along: np.ndarray, pl: Sequence[Place]) -> np.ndarray:
    """``_consistent`` for K alignments at once (K x N arrays): a fan is one alignment's place."""
    K, n = owner.shape
    if K == 1:
        return _consistent(owner[0], along[0], pl)[None]
    # one alignment's fans sort apart from another's: the alignment is the first sort key
    group = np.broadcast_to(np.arange(K)[:, None], (K, n)).ravel()
    return _consistent(owner.ravel(), along.ravel(), pl, group=group).reshape(K, n)


def _consistent(owner: np.ndarray, along: np.ndarray, pl: Sequence[Place], max_gap: float | None = None,
                group: np.ndarray | None = None) -> np.ndarray:
    """Cards whose fan starts at the pile head without a long gap; squared places are always consistent.

    In an open fan the first card seen may lie as far from the head as one card from the next
    (indices missed before it). A fan that may hold face-down cards, never seen, shows its first
    card further along, by up to MAX_HIDDEN places (a longer reach there lets shifted look-alike
    alignments fit as well as the right one). From the first card that breaks the chain on,
    the rest of its fan does not fit.
    """
    max_gap = MAX_GAP if max_gap is None else max_gap
    ok = owner >= 0
    arr = _Arrays.of(pl)
    own = np.maximum(owner, 0)
    fanned = np.where(ok & (arr.flen[own] > 0))[0]
    if not len(fanned):
        return ok
    # (runs hundreds of times a reading: every fan at once, in one sort)
    if group is None:
        o = fanned[np.lexsort((along[fanned], owner[fanned]))]
    else:       # cards of several alignments (``group``), each alignment's fans apart
        o = fanned[np.lexsort((along[fanned], owner[fanned], group[fanned]))]
    k = owner[o]
    a = along[o]
    fan = arr.flen[k]
    head = np.concatenate(([True], k[1:] != k[:-1]))
    if group is not None:
        g = group[o]
        head[1:] |= g[1:] != g[:-1]
    gap_max = np.maximum(0.45, max_gap * fan)
    if REACH_GAP:
        gap_max = np.minimum(gap_max, arr.reach[k] - 0.5 * fan)
    start = np.where(arr.open_fan[k], gap_max, 0.45 + MAX_HIDDEN * fan)
    prev = np.concatenate(([0.0], a[:-1]))
    if REACH_NEAR:
        # a card lying at another pile's head, past missed indices of this fan, is that pile's head
        at_head = np.abs(a - arr.reach[k]) <= REACH_NEAR * fan
        gap_max = np.where(at_head, np.minimum(gap_max, REACH_NEAR_GAP * fan), gap_max)
    broken = np.where(head, a > start, (a - prev) > gap_max)
    # a break spoils the rest of its fan: count breaks so far, less those of earlier fans
    seen = np.cumsum(broken)
    before = np.maximum.accumulate(np.where(head, seen - broken, 0))
    ok[o[seen - before > 0]] = False
    return ok


def _refits(src: np.ndarray, dst: np.ndarray) -> list[np.ndarray]:
    """Table-to-photo maps fitted to matched points (``src`` on the table, ``dst`` in the photo):
    a homography and an affine map, those that exist."""
    import cv2
    # Fitted from the photo to the table, so that the tolerance is in card widths wherever a card lies
    # (far cards look small): a card a fan step off is an outlier even at the far side.
    Gn, _ = cv2.findHomography(dst, src, cv2.RANSAC, REFINE_TOL, maxIters=RANSAC_ITERS, confidence=0.99)
    # Points on one or two rows pin a homography badly: an affine fit may explain the cards better.
    A, _ = cv2.estimateAffine2D(dst, src, method=cv2.RANSAC, ransacReprojThreshold=REFINE_TOL,
                                maxIters=RANSAC_ITERS, confidence=0.99)
    options = []
    for G in (Gn, None if A is None else np.vstack([A, [0, 0, 1.0]])):
        if G is not None and np.isfinite(G).all() and abs(np.linalg.det(G)) > 1e-12:
            options.append(np.linalg.inv(G))
    return options


def _far_indices(cards: Sequence[SeenCard]) -> list[np.ndarray | None]:
    """Each card's far index, if it shows two: the one furthest down and right of its anchor."""
    return [np.array(max((_centre(b) for b in card.boxes), key=lambda b: (b[0] - card.anchor[0]) + (b[1] - card.anchor[1])))
            if len(card.boxes) >= 2 else None for card in cards]


def _refit_points(H: np.ndarray, q: np.ndarray, pl: Sequence[Place], opp: np.ndarray,
                  far_of: Sequence[np.ndarray | None]) -> tuple[np.ndarray, np.ndarray] | None:
    """What one refit of ``H`` is fitted to: slots on the table and the photo points matched to them
    (see ``_refine``); None when fewer than six."""
    tab = _apply(np.linalg.inv(H), q)
    src, dst = [], []
    slot: dict[int, np.ndarray] = {}
    owner, along, ok = _locate(tab, pl)
    for k, p in enumerate(pl):
        idx = np.where((owner == k) & ok)[0]
        if not len(idx):
            continue
        fan = np.array(p.area.fan)
        if fan.any():
            # Fans as the layout describes them, each card at the step nearest where it lies (an index
            # the detector missed leaves a gap); where a player fans tighter or looser, RANSAC drops the deep cards.
            flen = float(np.hypot(*fan))
            dealt = int(round(float(np.linalg.norm(p.first - p.table)) / flen))
            for n, c in zip(_fan_steps(along[idx], flen, p.area.face == "up", dealt), idx):
                slot[int(c)] = p.table + n * fan
        else:
            c = idx[np.argmin(np.linalg.norm(tab[idx] - p.first, axis=1))]
            slot[int(c)] = p.first
    for c, u in slot.items():
        src.append(u)
        dst.append(q[c])
        if far_of[c] is not None:
            # its far index, where the card's shape puts it: pins scale and slant even in a single row
            src.append(u + opp)
            dst.append(far_of[c])
    if len(src) < 6:
        return None
    return np.array(src, dtype=np.float64), np.array(dst, dtype=np.float64)


_NOT_GIVEN: Any = object()
_refit_pool: ThreadPoolExecutor | None = None


def _refit_ahead(src: np.ndarray, dst: np.ndarray) -> Future:
    """``_refits`` on a second thread. OpenCV lets go of the interpreter while it fits, so the
    registration's first refits run on the other core while this one prepares the next."""
    global _refit_pool
    if _refit_pool is None:
        _refit_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="refit")
    return _refit_pool.submit(_refits, src, dst)


def _refine(H: np.ndarray, cards: Sequence[SeenCard], pl: Sequence[Place], scale: float,
            opp: np.ndarray = OPPOSITE, known: Sequence[tuple[float, np.ndarray]] = (),
            fitted: dict[bytes, Any] | None = None, far_of: Sequence[np.ndarray | None] | None = None,
            first_points: Any = _NOT_GIVEN) -> tuple[np.ndarray, float]:
    """Fit a homography to what is certain, and repeat; the result and its fit (``_fit_score``).

    Two kinds of evidence: pile heads (and single places) matched to the
    nearest card, and each card's own two opposite indices, whose offset on
    the table is the card's shape. The second pins scale and slant even
    where the layout is a single row.

    Many voted alignments are one alignment a little off: once a refit lands
    where one of the ``known`` (already refined, with their fits) alignments lies,
    it would end there too, so that one is taken as it is. ``fitted`` keeps the
    refits of point sets met before (refits of alignments a little off often match
    the same points to the same slots, and RANSAC's draws are seeded: the same answer);
    an entry may be a refit still running (a ``Future``). ``first_points``: the first
    round's ``_refit_points``, when the caller has them already.
    """
    q = np.array([c.anchor for c in cards], dtype=float)
    fit = _fit_score(H, q, pl)
    heads = _Arrays.of(pl).heads
    known_px = [(_apply(K, heads), K, kfit) for kfit, K in known]
    far_of = _far_indices(cards) if far_of is None else far_of
    for rnd in range(REFINE_ROUNDS):
        points = first_points if rnd == 0 and first_points is not _NOT_GIVEN else _refit_points(H, q, pl, opp, far_of)
        if points is None:
            break
        src_a, dst_a = points
        key = src_a.tobytes() + dst_a.tobytes()
        options = None if fitted is None else fitted.get(key)
        if isinstance(options, Future):
            options = fitted[key] = options.result()
        if options is None:
            options = _refits(src_a, dst_a)
            if fitted is not None:
                fitted[key] = options
        if not options:
            break
        score, best = max(((_fit_score(M, q, pl), k) for k, M in enumerate(options)), key=lambda x: x[0])
        if score < fit - 1e-9:
            break
        # a refit that lands where it started would only repeat itself (RANSAC draws are seeded)
        settled = np.allclose(options[best], H, rtol=1e-9, atol=1e-9)
        H, fit = options[best], score
        if settled:
            break
        px = _apply(H, heads)
        if not np.isfinite(px).all():
            continue
        for kpx, K, kfit in known_px:
            if float(np.max(np.linalg.norm(px - kpx, axis=1))) < SAME_ALIGNMENT * scale:
                return K, kfit
    return H, fit


SAME_ALIGNMENT = 0.03    # card widths: refits whose pile heads all lie this close end at the same alignment


REFINE_ROUNDS = 4
# An open fan's first card seen is taken to lie at its head unless it is this many steps off. A wider
# allowance (it was 1.5) seats the first card of a column whose first index was missed on the head,
# a place early; with a few such columns the refit drags the whole layout a place along. The check
# that scattered cards fit no layout does not rest on this (see _fit_share and _plausible_size).
OPEN_HEAD = 0.6
RANSAC_ITERS = 300    # most points are right by the time a fit is refined: few draws find them
REFINE_TOL = 0.1     # card widths: a point further than this from its slot is left out of a refit


def _fan_steps(along: np.ndarray, flen: float, open_fan: bool, dealt: int = 0) -> np.ndarray:
    """The fan step of each card of one fan, in the order given (sorted along the fan).

    Counted from card to card, a missed index showing as a gap of about two
    of the photo's own steps: robust to an alignment still a little off in
    scale, where rounding each card's distance from the head is not. An open
    fan starts at its head; a fan that may start face down, after the
    ``dealt`` face-down cards of the deal (or last photo), unless its first
    card lies far from there.
    """
    n = len(along)
    if n == 0:
        return np.zeros(0, int)
    # (plain Python: fans hold a dozen cards, and this runs thousands of times a reading; the
    # arithmetic is numpy's: the median of an even count the mean of the middle two, rounding half to even)
    vals = along.tolist()
    order = sorted(range(n), key=vals.__getitem__)
    a = [vals[i] for i in order]
    gaps = [y - x for x, y in zip(a, a[1:])]
    step = min(max(statistics.median(gaps), 0.6 * flen), 1.4 * flen) if gaps else flen
    if open_fan:
        first = 0 if a[0] < OPEN_HEAD * flen else int(round(a[0] / flen))
    else:
        # face-down cards first: as many as the deal (or the last photo) has, unless the card lies far from there
        first = dealt if abs(a[0] - dealt * flen) < 1.5 * flen else max(0, int(round(a[0] / flen)))
    out = np.empty(n, int)
    k = first
    out[order[0]] = k
    for i, gap in zip(order[1:], gaps):
        k += max(1, int(round(gap / step)))
        out[i] = k
    return out


def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, dtype=float).reshape(-1, 2)
    # (np.c_ costs more than the product itself, and this runs tens of thousands of times a reading)
    h = pts @ H[:, :2].T + H[:, 2]
    return h[:, :2] / h[:, 2:3]


# ---------------------------------------------------------------- 3. assign

def assign(cards: Sequence[SeenCard], layout: Layout, H: np.ndarray, opp: np.ndarray = OPPOSITE) -> tuple[dict[tuple[str, int], list[SeenCard]], list[SeenCard]]:
    pl = places(layout)
    piles: dict[tuple[str, int], list[SeenCard]] = defaultdict(list)
    stray: list[SeenCard] = []
    if not cards:
        return piles, stray
    tab = _apply(np.linalg.inv(H), np.array([c.anchor for c in cards]))
    owner, along, ok = _locate(tab, pl)
    # A card seen by one index only, that fits nowhere, may show another corner than its top-left
    # one: the far (rotated) index of a top card whose near index was missed, or, in decks with an
    # index in all four corners, the top-right one of a card covered from below.
    single = np.array([len(c.boxes) == 1 for c in cards])
    lone = single & ((owner < 0) | ~ok)
    if lone.any():
        tab2 = _other_corners(tab, lone, owner, along, ok, pl, opp)
        o2, a2, ok2 = _locate(tab2, pl)
        if ok2.sum() > ok.sum():
            tab, owner, along, ok = tab2, o2, a2, ok2
    # Once the alignment is chosen, a card that fits one place only is no other pile's: several
    # indices hidden in a row (a long gap) do not make it a stray. (Scoring alignments keeps the
    # strict chain, or cards scattered anywhere would fit some layout.)
    alone = np.isfinite(_place_costs(tab, pl)[0]).sum(axis=1) == 1
    if (alone & ~ok & (owner >= 0)).any():
        ok = ok | (alone & _consistent(owner, along, pl, MAX_GAP_ALONE))
    _fan_ends_on_squared(tab, owner, along, ok, pl)
    _exposed_far_corners(tab, cards, owner, along, ok, pl, opp)
    order = np.argsort(along)
    for k in order:
        c = cards[k]
        c.table = (float(tab[k][0]), float(tab[k][1]))
        if owner[k] < 0 or not ok[k]:
            stray.append(c)
        else:
            p = pl[owner[k]]
            c.along = float(along[k])
            piles[(p.area.name, p.pile)].append(c)
    return piles, stray


def _other_corners(tab: np.ndarray, lone: np.ndarray, owner: np.ndarray, along: np.ndarray, ok: np.ndarray,
                   pl: Sequence[Place], opp: np.ndarray) -> np.ndarray:
    """Table points with each ``lone`` card moved to the top-left index its seen corner implies.

    A corner counts only where it can show: the next card of a fan covers every corner
    further along the fan than one step (a column hides the lower corners of a covered
    card, a row fanned sideways the right-hand ones), so such a corner must belong to the
    exposed card of its pile. Of the corners that can show, the one seating the card
    nearest a fan step is kept, and before it any that seats the card in its fan's chain: a
    corner that puts it beside a fan, near a step but a long way past its last card, explains
    nothing.
    """
    arr = _Arrays.of(pl)
    out = tab.copy()
    seated = (owner >= 0) & ok
    for k in np.where(lone)[0]:
        best, best_key = None, (True, np.inf)
        for off in (opp, np.array([opp[0], 0.0]), np.array([0.0, opp[1]])):
            pt = tab[k] - off
            cost, al = _place_costs(pt[None, :], pl)
            j = int(np.argmin(cost[0]))
            if not np.isfinite(cost[0, j]):
                continue
            fl = arr.flen[j]
            covered = fl > 0 and float(off @ arr.unit[j]) > fl
            if covered and np.any(seated & (owner == j) & (along > al[0, j] + 0.5 * fl)):
                continue        # a corner that only an exposed card shows, but cards lie on top of this one
            trial = tab.copy()
            trial[k] = pt
            key = (not bool(_locate(trial, pl)[2][k]), float(cost[0, j]))
            if key < best_key:
                best, best_key = pt, key
        if best is not None:
            out[k] = best
    return out


def _fan_ends_on_squared(tab: np.ndarray, owner: np.ndarray, along: np.ndarray, ok: np.ndarray,
                         pl: Sequence[Place]) -> None:
    """Give back to a fan the cards at its end that were taken for cards of a squared pile it runs into.

    A squared place takes every card near it (``_place_costs``), but a long fan may reach it:
    a Senior Wrangler column of twenty cards ends on the key row, and its last cards lie partly
    under the key's top card. Of several cards seen on one squared place, each that lies one
    step past the end of a fan's chain, taken in order along that fan, goes back to the fan.
    The last one stays: a squared pile always shows its top. ``owner``, ``along`` are updated in place.
    """
    arr = _Arrays.of(pl)
    for j in np.where(arr.flen == 0)[0]:
        on = list(np.where((owner == j) & ok)[0])
        if len(on) < 2:
            continue
        cost, al = _place_costs(tab[on], pl)
        moved = True
        while moved and len(on) > 1:
            moved = False
            for f in np.where(arr.flen > 0)[0]:
                chain = (owner == f) & ok
                if not chain.any():
                    continue
                end, fl = float(along[chain].max()), float(arr.flen[f])
                nxt = [(al[n, f], n) for n, k in enumerate(on) if np.isfinite(cost[n, f])
                       and 0.5 * fl < al[n, f] - end < 1.5 * fl]
                if not nxt:
                    continue
                a_f, n = min(nxt)          # the card nearest the fan's end
                k = on[n]
                owner[k], along[k] = f, a_f
                on.pop(n)
                cost, al = np.delete(cost, n, axis=0), np.delete(al, n, axis=0)
                moved = True
                break


def _exposed_far_corners(tab: np.ndarray, cards: Sequence[SeenCard], owner: np.ndarray, along: np.ndarray,
                         ok: np.ndarray, pl: Sequence[Place], opp: np.ndarray) -> None:
    """Table points with the last card of a fan moved back by a far corner, where that supposes fewer misses.

    The exposed card of a fan shows its far corner too. When only that index was
    read, it fits the fan just as well as the near index of a card some steps
    further on, with the places between read as missed. Each reading supposes its
    own unseen index, so the one that supposes fewer missed cards between it and
    the card before is the likelier: the far corner, whenever that puts the card
    at least a step after the one before. ``tab`` and ``along`` are updated in place.
    """
    arr = _Arrays.of(pl)
    for j in np.unique(owner[ok & (owner >= 0)]):
        fl = arr.flen[j]
        if fl <= 0:
            continue
        idx = np.where((owner == j) & ok)[0]
        idx = idx[np.argsort(along[idx])]
        k = idx[-1]
        if len(cards[k].boxes) != 1:
            continue
        if len(idx) > 1:
            before = along[idx[-2]]
        elif pl[j].area.face == "up":
            before = -fl          # the head of an open fan: the first place is a step after "before"
        else:
            continue              # face-down cards may lie before it: their number is not known here
        for off in (opp, np.array([0.0, opp[1]])):
            pt = tab[k] - off
            cost, al = _place_costs(pt[None, :], pl)
            if np.isfinite(cost[0, j]) and before + 0.5 * fl < al[0, j] < along[k] - 0.5 * fl:
                tab[k], along[k] = pt, al[0, j]
                break


def _growing(a: Area) -> bool:
    """An area with no fixed number of places, laid one card per place (the Kings fan)."""
    return a.on_table and a.count == 0 and a.face == "up" and a.kind != "facedown" and any(a.step)


# Whether the cards on a growing area's line are fitted to its places together (1), or each rounded to its
# nearest free place (0, as before session 51). Held-out Kings renders through the detector, wrong cards:
# tidy (seeds 1000-1019) 14 -> 14; hand-laid U = 1 (1000-1011) 16 -> 9, U = 1.5 57 -> 44.
GROWING_FIT = 1
# Whether a place of such an area read unreadable, between cards seen, is looked at again (1) like a fan's
# (``look_again``). Held-out Kings renders through the detector, wrong cards: tidy (seeds 1000-1019) 13 -> 12;
# hand-laid U = 1 and U = 1.5 (1000-1011) 13 and 46, unchanged.
GROWING_LOOK = 1


def assign_growing(stray: list[SeenCard], layout: Layout, piles: dict[tuple[str, int], list[SeenCard]]) -> list[SeenCard]:
    """Put the cards left over by ``assign`` into the areas that grow one place at a time.

    Such an area has no fixed places to register the layout by, so it is read only once
    the layout is placed: the left-over cards on its line are fitted to its places as a fan's cards are
    (``_fan_fit``: one spacing for them all, a missed index where the spacing leaves room for one), the first
    counted from where the line starts. The rest stay strays, and so does a box the fit leaves out.
    Rounded one by one, a line spread a little off its place, or a card put down a little past its
    own, took the next place, and every card after it moved on.
    """
    rest = list(stray)
    for a in layout.areas:
        if not _growing(a) or not rest:
            continue
        step = float(np.hypot(*a.step))
        on, along, _ = _on_growing_line(np.array([c.table for c in rest], dtype=float), a)
        on_line = sorted(((float(along[k]), c) for k, c in enumerate(rest) if on[k]), key=lambda t: t[0])
        if not on_line:
            continue
        alongs = np.array([t[0] for t in on_line])
        if GROWING_FIT:
            slots, _ = _fan_fit(alongs, step, np.array([c.conf for _, c in on_line]))
            at = slots + max(0, int(round(alongs[0] / step - LEAD_SLACK)))
            at[slots < 0] = -1
        else:       # (for comparisons) each card to its nearest place, the next free one when two fall on one
            at, last = [], -1
            for x in alongs:
                last = max(int(round(x / step)), last + 1)
                at.append(last)
        taken = set()
        for (along, c), k in zip(on_line, at):
            if k >= 0:
                c.along = along
                piles[(a.name, int(k))] = [c]
                taken.add(id(c))
        rest = [c for c in rest if id(c) not in taken]
    return rest


def group_columns(sightings: Sequence[Any]) -> list[list[SeenCard]]:
    """Game-free grouping of cards into fanned columns (used on real photos with no game chosen).

    Cards are chained to the nearest card below them whose offset is a fan
    step (mostly downwards, small sideways drift); each chain is a column,
    ordered from its far end to the exposed card.
    """
    if not sightings:
        return []
    sightings = one_per_place(sightings)
    scale = estimate_scale(sightings)
    cards = first_grouping(sightings, scale)
    pts = np.array([c.anchor for c in cards])
    nxt: dict[int, int] = {}
    for k, p in enumerate(pts):
        d = pts - p
        ok = (d[:, 1] > 0.08 * scale) & (d[:, 1] < 0.9 * scale) & (np.abs(d[:, 0]) < 0.3 * scale)
        if ok.any():
            cand = np.where(ok)[0]
            nxt[k] = int(cand[np.argmin(d[cand, 1])])
    has_prev = set(nxt.values())
    columns = []
    for k in range(len(cards)):
        if k in has_prev:
            continue
        chain, seen = [k], {k}
        while chain[-1] in nxt and nxt[chain[-1]] not in seen:
            chain.append(nxt[chain[-1]])
            seen.add(chain[-1])
        columns.append([cards[j] for j in chain])
    return columns


# --------------------------------------------------------------- 4. compose

def _template(game: Game, options: dict) -> State:
    """What a fresh deal looks like: how many cards each pile holds and which are face down."""
    return game.deal(__import__("random").Random(0), options)


def compose(game: Game, options: dict, piles: dict[tuple[str, int], list[SeenCard]], previous: State | None,
            in_view: set[tuple[str, int]], weak: dict[tuple[str, int], list[SeenCard]] | None = None,
            readings: dict | None = None, rivals: dict | None = None,
            gaps: dict | None = None, one_more: dict | None = None, fans: dict | None = None,
            edges: dict | None = None) -> tuple[State, dict, list[Doubt]]:
    """The state the cards seen make, with a confidence for each card read and the doubts.

    ``readings``, when given, is filled like the confidences: place -> the classifier's
    likely labels for the card read there (see ``repair``). ``rivals``, when given, gets
    for the top place of each squared pile where several cards were seen the other cards
    seen there (``repair`` lets the rules choose between them). ``gaps`` and ``one_more``, when given,
    get the fan places a second look at the photo could settle, and ``fans`` each fan's spacing
    (``FanSpacing``, for ``repair``). ``edges``: the card edges the photo shows along each fan (``fan_edges``)."""
    layout = game.layout(options)
    piles = dict(piles)
    template = previous if previous is not None else _template(game, options)
    # a looser fan is a place to search only where a count of the cards on the table can say one is missing
    one_more_within = LENGTH_MARGIN if _out_of_sight(layout) else SHORT_MARGIN
    doubts: list[Doubt] = []
    conf: dict[tuple[str, int, int], float] = {}
    areas: dict[str, list[list[Slot]]] = {}
    for a in layout.areas:
        n = a.count or len(template.areas.get(a.name, []))
        if _growing(a):
            n = max([n] + [i + 1 for (name, i) in piles if name == a.name])
        areas[a.name] = [[] for _ in range(n)]
        if a.fan != (0.0, 0.0):
            for i in range(n):
                if piles.get((a.name, i)):
                    piles[(a.name, i)] = merge_repeats(piles[(a.name, i)], math.hypot(*a.fan))
        step = _area_step(a, [piles.get((a.name, i), []) for i in range(n)])
        for i in range(n):
            prev_pile = template.areas[a.name][i] if i < len(template.areas.get(a.name, [])) else []
            seen = piles.get((a.name, i), [])
            later = [j for (name, j) in piles if name == a.name and j > i and piles[(name, j)]] \
                if _growing(a) and not seen else []
            if later:
                # a place between cards seen on the line: a card lies there whose index was not read
                areas[a.name][i] = [Slot(None, True)]
                doubts.append(Doubt(f"{a.name.replace('-', ' ')}, place {i + 1}: index unreadable (no card index seen there)",
                                    a.name, i, 0, "unreadable"))
                if gaps is not None and GROWING_LOOK:
                    # (a second look where its index would lie, sized as the index of the next card seen)
                    gaps[(a.name, i, 0)] = (0.0, piles[(a.name, min(later))][0].boxes[0])
                continue
            if not a.on_table or a.kind == "facedown" or a.face == "down":
                # Out of view by nature: remembered, or as many unknown cards as the deal puts there.
                areas[a.name][i] = [s if previous is not None else Slot(None, s.face_up) for s in prev_pile]
                continue
            if (a.name, i) not in in_view and not seen:
                areas[a.name][i] = [Slot(None, s.face_up) if previous is None else s for s in prev_pile]
                if prev_pile:
                    doubts.append(Doubt(f"{a.name} {i + 1} is outside the photo: "
                                        + ("kept as last seen" if previous is not None else "its cards are unknown"),
                                        a.name, i, None, "out-of-view"))
                continue
            pile: list[Slot] = []
            if a.fan == (0.0, 0.0) and seen:
                # A squared pile shows its top card only; the cards beneath are remembered or unknown.
                top = seen[-1]
                sure = [c for c in seen if len(c.boxes) > 1 and c.conf >= LOW_CONFIDENCE]
                if len(top.boxes) == 1 and top.conf < LOW_CONFIDENCE and sure:
                    # a lone unsure box nearest the far end is likelier a stray than a card lying on a sure one
                    top = max(sure, key=lambda c: (len(c.boxes), c.conf))
                    seen = [c for c in seen if c is not top] + [top]
                below = prev_pile[:-1] if previous is not None else [Slot(None, s.face_up) for s in prev_pile[:-1]]
                if previous is not None and prev_pile and prev_pile[-1].card is not None and prev_pile[-1].card.label != top.label:
                    below = prev_pile  # a card was added on top since the last photo
                    if any(s.card is not None and s.card.label == top.label for s in prev_pile):
                        below = [s for s in prev_pile[:-1]]
                pile = list(below) + [Slot(Card.parse(top.label), True)]
                if len(seen) > 1:
                    doubts.append(Doubt(f"{a.name} {i + 1}: {len(seen)} cards seen on a squared pile; kept the top one ({Card.parse(top.label).pretty})",
                                        a.name, i, len(pile) - 1, "conflict"))
                    if rivals is not None:
                        rivals[(a.name, i, len(pile) - 1)] = [c for c in seen[:-1] if c.label != top.label]
                conf[(a.name, i, len(pile) - 1)] = top.conf
                if readings is not None:
                    readings[(a.name, i, len(pile) - 1)] = top.readings
                _misread_doubt(a.name, i, len(pile) - 1, top, doubts)
            else:
                pile = _fan_pile(a, i, seen, prev_pile, previous is not None, conf, doubts, step,
                                 (weak or {}).get((a.name, i), []), readings, gaps, one_more, one_more_within, fans,
                                 (edges or {}).get((a.name, i)))
            areas[a.name][i] = pile
    if previous is not None:
        _keep_remembered(areas, previous)
    # Too many copies: keep the surest, mark the rest unreadable and say so.
    limit = Counter(c.face for c in game.deck())
    where: dict[tuple, list[tuple[float, str, int, int]]] = defaultdict(list)
    for a, ps in areas.items():
        for i, p in enumerate(ps):
            for j, s in enumerate(p):
                if s.card is not None and s.face_up and (a, i, j) in conf:
                    where[s.card.face].append((conf[(a, i, j)], a, i, j))
    for face, lst in where.items():
        if len(lst) > limit.get(face, 0):
            lst.sort(reverse=True)
            card = Card(*face)
            for _, a, i, j in lst[limit.get(face, 0):]:
                areas[a][i][j] = Slot(None, True)
                # its "kept, but check it" doubt no longer holds: this copy is not kept
                doubts[:] = [d for d in doubts if (d.kind, d.area, d.pile, d.index) != ("too-many-copies", a, i, j)]
                doubts.append(Doubt(f"{count_word(len(lst))} {card.pretty} seen in a {count_word(game.packs)}-pack game: "
                                    f"{a} {i + 1}, card {j + 1} is the least certain and is marked unreadable",
                                    a, i, j, "too-many-copies"))
    # Low confidence cards.
    for (a, i, j), c in conf.items():
        s = areas[a][i][j]
        if c < LOW_CONFIDENCE and s.card is not None:
            doubts.append(Doubt(f"{a} {i + 1}, card {j + 1}: index unclear (read as {s.card.pretty}, {c:.0%} sure)", a, i, j, "low-confidence"))
    state = State(game.id, areas, dict((previous or template).info), dict(options))
    if previous is None:
        # (after the cards are in: a game may read its phase from them)
        state.info = game.photo_info(state)
        doubts.extend(Doubt(words, kind="guessed") for words in game.photo_guesses(state))
        squared = [k for k, v in piles.items() if layout[k[0]].fan == (0.0, 0.0) and v]
        tops = {k: len(state.areas[k[0]][k[1]]) - 1 for k in squared}
        doubts.extend(_fit_depths(game, state, squared))
        _tops_moved(state, tops, doubts, conf, readings, rivals)
    # Cards the deck holds that are nowhere: they must be in an out-of-view pile.
    _balance(game, layout, state.areas, doubts)
    if previous is None:
        # (and split among the out-of-view places as the rules require: an Interregnum stock of 70 is impossible)
        tops = {(a.name, i): len(p) - 1 for a in layout.areas if a.fan == (0.0, 0.0) for i, p in enumerate(state.areas[a.name])}
        doubts.extend(Doubt(words, kind="assumed") for words in game.settle_unseen(state))
        _tops_moved(state, tops, doubts, conf, readings, rivals)
    return state, conf, doubts


def _tops_moved(state: State, tops: dict[tuple[str, int], int], doubts: list[Doubt], conf: dict, *by_place: dict | None) -> None:
    """Squared piles whose depth changed: their top card's evidence and doubts (``tops``: its place before) follow it."""
    for (a, i), j in tops.items():
        now = len(state.areas[a][i]) - 1
        if now == j:
            continue
        if (a, i, j) in conf:
            conf[(a, i, now)] = conf.pop((a, i, j))
        for d in by_place:
            if d is not None and (a, i, j) in d:
                d[(a, i, now)] = d.pop((a, i, j))
        for d in doubts:
            if (d.area, d.pile, d.index) == (a, i, j):
                d.index = now
                # (the words name the place too: "bottom 2, card 1" for a card now second in its pile)
                for name in {a, a.replace("-", " ")}:
                    d.message = d.message.replace(f"{name} {i + 1}, card {j + 1}:", f"{name} {i + 1}, card {now + 1}:")


# Fan steps (the layout's): two cards of one label read closer than REPEAT_SURE along one fan are one index
# read twice; up to REPEAT they are one where either reading is less than REPEAT_CONF sure. A second box read
# on one card (seen: J, Q, A) can lie 0.6-0.8 of a step below its index, and so can two copies of a card lying
# next to each other in a fan, read a little off their places; those are mostly both read surely. Held-out
# renders through the detector, seeds 1000-1019 / 1020-1039, wrong cards: 0.6 alone 1 568 / 1 441; up to 0.7,
# 0.8, 0.9 and 1.0 whatever the readings' odds 1 530 / 1 428, 1 521 / 1 418, 1 556 / 1 430, 1 563 / 1 434;
# up to 0.8 below 0.6 sure 1 521 / 1 414 (0.4: 1 552 / 1 413; 0.3: 1 546 / 1 425). Letting the fan's spacing
# decide instead (merged where it fits better without the weaker reading) gave 1 541 / 1 435.
REPEAT_SURE = 0.6
REPEAT = 0.8
REPEAT_CONF = 0.6


def merge_repeats(seen: list[SeenCard], flen: float) -> list[SeenCard]:
    """One fan's cards, with a card read twice a fraction of a step apart taken as one.

    In a tight fan an index box is little taller than the step, and the detector may
    box one index twice, the second box straddling the next card's index. Kept as two
    cards, the repeat takes a fan place of its own, and every card after it is read a
    place too far (Senior Wrangler, rendered: whole columns a place off). Two copies of
    one card lie about a full step apart, so a repeat this close is one card; the
    surer reading keeps its place. Between ``REPEAT_SURE`` and ``REPEAT`` steps apart two
    sure readings are left as two copies of the card.
    """
    out: list[SeenCard] = []
    for c in seen:
        last = out[-1] if out else None
        gap = abs(c.along - last.along) if last is not None and c.along is not None and last.along is not None else None
        if gap is not None and _read_alike(c, last) and (
                gap < REPEAT_SURE * flen or (gap < REPEAT * flen and min(c.conf, last.conf) < REPEAT_CONF)):
            keep, other = (last, c) if last.conf >= c.conf else (c, last)
            # (a new card: the pile's own may be composed again, ``_fan_ends_by_rules``)
            keep = replace(keep, boxes=last.boxes + c.boxes, readings=dict(keep.readings))
            _keep_likeliest(keep.readings, other.readings.items())
            out[-1] = keep
            continue
        out.append(c)
    return out


def _read_alike(a: SeenCard, b: SeenCard) -> bool:
    """One label read for both, before or after the rules relabelled a copy too many."""
    return bool({a.label, a.first_read} & {b.label, b.first_read} - {None})


DEPTH_SEARCH = 13   # deepest squared pile tried when the game cannot say how deep a pile is


def _keep_remembered(areas: dict[str, list[list[Slot]]], previous: State) -> None:
    """Where the photo shows the card the last state had at the same place, keep the remembered slot (its pack copy)."""
    for a, ps in areas.items():
        old = previous.areas.get(a, [])
        for i, p in enumerate(ps):
            if i >= len(old):
                continue
            for j, s in enumerate(p):
                if j < len(old[i]) and s.card is not None and old[i][j].card is not None \
                        and old[i][j].card.face == s.card.face and old[i][j].face_up == s.face_up:
                    p[j] = old[i][j]


def _area_step(a: Area, seen_by_pile: list[list[SeenCard]]) -> float:
    """The fan step this photo shows for one area, from the gaps of all its fans together.

    A player fans every column of a layout alike, so one step serves them all; judged
    pile by pile, a column whose indices were half missed could take a step that
    fits its few gaps and puts its cards a place off."""
    gaps = [np.diff(al) for al in map(_alongs, seen_by_pile) if al is not None]
    return _photo_step(np.concatenate(gaps) if gaps else np.array([]), math.hypot(*a.fan))


def _alongs(seen: list[SeenCard]) -> np.ndarray | None:
    """Where each card seen in one fan lies along it; None unless every one is known and there are two."""
    al = [c.along for c in seen if c.along is not None]
    return np.array(al) if len(al) == len(seen) and len(al) > 1 else None


def _assumed_down(area: str, i: int, n: int) -> str:
    """The doubt on a fan whose first ``n`` cards are supposed face down (none seen there)."""
    if not n:
        return f"{area} {i + 1}: no face-down card assumed under the fan"
    return f"{area} {i + 1}: {n} face-down card(s) assumed under the fan, from where its first face-up card lies"


def _fan_pile(a: Area, i: int, seen: list[SeenCard], prev_pile: list[Slot], remembered: bool,
              conf: dict, doubts: list[Doubt], step: float, weak: Sequence[SeenCard] = (),
              readings: dict | None = None, gaps: dict | None = None, one_more: dict | None = None,
              one_more_within: float | None = None, fans: dict | None = None,
              edges: FanEdges | None = None) -> list[Slot]:
    """A fanned pile from the cards seen in it, in fan order.

    Where the fan steps over a place with no card seen (an index the
    detector missed, or hidden by something on top), the likeliest weak
    sighting at that place names the card, as a low-confidence doubt; with
    none, an unreadable card ``?`` is put there and a doubt says so. In a
    fan that may start with face-down cards, their number is read from where
    the first face-up card lies, or remembered from the last photo.

    ``gaps`` gets each unreadable place (where its index should lie, and the card seen
    next); ``one_more`` the place a fan whose spacing fits one more card within ``one_more_within``
    (log-odds; default ``LENGTH_MARGIN``) would hold it, when that fit differs by that card alone.
    ``fans`` gets the fan's spacing: where its cards seen lie and which places they took (``FanSpacing``).
    """
    flen = math.hypot(*a.fan)
    hidden = [s for s in prev_pile if not s.face_up]
    lead = 0        # face-up cards missed before the first one seen
    if a.face in ("mixed", "down") and seen and seen[0].along is not None and flen > 0 and not remembered:
        # Face-down cards are only ever turned up, never added: the deal's count is the most there can be.
        steps = max(0, int(round(seen[0].along / flen)))
        n_down = min(steps, len(hidden))
        lead = steps - n_down
        if gaps is not None and n_down < len(hidden):
            # Where this fan seems to start may be an alignment a step or two along it: the places above
            # its first card, as far as the deal allows and one more (table, if the count read is right),
            # for ``look_again`` to see whether card backs lie there (keys -1, -2, ...: no card yet), each
            # box centred on the strip such a card shows above the next, not on its index
            ic = float(INDEX_CENTRE @ (np.array(a.fan) / flen))
            for q in range(1, len(hidden) - n_down + 2):
                gaps[(a.name, i, -q)] = (seen[0].along - (n_down + q - 0.5) * step - ic, seen[0].boxes[0])
        hidden = [Slot(None, False)] * n_down
    elif a.face == "up":
        hidden = []
    pile: list[Slot] = []
    if hidden:
        pile.extend(hidden if remembered else [Slot(None, False)] * len(hidden))
        if not remembered:
            doubts.append(Doubt(_assumed_down(a.name, i, len(hidden)), a.name, i, 0, "assumed"))
            if gaps is not None and seen and seen[0].along is not None:
                # a card supposed face down may be face up with its index missed: where its index would lie
                for k in range(len(hidden)):
                    gaps[(a.name, i, k)] = (seen[0].along - (len(hidden) + lead - k) * step, seen[0].boxes[0])
    alongs = _alongs(seen)
    if flen > 0 and seen and seen[0].along is not None and a.face == "up":
        lead = max(0, int(round(seen[0].along / step - LEAD_SLACK)))
    confs = np.array([c.conf for c in seen])
    slots, margin = (_fan_fit(alongs, step, confs, edges) if flen > 0 and alongs is not None
                     else (np.arange(len(seen)), math.inf))
    insert_before = None      # with one more card, it would lie just before this card seen (index into the kept cards)
    if one_more is not None and margin < (one_more_within or LENGTH_MARGIN) and alongs is not None:
        insert_before = _one_more_before(slots, _fan_other(alongs, step, confs, edges))
    # cards the fit leaves out: boxes around an index twice, or between two; named beside the card nearest them
    kept = slots >= 0
    left_out = [c for c, k in zip(seen, slots) if k < 0]
    seen = [c for c, k in zip(seen, slots) if k >= 0]
    slots = slots[kept]
    first_gap = None
    taken: set[int] = set()
    for n, c in enumerate(seen):
        missing = lead if n == 0 else int(slots[n] - slots[n - 1]) - 1
        if missing > 0 and first_gap is None:
            first_gap = len(pile) + 1
        for k in range(max(0, missing)):
            # where the missed card's index should lie: evenly between the two cards seen around it
            # (places are only missed where every card seen has its place along the fan)
            if n == 0:
                at = c.along - (missing - k) * step
            else:
                at = seen[n - 1].along + (k + 1) * (c.along - seen[n - 1].along) / (missing + 1)
            guess = _weak_at(weak, at, step, taken)
            if guess is None:
                pile.append(Slot(None, True))
                doubts.append(Doubt(f"{a.name.replace('-', ' ')} {i + 1}, card {len(pile)}: index unreadable (no card index seen there)",
                                    a.name, i, len(pile) - 1, "unreadable"))
                if gaps is not None:
                    gaps[(a.name, i, len(pile) - 1)] = (at, c.boxes[0])
                continue
            pile.append(Slot(Card.parse(guess.label), True))
            conf[(a.name, i, len(pile) - 1)] = guess.conf     # under the reading threshold: a low-confidence doubt
        if n == insert_before and one_more is not None:
            one_more[(a.name, i, len(pile))] = ((seen[n - 1].along + c.along) / 2, c.boxes[0], seen[n - 1].label, c.label, margin)
        pile.append(Slot(Card.parse(c.label), True))
        conf[(a.name, i, len(pile) - 1)] = c.conf
        if readings is not None:
            readings[(a.name, i, len(pile) - 1)] = c.readings
        _misread_doubt(a.name, i, len(pile) - 1, c, doubts)
        for x in left_out:
            if min(seen, key=lambda o: abs(o.along - x.along)) is c and x.label != c.label:
                doubts.append(Doubt(f"{a.name.replace('-', ' ')} {i + 1}, card {len(pile)}: read as {Card.parse(c.label).pretty}, "
                                    f"but {Card.parse(x.label).pretty} was also read where no card of the fan lies: check it",
                                    a.name, i, len(pile) - 1, "low-confidence"))
    if fans is not None and alongs is not None and flen > 0:
        fans[(a.name, i)] = FanSpacing(alongs[kept], confs[kept], step, slots, lead, edges)
    if first_gap is not None:
        # The places with no index seen were counted from the fan's spacing, and a
        # spacing a little off moves every card after them a place: the whole fan is in doubt.
        doubts.append(Doubt(f"{a.name.replace('-', ' ')} {i + 1}: from card {first_gap} on, how many cards lie there "
                            f"is estimated from the spacing (some indices were not read): check its length",
                            a.name, i, None, "count"))
    elif margin < LENGTH_MARGIN:
        doubts.append(Doubt(f"{a.name.replace('-', ' ')} {i + 1}: its spacing fits a missed index about as well as none, "
                            f"so it may hold another card: check its length", a.name, i, None, "count"))
    return pile


# A weak sighting names a missed fan place only if it lies this close (in fan steps) to where the
# place's index should be: half a step would let it name the place beside it.
WEAK_AT = 0.35


def _weak_at(weak: Sequence[SeenCard], at: float, step: float, taken: set[int]) -> SeenCard | None:
    """The likeliest weak sighting not used yet whose index lies where a missed fan place's should."""
    near = [(c.conf, k) for k, c in enumerate(weak)
            if k not in taken and c.along is not None and abs(c.along - at) < WEAK_AT * step]
    if not near:
        return None
    k = max(near)[1]
    taken.add(k)
    return weak[k]


def _weak_apart(strong: Sequence[Any], weak: Sequence[Any]) -> list:
    """The weak sightings that are not another look at an index already read."""
    if not weak:
        return []
    kept = one_per_place(list(strong) + list(weak))
    mine = {id(s) for s in weak}
    return [s for s in kept if id(s) in mine]


def fill_gaps(weak: Sequence[Any], layout: Layout, H: np.ndarray, opp: np.ndarray = OPPOSITE
              ) -> dict[tuple[str, int], list[SeenCard]]:
    """Weak sightings as cards, by the fanned pile whose line they lie on, with their distance along it.

    They are candidates only: ``_fan_pile`` takes one where the spacing of the cards
    read says an index was missed, and nowhere else, so a false weak box cannot add a card.
    """
    if not weak:
        return {}
    pl = [p for p in places(layout) if math.hypot(*p.area.fan) > 0]
    cards = group_cards(weak, 1.0, H, opp)
    if not cards or not pl:
        return {}
    tab = _apply(np.linalg.inv(H), np.array([c.anchor for c in cards]))
    cost, along = _place_costs(tab, pl)
    out: dict[tuple[str, int], list[SeenCard]] = defaultdict(list)
    for k, c in enumerate(cards):
        j = int(np.argmin(cost[k]))
        if np.isfinite(cost[k, j]):
            c.table, c.along = (float(tab[k][0]), float(tab[k][1])), float(along[k, j])
            out[(pl[j].area.name, pl[j].pile)].append(c)
    return out


# How much (in log) one fan's step may differ from the photo's. On the real photos of
# ../shared/real-dev (74 columns of four or more cards, in photos with three or more), a column's
# median step over the photo's median ranges 0.83-1.27 (5th-95th percentile): 0.1 allows that,
# where 0.05 read 6-8% of the columns 25-30% looser than the rest with a phantom missed card.
STEP_SPREAD = 0.1


# How much (log-odds) a card edge in the photo where a missed fan place would lie changes what supposing
# it costs (``MISSED_COST``), per robust standard deviation of the fan's edge profile above its median
# (held within ``EDGE_CLIP``). 0: the photo's edges are not looked at. Held-out renders through the
# detector (session 39), wrong cards, seeds 1000-1019 / 1020-1039: 1 484 / 1 359 -> 1 440 / 1 320; the same
# six games with fans rendered with each fan its own step (--fan-spread 0.1, as real players fan; seeds
# 1000-1029) 2 982 -> 2 819; Senior Wrangler 1040-1199, not used to choose, 3 823 -> 3 683. An edge profile
# taken as the median of each row's gradient (pips and indices make it noisy) at 0.3 gave 1 469 / 1 342,
# 2 798 and 3 693; this one at 0.3 1 440 / 1 326 and 2 843, at 1.0 1 492 / 1 328, 2 720 and 3 697.
EDGE_WEIGHT = 0.6
EDGE_CLIP = (-1.0, 3.0)
EDGE_PX = 48            # samples of the edge profile per card width along the fan
EDGE_ACROSS = (0.25, 0.75)   # the part of the card's breadth looked at (clear of both indices)
EDGE_WINDOW = 0.15      # of a fan step: how far from a place its edge may lie
EDGE_LINE = 2           # samples either side a row is compared with
EDGE_SHARE = 20         # percentile of a row's columns its darkness is taken at (an edge crosses them all)


@dataclass
class FanEdges:
    """How strongly the photo shows a card edge across one fan, sampled along it: ``z[k]`` at ``k / EDGE_PX``
    card widths from the fan's head (the head card's own edge at 0), in robust standard deviations above
    the fan's median row (held within ``EDGE_CLIP``)."""
    z: np.ndarray

    def at(self, along: np.ndarray, step: float) -> np.ndarray:
        """The strongest edge within ``EDGE_WINDOW`` steps of each place, from its index's distance
        along the fan (as ``SeenCard.along``); 0 beyond the profile."""
        w = max(1, int(round(EDGE_WINDOW * step * EDGE_PX)))
        padded = np.pad(self.z, w, constant_values=-np.inf)
        best = np.lib.stride_tricks.sliding_window_view(padded, 2 * w + 1).max(axis=1)
        k = np.rint(np.asarray(along) * EDGE_PX).astype(int)
        inside = (k >= 0) & (k < len(best))
        return np.where(inside, best[np.clip(k, 0, len(best) - 1)], 0.0)


def fan_edges(image: np.ndarray, layout: Layout, H: np.ndarray, piles: dict) -> dict[tuple[str, int], FanEdges]:
    """For each fan with cards seen, the card edges across it, from the photo cut square on along the fan.

    Each card of a fan covers the one before it but for a strip, so the photo shows one straight
    edge across the fan at each card, where the index detector may have missed the index. The
    trailing edge of every card lies the same distance from its index centre, so an edge ``d``
    along the fan from the head card's lies where a card whose index is ``d`` along would."""
    import cv2
    out = {}
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    for (name, i), seen in piles.items():
        a = layout[name]
        flen = math.hypot(*a.fan)
        reach = [c.along for c in seen if c.along is not None]
        if flen == 0 or not reach:
            continue
        unit = np.array(a.fan) / flen
        across = np.array([-unit[1], unit[0]])
        corners = np.array(a.position(i, 0)) + np.array([[0, 0], [1, 0], [0, CARD_ASPECT], [1, CARD_ASPECT]])
        start = corners @ unit
        lo, hi = (corners @ across).min(), (corners @ across).max()
        head = corners[int(np.argmin(start))] - (corners[int(np.argmin(start))] @ across) * across
        length = max(0.0, max(reach)) + 2 * flen
        breadth = (hi - lo) * (EDGE_ACROSS[1] - EDGE_ACROSS[0])
        n_along, n_across = int(length * EDGE_PX) + 1, max(4, int(breadth * EDGE_PX))
        # strip pixel (x across, y along) -> table -> photo
        corner = head + (lo + (hi - lo) * EDGE_ACROSS[0]) * across
        to_table = np.array([[*(across * breadth / n_across), 0.0], [*(unit / EDGE_PX), 0.0], [*corner, 1.0]]).T
        strip = cv2.warpPerspective(gray, H @ to_table, (n_across, n_along), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        # a card's edge is a thin dark line right across the fan (its border, or the shadow it casts):
        # how much darker each row is than the rows either side, in the row's lightest columns (pips,
        # pictures and indices cover part of a row, an edge all of it)
        dip = np.zeros_like(strip)
        dip[EDGE_LINE:-EDGE_LINE] = np.maximum(0.0, (strip[:-2 * EDGE_LINE] + strip[2 * EDGE_LINE:]) / 2
                                              - strip[EDGE_LINE:-EDGE_LINE])
        profile = np.percentile(dip, EDGE_SHARE, axis=1)
        mad = float(np.median(np.abs(profile - np.median(profile)))) * 1.4826
        z = np.clip((profile - np.median(profile)) / (mad + 1.0), *EDGE_CLIP)
        out[(name, i)] = FanEdges(z)
    return out


def _fan_fit(along: np.ndarray, step: float, conf: np.ndarray | None = None,
             edges: FanEdges | None = None) -> tuple[np.ndarray, float]:
    """Which fan place (counted from the first card seen) each card seen in one fan holds,
    and how much worse the best fit with another number of places is (in log-odds).

    Each hypothesis is a step for this fan (near the photo's ``step``) and where its
    grid starts. The cost weighs how far the cards sit off their places (``STEP_NOISE``),
    the missed indices it supposes (``MISSED_COST`` each) and how far the fan's step is from
    the photo's (``STEP_SPREAD``). A gap one and a half steps wide is thus judged against the
    whole fan: rounded on its own, it was one step, and every later card a place off.

    A card between the first and the last may also be left out (place -1), at ``PHANTOM_COST`` and more the
    surer its reading (``conf``): the detector boxes some indices twice or between two
    cards, and a place taken by such a box moves every later card of the fan a place on.
    A small margin means a fan a little looser than the rest could as well hide a missed index.
    """
    n = len(along)
    if n < 2:
        return np.zeros(n, int), math.inf
    total, came = _fan_costs(along, step, conf, edges)
    h, k = np.unravel_index(int(np.argmin(total)), total.shape)
    other = np.ones_like(total, bool)
    other[:, k] = False
    margin = float(total[other].min() - total[h, k]) if np.isfinite(total[other]).any() else math.inf
    return _traced(came, int(h), int(k)), margin


def _fan_other(along: np.ndarray, step: float, conf: np.ndarray | None = None,
               edges: FanEdges | None = None) -> np.ndarray | None:
    """The fan places of the best fit whose last card lies at another place than in ``_fan_fit``'s
    (the other length its margin is measured against); None if there is none."""
    if len(along) < 2:
        return None
    total, came = _fan_costs(along, step, conf, edges)
    _, k = np.unravel_index(int(np.argmin(total)), total.shape)
    total[:, k] = np.inf
    if not np.isfinite(total).any():
        return None
    h, k = np.unravel_index(int(np.argmin(total)), total.shape)
    return _traced(came, int(h), int(k))


@dataclass
class FanSpacing:
    """Where one fan's cards seen lie along it (kept ones only, fan steps of ``step``), how sure each
    reading is, and the places ``_fan_fit`` gave them (``slots``, from the first card seen; ``lead``: places
    before it)."""
    along: np.ndarray
    conf: np.ndarray
    step: float
    slots: np.ndarray
    lead: int
    edges: FanEdges | None = None

    @cached_property
    def fewer(self) -> float:
        """How much worse (log-odds) the fan fits with one unreadable place fewer: with its last card seen a
        place nearer its first (one missed index fewer between cards seen), or with its first card seen a
        step nearer the fan's head. Small: the spacing hardly says a card lies there."""
        costs = []
        k = int(self.slots[-1]) if len(self.slots) else 0
        if len(self.along) >= 2 and k > len(self.slots) - 1:      # a missed place between cards seen
            total, _ = _fan_costs(self.along, self.step, self.conf, self.edges)
            costs.append(float(total[:, k - 1].min() - total[:, k].min()))
        if self.lead > 0 and len(self.along):
            sigma = STEP_NOISE * self.step
            off = [(float(self.along[0]) - n * self.step) ** 2 / (2 * sigma ** 2) for n in (self.lead - 1, self.lead)]
            costs.append(off[0] - off[1] - MISSED_COST)
        return min(costs) if costs else math.inf


def _one_more_before(slots: np.ndarray, other: np.ndarray | None) -> int | None:
    """Where the other fit puts exactly one more missed place than ``slots`` between two cards
    that lie next to each other in it, and agrees on everything else: the card (counted among those
    kept) the extra place comes before; None if the two fits differ in any other way."""
    if other is None or not np.array_equal(slots < 0, other < 0):
        return None
    kept, alt = slots[slots >= 0], other[other >= 0]
    d = alt - kept
    jumps = np.flatnonzero(np.diff(d))
    if len(jumps) != 1 or d[0] != 0 or d[-1] != 1:
        return None
    n = int(jumps[0]) + 1
    return n if kept[n] - kept[n - 1] == 1 else None


def _fan_costs(along: np.ndarray, step: float, conf: np.ndarray | None,
               edges: FanEdges | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The dynamic programme of ``_fan_fit``: for each hypothesis (a step for this fan, and where its
    grid starts) and each place the last card may take, the cost of the cheapest placing, and for
    each card the place of the card kept before it (-1: this card left out).

    With ``edges`` (the photo's card edges along the fan), a missed place costs less where a card's
    edge shows in the photo and more where none does (``EDGE_WEIGHT``)."""
    rel = np.asarray(along, float) - along[0]
    n = len(rel)
    conf = np.zeros(n) if conf is None else np.asarray(conf, float)
    sigma = STEP_NOISE * step
    steps = step * np.linspace(0.7, 1.45, 31)                          # hypotheses: each step with each grid start
    s = np.repeat(steps, 7)[:, None]
    b = (steps[:, None] * np.linspace(-0.3, 0.3, 7)).reshape(-1, 1)
    n_places = int(max(2, np.ceil(max(0.0, rel.max()) / steps[0]) + 3))
    m = np.arange(n_places)[None, :]
    # missed[h, k]: what supposing place k missed costs; before_k[h, k]: all places before k together
    missed = np.full((len(s), n_places + 1), MISSED_COST)
    if edges is not None:
        # (never free: a missed place nothing else asks for would then cost nothing)
        missed[:, :n_places] = np.maximum(0.1 * MISSED_COST, MISSED_COST - EDGE_WEIGHT * edges.at(
            along[0] + b + np.arange(n_places)[None, :] * s, step))
    before_k = np.concatenate([np.zeros((len(s), 1)), np.cumsum(missed, axis=1)], axis=1)
    # best[h, k]: the cheapest way to place the cards so far with the last one kept at place k
    best = np.full((len(s), n_places), np.inf)
    best[:, 0] = ((rel[0] - b[:, 0]) ** 2) / (2 * sigma ** 2)
    came = np.zeros((n, len(s), n_places), np.int32)                   # place of the card kept before (-1: this one dropped)
    for i in range(1, n):
        # cheapest earlier place k' < k, with the places k'+1 .. k-1 missed between:
        # min(best[k'] - before_k[k'+1]) + before_k[k]
        shifted = best - before_k[:, 1:n_places + 1]
        run = np.minimum.accumulate(shifted, axis=1)
        arg = np.zeros_like(run, dtype=np.int32)
        for k in range(1, n_places):      # where each running minimum was taken (n_places is small)
            arg[:, k] = np.where(shifted[:, k] < run[:, k - 1], k, arg[:, k - 1])
        before = np.full_like(best, np.inf)
        before[:, 1:] = run[:, :-1] + before_k[:, 1:n_places]
        fit = ((rel[i] - b - m * s) ** 2) / (2 * sigma ** 2)
        take = before + fit
        # (never the last card: the fan's end shows its whole index, and a fan ends where it does)
        drop = best + (PHANTOM_COST + PHANTOM_CONF * conf[i] if i < n - 1 else np.inf)
        came[i] = np.where(take < drop, np.c_[np.full((len(s), 1), -2), arg[:, :-1]], -1)
        best = np.minimum(take, drop)
    return best + (np.log(s / step) ** 2 / (2 * STEP_SPREAD ** 2)), came


def _traced(came: np.ndarray, h: int, k: int) -> np.ndarray:
    """The place of each card in the placing of hypothesis ``h`` whose last card lies at place ``k``."""
    n = len(came)
    places = np.full(n, -1, int)
    for i in range(n - 1, 0, -1):
        prev = int(came[i, h, k])
        if prev == -1:
            continue               # dropped: the last place kept stays k
        places[i] = k
        k = prev
    places[0] = 0
    return places


# Log-odds against a card seen in a fan being no card of its own (a box around one index twice,
# or between two), and more the surer its reading (PHANTOM_CONF). Held-out renders through the detector,
# seeds 1000-1019 / 1020-1039, wrong cards (with REPEAT as set): 3.6 1 537 / 1 423, 3.0 (before session 37)
# 1 521 / 1 414, 2.5 1 511 / 1 392, 2.0 1 515 / 1 399, 1.5 1 501 / 1 390, 1.0 1 501 / 1 386. So a weak card
# is now let go more cheaply than a missed index is supposed (MISSED_COST); a sure one still is not.
PHANTOM_COST = 1.5
PHANTOM_CONF = 3.0


def _photo_step(gaps: np.ndarray, flen: float) -> float:
    """The fan step a photo shows, from the gaps between the cards seen in one fan.

    Players fan tighter or looser than the book, and a missed index makes a
    gap of two or more steps. A small enough step fits any gaps, by supposing
    many missed indices, so each step is judged as a likelihood: how far the gaps
    are from whole numbers of it (index positions are off by about STEP_NOISE),
    what the missed indices it supposes cost (each is unlikely), and how far it
    is from the book's step.
    """
    if flen <= 0 or len(gaps) < 3:
        return flen
    sigma = STEP_NOISE * flen
    best, best_cost = flen, float("inf")
    for s in flen * np.linspace(0.6, 1.5, 37):
        n = np.maximum(1, np.round(gaps / s))
        cost = (float(np.sum((gaps - n * s) ** 2)) / (2 * sigma ** 2) + MISSED_COST * float(np.sum(n - 1))
                + math.log(s / flen) ** 2 / (2 * 0.15 ** 2))
        if cost < best_cost:
            best, best_cost = float(s), cost
    return best


# A fan whose spacing fits another number of missed indices within this much (log-odds, about
# 7 to 1) is in doubt about its length. On 24 cached held-out layouts a game it flagged 20 fans
# read at the wrong length and one read right; on the labelled real-dev columns (117 of three or
# more cards, their real fanning irregular) it would flag 11. At 3.0 that was 28 and 4, and 28 of 117.
LENGTH_MARGIN = 2.0
# ... and, in a game whose every card lies on the table, a fan whose spacing fits one more card within
# this much is where a second look searches for cards the count says are missing (``look_again``).
SHORT_MARGIN = 8.0
STEP_NOISE = 0.2     # of a fan step: how far an index box sits off its place
MISSED_COST = 2.3    # log-odds against a missed index between two seen ones (about one in ten)


# A second reading at least this likely, next to the one kept, makes the card's name a doubt
# (on 126 cached held-out photos: wrong cards flagged Aunty Allis 72 -> 75%, Uncle Remus 70 -> 75%,
# Kings 11 -> 15%, precision level; at 0.25 more were flagged, but doubt precision fell 6 points).
RIVAL_READING = 0.5


def _misread_doubt(area: str, i: int, j: int, c: SeenCard, doubts: list[Doubt]) -> None:
    # (a card relabelled or read two ways already has its doubt below)
    if c.readings and not c.first_read and not c.others:
        p0 = c.readings.get(c.label, 0.0)
        rivals = [(p, l) for l, p in c.readings.items() if l != c.label and p >= RIVAL_READING * max(p0, 1e-9)]
        if rivals:
            p, l = max(rivals)
            doubts.append(Doubt(f"{area.replace('-', ' ')} {i + 1}, card {j + 1}: read as {Card.parse(c.label).pretty}, "
                                f"but it may be {Card.parse(l).pretty}", area, i, j, "low-confidence"))
    if c.index_read and c.index_read != c.label and not c.pips:
        was, now = Card.parse(c.index_read), Card.parse(c.label)
        doubts.append(Doubt(f"{area.replace('-', ' ')} {i + 1}, card {j + 1}: its index reads {was.pretty}, but this photo's "
                            f"indices read far more {SUIT_SYMBOL[was.suit]} than {SUIT_SYMBOL[now.suit]} for a deal, and it was "
                            f"among the likeliest {SUIT_SYMBOL[now.suit]}: read as {now.pretty}: check it", area, i, j, "low-confidence"))
    elif c.index_read and c.index_read != c.label and c.pips < PIPS_SURE:
        was, now = Card.parse(c.index_read), Card.parse(c.label)
        pips = "the pip in view looks" if c.pips == 1 else f"the {count_word(c.pips)} pips in view look"
        doubts.append(Doubt(f"{area.replace('-', ' ')} {i + 1}, card {j + 1}: its index reads {was.pretty}, but {pips} like "
                            f"{SUIT_NAME[now.suit]}: read as {now.pretty}: check it", area, i, j, "low-confidence"))
    if c.first_read:
        first, now = Card.parse(c.first_read).pretty, Card.parse(c.label).pretty
        doubts.append(Doubt(f"{area.replace('-', ' ')} {i + 1}, card {j + 1}: first read as {first}, but that is one {first} "
                            f"more than the packs hold; read as {now}, the next likeliest: check it", area, i, j, "relabelled"))
    if c.crowd and not c.first_read:
        doubts.append(Doubt(f"{area.replace('-', ' ')} {i + 1}, card {j + 1}: {count_word(c.crowd)} {Card.parse(c.label).pretty} "
                            f"were read, more than the packs hold; this one was kept, but any of them may be the misread one: check it",
                            area, i, j, "too-many-copies"))
    # after a relabel the other index may agree with the card's new name: no conflict is left then
    others = [x for x in c.others if x != c.label]
    if others:
        doubts.append(Doubt(f"{area.replace('-', ' ')} {i + 1}, card {j + 1}: its two indices read differently "
                            f"({', '.join(Card.parse(x).pretty for x in [c.label, *others])}); kept {Card.parse(c.label).pretty}",
                            area, i, j, "conflict"))


def _fit_depths(game: Game, state: State, squared: Iterable[tuple[str, int]]) -> list[Doubt]:
    """How many unseen cards lie under each squared top card, where the rules can tell (a 5 on an ace pile has four).

    The game's ``depth_under`` hook answers first. Where it cannot say, and
    the pile is a foundation (built in an order the rules fix), each depth
    from 0 to ``DEPTH_SEARCH`` is tried and the one the game's ``validate``
    objects to least is kept, if it is the only such depth. Otherwise the
    depth of the deal stands, and a doubt says so.
    """
    layout = game.layout(state.options)
    doubts: list[Doubt] = []
    search: list[tuple[str, int]] = []
    for a, i in squared:
        pile = state.areas[a][i]
        top = pile[-1]
        if top.card is None:
            continue
        n = game.depth_under(state, Loc(a, i), top.card)
        if n is not None:
            state.areas[a][i] = [Slot(None, True)] * n + [top]
        elif layout[a].kind == "foundation":
            search.append((a, i))
        elif len(pile) > 1:
            doubts.append(Doubt(f"{a} {i + 1}: only the top card shows; {len(pile) - 1} card(s) beneath are assumed from the deal",
                                a, i, None, "assumed"))
    if not search:
        return doubts
    assumed = {k: state.areas[k[0]][k[1]] for k in search}
    # Judge each pile in a trial state where the other searched piles show only their top card and
    # the fanned areas are empty, so that deck-wide counts cannot mask what the pile itself breaks.
    trial = state.copy()
    for a in layout.areas:
        if a.fan != (0.0, 0.0):
            trial.areas[a.name] = [[] for _ in trial.areas[a.name]]
    for a, i in search:
        trial.areas[a][i] = assumed[(a, i)][-1:]
    chosen: dict[tuple[str, int], int | None] = {}
    for a, i in search:
        top = assumed[(a, i)][-1]
        face = assumed[(a, i)][0].face_up if len(assumed[(a, i)]) > 1 else True
        scores = []
        for n in range(DEPTH_SEARCH + 1):
            trial.areas[a][i] = [Slot(None, face)] * n + [top]
            scores.append(len(game.validate(trial)))
        trial.areas[a][i] = [top]
        best = min(scores)
        chosen[(a, i)] = scores.index(best) if scores.count(best) == 1 else None
    for (a, i), n in chosen.items():
        pile = assumed[(a, i)]
        if n is None:
            state.areas[a][i] = pile
            if len(pile) > 1:
                doubts.append(Doubt(f"{a} {i + 1}: only the top card shows; {len(pile) - 1} card(s) beneath are assumed from the deal",
                                    a, i, None, "assumed"))
        else:
            face = pile[0].face_up if len(pile) > 1 else True
            state.areas[a][i] = [Slot(None, face)] * n + [pile[-1]]
    return doubts


# Where the count says cards are missing from a game whose every card lies on the table, and nothing else
# explains it (``_runs_off_photo`` replaces it when fans run out of the photo).
MISSING_IN_A_FAN = "in a fan whose length is in doubt"


def _balance(game: Game, layout: Layout, areas: dict, doubts: list[Doubt]) -> None:
    """Make the unseen areas (stock, face-down pile, cards put aside) hold what the table does not.

    They start as the deal (or the last photo) had them; unknown cards are
    taken from them or added to the stock until the count is the deck's.
    Places outside the photo (an "out-of-view" doubt in ``doubts``) start with the deal's count of unknown
    cards, a guess: where the table holds more than the deck, their unknown cards go first, one from each
    in turn. More cards on the table than the deck holds is a doubt.
    """
    total = _placed(areas)
    deck = len(game.deck())
    hidden_areas = _out_of_sight(layout)
    hidden_areas.sort(key=lambda a: a.kind not in ("stock", "facedown"))
    for a in hidden_areas:
        for p in areas[a.name]:
            while p and total > deck and p[-1].card is None:
                p.pop()
                total -= 1
    outside = [areas[d.area][d.pile] for d in doubts if d.kind == "out-of-view" and d.area in areas
               and d.pile is not None and d.pile < len(areas[d.area])
               and all(s.card is None for s in areas[d.area][d.pile])]
    while total > deck and any(outside):
        for p in outside:
            if p and total > deck:
                p.pop()
                total -= 1
    if total > deck:
        doubts.append(Doubt(f"{total} cards placed but the game has only {deck}: some cards were seen twice or misread",
                            kind="count"))
    elif total < deck and hidden_areas:
        areas[hidden_areas[0].name][0].extend([Slot(None, False)] * (deck - total))
    elif total < deck:
        where = "in the places outside the photo" if outside else MISSING_IN_A_FAN
        doubts.append(Doubt(f"{total} cards placed but all {deck} cards of the game lie on the table: {deck - total} "
                            f"not found (most likely {where})", kind="count"))


def _placed(areas: dict) -> int:
    return sum(len(p) for ps in areas.values() for p in ps)


def _out_of_sight(layout: Layout) -> list[Area]:
    """The areas whose cards a photo cannot count (stock, face-down pile, cards put aside)."""
    return [a for a in layout.areas if (not a.on_table or a.kind in ("stock", "facedown") or a.face == "down") and a.count]


def _missing_from_table(game: Game, state: State) -> int:
    """How many cards fewer than the game's are placed, in a game whose every card lies on the table
    (0 where some area out of sight can hold the rest)."""
    if _out_of_sight(game.layout(state.options)):
        return 0
    return max(0, len(game.deck()) - _placed(state.areas))


# ------------------------------------------------------- 5. explain changes

def explain_changes(previous: State, current: State) -> list[Change]:
    """Moves that turn the previous state into the current one, each checked for legality."""
    game = get_game(previous.game)
    changes: list[Change] = []
    removed: dict[Loc, list[str]] = {}
    added: dict[Loc, list[str]] = {}
    for a, ps in current.areas.items():
        for i, p in enumerate(ps):
            q = previous.areas.get(a, [])[i] if i < len(previous.areas.get(a, [])) else []
            old = [s.card.label if s.card else None for s in q]
            new = [s.card.label if s.card else None for s in p]
            k = 0
            while k < min(len(old), len(new)) and (old[k] == new[k] or None in (old[k], new[k])):
                k += 1
            if old[k:]:
                removed[Loc(a, i)] = old[k:]
            if new[k:]:
                added[Loc(a, i)] = new[k:]
    work = previous.copy()
    for dst, cards in list(added.items()):
        src = next((s for s, rc in removed.items() if rc and rc[-len(cards):] == cards and s != dst), None)
        if src is None:
            src = next((s for s, rc in removed.items() if rc and set(cards) <= set(rc) and s != dst), None)
        if src is None:
            continue
        move = Move.cards(src, dst, len(cards))
        reason = game.why_illegal(work, move)
        changes.append(Change(str(move), game.describe(work, move), reason is None, reason))
        if reason is None:
            game.apply(work, move)
        removed[src] = removed[src][:-len(cards)]
        added.pop(dst)
    for loc, cards in added.items():
        if any(cards):
            changes.append(Change("", f"new on {loc.human()}: {', '.join(Card.parse(c).pretty for c in cards if c)}", None,
                                  "not explained by a single move"))
    for loc, cards in removed.items():
        if any(cards):
            changes.append(Change("", f"gone from {loc.human()}: {', '.join(Card.parse(c).pretty for c in cards if c)}", None,
                                  "not explained by a single move"))
    return changes


# ------------------------------------------------------------------- public

AMBIGUITY = 0.02     # alignments whose scores differ by less than this are equally good
# Whether an alignment whose fit alone (less its handicap) cannot reach the best score read so far, by
# AMBIGUITY, is left unread (1). The fit less the handicap bounds the score from above, so the reading
# kept and its rivals are the same either way; only the time differs.
SKIP_HOPELESS_ALIGNMENTS = 1
# Score an alignment loses, over the layout's places, for each place it puts inside the photo that the deal (or
# the last photo) filled and its reading leaves empty. A photo that leaves part of an evenly spaced layout out
# (Senior Wrangler's first five columns) fits the cards read a few columns along as snugly; read so, the first
# columns would lie inside the photo with nothing on them, while read from the first column the missing ones lie
# outside it. Kept held-out renders of seeds 1000-1019 with the photo's right 40% or bottom 40% cut off
# (`benchmarks/reading_errors.py --cut`; wrong cards in the states given, the cards outside the photo among
# them, one refused Senior Wrangler photo left out): Senior Wrangler right 1 685 -> 953 (every shifted reading
# put back), Aunty Allis right 529 -> 505, Pendulum bottom 426 -> 352; Captain Spaulding, Seven and Six, Uncle
# Remus and Kings the same. Whole photos of seeds 1000-1039 read the same in all nine games. (Divided by the
# number of filled places instead, Poker Patience's one filled place, the turned card, swung a photo.)
EMPTY_IN_VIEW_COST = 0.3


def read_sightings(sightings: Sequence[Any], game_id: str, previous: State | None = None,
                   image_size: tuple[int, int] | None = None, options: dict | None = None,
                   weak: Sequence[Any] = (), image: np.ndarray | None = None) -> Reading:
    """Rebuild the state of ``game_id`` from sightings (the photo-free half of ``read_layout``).

    Several alignments of the layout may fit the cards about equally well
    (a periodic grid, a layout seen steeply at an angle). Each of the best is
    read through to a state, and the rules judge: the state the game's
    ``validate`` objects to least wins, and then the one that supposes fewer
    missed indices (``UNREAD_COST``). When two different states fit the cards
    equally well, a doubt says so.

    ``weak`` are sightings below the reading threshold. They never place a
    card or move the layout; they only name a fan place where the fan's
    spacing says a card lies but no index was read (see ``fill_gaps``).

    ``image``: the photo, when there is one: a card's big pips in view then weigh on its suit
    (``suits_from_pips``).
    """
    game = get_game(game_id)
    options = game.check_options(options if options is not None else (previous.options if previous else {}))
    layout = game.layout(options)
    sightings = one_per_place(sightings)
    weak = _weak_apart(sightings, weak)
    if previous is not None and previous.game != game.id:
        return Reading(None, sightings=sightings, message=f"the previous state is a {previous.game} game, not {game.id}")
    if len(sightings) < 2:
        return Reading(None, sightings=sightings,
                       message="no cards were recognised in this photo" if not sightings else
                       "only one card index was recognised: photograph the whole layout from above")
    scale = estimate_scale(sightings)
    template = previous if previous is not None else _template(game, options)
    pl = places(layout, template)
    first = first_grouping(sightings, scale)
    # (``rectifier`` is not used here: on rendered photos its size-based horizon was too noisy and cost more than it gave)
    candidates = register(first, layout, scale, template)
    q0 = np.array([c.anchor for c in first])
    shares = [_fit_share(H, q0, pl, layout) for _, H in candidates]
    # A handful of cards fits a big layout in many places: try more alignments then (each is cheap).
    limit = MAX_ALIGNMENTS if len(first) > 6 else 4 * MAX_ALIGNMENTS
    # the look-alikes of the alignment that explains most cards under a possible view, read right after it
    possible = [k for k, (_, H) in enumerate(candidates[:limit]) if _plausible_size(H, sightings)]
    shifted = []
    widest = None     # the alignment that explains most cards under a possible view (a refusal's second vote starts there)
    if possible:
        k = max(possible, key=lambda k: shares[k])
        widest = candidates[k][1]
        # (each reading costs a tenth of a second or more: a look-alike that explains fewer cards can't win)
        judged = [(_fit_share(H, q0, pl, layout), (f, H)) for f, H in look_alikes(candidates[k], layout)]
        judged = [(share, c) for share, c in judged if share >= shares[k] - LOOK_ALIKE_SLACK]
        shifted = [c for _, c in judged]
        candidates[k + 1:k + 1] = shifted
        shares[k + 1:k + 1] = [share for share, _ in judged]
        limit += len(shifted)
    if max(shares, default=0.0) < 0.5:
        # The first grouping is judged in pixels. Seen steeply, a four-corner deck's far indices can
        # stay apart from their cards, so most cards count twice and fit nowhere; before refusing
        # the photo, judge the best alignments again with the cards grouped on their table plane.
        shares = [max(share, _table_share(sightings, scale, H, pl, layout)) if k < limit else share
                  for k, (share, (_, H)) in enumerate(zip(shares, candidates))]
    # An alignment no camera could give must not raise the bar the others are judged by: it would
    # hide them, and the message would quote its share.
    # Only the alignments that will be read set it: a better share further down the list, never read,
    # would rule out every one that is (a Poker Patience photo of 33 cards was refused so).
    best_fit = max([s for s, (_, H) in zip(shares[:limit], candidates[:limit]) if _plausible_size(H, sightings)]
                   or shares[:limit] or [0.0])
    tried: list[tuple[float, float, Reading, np.ndarray]] = []
    misfit = 0.0      # the best share of an alignment no camera could give
    # each alignment whose cards lie too loosely: (snug share, share, cards), the alignment as given, its handicap
    loose: list[tuple[tuple[float, float, int], np.ndarray, float]] = []
    overfull = 0      # the most cards an alignment grouped beyond what the game's packs hold
    outside: tuple[int, int] | None = None   # the least share of cards an alignment left outside the layout, when too many: strays, cards
    strayed: list[tuple[float, float, Reading, np.ndarray]] = []     # the readings that left them
    deck = len(game.deck())
    look_alike = {id(H) for _, H in shifted}
    filled = {(p.area.name, p.pile) for p in pl if p.filled}
    passed: list[np.ndarray] = []     # alignments judged but not read: they could not win (see judge)
    kept: dict[int, Callable[[], Reading]] = {}     # id of each reading judged -> the reading to keep if it wins

    def judged_heads() -> list[np.ndarray]:
        """Where every alignment judged so far, read or passed over, puts the pile heads in the photo."""
        return [px for px in (_heads_in_photo(H, pl) for H in [t[3] for t in tried + strayed] + passed) if px is not None]

    def judge(H: np.ndarray, handicap: float, snug_bar: float = MIN_SNUG) -> None:
        nonlocal misfit, overfull, outside
        given = H
        # Again, on the table plane now that it is known, with this deck's corner offsets.
        opp = estimate_opposite(sightings, H)
        cards = group_cards(sightings, scale, H, opp)
        q = np.array([c.anchor for c in cards])
        H2, fit2 = _refine(H, cards, pl, scale, opp)
        if fit2 >= _fit_score(H, q, pl):
            H = H2
            opp = estimate_opposite(sightings, H)
            cards = group_cards(sightings, scale, H, opp)
            q = np.array([c.anchor for c in cards])
        fit = _fit_score(H, q, pl)
        by_hand = straightened(q, H, pl)
        # (share and snugness from one placing of the cards, each fan taken onto its place)
        seen = _explained(H, q if by_hand is None else by_hand, pl, layout)
        share = float(seen[0].mean()) if seen is not None else 0.0
        if share < 0.6:
            return
        if not _plausible_size(H, sightings):
            misfit = max(misfit, share)
            return
        if len(cards) > OVERFULL * deck:
            overfull = max(overfull, len(cards))
            return
        snug = _snugness(seen[1])
        if snug < snug_bar and len(cards) >= SNUG_CARDS:
            loose.append(((snug, share, len(cards)), given, handicap))
            return
        if SKIP_HOPELESS_ALIGNMENTS and tried and fit - handicap <= max(t[0] for t in tried) - AMBIGUITY:
            # Reading is most of the cost, and every cost below only lowers the score under
            # fit - handicap: this alignment can neither win nor tie with the one that will (see
            # ``AMBIGUITY``), so it is not read. Where it lies still counts as tried (``passed``).
            passed.append(H)
            return
        r, to_keep = _read_aligned(game, options, layout, cards, H, previous, image_size, sightings, opp, weak, image)
        kept[id(r)] = to_keep
        # what the rules found impossible, before or after the repair, counts against an alignment
        problems = sum(1 for d in r.doubts if d.kind in RULE_KINDS)
        unread = sum(1 for d in r.doubts if d.kind == "unreadable")
        strays = sum(1 for d in r.doubts if d.kind == "stray")
        base = fit - PROBLEM_COST * min(problems, 5) - handicap - STRAY_COST * min(strays, STRAYS_COUNTED)
        if EMPTY_IN_VIEW_COST and image_size is not None and r.state is not None and filled:
            base -= EMPTY_IN_VIEW_COST * len(_empty_in_view(layout, H, image_size, r.state, filled)) / len(pl)
        scored = (base - UNREAD_COST * unread / max(1, len(cards)), base, r, H)
        if strays > max(STRAYS_ALLOWED, STRAY_SHARE * len(cards)):
            # not kept, but its look-alikes are still read (below): a whole column read off the layout is one of them
            strayed.append(scored)
            if outside is None or strays * outside[1] < outside[0] * len(cards):
                outside = (strays, len(cards))
            return
        tried.append(scored)

    for (_, H), share0 in list(zip(candidates, shares))[:limit]:
        if share0 < best_fit - 0.15 or share0 < 0.5:
            continue
        judge(H, SHIFT_COST if id(H) in look_alike else 0.0)
    def objected_look_alikes() -> None:
        # The reading kept breaks a rule or leaves cards out: its look-alikes (one pile or fan step along) are read too,
        # where no alignment read already lies there. Voting finds a layout of equal piles one pile
        # off as readily, and only the look-alikes of the alignment that explains most cards are read.
        if not (tried or strayed) or not OBJECTED_LOOK_ALIKES:
            return
        best = max(tried + strayed, key=lambda t: t[0])
        if any(d.kind in RULE_KINDS or (STRAY_LOOK and d.kind == "stray") for d in best[2].doubts):
            near = judged_heads()
            for _, H in look_alikes((0.0, best[3]), layout):
                px = _heads_in_photo(H, pl)
                if px is None or not any(_same_places(px, o, scale) for o in near):
                    judge(H, SHIFT_COST)

    objected_look_alikes()
    if (tried or strayed) and STRETCH_LOOK:
        # The reading kept breaks several rules and its alignment fits loosely: it may be the right one
        # squeezed or stretched along a table axis (a sparse layout of fanned rows fits at half its row
        # pitch, each row's cards taken for the lower cards of the fans above). Stretched copies are read too.
        # The reading that will be kept is the one copied (STRETCH_KEPT), not a better-scored one that
        # left too many cards outside the layout: that one may break no rule while the one kept breaks many.
        best = max((tried or strayed) if STRETCH_KEPT else tried + strayed, key=lambda t: t[0])
        # (the objections first: most readings have too few, and then the fit need not be scored)
        objected = sum(1 for d in best[2].doubts if d.kind in RULE_KINDS) >= STRETCH_OBJECTIONS
        fit = _fit_score(best[3], q0, pl) if objected else 1.0
        if objected and fit < STRETCH_FIT:
            near = judged_heads()
            copies = stretched(best[3], q0, pl, scale, near, fit - STRETCH_SLACK)
            # Farther stretches in a vote of their own: in one vote with the near ones they would crowd out
            # the copies those find (their own slides are as many). Their raw fit is worse: a copy of an
            # alignment this far off gets the camera's slant wrong until it is refined.
            copies += stretched(best[3], q0, pl, scale, near, fit - STRETCH_FAR_SLACK, STRETCH_FAR_FACTORS, STRETCH_FAR_KEEP)
            for H in copies:
                judge(H, SHIFT_COST)
    if not tried and REGROUP_RETRY and loose and widest is not None and len(first) >= SNUG_CARDS:
        # About to refuse, though an alignment held most cards within the layout's areas, loosely: the
        # first grouping is made in pixels, and seen steeply (a four-corner deck's far indices close
        # together) it pairs indices of different cards, so the votes miss the layout. Group the cards
        # again on the table plane of the alignment that explained most of them, and vote again.
        regrouped = group_cards(sightings, scale, widest, estimate_opposite(sightings, widest))
        q1 = np.array([c.anchor for c in regrouped])
        again = register(regrouped, layout, scale, template)[:MAX_ALIGNMENTS]
        for _, H in again:
            if _fit_share(H, q1, pl, layout) >= 0.5 and _plausible_size(H, sightings):
                judge(H, 0.0)
        if REGROUP_LOOK_ALIKES:
            # the second vote can land one pile step off, as the first can
            objected_look_alikes()
    read_loosely = 0.0
    if not tried and LOOSE_SNUG and loose:
        # About to refuse a layout every alignment of which lies too loosely for MIN_SNUG: a layout laid out by
        # hand, askew, can (scatters and other games' layouts seldom come this near). The snuggest alignments
        # over LOOSE_SNUG are read after all, and the reading says how loosely its cards lie.
        for (snug, _, _), H, handicap in sorted(loose, key=lambda t: -t[0][0])[:LOOSE_READ]:
            if snug >= LOOSE_SNUG:
                read_loosely = max(read_loosely, snug)
                judge(H, handicap, LOOSE_SNUG)
    if not tried:
        return Reading(None, sightings=sightings, message=refusal(
            game.name, len(first), best_fit, misfit, overfull=(overfull, deck) if overfull else None,
            outside=outside, loose=max((t[0] for t in loose), default=None), unclear=unclear_indices(sightings)))
    tried.sort(key=lambda t: -(t[0] - COUNT_COST * _guesses(t[2], deck)))
    _, base, judged_by, _ = tried[0]
    reading = kept[id(judged_by)]()
    reading.score = tried[0][0] - COUNT_COST * _guesses(judged_by, deck)
    reading.alignment = tried[0][3]
    objections = [d.message for d in reading.doubts if d.kind == "impossible" and d.index is None]
    if objections:
        # (for the reading kept only: a validation a card, it costs too much for every alignment)
        _point_at_objections(game, reading.state, reading.confidences, reading.doubts, objections)
    # Rivals are judged on the fit alone: supposing fewer missed indices decides which state to keep,
    # not that the other is wrong (without this, a tie-break made the doubt vanish from wrong photos).
    rivals = [r for _, b, r, _ in tried[1:] if b > base - AMBIGUITY and _visible(r.state) != _visible(judged_by.state)]
    if rivals:
        reading.doubts.insert(0, Doubt(f"the cards fit the {game.name} layout in {len(rivals) + 1} positions equally well; "
                                       "the one kept may be shifted: check where the cards lie", kind="ambiguous"))
    unclear = unclear_indices(sightings)
    if unclear is not None:
        reading.doubts.insert(0, Doubt(
            f"{_unclear_words(unclear)}, so any card may be misread: check them all, or move the camera closer "
            "(or use a higher resolution), hold it still and photograph the layout again", kind="unclear"))
    if read_loosely:
        reading.doubts.insert(0, Doubt(f"the cards lie loosely on the {game.name} layout's places (at best about "
                                       f"{int(read_loosely * 100)}% of them squarely on one), so where each pile lies was hard to "
                                       "tell: check that every pile was read where it lies, or square the layout up a "
                                       "little and photograph it again", kind="ambiguous"))
    return reading


# A shift of the voted alignment (``look_alikes``) must explain the cards better by more than this,
# in fit or in missed indices supposed (UNREAD_COST over the cards: about 0.05 is one card in six
# fewer supposed missed): as a tie-break it would choose fewer face-down cards for no reason.
SHIFT_COST = 0.05
# A look-alike is read only if it explains nearly as many cards as the alignment it was moved from.
LOOK_ALIKE_SLACK = 0.02


# Whether stretched copies of the alignment kept are read too (1: yes) when its reading draws at least
# STRETCH_OBJECTIONS rule objections and its fit is under STRETCH_FIT (``stretched``); the stretch factors
# tried along each table axis, the shears, how far off a pile head across the axis a card still votes,
# the vote bin (card widths), how many copies are read, and how much worse than the alignment kept a
# copy may fit and still be read. Sparse Pendulum layouts were read at about half their row pitch, the
# rules objecting, with the right alignment never offered. Held-out renders through the detector, wrong
# cards: seeds 1000-1019 of the nine games 2 293 -> 2 182 (all Pendulum: 475 -> 364; with the boxes
# jittered by 0.5 px, 2 020 -> 1 987); Pendulum, Seven and Six, Uncle Remus 1020-1059 and Senior
# Wrangler 1020-1199 with older detections 8 959 -> 8 553 (all Pendulum: 1 152 -> 746; seven photos
# better, none worse). Every photo so mended had drawn 3 or more objections with a fit of 0.79 or
# less, and its best copy fitted at most 0.07 worse. Without the two fit limits 8 of the 20 Pendulum
# photos voted (0.1 s) and read three copies, and detect + read took 1.6 s instead of 1.3 (median of
# six); with them 5 vote, and the copies read are few. Without them, one objection instead of three, or
# six copies, read the same.
STRETCH_LOOK = 1
STRETCH_OBJECTIONS = 3
STRETCH_FACTORS = tuple(np.round(np.geomspace(0.45, 2.2, 55), 4))
STRETCH_SHEARS = tuple(np.round(np.arange(-0.2, 0.201, 0.025), 3))
STRETCH_ACROSS = 0.15
STRETCH_BIN = 0.05
STRETCH_KEEP = 3
# Stretches beyond those, voted apart (see ``read_sightings``): the same steps continued to 0.22 and 4.5.
# A Pendulum layout whose rows overlap by more than half a card was read with its rows taken for the
# packets of the top row, a row pitch (0.7) squeezed to a packet step (0.2): 0.29. Held-out renders through
# the detector, seeds 1000-1039: Pendulum 1032 95 -> 6 wrong cards (and 1001 72 -> 11 before REACH_GAP), no
# other photo of the nine games otherwise. Voting them with the near ones crowded those out (1027: 2 -> 62).
STRETCH_FAR_FACTORS = tuple(round(0.45 * (2.2 / 0.45) ** (k / 54), 4) for k in [*range(-24, 0), *range(55, 79)])
STRETCH_FAR_KEEP = 2
STRETCH_FAR_SLACK = 0.2
# Whether the reading copied is the one that will be kept (1), not the best-scored of all readings (0, as
# before session 33), which may have been left out for the cards it put outside the layout and so break
# no rule while the one kept breaks many. Pendulum renders through the detector, seeds 1000-1199: 1192
# reads 63 -> 15 wrong cards (and 1008 62 -> 9 before REACH_GAP); no other photo reads otherwise.
STRETCH_KEPT = 1
STRETCH_FIT = 0.8
STRETCH_SLACK = 0.1


def stretched(H: np.ndarray, q: np.ndarray, pl: Sequence[Place], scale: float,
              near: Sequence[np.ndarray] = (), least_fit: float = 0.0,
              factors: Sequence[float] | None = None, keep: int | None = None) -> list[np.ndarray]:
    """Copies of the alignment ``H`` squeezed or stretched along one table axis by one of ``factors``,
    sheared and slid along it, that put the most of the photo points ``q`` at the head of a pile (a vote:
    each card and pile head in line across the axis give the slide for each stretch and shear); the
    ``keep`` best, none where an alignment in ``near`` (pile heads in the photo) or an earlier copy lies,
    nor any that fits the points under ``least_fit`` (``_fit_score``). By default the factors are
    ``STRETCH_FACTORS``, and ``STRETCH_KEEP`` copies at most are kept."""
    tab = _on_table(H, q)
    if tab is None or len(tab) < 3:
        return []
    arr = _Arrays.of(pl)
    # Only where piles start: a fan's further places lie so close that nearly any slide fits them.
    pts = np.unique(np.round(np.concatenate([arr.firsts, arr.heads]), 3), axis=0)
    fs = np.array(STRETCH_FACTORS if factors is None else factors)
    keep = STRETCH_KEEP if keep is None else keep
    n = len(tab)
    found = []      # (votes, axis, shear, factor, slide)
    for axis in (0, 1):
        other = 1 - axis
        k, m = np.nonzero(np.abs(tab[:, None, other] - pts[None, :, other]) < STRETCH_ACROSS)
        if len(k) < 3:
            continue
        for sh in STRETCH_SHEARS:
            # card k lies at the head m in the copy when: along = sh * across + f * head_along + slide
            slide = (tab[k, axis] - sh * tab[k, other])[None, :] - fs[:, None] * pts[m, axis][None, :]   # factors x pairs
            b = np.floor(slide / STRETCH_BIN).astype(np.int64)
            low = int(b.min())
            span = int(b.max()) - low + 1
            # one vote per card in each (factor, bin): a card lies in one place
            cell = (np.arange(len(fs))[:, None] * span + (b - low)) * n + k[None, :]
            cells, votes = np.unique(np.unique(cell) // n, return_counts=True)
            for w in np.argsort(votes)[-2 * len(fs):]:
                fi, bi = divmod(int(cells[w]), span)
                found.append((int(votes[w]), axis, sh, float(fs[fi]), (low + bi + 0.5) * STRETCH_BIN))
    found.sort(key=lambda x: -x[0])
    out: list[np.ndarray] = []
    seen = list(near)
    for votes, axis, sh, f, t in found[:200]:       # (near-duplicates of the best cells come first)
        if len(out) >= keep:
            break
        S = np.eye(3)
        S[axis, axis] = f          # table point of the copy -> table point of H
        S[axis, 1 - axis] = sh
        S[axis, 2] = t
        H2 = H @ S
        px = _heads_in_photo(H2, pl)
        if px is None or any(_same_places(px, o, scale) for o in seen):
            continue
        seen.append(px)
        out.append(H2)
    return [H2 for H2, fit in zip(out, _fit_scores(out, q, pl)) if fit >= least_fit]


def look_alikes(best: tuple[float, np.ndarray], layout: Layout) -> list[tuple[float, np.ndarray]]:
    """The best alignment moved to where the layout repeats itself: one pile along each row of
    piles either way, one and two areas along a stack of like fanned areas (``STACK_LOOK``), and
    one and two fan steps back along fans that start face down.

    Voting finds the alignment from the first few places of each pile, and a layout of
    equally spaced piles fits the cards nearly as well one pile along (a Pendulum deal was
    read a column over, every card wrong, with the right alignment never tried). Face-down
    cards show no index, so the cards seen fit such fans as well a few steps further along,
    with more cards supposed face down and, where a column has fewer, face-up cards supposed
    missed; when most columns hold the deal's face-down cards voting can find only that one.
    Reading these too lets the fit, the rules and the missed-index count decide."""
    moves = {a.step for a in layout.areas if a.on_table and a.count > 1 and a.step != (0.0, 0.0)}
    shifts = [(k * x, k * y) for x, y in sorted(moves) for k in (1, -1)]
    fans = {a.fan for a in layout.areas if a.on_table and a.face == "mixed" and a.fan != (0.0, 0.0)}
    if len(fans) == 1:
        fx, fy = fans.pop()
        shifts += [(k * fx, k * fy) for k in (1, 2)]
    if STACK_LOOK:
        shifts += [(k * x, k * y) for x, y in _stack_pitches(layout) for k in (1, -1, 2, -2)]
    fit, H = best
    return [(fit, H @ np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1.0]])) for dx, dy in shifts]


# Whether look-alikes include the alignment moved one or two areas along a stack of like fanned areas
# (1: yes; ``_stack_pitches``). With REACH_GAP and LOCATE_ROUNDS a sparse Pendulum layout in play (the
# test of STRETCH_LOOK) was read two rows off, every row's cards in the places of the row two below; its
# stretched copies are no help there. No held-out render of seeds 1000-1039 reads otherwise.
STACK_LOOK = 1


def _stack_pitches(layout: Layout) -> list[tuple[float, float]]:
    """The pitch of each stack of three or more like fanned areas (same kind, piles, spacing and fan)
    laid out evenly one after another: Pendulum's six rows, 0.7 card widths apart. (Squared ones are
    left out: a stack of single cards or piles fits one area along far worse than a stack of fans,
    whose cards run on towards the next area, and Poker Patience's square read no better with them.)"""
    stacks: dict[tuple, list[tuple[float, float]]] = defaultdict(list)
    for a in layout.areas:
        if a.on_table and a.count > 1 and a.fan != (0.0, 0.0):
            stacks[(a.kind, a.count, a.step, a.fan, a.wrap)].append(a.origin)
    out = []
    for origins in stacks.values():
        if len(origins) < 3:
            continue
        gaps = np.diff(np.array(sorted(origins, key=lambda o: (o[1], o[0]))), axis=0)
        if np.allclose(gaps, gaps[0], atol=1e-6):
            out.append((float(gaps[0][0]), float(gaps[0][1])))
    return out


def _table_share(sightings: Sequence[Any], scale: float, H: np.ndarray, pl: Sequence[Place], layout: Layout) -> float:
    """The share of cards an alignment explains, with the cards grouped on its table plane."""
    try:
        cards = group_cards(sightings, scale, H, estimate_opposite(sightings, H))
    except np.linalg.LinAlgError:
        return 0.0
    return _fit_share(H, np.array([c.anchor for c in cards]), pl, layout) if cards else 0.0


# A photo whose card indices are small and mostly unsure: fewer than this share of the sightings read is named
# at 0.5 or more, and their median box is under this many pixels tall. Cached held-out renders (session 57):
# rendered at 1280 x 720 (a webcam's 720p; the issue's range starts at 1080p), 72 layouts of the nine games
# gave 1 139 wrong cards where the same layouts at 1080p gave 540, and five were refused. Of 24 of them kept
# (Senior Wrangler, Seven and Six, Kings), five meet both bars: four of the five refused, and one read with 37
# wrong cards of 54. None of the 516 photos of the 1080p caches (tidy and hand-laid) meets both (sure shares
# from 0.49; boxes 22.6 px or taller). A refusal then says so, and a reading starts with a doubt.
UNCLEAR_SHARE = 0.5
SMALL_INDEX_PX = 24.0


def unclear_indices(sightings: Sequence[Any]) -> tuple[int, int, float] | None:
    """(sightings named at 0.5 or more, sightings, median box height in pixels) when the photo's indices are
    small and mostly unsure (``UNCLEAR_SHARE``, ``SMALL_INDEX_PX``): a camera too far off, or too few pixels."""
    if len(sightings) < 5:
        return None
    sure = sum(1 for s in sightings if float(s.conf) >= 0.5)
    height = float(np.median([s.box[3] - s.box[1] for s in sightings]))
    if sure >= UNCLEAR_SHARE * len(sightings) or height >= SMALL_INDEX_PX:
        return None
    return sure, len(sightings), height


def refusal(game_name: str, n: int, best_fit: float, misfit: float = 0.0, *, overfull: tuple[int, int] | None = None,
            outside: tuple[int, int] | None = None, loose: tuple[float, float, int] | None = None,
            unclear: tuple[int, int, float] | None = None) -> str:
    """Why no state was read from ``n`` cards (``_refusal``), and, with ``unclear`` (``unclear_indices``), what in the
    photo may be the cause."""
    why = _refusal(game_name, n, best_fit, misfit, overfull=overfull, outside=outside, loose=loose)
    if unclear is None:
        return why
    said = _unclear_words(unclear)
    return f"{why} {said[0].upper()}{said[1:]}: move the camera closer, or use a higher resolution, and hold it still."


def _unclear_words(unclear: tuple[int, int, float]) -> str:
    sure, seen, height = unclear
    return (f"only {sure} of the {seen} card indices found could be read clearly, and they are small in this photo "
            f"(about {height:.0f} pixels tall)")


def _refusal(game_name: str, n: int, best_fit: float, misfit: float = 0.0, *, overfull: tuple[int, int] | None = None,
             outside: tuple[int, int] | None = None, loose: tuple[float, float, int] | None = None) -> str:
    """Why no state was read from ``n`` cards, the first reason that holds:

    ``misfit``: the largest share of them an alignment explains that no camera could give;
    ``overfull``: (cards, pack) when an alignment grouped more cards than the game's packs hold;
    ``outside``: (strays, cards) of the alignment that left the fewest cards outside its areas,
    when every one read left too many; ``loose``: (snug share, share, cards) of the snuggest
    alignment, when none put the cards squarely on its places; ``best_fit``: the largest share of
    the cards any alignment explains.
    """
    a = a_or_an(game_name)
    if misfit:
        # (saying "only 95% fit" would blame the cards for what is the view's fault)
        return (f"this does not look like {a} layout: {misfit:.0%} of the {n} cards seen "
                f"fit its areas only under a view no camera gives (indices far too small or large, or "
                f"the table stretched). Check the chosen game, and photograph the whole layout from above.")
    if overfull:
        return (f"this does not look like {a} layout: {overfull[0]} cards are seen, and the game has only "
                f"{overfull[1]}. Check the chosen game, and that no other cards lie in the photo.")
    if outside:
        return (f"this does not look like {a} layout: where its areas fit the cards best, {outside[0]} of the "
                f"{outside[1]} cards seen still lie outside them. Check the chosen game, and that no other "
                f"cards lie in the photo.")
    if loose:
        snug, share, cards = loose
        return (f"this does not look like {a} layout: {share:.0%} of the {cards} cards seen lie within "
                f"its areas, but they are not laid out on its places: at best about {snug:.0%} of them lie squarely "
                f"on a place (in line with its fan, a fan step apart), where dealt cards nearly all do. "
                f"Check the chosen game, and photograph the whole layout; if the cards were put down loosely, "
                f"square the columns and piles up a little and try again.")
    if best_fit >= 0.6:
        # the alignment that explains most cards fits them loosely, and the tight ones explain too few
        return (f"could not settle where the {game_name} layout lies in this photo: the cards fit it "
                f"in several places, none clearly ({best_fit:.0%} of the {n} cards seen at best, loosely). "
                f"Check the chosen game, and photograph the whole layout from above.")
    return (f"this does not look like {a} layout: only {max(best_fit, 0):.0%} of the {n} cards seen "
            f"fit its areas. Check the chosen game, and photograph the whole layout.")


# The least snug share (``_snug_share``) of an alignment read. 20 held-out renders of each of the nine
# games through the detector (seeds 1000-1019): every reading kept scores 0.62 or more but two Senior
# Wrangler photos (0.38 and 0.51, with 126 and 85 of about 100 cards wrong); 28 index boxes dropped at
# random scored 0.48 at most in the 132 scatters a game took for its layout (all 48 tried for Pendulum).
MIN_SNUG = 0.55
# A photo about to be refused because every alignment lies too loosely has its LOOSE_READ snuggest alignments
# read after all, if they reach this (0: refused); the reading then says so, with a doubt on the whole layout.
# Session 55: six of the 108 hand-laid held-out renders at U = 1.5 were refused so, at snug shares of 0.50-0.55;
# five are read now, with 29-91 wrong cards each where all their cards (71-104) were wrong. Cached renders
# through the detector, wrong cards: U = 1.5 2 247 -> 2 084, fresh U = 1 1 500 -> 1 460, fresh U = 1.5
# 1 588 -> 1 549, tidy and U = 1 unchanged (1 295, 1 185). Other games' photos given a state 58 -> 62 of 288
# (refusal benchmark, four layouts a game), scatters 0 of 108 still. MIN_SNUG itself lowered to 0.5 instead
# let loose alignments beat the right one in photos that were read: U = 1 1 185 -> 1 318.
LOOSE_SNUG = 0.5
LOOSE_READ = 4
# Whether a photo about to be refused is voted on again with its cards grouped on the table plane of the
# best alignment found (see read_sightings).
REGROUP_RETRY = 1
# Whether the reading kept after that second vote has its look-alikes read too (as the first vote's has,
# OBJECTED_LOOK_ALIKES). Held-out Senior Wrangler render 1016 (kde-penguins, steep) was read with every column
# one place along: 116 -> 56 wrong cards; the 40 kept 1080p photos 792 -> 732. Other games' photos read as
# each of the nine games (first 10 kept photos of each): 171 -> 172 of 720 gave a state (one Senior Wrangler
# photo as Seven and Six); scatters all refused still.
REGROUP_LOOK_ALIKES = 1
# Fewer cards than this say too little for the snug share to judge: an alignment fitted to two or three
# cards can leave one a little askew (a Poker Patience photo cut down to its two left cards was refused).
SNUG_CARDS = 6
# Cards seen, over the game's pack(s), beyond which an alignment is not read: the cards are another
# game's. Cards are grouped from their indices, and a misgrouped index counts twice: 20 held-out
# renders of each of the nine games through the detector group at most 1.17 times the pack (Pendulum,
# 61 cards), and 55 of 146 two-pack photos read as Pendulum grouped more than 1.2 times its 52.
OVERFULL = 1.3
# Cards left outside every area (strays) beyond which an alignment's reading is not kept: more than
# STRAYS_ALLOWED and more than STRAY_SHARE of the cards seen. Readings kept of held-out renders
# through the detector (seeds 1000-1019 of the nine games, twice: session-28 and session-19 detections;
# and with the older ones Senior Wrangler 1020-1199, Pendulum, Seven and Six and Uncle Remus 1020-1059):
# 651, of which 13 leave more out, each with 52 or more cards wrong; of 537 readings of other games'
# photos that pass the checks above, 219 do.
STRAYS_ALLOWED = 3
STRAY_SHARE = 0.1
MAX_ALIGNMENTS = 4
RULE_KINDS = ("impossible", "impossible-read")   # doubts that say the rules find the state impossible
# Whether the look-alikes of the reading kept are read too when the rules object to it (1: yes). A
# Pendulum photo's voting put every pile one place along in all four alignments read (62 of 77 cards
# wrong; read so, 30). Held-out renders through the detector: seeds 1000-1019, Pendulum 443 -> 411
# wrong cards, the other eight games unchanged; Pendulum seeds 1020-1059, cached after, 989 -> 979, and
# Seven and Six, Uncle Remus and Senior Wrangler unchanged there. About 0.07 s more a Pendulum photo.
OBJECTED_LOOK_ALIKES = 1
# ... and when it leaves cards seen outside the layout (1: yes): Senior Wrangler photos read a column
# off put whole columns outside. Held-out renders through the detector, wrong cards: seeds 1000-1059 of
# the nine games 5 345 -> 5 271 (all of it Senior Wrangler, 1 813 -> 1 739); Senior Wrangler seeds
# 1060-1199, chosen after, 4 789 -> 4 731. The median read time of those photos rose 0.67 -> 0.71 s.
STRAY_LOOK = 1
# Score an alignment loses per fan place its state reads as unreadable, over the cards seen: each is an index
# supposed missed. When fans differ in step, an alignment a fan step or two along the columns can fit the
# cards as well as the right one, putting missed places at the head of every fan. Chosen on rendered held-out
# layouts (24 a game, oracle sightings, each fan at its own step, --fan-spread 0.1): cards right Uncle Remus
# 58.8 -> 68.8%, Seven and Six 66.9 -> 73.6%; with uniform fans Seven and Six 89.4 -> 88.2% (a photo whose
# right alignment supposes more covered indices), Uncle Remus 85.9 -> 87.5%; 0.2 and 0.5 did no better. Through
# the detector (benchmark, 20 a game) cards right rose Seven and Six 56.5 -> 62.5%, Uncle Remus 62.3 -> 66.2%.
UNREAD_COST = 0.4
# Score an alignment loses, when the readings are ranked, per doubt its reading raises about a pile's length (a
# "count" doubt: the pile's missed indices counted from its spacing, or unreadable places left out), and per card
# it loses from a game whose every card lies on the table. An alignment a fan step along the columns fits the
# cards almost as well as the right one, but puts missed places at fan heads and spacing the photo does not
# show, so it guesses more lengths; where the right one guesses a length because a column's first index was
# missed, the alignment a step along loses that card instead, which counts the same.
# Only the final ranking counts it: which readings' look-alikes and stretched copies are read still follows the
# score without it (counted there, it changed which copies were read, and one Pendulum photo never had its
# right alignment read: 15 -> 66 wrong cards).
# Cards lost count up to LOST_COUNTED: a photo that loses more has trouble no alignment mends (cards cut off or
# undetected), and there, uncapped, they made the reading that supposes most missed indices win (a Senior
# Wrangler photo losing 33 cards: 84 -> 97 wrong).
# Held-out renders through the detector, wrong cards. 0.025 was chosen in a replay of the readings judged on
# five sets of photos (below): 0.02 and 0.03 did a little worse, capping the guessed lengths (4-15) did worse,
# and cards lost made no difference on them (one Captain Spaulding photo 17 better, one 17 worse) but keep the
# columns whose first index was missed in place (a test). Counting cards read beyond the deck too did worse
# (Pendulum). Before -> after, as kept (per photo: benchmarks/results/reading/count_cost_s53.json):
# - the caches it was chosen on: tidy (20 a game) 1 372 -> 1 345, hand-laid U = 1 (12) 1 298 -> 1 180,
#   U = 1.5 (12) 2 264 -> 2 136: Seven and Six, Uncle Remus, Captain Spaulding, Senior Wrangler and Pendulum
#   gain, no game loses;
# - fresh layouts, seeds 3000-3011, at U = 1: 1 693 -> 1 659 (Uncle Remus 166 -> 127, Seven and Six 342 -> 337,
#   Senior Wrangler 574 -> 584, the others level); at U = 1.5: 1 552 -> 1 535 (Uncle Remus 223 -> 188, Captain
#   Spaulding 528 -> 546, Seven and Six and Pendulum level).
# Session 54: the figures above were read from detections of a classifier that saturated on this CPU (see
# models/MODEL_CARD.md). On the same photos detected right, the five sets come to 7 815 wrong cards with it and
# 7 803 without: level. It is kept for the gains it showed on both earlier sets of detections.
COUNT_COST = 0.025
LOST_COUNTED = 8


def _guesses(reading: Reading, deck: int) -> int:
    """What a reading is charged COUNT_COST for: its doubts on a pile's length, and the cards it placed short
    of the ``deck`` (up to LOST_COUNTED; a game with a stock or face-down pile places them all there)."""
    lost = max(0, deck - _placed(reading.state.areas)) if reading.state is not None else 0
    return sum(1 for d in reading.doubts if d.kind == "count" and d.area is not None) + min(lost, LOST_COUNTED)
# Score an alignment loses for each thing the rules find impossible in its state (up to five). An
# objection is evidence, so one must outweigh a look-alike's handicap (SHIFT_COST), which is only a
# tie-break: at 0.02 a Poker Patience square read a row off, its turned card on the discard pile that
# only Advanced Poker has, beat the right alignment moved back a row. 20 held-out renders of each of
# the nine games (seeds 1000-1019), wrong cards: renderer's labels 876 -> 868 (Poker Patience 22 -> 14,
# the others level), through the detector 2 341 -> 2 327 (Poker Patience 46 -> 37, Seven and Six 408 -> 403,
# the others level); 0.1 did the same within two cards.
PROBLEM_COST = 0.06
# Each card seen but outside every place of the layout counts against an alignment (up to ten of them),
# about half a rules objection. The fit score alone left such cards out at little cost, so an alignment
# a column or a row off, fitting the cards it keeps a little more snugly, could win. Held-out renders
# through the detector, wrong cards, seeds 1000-1059 of the nine games: 5 475 -> 5 345 (Pendulum
# 1 390 -> 1 287, Senior Wrangler 1 836 -> 1 813, Seven and Six 1 051 -> 1 045, Poker Patience 37 -> 39);
# 0.015 gave 5 398 and 0.05 5 409; a cost by the strays' share of the cards (twice the share) 5 332,
# but it weighed a few strays heavily in a photo of few cards and lost a Pendulum fixture's right
# reading. Senior Wrangler seeds 1060-1199, chosen after: 5 096 -> 4 789.
STRAY_COST = 0.03
STRAYS_COUNTED = 10


def _visible(state: State) -> dict:
    return {a: [[s.token() for s in p if s.face_up] for p in ps] for a, ps in state.areas.items()}


# A card is read as another of its likely labels (see settle_copies) only if the classifier gave
# that label at least this probability.
RELABEL_MIN = 0.01


def settle_copies(cards: Sequence[SeenCard], limit: Counter) -> list[SeenCard]:
    """Where more copies of a card are seen than the packs hold, read one copy as another of its likely labels.

    The copy to change and its new label are the pair that costs least (the smallest drop in the
    classifier's log-probability) among labels the layout still has room for; repeated until
    every count fits or no such label is left (``compose`` then blanks the least sure extras).
    Cards whose indices carry no ``readings`` are never changed. Returns the cards changed; each
    remembers its first reading in ``first_read``. Every card that keeps an over-counted label
    remembers how many copies were first read (``crowd``): the classifier's cheapest change is
    not always the misread copy, so the copies kept are doubtful too.
    """
    count = Counter(c.label for c in cards)
    first = Counter(count)
    changed: list[SeenCard] = []
    for c in cards:
        if first[c.label] > limit.get(c.label, 0):
            c.crowd = first[c.label]
    while True:
        over = {label for label, n in count.items() if n > limit.get(label, 0)}
        best = None
        for c in cards:
            if c.label not in over or not c.readings:
                continue
            p0 = max(c.readings.get(c.label, 0.0), RELABEL_MIN)
            for label, p in c.readings.items():
                if label != c.label and p >= RELABEL_MIN and count[label] < limit.get(label, 0):
                    cost = math.log(p0) - math.log(p)
                    if best is None or cost < best[0]:
                        best = (cost, c, label, p / p0)
        if best is None:
            return changed
        _, c, label, ratio = best
        count[c.label] -= 1
        count[label] += 1
        c.first_read = c.first_read or c.label
        c.crowd = 0
        c.label = label
        c.conf *= min(1.0, ratio)
        changed.append(c)


# Whether a card's big pips in view weigh on its suit (1) or not (0), and the least probability the index
# is taken to give either suit of the colour (an index sure of the wrong suit still yields to clear pips).
PIPS = 1
PIP_FLOOR = 0.01
# Pips a card must show for them to weigh on its suit. Two would keep a neighbour's pip, shown by a card
# placed a little off, from changing a suit alone (as on two real-dev photos read as a layout they are not),
# but cost 89 and 71 more wrong cards on the cached held-out renders of seeds 1000-1019 and 1020-1039
# (1 670 -> 1 759, 1 459 -> 1 530); a suit changed on fewer than PIPS_SURE pips stays a doubt instead.
PIPS_MIN = 1
PIPS_SURE = 3          # a suit the pips changed on fewer pips than this stays a doubt
PIP_CARDS = 4          # cards of a colour whose pips were judged, at least, for the pips to be believed
# ... unless the indices split the colour's cards of the photo this unlikely (binomial tail, as SUIT_ALPHA):
# then the indices are the ones in doubt (Interregnum, Kings and Poker Patience photos show few number cards)
PIP_LOPSIDED = 0.01
PIP_CLEAR = 1.0        # a pip this sure (log-odds) of one suit says the card's pips disagree if another says the other
PIP_SPLIT_SLACK = 1.0  # how much less evenly than the indices the pips may split a colour's cards


def _two_readings(c: SeenCard, a: str, b: str, floor: float) -> tuple[float, float]:
    """How likely the card's indices say labels ``a`` and ``b`` are, each at least ``floor``."""
    return (max(c.readings.get(a, c.conf if c.label == a else 0.0), floor),
            max(c.readings.get(b, c.conf if c.label == b else 0.0), floor))


def _weigh_two(c: SeenCard, a: str, b: str, extra: float, floor: float) -> tuple[bool, float]:
    """Add ``extra`` log-odds for label ``a`` against ``b`` to the card's own readings of the two (each
    at least ``floor``), and let the card take the likelier. Returns whether its label changed, and how
    sure the new odds make it of the label it has (so its confidence should be no more)."""
    pa, pb = _two_readings(c, a, b, floor)
    both = min(1.0, pa + pb)
    q = 1.0 / (1.0 + math.exp(-(math.log(pa / pb) + extra)))
    c.readings = dict(c.readings)
    c.readings[a], c.readings[b] = both * q, both * (1 - q)
    label = a if q >= 0.5 else b
    turned = label != c.label
    c.label = label
    return turned, both * max(q, 1 - q)


def _weigh_suit(c: SeenCard, a: str, b: str, extra: float, floor: float, changed: list[SeenCard]) -> None:
    """``_weigh_two`` for the two suits of a colour: a card that turns remembers its indices' reading
    (``index_read``) and joins ``changed``; either way its confidence is no more than the new odds give."""
    was = c.label
    turned, sure = _weigh_two(c, a, b, extra, floor)
    if turned:
        c.index_read = c.index_read or was
        changed.append(c)
    c.conf = min(c.conf, sure)


@functools.cache
def _pip_judge():
    from .pips import PipJudge
    return PipJudge.load()


def suits_from_pips(image: np.ndarray, piles: dict[tuple[str, int], list[SeenCard]], H: np.ndarray) -> list[SeenCard]:
    """Weigh the suit of each number card by the shape of its big pips in view.

    Some decks' index suit signs are a few pixels of ink, and the classifier takes one suit of a colour
    for the other; the pips in a card's body are several times larger. A card's view is cut from the
    photo square on (its place on the table is known now), the parts other cards cover are masked,
    and each whole pip there is judged (``vision.pips``). The log-odds add to the index's own odds of
    the two suits of its colour; where they turn the balance, the card takes the other suit (it
    remembers the indices' reading in ``index_read``) and its confidence is no more than the new odds give.
    Returns the cards whose suit changed."""
    from .pips import COLOUR, PIPS_COUNTED, PX, YES, card_view, pip_log_odds

    judge = _pip_judge()
    changed: list[SeenCard] = []
    cards = [c for cs in piles.values() for c in cs if c.table is not None]
    if judge is None or not cards:
        return changed
    corners = np.array([c.table for c in cards]) - INDEX_CENTRE     # each card's top-left corner on the table
    at = {id(c): k for k, c in enumerate(cards)}
    rank_of = {}
    for c in cards:
        try:
            rank_of[id(c)] = Card.parse(c.label)
        except ValueError:
            continue
    hw = np.array([1.0, CARD_ASPECT])
    judged: list[tuple[SeenCard, str, str, str, float]] = []
    for key, cs in piles.items():
        for n, c in enumerate(cs):
            card = rank_of.get(id(c))
            # (an ace's one big pip is often drawn with flourishes: judged, it gained 23 cards on the cached
            # renders but read the real-dev deck's ace of clubs as spades, so aces are left to their index)
            if card is None or not 2 <= card.rank <= 10:
                continue
            here = corners[at[id(c)]]
            view, hidden = card_view(image, H, tuple(here), CARD_ASPECT)
            below = {id(x) for x in cs[:n + 1]}
            # every other card lying over this one's outline, but those before it in its own fan (beneath it)
            for k in np.flatnonzero(np.all(np.abs(corners - here) < hw, axis=1)):
                if id(cards[k]) in below:
                    continue
                x0, y0 = ((corners[k] - here) * PX).round().astype(int)
                hidden[max(0, y0):max(0, y0 + int(PX * CARD_ASPECT)), max(0, x0):max(0, x0 + PX)] = True
            colour = COLOUR[card.suit]
            odds = pip_log_odds(view, hidden, colour, judge)
            strong = [o for o in odds if abs(o) >= PIP_CLEAR]
            # one card's pips are all one suit: where they disagree, some are not pips (a shadow, a
            # neighbour's edge, the cut-off part of a picture) and none is believed
            if len(odds) >= PIPS_MIN and not (any(o > 0 for o in strong) and any(o < 0 for o in strong)):
                rank = c.label[:-1]
                judged.append((c, colour, rank + YES[colour], rank + PARTNER[YES[colour]],
                               sum(sorted(odds, key=abs, reverse=True)[:PIPS_COUNTED])))
                c.pips = len(odds)
    read_suits = Counter(card.suit for card in rank_of.values())
    for colour in ("black", "red"):
        mine = [j for j in judged if j[1] == colour]
        yes = YES[colour]
        pair, fewer = read_suits[yes] + read_suits[PARTNER[yes]], min(read_suits[yes], read_suits[PARTNER[yes]])
        # too few cards for their split to say whether the pips mislead, unless the indices' own split is
        # unlikely for a deal (a deck whose one suit the classifier takes for the other: the session-32 doubt)
        if len(mine) < PIP_CARDS and not (mine and pair and _binomial_tail(pair, 0.5, fewer) < PIP_LOPSIDED):
            continue
        # One deck draws its pips unlike any the judge learnt (thin-stemmed clubs blur into spades): then
        # nearly all its pips say one suit. The suits of a deal split about evenly, so the pips are believed
        # in a photo only where they split its cards at least as evenly as the indices do.
        half = len(mine) / 2
        by_pips = sum(1 for j in mine if j[4] > 0)
        by_index = sum(1 for c, _, yes, no, _ in mine if c.label == yes)
        if abs(by_pips - half) > abs(by_index - half) + PIP_SPLIT_SLACK:
            continue
        for c, _, yes, no, pips in mine:
            _weigh_suit(c, yes, no, pips, PIP_FLOOR, changed)
    return changed


# Within one photo the two suits of a colour come about equally often (a deal is a fair sample of full
# packs), so a split the classifier's readings make far less even than chance would (two-sided binomial
# tail under BALANCE_ALPHA, at least BALANCE_MIN cards) says it is taking this deck's one suit for the
# other. The index odds of that colour are then shifted, all by one amount, until the split is one
# chance makes BALANCE_TO of the time: the cards the classifier was least sure of change first. On a
# held-out deck (gnome-plastic) the classifier reads almost every club court as a spade, sure of each;
# its club odds are still higher on clubs than on spades. Cached held-out renders through the detector,
# wrong cards: seeds 1000-1019 1 501 -> 1 496, 1020-1039 1 390 -> 1 369 (tuned there; ALPHA 0.01 with
# TO 0.2 gave 1 495 / 1 361, TO 0.5 1 495 / 1 373); checked after on Senior Wrangler 1020-1199 4 296 ->
# 4 282 and Pendulum 1040-1199 885 -> 849. Before the pips and the copy count, which see more: of the
# suits it changes on gnome-plastic, 437 right and 172 wrong, most of which those two then settle.
BALANCE_ALPHA = 0.001
BALANCE_TO = 0.05
BALANCE_MIN = 8
BALANCE_FLOOR = 0.005   # the least probability taken for a suit the readings leave out (they stop at 0.01)


def balance_suits(cards: Sequence[SeenCard]) -> list[SeenCard]:
    """Shift the index odds of one suit against the other of its colour where the photo's readings
    split the colour's cards too unevenly for a deal (``BALANCE_ALPHA``), until the split is a likely
    one (``BALANCE_TO``). Each changed card remembers its first reading in ``index_read``, and its
    confidence is no more than the new odds give. Returns the cards whose suit changed."""
    changed: list[SeenCard] = []
    for first, second in (("c", "s"), ("h", "d")):
        group = []
        for c in cards:
            try:
                suit = Card.parse(c.label).suit
            except ValueError:
                continue
            if suit not in (first, second):
                continue
            a, b = c.label[:-1] + first, c.label[:-1] + second
            pa, pb = _two_readings(c, a, b, BALANCE_FLOOR)
            group.append((math.log(pa / pb), c, a, b))
        n = len(group)
        k = sum(1 for g in group if g[1].label == g[2])
        few = min(k, n - k)
        if n < BALANCE_MIN or 2 * _binomial_tail(n, 0.5, few) >= BALANCE_ALPHA:
            continue
        m = few
        while m < n // 2 and 2 * _binomial_tail(n, 0.5, m) < BALANCE_TO:
            m += 1
        odds = sorted(g[0] for g in group)
        # the shift that puts m cards on the rarer side: midway between the m-th and (m+1)-th odds from that end
        shift = -(odds[n - m] + odds[n - m - 1]) / 2 if k < n - k else -(odds[m - 1] + odds[m]) / 2
        for _, c, a, b in group:
            _weigh_suit(c, a, b, shift, BALANCE_FLOOR, changed)
    return changed


# A 6 is a 9 turned half round, and in some decks (kde-jolly-royal) exactly so: the classifier, which sees
# indices every way round, takes one for the other. The layout knows which way up each card lies, so a
# card's top-left index can be cut from the photo upright, and there the loop of a 6 is at the bottom of
# its rank, that of a 9 at the top, in every deck we have. On the cached held-out renders of seeds
# 1000-1019 the judge spoke for about 60% of the sixes and nines (the others' loops blur shut or are not
# found), 2 185 of them right and 8 wrong. Wrong cards, seeds 1000-1019 / 1020-1039: 1 496 / 1 369 without
# it; weight 3.0: 1 485 / 1 358; 5.0: 1 481 / 1 357; 8.0: 1 492 / 1 358 (the rank taken as the largest
# ink); 5.0 with the rank taken as the highest ink, as kept (a font deck's heart outweighs its 6): 1 484 / 1 359.
SIX_NINE = 1
SIX_NINE_WEIGHT = 5.0      # log-odds the loop's place adds for the 6 or the 9
SIX_NINE_WINDOW = (0.34, 0.50, 300.0)   # the upright cut around an index centre: width, height (card widths), px per card width


def rank_loop(view: np.ndarray, red: bool) -> float | None:
    """Where the one loop of an upright index's rank lies, from its top (0) to its bottom (1), or None
    where no rank with exactly one loop stands out (a 6 or a 9 blurred shut, or not a 6 or a 9).
    ``view``: the index cut upright, BGR, rank above suit."""
    import cv2

    v = view.astype(np.float32)
    b, g, r = v[..., 0], v[..., 1], v[..., 2]
    grey = v.mean(2)
    paper = float(np.percentile(grey, 90))
    if red:
        mask = ((r - (g + b) / 2) / max(paper, 1.0) > 0.25) & (grey < paper * 0.9)
    else:
        mask = (grey < paper * 0.55) & (np.abs(r - b) < 60)
    mask = mask.astype(np.uint8)
    h0, w0 = mask.shape
    n, lab, st, cen = cv2.connectedComponentsWithStats(mask, connectivity=8)
    # the rank: the highest ink standing upright in the upper part, away from the sides (card edges);
    # the suit sign below it may be the larger
    ranks = [k for k in range(1, n) if st[k, 4] > 0.004 * mask.size and 0.15 * w0 < cen[k][0] < 0.85 * w0
             and cen[k][1] < 0.65 * h0 and 0.9 * st[k, 2] < st[k, 3] < 0.6 * h0]
    if not ranks:
        return None
    k = min(ranks, key=lambda k: cen[k][1])
    x, y, w, h = st[k, :4]
    shape = (lab[y:y + h, x:x + w] == k).astype(np.uint8)
    contours, tree = cv2.findContours(shape, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if tree is None:
        return None
    loops = [c for c, t in zip(contours, tree[0]) if t[3] >= 0 and cv2.contourArea(c) > 0.01 * w * h]
    if len(loops) != 1:
        return None
    m = cv2.moments(loops[0])
    return float(m["m01"] / m["m00"]) / h if m["m00"] else None


def sixes_and_nines(image: np.ndarray, piles: dict[tuple[str, int], list[SeenCard]], H: np.ndarray) -> list[SeenCard]:
    """Weigh each 6 or 9 read in the layout by where the loop of its rank lies, its index cut upright
    (``rank_loop``): at the bottom a 6, at the top a 9. The log-odds add to the index's own; where they
    turn the balance the card takes the other rank, with its confidence no more than the new odds give.
    Returns the cards changed."""
    import cv2

    width, height, px = SIX_NINE_WINDOW
    changed: list[SeenCard] = []
    for c in (c for cs in piles.values() for c in cs):
        if c.table is None or c.label[:-1] not in ("6", "9"):
            continue
        S = np.array([[1 / px, 0, c.table[0] - width / 2], [0, 1 / px, c.table[1] - height / 2], [0, 0, 1]])
        view = cv2.warpPerspective(image, H @ S, (int(width * px), int(height * px)),
                                   flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        at = rank_loop(view, c.label[-1] in "hd")
        if at is None or abs(at - 0.5) < 0.05:
            continue
        turned, sure = _weigh_two(c, "6" + c.label[-1], "9" + c.label[-1],
                                  SIX_NINE_WEIGHT if at > 0.5 else -SIX_NINE_WEIGHT, BALANCE_FLOOR)
        if turned:
            c.conf = min(c.conf, sure)
            changed.append(c)
    return changed


# Whether the rules may settle where a fan's last card lies, when it lies as near the head of an empty place
# (1). Where fans run into the next row's places (Pendulum's packets reach the row below after three
# cards), a card laid a little high at the head of a row is as near the end of the packet above, and
# was read there: the packet one card too long, its own place empty. If the game objects to the card at
# the packet's end and not at the head of the empty place, it is read at the head, with a doubt. Held-out
# Pendulum renders through the detector, wrong cards: hand-laid at U = 1 (seeds 1000-1035) 512 -> 417, at
# U = 1.5 (1000-1011) 471 -> 438, tidy (1000-1049) 203 -> 208; the other eight games read as before. The
# objections counted are the game's ``photo_objections``: a packet read ``7♣ ? 8♥`` is one too.
FAN_END_RULES = 1
FAN_END_MOVES = 4      # cards so moved in one reading, at most


def _fan_end_moves(layout: Layout, pl: Sequence[Place], piles: dict) -> list[tuple[tuple[str, int], tuple[str, int], float]]:
    """Each fan's last card seen that also lies at the head of a place with no card seen: (its fan,
    that place, how far along that place's fan it lies)."""
    out = []
    for key, seen in piles.items():
        if layout[key[0]].fan == (0.0, 0.0) or len(seen) < 2 or seen[-1].table is None:
            continue
        cost, along = _place_costs(np.array([seen[-1].table]), pl)
        for k in np.flatnonzero(np.isfinite(cost[0]) & (along[0] < 0.5 * _Arrays.of(pl).flen)):
            there = (pl[k].area.name, pl[k].pile)
            if there != key and not piles.get(there):
                out.append((key, there, float(along[0, k])))
    return out


def _fan_ends_by_rules(game: Game, layout: Layout, pl: Sequence[Place], piles: dict, composed, now: tuple,
                       objections: int) -> tuple:
    """``compose``'s outputs (``now``: state, conf, doubts and the dicts it fills) with fans' last cards
    moved to the head of the empty place they also lie at, where each move leaves the game fewer
    objections than the ``objections`` it has (see ``FAN_END_RULES``). ``composed(piles)`` composes a
    placing again.

    The moves worth trying are found on the state as read, each card lifted from its fan's end (with the
    unreadable places before it) and put at the place's head, which costs a validation (composing every
    candidate again, each 30-40 ms, cost 0.16 s a Pendulum photo). Each move so found is then composed with
    those kept before it, and kept if the game objects less."""
    state = now[0]
    worth: list[tuple[int, tuple]] = []
    for move in _fan_end_moves(layout, pl, piles):
        trial = _lifted(state, *move[:2], piles[move[0]][-1].label)
        n = len(game.photo_objections(trial)) if trial is not None else objections
        if n < objections:
            worth.append((n, move))
    worth.sort(key=lambda t: t[0])
    placed, chosen = dict(piles), []
    for _, (src, dst, along) in worth[:FAN_END_MOVES]:
        if placed[src] != piles[src] or placed.get(dst):
            continue                      # a fan or a place another move took already
        trial = dict(placed)
        trial[src], trial[dst] = placed[src][:-1], [replace(piles[src][-1], along=along)]
        out = composed(trial)
        n = len(game.photo_objections(out[0]))
        if n < objections:
            objections, placed, now = n, trial, out
            chosen.append((src, dst))
    for (a, i), (b, j) in chosen:
        card = Card.parse(piles[(a, i)][-1].label).pretty
        now[2].append(Doubt(f"{b.replace('-', ' ')} {j + 1}, card 1: the {card} lies both here and at the end of "
                            f"{a.replace('-', ' ')} {i + 1}; read here, since the rules do not let it lie there",
                            b, j, 0, "conflict"))
        now[2].append(Doubt(f"{a.replace('-', ' ')} {i + 1}: its last card may be the {card}, read as "
                            f"{b.replace('-', ' ')} {j + 1}'s first: check its length", a, i, None, "count"))
    return now


def _lifted(state: State, src: tuple[str, int], dst: tuple[str, int], label: str) -> State | None:
    """The state with the card ``label`` at the end of the pile ``src`` (and the unreadable places
    before it) put alone at ``dst``; None unless it lies at that end."""
    pile = state.areas[src[0]][src[1]]
    if not pile or pile[-1].card is None or pile[-1].card.label != label or state.areas[dst[0]][dst[1]]:
        return None
    k = len(pile) - 1
    while k > 0 and pile[k - 1].card is None and pile[k - 1].face_up:
        k -= 1
    out = state.copy()
    out.areas[src[0]][src[1]] = pile[:k]
    out.areas[dst[0]][dst[1]] = [pile[-1]]
    return out


def _read_aligned(game: Game, options: dict, layout: Layout, cards: list[SeenCard], H: np.ndarray,
                  previous: State | None, image_size: tuple[int, int] | None, sightings: list,
                  opp: np.ndarray = OPPOSITE, weak: Sequence[Any] = (), image: np.ndarray | None = None
                  ) -> tuple[Reading, Callable[[], Reading]]:
    """The reading of one alignment as the cards lie, to judge the alignment by, and how to make the
    reading to keep if it wins: with the fans' ends the rules placed (``FAN_END_RULES``)."""
    piles, stray = assign(cards, layout, H, opp)
    stray = assign_growing(stray, layout, piles)
    balanced = balance_suits([c for p in piles.values() for c in p])
    by_pips = suits_from_pips(image, piles, H) if image is not None and PIPS else []
    if image is not None and SIX_NINE:
        sixes_and_nines(image, piles, H)
    settled = settle_copies([c for p in piles.values() for c in p], Counter(c.label for c in game.deck()))
    in_view = _places_in_view(layout, H, image_size)
    edges = fan_edges(image, layout, H, piles) if image is not None and EDGE_WEIGHT else {}
    by_gap = fill_gaps(weak, layout, H, opp)
    template = previous if previous is not None else _template(game, options)
    filled = {(a, i) for a, ps in template.areas.items() for i, p in enumerate(ps) if p}     # (before the repair uses it)

    def composed(placed: dict) -> tuple:
        out = ({}, {}, {}, {}, {})     # readings, rivals, gaps, one_more, fans
        state, conf, doubts = compose(game, options, placed, previous, in_view, by_gap, *out, edges)
        repair(game, state, conf, doubts, template, out[0], out[1], out[4])
        return (state, conf, doubts, *out)

    def finished(c: tuple) -> Reading:
        return _finish_reading(game, layout, H, previous, image_size, sightings, stray, in_view, filled,
                               settled + by_pips + balanced, c)

    as_seen = composed(piles)
    judged = finished(as_seen)

    def to_keep() -> Reading:
        # (each alignment is judged as the cards lie: moves the rules make would let a wrong one look as
        # good; and they take as long as a reading, so only the one kept makes them)
        objections = len(game.photo_objections(judged.state)) if FAN_END_RULES else 0
        if not objections:
            return judged
        moved = _fan_ends_by_rules(game, layout, places(layout, previous), piles, composed, as_seen, objections)
        return judged if moved is as_seen else finished(moved)
    return judged, to_keep


def _finish_reading(game: Game, layout: Layout, H: np.ndarray, previous: State | None,
                    image_size: tuple[int, int] | None, sightings: list, stray: list[SeenCard], in_view: set,
                    filled: set, relabelled: list[SeenCard], composed: tuple) -> Reading:
    """The reading of one alignment from ``compose``'s outputs, repaired (``composed``): the doubts
    that look past the piles, and what changed since the last photo."""
    state, conf, doubts, readings, rivals, gaps, one_more, fans = composed
    for c in stray:
        doubts.append(Doubt(f"a {Card.parse(c.label).pretty} was seen outside the {game.name} layout and left out", kind="stray"))
    if COVERED_EMPTY:
        doubts.extend(covered_empties(layout, state, in_view))
    if image_size is not None:
        _runs_off_photo(layout, state, H, image_size, doubts, in_view & filled)
    # the suits as the classifier first read them: a copy too many, read as another suit, says the same of the deck
    # (each remembers its first reading in first_read; a suit the pips changed says the same of the deck)
    relabelled = list({id(c): c for c in relabelled}.values()) if SUIT_FIRST else []
    first = Counter(Card.parse(c.index_read or c.first_read).suit for c in relabelled)
    now = Counter(Card.parse(c.label).suit for c in relabelled)
    doubts.extend(suit_doubts(state, Counter(c.suit for c in game.deck()), first - now, now - first))
    problems = game.validate(state)
    if problems:
        doubts.extend(Doubt(p, kind="impossible") for p in problems)
    changes = explain_changes(previous, state) if previous is not None else []
    return Reading(state, conf, doubts, changes, sightings, "",
                   {k: _index_box(layout, H, k, at, near, across=k[2] < 0 and BACKS_ACROSS) for k, (at, near) in gaps.items()},
                   {k: (_index_box(layout, H, k, at, near), before, after, margin)
                    for k, (at, near, before, after, margin) in one_more.items()},
                   _empty_places(layout, state, H, in_view, sightings) if EMPTY_LOOK else {})


# A suit this far under its share of the cards read, while the other suit of its colour is this far
# over, is read as that other suit (the index classifier mistakes some decks' clubs for spades).
# With 20 cards read from full packs, a suit shows at most once by chance 2.4% of the time, and
# 8 or more of its partner then less often still. Half its share, not a quarter (session 32): on
# gnome-plastic the classifier takes about half the clubs for spades, sure of each, so the clubs
# left were rarely under a quarter. 20 held-out renders of each of the nine games through the
# detector, seeds 1000-1019 and 1020-1039: wrong cards flagged 85.1 -> 85.9% and 85.8 -> 86.1%,
# doubt precision 76.8 -> 76.3% and 75.7 -> 75.4% (Kings 44 -> 60% and 67 -> 92% flagged); at the
# partner suit's share (1.0) 86.7 and 86.2% flagged, but precision 74.8 and 73.6%.
SUIT_UNDER = 0.5
SUIT_OVER = 1.5
SUIT_CARDS = 12      # fewer cards read than this say too little of the deck
# Whether the suits are counted as the classifier first read them (1), before a copy too many was read
# as another suit (0: as read in the end). A third 8♠ read as the 8♣ is one more sign that this deck's
# clubs are read as spades, not one club less. Held-out renders through the detector, seeds 1000-1019 and
# 1020-1039 of the nine games: unflagged wrong cards 271 -> 229 and 1 143 -> 1 052, doubt precision
# 75.3 -> 75.0% and 80.2 -> 80.3%.
SUIT_FIRST = 1
PARTNER = {"c": "s", "s": "c", "h": "d", "d": "h"}
# ...or, short of that, the split between the two suits of one colour would happen by chance less
# often than this. In small layouts the over-read suit cannot reach SUIT_OVER: an Interregnum photo
# of gnome-plastic cards read 8 spades and no club among 22 cards (a split that happens by chance
# 4 times in 1 000). 20 held-out renders of each of the nine games through the detector: Interregnum's
# wrong cards flagged 72% -> 94%, its doubt precision 43% -> 44%, the other games unchanged (0.02 the
# same); with the renderer's labels, no doubt more.
SUIT_ALPHA = 0.01


def _binomial_tail(n: int, p: float, k: int) -> float:
    """P(X <= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(0, k + 1))


def suit_doubts(state: State, deck_suits: Counter, first_more: Counter | None = None, first_less: Counter | None = None) -> list[Doubt]:
    """Doubts on every card of a suit read far more often than its share while the other suit of
    its colour is read far less (``SUIT_OVER``, ``SUIT_UNDER``, or a split that unlikely,
    ``SUIT_ALPHA``): the classifier may be taking this deck's one suit for the other, sure of each
    card, so no single reading says so. ``first_more`` / ``first_less``: suits the state holds fewer /
    more cards of than the classifier first read (a copy too many read as another suit is counted
    as first read: it says the same of the deck)."""
    read = [(a, i, j, s.card) for a, ps in state.areas.items() for i, p in enumerate(ps) for j, s in enumerate(p)
            if s.card is not None and s.face_up]
    total = sum(deck_suits.values())
    if len(read) < SUIT_CARDS or not total:
        return []
    first_more, first_less = first_more or Counter(), first_less or Counter()
    seen = Counter(c.suit for *_, c in read) + first_more
    seen.subtract(first_less)
    # A card turned to this suit and later left out of the state (dropped, or read as another card) is
    # still in ``first_less``: the count as first read can't go under nothing (it once said "-1 ♣").
    seen = Counter({suit: max(0, n) for suit, n in seen.items()})
    out = []
    for suit, other in PARTNER.items():
        want = len(read) * deck_suits.get(suit, 0) / total
        if seen[other] > SUIT_UNDER * want or not want:
            continue
        pair = seen[suit] + seen[other]
        share = deck_suits.get(other, 0) / max(1, deck_suits.get(other, 0) + deck_suits.get(suit, 0))
        if seen[suit] < SUIT_OVER * want and _binomial_tail(pair, share, seen[other]) >= SUIT_ALPHA:
            continue
        mine, theirs = SUIT_SYMBOL[suit], SUIT_SYMBOL[other]
        first = " as first read" if any(first_more[x] or first_less[x] for x in (suit, other)) else ""
        out.extend(Doubt(f"{a.replace('-', ' ')} {i + 1}, card {j + 1}: read as {c.pretty}, but {seen[suit]} {mine} and "
                         f"{count_word(seen[other])} {theirs} among the {len(read)} cards{first}: this deck's {theirs} "
                         f"may be read as {mine}: check it", a, i, j, "low-confidence")
                   for a, i, j, c in read if c.suit == suit)
    return out


def _index_box(layout: Layout, H: np.ndarray, place: tuple[str, int, int], at: float,
               near: tuple[float, float, float, float], across: bool = False) -> tuple[float, float, float, float]:
    """The box, in pixels, the index of a card lying ``at`` along fan ``place`` would fill: the size of
    a neighbour's box (``near``), where the fan's spacing puts the card. ``across``: moved across the fan
    to the middle of the card (where a face-down card's back shows, however the card lies across)."""
    a = layout[place[0]]
    unit = np.array(a.fan) / max(math.hypot(*a.fan), 1e-9)
    centre = INDEX_CENTRE
    if across:
        side = np.array([-unit[1], unit[0]])
        centre = centre + float((np.array([0.5, CARD_ASPECT / 2]) - centre) @ side) * side
    x, y = _apply(H, (np.array(a.position(place[1], 0)) + centre + at * unit)[None, :])[0]
    w, h = near[2] - near[0], near[3] - near[1]
    return float(x - w / 2), float(y - h / 2), float(x + w / 2), float(y + h / 2)


# Whether a place read empty gets a doubt when a fan read in another place reaches over its first card
# (1: yes). Where one row's fans reach the next row (Pendulum: rows 0.7 card widths apart, fans stepped
# 0.2), the photo alone can't always say where one pile ends and the next begins, and the reader
# sometimes gave a whole pile to the fan above and read its own place empty, with nothing said. On the
# cached held-out renders (seeds 1000-1039) every wrong Pendulum card no doubt pointed at, bar one, lay
# in a pile read empty so.
COVERED_EMPTY = 1
COVERED_ACROSS = 0.3     # how far (card widths) across a fan's line a place's first index may lie and count as under it


def covered_empties(layout: Layout, state: State, in_view: set) -> list[Doubt]:
    """A doubt on each place in view read empty whose first card's place a fan read elsewhere reaches over
    (as the layout spaces that fan's cards, half a step past its last): its cards may have been
    counted with that fan."""
    fans = []
    for a in layout.areas:
        fan = np.array(a.fan, dtype=float)
        step = float(np.hypot(*fan))
        if not _visible_area(a) or step == 0.0:
            continue
        for i, pile in enumerate(state.areas.get(a.name, [])):
            if len(pile) > 1:
                fans.append((a, i, np.array(a.position(i, 0)), fan / step, step * (len(pile) - 0.5)))
    out = []
    for a in layout.areas:
        if not _visible_area(a):
            continue
        for i, pile in enumerate(state.areas.get(a.name, [])):
            if pile or (a.name, i) not in in_view:
                continue
            head = np.array(a.position(i, 0))
            for b, k, start, unit, reach in fans:
                d = head - start
                along = float(d @ unit)
                if 0.0 < along <= reach and abs(float(d[0] * unit[1] - d[1] * unit[0])) <= COVERED_ACROSS:
                    out.append(Doubt(f"{a.name.replace('-', ' ')} {i + 1}: read as empty, but the fan of "
                                     f"{b.name.replace('-', ' ')} {k + 1} reaches over it, and some of the cards "
                                     "read there may lie here: check both", a.name, i, None, "count"))
                    break
    return out


# A fan runs out of the photo where the index of one more card (this far either way of its centre, card
# widths) would not lie wholly inside the photo, by more than OFF_PHOTO_PX pixels.
INDEX_HALF = np.array([0.1, 0.2])
OFF_PHOTO_PX = 4.0


def _runs_off_photo(layout: Layout, state: State, H: np.ndarray, image_size: tuple[int, int],
                    doubts: list[Doubt], filled_in_view: set) -> None:
    """An "out-of-view" doubt on each fan in view whose next card's index would lie past the photo's edge:
    the fan may go on beyond it, so its length is unknown, not short; and on each place in view read empty
    whose first index would, where the deal (or the last photo) had cards (``filled_in_view``). The count
    of the cards placed then says so, too."""
    w, h = image_size
    box = np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]]) * INDEX_HALF
    outside = {(d.area, d.pile) for d in doubts if d.kind == "out-of-view"}     # (said already: wholly outside)
    cut = []
    for a in layout.areas:
        if not _visible_area(a):
            continue
        for i, pile in enumerate(state.areas.get(a.name, [])):
            if (a.name, i) in outside or (pile and a.fan == (0.0, 0.0)) or (not pile and (a.name, i) not in filled_in_view):
                continue
            # where the index of one more card would lie: not wholly in the photo, such a card could not be read
            px = _apply(H, np.array(a.position(i, len(pile))) + INDEX_CENTRE + box)
            if not ((px < -OFF_PHOTO_PX) | (px > np.array([w, h]) + OFF_PHOTO_PX)).any():
                continue
            cut.append((a.name, i))
            if pile:
                doubts.append(Doubt(f"{a.name.replace('-', ' ')} {i + 1} runs out of the photo after card {len(pile)}: "
                                    "any cards beyond the edge are unknown; photograph the whole layout to read them",
                                    a.name, i, None, "out-of-view"))
            else:      # (counted in view, its first index at the very edge: read empty, it may not be)
                doubts.append(Doubt(f"{a.name.replace('-', ' ')} {i + 1} lies at the photo's edge, where no index can "
                                    "be read: its cards are unknown", a.name, i, None, "out-of-view"))
    if cut:
        for d in doubts:
            if d.kind == "count" and d.area is None and "not found" in d.message:
                d.message = d.message.replace(f"(most likely {MISSING_IN_A_FAN})",
                                              f"(most likely beyond the photo's edge, which {count_word(len(cut))} "
                                              f"place{'s' if len(cut) > 1 else ''} of the layout reach{'' if len(cut) > 1 else 'es'})")


def _empty_places(layout: Layout, state: State, H: np.ndarray, in_view: set, sightings: Sequence[Any]
                  ) -> dict[tuple[str, int], tuple[float, float, float, float]]:
    """The index box of the first card of every place in the photo read empty, where the game keeps
    every card on the table (elsewhere an empty place says nothing of the count)."""
    if _out_of_sight(layout) or not sightings:
        return {}
    b = np.array([s.box for s in sightings], dtype=float)
    near = (0.0, 0.0, float(np.median(b[:, 2] - b[:, 0])), float(np.median(b[:, 3] - b[:, 1])))
    return {(a.name, i): _index_box(layout, H, (a.name, i, 0), 0.0, near)
            for a in layout.areas if _visible_area(a)
            for i, pile in enumerate(state.areas.get(a.name, [])) if not pile and (a.name, i) in in_view}


MAX_REPAIRS = 12     # cards the rules may mark unreadable in one reading
REPAIR_BELOW = 0.75  # a card read surer than this is never overruled


# An unreadable place in a fan no longer than the deal made it may still be dropped when the reading
# holds more cards than the game, if the fan's spacing fits one place fewer within this much (log-odds):
# mid-game fans are shorter than dealt, and the excess was left in them. (See ``repair``.)
HOLE_WEAK = 1.0
# ... and one in a fan longer than dealt only where its spacing fits one place fewer within this much. Mid-game
# fans outgrow the deal, so being longer says nothing of whether a place is missed; a card or two too many
# more often come from a box between two indices read as a card of its own (which the fan's own fit leaves
# out, ``PHANTOM_COST``). On the cached held-out renders of seeds 1000-1039, wrong cards 1 670 -> 1 559 and 1 459 -> 1 448
# without the limit below (Captain Spaulding and Senior Wrangler most; at 2.0 a Pendulum photo flipped alignment).
HOLE_OVER_WEAK = 2.5
# Readings more cards too many than this (an alignment read wrong: Pendulum's wrong ones hold 20-80 too many)
# drop unreadable places as before: there the rule only reshuffled which wrong alignment won, and which
# alignments were tried next (Pendulum seeds 1040-1199: 937 -> 1 056 wrong cards without it, 885 with it).
HOLE_FEW_EXCESS = 6


def repair(game: Game, state: State, conf: dict, doubts: list[Doubt], template: State,
           readings: dict | None = None, rivals: dict | None = None, fans: dict | None = None) -> None:
    """Let the rules undo what the photo cannot be: the reading is the player's to correct, so it
    should be a state the game allows, with every guess the rules forced said out loud.

    0. Where several cards were seen on one squared pile (``rivals``, from ``compose``), the
       one kept on top is the one whose pile the rules find likeliest (see ``_choose_tops``).

    1. More cards than the game has: the unreadable places the reader put where a fan seemed
       to skip an index are the weakest evidence; they go first, from the fans that run longest
       beyond what the deal (or the last photo) had there, where its spacing fits one place fewer
       nearly as well (``HOLE_OVER_WEAK``; any such place when the reading holds more than
       ``HOLE_FEW_EXCESS`` too many). A fan no longer than that gives up one only where its spacing
       hardly holds it (``FanSpacing.fewer`` under ``HOLE_WEAK``, worked out once a fan; ``fans``
       from ``compose``). Cards seen are not left out for the count: the fan's own fit already leaves
       out a box between two indices (``PHANTOM_COST``), and leaving out one more card a fan does
       about as well without (sessions 24-44) lost more real cards than it removed false ones.
    2. Anything else the game's ``validate`` objects to (a fourth 7♠, two Senior Wrangler keys
       of one rank): the seen card whose blanking removes the most objections, least sure first,
       is marked unreadable, until nothing is objected to or nothing helps. Only cards the
       detector was unsure of are candidates: an objection to a sure read more likely comes from
       a guess elsewhere (how deep a squared pile is), and is left to the player as a doubt.

    Before 2, with ``readings`` (place -> the classifier's likely labels, from ``compose``): a card
    whose reading as another of its likely labels removes objections is read so, the cheapest
    change first (as ``settle_copies`` does for copies), and a doubt says so. A clubs card read
    as spades on the K♣'s column is the rules' to correct, however sure the classifier was.
    """
    def over(d: Doubt) -> int:
        """How many cards longer than the deal (or last photo) the doubted place's pile now is."""
        had = template.areas.get(d.area, [])
        return len(state.areas[d.area][d.pile]) - (len(had[d.pile]) if d.pile < len(had) else 0)

    def fewer(d: Doubt, unknown: float) -> float:
        """How much worse the doubted place's fan fits with one place fewer (``unknown`` for a fan whose spacing is not known)."""
        f = (fans or {}).get((d.area, d.pile))
        return f.fewer if f is not None else unknown

    if rivals:
        _choose_tops(game, state, conf, doubts, rivals, readings)
    excess = state.card_count() - len(game.deck())
    first_excess = excess
    dropped: Counter = Counter()
    while excess > 0:
        # only from fans longer than they were, or whose spacing hardly holds the place: elsewhere the
        # excess is another guess's (a squared pile's depth)
        holes = [d for d in doubts if d.kind == "unreadable" and d.index is not None
                 and state.areas[d.area][d.pile][d.index].card is None
                 and ((over(d) > 0 and (fewer(d, -math.inf) < HOLE_OVER_WEAK or first_excess > HOLE_FEW_EXCESS))
                      or fewer(d, math.inf) < HOLE_WEAK)]
        if not holes:
            break
        d = max(holes, key=lambda d: (over(d), d.index))
        _drop_slot(state, conf, doubts, d.area, d.pile, d.index, readings)
        dropped[(d.area, d.pile)] += 1
        excess -= 1
    for (a, i), n in sorted(dropped.items()):
        doubts.append(Doubt(f"{a.replace('-', ' ')} {i + 1}: {count_word(n)} unreadable place(s) left out, since the layout "
                            f"would otherwise hold more cards than the game's {len(game.deck())}: check its length",
                            a, i, None, "count"))
    problems = game.validate(state)
    if problems and readings:
        problems = _relabel_until_possible(game, state, conf, doubts, problems, readings)
    if problems:
        _blank_until_possible(game, state, conf, doubts, problems, REPAIR_BELOW)


def _choose_tops(game: Game, state: State, conf: dict, doubts: list[Doubt], rivals: dict,
                 readings: dict | None) -> None:
    """Keep on each squared pile where several cards were seen the one that leaves the layout
    fewest cards beyond the game's and the fewest objections.

    The card kept first is the one nearest the pile's far end, but a card of a long column that
    reaches the pile is seen there too, and read as the top it makes the rules fit a pile under
    it: a K on a Senior Wrangler key implies eleven cards beneath, and those extra cards then
    push out the unreadable places of every long fan, moving the cards after them a place."""
    deck = len(game.deck())

    def cost(trial: State) -> tuple[int, int]:
        return max(0, trial.card_count() - deck), len(game.validate(trial))
    for (a, i, j), others in sorted(rivals.items()):
        pile = state.areas[a][i]
        if j != len(pile) - 1 or pile[j].card is None:
            continue                        # the pile changed since (a copy marked unreadable)
        kept, best = None, cost(state)
        for c in others:
            trial = _read_as(game, state, (a, i, j), c.label)
            judged = cost(trial)
            if judged < best:
                kept, best = (c, trial), judged
        if kept is None:
            continue
        c, trial = kept
        was = pile[j].card
        state.areas.update(trial.areas)
        to = len(state.areas[a][i]) - 1
        conf.pop((a, i, j), None)
        conf[(a, i, to)] = c.conf
        if readings is not None:
            readings.pop((a, i, j), None)
            readings[(a, i, to)] = c.readings
        doubts[:] = [d for d in doubts if (d.area, d.pile) != (a, i) or d.kind != "conflict"]
        doubts.append(Doubt(f"{a} {i + 1}: {len(others) + 1} cards seen on a squared pile; kept "
                            f"{Card.parse(c.label).pretty} on top, since with {was.pretty} there the layout would "
                            f"hold more cards than the game has, or break its rules: check it", a, i, to, "conflict"))


def _relabel_until_possible(game: Game, state: State, conf: dict, doubts: list[Doubt], problems: list[str],
                            readings: dict) -> list[str]:
    """Read cards as other likely labels while that removes the rules' objections; the objections left."""
    options = []
    for k, likely in readings.items():
        card = state.areas[k[0]][k[1]][k[2]].card
        if card is None or not likely:
            continue
        p0 = max(likely.get(card.label, 0.0), RELABEL_MIN)
        options.extend((math.log(p0) - math.log(p), k, label, p / p0, False) for label, p in likely.items()
                       if label != card.label and p >= RELABEL_MIN)
    # Where the rules allow only some suits in a pile (a king's column), the card's rank in those suits
    # is an option too, as the least likely reading: the classifier may be sure of another deck's
    # clubs as spades.
    for a, piles in state.areas.items():
        for i, pile in enumerate(piles):
            allowed = game.allowed_faces(state, Loc(a, i))
            if allowed is None:
                continue
            for j, slot in enumerate(pile):
                card = slot.card
                if card is None or not slot.face_up or card.face in allowed:
                    continue
                likely = readings.get((a, i, j)) or {}
                p0 = max(likely.get(card.label, conf.get((a, i, j), 1.0)), RELABEL_MIN)
                options.extend((math.log(p0) - math.log(RELABEL_MIN), (a, i, j), label, RELABEL_MIN / p0, True)
                               for label in sorted(Card(r, suit).label for r, suit in allowed if r == card.rank)
                               if likely.get(label, 0.0) < RELABEL_MIN)
    judged: dict[tuple, tuple[State, list[str]]] = {}    # option -> (trial state, objections), until the state changes

    def judge(o: tuple) -> tuple[State, list[str]]:
        if o not in judged:
            trial = _read_as(game, state, o[1], o[2])
            judged[o] = (trial, game.validate(trial))
        return judged[o]
    # one pass finds the changes that help at all; the greedy rounds look at those only
    helpful = sorted(o for o in options if len(judge(o)[1]) < len(problems))
    touched: set[tuple[str, int]] = set()     # piles changed: their places may have moved
    for _ in range(MAX_REPAIRS):
        best = None
        for o in helpful:
            if o[1][:2] in touched:
                continue
            trial, left = judge(o)
            if len(left) < len(problems) and (best is None or len(left) < len(best[4])):
                best = (trial, o[1], o[2], o[3], left, o[4])
        if best is None:
            break
        trial, (a, i, j), label, ratio, left, forced = best
        was = state.areas[a][i][j].card
        was_top = j == len(state.areas[a][i]) - 1
        state.areas.update(trial.areas)     # (the unseen areas too: they hold what the table does not)
        judged.clear()
        to = len(state.areas[a][i]) - 1 if was_top else j
        # a squared pile's top card moves with the depth fitted under it: so do what points at it
        for by_place in (conf, readings):
            if (a, i, j) in by_place:
                by_place[(a, i, to)] = by_place.pop((a, i, j))
        for d in doubts:
            if (d.area, d.pile, d.index) == (a, i, j):
                d.index = to
        touched.add((a, i))
        conf[(a, i, to)] = conf.get((a, i, to), 1.0) * min(1.0, ratio)
        why = "; ".join(p for p in problems if p not in left) or problems[0]
        doubts.append(Doubt(f"{a.replace('-', ' ')} {i + 1}, card {to + 1}: read as {was.pretty}, but {why}; read instead as "
                            f"{Card.parse(label).pretty}, " + ("the only suit the rules allow there" if forced else "its next likeliest reading")
                            + ": check it", a, i, to, "relabelled"))
        problems = left
        if not problems:
            break
    return problems


def _read_as(game: Game, state: State, k: tuple[str, int, int], label: str) -> State:
    """A copy of ``state`` with the card at ``k`` read as ``label``; under a squared pile's top
    card, the depth is fitted again (a J♣ on the K♣'s column has two cards beneath it)."""
    a, i, j = k
    trial = state.copy()
    pile = trial.areas[a][i]
    pile[j] = Slot(Card.parse(label), pile[j].face_up)
    layout = game.layout(state.options)
    # (cards remembered beneath it from the last photo stay as they are)
    if layout[a].fan == (0.0, 0.0) and j == len(pile) - 1 and all(s.card is None for s in pile[:-1]):
        _fit_depths(game, trial, [(a, i)])
        _balance(game, layout, trial.areas, [])
    return trial


def _blanked(game: Game, state: State, k: tuple[str, int, int]) -> list[str]:
    """The rules' objections to ``state`` with the card at ``k`` unread (the state is left as it was)."""
    a, i, j = k
    slot = state.areas[a][i][j]
    state.areas[a][i][j] = Slot(None, slot.face_up)
    left = game.validate(state)
    state.areas[a][i][j] = slot
    return left


def _blank_until_possible(game: Game, state: State, conf: dict, doubts: list[Doubt], problems: list[str],
                          below: float) -> list[str]:
    # one pass over the cards seen finds those whose blanking helps at all; the greedy rounds look at those only
    helpful = [k for _, k in sorted((c, k) for k, c in conf.items()
                                    if c < below and state.areas[k[0]][k[1]][k[2]].card is not None)
               if len(_blanked(game, state, k)) < len(problems)]
    for _ in range(MAX_REPAIRS):
        best = None
        for k in helpful:
            if state.areas[k[0]][k[1]][k[2]].card is None:
                continue
            left = _blanked(game, state, k)
            if len(left) < len(problems) and (best is None or len(left) < len(best[1])):
                best = (k, left)
        if best is None:
            break
        (a, i, j), left = best
        card = state.areas[a][i][j].card
        state.areas[a][i][j] = Slot(None, state.areas[a][i][j].face_up)
        why = "; ".join(p for p in problems if p not in left) or problems[0]
        doubts.append(Doubt(f"{a.replace('-', ' ')} {i + 1}, card {j + 1}: read as {card.pretty}, but {why}; "
                            "marked unreadable", a, i, j, "impossible-read"))
        problems = left
        if not problems:
            break
    return problems


def _point_at_objections(game: Game, state: State, conf: dict, doubts: list[Doubt], problems: list[str]) -> None:
    """Put a doubt on each card read whose absence would remove one of the objections left.

    Those cards were read too surely to be blanked or had no likely other reading, but the
    player should look at them rather than search the layout for what the rules mean."""
    for a, i, j in sorted(conf):
        slot = state.areas[a][i][j] if j < len(state.areas[a][i]) else None
        if slot is None or slot.card is None:
            continue
        left = _blanked(game, state, (a, i, j))
        gone = [p for p in problems if p not in left]
        if gone and len(left) < len(problems):
            doubts.append(Doubt(f"{a.replace('-', ' ')} {i + 1}, card {j + 1}: read as {slot.card.pretty}, but "
                                f"{'; '.join(gone)}: check it", a, i, j, "impossible"))


def _drop_slot(state: State, conf: dict, doubts: list[Doubt], a: str, i: int, j: int, readings: dict | None = None) -> None:
    """Remove one place from a pile, and keep every doubt, confidence and reading pointing at the same cards."""
    del state.areas[a][i][j]
    doubts[:] = [d for d in doubts if not (d.area == a and d.pile == i and d.index == j)]
    for d in doubts:
        if d.area == a and d.pile == i and d.index is not None and d.index > j:
            d.index -= 1
    for by_place in (conf, readings if readings is not None else {}):
        by_place.pop((a, i, j), None)
        for k in sorted([k for k in by_place if k[0] == a and k[1] == i and k[2] > j]):
            by_place[(a, i, k[2] - 1)] = by_place.pop(k)


def _empty_in_view(layout: Layout, H: np.ndarray, size: tuple[int, int], state: State, filled: set) -> set:
    """The places an alignment puts inside the photo that the deal (or last photo) filled and it reads empty."""
    return {k for k in _places_in_view(layout, H, size) & filled if not state.areas.get(k[0], [[]] * (k[1] + 1))[k[1]]}


def _places_in_view(layout: Layout, H: np.ndarray, size: tuple[int, int] | None) -> set[tuple[str, int]]:
    out = set()
    for p in places(layout):
        if size is None:
            out.add((p.area.name, p.pile))
            continue
        x, y = _apply(H, p.table)[0]
        if -0.02 * size[0] <= x <= 1.02 * size[0] and -0.02 * size[1] <= y <= 1.02 * size[1]:
            out.add((p.area.name, p.pile))
    return out


def load_photo(image: Any) -> np.ndarray:
    """A photo as a BGR array, the right way up.

    Uses the vision package's loader (``vision.load_image``) when it has one;
    until then, an EXIF-aware loader of our own: path, bytes, PIL image or
    array in, :class:`vision.VisionError` with a plain message for anything
    that is not a readable image.
    """
    from . import VisionError
    try:
        from . import load_image      # the vision package's own loader, when it exports one
    except ImportError:
        try:
            from .imageio import load_image
        except ImportError:
            load_image = None
    if load_image is not None:
        return load_image(image)
    if isinstance(image, np.ndarray):
        if image.ndim == 2:
            image = np.repeat(image[:, :, None], 3, axis=2)
        if image.ndim != 3 or image.shape[2] not in (3, 4) or image.size == 0:
            raise VisionError(f"an image array must be H x W x 3 (BGR), not {image.shape}")
        return np.ascontiguousarray(image[:, :, :3])
    import io
    from pathlib import Path

    from PIL import Image, ImageOps, UnidentifiedImageError
    try:
        if isinstance(image, (str, Path)):
            path = Path(image)
            if not path.is_file():
                raise VisionError(f"no such photo: {path}")
            im = Image.open(path)
        elif isinstance(image, (bytes, bytearray, memoryview)):
            if not len(image):
                raise VisionError("the photo is empty (0 bytes)")
            im = Image.open(io.BytesIO(bytes(image)))
        elif isinstance(image, Image.Image):
            im = image
        else:
            raise VisionError(f"cannot read a photo from a {type(image).__name__}: give a path, bytes or an image")
        im = ImageOps.exif_transpose(im)
        rgb = np.asarray(im.convert("RGB"))
    except UnidentifiedImageError:
        raise VisionError("that file is not an image (JPEG, PNG or WebP expected)") from None
    except (OSError, ValueError, SyntaxError) as e:
        raise VisionError(f"the photo is corrupt or truncated ({e})") from None
    return np.ascontiguousarray(rgb[:, :, ::-1])


# The reading takes sightings down to a confidence below the detector's own threshold: the
# layout fit drops or flags most false sightings, while a missed index can at best become
# "?". On 20 rendered layouts per game (held-out decks, session 6) a plain-product threshold
# of 0.15 read more cards right than 0.25 in all five great games (Uncle Remus 12.6% ->
# 25.9%, Seven and Six 15.6% -> 21.8%), and 0.10 read fewer than 0.15. A detector whose
# scores are on another scale says which threshold gives the same synthetic precision
# (its ``read_conf`` setting); READ_CONF is for one that does not.
READ_CONF = 0.15


# Sightings down to this confidence are kept as weak candidates for fan places where an index was missed.
WEAK_CONF = 0.03


def sightings_for_reading(img: np.ndarray) -> tuple[list, list]:
    """The detector's sightings of a photo: those at or above the reading's threshold, and the weak ones below it."""
    from . import detect
    from .detector import reading_threshold
    found = reading_threshold()
    threshold = READ_CONF if found is None else found
    every = detect(img, conf=min(WEAK_CONF, threshold))
    return [s for s in every if s.conf >= threshold], [s for s in every if s.conf < threshold]


# A second look names a missed fan card only when the classifier is at least this sure of it.
LOOK_AGAIN = 0.3
# ... and puts one more card in a fan whose spacing fits that about as well only when it is this sure,
# and neither card beside the place is among its three likeliest names. On 80 held-out layouts (20 each
# of Aunty Allis, Senior Wrangler, Seven and Six, Uncle Remus; detector chain) the spacing offered 30
# such places, 16 of them real: at 0.3 it puts a card in 15 of those (10 named right, 4 with the rank
# right and the suit wrong, 1 wrong: each still puts every later card of the fan back in its place),
# in 1 place where the two neighbours lie next to each other, and in 5 beside a misread neighbour.
# At 0.5 it would put a card in 7 real places.
ONE_MORE = 0.3
# ... and turns up a place supposed face down under a fan's first face-up card when it is this sure of
# a name there (0: never). Nothing but the first index seen marks where a fan's face-down cards end, so
# a missed index at the head of the face-up run was read as one more face-down card, and every face-up
# card of the fan a place off. Held-out renders through the detector, wrong cards: seeds 1000-1019,
# Seven and Six 403 -> 383, Uncle Remus 198 -> 193 (the other games have no face-down fans: unchanged);
# seeds 1020-1059, chosen after, 687 -> 675 and 300 -> 290. 0.12, 0.2 and 0.5 did about the same.
LOOK_UNDER = 0.3
# ... and puts a card in a fan looser than the rest, when the table is short of cards, at this.
SHORT_LOOK = 0.5
# ... and where no card is named there, a fan whose spacing fits one more card within this much
# (log-odds) still gets an unreadable place, while the table is short of cards.
UNREAD_MORE = 4.0
# ... and puts a card in a place read empty, when the table is short of cards, at this (0: never looks).
EMPTY_LOOK = 0.3
# ... and where the card it names there is one the layout cannot take (a copy too many, say), the place
# still gets a doubt (0: it passes as empty). Cached held-out renders through the detector (session 55):
# three such doubts in the tidy set's 180 photos, each on a Pendulum place that holds cards (a packet of
# five read empty among them), and none in the 108 + 108 hand-laid or the 120 fresh hand-laid ones: wrong
# cards no doubt points at, tidy Pendulum, 10 -> 2.
EMPTY_SEEN = 1
# ... and where the table is not short of cards, a place read empty is still looked at, and gets a doubt if the
# second look names a card there at least this sure (0: not looked at). Cached held-out renders through the
# detector (session 57), only Pendulum places asked so: tidy 20 photos a game, 2 doubts, both on empty
# places (a neighbour's index in the box); hand-laid U = 1 and U = 1.5, 12 each, 13 doubts, 10 on places
# that hold cards (13 cards no doubt had pointed at). The five false ones all named a card the layout
# already held elsewhere, as did 6 of the 10 right ones: the doubt says so.
EMPTY_DOUBT = 0.5


def look_again(img: np.ndarray, reading: Reading, previous: State | None = None) -> None:
    """Settle fan places the spacing leaves open by asking the index classifier about the box
    the index of a card there would fill.

    * ``Reading.gaps``: places the spacing says hold a card whose index no box was found for.
      A name is taken if the classifier is sure enough of it (``LOOK_AGAIN``).
    * ``Reading.one_more``: fans whose spacing fits one more card about as well as the length
      read. The card is put in, and every later card of the fan moves a place on, if the
      classifier names one there (``ONE_MORE``). While the table is still short of cards after
      that, the fans that fit one more best get an unreadable place there (``UNREAD_MORE``).
    * Places supposed face down under a fan's first face-up card (also in ``Reading.gaps``): the
      nearest is turned up, then the next, while the classifier names a card there (``LOOK_UNDER``).
    * ``Reading.empty``: places read empty, in a game that keeps every card on the table. While the
      table is short of cards, one takes the card named there (``EMPTY_LOOK``); otherwise a card named
      there gives a doubt only (``EMPTY_SEEN``, ``EMPTY_DOUBT``).

    Either way the name must not be that of the card before or after it in the fan (the box then
    mostly shows that card's index), and the rules must find no more fault with the layout than
    before. Each card named so keeps a doubt saying how it was read. With ``previous``, the
    changes since that state are worked out again if any card was named."""
    from .detector import name_boxes
    state = reading.state
    if state is None:
        return
    game = get_game(state.game)
    if ABOVE_DIFF:
        _backs_above(img, reading, game)
    gaps = [k for k in reading.gaps if 0 <= k[2] < len(state.areas[k[0]][k[1]])
            and state.areas[k[0]][k[1]][k[2]].card is None and state.areas[k[0]][k[1]][k[2]].face_up]
    # a fan looser than the rest is searched only when the count says cards are missing from the table
    short = _missing_from_table(game, state)
    more = [k for k, (_, before, after, margin) in reading.one_more.items()
            if _lies_between(state.areas[k[0]][k[1]], k[2], before, after) and (margin < LENGTH_MARGIN or short > 0)]
    # places supposed face down under a fan's first face-up card, the nearest to it first
    downs = sorted((k for k in reading.gaps if LOOK_UNDER and 0 <= k[2] and k[2] + 1 < len(state.areas[k[0]][k[1]])
                    and not state.areas[k[0]][k[1]][k[2]].face_up), key=lambda k: (k[0], k[1], -k[2]))
    # places read empty: while the count says cards are missing from the table, to be filled; otherwise for a doubt
    empties = [k for k in reading.empty if not state.areas[k[0]][k[1]]] if short > 0 or EMPTY_DOUBT else []
    if not gaps and not more and not downs and not empties:
        if _fill_from_deck(game, state, reading, {}) and previous is not None:
            reading.changes = explain_changes(previous, state)
        return
    named = name_boxes(img, [reading.gaps[k] for k in gaps] + [reading.one_more[k][0] for k in more]
                       + [reading.gaps[k] for k in downs] + [reading.empty[k] for k in empties])
    if named is None:
        return
    likely_at = dict(zip(gaps, named))     # what the classifier saw at each missed place
    faults = len(game.validate(state))
    changed = False
    for (a, i, j), likely in zip(downs, named[len(gaps) + len(more):]):
        pile = state.areas[a][i]
        if pile[j].face_up or not pile[j + 1].face_up:
            continue        # a place further down the fan was not turned up: this one stays face down too
        took = _take_name(game, state, pile, j, likely, LOOK_UNDER, (j + 1,), faults)
        if took is None:
            continue
        label, p, faults = took
        changed = True
        reading.confidences[(a, i, j)] = p * LOW_CONFIDENCE
        down = sum(1 for x in pile if not x.face_up)
        for d in reading.doubts:
            if (d.kind, d.area, d.pile) == ("assumed", a, i):
                d.message = _assumed_down(a, i, down)
        reading.doubts.append(Doubt(f"{a.replace('-', ' ')} {i + 1}, card {j + 1}: taken at first for a face-down card, but a "
                                    f"second look there reads {Card.parse(label).pretty} ({p:.0%} sure): check it", a, i, j, "low-confidence"))
    for (a, i, j), likely in zip(gaps, named):
        took = _take_name(game, state, state.areas[a][i], j, likely, LOOK_AGAIN, (j - 1, j + 1), faults)
        if took is None:
            continue
        label, p, faults = took
        changed = True
        _unread_named(reading, (a, i, j), p, f"no index was found there at first; a second look reads "
                                             f"{Card.parse(label).pretty} ({p:.0%} sure)")
    # A fan holds one such place at most, so putting a card in moves no other place still to be looked
    # at. The fans whose spacing fits one more card about as well come first, then the looser ones,
    # likeliest first, while the table is still short of cards.
    for (a, i, j), likely in sorted(zip(more, named[len(gaps):]), key=lambda t: reading.one_more[t[0]][3]):
        if not likely or likely[0][0] == "bg" or likely[0][1] < ONE_MORE:
            continue
        label, p = likely[0]
        _, before, after, margin = reading.one_more[(a, i, j)]
        wide = margin >= LENGTH_MARGIN
        if wide and (p < SHORT_LOOK or _missing_from_table(game, state) <= 0):
            continue
        if {before, after} & {name for name, _ in likely[:3]}:
            continue       # the box lies mostly on a neighbour's index (its suit read another way, say)
        found = _put_in(game, reading, (a, i, j), Slot(Card.parse(label), True), faults)
        if found is None:
            continue
        faults, changed = found, True
        likely_at = {((k[0], k[1], k[2] + 1) if k[:2] == (a, i) and k[2] >= j else k): v for k, v in likely_at.items()}
        reading.confidences[(a, i, j)] = p * LOW_CONFIDENCE
        why = ("the table holds fewer cards than the game, and this fan's spacing fits one more card here" if wide else
               "the fan's spacing fits one more card here about as well as none")
        reading.doubts.append(Doubt(f"{a.replace('-', ' ')} {i + 1}, card {j + 1}: {why}, and a second look reads "
                                    f"{Card.parse(label).pretty} ({p:.0%} sure): check it", a, i, j, "low-confidence"))
    # A place read empty takes the card a second look names there, likeliest first, while the table is
    # short of cards (the rules then refuse a copy the packs do not hold).
    at_empty = named[len(gaps) + len(more) + len(downs):]
    for (a, i), likely in sorted(zip(empties, at_empty), key=lambda t: -(t[1][0][1] if t[1] else 0.0)):
        if _missing_from_table(game, state) <= 0:
            if EMPTY_DOUBT and likely and likely[0][0] != "bg" and likely[0][1] >= EMPTY_DOUBT:
                # the table is not short, but the count is no proof: a layout read with a copy too many (a card
                # read twice) may leave a packet out, and the player should look
                label, p = likely[0]
                elsewhere = "" if _not_shown(game, state)[label] else ", which the layout holds elsewhere too"
                reading.doubts.append(Doubt(
                    f"{a.replace('-', ' ')} {i + 1}: read empty, but a second look there reads {Card.parse(label).pretty} ({p:.0%} "
                    f"sure){elsewhere}: check whether cards lie there", a, i, None, "count"))
            continue
        pile = state.areas[a][i]
        pile.append(Slot(None, True))
        took = _take_name(game, state, pile, 0, likely, EMPTY_LOOK, (), faults)
        if took is None:
            pile.pop()
            if EMPTY_SEEN and likely and likely[0][0] != "bg" and likely[0][1] >= EMPTY_LOOK:
                # a card is seen there, but not one the layout can take: the place is not left to pass as empty
                label, p = likely[0]
                reading.doubts.append(Doubt(
                    f"{a.replace('-', ' ')} {i + 1}: read empty, but the table holds fewer cards than the game, and a "
                    f"second look there reads {Card.parse(label).pretty} ({p:.0%} sure), a card the layout cannot take "
                    "there: check whether cards lie there", a, i, None, "count"))
            continue
        label, p, faults = took
        changed = True
        reading.confidences[(a, i, 0)] = p * LOW_CONFIDENCE
        reading.doubts.append(Doubt(f"{a.replace('-', ' ')} {i + 1}: read empty at first, but the table holds fewer cards "
                                    f"than the game, and a second look there reads {Card.parse(label).pretty} ({p:.0%} sure): "
                                    "check it", a, i, 0, "low-confidence"))
    # Still short of cards: the fans whose spacing fits one more card best get an unreadable place there,
    # so that the cards after it lie where they are, not a place too near the fan's head.
    for (a, i, j) in sorted(reading.one_more, key=lambda k: reading.one_more[k][3]):
        _, before, after, margin = reading.one_more[(a, i, j)]
        if _missing_from_table(game, state) <= 0 or margin >= UNREAD_MORE:
            break
        if not _lies_between(state.areas[a][i], j, before, after):
            continue
        found = _put_in(game, reading, (a, i, j), Slot(None, True), faults)
        if found is None:
            continue
        faults, changed = found, True
        reading.doubts.append(Doubt(f"{a.replace('-', ' ')} {i + 1}, card {j + 1}: index unreadable (the table holds fewer "
                                    f"cards than the game, and this fan's spacing fits one more card here)", a, i, j, "unreadable"))
    if changed:
        # the count of cards on the table, said again
        reading.doubts[:] = [d for d in reading.doubts if not (d.kind == "count" and d.area is None)]
        _balance(game, game.layout(state.options), state.areas, reading.doubts)
    changed = _fill_from_deck(game, state, reading, likely_at) or changed
    if changed and previous is not None:
        reading.changes = explain_changes(previous, state)


# Of the cards a game that keeps every card on the table has not shown elsewhere, a place no index was
# read at takes the one the classifier finds likeliest there, if it gives it at least this much.
# Held-out renders through the detector, wrong cards: seeds 1000-1059, Senior Wrangler 1 739 -> 1 707,
# Pendulum 1 287 -> 1 275, Captain Spaulding 458 -> 456 (0 gave two fewer in all, 0.2 twenty more);
# Senior Wrangler seeds 1060-1199, chosen after, 4 731 -> 4 665, exact 3 -> 5%.
DECK_FILL = 0.05


def _not_shown(game: Game, state: State) -> Counter:
    """label -> copies of it the game's packs hold beyond those the state places."""
    return Counter(c.label for c in game.deck()) - Counter(x.card.label for ps in state.areas.values() for p in ps
                                                           for x in p if x.card is not None)


def _fill_from_deck(game: Game, state: State, reading: Reading, likely_at: dict) -> bool:
    """Name the unreadable places from the cards the layout has not shown, in a game whose every card
    lies on the table and where there are exactly as many such cards as such places.

    A place takes a card the classifier gave some weight at it (``likely_at``: place -> its likely
    labels), surest pairs first; when one place and one card are left, they go together. The rules must
    find no more fault than before, and each card named so carries a doubt. Returns whether any was."""
    if _out_of_sight(game.layout(state.options)):
        return False
    # (a pile outside the photo stays unknown, though the count might name it)
    unseen = {(d.area, d.pile) for d in reading.doubts if d.kind == "out-of-view"}
    places = [(a, i, j) for a, ps in state.areas.items() for i, p in enumerate(ps) for j, x in enumerate(p)
              if x.face_up and x.card is None and (a, i) not in unseen]
    left = _not_shown(game, state)
    if not places or sum(left.values()) != len(places):
        return False
    faults = len(game.validate(state))
    pairs = sorted(((p, k, label) for k in places for label, p in likely_at.get(k, ()) if label in left and p >= DECK_FILL),
                   key=lambda t: -t[0])
    named = False
    open_places = set(places)

    def put(k: tuple, label: str, words: str, p: float) -> None:
        nonlocal faults, named
        found = _try_card(game, state, state.areas[k[0]][k[1]], k[2], label, faults)
        if found is None:
            return
        faults, named = found, True
        left[label] -= 1
        open_places.discard(k)
        _unread_named(reading, k, p, f"no index was read there; {words}")

    for p, k, label in pairs:
        if k in open_places and left[label] > 0:
            put(k, label, f"of the cards not seen elsewhere in the layout, the likeliest there is the {Card.parse(label).pretty} "
                          f"({p:.0%})", p)
    if len(open_places) == 1 and sum(left.values()) == 1:
        label = next(lab for lab, n in left.items() if n > 0)
        put(next(iter(open_places)), label, f"the {Card.parse(label).pretty} is the only card of the game not seen elsewhere", 0.5)
    return named


def _take_name(game: Game, state: State, pile: list[Slot], j: int, likely: list, bar: float,
               beside: tuple[int, ...], faults: int) -> tuple[str, float, int] | None:
    """Put the classifier's likeliest name for place ``j`` of ``pile`` there, face up, if it is at
    least ``bar`` sure, is not the name of a card at the places ``beside`` it (the box then mostly
    shows that card's index), and the rules find no more than ``faults`` faults with the layout.
    Returns (label, probability, faults now), or None with the place as it was."""
    if not likely or likely[0][0] == "bg" or likely[0][1] < bar:
        return None
    label, p = likely[0]
    if any(0 <= k < len(pile) and pile[k].card is not None and pile[k].card.label == label for k in beside):
        return None
    found = _try_card(game, state, pile, j, label, faults)
    return None if found is None else (label, p, found)


def _try_card(game: Game, state: State, pile: list[Slot], j: int, label: str, faults: int) -> int | None:
    """Put ``label`` face up at place ``j`` of ``pile`` if the rules then find no more than ``faults``
    faults with the layout; the faults now, or None with the place as it was."""
    was = pile[j]
    pile[j] = Slot(Card.parse(label), True)
    found = len(game.validate(state))
    if found > faults:
        pile[j] = was
        return None
    return found


def _unread_named(reading: Reading, place: tuple[str, int, int], p: float, words: str) -> None:
    """What the reading says of a place no index was read at, once a second look has named it."""
    a, i, j = place
    reading.confidences[place] = p * LOW_CONFIDENCE      # never above the low-confidence line: always a doubt
    reading.doubts[:] = [d for d in reading.doubts if (d.kind, d.area, d.pile, d.index) != ("unreadable", a, i, j)]
    reading.doubts.append(Doubt(f"{a.replace('-', ' ')} {i + 1}, card {j + 1}: {words}: check it", a, i, j, "low-confidence"))


def _lies_between(pile: list[Slot], j: int, before: str, after: str) -> bool:
    """Whether the cards read at ``j - 1`` and ``j`` of a fan are still ``before`` and ``after``."""
    return 0 < j < len(pile) and all(s.card is not None and s.card.label == want for s, want in ((pile[j - 1], before), (pile[j], after)))


# Lab colour distance beyond which the place above a fan's first card is taken to show a card, not the
# table (0: never look). See _backs_above. Held-out renders through the detector, fans read with another
# number of face-down cards than the truth: seeds 1000-1019, Seven and Six 32 -> 11 of 260, Uncle Remus
# 6 -> 6 of 200; seeds 1020-1039, 42 -> 29 and 26 -> 24 (15: 11, 21, 7, 26; 40: 10, 34, 6, 27); the cards
# read otherwise the same but for two in one Uncle Remus photo (a back put in where there was none used
# the card the table was short of). 200 layouts (seeds 1000-1199): 13.2 -> 5.8% and 6.3 -> 5.9%.
# Session 53: 25 -> 12. A grey back in a shadow can lie within 12-20 of a shadowed cloth (one in Seven and Six photo
# 1000 at U = 1 lies 11 from it, and is still taken for cloth). Fans read with the true
# number of face-down cards, Seven and Six / Uncle Remus, with the backs looked at mid-card (BACKS_ACROSS): tidy
# seeds 1000-1019 249 -> 249 of 260 / 165 -> 173 of 200; U = 1 1000-1011 133 -> 141 of 156 / 71 -> 77 of 120;
# U = 1.5 121 -> 136 / 69 -> 72; fresh seeds 3000-3011 U = 1 104 -> 119 of 130 / 67 -> 69 of 120, U = 1.5
# 108 -> 119 of 130 / 58 -> 62 of 100. Fans read with a back too many: 36 -> 43 of 1 492 over all of these.
# Wrong face-up cards level (tidy, U = 1, U = 1.5). 18 did about half as well; 8 as well as 12, with more backs
# too many. (Measured on saturated detections, see COUNT_COST; detected right, Seven and Six at U = 1: 137 of 156
# against 132 at 25.)
ABOVE_DIFF = 12.0
# Whether the places above a fan's first card are looked at in the middle of the card's breadth (1), not where
# its index would lie (0, before session 53). A card put down by hand may lie a tenth of a card width or more
# across from its place, and the index's box, near the card's edge, then showed the table beside a face-down
# card. Held-out renders through the detector, fans read with the true number of face-down cards (Seven and
# Six, Uncle Remus): tidy seeds 1000-1019 247 -> 249 of 260, 166 -> 165 of 200; hand-laid U = 1, 1000-1011,
# 131 -> 133 of 156, 65 -> 71 of 120 (and fans two or more short 33 -> 19); U = 1.5 115 -> 121 of 156, 69 -> 69
# of 120. Wrong cards otherwise level (Uncle Remus U = 1 92 -> 90). Detected right (session 54), Seven and Six
# at U = 1: 137 of 156 against 130 without.
BACKS_ACROSS = 1


def _patch_lab(img: np.ndarray, box) -> np.ndarray | None:
    """Median Lab colour of the middle half of ``box`` (None when it is not wholly in the photo)."""
    x0, y0, x1, y1 = box
    cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 4, (y1 - y0) / 4
    a, b, c, d = int(cx - hw), int(cy - hh), int(math.ceil(cx + hw)), int(math.ceil(cy + hh))
    if a < 0 or b < 0 or c > img.shape[1] or d > img.shape[0] or c - a < 2 or d - b < 2:
        return None
    return _median_lab(img[b:d, a:c].reshape(-1, 3))


def _median_lab(pixels: np.ndarray) -> np.ndarray:
    """Median Lab colour of BGR pixels (N x 3)."""
    import cv2
    lab = cv2.cvtColor(np.ascontiguousarray(pixels[None]), cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    return np.median(lab, axis=0)


def _backs_above(img: np.ndarray, reading: Reading, game: Game) -> None:
    """Put back face-down cards the alignment left out above a fan's first card.

    A fan dealt partly face down shows no index until its first face-up card, so an alignment
    a step or two along the fans reads every face-up card right and too few face-down cards
    under them. The places above the first card (``Reading.gaps`` keys -1, -2, ...: as many as the
    deal allows, and one more that must be bare table) tell: a place whose colour differs from
    that table is taken as one more face-down card, nearest first, while they do."""
    state = reading.state
    above: dict[tuple[str, int], dict[int, tuple]] = defaultdict(dict)
    for k in [k for k in reading.gaps if k[2] < 0]:
        above[k[:2]][-k[2]] = reading.gaps.pop(k)
    faults = len(game.validate(state))
    changed = False
    for (a, i), boxes in above.items():
        last = max(boxes)
        table = _patch_lab(img, boxes[last])
        if table is None:
            continue
        more = 0
        for q in range(1, last):
            lab = _patch_lab(img, boxes[q])
            if lab is None or float(np.linalg.norm(lab - table)) < ABOVE_DIFF:
                break
            more = q
        if not more:
            continue
        # the stock gives the cards up; a table already full, or more fault found by the rules, says the
        # colour was something else (a shadow, the layout's edge)
        trial = state.copy()
        trial.areas[a][i] = [Slot(None, False)] * more + trial.areas[a][i]
        _balance(game, game.layout(state.options), trial.areas, [])
        found = len(game.validate(trial))
        if _placed(trial.areas) > len(game.deck()) or found > faults:
            continue
        faults = found
        for _ in range(more):
            _move_on(reading, a, i, 0)
        state.areas = trial.areas
        down = sum(1 for x in state.areas[a][i] if not x.face_up)
        reading.doubts[:] = [d for d in reading.doubts if (d.kind, d.area, d.pile) != ("assumed", a, i)]
        reading.doubts.append(Doubt(f"{a} {i + 1}: {down} face-down card(s) assumed under the fan, from the card backs "
                                    f"seen above its first face-up card", a, i, 0, "assumed"))
        changed = True
    if changed:
        reading.doubts[:] = [d for d in reading.doubts if not (d.kind == "count" and d.area is None)]
        _balance(game, game.layout(state.options), state.areas, reading.doubts)


def _put_in(game: Game, reading: Reading, place: tuple[str, int, int], slot: Slot, faults: int) -> int | None:
    """Put ``slot`` in at ``place`` of a fan (every later card a place on, and what the reading says of
    them with it), unless the layout would then hold more cards than the game or the rules find more
    fault than ``faults``: the rules' new count of faults, or None (nothing changed)."""
    state = reading.state
    a, i, j = place
    was = state.areas
    trial = state.copy()
    trial.areas[a][i] = trial.areas[a][i][:j] + [slot] + trial.areas[a][i][j:]
    _balance(game, game.layout(state.options), trial.areas, [])     # one unknown card fewer in the stock
    state.areas = trial.areas
    found = len(game.validate(state))
    if _placed(trial.areas) > len(game.deck()) or found > faults:
        state.areas = was
        return None
    _move_on(reading, a, i, j)
    return found


def _move_on(reading: Reading, area: str, pile: int, j: int) -> None:
    """What the reading says of places ``j`` on of one fan, moved a place on (a card was put in at ``j``)."""
    def on(k: tuple) -> tuple:
        return (k[0], k[1], k[2] + 1) if k[:2] == (area, pile) and k[2] >= j else k
    reading.confidences = {on(k): v for k, v in reading.confidences.items()}
    reading.gaps = {on(k): v for k, v in reading.gaps.items()}
    reading.one_more = {on(k): v for k, v in reading.one_more.items()}
    for d in reading.doubts:
        if (d.area, d.pile) != (area, pile):
            continue
        if d.index is not None and d.index >= j:
            d.message = re.sub(rf", card {d.index + 1}(?!\d)", f", card {d.index + 2}", d.message, count=1)
            d.index += 1
        elif d.index is None:          # "from card N on, ..." of the whole fan
            d.message = re.sub(r"from card (\d+) on", lambda m: f"from card {int(m[1]) + (int(m[1]) > j)} on", d.message)


def read_layout(image: Any, game: str, previous: State | None = None, options: dict | None = None) -> Reading:
    """Photo (path, bytes, PIL image or BGR array) + chosen game -> Reading (state, confidences, doubts, changes).

    Bad input raises :class:`vision.VisionError` (not an image) or
    :class:`advisor.engine.PatienceError` (unknown game, bad options); a photo
    that shows no layout of the game gives a Reading with no state and a
    message saying why.
    """
    from . import VisionError
    g = get_game(game)                      # unknown game: a clear error before any work
    if previous is not None and not isinstance(previous, State):
        previous = State.from_json(previous)
    img = load_photo(image)
    try:
        seen, sightings, weak, turned = upright_sightings(img)
    except ImportError as e:
        raise VisionError(f"the card detector is not installed ({e}); see models/ and the vision pipeline") from None
    return read_photo_sightings(seen, sightings, weak, g.id, previous, options, turned=turned)


def upright_sightings(img: np.ndarray, detect: Callable[[np.ndarray], tuple[list, list]] | None = None
                      ) -> tuple[np.ndarray, list, list, int]:
    """``detect`` (default ``sightings_for_reading``) of the photo, or of the photo turned a quarter when its indices
    lie on their side (``photo_turns``): (the photo as detected, its sightings, its weak ones, quarter turns it is
    from the photo given).

    The detector finds indices lying on their side less well than upright ones (72 held-out renders turned a quarter,
    read from the first detection: 671 and 674 wrong cards against 540 upright; 624 and 580 after looking again,
    both with the slant first, see ``PERSPECTIVE_MARGIN``). Turned a quarter, they stand upright or upside down."""
    detect = detect or sightings_for_reading
    sightings, weak = detect(img)
    if photo_turns(sightings) != [SIDEWAYS]:
        return img, sightings, weak, 0
    img = np.ascontiguousarray(np.rot90(img, 1))
    sightings, weak = detect(img)
    return img, sightings, weak, 1


def read_photo_sightings(img: np.ndarray | None, sightings: Sequence[Any], weak: Sequence[Any], game_id: str,
                         previous: State | None = None, options: dict | None = None,
                         image_size: tuple[int, int] | None = None, turned: int = 0) -> Reading:
    """``read_sightings`` of a photo's sightings, then ``look_again`` at the photo; a photo that shows the layout on
    its side (``photo_turns``) is read turned, one refused as it is or that may be upside down (``HALF_TURN_LOOK``,
    ``HALF_TURN_DOUBT``) is read upside down too, and the reading's boxes are given back in the photo as it was given.
    ``turned``: quarter turns ``img`` already is from that, having been found on its side (``upright_sightings``):
    it is read as it is and upside down. Without the photo (``img`` None: sightings alone, of a photo
    ``image_size`` (w, h)) there is no second look."""
    w, h = (img.shape[1], img.shape[0]) if img is not None else image_size

    def read_turned(k: int) -> tuple[Reading, np.ndarray | None, tuple[int, int]]:
        seen = img if k == 0 or img is None else np.ascontiguousarray(np.rot90(img, k))
        size = (w, h) if k % 2 == 0 else (h, w)
        reading = read_sightings(turn_sightings(sightings, k, w, h), game_id, previous, size, options,
                                 turn_sightings(weak, k, w, h), seen)
        reading.turned = (turned + k) % 4
        return reading, seen, size

    best: tuple[Reading, np.ndarray | None, tuple[int, int]] | None = None
    for ks in ([(0, 2)] if turned else photo_turns(sightings)):
        read = [read_turned(k) for k in ks]
        best = best or read[0]
        read = [t for t in read if t[0].state is not None]
        if read:
            best = read[0] if len(read) == 1 else _better_turn(*read)
            break
    if HALF_TURN_LOOK and not turned and best[0].state is None and best[0].turned == 0:
        # Refused as it is: the photo may be upside down (taken from across the table).
        other = read_turned(2)
        if other[0].state is not None and (other[0].score >= HALF_TURN_KEEP or (
                other[0].score >= HALF_TURN_SLANTED and _near_over_far(other[0]) >= PERSPECTIVE_MARGIN)):
            best = other
    elif HALF_TURN_DOUBT and not turned and best[0].turned == 0 and _may_be_upside_down(best[0]):
        other = read_turned(2)
        if other[0].state is not None:
            best = _better_turn(best, other, given=True)
    reading, seen, size = best
    if seen is not None:
        look_again(seen, reading, previous)
    if reading.turned:
        _turn_boxes_back(reading, *size)
    return reading


# The layout reader turns a layout at most TURNS (30 degrees) either way in the photo, so a photo that shows it
# on its side was refused: a phone held across the layout, or one that wrote the wrong turn into the photo's
# EXIF (pointed straight down at a table, a phone cannot tell which way is up). The indices say so: an index
# is taller than wide (the median height over width of the sure boxes was 1.25-2.4 in the 516 cached held-out
# renders and 1.13-2.75 in real-dev's 90 labelled photos), and lies on its side in such a photo (0.44-0.67
# when those renders are turned a quarter). Under TURNED_ASPECT the photo is read turned a quarter each way
# (``read_layout`` detects it again turned first), and the better reading kept (``_better_turn``); up to
# LEANING_ASPECT the layout may lie about 45 degrees aslant, and a photo refused upright is read so too.
TURNED_ASPECT = 0.8
LEANING_ASPECT = 1.25
SIDEWAYS = (1, 3)


# Of two readings of a photo turned a half turn apart (a photo on its side, read a quarter turn each way), the one
# the reader scores better is kept (``Reading.score``). Within TURN_TIE the one whose layout looks larger at its near
# edge, by PERSPECTIVE_MARGIN (log of the ratio) more than the other's, is kept: a player photographs the layout from
# the seat, so its near edge looks the larger. A layout of whole cards in rows, like Interregnum's, looks the same
# turned round and the scores tie. If the slant does not tell either, and the two states differ, the reading says
# so. On 36 held-out renders turned a quarter (nine games), the scores alone kept the wrong way round for
# Interregnum 1001 and 1003 (0.974 against 0.964, and 0.965 against 0.961); in 1003 the camera's slant put the near
# edge 7 % larger in the right reading and 6 % smaller in the wrong one. A camera straight above shows no slant, nor
# does an alignment fitted without perspective: Interregnum 1001 stays read the wrong way round, with the doubt.
# The slant is a tie-break only: the alignment of a layout laid by hand can slant the wrong way (Poker Patience
# U = 1.5 seed 1011, read upright: its near edge 35 % smaller).
PERSPECTIVE_MARGIN = 0.02
TURN_TIE = 0.03
# (Tried and not kept: the slant first and the score as the tie-break. 72 tidy renders turned a quarter each way
# read the wrong way round 3 + 1 times so and 3 + 2 as kept; 36 hand-laid ones (U = 1.5) 1 + 2 times so (46 + 67
# wrong cards no doubt points at) and 0 + 1 as kept (25 + 46).)
# Whether a photo refused as it is, is read upside down too (1: yes): taken from across the table, or held upside
# down. The reading upside down is kept if it scores HALF_TURN_KEEP or more: it is a second chance, and other games'
# layouts refused as they are find one too. Seeds 1000-1003 of the nine games, upside down: 20 of 36 were refused,
# and 19 of them are read the right way round now (scores 0.61-0.96; Pendulum 1000 scored 0.30). Of the 288
# photos of other games' layouts of ``reading_bench.py refusal --layouts 4``, 7 more would be read (scores -0.87 to
# 0.38, and Interregnum 1001 read as Senior Wrangler 0.71), and 1 is. Session 58: 0.5 -> 0.3. Hand-laid layouts
# score lower (U = 1.5 renders, 6 of each game, upside down: 31 of 54 refused at 0.5, 16 at 0.3, 11 at 0.2, against
# 2 of them upright); of the 288 other games' photos 1 more is read at 0.3 (64), 3 more at 0.2. (A photo read as it is
# is read again where it may be upside down: see HALF_TURN_DOUBT.)
HALF_TURN_LOOK = 1
HALF_TURN_KEEP = 0.3
# ... or from this score, when it also looks larger at its near edge by PERSPECTIVE_MARGIN (as a photo taken from the
# seat does; another game's layout photographed from the seat, read upside down, looks smaller there). U = 1.5
# renders upside down: refused 16 -> 10 of 54; other games' photos read as before (64 of 288).
HALF_TURN_SLANTED = 0.0


# A photo read as it is, is read upside down as well (1: yes) where it may be: its reading scores under
# HALF_TURN_BELOW, or its layout looks smaller at the photo's bottom edge than at its top (by UPSIDE_DOWN_SLANT), or
# the game's layout looks the same turned round (``_half_turn_alike``: Interregnum's three rows of whole cards). Of
# the two readings, ``_better_turn`` keeps one: the better scored by TURN_TIE (but for a layout alike turned round,
# whose two scores tie but for noise), else the one whose stock lies on a pile (BACKS_TELL), else the one whose
# near edge looks larger, else the photo as given, with an "ambiguous" doubt. Before this, a photo taken from
# across the table was read upside down only when refused as it was, and one of Interregnum was always read the
# wrong way round, all 24 cards wrong and nothing said (see docs/benchmarks.md, "Session 58").
HALF_TURN_DOUBT = 1
HALF_TURN_BELOW = 0.3
UPSIDE_DOWN_SLANT = 0.01


def _may_be_upside_down(reading: Reading) -> bool:
    """Whether a reading of a photo as given may be of the photo upside down (see HALF_TURN_DOUBT)."""
    if reading.state is None:
        return False
    if reading.score is not None and reading.score < HALF_TURN_BELOW:
        return True
    if _near_over_far(reading) < -UPSIDE_DOWN_SLANT:
        return True
    return _half_turn_alike(get_game(reading.state.game).layout(reading.state.options))


@functools.lru_cache(maxsize=64)
def _half_turn_alike(layout: Layout, tol: float = 0.3) -> bool:
    """Whether the layout's places of face-up cards, turned half round about their middle, fall on its places
    again (within ``tol`` card widths): no fans (turned round, a fan runs the other way) and no area that grows."""
    centres = []
    for a in layout.areas:
        if not _visible_area(a):
            continue
        if any(a.fan):
            return False
        centres += [np.array(a.position(i, 0)) + (0.5, CARD_ASPECT / 2) for i in range(a.count)]
    if len(centres) < 2 or any(_growing(a) for a in layout.areas):
        return False
    pts = np.array(centres, float)
    turned = pts.min(0) + pts.max(0) - pts
    return bool(np.linalg.norm(turned[:, None] - pts[None], axis=2).min(1).max() <= tol)


def _near_over_far(reading: Reading) -> float:
    """How much larger the layout looks at its near edge than at its far one, under the reading's alignment (log
    of the ratio of the photo lengths of a card width there; 0 straight from above)."""
    game = get_game(reading.state.game)
    pts = np.array([p.table for p in places(game.layout(reading.state.options), reading.state)], float)
    x = float(pts[:, 0].mean())

    def width_at(y: float) -> float:
        a, b = _apply(reading.alignment, np.array([[x - 0.5, y], [x + 0.5, y]]))
        return float(np.hypot(*(b - a)))
    return float(np.log(max(width_at(pts[:, 1].max()), 1e-9) / max(width_at(pts[:, 1].min()), 1e-9)))


def _better_turn(a: tuple, b: tuple, given: bool = False) -> tuple:
    """Of two (reading, photo, size) of one photo turned a half turn apart, the one to keep (see TURN_TIE and
    HALF_TURN_DOUBT; where the layout looks the same either way round, the scores say nothing). ``given``: ``a``
    is the photo as given, kept where nothing tells (with the doubt when the states differ)."""
    alike = _half_turn_alike(get_game(a[0].state.game).layout(a[0].state.options))
    kept, other = (a, b) if a[0].score >= b[0].score else (b, a)
    if not alike and kept[0].score - other[0].score >= TURN_TIE:
        return kept
    if given:
        kept, other = a, b
    told = _backs_tell(kept, other) if BACKS_TELL else None
    if told is not None:
        return told
    near_kept, near_other = _near_over_far(kept[0]), _near_over_far(other[0])
    if abs(near_kept - near_other) >= PERSPECTIVE_MARGIN:
        return kept if near_kept > near_other else other
    if _visible(kept[0].state) != _visible(other[0].state):
        side = {0: "bottom", 1: "left", 2: "top", 3: "right"}[kept[0].turned]
        kept[0].doubts.insert(0, Doubt(
            f"the layout reads as well either way round in this photo; it was read with the photo's {side} edge "
            "nearest you. If that is not your side, take the photo again from your seat, with the phone turned "
            "the way you look at the layout", kind="ambiguous"))
    return kept


# Before the slant (a hand-laid layout's alignment can slant the wrong way), a face-down pile the reading holds
# cards in (a stock) tells, if one of the two readings puts it on something that stands out from the table (the
# photo's edges) by BACKS_TELL more (Lab distance, as ABOVE_DIFF) than the other reading's does: a pack of cards
# lies there, not table. (0: not looked at.)
BACKS_TELL = 12.0
BORDER = 0.04     # the share of the photo's width and height along its edges taken for the table's colour


def _backs_due(reading: Reading) -> list[tuple[float, float, float, float]]:
    """The boxes (photo pixels) of the places where the reading holds face-down cards a photo cannot name but
    should show as a pile: a stock, a face-down area."""
    state, H = reading.state, reading.alignment
    out = []
    for a in get_game(state.game).layout(state.options).areas:
        if _visible_area(a) or not a.on_table or a.count <= 0:
            continue
        for i, pile in enumerate(state.areas.get(a.name, [])[:a.count]):
            if pile:
                x, y = a.position(i, 0)
                quad = _apply(H, np.array([[x, y], [x + 1, y], [x + 1, y + CARD_ASPECT], [x, y + CARD_ASPECT]]))
                out.append((*quad.min(0), *quad.max(0)))
    return out


def _border_lab(img: np.ndarray) -> np.ndarray:
    """Median Lab colour of the photo's edges: mostly table, in a photo of a layout."""
    h, w = img.shape[:2]
    bh, bw = max(1, int(h * BORDER)), max(1, int(w * BORDER))
    return _median_lab(np.concatenate([img[:bh].reshape(-1, 3), img[-bh:].reshape(-1, 3), img[:, :bw].reshape(-1, 3),
                                       img[:, -bw:].reshape(-1, 3)]))


def _backs_tell(a: tuple, b: tuple) -> tuple | None:
    """Of two (reading, photo, size) of one photo a half turn apart, the one whose face-down piles lie where the
    photo shows something other than table, by BACKS_TELL more than the other's; None if that does not tell."""
    (ra, pa, _), (rb, _, size_b) = a, b
    if pa is None:
        return None
    due_a, due_b = _backs_due(ra), [_turn_box(box, 2, *size_b) for box in _backs_due(rb)]   # both on ``pa``
    if not due_a or not due_b:
        return None
    table = _border_lab(pa)
    # (a pile the reading puts outside the photo shows nothing there: no more than table does)
    away_a, away_b = (float(np.mean([0.0 if lab is None else np.linalg.norm(lab - table)
                                     for lab in (_patch_lab(pa, box) for box in due)])) for due in (due_a, due_b))
    if abs(away_a - away_b) < BACKS_TELL:
        return None
    return a if away_a > away_b else b


def photo_turns(sightings: Sequence[Any]) -> list[tuple[int, ...]]:
    """The quarter turns (counter-clockwise) to read the photo at, in rounds: a round is read whole and its
    best reading kept; the next round is read only if every reading so far was refused."""
    sure = [s for s in sightings if s.conf >= 0.5]
    if len(sure) < 3:
        return [(0,)]
    aspect = float(np.median([(s.box[3] - s.box[1]) / max(s.box[2] - s.box[0], 1e-6) for s in sure]))
    if aspect < TURNED_ASPECT:
        return [SIDEWAYS]
    if aspect < LEANING_ASPECT:
        return [(0,), SIDEWAYS]
    return [(0,)]


def _turn_box(box: Sequence[float], k: int, w: int, h: int) -> tuple[float, float, float, float]:
    """A box in a ``w`` x ``h`` photo, in that photo turned ``k`` quarter turns counter-clockwise (``np.rot90``)."""
    x0, y0, x1, y1 = box
    for _ in range(k % 4):
        x0, y0, x1, y1 = y0, w - x1, y1, w - x0
        w, h = h, w
    return float(x0), float(y0), float(x1), float(y1)


def turn_sightings(sightings: Sequence[Any], k: int, w: int, h: int) -> list[Any]:
    """The sightings of a ``w`` x ``h`` photo as they lie in the photo turned ``k`` quarter turns."""
    if k % 4 == 0:
        return list(sightings)
    return [replace(s, box=_turn_box(s.box, k, w, h)) for s in sightings]


def _turn_boxes_back(reading: Reading, w: int, h: int) -> None:
    """Every box of a reading made on the photo turned ``reading.turned`` quarter turns (now ``w`` x ``h``),
    back in the photo as given: the page draws them on it."""
    back = -reading.turned % 4
    reading.sightings = turn_sightings(reading.sightings, back, w, h)
    reading.gaps = {k: _turn_box(b, back, w, h) for k, b in reading.gaps.items()}
    reading.one_more = {k: (_turn_box(b, back, w, h), *rest) for k, (b, *rest) in reading.one_more.items()}
    reading.empty = {k: _turn_box(b, back, w, h) for k, b in reading.empty.items()}
