"""The one path of every command, whoever sends it and from where.

Each view reads who is asking (`common/seats.py`: the Banker's cookie, a player's link, the
API's Bearer token) and turns its form (`common/forms.py`) or JSON (`from_json`) into a
command; then `send` authorizes it, under the game's lock, through `rules.seat_refusal` (the
very check `rules.actions` makes for every button) and executes it (`Store.execute`: nothing
else calls it). The view answers in its caller's format: the API its JSON (`answer_text`), the
Banker's screens and a player's page their HTML. Every refusal is a `Refusal`, as the seat is
told it (private_cash), and after one nothing changed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from banker.rules import Refusal, refusal_for, seat_refusal, view_for
from banker.store import Answer, key_scope
from banker.web.common import pushed
from banker.web.common.errors import ApiError
from banker.web.common.seats import REPLACED

MAX_IDEMPOTENCY_KEY = 200
_ABSENT = object()


@dataclass(frozen=True)
class Sender:
    """Who sends a command: their seat in the game ("banker", a player id, "display"), the token
    that said so (checked again under the game's lock: a link replaced meanwhile sends nothing),
    the scope of their Idempotency-Keys, and the sentence they are told when their token was
    replaced."""

    game_id: str
    seat: str
    token: str
    scope: str
    replaced: str

    @classmethod
    def by_token(cls, game_id: str, seat: str, token: str, replaced: str = "") -> Sender:
        """A sender whose keys are their token's own (the API's, a player's page's)."""
        return cls(game_id, seat, token, key_scope(token), replaced or REPLACED.format(seat=seat))


def send(store, sender: Sender, command: dict, *, key=None, expected_version=None) -> Answer:
    """Run one command for `sender`: authorized, then executed (Store.execute: its replay of a
    key, its version check, the rules); the answer, or a Refusal as the sender is told it."""

    def authorize(state: dict) -> None:
        # Under the game's lock, before the key is looked at: a token replaced meanwhile, the
        # display, or a command this player may not send is refused, never replayed.
        if store.role(sender.game_id, sender.token) != sender.seat:
            raise ApiError(403, "token_replaced", sender.replaced)
        refusal = seat_refusal(state, sender.seat, command)  # as rules.actions says of it
        if refusal:
            raise ApiError(403, "banker_only", refusal, replayable=sender.seat != "display")

    pushed.tapped(sender.game_id, sender.seat)  # a page's tap: its answer is its stream's view
    try:
        answer = store.execute(
            sender.game_id,
            command,
            idempotency_key=key,
            expected_version=expected_version,
            authorize=authorize,
            key_scope=sender.scope,
            seat=sender.seat,
        )
        pushed.answer_shows(answer.body["version"])
        return answer
    except Refusal as e:  # the core's message as this seat is told it (private_cash)
        told = refusal_for(store.state(sender.game_id), sender.seat, e)
        if told is e:
            raise
        raise told from None


# -- a program's JSON ---------------------------------------------------------------------------


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
    """A JSON command sent with `token` (whose seat in the game is `caller`) and its
    Idempotency-Key `key`, sent on the one path; the store's answer. Refusals raise, and then
    nothing changed."""
    expected_version = _expected_version(command)
    if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY:
        raise ApiError(
            400,
            "bad_idempotency_key",
            f"The Idempotency-Key header must have 1 to {MAX_IDEMPOTENCY_KEY} characters.",
        )
    sender = Sender.by_token(game_id, caller, token)
    return send(store, sender, command, key=key, expected_version=expected_version)


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
