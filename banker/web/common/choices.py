"""The choices a step the table has to settle gives: an auction's bidders and their quick
raises, a debtor's ways to raise the cash, a jailed turn's ways out. The Banker's table and the
player's own page show them alike; why a choice is not possible comes from the core.
"""

from __future__ import annotations

from banker.rules import bankruptcy_refusal, building_refusal_anywhere
from banker.rules.board import DECK_NAMES, DEED_IDS, DEEDS, JAIL_FINE
from banker.web.common.deeds import holdings_of
from banker.web.common.present import money, player_names, players


def bidders(state: dict) -> list[dict]:
    """Everyone still in, with the quick raises and, for a building, why they cannot bid."""
    a = state["pending"]["auction"]
    base = a["high_bid"]
    out = []
    for p in players(state):
        if p["eliminated"]:
            continue
        why = None
        if a["item"] in ("house", "hotel"):
            why = building_refusal_anywhere(state, p["id"], a["item"])
        if a["high_bidder"] is None:  # bids open at 10: offer the opening amounts themselves
            raises = [{"label": str(n), "amount": n} for n in (10, 20, 50)]
        else:
            raises = [{"label": f"+{n}", "amount": base + n} for n in (1, 10, 50)]
        # Only the raises this bidder can pay: a bid above the cash would be refused.
        cash = p["cash"]
        raises = [r for r in raises if cash is None or r["amount"] <= cash]
        leading = a["high_bidder"] == p["id"]
        if why is None and not leading and cash is not None and cash <= base:
            why = f"{p['name']} has {money(cash)}: not enough to raise the bid."
        out.append({**p, "why": why, "raises": raises, "leading": leading})
    return out


def debt(state: dict) -> dict | None:
    """The debt open now, with the debtor's cash, deeds and whether bankruptcy is allowed."""
    d = state["pending"]["debt"]
    if not d:
        return None
    names = player_names(state)
    debtor = next(p for p in state["players"] if p["id"] == d["debtor"])
    return {
        **d,
        "debtor_name": names[d["debtor"]],
        "creditor_name": "the Bank" if d["creditor"] is None else names[d["creditor"]],
        "cash": debtor["cash"],
        "covered": debtor["cash"] >= d["amount"],
        "may_go_bankrupt": bankruptcy_refusal(state, d["debtor"]) is None,
        "groups": holdings_of(state, d["debtor"]),
        "mortgaged_deeds": [
            {"id": p, "name": DEEDS[p].name}
            for p in DEED_IDS
            if state["properties"][p]["owner"] == d["debtor"]
        ],
    }


def jail_choices(state: dict) -> dict | None:
    """At the start of a jailed turn: pay the fine, use a card, or roll for doubles."""
    pid = state["turn"]["player"]
    if pid is None:
        return None
    p = next(x for x in state["players"] if x["id"] == pid)
    if not p["in_jail"]:
        return None
    return {
        "player": p,
        "fine": JAIL_FINE,
        "cards": [{"deck": d, "name": DECK_NAMES[d]} for d in p["jail_cards"]],
        "attempt": p["jail_attempts"] + 1,
    }
