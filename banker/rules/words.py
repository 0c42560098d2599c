"""What the game waits for, in sentences: one list every page (the Banker's, a player's, the
display, the pause page's paper record) can show as it is. Pure; reads the state only."""

from __future__ import annotations

from .endgame import askable_claims, phase, phase_sentence
from .state import deck_name, deed_name, money, name
from .trades import describe_deal


def _item(item: str) -> str:
    return deed_name(item) if item not in ("house", "hotel") else f"one {item}"


def _one_at_a_time(s: dict) -> list[str]:
    p, out = s["pending"], []
    if p["offer"]:
        o = p["offer"]
        out.append(
            f"{name(s, o['player'])} may buy {deed_name(o['property'])} for {money(o['price'])} "
            "or put it up for auction."
        )
    if p["auction"]:
        a = p["auction"]
        high = (
            f"high bid {money(a['high_bid'])} by {name(s, a['high_bidder'])}"
            if a["high_bidder"]
            else "no bid yet (bids open at 10)"
        )
        out.append(f"The Banker is auctioning {_item(a['item'])}: {high}.")
    if p["auction_queue"]:
        queue = ", ".join(deed_name(x) for x in p["auction_queue"])
        out.append(f"Still to auction after that: {queue}.")
    if p["card"]:
        c = p["card"]
        out.append(f"{name(s, c['player'])} draws a {deck_name(c['deck'])} card.")
    if p["dice"]:
        d = p["dice"]
        out.append(
            f"{name(s, d['player'])} rolls the dice for the rent on {deed_name(d['property'])} "
            f"({d['multiplier']} times the roll)."
        )
    return out


def _owed(s: dict) -> list[str]:
    p, out = s["pending"], []
    if p["debt"]:
        d = p["debt"]
        out.append(
            f"{name(s, d['debtor'])} owes {name(s, d['creditor'])} {money(d['amount'])}: raise "
            "the cash and pay it, or go bankrupt."
        )
    for x in p["payments"]:
        out.append(f"Then {name(s, x['from'])} pays {name(s, x['to'])} {money(x['amount'])}.")
    for cl in askable_claims(s):
        out.append(
            f"{name(s, cl['owner'])} may ask {name(s, cl['payer'])} for {money(cl['amount'])} "
            f"rent on {deed_name(cl['property'])}."
        )
    for o in p["trade_offers"]:
        out.append(f"Trade offer {o['id']}: {describe_deal(s, o)}; {name(s, o['to'])} answers.")
    return out


def pending_in_words(s: dict) -> list[str]:
    """Every thing the table still has to settle, one sentence each, the phase first when the
    game is not simply going on ("Final round over: waiting for rent claims.")."""
    head = [phase_sentence(s)] if phase(s) != "playing" else []
    if s["status"] != "playing":
        return head
    return head + _one_at_a_time(s) + _owed(s)
