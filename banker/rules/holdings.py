"""What players hold: building, selling, mortgages, taking over mortgaged deeds, the score,
what could still be raised, and whether bankruptcy is allowed."""

from __future__ import annotations

from .board import DEED_IDS, DEEDS, GROUPS
from .errors import DomainError
from .state import (
    clone,
    deed_name,
    event,
    money,
    name,
    pay,
    player,
    require_no_debt,
    require_playing,
    with_cash,
)

# --- reading the board --------------------------------------------------------------------


def level(st: dict) -> int:
    """Buildings on a street, a hotel counting as five houses."""
    return 5 if st["hotel"] else st["houses"]


def color(group: str) -> str:
    return group.replace("_", " ")


def names_of(ids) -> str:
    names = [deed_name(i) for i in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def building_value(prop: str, st: dict) -> int:
    """Half of what the buildings on a street cost (a hotel includes its four houses)."""
    d = DEEDS[prop]
    if st["hotel"]:
        return (d.hotel_cost + 4 * d.house_cost) // 2
    return st["houses"] * d.house_cost // 2


def set_has_buildings(s: dict, prop: str) -> bool:
    return any(level(s["properties"][d]) for d in GROUPS[DEEDS[prop].group])


def can_raise(s: dict, pid: str) -> int:
    """Cash a player could still raise by selling their buildings and mortgaging their deeds.

    Played out on a copy, because a hotel comes back only while the Bank has four houses (or
    under the g0009 ruling): houses go first, as each one sold refills the Bank.
    """
    t = clone(s)
    mine = [prop for prop in DEED_IDS if t["properties"][prop]["owner"] == pid]
    while True:
        sellable = [prop for prop in mine if sell_refusal(t, prop) is None]
        if not sellable:
            break
        prop = min(sellable, key=lambda x: t["properties"][x]["hotel"])
        sell_one(t, [], prop)
    total = player(t, pid)["cash"] - player(s, pid)["cash"]
    for prop in mine:
        if mortgage_refusal(t, prop) is None:
            total += DEEDS[prop].mortgage_value
    return total


def score(s: dict, pid: str) -> int:
    """The agreed-deadline score: cash, deeds at price or mortgage value, buildings at half."""
    total = player(s, pid)["cash"]
    for prop, st in s["properties"].items():
        if st["owner"] == pid:
            d = DEEDS[prop]
            total += d.mortgage_value if st["mortgaged"] else d.price
            total += building_value(prop, st)
    return total


# --- building -----------------------------------------------------------------------------


def build_refusal(
    s: dict, prop: str, cost: int | None = None, kind: str | None = None
) -> str | None:
    """Why the next building cannot go on prop now, or None when it can."""
    d, st = DEEDS[prop], s["properties"][prop]
    if d.kind != "street":
        return f"{d.name} is a {d.kind}: railroads and utilities take no buildings."
    owner = st["owner"]
    if owner is None:
        return f"Nobody owns {d.name}."
    group = GROUPS[d.group]
    missing = [g for g in group if s["properties"][g]["owner"] != owner]
    if missing:
        return (
            f"{name(s, owner)} must own every {color(d.group)} street to build; "
            f"{names_of(missing)} {'is' if len(missing) == 1 else 'are'} not theirs."
        )
    mortgaged = [g for g in group if s["properties"][g]["mortgaged"]]
    if mortgaged:
        return (
            f"{names_of(mortgaged)} {'is' if len(mortgaged) == 1 else 'are'} mortgaged: no "
            f"building on a color set with a mortgaged street."
        )
    if st["hotel"]:
        return f"{d.name} has a hotel, the most a street can hold."
    low = min(level(s["properties"][g]) for g in group)
    if level(st) > low:
        lowest = next(g for g in group if level(s["properties"][g]) == low)
        return f"Build evenly: {deed_name(lowest)} has fewer houses."
    nxt = "hotel" if st["houses"] == 4 else "house"
    if kind and kind != nxt:
        return f"{d.name} is ready for a {nxt}, not a {kind}."
    if s["bank"][nxt + "s"] == 0:
        return f"The Bank has no {nxt}s left: wait until some come back."
    price = cost if cost is not None else (d.hotel_cost if nxt == "hotel" else d.house_cost)
    p = player(s, owner)
    if p["cash"] < price:
        return with_cash(
            p,
            f"{p['name']} has {money(p['cash'])}; a {nxt} on {d.name} costs {money(price)}.",
            f"{p['name']} does not have the {money(price)} a {nxt} on {d.name} costs.",
        )
    return None


def building_refusal_anywhere(s: dict, pid: str, kind: str) -> str | None:
    """Why pid could not place a building of that kind anywhere (cash aside), or None."""
    for prop, st in s["properties"].items():
        if st["owner"] == pid and build_refusal(s, prop, cost=0, kind=kind) is None:
            return None
    return f"{name(s, pid)} has no street where a {kind} could legally go, so cannot bid for it."


def place(s: dict, prop: str, kind: str) -> None:
    st, bank = s["properties"][prop], s["bank"]
    if kind == "hotel":
        st["houses"], st["hotel"] = 0, True
        bank["hotels"] -= 1
        bank["houses"] += 4
    else:
        st["houses"] += 1
        bank["houses"] -= 1


def deed_command_refusal(s: dict, kind: str, prop: str) -> DomainError | None:
    """Why `build`, `sell_building`, `mortgage` or `unmortgage` (`kind`) on prop is refused
    now, or None: the handler's whole check, which rules.actions asks without applying it."""
    try:
        require_playing(s)
        if kind in ("build", "unmortgage"):
            require_no_debt(s)  # no spending on buildings or mortgages while a debt waits
    except DomainError as e:
        return e
    auction = s["pending"]["auction"]
    if kind == "build" and auction and auction["item"] in ("house", "hotel"):
        # The auctioned building is on the block: buying past it could leave none to place.
        return DomainError(
            f"The Banker is auctioning a {auction['item']}: close that auction first.",
            "auction_pending",
        )
    refusal, code = _DEED_REFUSALS[kind]
    why = refusal(s, prop)
    return DomainError(why, code) if why else None


def deed_refusal(s: dict, c: dict) -> DomainError | None:
    """deed_command_refusal of a read deed command (rules/schema.py's `refusal=`)."""
    return deed_command_refusal(s, c["type"], c["property"])


def deed_event(s: dict, events: list, type_: str, prop: str, did: str, **data) -> None:
    """An event about one deed, said of its owner: "<owner> <did>" (built, sold, mortgaged,
    lifted)."""
    owner = s["properties"][prop]["owner"]
    text = f"{name(s, owner)} {did}"
    event(s, events, type_, text, player=owner, property=prop, **data)


def cmd_build(s: dict, events: list, c: dict) -> None:
    prop = c["property"]
    d, st = DEEDS[prop], s["properties"][prop]
    kind = "hotel" if st["houses"] == 4 else "house"
    cost = d.hotel_cost if kind == "hotel" else d.house_cost
    player(s, st["owner"])["cash"] -= cost
    place(s, prop, kind)
    extra = ", returning its four houses to the Bank" if kind == "hotel" else ""
    deed_event(
        s, events, "built", prop, f"built a {kind} on {d.name} for {money(cost)}{extra}.", kind=kind
    )


def sell_refusal(s: dict, prop: str) -> str | None:
    d, st = DEEDS[prop], s["properties"][prop]
    if d.kind != "street" or level(st) == 0:
        return f"There are no buildings on {d.name}."
    group = GROUPS[d.group]
    high = max(level(s["properties"][g]) for g in group)
    if level(st) < high:
        highest = next(g for g in group if level(s["properties"][g]) == high)
        return f"Sell evenly: {deed_name(highest)} has more buildings."
    if st["hotel"] and s["bank"]["houses"] < 4 and not ruling_applies(s):
        return (
            f"The Bank has only {s['bank']['houses']} houses: a hotel sold comes back as four "
            "houses, so it cannot be sold now."
        )
    return None


def ruling_applies(s: dict) -> bool:
    return s["edition"] == "g0009" and s["options"]["hotel_shortage_ruling"]


def cmd_sell_building(s: dict, events: list, c: dict) -> None:
    sell_one(s, events, c["property"])


def sell_one(s: dict, events: list, prop: str) -> None:
    """Sell the next building on prop back to the Bank (sell_refusal has allowed it)."""
    d, st, bank = DEEDS[prop], s["properties"][prop], s["bank"]
    owner = player(s, st["owner"])
    if st["hotel"] and bank["houses"] < 4:
        sell_hotel_under_ruling(s, events, prop)
        return
    if st["hotel"]:
        st["hotel"], st["houses"] = False, 4
        bank["hotels"] += 1
        bank["houses"] -= 4
        refund, what = d.hotel_cost // 2, "the hotel (it comes back as four houses)"
    else:
        st["houses"] -= 1
        bank["houses"] += 1
        refund, what = d.house_cost // 2, "a house"
    owner["cash"] += refund
    deed_event(
        s,
        events,
        "sold_building",
        prop,
        f"sold {what} on {d.name} back to the Bank for {money(refund)}.",
    )


def sell_hotel_under_ruling(s: dict, events: list, prop: str) -> None:
    """The guide's house ruling for a hotel sold when the Bank has fewer than four houses."""
    d, st, bank = DEEDS[prop], s["properties"][prop], s["bank"]
    owner = player(s, st["owner"])
    refund = (d.hotel_cost + 4 * d.house_cost) // 2
    st["hotel"], st["houses"] = False, 0
    bank["hotels"] += 1
    others = [g for g in GROUPS[d.group] if g != prop]
    for g in sorted(others, key=lambda g: s["properties"][g]["hotel"]):  # houses first
        o, od = s["properties"][g], DEEDS[g]
        if o["hotel"]:
            bank["hotels"] += 1
            o["hotel"] = False
            if bank["houses"] >= 1:
                o["houses"] = 1
                bank["houses"] -= 1
                refund += (od.hotel_cost + 3 * od.house_cost) // 2
            else:
                refund += (od.hotel_cost + 4 * od.house_cost) // 2
        elif o["houses"] > 1:
            n = o["houses"] - 1
            o["houses"] = 1
            bank["houses"] += n
            refund += n * od.house_cost // 2
    owner["cash"] += refund
    deed_event(
        s,
        events,
        "sold_building",
        prop,
        f"sold the whole hotel development on {d.name} back to the Bank "
        f"(the Bank lacked four houses; the {color(d.group)} set sold down evenly) for "
        f"{money(refund)}.",
    )


# --- mortgages ----------------------------------------------------------------------------


def mortgage_refusal(s: dict, prop: str) -> str | None:
    d, st = DEEDS[prop], s["properties"][prop]
    if st["owner"] is None:
        return f"Nobody owns {d.name}."
    if st["mortgaged"]:
        return f"{d.name} is already mortgaged."
    if d.kind == "street" and set_has_buildings(s, prop):
        return f"Sell every building on the {color(d.group)} streets before mortgaging {d.name}."
    return None


def unmortgage_refusal(s: dict, prop: str) -> str | None:
    d, st = DEEDS[prop], s["properties"][prop]
    if not st["mortgaged"]:
        return f"{d.name} is not mortgaged."
    cost = d.lift_cost(s["edition"])
    p = player(s, st["owner"])
    if p["cash"] < cost:
        return with_cash(
            p,
            f"{p['name']} has {money(p['cash'])}; lifting {d.name} costs {money(cost)}.",
            f"{p['name']} does not have the {money(cost)} lifting {d.name} costs.",
        )
    return None


def cmd_mortgage(s: dict, events: list, c: dict) -> None:
    prop = c["property"]
    d, st = DEEDS[prop], s["properties"][prop]
    st["mortgaged"] = True
    player(s, st["owner"])["cash"] += d.mortgage_value
    deed_event(s, events, "mortgaged", prop, f"mortgaged {d.name} for {money(d.mortgage_value)}.")


def lift(s: dict, events: list, prop: str) -> None:
    d, st = DEEDS[prop], s["properties"][prop]
    cost = d.lift_cost(s["edition"])
    player(s, st["owner"])["cash"] -= cost
    st["mortgaged"] = False
    deed_event(
        s, events, "unmortgaged", prop, f"lifted the mortgage on {d.name} for {money(cost)}."
    )


def cmd_unmortgage(s: dict, events: list, c: dict) -> None:
    lift(s, events, c["property"])


_DEED_REFUSALS = {
    "build": (build_refusal, "cannot_build"),
    "sell_building": (sell_refusal, "cannot_sell"),
    "mortgage": (mortgage_refusal, "cannot_mortgage"),
    "unmortgage": (unmortgage_refusal, "cannot_unmortgage"),
}


# --- receiving mortgaged deeds (trade and bankruptcy) -------------------------------------


def receiving_cost(s: dict, received: list[str], lifted: set[str]) -> tuple[int, int]:
    """(cost of lifting the chosen deeds now, classic's 10% fees on the rest)."""
    lifting = fees = 0
    for prop in received:
        if s["properties"][prop]["mortgaged"]:
            d = DEEDS[prop]
            if prop in lifted:
                lifting += d.lift_cost(s["edition"])
            elif s["edition"] == "classic":
                fees += d.mortgage_value // 10 + (d.mortgage_value % 10 > 0)
    return lifting, fees


def take_over_mortgages(
    s: dict, events: list, pid: str, received: list[str], lifted: set[str]
) -> None:
    """The new owner lifts the chosen mortgaged deeds; classic charges 10% on the rest."""
    fees = []
    for prop in received:
        if not s["properties"][prop]["mortgaged"]:
            continue
        if prop in lifted:
            lift(s, events, prop)
        elif s["edition"] == "classic":
            fees.append(prop)
    if fees:
        _, amount = receiving_cost(s, fees, set())
        pay(
            s,
            events,
            pid,
            None,
            amount,
            "mortgage_interest",
            f"10% interest to keep {names_of(fees)} mortgaged",
        )


def bankruptcy_refusal(s: dict, pid: str) -> DomainError | None:
    """Why pid may not declare bankruptcy now (no debt of theirs, or enough to raise), or None."""
    p, d = player(s, pid), s["pending"]["debt"]
    if not d or d["debtor"] != pid:
        return DomainError(f"{p['name']} owes no pending debt, so cannot go bankrupt.", "no_debt")
    raisable = can_raise(s, pid)
    if p["cash"] + raisable >= d["amount"]:
        return DomainError(
            f"{p['name']} can still raise {money(raisable)} by selling buildings and "
            f"mortgaging, enough for the {money(d['amount'])} owed: not bankrupt.",
            "can_still_pay",
        )
    return None
