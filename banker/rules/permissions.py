"""Who may send which command, and what each token may see (docs/api.md, "Who may send it").

The banker token may send every command. With the option `players_act` (the default), a
player's token may send, for its own player P only, the commands declared with `players=` in
rules/schema.py (each with its check, rules/senders.py); with `players_act` false only
`claim_rent` (P's own claim). A command declared with `banker=` is refused to a player with
that sentence (the API answers 403 `banker_only`).

A player's command is refused here unless it is P's own: P's offer (`buy`, `auction`: refused
too when no offer is open), P's debt (`pay_debt`: likewise), P's deed, or naming P. When the
command's fields that decide it are missing or malformed, or its claim or trade-offer id is not
open, `player_refusal` says nothing: the rules then answer exactly as they would the Banker
(400 malformed, 422 forbidden).

Pure: standard library only, no I/O.
"""

from __future__ import annotations

import copy

from .errors import Refusal
from .game import public_state
from .schema import COMMANDS

# The sentence each Banker-only command is refused to a player with (rules/schema.py's banker=).
BANKER_ONLY = {c.type: c.banker_only for c in COMMANDS.values() if c.banker_only}
NOT_PLAYERS_ACT = (
    "In this game players only ask for their rent from their phones; ask the Banker to do this."
)
NOT_A_COMMAND = "A player's phone cannot send that; ask the Banker."
DISPLAY_READ_ONLY = "The display's token may only read the game; it cannot send anything."


def player_refusal(state: dict, player_id: str, command: dict) -> str | None:
    """Why `player_id`'s token may not send `command` in `state` (a sentence), or None.

    `state` is the game's state (internal or public). None does not mean the command is
    allowed by the rules: only that the token may send it, and the rules decide the rest.
    """
    kind = command.get("type") if isinstance(command, dict) else None
    if not isinstance(kind, str):
        return NOT_A_COMMAND
    declared = COMMANDS.get(kind)
    if declared is None:
        return NOT_A_COMMAND
    if declared.banker_only:
        return declared.banker_only
    if kind != "claim_rent" and not state.get("options", {}).get("players_act", True):
        return NOT_PLAYERS_ACT
    return declared.players(state, player_id, command)


def seat_refusal(state: dict, seat: str, command: dict) -> str | None:
    """Why `seat` ("banker", a player id or "display") may not send `command` at all, or None:
    the Banker may send anything, the display nothing, a player what player_refusal allows.
    The API's permission check and `rules.actions` both ask this."""
    if seat == "banker":
        return None
    if seat == "display":
        return DISPLAY_READ_ONLY
    return player_refusal(state, seat, command)


def text_for(state: dict, seat: str, said) -> str:
    """What `seat` ("banker", a player id or "display") is told of `said`: an event (a dict with
    "text", and "cash_of" and "without_cash" when it states a player's cash), a Refusal, or a
    sentence (a WithCash, or a plain str).

    With the option `private_cash` a sentence stating a player's cash in hand is said without
    the figure to everyone but the Banker and that player (amounts that change hands stay).
    """
    if isinstance(said, dict):
        text, cash_of, without = said["text"], said.get("cash_of"), said.get("without_cash")
    elif isinstance(said, Refusal):
        text, cash_of, without = said.message, said.cash_of, said.without_cash
    else:
        text = str(said)
        cash_of, without = getattr(said, "cash_of", None), getattr(said, "without_cash", None)
    private = state.get("options", {}).get("private_cash")
    if not private or cash_of is None or without is None or seat in ("banker", cash_of):
        return text
    return without


def refusal_for(state: dict, seat: str, refusal: Refusal) -> Refusal:
    """The refusal as `seat` is told it: the same, or (private_cash) a copy whose message does
    not state another player's cash."""
    message = text_for(state, seat, refusal)
    if message == refusal.message:
        return refusal
    told = copy.copy(refusal)
    told.message, told.args = message, (message,)
    told.cash_of = told.without_cash = None
    return told


def view_for(state: dict, viewer: str) -> dict:
    """The public state as `viewer` ("banker", a player id or "display") may see it.

    With the option `private_cash`, every player's `cash` but the viewer's own is None for a
    player's token, and everyone's for the display. The Banker sees everything.
    """
    public = public_state(state)
    if viewer == "banker" or not public.get("options", {}).get("private_cash"):
        return public
    players = [p if p["id"] == viewer else {**p, "cash": None} for p in public["players"]]
    return {**public, "players": players}
