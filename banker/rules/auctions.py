"""Auctions: a declined or auctioned deed, a deed returned by a bankrupt player, and the Bank's
last houses or hotels when several players want them."""

from __future__ import annotations

from .board import DEEDS
from .errors import BadCommand, DomainError
from .holdings import build_refusal, building_refusal_anywhere, place
from .state import (
    active_player,
    deed_name,
    event,
    money,
    name,
    pay,
    player,
    require_ready,
    with_cash,
)


def open_auction(s: dict, events: list, item: str, why: str) -> None:
    s["pending"]["auction"] = {"item": item, "high_bid": 0, "high_bidder": None}
    what = deed_name(item) if item in DEEDS else f"one {item}"
    event(
        s,
        events,
        "auction_opened",
        f"{why}: the Banker auctions {what}; bids open at 10.",
        item=item,
    )


def cmd_auction(s: dict, events: list, c: dict) -> None:
    require_ready(s)
    offer = s["pending"]["offer"]
    if not offer:
        raise DomainError("No property is on offer to decline.", "no_offer")
    s["pending"]["offer"] = None
    open_auction(s, events, offer["property"], f"{name(s, offer['player'])} declined to buy")


def cmd_bid(s: dict, events: list, c: dict) -> None:

    p = active_player(s, c)
    amount = c["amount"]
    require_ready(s)
    a = s["pending"]["auction"]
    if not a:
        raise DomainError("No auction is open.", "no_auction")
    if a["high_bidder"] is None and amount < 10:
        raise DomainError("Bids open at 10.", "bid_too_low")
    if amount <= a["high_bid"]:
        raise DomainError(
            f"The high bid is {money(a['high_bid'])}: a bid must raise it by at least 1.",
            "bid_too_low",
        )
    if amount > p["cash"]:
        raise DomainError(
            with_cash(
                p,
                f"{p['name']} has only {money(p['cash'])} in cash and cannot bid {money(amount)}.",
                f"{p['name']} does not have {money(amount)} in cash to bid.",
            ),
            "insufficient_cash",
        )
    if a["item"] in ("house", "hotel"):
        why = building_refusal_anywhere(s, p["id"], a["item"])
        if why:
            raise DomainError(why, "cannot_place_building")
    a["high_bid"], a["high_bidder"] = amount, p["id"]
    event(s, events, "bid", f"{p['name']} bid {money(amount)}.", player=p["id"], amount=amount)


def cmd_close_auction(s: dict, events: list, c: dict) -> None:

    require_ready(s)
    a = s["pending"]["auction"]
    if not a:
        raise DomainError("No auction is open.", "no_auction")
    item, winner, bid = a["item"], a["high_bidder"], a["high_bid"]
    if item in ("house", "hotel"):
        if winner is None:
            s["pending"]["auction"] = None
            event(s, events, "auction_closed", f"Nobody bid: the {item} stays in the Bank.")
            return
        place_auctioned_building(s, events, winner, item, bid, c)
        s["pending"]["auction"] = None
        return
    s["pending"]["auction"] = None
    if winner is None:
        event(
            s,
            events,
            "auction_closed",
            f"Nobody bid: {deed_name(item)} stays with the Bank.",
            property=item,
        )
        return
    s["properties"][item]["owner"] = winner
    event(
        s,
        events,
        "auction_won",
        f"{name(s, winner)} won {deed_name(item)} at auction for {money(bid)}.",
        player=winner,
        property=item,
        amount=bid,
    )
    pay(s, events, winner, None, bid, "auction", f"auction of {deed_name(item)}")


def cmd_building_auction(s: dict, events: list, c: dict) -> None:
    require_ready(s)
    kind = c["kind"]
    if s["pending"]["auction"]:
        raise DomainError("Another auction is open: close it first.", "auction_pending")
    if s["bank"][kind + "s"] == 0:
        raise DomainError(f"The Bank has no {kind}s left to auction.", "no_supply")
    open_auction(s, events, kind, f"Several players want the Bank's last {kind}s")


def place_auctioned_building(
    s: dict, events: list, winner: str, kind: str, bid: int, c: dict
) -> None:
    if not any(
        st["owner"] == winner and build_refusal(s, prop, cost=bid, kind=kind) is None
        for prop, st in s["properties"].items()
    ):
        # "Only an otherwise legal building purchase can be completed": since the bid, the
        # supply, the winner's streets or cash have changed, and no street can take it now.
        event(
            s,
            events,
            "auction_closed",
            f"{name(s, winner)} can no longer legally place the "
            f"{kind} or pay {money(bid)} for it: no sale, the {kind} stays in the Bank.",
            player=winner,
            kind=kind,
        )
        return
    if c["property"] is None:
        raise BadCommand(
            f"Name the street where {name(s, winner)} places the {kind} ('property').",
            "missing_field",
        )
    prop = c["property"]
    if s["properties"][prop]["owner"] != winner:
        raise DomainError(
            f"{deed_name(prop)} is not {name(s, winner)}'s: the {kind} must go on "
            "one of the winner's streets.",
            "cannot_build",
        )
    why = build_refusal(s, prop, cost=bid, kind=kind)
    if why:
        raise DomainError(why, "cannot_build")
    player(s, winner)["cash"] -= bid
    place(s, prop, kind)
    event(
        s,
        events,
        "built",
        f"{name(s, winner)} won the {kind} at auction for {money(bid)} "
        f"and placed it on {deed_name(prop)}.",
        player=winner,
        property=prop,
        kind=kind,
    )
