"""A snapshot document's shape, described once (JSON schema, OpenAPI 3.0 flavour).

The OpenAPI document's `Snapshot` is this schema (banker/web/openapi_schemas.py), and
`banker.snapshot.check` takes the fields it reads, and which of them are required, from it: the
two cannot name different fields. Pure: the standard library and the core only.
"""

from __future__ import annotations

import json

from banker.rules import json_nullable, json_object
from banker.rules.options import EDITIONS, options_schema

FORMAT = "banker-snapshot"
# 1: the releases of 0.1.0; 2 (0.2.0): `banker_version`, the release that saved the file. A reader
# of 1 refuses a field it does not know, so the field raised the format: such a reader then says
# the format is newer instead of naming a field. This release reads every format up to its own.
FORMAT_VERSION = 2
# The release and format a snapshot is taken for when it names no release (format_version 1).
FIRST_RELEASE = "0.1.0"

STR = {"type": "string"}
BOOL = {"type": "boolean"}


def _snapshot_game() -> dict:
    return json_object(
        {
            "id": {"type": "string", "minLength": 1, "maxLength": 64},
            "edition": {"type": "string", "enum": list(EDITIONS)},
            "players": {
                "type": "array",
                "items": STR,
                "minItems": 2,
                "maxItems": 6,
                "description": "The names as given at creation, in seating order.",
            },
            "options": options_schema("The options as given at creation.", nullable=True),
            "created_at": json_nullable({"type": "string", "format": "date-time"}),
        },
        ["id", "edition", "players", "options"],
        additionalProperties=False,
    )


def snapshot_schema() -> dict:
    """The JSON schema (OpenAPI 3.0) of a snapshot document: the OpenAPI document's Snapshot,
    and the fields `banker.snapshot.check` reads and requires."""
    return json_object(
        {
            "format": {"type": "string", "enum": [FORMAT]},
            "format_version": {"type": "integer", "minimum": 1, "maximum": FORMAT_VERSION},
            "banker_version": {
                "type": "string",
                "maxLength": 40,
                "description": "The release of banker that saved the file (semantic "
                "versioning; absent in files of 0.1.0).",
            },
            "exported_at": {"type": "string", "format": "date-time"},
            "game": _snapshot_game(),
            "commands": {
                "type": "array",
                "description": "Every accepted command in order: versions 1, 2, 3…",
                "items": json_object(
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
                "items": json_object(
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
    )


def fields(schema: dict) -> tuple[set[str], set[str]]:
    """An object schema's (fields, required fields)."""
    return set(schema["properties"]), set(schema.get("required", ()))


SNAPSHOT = snapshot_schema()
TOP_FIELDS, TOP_REQUIRED = fields(SNAPSHOT)
GAME_FIELDS, GAME_REQUIRED = fields(SNAPSHOT["properties"]["game"])
COMMAND_FIELDS, COMMAND_REQUIRED = fields(SNAPSHOT["properties"]["commands"]["items"])
EVENT_FIELDS, EVENT_REQUIRED = fields(SNAPSHOT["properties"]["events"]["items"])


def entry_bytes(entry: dict) -> int:
    """The bytes one entry of the file's "commands" or "events" list takes in it (as dumps
    writes it, two levels deep, with its separator): the store counts a game's log by this."""
    text = json.dumps(entry, ensure_ascii=False, indent=1)
    return len(text.encode("utf-8")) + 2 * (text.count("\n") + 1) + 2
