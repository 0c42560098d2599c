"""Trades between players: an agreed deal (`trade`), and offers waiting for an answer
(`propose_trade`, `accept_trade`, `decline_trade`, `pending.trade_offers`).

A deal is the schema's reading of a trade command: {"from", "to", "give", "receive",
"unmortgage"}, `give`/`receive` seen from `from`. An offer is a deal with an id ("o1", "o2"…,
never reused, even after an undo) that `to` may accept while it is still possible.
"""

from __future__ import annotations

from .board import DEEDS
from .errors import DomainError
from .holdings import color, receiving_cost, set_has_buildings, take_over_mortgages
from .state import active_player, deck_name, deed_name, event, money, name, require_playing

NOTHING = {"cash": 0, "properties": [], "jail_cards": []}
DEAL_FIELDS = ("from", "to", "give", "receive", "unmortgage")


def describe_side(side: dict) -> str:
    """What one side hands over, in words ("Vermont Avenue and 200", "nothing")."""
    parts = [deed_name(p) for p in side["properties"]]
    parts += [f"the {deck_name(d)} Get Out of Jail Free card" for d in side["jail_cards"]]
    if side["cash"]:
        parts.append(money(side["cash"]))
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def describe_deal(s: dict, deal: dict) -> str:
    """The deal in one sentence's words: "Ann gives Vermont Avenue to Bob for 200"."""
    return (
        f"{name(s, deal['from'])} gives {describe_side(deal['give'])} to "
        f"{name(s, deal['to'])} for {describe_side(deal['receive'])}"
    )


def _check_sides(s: dict, a: dict, b: dict, give: dict, get: dict) -> None:
    for giver, side in ((a, give), (b, get)):
        for prop in side["properties"]:
            if s["properties"][prop]["owner"] != giver["id"]:
                raise DomainError(f"{giver['name']} does not own {deed_name(prop)}.", "not_owner")
            if set_has_buildings(s, prop):
                raise DomainError(
                    f"Sell every building on the {color(DEEDS[prop].group)} streets "
                    f"before trading {deed_name(prop)}.",
                    "buildings_in_set",
                )
        for deck in side["jail_cards"]:
            if deck not in giver["jail_cards"]:
                raise DomainError(
                    f"{giver['name']} holds no {deck_name(deck)} Get Out of Jail Free card.",
                    "no_jail_card",
                )
        if giver["cash"] < side["cash"]:
            raise DomainError(
                f"{giver['name']} has only {money(giver['cash'])} in cash.", "insufficient_cash"
            )


def _check_mortgages(s: dict, a: dict, b: dict, deal: dict) -> None:
    give, get, lifted = deal["give"], deal["receive"], set(deal["unmortgage"])
    traded = set(give["properties"]) | set(get["properties"])
    for prop in deal["unmortgage"]:
        if prop not in traded or not s["properties"][prop]["mortgaged"]:
            raise DomainError(
                f"Only mortgaged deeds changing hands in this trade can be lifted; "
                f"{deed_name(prop)} is not one.",
                "wrong_unmortgage",
            )
    for receiver, side, cash_after in (
        (b, give, b["cash"] + give["cash"] - get["cash"]),
        (a, get, a["cash"] + get["cash"] - give["cash"]),
    ):
        lifting, fees = receiving_cost(s, side["properties"], lifted)
        if lifting + fees > cash_after:
            raise DomainError(
                f"{receiver['name']} would have {money(cash_after)} after the trade "
                f"but needs {money(lifting + fees)} for the received mortgages.",
                "insufficient_cash",
            )


def check_deal(s: dict, deal: dict) -> tuple[dict, dict]:
    """Raise the DomainError that refuses this deal now; else its two players."""
    require_playing(s)
    a, b = active_player(s, deal, "from"), active_player(s, deal, "to")
    give, get = deal["give"], deal["receive"]
    if a["id"] == b["id"]:
        raise DomainError("A player cannot trade with themselves.", "same_player")
    if give == get == NOTHING:
        raise DomainError("The trade exchanges nothing.", "empty_trade")
    if not (give["properties"] or give["jail_cards"] or get["properties"] or get["jail_cards"]):
        raise DomainError(
            "A trade must hand over a deed or a Get Out of Jail Free card: cash "
            "alone would be a loan or a gift, which the rules do not allow.",
            "cash_only_trade",
        )
    _check_sides(s, a, b, give, get)
    _check_mortgages(s, a, b, deal)
    return a, b


def trade_refusal(s: dict, deal: dict) -> DomainError | None:
    """Why this deal (a trade, or an open offer) cannot be carried out now, or None."""
    try:
        check_deal(s, deal)
    except DomainError as e:
        return e
    return None


def carry_out(s: dict, events: list, deal: dict) -> None:
    """Hand everything over together (check_deal has allowed it), then the mortgages."""
    a, b = check_deal(s, deal)
    give, get, lifted = deal["give"], deal["receive"], set(deal["unmortgage"])
    a["cash"] += get["cash"] - give["cash"]
    b["cash"] += give["cash"] - get["cash"]
    for giver, receiver, side in ((a, b, give), (b, a, get)):
        for prop in side["properties"]:
            s["properties"][prop]["owner"] = receiver["id"]
        for deck in side["jail_cards"]:
            giver["jail_cards"].remove(deck)
            receiver["jail_cards"].append(deck)
    event(
        s,
        events,
        "traded",
        f"{a['name']} traded {describe_side(give)} to {b['name']} for {describe_side(get)}.",
        **{"from": a["id"], "to": b["id"]},
    )
    take_over_mortgages(s, events, b["id"], give["properties"], lifted)
    take_over_mortgages(s, events, a["id"], get["properties"], lifted)


def cmd_trade(s: dict, events: list, c: dict) -> None:
    carry_out(s, events, c)


# --- offers -------------------------------------------------------------------------------


def find_offer(s: dict, offer_id: str) -> dict:
    for o in s["pending"]["trade_offers"]:
        if o["id"] == offer_id:
            return o
    raise DomainError(
        "That trade offer is not open: it was accepted, declined or withdrawn, or never made.",
        "no_such_offer",
    )


def cmd_propose_trade(s: dict, events: list, c: dict) -> None:
    check_deal(s, c)
    s["_offers"] += 1
    offer = {"id": f"o{s['_offers']}", **{k: c[k] for k in DEAL_FIELDS}}
    s["pending"]["trade_offers"].append(offer)
    event(
        s,
        events,
        "trade_offered",
        f"{name(s, c['from'])} offers {name(s, c['to'])} a trade: {describe_deal(s, c)}; "
        f"{name(s, c['to'])} may accept or decline.",
        offer=offer["id"],
        **{"from": c["from"], "to": c["to"]},
    )


def _answer_offer(s: dict, events: list, c: dict, kind: str, said) -> dict:
    """Take the open offer `c["offer"]` off the table with event `kind`, said(offer)."""
    require_playing(s)
    offer = find_offer(s, c["offer"])
    s["pending"]["trade_offers"].remove(offer)
    event(s, events, kind, said(offer), offer=offer["id"])
    return offer


def cmd_accept_trade(s: dict, events: list, c: dict) -> None:
    def said(o: dict) -> str:
        return f"{name(s, o['to'])} accepted {name(s, o['from'])}'s offer."

    offer = _answer_offer(s, events, c, "trade_accepted", said)
    carry_out(s, events, offer)  # if it refuses, nothing changed: the offer stays open


def cmd_decline_trade(s: dict, events: list, c: dict) -> None:
    def said(o: dict) -> str:
        return f"The offer is off (declined or withdrawn): {describe_deal(s, o)}."

    _answer_offer(s, events, c, "trade_declined", said)


def drop_offers_of(s: dict, events: list, pid: str) -> None:
    """An eliminated player's offers, made or received, disappear."""
    keep = []
    for o in s["pending"]["trade_offers"]:
        if pid in (o["from"], o["to"]):
            event(
                s,
                events,
                "trade_dropped",
                f"The offer is off, {name(s, pid)} being out of the game: {describe_deal(s, o)}.",
                offer=o["id"],
            )
        else:
            keep.append(o)
    s["pending"]["trade_offers"] = keep
