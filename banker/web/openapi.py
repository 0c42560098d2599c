"""The OpenAPI 3 document of the JSON API, served at GET /api/v1/openapi.json.

Each command's schema is the core's own (`banker.rules.schema`, which also checks commands),
and property and card ids come from the board data the core uses, so the document and the rules
cannot disagree about them.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

import banker
from banker.rules import COMMAND_SCHEMA, OPTIONS, describe_command


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(properties: dict, required: list[str] | None = None, **extra) -> dict:
    schema = {"type": "object", "properties": properties, **extra}
    if required:
        schema["required"] = required
    return schema


def _nullable(schema: dict) -> dict:
    return {**schema, "nullable": True}


def _board() -> dict:
    return json.loads(resources.files("banker.rules").joinpath("g0009.json").read_text("utf-8"))


INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
PLAYER_ID = {
    "type": "string",
    "pattern": "^p[1-6]$",
    "description": "A player id: p1 to p6 in seating order.",
    "example": "p1",
}
DECK = {"type": "string", "enum": ["chance", "community_chest"]}


def _schemas() -> dict:
    board = _board()
    property_ids = [s["id"] for s in board["board"] if "id" in s]
    property_id = {"type": "string", "enum": property_ids}

    def command(type_: str) -> dict:
        """The core's own schema of the command, plus the API's expected_version."""
        schema = describe_command(type_)
        schema["properties"]["expected_version"] = {
            "type": "integer",
            "description": "If given, the command is refused with 409 unless the "
            "game is at this version.",
        }
        return schema

    commands = {type_: command(type_) for type_ in COMMAND_SCHEMA}
    trade_side = describe_command("trade")["properties"]["give"]
    command_schemas = {f"{name.title().replace('_', '')}Command": s for name, s in commands.items()}

    player = _obj(
        {
            "id": PLAYER_ID,
            "name": STR,
            "members": {"type": "array", "items": STR},
            "cash": _nullable({**INT, "description": "null: another player's, with private_cash."}),
            "position": {"type": "integer", "minimum": 0, "maximum": 39},
            "in_jail": BOOL,
            "jail_attempts": INT,
            "jail_cards": {"type": "array", "items": DECK},
            "eliminated": BOOL,
        },
        [
            "id",
            "name",
            "members",
            "cash",
            "position",
            "in_jail",
            "jail_attempts",
            "jail_cards",
            "eliminated",
        ],
    )
    deed = _obj(
        {"owner": _nullable(PLAYER_ID), "mortgaged": BOOL, "houses": INT, "hotel": BOOL},
        ["owner", "mortgaged", "houses", "hotel"],
    )
    pending = _obj(
        {
            "offer": _nullable(
                _obj(
                    {"player": PLAYER_ID, "property": property_id, "price": INT},
                    ["player", "property", "price"],
                )
            ),
            "auction": _nullable(
                _obj(
                    {"item": STR, "high_bid": INT, "high_bidder": _nullable(PLAYER_ID)},
                    ["item", "high_bid", "high_bidder"],
                    description="item: a property id, or house or hotel.",
                )
            ),
            "auction_queue": {"type": "array", "items": property_id},
            "card": _nullable(_obj({"player": PLAYER_ID, "deck": DECK}, ["player", "deck"])),
            "dice": _nullable(
                _obj(
                    {
                        "player": PLAYER_ID,
                        "reason": STR,
                        "multiplier": INT,
                        "property": {**property_id, "description": "The utility landed on."},
                    },
                    ["player", "reason", "multiplier", "property"],
                )
            ),
            "debt": _nullable(
                _obj(
                    {
                        "debtor": PLAYER_ID,
                        "creditor": _nullable(PLAYER_ID),
                        "amount": INT,
                        "reason": STR,
                        "can_raise": {
                            **INT,
                            "description": "Cash the debtor could still raise by selling "
                            "buildings and mortgaging.",
                        },
                    },
                    ["debtor", "creditor", "amount", "reason", "can_raise"],
                )
            ),
            "payments": {
                "type": "array",
                "items": _obj(
                    {
                        "from": _nullable(PLAYER_ID),
                        "to": _nullable(PLAYER_ID),
                        "amount": INT,
                        "reason": STR,
                    },
                    ["from", "to", "amount", "reason"],
                ),
            },
            "rent_claims": {
                "type": "array",
                "items": _obj(
                    {
                        "id": STR,
                        "owner": PLAYER_ID,
                        "payer": PLAYER_ID,
                        "property": property_id,
                        "amount": INT,
                    },
                    ["id", "owner", "payer", "property", "amount"],
                ),
            },
            "trade_offers": {
                "type": "array",
                "items": _obj(
                    {
                        "id": {**STR, "example": "o1"},
                        "from": PLAYER_ID,
                        "to": PLAYER_ID,
                        "give": trade_side,
                        "receive": trade_side,
                        "unmortgage": {"type": "array", "items": property_id},
                    },
                    ["id", "from", "to", "give", "receive", "unmortgage"],
                    description="A deal offered by `from` to `to`, waiting for `to`'s answer.",
                ),
            },
            "final_round": {
                **BOOL,
                "description": "Time is called (agreed deadline); it stays true while rent "
                "claims open at the end of the final round wait (turn.player is then null).",
            },
        },
        [
            "offer",
            "auction",
            "auction_queue",
            "card",
            "dice",
            "debt",
            "payments",
            "rent_claims",
            "trade_offers",
            "final_round",
        ],
    )
    state = _obj(
        {
            "game_id": STR,
            "version": {"type": "integer", "minimum": 0},
            "edition": {"type": "string", "enum": ["g0009", "classic"]},
            "options": _obj(
                {k: BOOL for k in OPTIONS}, list(OPTIONS), description="Every option's value."
            ),
            "status": {
                "type": "string",
                "enum": ["setup", "playing", "finished", "unfinished"],
                "description": "unfinished: everyone agreed to stop early (no winner).",
            },
            "bank": _obj({"houses": INT, "hotels": INT}, ["houses", "hotels"]),
            "players": {"type": "array", "items": player},
            "properties": _obj(
                {pid: deed for pid in property_ids},
                property_ids,
                description="All 28 deeds by id.",
            ),
            "turn": _obj(
                {
                    "player": _nullable(PLAYER_ID),
                    "doubles": INT,
                    "first": _nullable(PLAYER_ID),
                    "roller": _nullable(STR),
                },
                ["player", "doubles", "first", "roller"],
            ),
            "pending": pending,
            "winners": {"type": "array", "items": PLAYER_ID},
            "scores": _nullable({"type": "object", "additionalProperties": INT}),
        },
        [
            "game_id",
            "version",
            "edition",
            "options",
            "status",
            "bank",
            "players",
            "properties",
            "turn",
            "pending",
            "winners",
            "scores",
        ],
    )
    return {
        "State": state,
        "Command": {
            "oneOf": [_ref(name) for name in command_schemas],
            "discriminator": {
                "propertyName": "type",
                "mapping": {
                    type_: f"#/components/schemas/{name}"
                    for type_, name in zip(commands, command_schemas, strict=True)
                },
            },
        },
        **command_schemas,
        "NewGame": _obj(
            {
                "edition": {"type": "string", "enum": ["g0009", "classic"], "default": "g0009"},
                "players": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 2,
                    "maxItems": 6,
                    "description": "Names in seating order, each 1 to 30 characters once "
                    "surrounding spaces are trimmed, no two alike; exactly 4 with teams.",
                },
                "options": _obj(
                    {
                        "auction_all": {"type": "boolean", "default": False},
                        "deadline": {"type": "boolean", "default": False},
                        "teams": {"type": "boolean", "default": False},
                        "hotel_shortage_ruling": {
                            "type": "boolean",
                            "description": "Default: true in g0009; refused in classic.",
                        },
                        "private_cash": {"type": "boolean", "default": False},
                        "players_act": {
                            "type": "boolean",
                            "default": True,
                            "description": "Players' tokens may send the player commands; "
                            "false: only claim_rent.",
                        },
                    },
                    description="Variations are g0009 only; null or absent: all defaults.",
                    nullable=True,
                ),
            },
            ["players"],
            additionalProperties=False,
        ),
        "CreatedGame": _obj(
            {
                "game_id": STR,
                "banker_token": STR,
                "banker_url": {"type": "string", "format": "uri"},
                "display_url": {
                    "type": "string",
                    "format": "uri",
                    "description": "A read-only page for a shared big screen (its own token).",
                },
                "players": {
                    "type": "array",
                    "items": _obj(
                        {
                            "id": PLAYER_ID,
                            "name": STR,
                            "token": STR,
                            "join_url": {"type": "string", "format": "uri"},
                        },
                        ["id", "name", "token", "join_url"],
                    ),
                },
                "state": _ref("State"),
            },
            ["game_id", "banker_token", "banker_url", "display_url", "players", "state"],
        ),
        "NewLinkRequest": _obj(
            {
                "for": {
                    "type": "string",
                    "description": '"banker", "display" or a player id: the seat to re-link.',
                }
            },
            ["for"],
            additionalProperties=False,
        ),
        "NewLink": _obj(
            {"for": STR, "token": STR, "url": {"type": "string", "format": "uri"}},
            ["for", "token", "url"],
        ),
        "CommandAnswer": _obj(
            {
                "version": {"type": "integer", "minimum": 1},
                "events": {
                    "type": "array",
                    "items": _obj({"seq": INT, "type": STR, "text": STR}, ["type", "text"]),
                },
                "state": _ref("State"),
            },
            ["version", "events", "state"],
        ),
        "Event": _obj(
            {
                "seq": {"type": "integer", "minimum": 1},
                "type": STR,
                "text": STR,
                "at": {"type": "string", "format": "date-time"},
                "undone": BOOL,
            },
            ["seq", "type", "text", "at", "undone"],
        ),
        "Snapshot": _obj(
            {
                "format": {"type": "string", "enum": ["banker-snapshot"]},
                "format_version": {"type": "integer", "enum": [1]},
                "exported_at": {"type": "string", "format": "date-time"},
                "game": _obj(
                    {
                        "id": {"type": "string", "minLength": 1, "maxLength": 64},
                        "edition": {"type": "string", "enum": ["g0009", "classic"]},
                        "players": {
                            "type": "array",
                            "items": STR,
                            "minItems": 2,
                            "maxItems": 6,
                            "description": "The names as given at creation, in seating order.",
                        },
                        "options": {
                            "type": "object",
                            "nullable": True,
                            "description": "The options as given at creation.",
                        },
                        "created_at": _nullable({"type": "string", "format": "date-time"}),
                    },
                    ["id", "edition", "players", "options"],
                    additionalProperties=False,
                ),
                "commands": {
                    "type": "array",
                    "description": "Every accepted command in order: versions 1, 2, 3…",
                    "items": _obj(
                        {
                            "version": {"type": "integer", "minimum": 1},
                            "at": {"type": "string", "format": "date-time"},
                            "command": {"type": "object"},
                        },
                        ["version", "at", "command"],
                        additionalProperties=False,
                    ),
                },
                "events": {
                    "type": "array",
                    "description": "Every event in seq order, with the version that made it.",
                    "items": _obj(
                        {
                            "seq": {"type": "integer", "minimum": 1},
                            "version": {"type": "integer", "minimum": 1},
                            "type": STR,
                            "text": STR,
                            "at": {"type": "string", "format": "date-time"},
                            "undone": BOOL,
                        },
                        ["seq", "version", "type", "text", "at", "undone"],
                        additionalProperties=False,
                    ),
                },
                "state": {
                    "type": "object",
                    "description": "The state the commands lead to: the State fields plus the "
                    "core's own bookkeeping (keys starting with _), so undo works after resuming.",
                },
            },
            ["format", "format_version", "game", "commands", "events", "state"],
            description="A paused game (README: Snapshots). Import replays its commands and "
            "requires them to reproduce its events and state exactly.",
            additionalProperties=False,
        ),
        "Error": _obj(
            {
                "error": _obj(
                    {
                        "code": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                        "message": STR,
                    },
                    ["code", "message"],
                )
            },
            ["error"],
        ),
    }


def _error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}


def _ok(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


MEDIA_ERROR = {"415": _error("The body was not sent as Content-Type: application/json.")}
AUTH_ERRORS = {
    "401": _error("No token was sent."),
    "403": _error("The token is not one of this game's, or may not do this."),
    "404": _error("There is no such game."),
}
GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
    "description": "The game's id, from its creation.",
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
        "paths": {
            "/api/v1/games": {
                "post": {
                    "operationId": "createGame",
                    "summary": "Create a game (no token needed).",
                    "security": [],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("NewGame")}},
                    },
                    "responses": {
                        "201": _ok("The game, its tokens and its URLs.", _ref("CreatedGame")),
                        "400": _error("The body is malformed."),
                        "413": _error("The body is too large."),
                        **MEDIA_ERROR,
                        "422": _error("The rules forbid this game."),
                    },
                }
            },
            "/api/v1/games/{game_id}": {
                "parameters": [GAME_ID],
                "get": {
                    "operationId": "getGame",
                    "summary": "The game's current state.",
                    "responses": {"200": _ok("The state.", _ref("State")), **AUTH_ERRORS},
                },
            },
            "/api/v1/games/{game_id}/events": {
                "parameters": [GAME_ID],
                "get": {
                    "operationId": "getEvents",
                    "summary": "Every accepted event, oldest first.",
                    "responses": {
                        "200": _ok("The events.", {"type": "array", "items": _ref("Event")}),
                        **AUTH_ERRORS,
                    },
                },
            },
            "/api/v1/games/{game_id}/commands": {
                "parameters": [GAME_ID],
                "post": {
                    "operationId": "postCommand",
                    "summary": "Apply one command. A player's token may send only the commands "
                    "of API.md's 'Who may send it' for its own player (else 403 banker_only); "
                    "the display's token none.",
                    "parameters": [
                        {
                            "name": "Idempotency-Key",
                            "in": "header",
                            "required": False,
                            "schema": {"type": "string", "minLength": 1, "maxLength": 200},
                            "description": "Repeating a key returns the first accepted answer "
                            "and applies nothing again (scoped to the game and the token; "
                            "looked at only once the token may send the command).",
                        }
                    ],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("Command")}},
                    },
                    "responses": {
                        "200": _ok("The new version, its events and state.", _ref("CommandAnswer")),
                        "400": _error("The command is malformed."),
                        **AUTH_ERRORS,
                        "409": _error("expected_version is not the game's version."),
                        "413": _error("The body is too large."),
                        **MEDIA_ERROR,
                        "422": _error("The rules forbid this command now."),
                    },
                },
            },
            "/api/v1/games/{game_id}/tokens": {
                "parameters": [GAME_ID],
                "post": {
                    "operationId": "newToken",
                    "summary": "A new link for a seat (the banker token only): the seat's old "
                    "token stops working at once, everywhere.",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("NewLinkRequest")}},
                    },
                    "responses": {
                        "201": _ok("The seat's new token and link.", _ref("NewLink")),
                        "400": _error("The body is malformed, or the game has no such seat."),
                        **AUTH_ERRORS,
                        **MEDIA_ERROR,
                    },
                },
            },
            "/api/v1/games/{game_id}/snapshot": {
                "parameters": [GAME_ID],
                "get": {
                    "operationId": "getSnapshot",
                    "summary": "The game as a self-contained snapshot document (pause). The "
                    "banker token only.",
                    "responses": {
                        "200": _ok("The snapshot.", _ref("Snapshot")),
                        **AUTH_ERRORS,
                    },
                },
            },
            "/api/v1/games/import": {
                "post": {
                    "operationId": "importGame",
                    "summary": "Resume a snapshot as a new game with fresh tokens (no token "
                    "needed). Nothing is created unless the whole snapshot holds.",
                    "security": [],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("Snapshot")}},
                    },
                    "responses": {
                        "201": _ok(
                            "The new game in the snapshot's state, its tokens and its URLs.",
                            _ref("CreatedGame"),
                        ),
                        "400": _error("Not a well-formed snapshot."),
                        "413": _error("Larger than 5 MB."),
                        **MEDIA_ERROR,
                        "422": _error(
                            "The rules refuse the game or a command of its log, or the log does "
                            "not reproduce the recorded events and state."
                        ),
                    },
                },
            },
            "/api/v1/openapi.json": {
                "get": {
                    "operationId": "getOpenApi",
                    "summary": "This document.",
                    "security": [],
                    "responses": {"200": _ok("The OpenAPI document.", {"type": "object"})},
                }
            },
        },
        "components": {
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The banker token, a player token or the display token "
                    "of the game.",
                }
            },
            "schemas": _schemas(),
        },
    }
