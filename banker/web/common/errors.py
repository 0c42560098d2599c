"""The answers of a refusal: the JSON API's error body, and Flask's own errors and a full disk
answered as JSON under /api/ and as the one error page (`guards.error_page`) elsewhere."""

from __future__ import annotations

import sqlite3

from flask import current_app, jsonify, request
from htmx_flask import make_response as htmx_response
from werkzeug.exceptions import HTTPException

from banker.control import where_is
from banker.rules import Refusal
from banker.store import DiskFull
from banker.web.common.guards import DATABASE_UNAVAILABLE, error_page, http_error_page

# Short codes for Flask's own HTTP errors when they happen under /api/.
_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    500: "internal_error",
}


class ApiError(Refusal):
    """A refusal decided by the web layer itself (bad body, missing or wrong token)."""

    def __init__(self, status: int, code: str, message: str, replayable: bool = False):
        super().__init__(message, code, status)
        # A player's command no longer theirs to send (say, a Buy since bought) that this
        # token sent with this Idempotency-Key before: Store.execute answers its replay.
        self.replayable = replayable


def error_response(status: int, code: str, message: str):
    """The contract's error body: {"error": {"code", "message"}} with that HTTP status."""
    return jsonify({"error": {"code": code, "message": message}}), status


def no_game(game_id: str) -> str:
    """The sentence of a game this server does not hold: it may be on another process of the
    same installation (docs/scaling.md), whose address is then named when one of them, serving
    a database in the same folder, says it holds it (banker.control.where_is)."""
    here = current_app.config.get("PUBLIC_URL") or request.host_url.rstrip("/")
    sentence = f"There is no game {game_id!r} on this server ({here})."
    database = current_app.config.get("DATABASE", "")
    if len(game_id) <= 32 and game_id.isalnum() and database not in ("", ":memory:"):
        elsewhere = where_is(database, game_id)
        if elsewhere:
            sentence += (
                f" It is on the server at {elsewhere}: use that address (its links carry it)."
            )
    return sentence


def _http_error(e: HTTPException):
    """Flask's own errors (404, 405, 413, 500…) answer JSON under /api/, the error page
    elsewhere."""
    if not request.path.startswith("/api/"):
        return http_error_page(e)
    code = _HTTP_CODES.get(e.code, (e.name or "error").lower().replace(" ", "_"))
    response, status = error_response(e.code or 500, code, e.description or e.name)
    if e.code == 405 and e.valid_methods:
        response.headers["Allow"] = ", ".join(e.valid_methods)
    return response, status


def _disk_full(e: DiskFull):
    """Nothing was recorded: the API's 507 disk_full, or the same sentence on a page."""
    if request.path.startswith("/api/"):
        return error_response(e.status, e.code, e.message)
    return error_page(e.status, e.message)


def _database_error(e: sqlite3.Error):
    """The database failed (damaged, locked too long, made read-only…): 503, logged with its
    cause for the host; never a bare 500."""
    current_app.logger.error(
        "The database failed on %s %s: %s", request.method, request.path, e, exc_info=e
    )
    if request.path.startswith("/api/"):
        response, status = error_response(503, "database_unavailable", DATABASE_UNAVAILABLE)
    else:
        response, status = error_page(503, DATABASE_UNAVAILABLE)
    return response, status, {"Retry-After": "5"}


def install(app) -> None:
    """Register the handlers above on the app."""
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(DiskFull, _disk_full)
    app.register_error_handler(sqlite3.Error, _database_error)


def link_error_page(status: int, sentence: str, refresh: bool = False):
    """The page of a link that does not work (a player's link, a link's code): the one error
    page, headed "Banker", without the way home. `refresh`: a page still polling with the link
    reloads itself to show it."""
    html, status = error_page(
        status, sentence, heading="Banker", title="Banker: this link does not work", home=False
    )
    return htmx_response(html, status, refresh=refresh)
