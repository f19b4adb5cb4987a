"""The reading benchmark judges a read state against the truth, or a state no photo can tell from it."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import reading_bench as rb  # noqa: E402

from advisor.engine import get_game  # noqa: E402

POKER = get_game("poker-patience")


def _moved(state, dc: int, dr: int):
    """The Poker Patience square moved by (dc, dr) cells, whatever room it leaves."""
    out = state.copy()
    cols = "abcdefghi"
    for col in cols:
        out.areas[col] = [[] for _ in range(9)]
    for c, col in enumerate(cols):
        for r, pile in enumerate(state.areas[col]):
            if pile:
                out.areas[cols[c + dc]][r + dr] = list(pile)
    return out


def test_a_poker_square_read_where_a_photo_cannot_tell_it_from_the_truth_is_right():
    truth = rb.make_state("poker-patience", 1002, 25)
    n = len(POKER.grid(truth))
    assert n >= 4
    row = rb.compare(truth, _moved(truth, 0, 1), [])
    assert row["exact"] and row["correct"] == row["cards"]


def test_a_poker_square_read_where_it_could_no_longer_grow_is_wrong():
    truth = rb.make_state("poker-patience", 1009, 25)
    rs = [r for _, r in POKER.grid(truth)]
    # pushed against the board's top edge: a square not yet five tall could not grow upwards there
    assert max(rs) - min(rs) < 4
    row = rb.compare(truth, _moved(truth, 0, -min(rs)), [])
    assert not row["exact"] and row["wrong"] >= len(rs)


def test_other_games_are_judged_against_the_truth_alone():
    truth = rb.make_state("kings", 3, 0)
    assert get_game("kings").photo_equivalents(truth) == []
    assert rb.compare(truth, truth, [])["exact"]


def test_the_refusal_benchmark_scatters_distinct_cards_inside_the_photo_and_each_is_refused():
    from vision.reading import read_sightings
    a, b = rb.random_scatter(7), rb.random_scatter(7)
    assert [s.box for s in a] == [s.box for s in b]            # seeded
    assert len({s.label for s in a}) == len(a) == 28            # one pack: no card twice
    assert all(0 <= s.box[0] < s.box[2] <= 1920 and 0 <= s.box[1] < s.box[3] <= 1080 for s in a)
    for game in ("pendulum", "senior-wrangler", "aunty-allis"):
        assert read_sightings(a, game, image_size=(1920, 1080)).state is None


def test_a_fan_read_with_one_face_down_card_too_few_is_counted_though_every_face_up_card_is_right():
    truth = rb.make_state("seven-and-six", 1013, 0)
    down = rb.face_down_counts(truth)
    assert down and all(n > 0 for n in down.values())       # every column of the deal starts face down
    row = rb.compare(truth, truth, [])
    assert row["exact"] and row["down_wrong"] == 0 and row["down_piles"] == len(down)
    read = truth.copy()
    (area, pile), n = next(iter(down.items()))
    read.areas[area][pile] = read.areas[area][pile][1:]      # one face-down card fewer under that fan
    row = rb.compare(truth, read, [])
    assert row["exact"] and row["down_wrong"] == 1
    assert rb.compare(truth, None, [])["down_wrong"] == len(down)
    # games with no face-down fans have nothing to count
    kings = rb.make_state("kings", 3, 0)
    assert rb.compare(kings, kings, [])["down_piles"] == 0


def test_games_may_be_named_comma_separated_and_an_unknown_one_is_refused_before_any_work(capsys, monkeypatch):
    import pytest
    ran = []
    monkeypatch.setattr(rb, "run_render", lambda args: ran.append(list(args.games)) or {})
    assert rb.main(["render", "--layouts", "1", "--games", "pendulum,kings", "uncle-remus"]) == 0
    assert ran == [["pendulum", "kings", "uncle-remus"]]
    with pytest.raises(SystemExit):
        rb.main(["render", "--layouts", "1", "--games", "pendulum,bogus"])
    assert "unknown game(s) bogus" in capsys.readouterr().err and len(ran) == 1
