"""Pages: the game catalogue (the full camera-to-advice flow comes with the web-page issue)."""
from __future__ import annotations

from flask import Blueprint, render_template

from advisor.catalogue import entry
from advisor.engine import games

bp = Blueprint("pages", __name__)


def _catalogue() -> list[dict]:
    out = []
    for gid, g in sorted(games().items()):
        try:
            summary = entry(gid).get("summary", "")
        except KeyError:
            summary = ""
        out.append({"id": gid, "name": g.name, "source": g.source, "summary": summary})
    return out


@bp.get("/")
def index():
    return render_template("index.html", games=_catalogue())
