"""The page itself: one HTML shell; the flow runs in static/app.js against /api."""
from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("app.html")
