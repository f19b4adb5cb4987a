"""The JSON API under /api: everything the page does.

Errors are JSON ``{"error": "..."}`` with a 4xx status naming the problem.
"""
from __future__ import annotations

import io
import json
import time

from flask import Blueprint, current_app, jsonify, request, send_file

from advisor.advice import advise, nearest_legal
from advisor.catalogue import entry
from advisor.engine import PatienceError, State, a_or_an, games, get_game

bp = Blueprint("api", __name__, url_prefix="/api")

IMAGE_SUFFIX = {"JPEG": ".jpg", "PNG": ".png", "WEBP": ".webp", "MPO": ".jpg", "BMP": ".png", "GIF": ".png", "TIFF": ".png"}


class ApiError(Exception):
    def __init__(self, message: str, status: int = 400, **extra):
        super().__init__(message)
        self.status = status
        self.extra = extra     # more for the page to show (e.g. what a refused photo reading saw)


@bp.errorhandler(ApiError)
def _api_error(e: ApiError):
    return jsonify(error=str(e), **e.extra), e.status


@bp.errorhandler(PatienceError)
def _patience_error(e: PatienceError):
    return jsonify(error=str(e)), 400


def store():
    return current_app.extensions["patience_store"]


def _body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object")
    return data


def _session(sid: int) -> dict:
    s = store().session(sid)
    if s is None:
        raise ApiError(f"no session {sid}", 404)
    return s


def _current_state(sid: int) -> State:
    cur = store().current(sid)
    if cur is None:
        raise ApiError("this session has no layout yet: send a photo or deal one", 409)
    return State.from_json(cur["state"])


def _history(sid: int) -> list:
    """(state, move) pairs of the moves made in this session, for the advisor."""
    out = []
    snaps = store().history(sid)
    for before, after in zip(snaps, snaps[1:]):
        if after["kind"] == "move":
            s = State.from_json(before["state"])
            out.append((s, get_game(s.game).parse_move(s, after["detail"]["move"])))
    return out


def _game_card(gid: str) -> dict:
    g = get_game(gid)
    try:
        e = entry(gid)
    except KeyError:
        e = {}
    return {**g.info(), "summary": e.get("summary", ""), "rules": e.get("rules", []),
            "layout": g.layout(g.check_options({})).to_json()}


# ------------------------------------------------------------------ games

@bp.get("/games")
def list_games():
    return jsonify([_game_card(gid) for gid in sorted(games())])


@bp.get("/games/<gid>")
def one_game(gid):
    return jsonify(_game_card(gid))


# --------------------------------------------------------------- sessions

def _session_view(sid: int) -> dict:
    s = _session(sid)
    cur = store().current(sid)
    state = cur["state"] if cur else None
    layout = None
    if state is not None:
        g = get_game(state["game"])
        layout = g.layout(g.check_options(state.get("options"))).to_json()
    else:
        g = get_game(s["game"])
        layout = g.layout(g.check_options({})).to_json()
    status = get_game(s["game"]).status(State.from_json(state)) if state else None
    return {"session": s, "state": state, "layout": layout, "status": status,
            "last": {k: cur[k] for k in ("kind", "detail")} if cur else None,
            "steps": [{"id": h["id"], "kind": h["kind"], "detail": h["detail"]} for h in store().history(sid)]}


@bp.get("/sessions")
def list_sessions():
    return jsonify(store().sessions())


@bp.post("/sessions")
def new_session():
    data = _body()
    game = get_game(data.get("game"))
    sid = store().create(game.id, str(data.get("title") or game.name)[:200])
    if data.get("seed") is not None:
        try:
            seed = int(data["seed"])
        except (TypeError, ValueError):
            raise ApiError("seed must be a whole number") from None
        state = game.new(seed, data.get("options"))
        store().append(sid, "deal", {"seed": seed}, state.to_json())
    return jsonify(_session_view(sid)), 201


@bp.get("/sessions/<int:sid>")
def get_session(sid):
    return jsonify(_session_view(sid))


@bp.put("/sessions/<int:sid>/state")
def put_state(sid):
    s = _session(sid)
    data = _body()
    state = State.from_json(data.get("state"))
    if state.game != s["game"]:
        raise ApiError(f"this session plays {s['game']}, not {state.game}")
    store().append(sid, "edit", {"note": str(data.get("note", ""))[:500]}, state.to_json())
    return jsonify(_session_view(sid))


@bp.post("/sessions/<int:sid>/undo")
def undo(sid):
    _session(sid)
    if not store().undo(sid):
        raise ApiError("nothing to undo", 409)
    return jsonify(_session_view(sid))


@bp.get("/sessions/<int:sid>/export")
def export(sid):
    _session(sid)
    return jsonify(store().export(sid))


@bp.post("/sessions/import")
def import_session():
    data = request.get_json(silent=True)
    if data is None and "file" in request.files:
        try:
            data = json.loads(request.files["file"].read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ApiError("the file is not a JSON session export") from None
    if not isinstance(data, dict) or data.get("format") != "patience-companion-session":
        raise ApiError("not a Patience Companion session export (format field missing or wrong)")
    get_game(data.get("game"))
    hist = data.get("history")
    if not isinstance(hist, list) or not hist:
        raise ApiError("the export has no history")
    for k, h in enumerate(hist):
        if not isinstance(h, dict) or "state" not in h or "kind" not in h:
            raise ApiError(f"history entry {k + 1} needs 'kind' and 'state'")
        st = State.from_json(h["state"])
        if st.game != data["game"]:
            raise ApiError(f"history entry {k + 1} is a {st.game} state in a {data['game']} session")
    sid = store().import_(data)
    return jsonify(_session_view(sid)), 201


# ------------------------------------------------------------------ moves

def _move_from_body(state: State):
    data = _body()
    text = data.get("move")
    if not isinstance(text, str):
        raise ApiError("give the move as text, e.g. {\"move\": \"column3>pile5\"}")
    return get_game(state.game).parse_move(state, text)


@bp.post("/sessions/<int:sid>/check")
def check(sid):
    state = _current_state(sid)
    game = get_game(state.game)
    move = _move_from_body(state)
    reason = game.why_illegal(state, move)
    if reason is None:
        return jsonify(legal=True, move=str(move), says=game.describe(state, move))
    alt = nearest_legal(state, move)
    return jsonify(legal=False, move=str(move), reason=reason,
                   nearest=({"move": str(alt), "says": game.describe(state, alt)} if alt else None))


@bp.post("/sessions/<int:sid>/move")
def make_move(sid):
    state = _current_state(sid)
    game = get_game(state.game)
    move = _move_from_body(state)
    reason = game.why_illegal(state, move)
    if reason is not None:
        raise ApiError(f"illegal: {reason}", 422)
    says = game.describe(state, move)
    game.apply(state, move)
    store().append(sid, "move", {"move": str(move), "says": says}, state.to_json())
    return jsonify(_session_view(sid))


@bp.get("/sessions/<int:sid>/advice")
def advice(sid):
    from advisor.search import Budget
    state = _current_state(sid)
    seconds = min(max(request.args.get("seconds", default=0.6, type=float), 0.0), 5.0)
    a = advise(state, _history(sid), search=seconds > 0, budget=Budget(seconds=seconds))
    return jsonify(a.to_json())


# ------------------------------------------------------------- corrections

@bp.post("/sessions/<int:sid>/correct")
def correct(sid):
    """Set one card of the current state, e.g. after the reader doubted it."""
    from advisor.engine import Slot
    state = _current_state(sid)
    data = _body()
    try:
        area, pile, index = str(data["area"]), int(data["pile"]), int(data["index"])
    except (KeyError, TypeError, ValueError):
        raise ApiError("a correction needs area, pile and index (numbers from 0) and card") from None
    if area not in state.areas or not 0 <= pile < len(state.areas[area]) or not 0 <= index < len(state.areas[area][pile]):
        raise ApiError(f"there is no card at {area} {pile + 1}, position {index + 1}")
    old = state.areas[area][pile][index]
    new = Slot.parse(str(data.get("card", "")))
    state.areas[area][pile][index] = new
    problems = get_game(state.game).validate(state)
    if problems:
        raise ApiError("that correction makes the layout impossible: " + "; ".join(problems), 422)
    store().append(sid, "correction", {"area": area, "pile": pile, "index": index, "was": old.token(), "now": new.token()},
                   state.to_json())
    return jsonify(_session_view(sid))


# ------------------------------------------------------------------ photos

def _read_image(upload) -> tuple[bytes, str]:
    """The upload's bytes if it is a real, decodable image; else a clear 4xx."""
    from PIL import Image, UnidentifiedImageError
    data = upload.read(current_app.config["MAX_CONTENT_LENGTH"] + 1)
    if not data:
        raise ApiError("the upload is empty")
    try:
        with Image.open(io.BytesIO(data)) as im:
            fmt = im.format
            im.load()
    except (UnidentifiedImageError, ImportError):
        # ImportError: ultralytics, when loaded in the same process, patches Image.open to try HEIF
        # through a package we do not ship; either way the upload is not an image we can read.
        raise ApiError("that file is not an image (JPEG, PNG or WebP expected)", 415) from None
    except (OSError, ValueError, SyntaxError) as e:
        raise ApiError(f"the image is corrupt or truncated ({e})", 422) from None
    return data, IMAGE_SUFFIX.get(fmt or "", ".jpg")


@bp.post("/sessions/<int:sid>/photo")
def photo(sid):
    s = _session(sid)
    if "photo" not in request.files:
        raise ApiError("send the photo as a multipart form field named 'photo'")
    data, suffix = _read_image(request.files["photo"])
    keep = request.form.get("keep", "1") != "0"
    try:
        import vision
        read_layout = vision.read_layout
    except (ImportError, AttributeError):
        raise ApiError("reading a layout from a photo is not available in this installation", 501) from None
    cur = store().current(sid)
    previous = State.from_json(cur["state"]) if cur else None
    t0 = time.perf_counter()
    reading = read_layout(data, s["game"], previous=previous)
    elapsed = time.perf_counter() - t0
    rj = reading.to_json() if hasattr(reading, "to_json") else reading
    pid = store().save_photo(sid, data, suffix) if keep else None
    seen = {**rj, "state": None, "photo": pid, "seconds": round(elapsed, 3)}
    if rj.get("state") is None:
        raise ApiError(rj.get("message") or "no layout of this game was found in the photo", 422, reading=seen)
    # A reading the rules cannot hold is shown, not kept: the session's last good state stays current.
    problems = get_game(s["game"]).validate(State.from_json(rj["state"], check=False))
    if problems:
        raise ApiError(f"what the photo shows cannot be {a_or_an(get_game(s['game']).name)} layout as read ("
                       + "; ".join(problems[:3]) + "). The doubts say which cards to check; take another photo "
                       "with every card index in view, or deal a practice layout to correct by hand.", 422,
                       reading=seen)
    store().append(sid, "reading", {"photo": pid, "doubts": rj.get("doubts", []), "changes": rj.get("changes", []),
                                    "seconds": round(elapsed, 3)}, rj["state"])
    view = _session_view(sid)
    view["reading"] = {**rj, "photo": pid, "seconds": round(elapsed, 3)}
    return jsonify(view)


@bp.get("/sessions/<int:sid>/photos/<int:pid>")
def get_photo(sid, pid):
    path = store().photo_path(sid, pid)
    if path is None:
        raise ApiError("no such photo", 404)
    return send_file(path)


@bp.get("/sessions/<int:sid>/moves")
def legal_moves(sid):
    state = _current_state(sid)
    game = get_game(state.game)
    return jsonify([{"move": str(m), "says": game.describe(state, m)} for m in game.legal_moves(state)])
