"""The web app: the JSON API under /api/v1 and the pages, over one Store."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app, jsonify, request
from htmx_flask import Htmx
from werkzeug.exceptions import HTTPException

from banker.store import Store, default_database_path

# templates/ and static/ sit at the top of the repository, beside the package (so the
# project is installed editable: `pip install -e .`).
ROOT = Path(__file__).resolve().parent.parent.parent

# Short codes for Flask's own HTTP errors when they happen under /api/.
_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    500: "internal_error",
}


def create_app(config: dict | None = None) -> Flask:
    """Build the app; `config` may set DATABASE (the SQLite file), TESTING and so on."""
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        DATABASE=str(default_database_path()),
        MAX_CONTENT_LENGTH=1024 * 1024,
    )
    if config:
        app.config.update(config)
    app.json.sort_keys = False
    Htmx(app)
    app.extensions["banker.store"] = Store(app.config["DATABASE"])

    from banker.web import api, display, pages, player, snapshots

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(player.bp)
    app.register_blueprint(snapshots.bp)
    app.register_blueprint(display.bp)
    app.register_error_handler(HTTPException, _http_error)
    from banker.web import limits
    from banker.web.fastpoll import IdlePolls

    limits.install(app)

    app.wsgi_app = IdlePolls(app.wsgi_app, app.extensions["banker.store"])
    return app


def get_store() -> Store:
    """The Store of the running app."""
    return current_app.extensions["banker.store"]


def error_response(status: int, code: str, message: str):
    """The contract's error body: {"error": {"code", "message"}} with that HTTP status."""
    return jsonify({"error": {"code": code, "message": message}}), status


def _http_error(e: HTTPException):
    """Flask's own errors (404, 405, 413, 500…) answer JSON under /api/, HTML elsewhere."""
    if not request.path.startswith("/api/"):
        return e
    code = _HTTP_CODES.get(e.code, (e.name or "error").lower().replace(" ", "_"))
    response, status = error_response(e.code or 500, code, e.description or e.name)
    if e.code == 405 and e.valid_methods:
        response.headers["Allow"] = ", ".join(e.valid_methods)
    return response, status
