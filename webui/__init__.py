"""The local web page (Flask application factory)."""
from __future__ import annotations

from flask import Flask


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=25 * 1024 * 1024)
    if config:
        app.config.update(config)
    from . import pages
    app.register_blueprint(pages.bp)
    return app
