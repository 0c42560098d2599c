"""Debts: paying a pending debt, and bankruptcy (a player out of the game)."""

from __future__ import annotations

from .board import DEED_IDS, DEEDS
from .errors import DomainError
from .holdings import (
    bankruptcy_refusal,
    building_value,
    names_of,
    receiving_cost,
    take_over_mortgages,
)
from .state import (
    active_player,
    deed_name,
    event,
    money,
    next_player,
    pay,
    player,
    require_playing,
    with_cash,
)
from .trades import drop_offers_of
from .turn import end_turn


def cmd_pay_debt(s: dict, events: list, c: dict) -> None:
    require_playing(s)
    d = s["pending"]["debt"]
    if not d:
        raise DomainError("Nobody owes a debt right now.", "no_debt")
    p = player(s, d["debtor"])
    if p["cash"] < d["amount"]:
        raise DomainError(
            with_cash(
                p,
                f"{p['name']} has {money(p['cash'])} of the {money(d['amount'])} owed: "
                "raise more by selling buildings, mortgaging or trading.",
                f"{p['name']} does not have the {money(d['amount'])} owed yet: "
                "raise more by selling buildings, mortgaging or trading.",
            ),
            "insufficient_cash",
        )
    s["pending"]["debt"] = None
    pay(s, events, d["debtor"], d["creditor"], d["amount"], d["reason"], "debt settled")


def _liquidate(s: dict, p: dict, deeds: list[str]) -> None:
    """The core sells every building and mortgages every deed; the proceeds pass on."""
    for prop in deeds:
        st = s["properties"][prop]
        p["cash"] += building_value(prop, st)
        if st["hotel"]:
            s["bank"]["hotels"] += 1
        s["bank"]["houses"] += st["houses"]
        st["houses"], st["hotel"] = 0, False
        if not st["mortgaged"]:
            st["mortgaged"] = True
            p["cash"] += DEEDS[prop].mortgage_value


def cmd_bankrupt(s: dict, events: list, c: dict) -> None:
    require_playing(s)
    p = active_player(s, c)
    lifted = set(c["unmortgage"])
    refusal = bankruptcy_refusal(s, p["id"])
    if refusal:
        raise refusal
    pid, creditor = p["id"], s["pending"]["debt"]["creditor"]
    deeds = [prop for prop in DEED_IDS if s["properties"][prop]["owner"] == pid]
    for prop in lifted:
        if prop not in deeds:
            raise DomainError(
                f"{deed_name(prop)} is not among {p['name']}'s deeds.", "wrong_unmortgage"
            )
    if lifted and creditor is None:
        raise DomainError(
            "Deeds returned to the Bank come back unmortgaged anyway.", "wrong_unmortgage"
        )
    _liquidate(s, p, deeds)
    if creditor is not None:
        c_player = player(s, creditor)
        lifting, _ = receiving_cost(s, deeds, lifted)
        if lifting > c_player["cash"] + p["cash"]:
            raise DomainError(
                f"{c_player['name']} cannot afford {money(lifting)} to lift those mortgages now.",
                "insufficient_cash",
            )
    s["pending"]["debt"] = None
    s["_after_debt"] = None
    if creditor is None:
        _to_the_bank(s, events, p, deeds)
    else:
        _to_a_player(s, events, p, creditor, deeds)
    eliminate(s, events, pid)
    if creditor is not None:
        take_over_mortgages(s, events, creditor, deeds, lifted)


def _to_the_bank(s: dict, events: list, p: dict, deeds: list[str]) -> None:
    cash = p["cash"]
    p["cash"], p["jail_cards"] = 0, []
    what = f"{money(cash)} in cash goes to the Bank" if cash else "nothing in cash"
    for prop in deeds:
        s["properties"][prop].update(owner=None, mortgaged=False)

    def said(what: str) -> str:
        return (
            f"{p['name']} is bankrupt to the Bank and out of the game: {what}; the deeds return "
            "unmortgaged and are auctioned; jail cards go back to their decks."
        )

    # The cash a bankrupt hands over is an amount changing hands: public, private_cash or not.
    event(s, events, "bankrupt", said(what), player=p["id"])
    s["pending"]["auction_queue"] = s["pending"]["auction_queue"] + deeds


def _what_passes(cash: str, deeds: list[str], cards: list) -> str:
    """What the creditor receives. Every deed passes mortgaged (the core mortgaged them) and the
    sentence says so of each: "655, the Get Out of Jail Free cards and 2 deeds, both mortgaged:
    Reading Railroad and Electric Company", not "(mortgaged)" after the last name only."""
    jail_cards = "the Get Out of Jail Free cards"
    if len(deeds) <= 1:
        one = f", {names_of(deeds)} (mortgaged)" if deeds else ""
        return f"{cash}{one}{' and ' + jail_cards if cards else ''}"
    things = [cash] + ([jail_cards] if cards else [])
    every = "both" if len(deeds) == 2 else "all"
    things.append(f"{len(deeds)} deeds, {every} mortgaged: {names_of(deeds)}")
    return ", ".join(things[:-1]) + " and " + things[-1]


def _to_a_player(s: dict, events: list, p: dict, creditor: str, deeds: list[str]) -> None:
    cash, cards = p["cash"], list(p["jail_cards"])
    p["cash"], p["jail_cards"] = 0, []
    c_player = player(s, creditor)
    c_player["cash"] += cash
    c_player["jail_cards"] += cards
    for prop in deeds:
        s["properties"][prop]["owner"] = creditor

    def said(cash: str) -> str:
        passes = _what_passes(cash, deeds, cards)
        return f"{p['name']} is bankrupt and out of the game: {c_player['name']} receives {passes}."

    event(
        s,
        events,
        "bankrupt",
        said(money(cash)),  # an amount changing hands: public, private_cash or not
        player=p["id"],
        creditor=creditor,
    )


def eliminate(s: dict, events: list, pid: str) -> None:
    p = player(s, pid)
    p.update(eliminated=True, in_jail=False, jail_attempts=0)
    pending = s["pending"]
    for cl in [cl for cl in pending["rent_claims"] if pid in (cl["owner"], cl["payer"])]:
        pending["rent_claims"].remove(cl)  # a claim whose payer (or owner) is out lapses
        event(
            s,
            events,
            "rent_lapsed",
            f"The {money(cl['amount'])} rent on {deed_name(cl['property'])} lapses: "
            f"{p['name']} is out of the game.",
            claim=cl["id"],
        )
    pending["payments"] = [x for x in pending["payments"] if pid not in (x["from"], x["to"])]
    for key in ("offer", "card", "dice"):
        if pending[key] and pending[key]["player"] == pid:
            pending[key] = None
    a = pending["auction"]
    if a and a["high_bidder"] == pid:
        a["high_bid"], a["high_bidder"] = 0, None
    drop_offers_of(s, events, pid)
    if s["turn"]["first"] == pid:
        s["turn"]["first"] = next_player(s, pid)
    end_turn(s, pid)
