"""The component schemas of the OpenAPI document (banker/web/openapi.py).

Each command's schema is the core's own (`banker.rules.schema`, which also checks commands);
property and card ids come from the board data the core uses, so the document and the rules
cannot disagree about them.
"""

from __future__ import annotations

from banker.rules import (
    COMMAND_SCHEMA,
    describe_command,
    json_object,
    state_schema,
)
from banker.rules.board import DEED_IDS
from banker.rules.options import EDITIONS, options_schema
from banker.snapshot.shape import snapshot_schema as snapshot_document_schema


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
PLAYER_ID = describe_command("leave")["properties"]["player"]  # the core's: p1, p2…
DECK = {"type": "string", "enum": ["chance", "community_chest"]}
property_id = {"type": "string", "enum": list(DEED_IDS)}
trade_side = describe_command("trade")["properties"]["give"]


def _command(type_: str) -> dict:
    """The core's own schema of the command, plus the API's expected_version."""
    schema = describe_command(type_)
    schema["properties"]["expected_version"] = {
        "type": "integer",
        "description": "If given, the command is refused with 409 unless the "
        "game is at this version.",
    }
    return schema


def command_schemas() -> dict:
    """Command (one of XCommand, by `type`) and each XCommand."""
    names = {type_: f"{type_.title().replace('_', '')}Command" for type_ in COMMAND_SCHEMA}
    return {
        "Command": {
            "oneOf": [ref(name) for name in names.values()],
            "discriminator": {
                "propertyName": "type",
                "mapping": {type_: f"#/components/schemas/{name}" for type_, name in names.items()},
            },
        },
        **{name: _command(type_) for type_, name in names.items()},
    }


def game_schemas() -> dict:
    """What creates a game."""
    return {
        "NewGame": json_object(
            {
                "edition": {"type": "string", "enum": list(EDITIONS), "default": "g0009"},
                "players": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 2,
                    "maxItems": 6,
                    "description": "Names in seating order, each 1 to 30 characters once "
                    "surrounding spaces are trimmed, no two alike; exactly 4 with teams.",
                },
                "options": options_schema(
                    "Each optional; null or absent: all defaults.", nullable=True
                ),
            },
            ["players"],
            additionalProperties=False,
        ),
    }


def link_schemas() -> dict:
    """What creating a game and a new link answer."""
    return {
        "CreatedGame": json_object(
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
                    "items": json_object(
                        {
                            "id": PLAYER_ID,
                            "name": STR,
                            "token": STR,
                            "join_url": {"type": "string", "format": "uri"},
                        },
                        ["id", "name", "token", "join_url"],
                    ),
                },
                "state": ref("State"),
                "events": {
                    "type": "array",
                    "description": "An import only: what it says of how the game resumed, e.g. "
                    "`resumed_as_recorded` (an earlier release's rules led elsewhere).",
                    "items": json_object({"type": STR, "text": STR}, ["type", "text"]),
                },
            },
            ["game_id", "banker_token", "banker_url", "display_url", "players", "state"],
        ),
        "NewLinkRequest": json_object(
            {
                "for": {
                    "type": "string",
                    "description": '"banker", "display" or a player id: the seat to re-link.',
                }
            },
            ["for"],
            additionalProperties=False,
        ),
        "NewLink": json_object(
            {"for": STR, "token": STR, "url": {"type": "string", "format": "uri"}},
            ["for", "token", "url"],
        ),
    }


def answer_schemas() -> dict:
    """A command's answer, an event, an error."""
    return {
        "CommandAnswer": json_object(
            {
                "version": {"type": "integer", "minimum": 1},
                "events": {
                    "type": "array",
                    "items": json_object({"seq": INT, "type": STR, "text": STR}, ["type", "text"]),
                },
                "state": ref("State"),
            },
            ["version", "events", "state"],
        ),
        "Event": json_object(
            {
                "seq": {"type": "integer", "minimum": 1},
                "type": STR,
                "text": STR,
                "at": {"type": "string", "format": "date-time"},
                "undone": BOOL,
            },
            ["seq", "type", "text", "at", "undone"],
        ),
        "Error": json_object(
            {
                "error": json_object(
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


def snapshot_schema() -> dict:
    return {"Snapshot": snapshot_document_schema()}


def schemas() -> dict:
    """Every component schema of the document."""
    return {
        "State": state_schema(),
        **command_schemas(),
        **game_schemas(),
        **link_schemas(),
        **answer_schemas(),
        **snapshot_schema(),
    }
