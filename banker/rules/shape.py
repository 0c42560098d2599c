"""The state's shape, described once: the JSON schema (OpenAPI 3.0 flavour) of the public
state, the contract's State (`public_state`). The OpenAPI document's State is this schema
(banker/web/openapi_schemas.py); `new_game` builds a state of this shape and every command
keeps it (tests/core/test_state_shape.py checks both).

The internal state is the public one plus the core's own bookkeeping, the keys starting with
"_" (never shown to clients; a snapshot carries them): see BOOKKEEPING.
"""

from __future__ import annotations

from .board import DECKS, DEED_IDS
from .fields import PROPERTY_SCHEMA, PlayerId
from .options import OPTIONS
from .schema import describe as describe_command

BOOKKEEPING = {
    "_seq": "the number of the latest event (events count 1, 2, 3… over the whole game)",
    "_claims": "how many rent claims were ever opened (their ids: c1, c2…)",
    "_offers": "how many trade offers were ever made (their ids: o1, o2…)",
    "_players": "how many players the game ever had (a latecomer's id: p<n+1>, never reused)",
    "_undo": "what undo can take back, back to the latest roll, one entry per command: "
    "{version (the state's before it), changes (what takes the state after it back: "
    "[[path, value] or [path]], see state.changes), events (their seqs), text (the first "
    "one's), and cash_of and without_cash when that sentence states a player's cash}",
    "_after_debt": "a jailed player's move waiting for their debt to be settled: "
    '{"kind": "leave_jail", "player", "steps"}, or null',
    "_turns_begun": "how many turns each player has begun: {player id: n} (partnerships "
    "alternate their roller by it)",
}
INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
PLAYER_ID = PlayerId("player").schema()
DECK = {"type": "string", "enum": list(DECKS)}
property_id = dict(PROPERTY_SCHEMA)
trade_side = describe_command("trade")["properties"]["give"]


def json_object(properties: dict, required: list[str] | None = None, **extra) -> dict:
    """A JSON schema of an object with these properties (and these required)."""
    schema = {"type": "object", "properties": properties, **extra}
    if required:
        schema["required"] = required
    return schema


def json_nullable(schema: dict) -> dict:
    """The schema, or null (OpenAPI 3.0's nullable)."""
    return {**schema, "nullable": True}


def _player() -> dict:
    return json_object(
        {
            "id": PLAYER_ID,
            "name": STR,
            "members": {"type": "array", "items": STR},
            "cash": json_nullable(
                {**INT, "description": "null: another player's, with private_cash."}
            ),
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
        "offer": json_nullable(
            json_object(
                {"player": PLAYER_ID, "property": property_id, "price": INT},
                ["player", "property", "price"],
            )
        ),
        "auction": json_nullable(
            json_object(
                {"item": STR, "high_bid": INT, "high_bidder": json_nullable(PLAYER_ID)},
                ["item", "high_bid", "high_bidder"],
                description="item: a property id, or house or hotel.",
            )
        ),
        "auction_queue": {"type": "array", "items": property_id},
        "card": json_nullable(json_object({"player": PLAYER_ID, "deck": DECK}, ["player", "deck"])),
        "dice": json_nullable(
            json_object(
                {
                    "player": PLAYER_ID,
                    "reason": STR,
                    "multiplier": INT,
                    "property": {**property_id, "description": "The utility landed on."},
                },
                ["player", "reason", "multiplier", "property"],
            )
        ),
        "debt": json_nullable(
            json_object(
                {
                    "debtor": PLAYER_ID,
                    "creditor": json_nullable(PLAYER_ID),
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
            "items": json_object(
                {
                    "from": json_nullable(PLAYER_ID),
                    "to": json_nullable(PLAYER_ID),
                    "amount": INT,
                    "reason": STR,
                },
                ["from", "to", "amount", "reason"],
            ),
        },
        "rent_claims": {
            "type": "array",
            "items": json_object(
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
            "items": json_object(
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


def _bank() -> dict:
    pot = "The Free Parking pot (house rule free_parking_jackpot; 0 without it)."
    return json_object(
        {"houses": INT, "hotels": INT, "free_parking": {**INT, "minimum": 0, "description": pot}},
        ["houses", "hotels", "free_parking"],
    )


def state_schema() -> dict:
    deed = json_object(
        {"owner": json_nullable(PLAYER_ID), "mortgaged": BOOL, "houses": INT, "hotel": BOOL},
        ["owner", "mortgaged", "houses", "hotel"],
    )
    pending = {**_pending_now(), **_pending_lists()}
    pending = json_object(pending, list(pending))
    player = _player()
    state = json_object(
        {
            "game_id": STR,
            "version": {"type": "integer", "minimum": 0},
            "edition": {"type": "string", "enum": ["g0009", "classic"]},
            "options": json_object(
                {k: BOOL for k in OPTIONS}, list(OPTIONS), description="Every option's value."
            ),
            "status": {
                "type": "string",
                "enum": ["setup", "playing", "finished", "unfinished"],
                "description": "unfinished: everyone agreed to stop early (no winner).",
            },
            "bank": _bank(),
            "players": {"type": "array", "items": player},
            "properties": json_object(
                {pid: deed for pid in DEED_IDS},
                list(DEED_IDS),
                description="All 28 deeds by id.",
            ),
            "turn": json_object(
                {
                    "player": json_nullable(PLAYER_ID),
                    "doubles": INT,
                    "first": json_nullable(PLAYER_ID),
                    "roller": json_nullable(STR),
                },
                ["player", "doubles", "first", "roller"],
            ),
            "pending": pending,
            "winners": {"type": "array", "items": PLAYER_ID},
            "scores": json_nullable({"type": "object", "additionalProperties": INT}),
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
