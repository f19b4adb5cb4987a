"""The rules commands as a person uses them: output formats, exit codes, and clear messages for bad input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from advisor.engine import Board, State, games, get_game


def run(*args, stdin: str | None = None):
    p = subprocess.run([sys.executable, "-m", "patience", *args], capture_output=True, text=True, input=stdin, timeout=120)
    return p.returncode, p.stdout, p.stderr


def test_games_lists_one_line_per_game():
    rc, out, err = run("games")
    assert rc == 0
    lines = out.strip().splitlines()
    assert [l.split("\t")[0] for l in lines] == sorted(games())
    assert all(l.split("\t")[1] == get_game(l.split("\t")[0]).name for l in lines)


@pytest.mark.parametrize("gid", ["aunty-allis", "seven-and-six", "uncle-remus", "senior-wrangler", "kings"])
def test_deal_is_json_and_repeatable(gid, tmp_path):
    rc, out, _ = run("deal", gid, "--seed", "42")
    assert rc == 0
    assert run("deal", gid, "--seed", "42")[1] == out
    state = State.from_json(out)
    assert state == get_game(gid).new(42)
    path = tmp_path / "s.json"
    path.write_text(out)
    rc, moves, _ = run("moves", str(path))
    assert rc == 0
    listed = [m["move"] for m in json.loads(moves)]
    assert listed == [str(m) for m in get_game(gid).legal_moves(state)]
    if listed:
        rc, said, _ = run("check", str(path), listed[0])
        assert rc == 0 and said.startswith("legal")


def test_check_says_illegal_with_reason(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(run("deal", "senior-wrangler", "--seed", "1")[1])
    board = Board(State.from_json(path.read_text()))
    illegal = next(f"column{c}>pile{p}" for c in range(1, 9) for p in range(1, 9)
                   if board.why_illegal(f"column{c}>pile{p}") is not None)
    rc, out, _ = run("check", str(path), illegal)
    assert rc == 1 and out.startswith("illegal") and board.why_illegal(illegal) in out


@pytest.mark.parametrize("args, stdin, words", [
    (["deal", "chess"], None, "unknown game 'chess'"),
    (["moves", "-"], "{not json", "not valid JSON"),
    (["moves", "-"], '{"game": "kings"}', "no 'areas'"),
    (["moves", "-"], '{"game": "kings", "areas": {"moon": []}}', "no area 'moon'"),
    (["moves", "-"], '{"game": "senior-wrangler", "areas": {"column": [["As", "As", "As"]]}}', "three A♠ seen in a two-pack game"),
    (["moves", "-"], '{"game": "kings", "areas": {"pile": [["Zz"]]}}', "not a card"),
    (["moves", "/no/such/file.json"], None, "no such file"),
    (["deal", "kings", "-o", "fans_stay_open=maybe"], None, "must be a bool"),
])
def test_bad_input_is_named_without_a_traceback(args, stdin, words):
    rc, out, err = run(*args, stdin=stdin)
    assert rc == 2
    assert words in err
    assert "Traceback" not in err


@pytest.mark.parametrize("move, words", [("blah>>", "is not a place"), ("zz1>pile1", "no area called 'zz'"), ("", "empty move")])
def test_moves_in_the_wrong_notation_are_named(move, words, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(run("deal", "senior-wrangler", "--seed", "1")[1])
    rc, out, err = run("check", str(path), move)
    assert rc == 2 and words in err and "Traceback" not in err
