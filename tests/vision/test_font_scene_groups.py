"""The pipeline's font scenes are made group by group (a scene worker holds its group's decks in memory)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("vision_pipeline", ROOT / "scripts" / "vision_pipeline.py")
pipeline = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pipeline)


def test_font_scenes_are_shared_out_over_groups_numbered_on():
    decks = [f"deck{i}" for i in range(260)]
    groups = pipeline.font_scene_groups(decks, 1200, size=44)
    assert [len(g) for g, _, _ in groups] == [44, 44, 44, 44, 44, 40]
    assert [g for group, _, _ in groups for g in group] == decks
    assert sum(n for _, _, n in groups) == 1200
    # each group's scenes start where the last group's ended: no file name is written twice
    assert [first for _, first, _ in groups] == [0, 200, 400, 600, 800, 1000]
    assert max(n for _, _, n in groups) - min(n for _, _, n in groups) <= 1


def test_a_set_within_one_group_is_made_as_before():
    decks = [f"deck{i}" for i in range(36)]
    assert pipeline.font_scene_groups(decks, 1200) == [(decks, 0, 1200)]


def test_uneven_counts_still_add_up():
    groups = pipeline.font_scene_groups([f"d{i}" for i in range(100)], 7, size=30)
    assert [n for _, _, n in groups] == [1, 2, 2, 2] and sum(n for _, _, n in groups) == 7
    assert [first for _, first, _ in groups] == [0, 1, 3, 5]
