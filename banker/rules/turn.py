"""The turn at the table: rolls, movement, GO, landing, offers, auctions, claims, cards, jail."""

from __future__ import annotations

from .board import (
    CARDS,
    DEEDS,
    GO_SALARY,
    GO_TO_JAIL,
    JAIL,
    JAIL_CARD,
    JAIL_FINE,
    RAILROADS,
    SPACES,
    UTILITIES,
    space_name,
)
from .errors import DomainError
from .state import (
    active_player,
    deck_name,
    deed_name,
    event,
    money,
    name,
    next_player,
    others_from_left,
    pay,
    player,
    receive,
    require_no_debt,
    require_playing,
)

# --- whose turn ---------------------------------------------------------------------------


def begin_turn(s: dict, pid: str) -> None:
    """Hand the dice to pid; partnerships alternate their roller each time their turn begins."""
    t = s["turn"]
    t["player"], t["doubles"] = pid, 0
    p = player(s, pid)
    begun = s["_turns_begun"].get(pid, 0)
    t["roller"] = p["members"][begun % len(p["members"])]
    s["_turns_begun"][pid] = begun + 1


def end_turn(s: dict, pid: str) -> None:
    """pid's turn is over: the dice pass left (only if it still is pid's turn)."""
    if s["turn"]["player"] == pid:
        begin_turn(s, next_player(s, pid))


# --- rent ---------------------------------------------------------------------------------


def owned_in_group(s: dict, owner: str, group) -> int:
    return sum(1 for d in group if s["properties"][d]["owner"] == owner)


def owns_set(s: dict, owner: str, prop: str) -> bool:
    from .board import GROUPS

    group = GROUPS[DEEDS[prop].group]
    return owned_in_group(s, owner, group) == len(group)


def rent(s: dict, prop: str, dice_total: int | None = None) -> int:
    """The rent the deed's owner may ask now (0 when unowned or mortgaged)."""
    st, deed = s["properties"][prop], DEEDS[prop]
    owner = st["owner"]
    if owner is None or st["mortgaged"]:
        return 0
    if deed.kind == "street":
        if st["hotel"]:
            return deed.rents[6]
        if st["houses"]:
            return deed.rents[1 + st["houses"]]
        return deed.rents[1] if owns_set(s, owner, prop) else deed.rents[0]
    if deed.kind == "railroad":
        return deed.rents[owned_in_group(s, owner, RAILROADS) - 1]
    multiplier = deed.rents[owned_in_group(s, owner, UTILITIES) - 1]
    return multiplier * (dice_total or 0)


def utility_multiplier(s: dict, prop: str) -> int:
    owner = s["properties"][prop]["owner"]
    return DEEDS[prop].rents[owned_in_group(s, owner, UTILITIES) - 1]


def open_claim(s: dict, events: list, owner: str, payer: str, prop: str, amount: int) -> None:
    s["_claims"] += 1
    claim = {
        "id": f"c{s['_claims']}",
        "owner": owner,
        "payer": payer,
        "property": prop,
        "amount": amount,
    }
    s["pending"]["rent_claims"].append(claim)
    event(
        s,
        events,
        "rent_claim_opened",
        f"{name(s, owner)} may ask {name(s, payer)} for {money(amount)} rent on "
        f"{deed_name(prop)} before the next player rolls.",
        claim=claim["id"],
    )


# --- movement and landing -----------------------------------------------------------------


def move_forward(s: dict, events: list, pid: str, target: int) -> None:
    """Move clockwise to target, collecting 200 once when passing or landing on GO."""
    p = player(s, pid)
    passed = target < p["position"]
    p["position"] = target
    if passed:
        p["cash"] += GO_SALARY
        verb = "landed on GO" if target == 0 else "passed GO"
        event(
            s,
            events,
            "passed_go",
            f"{p['name']} {verb} and collected {money(GO_SALARY)}.",
            player=pid,
            amount=GO_SALARY,
        )


def send_to_jail(s: dict, events: list, pid: str, why: str) -> None:
    p = player(s, pid)
    p["position"], p["in_jail"], p["jail_attempts"] = JAIL, True, 0
    event(
        s,
        events,
        "jailed",
        f"{p['name']} {why + ' and ' if why else ''}went to Jail (no 200 for passing GO).",
        player=pid,
    )
    end_turn(s, pid)


def land(s: dict, events: list, pid: str, dice_total: int = 0, card: str | None = None) -> None:
    """Resolve the space pid's token now stands on."""
    p = player(s, pid)
    pos = p["position"]
    space = SPACES[pos]
    event(
        s, events, "landed", f"{p['name']} landed on {space_name(pos)}.", player=pid, position=pos
    )
    pending = s["pending"]
    if space.deed:
        prop = space.deed
        st = s["properties"][prop]
        owner = st["owner"]
        if owner is None:
            if s["options"]["auction_all"]:
                open_auction(s, events, prop, "Every first purchase is auctioned")
            else:
                pending["offer"] = {"player": pid, "property": prop, "price": DEEDS[prop].price}
                event(
                    s,
                    events,
                    "offer",
                    f"{p['name']} may buy {deed_name(prop)} for {money(DEEDS[prop].price)} "
                    "or put it up for auction.",
                    player=pid,
                    property=prop,
                )
        elif owner == pid:
            pass
        elif st["mortgaged"]:
            event(s, events, "no_rent", f"{deed_name(prop)} is mortgaged: no rent is due.")
        elif DEEDS[prop].kind == "utility":
            if card == "utility":
                multiplier = 10
            else:
                multiplier = utility_multiplier(s, prop)
            if card == "utility" or s["edition"] == "g0009":
                pending["dice"] = {
                    "player": pid,
                    "reason": "utility_rent",
                    "multiplier": multiplier,
                    "property": prop,
                }
                event(
                    s,
                    events,
                    "rent_roll_needed",
                    f"{p['name']} rolls the dice again: the rent for {deed_name(prop)} is "
                    f"{multiplier} times that roll.",
                    player=pid,
                )
            else:
                open_claim(s, events, owner, pid, prop, multiplier * dice_total)
        else:
            amount = rent(s, prop)
            if card == "railroad":
                amount *= 2
            open_claim(s, events, owner, pid, prop, amount)
    elif space.kind in ("chance", "community_chest"):
        pending["card"] = {"player": pid, "deck": space.kind}
    elif space.kind == "tax":
        pay(s, events, pid, None, space.amount, "tax", space.name)
    elif pos == GO_TO_JAIL:
        send_to_jail(s, events, pid, "")


def move_and_land(s: dict, events: list, pid: str, steps: int) -> None:
    p = player(s, pid)
    move_forward(s, events, pid, (p["position"] + steps) % 40)
    land(s, events, pid, dice_total=steps)


# --- commands -----------------------------------------------------------------------------


def require_nothing_pending(s: dict, what: str) -> None:
    pending = s["pending"]
    require_no_debt(s)
    if pending["offer"]:
        o = pending["offer"]
        raise DomainError(
            f"First settle {deed_name(o['property'])}: {name(s, o['player'])} buys "
            f"it or it goes to auction, before {what}.",
            "offer_pending",
        )
    if pending["auction"] or pending["auction_queue"]:
        raise DomainError(f"Close the open auction before {what}.", "auction_pending")
    if pending["card"]:
        c = pending["card"]
        raise DomainError(
            f"{name(s, c['player'])} must draw a {deck_name(c['deck'])} card before {what}.",
            "card_pending",
        )
    if pending["dice"]:
        raise DomainError(
            f"{name(s, pending['dice']['player'])} must roll for the utility rent before {what}.",
            "rent_roll_pending",
        )
    if pending["trade_offers"]:
        o = pending["trade_offers"][0]
        raise DomainError(
            f"Let an auction or trade finish before {what}: {name(s, o['from'])}'s trade offer "
            f"to {name(s, o['to'])} is open (accept or decline it).",
            "trade_offer_pending",
        )


def cmd_start(s: dict, events: list, c: dict) -> None:
    if s["status"] != "setup":
        raise DomainError("The game has already started.", "already_started")
    p = active_player(s, c, "first")
    s["status"] = "playing"
    s["turn"]["first"] = p["id"]
    begin_turn(s, p["id"])
    event(s, events, "started", f"{p['name']} won the opening roll and starts.", player=p["id"])


def cmd_roll(s: dict, events: list, c: dict) -> None:
    p = active_player(s, c)
    d1, d2 = c["dice"]
    require_playing(s)
    pid, t = p["id"], s["turn"]
    if t["player"] != pid:
        raise DomainError(
            f"It is {name(s, t['player'])}'s turn to roll, not {p['name']}'s.", "not_your_turn"
        )
    require_nothing_pending(s, "the next roll")
    total, doubles = d1 + d2, d1 == d2
    if p["in_jail"]:
        jail_roll(s, events, p, d1, d2)
        return
    if doubles:
        t["doubles"] += 1
        rolled(s, events, p, d1, d2, f"{p['name']} rolled {d1} and {d2}: doubles.")
        if t["doubles"] == 3:
            send_to_jail(s, events, pid, "rolled doubles three times in a row")
            return
    else:
        rolled(s, events, p, d1, d2, f"{p['name']} rolled {d1} and {d2}.")
        end_turn(s, pid)
    move_and_land(s, events, pid, total)


def rolled(s: dict, events: list, p: dict, d1: int, d2: int, text: str) -> None:
    """Record the roll first (it names the command, e.g. for undo), then lapse others' claims."""
    event(s, events, "rolled", text, player=p["id"], dice=[d1, d2])
    lapse_claims(s, events, p["id"])


def jail_roll(s: dict, events: list, p: dict, d1: int, d2: int) -> None:
    pid = p["id"]
    end_turn(s, pid)  # no extra roll out of Jail, whatever the dice
    if d1 == d2:
        p["in_jail"], p["jail_attempts"] = False, 0
        rolled(
            s,
            events,
            p,
            d1,
            d2,
            f"{p['name']} rolled {d1} and {d2} in Jail: doubles, out of Jail (no extra roll).",
        )
        move_and_land(s, events, pid, d1 + d2)
        return
    p["jail_attempts"] += 1
    if p["jail_attempts"] < 3:
        rolled(
            s,
            events,
            p,
            d1,
            d2,
            f"{p['name']} rolled {d1} and {d2} in Jail: no doubles "
            f"(attempt {p['jail_attempts']} of 3).",
        )
        return
    rolled(
        s,
        events,
        p,
        d1,
        d2,
        f"{p['name']} rolled {d1} and {d2} in Jail: no doubles on the "
        f"third attempt, so pays {JAIL_FINE} and moves.",
    )
    s["_after_debt"] = {"kind": "leave_jail", "player": pid, "steps": d1 + d2}
    pay(s, events, pid, None, JAIL_FINE, "jail_fine", "Jail fine")


def leave_jail_and_move(s: dict, events: list, pid: str, steps: int) -> None:
    p = player(s, pid)
    p["in_jail"], p["jail_attempts"] = False, 0
    move_and_land(s, events, pid, steps)


def lapse_claims(s: dict, events: list, roller: str) -> None:
    keep = []
    for cl in s["pending"]["rent_claims"]:
        if cl["payer"] == roller:
            keep.append(cl)
        else:
            event(
                s,
                events,
                "rent_lapsed",
                f"{name(s, cl['owner'])} did not ask in time: the {money(cl['amount'])} rent "
                f"on {deed_name(cl['property'])} is no longer owed.",
                claim=cl["id"],
            )
    s["pending"]["rent_claims"] = keep


def cmd_buy(s: dict, events: list, c: dict) -> None:
    require_playing(s)
    require_no_debt(s)
    offer = s["pending"]["offer"]
    if not offer:
        if s["options"]["auction_all"] and s["pending"]["auction"]:
            raise DomainError(
                "In the auction-every-purchase variation nobody buys directly; "
                "the property is auctioned.",
                "auction_all",
            )
        raise DomainError("No property is on offer.", "no_offer")
    p = player(s, offer["player"])
    if p["cash"] < offer["price"]:
        raise DomainError(
            f"{p['name']} has {money(p['cash'])} and {deed_name(offer['property'])} "
            f"costs {money(offer['price'])}: raise the cash or put it up for auction.",
            "insufficient_cash",
        )
    p["cash"] -= offer["price"]
    s["properties"][offer["property"]]["owner"] = p["id"]
    s["pending"]["offer"] = None
    event(
        s,
        events,
        "bought",
        f"{p['name']} bought {deed_name(offer['property'])} for {money(offer['price'])}.",
        player=p["id"],
        property=offer["property"],
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
    require_playing(s)
    require_no_debt(s)
    offer = s["pending"]["offer"]
    if not offer:
        raise DomainError("No property is on offer to decline.", "no_offer")
    s["pending"]["offer"] = None
    open_auction(s, events, offer["property"], f"{name(s, offer['player'])} declined to buy")


def cmd_bid(s: dict, events: list, c: dict) -> None:
    from .holdings import building_refusal_anywhere

    p = active_player(s, c)
    amount = c["amount"]
    require_playing(s)
    require_no_debt(s)
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
            f"{p['name']} has only {money(p['cash'])} in cash and cannot bid {money(amount)}.",
            "insufficient_cash",
        )
    if a["item"] in ("house", "hotel"):
        why = building_refusal_anywhere(s, p["id"], a["item"])
        if why:
            raise DomainError(why, "cannot_place_building")
    a["high_bid"], a["high_bidder"] = amount, p["id"]
    event(s, events, "bid", f"{p['name']} bid {money(amount)}.", player=p["id"], amount=amount)


def cmd_close_auction(s: dict, events: list, c: dict) -> None:
    from .holdings import place_auctioned_building

    require_playing(s)
    require_no_debt(s)
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


def claim_refusal(s: dict, claim_id: str, debt_counts: bool = True) -> DomainError | None:
    """Why the owner may not ask for this rent claim now, or None (then claim_rent is accepted).

    The claim must be open; the deed must still be the claim owner's and not mortgaged ("No rent
    is collected on a mortgaged property"), though the amount stays the one fixed at landing;
    and no debt may be pending (unless `debt_counts` is False: the claim then only waits).
    """
    if s["status"] != "playing":
        try:
            require_playing(s)
        except DomainError as e:
            return e
    cl = next((x for x in s["pending"]["rent_claims"] if x["id"] == claim_id), None)
    if cl is None:
        return DomainError(
            "That rent claim is not open: it was paid or it lapsed when the next player rolled.",
            "no_such_claim",
        )
    st, deed = s["properties"][cl["property"]], deed_name(cl["property"])
    if st["owner"] != cl["owner"]:
        return DomainError(
            f"{name(s, cl['owner'])} no longer owns {deed}, so cannot ask for its rent.",
            "not_owner",
        )
    if st["mortgaged"]:
        return DomainError(
            f"{deed} is mortgaged now: No rent is collected on a mortgaged property.",
            "mortgaged",
        )
    if debt_counts:
        try:
            require_no_debt(s)
        except DomainError as e:
            return e
    return None


def cmd_claim_rent(s: dict, events: list, c: dict) -> None:
    cid = c["claim"]
    require_playing(s)
    require_no_debt(s)
    refusal = claim_refusal(s, cid)
    if refusal:
        raise refusal
    claims = s["pending"]["rent_claims"]
    cl = next(x for x in claims if x["id"] == cid)
    claims.remove(cl)
    event(
        s,
        events,
        "rent_asked",
        f"{name(s, cl['owner'])} asked {name(s, cl['payer'])} for "
        f"{money(cl['amount'])} rent on {deed_name(cl['property'])}.",
        claim=cid,
    )
    pay(
        s,
        events,
        cl["payer"],
        cl["owner"],
        cl["amount"],
        "rent",
        f"rent on {deed_name(cl['property'])}",
    )


def cmd_rent_roll(s: dict, events: list, c: dict) -> None:
    d1, d2 = c["dice"]
    require_playing(s)
    require_no_debt(s)
    dice = s["pending"]["dice"]
    if not dice:
        raise DomainError("No utility rent roll is waiting.", "no_rent_roll")
    s["pending"]["dice"] = None
    amount = (d1 + d2) * dice["multiplier"]
    prop = dice["property"]
    event(
        s,
        events,
        "rent_rolled",
        f"{name(s, dice['player'])} rolled {d1} and {d2} for the "
        f"rent on {deed_name(prop)}: {dice['multiplier']} x {d1 + d2} = {money(amount)}.",
        dice=[d1, d2],
    )
    open_claim(s, events, s["properties"][prop]["owner"], dice["player"], prop, amount)


def _jailed_turn(s: dict, c: dict) -> dict:
    p = active_player(s, c)
    require_playing(s)
    require_no_debt(s)
    if not p["in_jail"]:
        raise DomainError(f"{p['name']} is not in Jail.", "not_in_jail")
    if s["turn"]["player"] != p["id"]:
        raise DomainError(
            f"{p['name']} can leave Jail only at the start of their own turn, before rolling.",
            "not_your_turn",
        )
    return p


def cmd_pay_jail_fine(s: dict, events: list, c: dict) -> None:
    p = _jailed_turn(s, c)
    if p["cash"] < JAIL_FINE:
        raise DomainError(
            f"{p['name']} has only {money(p['cash'])}: the fine is {JAIL_FINE}.",
            "insufficient_cash",
        )
    p["cash"] -= JAIL_FINE
    p["in_jail"], p["jail_attempts"] = False, 0
    event(
        s,
        events,
        "jail_fine_paid",
        f"{p['name']} paid the {JAIL_FINE} fine and left Jail; now roll and move as normal.",
        player=p["id"],
    )


def cmd_use_jail_card(s: dict, events: list, c: dict) -> None:
    deck = c["deck"]
    p = _jailed_turn(s, c)
    if deck not in p["jail_cards"]:
        raise DomainError(
            f"{p['name']} holds no {deck_name(deck)} Get Out of Jail Free card.", "no_jail_card"
        )
    p["jail_cards"].remove(deck)
    p["in_jail"], p["jail_attempts"] = False, 0
    event(
        s,
        events,
        "jail_card_used",
        f"{p['name']} used the {deck_name(deck)} Get Out of Jail "
        f"Free card (back to the bottom of its deck) and left Jail.",
        player=p["id"],
        deck=deck,
    )


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def card_holder(s: dict, deck: str) -> dict | None:
    for p in s["players"]:
        if deck in p["jail_cards"]:
            return p
    return None


def cmd_draw_card(s: dict, events: list, c: dict) -> None:
    deck, card_id = c["deck"], c["card"]
    require_playing(s)
    require_no_debt(s)
    pending = s["pending"]["card"]
    if not pending:
        raise DomainError("Nobody is waiting to draw a card.", "no_card_pending")
    if pending["deck"] != deck:
        raise DomainError(
            f"{name(s, pending['player'])} landed on "
            f"{deck_name(pending['deck'])}: draw from that pile.",
            "wrong_deck",
        )
    holder = card_holder(s, deck)
    if card_id == JAIL_CARD and holder:
        raise DomainError(
            f"{holder['name']} holds the {deck_name(deck)} Get Out of Jail Free "
            "card, so it cannot be in the pile.",
            "card_held",
        )
    s["pending"]["card"] = None
    pid = pending["player"]
    card = CARDS[deck][card_id]
    event(
        s,
        events,
        "card_drawn",
        f"{name(s, pid)} drew {deck_name(deck)}: {card.text}",
        player=pid,
        deck=deck,
        card=card_id,
    )
    resolve_card(s, events, pid, deck, card.effect)


def resolve_card(s: dict, events: list, pid: str, deck: str, e: dict) -> None:
    p = player(s, pid)
    kind = e["kind"]
    if kind == "move_to":
        move_forward(s, events, pid, e["target"])
        land(s, events, pid)
    elif kind == "move_to_nearest":
        pos = p["position"]
        target = min(e["candidates"], key=lambda x: (x - pos) % 40 or 40)
        move_forward(s, events, pid, target)
        land(s, events, pid, card=e["target_type"])
    elif kind == "move_relative":
        p["position"] = (p["position"] + e["spaces"]) % 40
        land(s, events, pid)
    elif kind == "collect":
        receive(s, events, pid, e["amount"], "card")
    elif kind == "pay":
        pay(s, events, pid, None, e["amount"], "card", "card")
    elif kind == "get_out_of_jail_free":
        p["jail_cards"].append(deck)
        event(
            s,
            events,
            "jail_card_kept",
            f"{p['name']} keeps the {deck_name(deck)} Get Out of "
            "Jail Free card until it is used or traded.",
            player=pid,
            deck=deck,
        )
    elif kind == "go_to_jail":
        send_to_jail(s, events, pid, "drew Go to Jail")
    elif kind == "repairs":
        houses = sum(st["houses"] for st in s["properties"].values() if st["owner"] == pid)
        hotels = sum(1 for st in s["properties"].values() if st["owner"] == pid and st["hotel"])
        amount = houses * e["per_house"] + hotels * e["per_hotel"]
        if amount == 0:
            event(s, events, "repairs", f"{p['name']} has no buildings: the repairs cost nothing.")
        else:
            what = f"repairs: {plural(houses, 'house')}, {plural(hotels, 'hotel')}"
            pay(s, events, pid, None, amount, "card", what)
    elif kind == "pay_each_player":
        s["pending"]["payments"] = [
            {"from": pid, "to": o, "amount": e["amount"], "reason": "card"}
            for o in others_from_left(s, pid)
        ]
    elif kind == "collect_from_each_player":
        s["pending"]["payments"] = [
            {"from": o, "to": pid, "amount": e["amount"], "reason": "card"}
            for o in others_from_left(s, pid)
        ]
    else:  # pragma: no cover - the reference data has no other kinds
        raise AssertionError(kind)
