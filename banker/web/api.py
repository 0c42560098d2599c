"""The JSON API under /api/v1 (see API.md): thin views over the Store and the rules core."""

from __future__ import annotations

import json

from flask import Blueprint, current_app, jsonify, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from banker import snapshot
from banker.rules import Refusal, player_refusal, public_state, view_for
from banker.store import Answer, key_scope
from banker.web import error_response, get_store
from banker.web.openapi import openapi_document
from banker.web.player import public_url_for
from banker.web.seats import REPLACED, bearer_seat, bearer_token

bp = Blueprint("api", __name__, url_prefix="/api/v1")

CREATE_FIELDS = {"edition", "players", "options"}
MAX_IDEMPOTENCY_KEY = 200
_ABSENT = object()


class ApiError(Refusal):
    """A refusal decided by the API itself (bad body, missing or wrong token)."""

    def __init__(self, status: int, code: str, message: str, replayable: bool = False):
        super().__init__(message, code, status)
        # A player's command no longer theirs to send (say, a Buy since bought) that this
        # token sent with this Idempotency-Key before: Store.execute answers its replay.
        self.replayable = replayable


@bp.errorhandler(Refusal)  # the core's, the store's, the snapshot's and the API's own
def _refused(e):
    response, status = error_response(e.status, e.code, e.message)
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response, status


DISPLAY_READ_ONLY = "The display's token may only read the game; it cannot send anything."


def _json_body() -> dict:
    """The request body as a JSON object: 415 unless sent as application/json, else 400."""
    if request.mimetype != "application/json":  # parameters (charset=…) are allowed
        raise ApiError(
            415,
            "unsupported_media_type",
            "Send the body as JSON with the header Content-Type: application/json.",
        )
    return json_object(request.get_data())


def _no_constants(name):
    raise ValueError(f"{name} is not JSON")


def json_object(data: bytes) -> dict:
    """A request body read as a JSON object, else ApiError 400."""
    try:
        body = json.loads(data, parse_constant=_no_constants)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than Python parses
        raise ApiError(400, "malformed_json", "The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError(400, "not_an_object", "The request body must be a JSON object.")
    return body


def _banker_only(game_id: str, what: str) -> None:
    """403 banker_only unless the request carries the banker token."""
    if bearer_seat(game_id) != "banker":
        raise ApiError(403, "banker_only", f"Only the Banker's token may {what}.")


def _url_for_seat(game_id: str, seat: str, token: str) -> str:
    """The link that opens a seat's page: banker_url, display_url or a player's join_url."""
    if seat == "banker":
        return public_url_for("pages.game", game_id=game_id, token=token)
    if seat == "display":
        return public_url_for("display.show", token=token)
    return public_url_for("player.join", token=token)


def _links(game_id: str, banker_token: str, display_token: str, players: list[dict]) -> dict:
    """banker_url, display_url and each player's join_url: absolute, on PUBLIC_URL or the
    request's host."""
    return {
        "banker_url": _url_for_seat(game_id, "banker", banker_token),
        "display_url": _url_for_seat(game_id, "display", display_token),
        "players": [
            {**p, "join_url": public_url_for("player.join", token=p["token"])} for p in players
        ],
    }


@bp.app_template_global()
def phones_following(game_id: str) -> set[str]:
    """The players whose phone follows the game now: their page holds a push stream
    (banker.net.push), or polled in the last seconds."""
    hub = current_app.extensions.get("banker.push")
    found = get_store().following(game_id)
    return found | hub.following(game_id) if hub is not None else found


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
    # The order of keys in the contract.
    order = ("game_id", "banker_token", "banker_url", "display_url", "players", "state")
    answer = {k: answer[k] for k in order}
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
    """Every accepted event, oldest first; any of its tokens."""
    bearer_seat(game_id)
    return jsonify(get_store().events(game_id))


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


def run_command(store, game_id: str, token: str, caller: str, command: dict, key) -> Answer:
    """Run one command sent with `token` (whose role in the game is `caller`) and its
    Idempotency-Key `key`; the store's answer. Refusals raise, and then nothing changed.
    Also called before Flask, for a command whose request is plainly well-formed
    (banker.web.fastpoll)."""
    expected_version = command.pop("expected_version", _ABSENT)
    if expected_version is _ABSENT:
        expected_version = None
    elif (
        not isinstance(expected_version, int)
        or isinstance(expected_version, bool)
        or not 0 <= expected_version <= 10**12  # not 4,300 digits echoed back (issue 12)
    ):
        raise ApiError(400, "wrong_type", "'expected_version' must be a whole number.")
    if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY:
        raise ApiError(
            400,
            "bad_idempotency_key",
            f"The Idempotency-Key header must have 1 to {MAX_IDEMPOTENCY_KEY} characters.",
        )

    def authorize(state: dict) -> None:
        # Under the game's lock, before the key is looked at: a token replaced meanwhile, the
        # display, or a command this player may not send is refused, never replayed.
        if store.role(game_id, token) != caller:
            raise ApiError(403, "token_replaced", REPLACED.format(seat=caller))
        if caller == "display":
            raise ApiError(403, "banker_only", DISPLAY_READ_ONLY)
        if caller != "banker":
            refusal = player_refusal(state, caller, command)
            if refusal:
                raise ApiError(403, "banker_only", refusal, replayable=True)

    return store.execute(
        game_id,
        command,
        idempotency_key=key,
        expected_version=expected_version,
        authorize=authorize,
        key_scope=key_scope(token),
    )


def answer_text(answer: Answer, caller: str) -> str:
    """The JSON text of a command's answer as `caller` may see it (private_cash)."""
    if caller != "banker" and answer.body["state"]["options"].get("private_cash"):
        body = {**answer.body, "state": view_for(answer.body["state"], caller)}
        return json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return answer.text


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
    answer = {"for": seat, "token": token, "url": _url_for_seat(game_id, seat, token)}
    return jsonify(answer), 201


@bp.get("/games/<game_id>/snapshot")
def get_snapshot(game_id: str):
    """The game as a snapshot document (pause); the banker token only."""
    _banker_only(game_id, "take a snapshot of the game")
    return jsonify(get_store().snapshot(game_id))


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
