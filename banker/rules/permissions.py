"""Who may send which command, and what each token may see (docs/api.md, "Who may send it").

The banker token may send every command. With the option `players_act` (the default), a
player's token may send, for its own player P only, the commands of `_PLAYER_CHECKS` below;
with `players_act` false only `claim_rent` (P's own claim). Everything else from a player's
token is refused with a sentence (the API answers 403 `banker_only`).

A player's command is refused here unless it is P's own: P's offer (`buy`, `auction`: refused
too when no offer is open), P's debt (`pay_debt`: likewise), P's deed, or naming P. When the
command's fields that decide it are missing or malformed, or its claim or trade-offer id is not
open, `player_refusal` says nothing: the rules then answer exactly as they would the Banker
(400 malformed, 422 forbidden).

Pure: standard library only, no I/O.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from .errors import Refusal
from .game import public_state

BANKER_ONLY = {
    "start": "Only the Banker records who starts.",
    "roll": "Only the Banker records a roll: the dice are at the table.",
    "draw_card": "Only the Banker records a card drawn: the decks are at the table.",
    "rent_roll": (
        "Only the Banker records the roll for a utility's rent: the dice are at the table."
    ),
    "close_auction": "Only the Banker closes an auction.",
    "building_auction": "Only the Banker opens an auction of the Bank's buildings.",
    "trade": "Only the Banker records an agreed trade; from your phone, propose it instead.",
    "bankrupt": "Only the Banker records a bankruptcy.",
    "call_time": "Only the Banker calls time.",
    "score_game": "Only the Banker scores the game.",
    "stop": "Only the Banker records that everyone agreed to stop.",
    "adjust": "Only the Banker corrects a player's cash.",
    "move": "Only the Banker puts a token where it really stands.",
    "undo": "Only the Banker takes back a command.",
    "rename_player": "Only the Banker changes a player's name.",
    "add_player": "Only the Banker seats a latecomer.",
    "leave": "Only the Banker records that a player leaves the table.",
}
NOT_PLAYERS_ACT = (
    "In this game players only ask for their rent from their phones; ask the Banker to do this."
)
NOT_A_COMMAND = "A player's phone cannot send that; ask the Banker."
DISPLAY_READ_ONLY = "The display's token may only read the game; it cannot send anything."


def _players(state: dict) -> set[str]:
    return {p["id"] for p in state.get("players", [])}


def _named_player(field: str, sentence: str) -> Callable[[dict, str, dict], str | None]:
    """A check that the command's `field` names P (another player by id: refused)."""

    def check(state: dict, me: str, command: dict) -> str | None:
        named = command.get(field)
        if isinstance(named, str) and named != me and named in _players(state):
            return sentence
        return None

    return check


def _own_pending(item: str, whose: str, none: str, another: str):
    """A check that what is pending under `item` (the offer, the debt) is P's: its `whose`
    field names P. `none`: the sentence when nothing is pending; `another`: when not P's."""

    def check(state: dict, me: str, command: dict) -> str | None:
        pending = state["pending"].get(item)
        if not isinstance(pending, dict):
            return none
        if pending.get(whose) != me:
            return another
        return None

    return check


_own_offer = _own_pending(
    "offer",
    "player",
    "No property is on offer to you: there is nothing for you to buy or decline.",
    "That offer is another player's: only they (or the Banker) may answer it.",
)
_own_debt = _own_pending(
    "debt",
    "debtor",
    "You owe nothing now: there is no debt for you to pay.",
    "That debt is another player's: only they (or the Banker) may pay it.",
)


def _own_deed(state: dict, me: str, command: dict) -> str | None:
    deed = command.get("property")
    if not isinstance(deed, str) or deed not in state.get("properties", {}):
        return None  # malformed or unknown: the rules' 400
    if state["properties"][deed].get("owner") != me:
        return "That deed is not yours: you may build, sell, mortgage and lift only your own."
    return None


def _own_claim(state: dict, me: str, command: dict) -> str | None:
    for c in state["pending"].get("rent_claims", []):
        if c.get("id") == command.get("claim") and c.get("owner") != me:
            return "That rent is owed to another player: only they may ask for it."
    return None


def _trade_offer(sides: tuple[str, ...], sentence: str):
    def check(state: dict, me: str, command: dict) -> str | None:
        for o in state["pending"].get("trade_offers", []):
            if o.get("id") == command.get("offer") and all(o.get(s) != me for s in sides):
                return sentence
        return None

    return check


_PLAYER_CHECKS: dict[str, Callable[[dict, str, dict], str | None]] = {
    "buy": _own_offer,
    "auction": _own_offer,
    "bid": _named_player("player", "You may bid only for yourself."),
    "pay_jail_fine": _named_player("player", "You may pay only your own fine."),
    "use_jail_card": _named_player("player", "You may use only your own card."),
    "build": _own_deed,
    "sell_building": _own_deed,
    "mortgage": _own_deed,
    "unmortgage": _own_deed,
    "pay_debt": _own_debt,
    "claim_rent": _own_claim,
    "propose_trade": _named_player(
        "from", "You may propose a trade only from yourself: 'from' must be you."
    ),
    "accept_trade": _trade_offer(("to",), "Only the player the offer was made to may accept it."),
    "decline_trade": _trade_offer(
        ("from", "to"), "Only the two sides of an offer may decline or withdraw it."
    ),
}


def player_refusal(state: dict, player_id: str, command: dict) -> str | None:
    """Why `player_id`'s token may not send `command` in `state` (a sentence), or None.

    `state` is the game's state (internal or public). None does not mean the command is
    allowed by the rules: only that the token may send it, and the rules decide the rest.
    """
    kind = command.get("type") if isinstance(command, dict) else None
    if not isinstance(kind, str):
        return NOT_A_COMMAND
    if kind in BANKER_ONLY:
        return BANKER_ONLY[kind]
    check = _PLAYER_CHECKS.get(kind)
    if check is None:
        return NOT_A_COMMAND
    if kind != "claim_rent" and not state.get("options", {}).get("players_act", True):
        return NOT_PLAYERS_ACT
    return check(state, player_id, command)


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
