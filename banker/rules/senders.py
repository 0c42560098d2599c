"""What a player's token may send for its own player P: each check says why a command is not
P's own (a sentence), or None. Declared with each command (rules/schema.py's `players=`);
rules/permissions.py asks them.

A check says nothing (None) when the command's fields that decide it are missing or
malformed, or its claim or trade-offer id is not open: the rules then answer exactly as they
would the Banker (400 malformed, 422 forbidden).

Pure: standard library only, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable

Check = Callable[[dict, str, dict], "str | None"]


def _players(state: dict) -> set[str]:
    return {p["id"] for p in state.get("players", [])}


def named_player(field: str, sentence: str) -> Callable[[dict, str, dict], str | None]:
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


own_offer = _own_pending(
    "offer",
    "player",
    "No property is on offer to you: there is nothing for you to buy or decline.",
    "That offer is another player's: only they (or the Banker) may answer it.",
)
own_debt = _own_pending(
    "debt",
    "debtor",
    "You owe nothing now: there is no debt for you to pay.",
    "That debt is another player's: only they (or the Banker) may pay it.",
)


def own_deed(state: dict, me: str, command: dict) -> str | None:
    deed = command.get("property")
    if not isinstance(deed, str) or deed not in state.get("properties", {}):
        return None  # malformed or unknown: the rules' 400
    if state["properties"][deed].get("owner") != me:
        return "That deed is not yours: you may build, sell, mortgage and lift only your own."
    return None


def own_claim(state: dict, me: str, command: dict) -> str | None:
    for c in state["pending"].get("rent_claims", []):
        if c.get("id") == command.get("claim") and c.get("owner") != me:
            return "That rent is owed to another player: only they may ask for it."
    return None


def trade_offer(sides: tuple[str, ...], sentence: str):
    def check(state: dict, me: str, command: dict) -> str | None:
        for o in state["pending"].get("trade_offers", []):
            if o.get("id") == command.get("offer") and all(o.get(s) != me for s in sides):
                return sentence
        return None

    return check
