"""Trades between players: an agreed deal (`trade`), and offers waiting for an answer
(`propose_trade`, `accept_trade`, `decline_trade`, `pending.trade_offers`).

A deal is the schema's reading of a trade command: {"from", "to", "give", "receive",
"unmortgage"}, `give`/`receive` seen from `from`. An offer is a deal with an id ("o1", "o2"…,
never reused, even after an undo) that `to` may accept while it is still possible. A player
has at most MAX_OPEN_OFFERS open as `from`. An offer never changes under its recipient: it is
withdrawn, with an event saying why, as soon as anything it names changes (a deed mortgaged or
lifted or changing hands, a building built on its color set, a Get Out of Jail Free card used or
changing hands), and when the game ends.
"""

from __future__ import annotations

from .board import DEEDS, GROUPS
from .errors import DomainError
from .holdings import color, level, receiving_cost, set_has_buildings, take_over_mortgages
from .state import (
    active_player,
    deck_name,
    deed_name,
    event,
    money,
    name,
    require_playing,
    with_cash,
)

NOTHING = {"cash": 0, "properties": [], "jail_cards": []}
MAX_OPEN_OFFERS = 5  # open offers per player as `from`
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


def _check_sides(s: dict, a: dict, b: dict, give: dict, get: dict, unseen: str | None) -> None:
    """Each side owns what it hands over and has the cash (not asked of `unseen`'s side)."""
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
        if giver["id"] != unseen and giver["cash"] < side["cash"]:
            raise DomainError(
                with_cash(
                    giver,
                    f"{giver['name']} has only {money(giver['cash'])} in cash.",
                    f"{giver['name']} does not have the {money(side['cash'])} in cash this "
                    "trade hands over.",
                ),
                "insufficient_cash",
            )


def _check_mortgages(s: dict, a: dict, b: dict, deal: dict, unseen: str | None) -> None:
    """What each receiver must pay at once for received mortgages (not asked of `unseen`)."""
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
        if receiver["id"] != unseen and lifting + fees > cash_after:
            raise DomainError(
                with_cash(
                    receiver,
                    f"{receiver['name']} would have {money(cash_after)} after the trade "
                    f"but needs {money(lifting + fees)} for the received mortgages.",
                    f"{receiver['name']} would not have the {money(lifting + fees)} the "
                    "received mortgages need after the trade.",
                ),
                "insufficient_cash",
            )


def check_deal(s: dict, deal: dict, proposing: bool = False) -> tuple[dict, dict]:
    """Raise the DomainError that refuses this deal now; else its two players.

    `proposing` with private_cash: the other side's cash is not checked (the cash they give,
    the lifts and fees they would pay at once), so that no refusal lets the proposer find it
    out by trying; `accept_trade` checks it, and tells the one accepting."""
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
    unseen = b["id"] if proposing and s["options"]["private_cash"] else None
    _check_sides(s, a, b, give, get, unseen)
    _check_mortgages(s, a, b, deal, unseen)
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


def offers_refusal(s: dict, pid: str) -> DomainError | None:
    """Why pid may not open another offer now (MAX_OPEN_OFFERS already open), or None."""
    mine = [o for o in s["pending"]["trade_offers"] if o["from"] == pid]
    if len(mine) < MAX_OPEN_OFFERS:
        return None
    return DomainError(
        f"{name(s, pid)} already has {MAX_OPEN_OFFERS} offers open: withdraw one (or wait for an "
        "answer) before offering another.",
        "too_many_offers",
    )


def propose_refusal(s: dict, c: dict) -> DomainError | None:
    """Why the offer `c` may not be made now, or None: cmd_propose_trade's every check."""
    try:
        require_playing(s)
        refusal = offers_refusal(s, c["from"])
        if refusal:
            return refusal
        check_deal(s, c, proposing=True)
    except DomainError as e:
        return e
    return None


def cmd_propose_trade(s: dict, events: list, c: dict) -> None:
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
        if c.get("by") == o["from"]:
            return f"{name(s, o['from'])} withdrew their offer to {name(s, o['to'])}: " + (
                f"{describe_deal(s, o)}."
            )
        return f"{name(s, o['to'])} declined {name(s, o['from'])}'s offer: {describe_deal(s, o)}."

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


def offer_off(s: dict, events: list, o: dict, why: str) -> None:
    """Withdraw open offer `o`, the event saying why: "The offer of Ann to Bob is off: …"."""
    s["pending"]["trade_offers"].remove(o)
    event(
        s,
        events,
        "trade_withdrawn",
        f"The offer of {name(s, o['from'])} to {name(s, o['to'])} is off: {why}.",
        offer=o["id"],
        reason=why,
        **{"from": o["from"], "to": o["to"]},
    )


def withdraw_all_offers(s: dict, events: list, why: str) -> None:
    """The game ends: every open offer is withdrawn."""
    for o in list(s["pending"]["trade_offers"]):
        offer_off(s, events, o, why)


def _deed_change(before: dict, s: dict, prop: str) -> str | None:
    """What changed about a deed between two states (owner, mortgage, buildings on its color
    set), in words, or None."""
    was, now = before["properties"][prop], s["properties"][prop]
    deed = deed_name(prop)
    if was["owner"] != now["owner"]:
        owner = now["owner"]
        return f"{deed} went to {name(s, owner)}" if owner else f"{deed} went back to the Bank"
    if was["mortgaged"] != now["mortgaged"]:
        return f"{deed} was mortgaged" if now["mortgaged"] else f"the mortgage on {deed} was lifted"
    for street in GROUPS[DEEDS[prop].group]:
        if level(s["properties"][street]) > level(before["properties"][street]):
            kind = "hotel" if s["properties"][street]["hotel"] else "house"
            return f"a {kind} was built on {deed_name(street)}"
    return None


def _card_change(before: dict, s: dict, deck: str, kind: str) -> str | None:
    """What happened to a deck's Get Out of Jail Free card between two states, or None."""
    holders = [
        next((p["id"] for p in state["players"] if deck in p["jail_cards"]), None)
        for state in (before, s)
    ]
    if holders[0] == holders[1]:
        return None
    card = f"the {deck_name(deck)} Get Out of Jail Free card"
    if holders[1] is not None:
        return f"{card} went to {name(s, holders[1])}"
    return f"{card} was used" if kind == "use_jail_card" else f"{card} went back to its deck"


def withdraw_changed_offers(before: dict, s: dict, events: list, kind: str) -> None:
    """After command `kind` changed `before` into `s`: withdraw each offer (open before and
    after) naming something that changed, with the first such change as the reason."""
    was_open = {o["id"] for o in before["pending"]["trade_offers"]}
    for o in [o for o in s["pending"]["trade_offers"] if o["id"] in was_open]:
        sides = (o["give"], o["receive"])
        changes = [_deed_change(before, s, p) for side in sides for p in side["properties"]]
        changes += [_card_change(before, s, d, kind) for side in sides for d in side["jail_cards"]]
        why = next((x for x in changes if x), None)
        if why:
            offer_off(s, events, o, why)
