"""What only the Banker's screens show, read from the state with the core's own functions: a
player's sheet, where a won building may go, the rent claims, what blocks the next roll. (What
a player's page shows too is in banker.web.common: deeds, choices, trade, present.)

No rule is decided here: what the Banker may press now, and why not, is the core's answer
(banker.web.common.may).
"""

from __future__ import annotations

from banker.rules import can_raise, score
from banker.rules.board import DECK_NAMES, DEED_IDS, DEEDS, SPACES
from banker.web.common.deeds import holdings_of
from banker.web.common.may import May
from banker.web.common.present import money, player_names, where


def space_names() -> list[tuple[int, str]]:
    """Every space's number and printed name, in board order."""
    return [(s.index, s.name) for s in SPACES]


def sheet(state: dict, pid: str, may: May) -> dict:
    """A player's sheet: where they stand, their deeds by color set (with what the Banker may
    do on each now), net worth, jail cards."""
    p = next(x for x in state["players"] if x["id"] == pid)
    return {
        "player": p,
        "where": where(p),
        "groups": holdings_of(state, pid, may=may),
        "net_worth": score(state, pid),
        "can_raise": can_raise(state, pid),
        "jail_cards": [DECK_NAMES[d] for d in p["jail_cards"]],
    }


def placements(state: dict, may: May) -> list[dict]:
    """Where the winner of a building auction may place it now (the core's close_auction)."""
    a = state["pending"]["auction"]
    if a["high_bidder"] is None:
        return []
    return [
        {"id": prop, "name": DEEDS[prop].name}
        for prop in DEED_IDS
        if may.allowed("close_auction", property=prop)
    ]


def claims(state: dict, may: May) -> list[dict]:
    """The open rent claims, each with its sentence and, when it may not be asked now, why."""
    names = player_names(state)
    return [
        {
            **c,
            "text": f"{names[c['owner']]} may ask {names[c['payer']]} for {money(c['amount'])} "
            f"({DEEDS[c['property']].name})",
            "why": may.why("claim_rent", claim=c["id"]),
        }
        for c in state["pending"]["rent_claims"]
    ]


def blocking(state: dict) -> str | None:
    """What the table must settle before the next roll, if anything, in the core's order."""
    p = state["pending"]
    for key in ("debt", "offer", "auction", "card", "dice"):
        if p[key]:
            return key
    return None
