"""The JSON API under /api/v1 (see docs/api.md): thin views over the Store and the rules core.

A command runs through `common.commands` (the one command path); every refusal, whoever
decided it, is answered by this blueprint's one error handler as {"error": {"code", "message"}}.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from banker import snapshot
from banker.rules import Refusal, public_state, view_for
from banker.web.api.openapi import openapi_document
from banker.web.common import per_version
from banker.web.common.commands import answer_text, json_object, run_command
from banker.web.common.errors import ApiError, error_response, no_game
from banker.web.common.links import seat_url
from banker.web.common.seats import bearer_seat, bearer_token
from banker.web.common.store import get_store

bp = Blueprint("api", __name__, url_prefix="/api/v1")

CREATE_FIELDS = {"edition", "players", "options"}


@bp.errorhandler(Refusal)  # the core's, the store's, the snapshot's and the API's own
def _refused(e):
    message = e.message
    if e.code == "game_not_found" and "game_id" in (request.view_args or {}):
        message = no_game(request.view_args["game_id"])  # perhaps on another process
    response, status = error_response(e.status, e.code, message)
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response, status


def _json_body() -> dict:
    """The request body as a JSON object: 415 unless sent as application/json, else 400."""
    if request.mimetype != "application/json":  # parameters (charset=…) are allowed
        raise ApiError(
            415,
            "unsupported_media_type",
            "Send the body as JSON with the header Content-Type: application/json.",
        )
    return json_object(request.get_data())


def _banker_only(game_id: str, what: str) -> None:
    """403 banker_only unless the request carries the banker token."""
    if bearer_seat(game_id) != "banker":
        raise ApiError(403, "banker_only", f"Only the Banker's token may {what}.")


def _links(game_id: str, banker_token: str, display_token: str, players: list[dict]) -> dict:
    """banker_url, display_url and each player's join_url: absolute, on PUBLIC_URL or the
    request's host."""
    return {
        "banker_url": seat_url(game_id, "banker", banker_token),
        "display_url": seat_url(game_id, "display", display_token),
        "players": [{**p, "join_url": seat_url(game_id, p["id"], p["token"])} for p in players],
    }


@bp.post("/games")
def create_game():
    """Create a game; no token needed. 201 with the tokens, the URLs and the state."""
    body = _json_body()
    unknown = sorted(set(body) - CREATE_FIELDS)
    if unknown:
        raise ApiError(400, "unknown_field", f"Unknown field {unknown[0]!r} in the new game.")
    if "players" not in body:
        raise ApiError(400, "missing_field", "The new game needs the field 'players'.")
    created = get_store().create_game(
        body.get("edition", "g0009"), body["players"], body.get("options")
    )
    return _created(created)


def _created(created: dict):
    """201 with a new game's id, tokens, URLs and state (a created or an imported game)."""
    game_id = created["game_id"]
    answer = {
        "game_id": game_id,
        "banker_token": created["banker_token"],
        **_links(game_id, created["banker_token"], created["display_token"], created["players"]),
        "state": public_state(created["state"]),
    }
    # The order of keys in the contract; an import also says how it resumed.
    order = ("game_id", "banker_token", "banker_url", "display_url", "players", "state")
    answer = {k: answer[k] for k in order}
    if "events" in created:
        answer["events"] = created["events"]
    response = jsonify(answer)
    response.headers["Location"] = url_for("api.get_game", game_id=game_id, _external=True)
    return response, 201


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    """The game's current state as this token may see it (private_cash); any of its tokens."""
    caller = bearer_seat(game_id)
    return jsonify(view_for(get_store().state(game_id), caller))


@bp.get("/games/<game_id>/events")
def get_events(game_id: str):
    """Every accepted event, oldest first, as this token is told them (private_cash); any of
    its tokens."""
    caller = bearer_seat(game_id)
    version = get_store().version(game_id)

    def told() -> bytes:
        return jsonify(get_store().events(game_id, caller)).get_data()

    body = per_version.kept("events", game_id, version, told, caller)
    return _kept_json(body, per_version.etag("events", game_id, version, caller))


@bp.post("/games/<game_id>/commands")
def post_command(game_id: str):
    """Apply one command: the banker may send any; a player those of "Who may send it" for
    itself (player_refusal); the display none. Idempotency-Keys are the token's own."""
    caller = bearer_seat(game_id)
    token = bearer_token()  # bearer_seat found it
    command = _json_body()
    key = request.headers.get("Idempotency-Key")
    answer = run_command(get_store(), game_id, token, caller, command, key)
    response = current_app.response_class(
        answer_text(answer, caller), status=200, mimetype="application/json"
    )
    if answer.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.post("/games/<game_id>/tokens")
def new_token(game_id: str):
    """A new link for a seat (banker token only); the seat's old token stops working at once."""
    _banker_only(game_id, "make new links")
    body = _json_body()
    unknown = sorted(set(body) - {"for"})
    if unknown:
        raise ApiError(400, "unknown_field", f"Unknown field {unknown[0]!r} in a new link.")
    seat = body.get("for")
    if seat is None:
        raise ApiError(400, "missing_field", "A new link needs the field 'for'.")
    if not isinstance(seat, str):
        raise ApiError(400, "wrong_type", '\'for\' must be "banker", "display" or a player id.')
    token = get_store().new_token(game_id, seat)
    answer = {"for": seat, "token": token, "url": seat_url(game_id, seat, token)}
    return jsonify(answer), 201


@bp.get("/games/<game_id>/snapshot")
def get_snapshot(game_id: str):
    """The game as a snapshot document (pause); the banker token only."""
    _banker_only(game_id, "take a snapshot of the game")
    version = get_store().version(game_id)
    body = per_version.snapshot_file(game_id, version)
    return _kept_json(body, per_version.etag("snapshot", game_id, version))


def _kept_json(body: bytes, etag: str):
    """A JSON answer made once per game version (banker.web.common.per_version)."""
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(etag.strip('"'))
    return response


@bp.post("/games/import")
def import_game():
    """Resume a snapshot as a new game with fresh tokens; no token needed. 201 as create."""
    request.max_content_length = snapshot.MAX_BYTES  # refused before anything is parsed
    try:
        snapshot.precheck(request.get_data())  # a log longer than any game: before parsing
        doc = _json_body()
    except snapshot.SnapshotError as e:
        raise ApiError(e.status, e.code, e.message) from None
    except RequestEntityTooLarge:
        raise ApiError(
            413, "snapshot_too_large", "A snapshot file may be at most 5 MB; this one is larger."
        ) from None
    return _created(get_store().import_snapshot(doc))


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI 3 description of this API."""
    return jsonify(openapi_document())
