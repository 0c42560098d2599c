"""The choices a step the table has to settle gives: an auction's bidders and their quick
raises, a debtor's ways to raise the cash, a jailed turn's ways out. The Banker's table and the
player's own page show them alike; whether a choice may be made now, and why not, is the core's
answer for the seat looking (banker.web.common.may).
"""

from __future__ import annotations

from banker.rules.board import DECK_NAMES, DEED_IDS, DEEDS, JAIL_FINE
from banker.web.common.deeds import holdings_of
from banker.web.common.may import May
from banker.web.common.present import player_names, players


def bidders(state: dict, may: May) -> list[dict]:
    """Everyone still in, with the quick raises they may bid now and, when they may not bid,
    the core's sentence why."""
    a = state["pending"]["auction"]
    base = a["high_bid"]
    out = []
    for p in players(state):
        if p["eliminated"]:
            continue
        if a["high_bidder"] is None:  # bids open at 10: offer the opening amounts themselves
            raises = [{"label": str(n), "amount": n} for n in (10, 20, 50)]
        else:
            raises = [{"label": f"+{n}", "amount": base + n} for n in (1, 10, 50)]
        why = may.why("bid", player=p["id"])
        span = may.free("bid", player=p["id"]).get("amount", {"min": 0, "max": -1})
        raises = [r for r in raises if span["min"] <= r["amount"] <= span["max"]]
        leading = a["high_bidder"] == p["id"]
        out.append({**p, "why": why, "raises": raises, "leading": leading})
    return out


def debt(state: dict, may: May) -> dict | None:
    """The debt open now: the debtor's cash and deeds (each with what `may`'s seat may do on
    it), whether Pay and bankruptcy may be sent now, and why not."""
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
        "pay_why": may.why("pay_debt"),
        "may_go_bankrupt": may.allowed("bankrupt", player=d["debtor"]),
        "groups": holdings_of(state, d["debtor"], may=may),
        "mortgaged_deeds": [
            {"id": p, "name": DEEDS[p].name}
            for p in DEED_IDS
            if state["properties"][p]["owner"] == d["debtor"]
        ],
    }


def jail_choices(state: dict, may: May) -> dict | None:
    """At the start of a jailed turn: pay the fine or use a card (each with why not, when
    `may`'s seat may not now), or roll for doubles."""
    pid = state["turn"]["player"]
    if pid is None:
        return None
    p = next(x for x in state["players"] if x["id"] == pid)
    if not p["in_jail"]:
        return None
    return {
        "player": p,
        "fine": JAIL_FINE,
        "fine_why": may.why("pay_jail_fine", player=pid),
        "cards": [
            {"deck": d, "name": DECK_NAMES[d]}
            for d in p["jail_cards"]
            if may.allowed("use_jail_card", player=pid, deck=d)
        ],
        "attempt": p["jail_attempts"] + 1,
    }
