"""The JSON API through Flask's test client."""
from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from advisor.engine import games, get_game
from webui import create_app

GAME = "senior-wrangler" if "senior-wrangler" in games() else sorted(games())[0]


@pytest.fixture
def app(tmp_path):
    return create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


def new_session(client, seed=3):
    r = client.post("/api/sessions", json={"game": GAME, "seed": seed})
    assert r.status_code == 201, r.json
    return r.json["session"]["id"]


def jpeg_bytes(w=64, h=48) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), (20, 90, 50)).save(buf, "JPEG")
    return buf.getvalue()


def test_page_and_catalogue(client):
    assert client.get("/").status_code == 200
    cat = client.get("/api/games").json
    ids = [g["id"] for g in cat]
    assert ids == sorted(games())
    g = next(g for g in cat if g["id"] == GAME)
    assert g["summary"] and g["layout"] and g["name"] == get_game(GAME).name


def test_session_deal_check_move_undo(client):
    sid = new_session(client)
    view = client.get(f"/api/sessions/{sid}").json
    game = get_game(GAME)
    from advisor.engine import State
    state = State.from_json(view["state"])
    legal = game.legal_moves(state)
    assert legal
    r = client.post(f"/api/sessions/{sid}/check", json={"move": str(legal[0])}).json
    assert r["legal"] is True
    moved = client.post(f"/api/sessions/{sid}/move", json={"move": str(legal[0])})
    assert moved.status_code == 200
    after = State.from_json(moved.json["state"])
    expected = state.copy()
    game.apply(expected, legal[0])
    assert after == expected
    undone = client.post(f"/api/sessions/{sid}/undo").json
    assert State.from_json(undone["state"]) == state
    assert client.post(f"/api/sessions/{sid}/undo").status_code == 409  # the deal itself is kept


def test_illegal_move_gives_reason_and_nearest_alternative(client):
    sid = new_session(client)
    view = client.get(f"/api/sessions/{sid}").json
    from advisor.engine import Loc, Move, State
    state = State.from_json(view["state"])
    game = get_game(GAME)
    legal = set(game.legal_moves(state))
    layout = game.layout(state.options)
    candidates = [Move.cards(Loc(a.name, 0), Loc(b.name, 0)) for a in layout.areas for b in layout.areas
                  if a.count and b.count and a.name != b.name]
    bad = next(m for m in candidates if m not in legal)
    r = client.post(f"/api/sessions/{sid}/check", json={"move": str(bad)}).json
    assert r["legal"] is False and r["reason"]
    assert r["nearest"] is None or r["nearest"]["move"] in {str(m) for m in legal}
    assert client.post(f"/api/sessions/{sid}/move", json={"move": str(bad)}).status_code == 422


def test_advice_is_served(client):
    sid = new_session(client)
    a = client.get(f"/api/sessions/{sid}/advice?seconds=0.1").json
    assert a["game"] == GAME
    assert isinstance(a["suggestions"], list) and isinstance(a["dangers"], list)


def test_sessions_survive_a_restart_and_export_import(tmp_path):
    data = str(tmp_path / "data")
    c1 = create_app({"DATA_DIR": data}).test_client()
    sid = new_session(c1, seed=9)
    state1 = c1.get(f"/api/sessions/{sid}").json["state"]
    c2 = create_app({"DATA_DIR": data}).test_client()   # a fresh process on the same data
    assert c2.get(f"/api/sessions/{sid}").json["state"] == state1
    exported = c2.get(f"/api/sessions/{sid}/export").json
    r = c2.post("/api/sessions/import", json=exported)
    assert r.status_code == 201 and r.json["state"] == state1
    assert any(s["id"] == r.json["session"]["id"] for s in c2.get("/api/sessions").json)


def test_corrections_are_kept_and_impossible_ones_refused(client):
    sid = new_session(client)
    state = client.get(f"/api/sessions/{sid}").json["state"]
    area = next(a for a, piles in state["areas"].items() if any(piles))
    pile = next(i for i, p in enumerate(state["areas"][area]) if p)
    r = client.post(f"/api/sessions/{sid}/correct", json={"area": area, "pile": pile, "index": 0, "card": "?"})
    assert r.status_code == 200 and r.json["state"]["areas"][area][pile][0] == "?"
    assert r.json["last"]["kind"] == "correction"
    # A third copy of a card in a two-pack game is impossible.
    st = r.json["state"]
    tokens = [t for piles in st["areas"].values() for p in piles for t in p if t not in ("?", "~")]
    target = tokens[0].lstrip("~").split(":")[0]
    r2 = client.post(f"/api/sessions/{sid}/correct", json={"area": area, "pile": pile, "index": 0, "card": target})
    if get_game(GAME).packs == 1:
        assert r2.status_code == 422
    else:
        # Put the same card twice more somewhere else: only two copies exist.
        others = [(a, i) for a, piles in st["areas"].items() for i, p in enumerate(piles) if p and (a, i) != (area, pile)]
        a2, i2 = others[0]
        r3 = client.post(f"/api/sessions/{sid}/correct", json={"area": a2, "pile": i2, "index": 0, "card": target})
        a3, i3 = others[1]
        r4 = client.post(f"/api/sessions/{sid}/correct", json={"area": a3, "pile": i3, "index": 0, "card": target})
        assert 422 in (r2.status_code, r3.status_code, r4.status_code)
        bad = next(x for x in (r2, r3, r4) if x.status_code == 422)
        assert "seen in a two-pack game" in bad.json["error"]


@pytest.mark.parametrize("payload, status, words", [
    ({"game": "chess"}, 400, "unknown game"),
    ("not json", 400, "JSON object"),
])
def test_bad_session_requests(client, payload, status, words):
    if isinstance(payload, str):
        r = client.post("/api/sessions", data=payload, content_type="text/plain")
    else:
        r = client.post("/api/sessions", json=payload)
    assert r.status_code == status and words in r.json["error"]


def test_malformed_states_are_refused(client):
    sid = new_session(client)
    for bad, words in [({"game": GAME}, "no 'areas'"), ({"game": GAME, "areas": {"nowhere": []}}, "has no area"),
                       ("[]", "JSON object"), ({"game": GAME, "areas": {}, "options": {"bogus": 1}}, "no option")]:
        r = client.put(f"/api/sessions/{sid}/state", json={"state": bad})
        assert r.status_code == 400, (bad, r.json)
        assert words in r.json["error"]


def test_unknown_session_and_unknown_route(client):
    assert client.get("/api/sessions/999").status_code == 404
    assert "error" in client.get("/api/nothing-here").json


@pytest.mark.parametrize("data, status, words", [
    (b"", 400, "empty"),
    (b"hello, I am text", 415, "not an image"),
    (jpeg_bytes()[:200], 422, "corrupt"),
])
def test_bad_uploads(client, data, status, words):
    sid = new_session(client)
    r = client.post(f"/api/sessions/{sid}/photo", data={"photo": (io.BytesIO(data), "x.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == status, r.json
    assert words in r.json["error"]


def test_oversized_upload_is_refused(tmp_path):
    c = create_app({"DATA_DIR": str(tmp_path), "MAX_CONTENT_LENGTH": 1000}).test_client()
    sid = new_session(c)
    r = c.post(f"/api/sessions/{sid}/photo", data={"photo": (io.BytesIO(b"x" * 5000), "big.jpg")},
               content_type="multipart/form-data")
    assert r.status_code == 413 and "too large" in r.json["error"]


def test_upload_name_never_reaches_the_file_system(client, app, tmp_path):
    sid = new_session(client)
    client.post(f"/api/sessions/{sid}/photo", data={"photo": (io.BytesIO(jpeg_bytes()), "../../../../etc/evil.jpg")},
                content_type="multipart/form-data")
    data_dir = app.extensions["patience_store"].data_dir
    for p in (data_dir / "photos").iterdir():
        assert p.name.startswith(f"{sid}-") and ".." not in p.name
    assert not (tmp_path / "etc").exists()


def test_pairing_token_is_required_on_the_lan(tmp_path):
    c = create_app({"DATA_DIR": str(tmp_path), "PAIRING_TOKEN": "s3cret"}).test_client()
    assert c.get("/api/games").status_code == 403
    assert c.get("/").status_code == 403
    assert c.get("/api/games?token=wrong").status_code == 403
    assert c.get("/api/games", headers={"X-Pairing-Token": "s3cret"}).status_code == 200
    r = c.get("/?token=s3cret")
    assert r.status_code == 200 and "pairing=s3cret" in r.headers.get("Set-Cookie", "")


def test_an_impossible_reading_is_shown_but_not_kept(client, monkeypatch):
    """A photo read into a state the rules refuse gets a 422 with what was seen (for the page to draw),
    and the session keeps its last good state: one bad photo never spoils a game."""
    import vision
    from vision.reading import Doubt, Reading

    sid = new_session(client)
    before = client.get(f"/api/sessions/{sid}").json["state"]
    game = get_game(GAME)
    bad = game.new(3)
    first = next(p for piles in bad.areas.values() for p in piles if p)
    first.extend(first[-1:] * 2)        # the same card three times over: impossible in any game
    sighting = type("S", (), {"label": "Qs", "box": (1.0, 2.0, 11.0, 22.0), "conf": 0.9})()
    monkeypatch.setattr(vision, "read_layout", lambda data, g, previous=None: Reading(
        bad, {}, [Doubt("column 1, card 3: index unclear", "column", 0, 2, "low-confidence")], [], [sighting], ""))
    r = client.post(f"/api/sessions/{sid}/photo", data={"photo": (io.BytesIO(jpeg_bytes()), "x.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 422
    assert "cannot be a" in r.json["error"] and game.validate(bad)[0] in r.json["error"]
    seen = r.json["reading"]
    assert seen["photo"] and seen["sightings"][0]["label"] == "Qs" and seen["doubts"][0]["index"] == 2
    assert client.get(f"/api/sessions/{sid}/photos/{seen['photo']}").status_code == 200
    view = client.get(f"/api/sessions/{sid}")
    assert view.status_code == 200 and view.json["state"] == before
    assert client.get(f"/api/sessions/{sid}/advice?seconds=0").status_code == 200
