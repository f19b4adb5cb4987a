"""Senior Wrangler rules, from Keeling's section E (see seeds/senior-wrangler.toml)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from advisor.cards import Card, full_deck, interval_sequence, parse_rank, rank_add
from advisor.catalogue import entry, fact
from advisor.engine import Board, Move, MoveError, State, StateError, get_game
from advisor.games.senior_wrangler import pile_sequence

GID = "senior-wrangler"
G = get_game(GID)
SUITS = "shdc"


def st(columns, keys, piles=None, session=1, key_piles=None):
    """A hand-built state. Cards are labels; suits are filled in round-robin where only a rank is given."""
    data = {"game": GID, "info": {"session": session},
            "areas": {"column": [list(c) for c in columns] + [[] for _ in range(8 - len(columns))],
                      "key": (key_piles if key_piles is not None else [[k] for k in keys]) + [[]] * (8 - len(key_piles or keys)),
                      "pile": [list(p) for p in (piles or [])] + [[] for _ in range(8 - len(piles or []))]}}
    return State.from_json(data)


def label(rank: int, i: int = 0) -> str:
    return Card(rank, SUITS[i % 4]).label


class Faces:
    """Hands out card labels of a given rank, never more than two of a face (two packs)."""

    def __init__(self, *taken: str):
        self.used = Counter(taken)

    def __call__(self, rank: int) -> str:
        for suit in SUITS:
            lab = Card(rank, suit).label
            if self.used[lab] < 2:
                self.used[lab] += 1
                return lab
        raise AssertionError(f"no rank {rank} left")

    def pile(self, key: int, n: int) -> list[str]:
        """The first n cards of a pile on this key, from the shared rank arithmetic."""
        return [self(r) for r in interval_sequence(rank_add(key, key), key, 12)[:n]]


def pile_labels(key: int, n: int) -> list[str]:
    return Faces().pile(key, n)


KEYS8 = ["5h", "9s", "Ac", "2d", "3h", "4s", "6c", "7d"]


# ------------------------------------------------------------ worked facts

@pytest.mark.parametrize("name", ["pile-order-key-5", "pile-order-key-9"])
def test_pile_order_facts_agree_with_rank_arithmetic(name):
    data = fact(GID, name)["data"]
    key = data["key"]
    order = [parse_rank(r) for r in data["order"]]
    # Independent computation: start at twice the key (mod 13), then add the key each time.
    start = rank_add(key, key)
    assert interval_sequence(start, key, 12) == order
    # by hand, without the helpers: ((n + 2) * key) mod 13 with king for 0
    assert [((n + 2) * key) % 13 or 13 for n in range(12)] == order


@pytest.mark.parametrize("name", ["pile-order-key-5", "pile-order-key-9"])
def test_pile_order_facts_can_be_played_in_the_engine(name):
    data = fact(GID, name)["data"]
    key = data["key"]
    ranks = [parse_rank(r) for r in data["order"]]
    # Put the pile's cards in column 1, the first needed nearest the player (on top).
    col = [label(r, i) for i, r in reversed(list(enumerate(ranks)))]
    s = st([col], [label(key)] + [k for k in KEYS8 if parse_rank(k[:-1]) != key][:7])
    for r in ranks:
        assert G.needs(s, 0) == r
        m = G.parse_move(s, "column1>pile1")
        assert G.why_illegal(s, m) is None, r
        G.apply(s, m)
    assert G.progress(s, 0) == 12
    assert len(s.areas["key"][0]) == 13 and s.areas["pile"][0] == []


def test_eleventh_card_plus_key_is_thirteen_for_every_key():
    data = fact(GID, "eleventh-card-plus-key")["data"]
    assert data["total"] == 13
    for k in (parse_rank(x) for x in data["keys"]):
        seq = interval_sequence(rank_add(k, k), k, 12)
        eleventh = seq[data["eleventh"] - 1]
        assert eleventh + k == data["total"]
        assert seq[-1] == parse_rank(data["last"])
        # every rank but the key's own appears once on its pile
        assert sorted(seq) == sorted(r for r in range(1, 14) if r != k)
        # and the engine's piles agree
        s = st([], [label(k)])
        assert G.needs(s, 0) == seq[0]
        assert pile_sequence(k) == seq


def test_layout_counts_fact():
    d = fact(GID, "layout-counts")["data"]
    s = G.new(12)
    assert len(s.areas["key"]) == d["keys"] and len(s.areas["column"]) == d["columns"]
    assert [len(c) for c in s.areas["column"]] == [d["column_length"]] * d["columns"]
    assert sum(len(c) for c in s.areas["column"]) == d["column_cards"]
    assert G.packs == d["packs"]
    # eight sessions: seven redeals, then no more
    for _ in range(d["sessions"] - 1):
        assert Move.act("redeal") in G.legal_moves(s)
        G.apply(s, Move.act("redeal"))
    assert s.info["session"] == d["sessions"]
    assert Move.act("redeal") not in G.legal_moves(s)


# --------------------------------------------------------------- dealing

class Stacked:
    """An rng whose shuffle lays the deck out in a chosen order."""

    def __init__(self, order):
        self.order = order

    def shuffle(self, deck):
        remaining = list(deck)
        out = []
        for lab in self.order:
            i = next(i for i, c in enumerate(remaining) if c.label == lab)
            out.append(remaining.pop(i))
        deck[:] = out + remaining


def test_kings_and_repeated_ranks_start_the_columns():
    order = ["Ks", "5h", "5d", "7c", "Kh", "2s", "7h", "9c", "Jd", "3s", "Qh", "4c"]
    s = G.deal(Stacked(order), {})
    keys = [p[0].card.label for p in s.areas["key"]]
    assert keys == ["5h", "7c", "2s", "9c", "Jd", "3s", "Qh", "4c"]
    cols = s.areas["column"]
    # the set-aside cards lie furthest from the player in columns 1, 2, 3, 4
    assert [cols[i][0].card.label for i in range(4)] == ["Ks", "5d", "Kh", "7h"]
    # the rest of the pack completes the rows left to right
    deck_after = [c for c in _stacked_deck(order)][12:]
    assert [cols[i][0].card for i in range(4, 8)] == deck_after[:4]
    assert [cols[i][1].card for i in range(8)] == deck_after[4:12]
    assert all(len(c) == 12 for c in cols)


def _stacked_deck(order):
    d = full_deck(2)
    Stacked(order).shuffle(d)
    return d


def test_more_than_eight_set_aside_cards_wrap_to_column_one():
    # 9 kings? only 8 exist; use repeats: A, then 8 kings, then a second ace, then 7 more key ranks.
    order = ["Ah", "Ks", "Kh", "Kd", "Kc", "Ks", "Kh", "Kd", "Kc", "As", "2h", "3h", "4h", "5h", "6h", "7h", "8h"]
    s = G.deal(Stacked(order), {})
    assert [p[0].card.label for p in s.areas["key"]] == ["Ah", "2h", "3h", "4h", "5h", "6h", "7h", "8h"]
    cols = s.areas["column"]
    assert [c[0].card.rank for c in cols] == [13] * 8
    assert cols[0][1].card.label == "As"            # the ninth set-aside card lands on the first
    assert all(len(c) == 12 for c in cols)


@pytest.mark.parametrize("seed", range(6))
def test_dealt_keys_are_distinct_and_never_kings(seed):
    s = G.new(seed)
    ranks = [p[0].card.rank for p in s.areas["key"]]
    assert len(set(ranks)) == 8 and 13 not in ranks
    assert s.info == {"session": 1}
    assert all(p == [] for p in s.areas["pile"])
    assert all(sl.face_up for _, _, sl in s.slots())
    assert G.validate(s) == []


# ------------------------------------------------------------------ moves

def test_only_the_needed_rank_goes_on_a_pile():
    # key 5 needs a 10 first; key 9 needs a 5 first
    s = st([["Ks", "10d"], ["2c", "9s"], ["5c"]], ["5h", "9s"] + KEYS8[2:])
    assert G.why_illegal(s, G.parse_move(s, "column1>pile1")) is None
    assert G.why_illegal(s, G.parse_move(s, "column3>pile2")) is None
    reason = G.why_illegal(s, G.parse_move(s, "column2>pile1"))
    assert "needs a ten" in reason and "9♠" in reason and "5♥" in reason
    assert G.parse_move(s, "column1>pile1") in G.legal_moves(s)
    assert G.parse_move(s, "column2>pile1") not in G.legal_moves(s)


def test_suits_do_not_matter_and_a_card_may_fit_several_piles():
    s = st([["10c"]], ["5h", "7d"] + ["As", "2s", "3s", "4s", "6s", "8s"], piles=[[], pile_labels(7, 4)])
    # key 7 pile: A, 8, 2, 9 -> needs 3 next; key 5 needs 10: only pile 1 fits a ten
    assert G.needs(s, 1) == 3
    assert [str(m) for m in G.legal_moves(s)] == ["column1>pile1", "redeal"]
    keys = ["5h", "7d", "8s", "As", "2s", "4s", "6s", "9s"]
    faces = Faces(*keys, "3c")
    s2 = st([["3c"]], keys, piles=[faces.pile(5, 9), faces.pile(7, 4)])
    # key 5 after 9 cards needs a 3, key 7 after 4 cards needs a 3; key 8 needs a 3 first (16-13)
    assert [str(m) for m in G.legal_moves(s2)] == ["column1>pile1", "column1>pile2", "column1>pile3", "redeal"]


def test_only_top_cards_move_and_only_onto_piles():
    s = st([["10d", "Ks"]], KEYS8)
    r = G.why_illegal(s, G.parse_move(s, "column1>pile1"))
    assert "needs a ten" in r and "K♠" in r
    assert "only the top card of a column" in G.why_illegal(s, G.parse_move(s, "key1>pile2"))
    assert "not on the key cards" in G.why_illegal(s, G.parse_move(s, "column1>key1"))
    assert "never move onto a column" in G.why_illegal(s, G.parse_move(s, "column1>column2"))
    assert "one at a time" in G.why_illegal(s, G.parse_move(s, "column1x2>pile1"))
    assert "column 2 is empty" in G.why_illegal(s, G.parse_move(s, "column2>pile1"))
    assert "no column 9" in G.why_illegal(s, G.parse_move(s, "column9>pile1"))
    assert "no pile 9" in G.why_illegal(s, G.parse_move(s, "column1>pile9"))


def test_a_finished_pile_takes_nothing_more():
    full = pile_labels(5, 12)
    s = st([["10c"]], None, key_piles=[["5h"] + full] + [[k] for k in KEYS8[1:]])
    assert "finished" in G.why_illegal(s, G.parse_move(s, "column1>pile1"))
    # a finished pile still lying in front of its key (as the camera may see it) counts as finished too
    s2 = st([["10c"]], KEYS8, piles=[full])
    assert G.progress(s2, 0) == 12
    assert "finished" in G.why_illegal(s2, G.parse_move(s2, "column1>pile1"))


def test_unknown_cards_never_crash_and_give_reasons():
    s = st([["?"], ["10c"]], None, key_piles=[["?"]] + [[k] for k in KEYS8[1:]])
    assert G.legal_moves(s) == [Move.act("redeal")]
    assert "has not been read" in G.why_illegal(s, G.parse_move(s, "column1>pile2"))
    assert "key card of pile 1 has not been read" in G.why_illegal(s, G.parse_move(s, "column2>pile1"))


def test_playing_the_king_finishes_the_pile_onto_its_key():
    s = st([["Kc"]], KEYS8, piles=[pile_labels(5, 11)])
    b = Board(s.copy())
    b.push("column1>pile1")
    assert b.state.areas["pile"][0] == []
    assert [sl.card.rank for sl in b.state.areas["key"][0]] == [5] + [parse_rank(x) for x in fact(GID, "pile-order-key-5")["data"]["order"]]
    b.pop()
    assert b.state == s


# -------------------------------------------------------------- sessions

def test_redeal_column_one_fact():
    d = fact(GID, "redeal-column-1")["data"]
    s = G.new(3)
    col = [sl.card for sl in s.areas["column"][0]]
    others = [[sl.card for sl in c] for c in s.areas["column"]]
    G.apply(s, Move.act("redeal"))
    cols = [[sl.card for sl in c] for c in s.areas["column"]]
    t = d["bottom_goes_to"] - 1
    assert cols[t][0] == col[0]                       # bottom card back in the same place
    assert cols[d["ninth_goes_to"] - 1][1] == col[8]  # the ninth lands on it
    assert len(cols[0]) == 2
    for i in range(1, 8):                             # the others get one card each on top (12 = 8 + 4)
        extra = [col[j] for j in range(12) if j % 8 == i]
        assert cols[i] == others[i] + extra
    assert s.info["session"] == 2


def test_redeal_column_two_fact_and_the_picked_up_column_takes_its_turn():
    d = fact(GID, "redeal-column-2")["data"]
    s = G.new(4)
    G.apply(s, Move.act("redeal"))
    before = [[sl.card for sl in c] for c in s.areas["column"]]
    col2 = before[1]
    G.apply(s, Move.act("redeal"))
    cols = [[sl.card for sl in c] for c in s.areas["column"]]
    assert cols[d["bottom_goes_to"] - 1][len(before[0])] == col2[0]
    assert cols[0] == before[0] + [col2[j] for j in range(len(col2)) if j % 8 == 0]
    assert cols[1] == [col2[j] for j in range(len(col2)) if j % 8 == 1]
    assert s.info["session"] == 3


def test_cards_played_from_the_picked_up_column_are_not_dealt():
    # column 1 holds four cards; the top one (a ten) goes to pile 1 first
    s = st([["2c", "3c", "4c", "10c"], ["Jd"]], KEYS8)
    G.apply(s, G.parse_move(s, "column1>pile1"))
    G.apply(s, Move.act("redeal"))
    assert [[sl.card.label for sl in c] for c in s.areas["column"]][:4] == [["2c"], ["Jd", "3c"], ["4c"], []]


@pytest.mark.parametrize("c", range(1, 8))
def test_kings_on_the_ground(c):
    d = fact(GID, "kings-on-the-ground")["data"]
    assert [c, c] in d["positions"]
    col = [label(2 + i % 3, i) for i in range(12)]
    col[c - 1] = "Kh"
    columns = [[label(10, i), label(11, i + 1)] for i in range(8)]
    columns[c - 1] = col
    s = st(columns, KEYS8, session=c)
    G.apply(s, Move.act("redeal"))
    assert s.areas["column"][c - 1][0].card.label == "Kh"


def test_tip_seven_example():
    d = fact(GID, "tip-7-example")["data"]
    (ca, pa), (cb, pb) = d["king_a"], d["king_b"]
    col1 = ["2s", "3s", "Kh", "4s"]                        # king A third from the bottom of column 1
    col3 = ["Js", "Kd", "2d", "3d", "4d", "6d", "8d", "10d", "Jd"]   # nine cards, king B second
    s = st([col1, ["Ac"], col3, ["Ad"]], ["5h", "9s", "7c", "2h", "3h", "4h", "6h", "8h"], session=1)
    G.apply(s, Move.act("redeal"))
    col = s.areas["column"][d["king_a_after_redeal_1_column"] - 1]
    assert col[d["king_a_target_position"] - 1].card.label == "Kh"
    assert col[pb - 1].card.label == "Kd"
    # session 2: column 2 is picked up; pretend both its cards were played by building them away
    s2 = s.copy()
    s2.areas["column"][1] = []
    s2.info["session"] = 3
    G.apply(s2, Move.act("redeal"))
    ground = s2.areas["column"][d["both_after_redeal_3_column"] - 1]
    assert [sl.card.label for sl in ground[:2]] == ["Kd", "Kh"]


def test_redeal_is_allowed_while_moves_remain_but_not_after_session_eight():
    s = st([["10c"]], KEYS8, session=7)
    assert G.legal_moves(s) == [G.parse_move(s, "column1>pile1"), Move.act("redeal")]
    G.apply(s, Move.act("redeal"))
    assert s.info["session"] == 8
    assert G.legal_moves(s) == [G.parse_move(s, "column1>pile1")]
    assert "no redeal after it" in G.why_illegal(s, Move.act("redeal"))


def test_session_eight_with_nothing_to_move_is_stuck():
    s = st([["9c"]], KEYS8, session=8)
    assert G.legal_moves(s) == [] and G.status(s) == "stuck"


def test_redeal_of_an_empty_column_just_ends_the_session():
    s = st([[], ["10c"]], KEYS8, session=1)
    G.apply(s, Move.act("redeal"))
    assert s.info["session"] == 2 and [len(c) for c in s.areas["column"]] == [0, 1] + [0] * 6


def test_actions_other_than_redeal_are_refused():
    s = G.new(1)
    assert "only action is 'redeal'" in G.why_illegal(s, Move.act("deal"))
    assert "no words" in G.why_illegal(s, Move.act("redeal", "now"))
    with pytest.raises(MoveError, match="only action"):
        Board(s).push("deal")


def test_won_on_the_last_king():
    faces = Faces(*KEYS8)
    piles = [faces.pile(parse_rank(k[:-1]), 12) for k in KEYS8]
    king = piles[7].pop()
    key_piles = [[k] + p for k, p in zip(KEYS8[:7], piles)] + [[KEYS8[7]]]
    s = st([[king]], None, piles=[[]] * 7 + [piles[7]], session=5, key_piles=key_piles)
    assert sum(1 for _ in s.slots()) == 104
    assert G.status(s) == "playing"
    assert G.legal_moves(s) == [G.parse_move(s, "column1>pile8"), Move.act("redeal")]
    G.apply(s, G.parse_move(s, "column1>pile8"))
    assert G.is_won(s) and G.status(s) == "won" and G.legal_moves(s) == []
    assert "already won" in G.why_illegal(s, Move.act("redeal"))


def test_describe_in_words():
    s = st([["10c"], ["Jd", "2d"]], KEYS8, session=2)
    assert G.parse_move(s, "10c>p1") == G.parse_move(s, "column1>pile1")
    assert G.describe(s, G.parse_move(s, "column1>pile1")) == "10♣ from column 1 onto pile 1 (key 5♥)"
    assert G.describe(s, Move.act("redeal")) == \
        "end session 2: pick up column 2 and deal its 2 cards across the tops of the columns from column 1"


# ------------------------------------------------------------- bad input

@pytest.mark.parametrize("mutate, words", [
    (lambda d: d["info"].update(session=9), "session must be a whole number from 1 to 8"),
    (lambda d: d["info"].update(session="two"), "session must be"),
    (lambda d: d["areas"]["key"].__setitem__(1, ["5c"]), "same rank (5)"),
    (lambda d: d["areas"]["key"].__setitem__(1, ["Kc"]), "never a key card"),
    (lambda d: d["areas"]["pile"].__setitem__(0, ["9c"]), "must be a ten"),
    (lambda d: d["areas"]["column"].__setitem__(0, ["~9c"]), "face-down"),
    (lambda d: d["areas"]["key"].__setitem__(0, ["5h", "10c"]), "key 1 holds 2 cards"),
    (lambda d: d["areas"]["column"].append([]), "column must have 8 piles"),
])
def test_impossible_states_are_named(mutate, words):
    data = st([["10c"]], KEYS8).to_json()
    mutate(data)
    with pytest.raises(StateError) as e:
        State.from_json(data)
    assert words in str(e.value)


def test_cli_on_a_deal(tmp_path, capsys):
    from patience.cli import main
    assert main(["deal", GID, "--seed", "1"]) == 0
    p = tmp_path / "s.json"
    p.write_text(capsys.readouterr().out)
    assert main(["moves", str(p)]) == 0
    assert "redeal" in capsys.readouterr().out
    assert main(["check", str(p), "column1>key1"]) == 1
    assert "not on the key cards" in capsys.readouterr().out
    assert main(["check", str(p), "redeal"]) == 0


def test_catalogue_entry_mentions_every_area_and_the_decisions():
    e = entry(GID)
    assert e["hidden_information"] is False and G.hidden_information is False
    assert any("Seven" in d["decision"] for d in e["decisions"])


def test_depth_under_a_pile_top_follows_the_key_order():
    """A camera sees only a pile's top card; its place in the key's order (source fact) gives the depth."""
    from advisor.engine import Loc, get_game
    g = get_game("senior-wrangler")
    s = g.new(1)
    key = s.areas["key"][0][0].card
    expected = [((n + 2) * key.rank - 1) % 13 + 1 for n in range(12)]   # independent of the engine's tables
    for n, rank in enumerate(expected):
        assert g.depth_under(s, Loc("pile", 0), Card(rank, "s")) == n
    assert g.depth_under(s, Loc("key", 0), Card(13, "h")) == 12


def test_completion_counts_a_finished_pile_whole():
    # A finished pile is squared on its key card (the key area), not left in the pile area: the game's
    # progress measure must still count its twelve cards, or playing a king would look like going back.
    import json
    from pathlib import Path
    from advisor.engine import Board, get_game
    g = get_game("senior-wrangler")
    plan = json.loads((Path(__file__).parents[1] / "fixtures" / "senior-wrangler-451-plan.json").read_text())["plan"]
    b = Board(g.new(451))
    before = None
    for m in plan:
        piles_done = sum(len(k) > 1 for k in b.state.areas["key"])
        before = g.completion(b.state)
        b.push(m)
        if sum(len(k) > 1 for k in b.state.areas["key"]) > piles_done:
            break
    assert g.completion(b.state) > before
    played = sum(g.progress(b.state, j) for j in range(8))
    assert g.completion(b.state) == played / 96
