"""The JSON API under /api/v1 (see API.md): thin views over the Store and the rules core."""

from __future__ import annotations

import json

from flask import Blueprint, current_app, jsonify, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from banker import snapshot
from banker.rules import DomainError, public_state
from banker.store import StoreError
from banker.web import error_response, get_store
from banker.web.openapi import openapi_document
from banker.web.player import claim_refusal, public_url_for

bp = Blueprint("api", __name__, url_prefix="/api/v1")

CREATE_FIELDS = {"edition", "players", "options"}
MAX_IDEMPOTENCY_KEY = 200
_ABSENT = object()


class ApiError(Exception):
    """A refusal decided by the API itself (bad body, missing or wrong token)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@bp.errorhandler(ApiError)
@bp.errorhandler(DomainError)  # BadCommand too: its status is 400
@bp.errorhandler(StoreError)
def _refused(e):
    response, status = error_response(e.status, e.code, e.message)
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response, status


def _json_body() -> dict:
    """The request body as a JSON object, else 400."""

    def no_constants(name):
        raise ValueError(f"{name} is not JSON")

    try:
        body = json.loads(request.get_data(), parse_constant=no_constants)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than Python parses
        raise ApiError(400, "malformed_json", "The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError(400, "not_an_object", "The request body must be a JSON object.")
    return body


def _caller(game_id: str) -> str:
    """Who sends this request: "banker" or a player id. 404, 401 or 403 otherwise."""
    store = get_store()
    store.state(game_id)  # an unknown game is 404 whatever the token
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(
            401,
            "token_missing",
            "This needs a token: send the header Authorization: Bearer <token>.",
        )
    role = store.role(game_id, token)
    if role is None:
        raise ApiError(403, "token_not_allowed", "This token does not belong to this game.")
    return role


def _links(game_id: str, banker_token: str, players: list[dict]) -> dict:
    """banker_url and each player's join_url: absolute, on PUBLIC_URL or the request's host."""
    return {
        "banker_url": public_url_for("pages.game", game_id=game_id, token=banker_token),
        "players": [
            {**p, "join_url": public_url_for("player.join", token=p["token"])} for p in players
        ],
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
        **_links(game_id, created["banker_token"], created["players"]),
        "state": public_state(created["state"]),
    }
    # The order of keys in the contract: game_id, banker_token, banker_url, players, state.
    answer = {k: answer[k] for k in ("game_id", "banker_token", "banker_url", "players", "state")}
    response = jsonify(answer)
    response.headers["Location"] = url_for("api.get_game", game_id=game_id, _external=True)
    return response, 201


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    """The game's current state; any of its tokens."""
    _caller(game_id)
    return jsonify(public_state(get_store().state(game_id)))


@bp.get("/games/<game_id>/events")
def get_events(game_id: str):
    """Every accepted event, oldest first; any of its tokens."""
    _caller(game_id)
    return jsonify(get_store().events(game_id))


@bp.post("/games/<game_id>/commands")
def post_command(game_id: str):
    """Apply one command: the banker may send any; a player only claim_rent for its own claim."""
    caller = _caller(game_id)
    command = _json_body()
    expected_version = command.pop("expected_version", _ABSENT)
    if expected_version is _ABSENT:
        expected_version = None
    elif (
        not isinstance(expected_version, int)
        or isinstance(expected_version, bool)
        or not 0 <= expected_version <= 10**12  # not 4,300 digits echoed back (issue 12)
    ):
        raise ApiError(400, "wrong_type", "'expected_version' must be a whole number.")
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY:
        raise ApiError(
            400,
            "bad_idempotency_key",
            f"The Idempotency-Key header must have 1 to {MAX_IDEMPOTENCY_KEY} characters.",
        )

    def authorize(state: dict) -> None:
        if caller != "banker" and not _owns_claim(state, caller, command):
            raise ApiError(
                403,
                "banker_only",
                "A player's token may only claim rent owed to that player; ask the Banker.",
            )

    answer = get_store().execute(
        game_id,
        command,
        idempotency_key=key,
        expected_version=expected_version,
        authorize=authorize,
    )
    response = current_app.response_class(answer.text, status=200, mimetype="application/json")
    if answer.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


def _owns_claim(state: dict, player_id: str, command: dict) -> bool:
    """Whether a player's token may send this command: claim_rent, unless another player owns
    that claim (a claim no longer open is the core's to refuse, with 422, as for the Banker)."""
    if command.get("type") != "claim_rent":
        return False
    return claim_refusal(public_state(state), player_id, command.get("claim")) is None


@bp.get("/games/<game_id>/snapshot")
def get_snapshot(game_id: str):
    """The game as a snapshot document (pause); the banker token only."""
    if _caller(game_id) != "banker":
        raise ApiError(
            403, "banker_only", "Only the Banker's token may take a snapshot of the game."
        )
    return jsonify(get_store().snapshot(game_id))


@bp.post("/games/import")
def import_game():
    """Resume a snapshot as a new game with fresh tokens; no token needed. 201 as create."""
    request.max_content_length = snapshot.MAX_BYTES  # refused before anything is parsed
    try:
        doc = _json_body()
    except RequestEntityTooLarge:
        raise ApiError(
            413, "snapshot_too_large", "A snapshot file may be at most 5 MB; this one is larger."
        ) from None
    return _created(get_store().import_snapshot(doc))


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI 3 description of this API."""
    return jsonify(openapi_document())
