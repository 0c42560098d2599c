"""The component schemas of the OpenAPI document (banker/web/openapi.py).

Each command's schema is the core's own (`banker.rules.schema`, which also checks commands);
property and card ids come from the board data the core uses, so the document and the rules
cannot disagree about them.
"""

from __future__ import annotations

from banker.rules import COMMAND_SCHEMA, OPTIONS, describe_command
from banker.rules.board import DEED_IDS


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(properties: dict, required: list[str] | None = None, **extra) -> dict:
    schema = {"type": "object", "properties": properties, **extra}
    if required:
        schema["required"] = required
    return schema


def _nullable(schema: dict) -> dict:
    return {**schema, "nullable": True}


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


def _player() -> dict:
    return _obj(
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


def _pending_now() -> dict:
    """What is pending, one at a time (null when nothing)."""
    return {
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
    }


def _pending_lists() -> dict:
    """What is pending in lists, and the deadline's final round."""
    return {
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
    }


def state_schema() -> dict:
    deed = _obj(
        {"owner": _nullable(PLAYER_ID), "mortgaged": BOOL, "houses": INT, "hotel": BOOL},
        ["owner", "mortgaged", "houses", "hotel"],
    )
    pending = {**_pending_now(), **_pending_lists()}
    pending = _obj(pending, list(pending))
    player = _player()
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
                {pid: deed for pid in DEED_IDS},
                list(DEED_IDS),
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
    return state


def game_schemas() -> dict:
    """What creates a game."""
    return {
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
    }


def link_schemas() -> dict:
    """What creating a game and a new link answer."""
    return {
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
                "state": ref("State"),
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
    }


def answer_schemas() -> dict:
    """A command's answer, an event, an error."""
    return {
        "CommandAnswer": _obj(
            {
                "version": {"type": "integer", "minimum": 1},
                "events": {
                    "type": "array",
                    "items": _obj({"seq": INT, "type": STR, "text": STR}, ["type", "text"]),
                },
                "state": ref("State"),
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


def _snapshot_game() -> dict:
    return _obj(
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
    )


def snapshot_schema() -> dict:
    return {
        "Snapshot": _obj(
            {
                "format": {"type": "string", "enum": ["banker-snapshot"]},
                "format_version": {"type": "integer", "enum": [1]},
                "exported_at": {"type": "string", "format": "date-time"},
                "game": _snapshot_game(),
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
    }


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
