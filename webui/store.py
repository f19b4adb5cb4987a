"""Game sessions kept in SQLite, in the user's data directory.

Nothing is ever overwritten: every change (a reading, a correction, a move)
appends a snapshot of the state; undo marks the newest snapshot undone
rather than deleting it. So a crash loses at most the request in flight,
and a session can always be exported whole.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    kind TEXT NOT NULL,          -- deal, reading, correction, move, edit, import
    detail TEXT NOT NULL,        -- JSON: what happened (move text, correction, doubts, changes)
    state TEXT NOT NULL,         -- JSON state after it happened
    undone INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS photos (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    filename TEXT NOT NULL,      -- inside the data directory's photos/ folder, chosen by us
    created REAL NOT NULL
);
"""


def default_data_dir() -> Path:
    base = os.environ.get("PATIENCE_DATA_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "patience-companion"


class Store:
    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        (self.data_dir / "photos").mkdir(exist_ok=True)
        self.path = self.data_dir / "sessions.sqlite3"
        with self._db() as db:
            db.executescript(SCHEMA)

    def _db(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        return db

    # -- sessions
    def create(self, game: str, title: str = "") -> int:
        now = time.time()
        with self._db() as db:
            cur = db.execute("INSERT INTO sessions (game, title, created, updated) VALUES (?,?,?,?)",
                             (game, title, now, now))
            return int(cur.lastrowid)

    def sessions(self) -> list[dict]:
        with self._db() as db:
            rows = db.execute("SELECT s.*, (SELECT COUNT(*) FROM snapshots WHERE session_id=s.id AND undone=0) AS steps "
                              "FROM sessions s ORDER BY updated DESC").fetchall()
        return [dict(r) for r in rows]

    def session(self, sid: int) -> dict | None:
        with self._db() as db:
            r = db.execute("SELECT * FROM sessions WHERE id=?", (sid,)).fetchone()
        return dict(r) if r else None

    # -- snapshots
    def append(self, sid: int, kind: str, detail: Any, state: dict) -> int:
        now = time.time()
        with self._db() as db:
            cur = db.execute("INSERT INTO snapshots (session_id, kind, detail, state, created) VALUES (?,?,?,?,?)",
                             (sid, kind, json.dumps(detail, ensure_ascii=False), json.dumps(state, ensure_ascii=False), now))
            db.execute("UPDATE sessions SET updated=? WHERE id=?", (now, sid))
            return int(cur.lastrowid)

    def history(self, sid: int, include_undone: bool = False) -> list[dict]:
        q = "SELECT * FROM snapshots WHERE session_id=?" + ("" if include_undone else " AND undone=0") + " ORDER BY id"
        with self._db() as db:
            rows = db.execute(q, (sid,)).fetchall()
        return [{"id": r["id"], "kind": r["kind"], "detail": json.loads(r["detail"]), "state": json.loads(r["state"]),
                 "undone": bool(r["undone"]), "created": r["created"]} for r in rows]

    def current(self, sid: int) -> dict | None:
        with self._db() as db:
            r = db.execute("SELECT * FROM snapshots WHERE session_id=? AND undone=0 ORDER BY id DESC LIMIT 1",
                           (sid,)).fetchone()
        return {"id": r["id"], "kind": r["kind"], "detail": json.loads(r["detail"]),
                "state": json.loads(r["state"])} if r else None

    def undo(self, sid: int) -> bool:
        """Undo the newest step, keeping at least the first snapshot."""
        with self._db() as db:
            rows = db.execute("SELECT id FROM snapshots WHERE session_id=? AND undone=0 ORDER BY id DESC LIMIT 2",
                              (sid,)).fetchall()
            if len(rows) < 2:
                return False
            db.execute("UPDATE snapshots SET undone=1 WHERE id=?", (rows[0]["id"],))
            db.execute("UPDATE sessions SET updated=? WHERE id=?", (time.time(), sid))
            return True

    # -- photos
    def save_photo(self, sid: int, data: bytes, suffix: str) -> int:
        with self._db() as db:
            cur = db.execute("INSERT INTO photos (session_id, filename, created) VALUES (?,?,?)", (sid, "", time.time()))
            pid = int(cur.lastrowid)
            # The file name is ours alone: nothing from the upload reaches the path.
            name = f"{sid}-{pid}{suffix if suffix in ('.jpg', '.png', '.webp') else '.jpg'}"
            (self.data_dir / "photos" / name).write_bytes(data)
            db.execute("UPDATE photos SET filename=? WHERE id=?", (name, pid))
            return pid

    def photo_path(self, sid: int, pid: int) -> Path | None:
        with self._db() as db:
            r = db.execute("SELECT filename FROM photos WHERE id=? AND session_id=?", (pid, sid)).fetchone()
        if not r or not r["filename"]:
            return None
        p = (self.data_dir / "photos" / r["filename"]).resolve()
        return p if p.parent == (self.data_dir / "photos").resolve() and p.exists() else None

    # -- export / import
    def export(self, sid: int) -> dict:
        s = self.session(sid)
        return {"format": "patience-companion-session", "version": 1, "game": s["game"], "title": s["title"],
                "created": s["created"], "history": self.history(sid, include_undone=True)}

    def import_(self, data: dict) -> int:
        sid = self.create(data["game"], data.get("title", "imported"))
        with self._db() as db:
            for h in data["history"]:
                db.execute("INSERT INTO snapshots (session_id, kind, detail, state, undone, created) VALUES (?,?,?,?,?,?)",
                           (sid, h["kind"], json.dumps(h.get("detail")), json.dumps(h["state"]),
                            int(bool(h.get("undone"))), float(h.get("created") or time.time())))
        return sid
