"""The local web page: a Flask application factory with two blueprints (pages, api)."""
from __future__ import annotations

import hmac
from pathlib import Path

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from .store import Store, default_data_dir

MAX_UPLOAD_MB = 20


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_UPLOAD_MB * 1024 * 1024, DATA_DIR=None, PAIRING_TOKEN=None,
                      JSON_SORT_KEYS=False)
    if config:
        app.config.update(config)
    data_dir = Path(app.config["DATA_DIR"] or default_data_dir())
    app.extensions["patience_store"] = Store(data_dir)

    from . import api, pages
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)

    @app.before_request
    def _pairing():
        # On the local network only the phone that scanned the QR code (carrying the token) gets in.
        token = app.config.get("PAIRING_TOKEN")
        if not token:
            return None
        given = request.args.get("token") or request.headers.get("X-Pairing-Token") or request.cookies.get("pairing")
        if given and hmac.compare_digest(str(given), token):
            return None
        if request.path.startswith("/api/"):
            return jsonify(error="pairing token missing or wrong: scan the QR code shown by 'patience serve --lan'"), 403
        return ("<h1>Not paired</h1><p>Scan the QR code that <code>patience serve --lan</code> shows.</p>", 403)

    @app.after_request
    def _remember_pairing(resp):
        token = app.config.get("PAIRING_TOKEN")
        if token and request.args.get("token") == token:
            resp.set_cookie("pairing", token, httponly=True, secure=True, samesite="Strict")
        return resp

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException):
        if request.path.startswith("/api/"):
            msg = e.description
            if e.code == 413:
                msg = f"the upload is too large: the limit is {MAX_UPLOAD_MB} MB"
            return jsonify(error=msg), e.code
        return e

    @app.errorhandler(Exception)
    def _crash(e: Exception):
        app.logger.exception("unexpected error")
        if request.path.startswith("/api/"):
            return jsonify(error=f"internal error ({type(e).__name__}); this is a bug, please report it"), 500
        return ("<h1>Something went wrong</h1><p>This is a bug; please report it.</p>", 500)

    return app
