"""A JSON command run for a token: the one path of the API's view and of `fastpoll`, which runs
a plainly well-formed one before Flask through these very functions."""

from __future__ import annotations

import json

from banker.rules import Refusal, refusal_for, seat_refusal, view_for
from banker.store import Answer, key_scope
from banker.web.common.errors import ApiError
from banker.web.common.seats import REPLACED

MAX_IDEMPOTENCY_KEY = 200
_ABSENT = object()


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


def _expected_version(command: dict) -> int | None:
    """The command's expected_version taken out of it: None when absent, else a whole number
    (not 4,300 digits echoed back), else ApiError 400."""
    expected_version = command.pop("expected_version", _ABSENT)
    if expected_version is _ABSENT:
        return None
    if (
        not isinstance(expected_version, int)
        or isinstance(expected_version, bool)
        or not 0 <= expected_version <= 10**12
    ):
        raise ApiError(400, "wrong_type", "'expected_version' must be a whole number.")
    return expected_version


def run_command(store, game_id: str, token: str, caller: str, command: dict, key) -> Answer:
    """Run one command sent with `token` (whose role in the game is `caller`) and its
    Idempotency-Key `key`; the store's answer. Refusals raise, and then nothing changed."""
    expected_version = _expected_version(command)
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
        refusal = seat_refusal(state, caller, command)  # as rules.actions says of this seat
        if refusal:
            raise ApiError(403, "banker_only", refusal, replayable=caller != "display")

    try:
        return store.execute(
            game_id,
            command,
            idempotency_key=key,
            expected_version=expected_version,
            authorize=authorize,
            key_scope=key_scope(token),
            seat=caller,
        )
    except Refusal as e:  # the core's message as this seat is told it (private_cash)
        if e.cash_of is None:
            raise
        raise refusal_for(store.state(game_id), caller, e) from None


def answer_text(answer: Answer, caller: str) -> str:
    """The JSON text of a command's answer as `caller` may see it (private_cash: others' cash
    null in the state, and no event sentence stating it)."""
    state = answer.body["state"]
    if caller != "banker" and state["options"].get("private_cash"):
        body = {
            **answer.body,
            "events": answer.said_to(caller),
            "state": view_for(state, caller),
        }
        return json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return answer.text
