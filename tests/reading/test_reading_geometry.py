"""Geometry of one fan and one card: fan places from noisy index positions, the deck's far-corner
offset, and a card seen by a corner other than its top-left one."""
from __future__ import annotations

import random

import numpy as np

from advisor.engine import get_game
from vision.fake_sightings import FakeSighting, camera, extent, sightings_for
from vision.reading import INDEX_CENTRE, INDEX_HEIGHT, LENGTH_MARGIN, SeenCard, _fan_fit, _fan_other, _one_more_before, _photo_step, estimate_opposite, group_cards, read_sightings

SIZE = (1920, 1080)


# Index positions along two fans of a rendered Seven and Six layout (seed 1001, deck kde-jolly-royal),
# measured on the table after registration; the fans are 0.3 card widths apart in the layout, and which
# cards lay where is known from the dealt state. Box centres sit up to 0.12 off their places.
NEAR_COLUMN_3 = [0.53, 0.91, 1.24, 1.42, 1.82]           # five cards in a row, none missed
FAR_COLUMN_4 = [0.60, 0.95, 1.26, 1.45, 1.84, 2.45, 2.71]  # eight cards; the sixth showed no index
FAR_COLUMN_5 = [0.54, 1.21, 1.53, 1.77, 2.33, 2.76, 2.99, 3.33, 3.63]  # eleven cards; the second and sixth missed


def _places(along):
    along = np.array(along)
    return _fan_fit(along, _photo_step(np.diff(along), 0.3))[0].tolist()


def test_fan_places_of_noisy_indices_match_where_the_cards_lay():
    assert _places(NEAR_COLUMN_3) == [0, 1, 2, 3, 4]
    assert _places(FAR_COLUMN_4) == [0, 1, 2, 3, 4, 6, 7]
    assert _places(FAR_COLUMN_5) == [0, 2, 3, 4, 6, 7, 8, 9, 10]


# A third fan (Seven and Six seed 3001, kde-jolly-royal, near column 2): six face-up cards, the
# second showed no index; the photo's step over all fans was 0.263. The gap it leaves is only
# 1.7 steps wide, and the cards after it sit tight.
NEAR_COLUMN_2 = [1.081, 1.532, 1.848, 2.042, 2.416]


def test_a_narrow_gap_is_judged_against_the_whole_fan():
    assert _fan_fit(np.array(NEAR_COLUMN_2), 0.263)[0].tolist() == [0, 2, 3, 4, 5]


def test_a_column_fanned_looser_or_tighter_than_the_others_gets_no_phantom_gaps():
    # real photos: a column's step is 0.83-1.27 times the photo's (5th-95th percentile)
    rng = np.random.default_rng(1)
    for looser in (0.8, 0.9, 1.15, 1.3):
        for n in (3, 6, 12):
            along = np.arange(n) * 0.3 * looser + rng.normal(0, 0.02, n)
            assert _fan_fit(along, 0.3)[0].tolist() == list(range(n)), (looser, n)


# Uncle Remus seed 3005 (kde-jolly-royal), column 7, on the table after registration: six cards lay
# there, one index was not read, and the cards after the gap sit tight, so the spacing alone fits
# five cards in a slightly looser fan as well as six. The photo's step was 0.285.
UR_COLUMN_7 = [0.41, 0.722, 0.933, 1.411, 1.64]


def test_a_fan_whose_spacing_fits_another_length_about_as_well_is_in_doubt():
    _, margin = _fan_fit(np.array(UR_COLUMN_7), 0.285)
    assert margin < LENGTH_MARGIN
    # fans whose length the spacing settles: none missed, one missed with a clear gap, an even fan
    for along in (NEAR_COLUMN_3, FAR_COLUMN_4):
        along = np.array(along)
        assert _fan_fit(along, _photo_step(np.diff(along), 0.3))[1] >= LENGTH_MARGIN
    assert _fan_fit(np.arange(8) * 0.3, 0.3)[1] >= LENGTH_MARGIN


def test_the_place_one_more_card_would_take_is_where_the_other_fit_differs_by_that_card_alone():
    along = np.array(UR_COLUMN_7)
    places, margin = _fan_fit(along, 0.285)
    assert margin < LENGTH_MARGIN
    # six cards lay there and one index was not read, in the widest gap (after the third card seen):
    # the other fit puts one more card before the fourth card seen
    assert _one_more_before(places, _fan_other(along, 0.285)) == 3
    assert _one_more_before(np.array([0, 1, 2, 3]), np.array([0, 2, 3, 5])) is None    # two places more
    assert _one_more_before(np.array([0, 1, 3, 4]), np.array([0, 1, 2, 3])) is None    # one place fewer
    assert _one_more_before(np.array([0, -1, 1, 2]), np.array([0, 1, 2, 3])) is None   # another card left out


def test_the_photo_step_does_not_shrink_to_explain_noise_with_missed_indices():
    # A step of 0.18 would fit these gaps closely, at the price of four missed indices.
    gaps = np.diff([0.56, 0.92, 1.22, 1.44, 1.81, 1.98, 2.32, 2.73])
    assert abs(_photo_step(gaps, 0.3) - 0.3) < 0.03
    # A real looser fan is still followed.
    assert abs(_photo_step(np.array([0.4, 0.41, 0.39, 0.4, 0.8]), 0.3) - 0.4) < 0.03


def test_a_tall_deck_far_index_offset_is_found_and_its_two_indices_make_one_card():
    # Cards 1.67 widths tall with the index near the corner (like gnome-orell): the far index
    # lies (0.81, 1.25) from the near one, well off the usual (0.76, 0.92).
    px = 100.0
    H = np.diag([px, px, 1.0])
    labels = ["As", "7h", "Qd", "3c", "9s", "10h", "Kc", "5d"]
    sights = []
    for k, lab in enumerate(labels):
        for c in (np.array([1.3 * k, 0.0]) + INDEX_CENTRE, np.array([1.3 * k, 0.0]) + INDEX_CENTRE + [0.81, 1.25]):
            x, y = c * px
            sights.append(FakeSighting(lab, (x - 10, y - INDEX_HEIGHT * px / 2, x + 10, y + INDEX_HEIGHT * px / 2)))
    opp = estimate_opposite(sights, H)
    assert np.allclose(opp, [0.81, 1.25], atol=0.02)
    cards = group_cards(sights, px * 1.0, H, opp)
    assert sorted(c.label for c in cards) == sorted(labels)
    assert all(len(c.boxes) == 2 for c in cards)


def test_a_covered_card_seen_only_by_its_top_right_index_is_read_in_its_place():
    """Decks with an index in all four corners show a covered card's top-right index too; when
    that is the only one read, the card is still put where its top-left corner lies."""
    truth = get_game("senior-wrangler").new(4)
    rng = random.Random(4)
    H = camera(rng, extent=extent(truth))
    sights = sightings_for(truth, H, rng, jitter=0.01)
    card = truth.areas["column"][2][4].card          # column 3, fifth card: covered
    x, y = get_game("senior-wrangler").layout(truth.options)["column"].position(2, 4)
    Hinv = np.linalg.inv(H)

    def table(s):
        p = Hinv @ np.array([(s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2, 1.0])
        return p[:2] / p[2]
    mine = [s for s in sights if s.label == card.label and np.allclose(table(s), np.array([x, y]) + INDEX_CENTRE, atol=0.1)]
    assert len(mine) == 1
    s = mine[0]
    shift = (H @ np.array([x + INDEX_CENTRE[0] + 0.76, y + INDEX_CENTRE[1], 1.0]))
    cx, cy = shift[:2] / shift[2]
    w, h = (s.box[2] - s.box[0]) / 2, (s.box[3] - s.box[1]) / 2
    sights[sights.index(s)] = FakeSighting(card.label, (cx - w, cy - h, cx + w, cy + h))
    r = read_sightings(sights, "senior-wrangler", image_size=SIZE)
    assert r.state is not None, r.message
    assert r.state.areas["column"][2][4].card.label == card.label
    assert len(r.state.areas["column"][2]) == len(truth.areas["column"][2])
    assert not [d for d in r.doubts if d.kind == "stray"]


def test_a_lone_far_corner_at_a_fans_end_is_the_exposed_card_when_that_supposes_fewer_misses():
    """A column's last card seen by one index lying 0.92 card widths (its far corner's offset) past
    where it would lie: read as the exposed card's lower-left index, it is one place after the card
    before; read as a near index, three places were missed. The first reading is kept."""
    from vision.reading import MAX_GAP_ALONE, SeenCard, _consistent, _exposed_far_corners, _locate, places
    pl = places(get_game("senior-wrangler").layout({}))
    head = np.array(pl[0].table)                      # column 1; its fan runs down the table
    opp = np.array([0.74, 0.92])
    pts = [head, head + [0, 0.3], head + [0, 0.6 + 0.92]]
    cards = [SeenCard(l, (0.0, 0.0), 0.9, boxes=[(0, 0, 1, 1)] * n) for l, n in (("Ks", 1), ("Qh", 1), ("2d", 1))]
    tab = np.array(pts, dtype=float)
    owner, along, ok = _locate(tab, pl)
    # as read_sightings does for a card no other place could hold: a longer gap is allowed
    ok = _consistent(owner, along, pl, MAX_GAP_ALONE)
    assert list(owner) == [0, 0, 0] and ok.all()
    _exposed_far_corners(tab, cards, owner, along, ok, pl, opp)
    assert np.allclose(along, [0.0, 0.3, 0.6], atol=1e-6)
    # with both of its indices read, the same card is a near index, where it lies
    cards[2].boxes = [(0, 0, 1, 1)] * 2
    tab = np.array(pts, dtype=float)
    owner, along, _ = _locate(tab, pl)
    _exposed_far_corners(tab, cards, owner, along, _consistent(owner, along, pl, MAX_GAP_ALONE), pl, opp)
    assert abs(along[2] - 1.52) < 1e-6


def _locate_one(tab, pl):
    """The reader's card placement as first written, one alignment at a time (the batched one must match it)."""
    from vision.reading import LOCATE_ROUNDS, _consistent, _place_costs
    cost, along = _place_costs(tab, pl)
    n = len(tab)
    rows = np.arange(n)
    for _ in range(LOCATE_ROUNDS):
        owner = np.argmin(cost, axis=1) if cost.shape[1] else np.zeros(n, int)
        owner = np.where(np.isfinite(cost[rows, owner]), owner, -1) if n else owner
        al = along[rows, np.maximum(owner, 0)] if n else np.zeros(0)
        ok = _consistent(owner, al, pl)
        retry = (~ok) & (owner >= 0) & (np.isfinite(cost).sum(axis=1) > 1)
        if not retry.any():
            break
        cost = cost.copy()
        cost[rows[retry], owner[retry]] = np.inf
    return owner, al, ok


def _fit_score_one(H, q, pl):
    """The alignment's fit as first written, one alignment at a time."""
    from vision.reading import TIGHT, _Arrays, _on_table
    tab = _on_table(H, q)
    if tab is None:
        return 0.0
    arr = _Arrays.of(pl)
    owner, along, ok = _locate_one(tab, pl)
    own = np.maximum(owner, 0)
    resid = np.linalg.norm(tab - arr.firsts[own], axis=1)
    fans = arr.flen[own]
    first = np.zeros(len(tab), bool)
    if ok.any():
        idx = np.where(ok)[0]
        order = idx[np.lexsort((along[idx], owner[idx]))]
        starts = np.concatenate(([True], owner[order][1:] != owner[order][:-1]))
        first[order[starts]] = True
    r = np.where(fans > 0, np.where(first, np.where(arr.open_fan[own], resid, 0.5 * resid), 0.0), resid)
    d = tab - arr.heads[own]
    across = np.abs(d[:, 0] * arr.unit[own, 1] - d[:, 1] * arr.unit[own, 0])
    fl = np.maximum(fans, 1e-9)
    step_off = np.where(along <= 0, -along, np.abs(along - np.round(along / fl) * fl))
    tight = np.where(fans > 0, across + step_off + np.where(first & arr.open_fan[own], resid, 0.0), resid)
    snug = np.exp(-(tight / TIGHT) ** 2)
    prior = float((arr.filled[own] & ok).sum()) / max(1, int(ok.sum()))
    return float((ok * (0.5 + 0.5 * snug)).mean()) - 0.1 * float(r[ok].mean() if ok.any() else 1.0) + 0.01 * prior


def test_alignments_scored_together_score_as_one_by_one():
    # register scores its voted alignments in batches; the numbers must be those of scoring them one
    # by one, to the last bit, so that ties between look-alike alignments still fall the same way
    from vision.reading import _fit_score, _fit_scores, _locate, places
    rng = random.Random(5)
    for gid, seed in (("pendulum", 3), ("seven-and-six", 4), ("aunty-allis", 1), ("kings", 2)):
        st = get_game(gid).new(seed)
        H = camera(rng, extent=extent(st))
        pl = places(get_game(gid).layout(st.options), st)
        cards = group_cards(sightings_for(st, H, rng, jitter=0.02), 40.0)
        q = np.array([c.anchor for c in cards], dtype=float)
        Hs = [H]
        for _ in range(60):      # the true alignment a little off: shifted, turned, scaled, tilted
            J = np.eye(3)
            J[:2, :2] += np.array([[rng.gauss(0, 0.05), rng.gauss(0, 0.05)], [rng.gauss(0, 0.05), rng.gauss(0, 0.05)]])
            J[:2, 2] = rng.gauss(0, 0.8), rng.gauss(0, 0.8)
            J[2, :2] = rng.gauss(0, 0.01), rng.gauss(0, 0.01)
            Hs.append(H @ J)
        Hs.append(np.zeros((3, 3)))                  # no alignment at all: scores 0
        want = [_fit_score_one(K, q, pl) for K in Hs]
        got = _fit_scores(Hs, q, pl, chunk=7)
        assert got == want, gid
        assert [_fit_score(K, q, pl) for K in Hs] == want
        tab = np.linalg.solve(H, np.c_[q, np.ones(len(q))].T).T
        tab = tab[:, :2] / tab[:, 2:]
        for a, b in zip(_locate(tab, pl), _locate_one(tab, pl)):
            assert a.tolist() == b.tolist()
        assert want[-1] == 0.0 and max(want) > 0.3 and len(set(want)) > 20     # varied, not all zero


def _fan_steps_numpy(along, flen, open_fan, dealt=0):
    """The fan steps as first written, in numpy: the reference the plain-Python version must match."""
    from vision.reading import OPEN_HEAD
    order = np.argsort(along, kind="stable")
    a = along[order]
    gaps = np.diff(a)
    step = float(np.clip(np.median(gaps), 0.6 * flen, 1.4 * flen)) if len(gaps) else flen
    if open_fan:
        first = 0 if a[0] < OPEN_HEAD * flen else int(round(a[0] / flen))
    else:
        first = dealt if abs(a[0] - dealt * flen) < 1.5 * flen else max(0, int(round(a[0] / flen)))
    steps = np.concatenate(([first], first + np.cumsum(np.maximum(1, np.round(gaps / step))))).astype(int)
    out = np.empty(len(along), int)
    out[order] = steps
    return out


def test_fan_steps_match_the_numpy_reference():
    from vision.reading import _fan_steps
    rng = np.random.default_rng(3)
    for trial in range(400):
        n = int(rng.integers(1, 21))
        flen = float(rng.choice([0.2, 0.25, 0.3, 0.5]))
        # cards near their steps, some missed, in shuffled order; now and then two gaps of exactly half a step
        steps = np.sort(rng.choice(np.arange(0, 3 * n + 5), n, replace=False))
        along = steps * flen * rng.uniform(0.8, 1.2) + rng.normal(0, 0.03, n)
        if trial % 10 == 0 and n >= 3:
            along[:3] = [0.0, 0.5 * flen, flen]
        along = rng.permutation(along)
        open_fan = bool(trial % 2)
        dealt = int(rng.integers(0, 6))
        assert _fan_steps(along, flen, open_fan, dealt).tolist() == _fan_steps_numpy(along, flen, open_fan, dealt).tolist()


def test_a_packet_card_seen_alone_most_of_a_step_down_has_one_missed_before_it():
    # Pendulum photo 1000 (held-out deck, through the detector): packets of two fanned 0.2 apart,
    # their first card's index hidden; the second was seen alone at these places along the fan.
    from vision.reading import _fan_pile
    row = next(a for a in get_game("pendulum").layout({}).areas if a.kind == "row")
    step = float(np.hypot(*row.fan))
    for along in (0.168, 0.176, 0.155):
        doubts: list = []
        pile = _fan_pile(row, 0, [SeenCard("5h", (0.0, 0.0), 0.9, [(0, 0, 1, 1)], along=along)], [], False, {},
                         doubts, step)
        assert [s.token() for s in pile] == ["?", "5h"], along
        assert any(d.kind == "unreadable" and d.index == 0 for d in doubts)
    # a card at the packet's head, a little off its place, is the first card
    pile = _fan_pile(row, 0, [SeenCard("5h", (0.0, 0.0), 0.9, [(0, 0, 1, 1)], along=0.06)], [], False, {}, [], step)
    assert [s.token() for s in pile] == ["5h"]


def _pendulum_deal_seen(seed: int):
    """A Pendulum deal's camera, the first grouping's card anchors, the layout's places and the scale."""
    from vision.reading import _template, estimate_scale, first_grouping, places
    game = get_game("pendulum")
    truth = game.new(seed)
    H0 = camera(random.Random(seed), extent=extent(truth))
    sights = sightings_for(truth, H0)
    scale = estimate_scale(sights)
    q = np.array([c.anchor for c in first_grouping(sights, scale)])
    return H0, q, places(game.layout({}), _template(game, {})), scale


def test_an_alignment_squeezed_and_sheared_along_one_axis_is_stretched_back():
    """``stretched`` finds the alignment that puts the cards back at their pile heads when the one
    given maps the table squeezed to a little over half along an axis, sheared and slid (as voting
    can for a sparse layout of fanned rows), along either axis, and never offers the one given nor a
    copy fitting worse than asked."""
    from vision.reading import _heads_in_photo, _same_places, stretched
    H0, q, pl, scale = _pendulum_deal_seen(1)
    want = _heads_in_photo(H0, pl)
    for axis in (0, 1):
        S = np.eye(3)
        S[axis, axis], S[axis, 1 - axis], S[axis, 2] = 0.55, 0.1, 0.5      # the copy's table -> the squeezed one's
        squeezed = H0 @ np.linalg.inv(S)
        assert not _same_places(_heads_in_photo(squeezed, pl), want, scale)
        copies = stretched(squeezed, q, pl, scale, [_heads_in_photo(squeezed, pl)])
        assert copies and any(_same_places(_heads_in_photo(H, pl), want, scale) for H in copies)
        assert not any(_same_places(_heads_in_photo(H, pl), _heads_in_photo(squeezed, pl), scale) for H in copies)
        # copies that fit the cards worse than asked are not offered (a fit is at most 1)
        assert stretched(squeezed, q, pl, scale, [_heads_in_photo(squeezed, pl)], least_fit=1.01) == []


def test_rows_squeezed_to_a_packet_step_are_stretched_back_only_by_the_far_factors():
    """A Pendulum alignment with its row pitch (0.7 card widths) squeezed to a packet step (0.2) takes
    each row's cards for the packets of the top row. Undoing that takes a stretch of about 3.5, beyond
    the near factors (``STRETCH_FACTORS``); the far ones (``STRETCH_FAR_FACTORS``) find it."""
    from vision.reading import STRETCH_FACTORS, STRETCH_FAR_FACTORS, _heads_in_photo, _same_places, stretched
    H0, q, pl, scale = _pendulum_deal_seen(3)
    want = _heads_in_photo(H0, pl)
    S = np.eye(3)
    S[1, 1], S[1, 2] = 0.2 / 0.7, 1.8      # the copy's table -> the squeezed one's: rows 0.7 apart become 0.2
    squeezed = H0 @ np.linalg.inv(S)
    near = [_heads_in_photo(squeezed, pl)]
    assert max(STRETCH_FACTORS) < 0.7 / 0.2 / 1.2 and min(STRETCH_FACTORS) > 0.2 / 0.7 * 1.2
    assert not any(_same_places(_heads_in_photo(H, pl), want, scale) for H in stretched(squeezed, q, pl, scale, near))
    far = stretched(squeezed, q, pl, scale, near, factors=STRETCH_FAR_FACTORS, keep=2)
    assert any(_same_places(_heads_in_photo(H, pl), want, scale) for H in far)


def test_a_fan_reaches_only_as_far_as_the_next_pile_head_on_its_line(monkeypatch):
    """Pendulum's packets fan towards the row below, whose heads lie 0.7 card widths (3.5 packet steps) on:
    a card seen 0.62 past a packet's first card is read as the head of the row below, not the fourth card of
    a packet whose middle indices were missed (``_Arrays.reach``, ``REACH_GAP``). Fans that meet no other
    pile head keep the whole gap allowed for missed indices."""
    import vision.reading
    from vision.reading import _Arrays, _locate, _template, places
    game = get_game("pendulum")
    pl = places(game.layout({}), _template(game, {}))
    arr = _Arrays.of(pl)
    rows = [k for k, p in enumerate(pl) if p.area.kind == "row"]
    last = [k for k in rows if pl[k].area.name == "sixth"]
    assert np.allclose(arr.reach[[k for k in rows if k not in last]], 0.7)
    assert np.isinf(arr.reach[last]).all()
    fourth = next(k for k in rows if pl[k].area.name == "fourth" and pl[k].pile == 2)
    fifth = next(k for k in rows if pl[k].area.name == "fifth" and pl[k].pile == 2)
    tab = np.array([pl[fourth].table, pl[fourth].table + [0.0, 0.62]])
    owner, _, ok = _locate(tab, pl)
    assert owner.tolist() == [fourth, fifth] and ok.all()
    # the packets of the three rows above take the card in turn first (their strips run on down the column, and
    # lie as near it as the head below): each breaks its chain, and four rounds of retries ran out before the head
    monkeypatch.setattr(vision.reading, "LOCATE_ROUNDS", 4)
    assert _locate(tab, pl)[0].tolist() != [fourth, fifth]
    monkeypatch.setattr(vision.reading, "LOCATE_ROUNDS", 8)
    monkeypatch.setattr(vision.reading, "REACH_GAP", 0)
    assert _locate(tab, pl)[0].tolist() == [fourth, fifth]      # session 40's rule alone takes it to the head, too
    monkeypatch.setattr(vision.reading, "REACH_NEAR", 0.0)
    assert _locate(tab, pl)[0].tolist() == [fourth, fourth]
    # a Seven and Six column meets no other pile head: the whole gap for missed indices stays
    sas = get_game("seven-and-six")
    pl2 = places(sas.layout({}), _template(sas, {}))
    assert np.isinf(_Arrays.of(pl2).reach).all()


def _fan_photo(n: int, step: float, px: float = 80.0, origin=(60.0, 40.0)) -> tuple[np.ndarray, np.ndarray]:
    """A photo from straight above of ``n`` white cards with grey borders fanned down a column ``step`` card
    widths apart on green baize, and the table-to-photo map (``px`` pixels a card width)."""
    import cv2

    from advisor.engine import CARD_ASPECT
    h = int(origin[1] + ((n - 1) * step + CARD_ASPECT + 0.5) * px)
    img = np.zeros((h, int(2 * origin[0] + px)), np.uint8)
    img[:] = 90
    for j in range(n):
        x0, y0 = origin[0], origin[1] + j * step * px
        cv2.rectangle(img, (int(x0), int(y0)), (int(x0 + px), int(y0 + CARD_ASPECT * px)), 235, -1)
        cv2.rectangle(img, (int(x0), int(y0)), (int(x0 + px), int(y0 + CARD_ASPECT * px)), 120, 1)
    H = np.array([[px, 0, origin[0]], [0, px, origin[1]], [0, 0, 1.0]])
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), H


def test_the_photo_shows_a_card_edge_across_the_fan_at_every_card_whether_or_not_its_index_was_read():
    from advisor.engine import Area, Layout
    from vision.reading import fan_edges

    step = 0.3
    img, H = _fan_photo(6, step)
    layout = Layout(areas=[Area("column", "column", 1, fan=(0.0, step))])
    seen = [SeenCard("As", (0.0, 0.0), 0.9, along=0.0), SeenCard("Ks", (0.0, 0.0), 0.9, along=5 * step)]
    edges = fan_edges(img, layout, H, {("column", 0): seen})[("column", 0)]
    at_cards = edges.at(np.arange(1, 6) * step, step)
    between = edges.at((np.arange(1, 5) + 0.5) * step, step)
    assert at_cards.min() > 2.0            # each card's edge, the four whose index was not read too
    assert between.max() < 0.5


def test_a_card_edge_in_the_photo_where_a_missed_place_would_lie_argues_for_that_card():
    import vision.reading as R

    along, step = np.array(UR_COLUMN_7), 0.285    # six cards lay there; the fourth showed no index

    def profile(edge_at):
        z = np.full(2 * R.EDGE_PX, -1.0)
        for x in edge_at:
            z[int(round(x * R.EDGE_PX))] = 3.0
        return R.FanEdges(z)

    places, margin = _fan_fit(along, step)
    assert places.tolist() == [0, 1, 2, 3, 4]     # the spacing alone: five cards, in doubt
    with_edge = profile(list(along) + [(along[2] + along[3]) / 2])      # the photo shows the missed card's edge
    without = profile(along)                                           # ... or shows none there
    assert _fan_fit(along, step, edges=with_edge)[0].tolist() == [0, 1, 2, 4, 5]
    assert _fan_fit(along, step, edges=without)[0].tolist() == [0, 1, 2, 3, 4]
    assert _fan_fit(along, step, edges=without)[1] > margin      # surer of five than the spacing alone


def test_a_card_at_the_next_rows_head_past_missed_indices_is_that_rows_head(monkeypatch):
    """Pendulum's rows lie 0.7 card widths apart, three and a half packet steps. A card seen there, two
    steps past the last card of the packet above with no index between, is the next row's head card,
    though it lies nearly as close to a step of the packet above; a packet seen card by card down to
    the same point keeps its card."""
    import vision.reading as R
    pl = R.places(get_game("pendulum").layout({}))
    top = next(k for k, p in enumerate(pl) if p.area.name == "top" and p.pile == 0)
    below = next(k for k, p in enumerate(pl) if p.area.name == "second" and p.pile == 0)
    head = np.array(pl[top].table)
    lone = np.array([head, head + [0, 0.2], head + [0, 0.63]])     # the third nearer step 3 (0.6) than the head (0.7)
    owner, _, _ = R._locate(lone, pl)
    assert list(owner) == [top, top, below]
    dense = np.array([head, head + [0, 0.2], head + [0, 0.4], head + [0, 0.6]])
    owner, _, ok = R._locate(dense, pl)
    assert list(owner) == [top] * 4 and ok.all()
    # without the rule the lone card stayed in the packet above, two indices supposed missed
    monkeypatch.setattr(R, "REACH_NEAR", 0.0)
    owner, _, _ = R._locate(lone, pl)
    assert list(owner) == [top, top, top]
