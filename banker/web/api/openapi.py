"""The OpenAPI 3 document of the JSON API, served at GET /api/v1/openapi.json.

Each command's schema is the core's own (`banker.rules.schema`, which also checks commands),
and property and card ids come from the board data the core uses, so the document and the rules
cannot disagree about them.
"""

from __future__ import annotations

import functools

import banker
from banker.web.api.openapi_schemas import ref as _ref
from banker.web.api.openapi_schemas import schemas


def _error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}


def _ok(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _op(op_id: str, summary: str, responses: dict, body: str = "", public: bool = False, **more):
    """One operation: a JSON request body of schema `body` if any, no token when `public`,
    `more` (say, parameters) before the body."""
    op = {"operationId": op_id, "summary": summary, **({"security": []} if public else {})}
    op.update(more)
    if body:
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _ref(body)}},
        }
    return {**op, "responses": responses}


MEDIA_ERROR = {"415": _error("The body was not sent as Content-Type: application/json.")}
# What a stranger may cost: limits on making games, with Retry-After for 429 and 503.
NEW_GAME_LIMITS = {
    "429": _error("This address made too many games in the last minute (see Retry-After)."),
    "503": _error("The server holds its ceiling of games, or is resuming another snapshot."),
    "507": _error("The database has reached its ceiling of size."),
}
AUTH_ERRORS = {
    "401": _error("No token was sent."),
    "403": _error("The token is not one of this game's, or may not do this."),
    "404": _error("There is no such game."),
}


def _param(name: str, where: str, schema: dict, description: str, required: bool) -> dict:
    return {
        "name": name,
        "in": where,
        "required": required,
        "schema": schema,
        "description": description,
    }


GAME_ID = _param(
    "game_id", "path", {"type": "string"}, "The game's id, from its creation.", required=True
)
IDEMPOTENCY_KEY = _param(
    "Idempotency-Key",
    "header",
    {"type": "string", "minLength": 1, "maxLength": 200},
    "Repeating a key returns the first accepted answer and applies nothing again (scoped to "
    "the game and the token; looked at only once the token may send the command).",
    required=False,
)


def _play_paths() -> dict:
    """Creating a game and reading it."""
    return {
        "/api/v1/games": {
            "post": _op(
                "createGame",
                "Create a game (no token needed).",
                {
                    "201": _ok("The game, its tokens and its URLs.", _ref("CreatedGame")),
                    "400": _error("The body is malformed."),
                    "413": _error("The body is too large."),
                    **MEDIA_ERROR,
                    "422": _error("The rules forbid this game."),
                    **NEW_GAME_LIMITS,
                },
                body="NewGame",
                public=True,
            )
        },
        "/api/v1/games/{game_id}": {
            "parameters": [GAME_ID],
            "get": _op(
                "getGame",
                "The game's current state.",
                {"200": _ok("The state.", _ref("State")), **AUTH_ERRORS},
            ),
        },
    }


def _command_paths() -> dict:
    """A game's events and commands, and new links for its seats."""
    return {
        "/api/v1/games/{game_id}/events": {
            "parameters": [GAME_ID],
            "get": _op(
                "getEvents",
                "Every accepted event, oldest first.",
                {
                    "200": _ok("The events.", {"type": "array", "items": _ref("Event")}),
                    **AUTH_ERRORS,
                },
            ),
        },
        "/api/v1/games/{game_id}/commands": {
            "parameters": [GAME_ID],
            "post": _op(
                "postCommand",
                "Apply one command. A player's token may send only the commands "
                "of docs/api.md's 'Who may send it' for its own player (else 403 banker_only); "
                "the display's token none.",
                {
                    "200": _ok("The new version, its events and state.", _ref("CommandAnswer")),
                    "400": _error("The command is malformed."),
                    **AUTH_ERRORS,
                    "409": _error("expected_version is not the game's version."),
                    "413": _error("The body is too large."),
                    **MEDIA_ERROR,
                    "422": _error("The rules forbid this command now."),
                    "429": _error(
                        "This token sends commands faster than a table plays (see Retry-After)."
                    ),
                    "507": _error("The server's disk is full: nothing was recorded."),
                },
                body="Command",
                parameters=[IDEMPOTENCY_KEY],
            ),
        },
        "/api/v1/games/{game_id}/tokens": {
            "parameters": [GAME_ID],
            "post": _op(
                "newToken",
                "A new link for a seat (the banker token only): the seat's old "
                "token stops working at once, everywhere.",
                {
                    "201": _ok("The seat's new token and link.", _ref("NewLink")),
                    "400": _error("The body is malformed, or the game has no such seat."),
                    **AUTH_ERRORS,
                    **MEDIA_ERROR,
                },
                body="NewLinkRequest",
            ),
        },
    }


def _snapshot_paths() -> dict:
    """Pause and resume, and this document."""
    import_refused = (
        "The rules refuse the game, a file of this release does not replay to its recorded "
        "state, or a newer release's file cannot be read here (snapshot_too_new)."
    )
    return {
        "/api/v1/games/{game_id}/snapshot": {
            "parameters": [GAME_ID],
            "get": _op(
                "getSnapshot",
                "The game as a self-contained snapshot document (pause). The banker token only.",
                {"200": _ok("The snapshot.", _ref("Snapshot")), **AUTH_ERRORS},
            ),
        },
        "/api/v1/games/import": {
            "post": _op(
                "importGame",
                "Resume a snapshot as a new game with fresh tokens (no token needed). "
                "Nothing is created unless the whole snapshot holds.",
                {
                    "201": _ok(
                        "The new game in the snapshot's state, its tokens and its URLs.",
                        _ref("CreatedGame"),
                    ),
                    "400": _error("Not a well-formed snapshot."),
                    "413": _error("Larger than 5 MB."),
                    **MEDIA_ERROR,
                    "422": _error(import_refused),
                    **NEW_GAME_LIMITS,
                },
                body="Snapshot",
                public=True,
            ),
        },
        "/api/v1/openapi.json": {
            "get": _op(
                "getOpenApi",
                "This document.",
                {"200": _ok("The OpenAPI document.", {"type": "object"})},
                public=True,
            )
        },
    }


@functools.cache
def openapi_document() -> dict:
    """The whole OpenAPI 3.0 document (built once)."""
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "banker",
            "version": banker.__version__,
            "description": "The digital Banker for a real, physical game of Monopoly (US "
            "Hasbro G0009). Every change to a game is one command; after any error the game "
            "is exactly as before.",
        },
        "security": [{"bearerAuth": []}],
        "paths": {**_play_paths(), **_command_paths(), **_snapshot_paths()},
        "components": {
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The banker token, a player token or the display token "
                    "of the game.",
                }
            },
            "schemas": schemas(),
        },
    }
