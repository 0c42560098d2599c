"""The turn at the table: whose turn, rolls, movement, GO, landing, offers, jail."""

from __future__ import annotations

from .auctions import open_auction
from .board import (
    DEEDS,
    GO_SALARY,
    GO_TO_JAIL,
    JAIL,
    JAIL_FINE,
    SPACES,
    space_name,
)
from .errors import DomainError
from .jackpot import collect_pot
from .rent import deed_rent, lapse_claims, open_claim, owned_in_group, owns_set, utility_multiplier

__all__ = ["deed_rent", "owned_in_group", "owns_set", "utility_multiplier"]  # read by the pages too
from .state import (
    active_player,
    deck_name,
    deed_name,
    event,
    feed_pot,
    money,
    name,
    next_player,
    pay,
    player,
    require_no_debt,
    require_playing,
    require_ready,
    survivors,
    with_cash,
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
    """Straight to Jail; "no 200 for passing GO" is said only where the way on to Jail would
    have passed GO (from beyond Jail), not from Chance at 7 or Community Chest at 2."""
    p = player(s, pid)
    beyond_jail = p["position"] > JAIL
    p["position"], p["in_jail"], p["jail_attempts"] = JAIL, True, 0
    event(
        s,
        events,
        "jailed",
        f"{p['name']} {why + ' and ' if why else ''}went to Jail"
        f"{' (no 200 for passing GO)' if beyond_jail else ''}.",
        player=pid,
    )
    end_turn(s, pid)


def _just_said_landing_on_go(events: list, pid: str, pos: int) -> bool:
    """ "Bob landed on GO and collected 200." already says where Bob is: no second sentence."""
    last = events[-1] if events else None
    return pos == 0 and bool(last) and last["type"] == "passed_go" and last.get("player") == pid


def land(s: dict, events: list, pid: str, dice_total: int = 0, card: str | None = None) -> None:
    """Resolve the space pid's token now stands on."""
    p = player(s, pid)
    pos = p["position"]
    space = SPACES[pos]
    if not _just_said_landing_on_go(events, pid, pos):
        event(
            s,
            events,
            "landed",
            f"{p['name']} landed on {space_name(pos)}.",
            player=pid,
            position=pos,
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
            utility_rent(s, events, p, prop, dice_total, card)
        else:
            amount = deed_rent(s, prop)
            if card == "railroad":
                amount *= 2
            open_claim(s, events, owner, pid, prop, amount)
    elif space.kind in ("chance", "community_chest"):
        pending["card"] = {"player": pid, "deck": space.kind}
    elif space.kind == "tax":
        pay(s, events, pid, None, space.amount, "tax", space.name)
    elif pos == GO_TO_JAIL:
        send_to_jail(s, events, pid, "")
    elif space.kind == "free_parking" and dice_total:  # come to rest there by a roll
        collect_pot(s, events, pid)


def utility_rent(s: dict, events: list, p: dict, prop: str, dice_total: int, card) -> None:
    """G0009 (or a card): the payer rolls again for the rent; classic: the roll that moved."""
    multiplier = 10 if card == "utility" else utility_multiplier(s, prop)
    if card == "utility" or s["edition"] == "g0009":
        s["pending"]["dice"] = {
            "player": p["id"],
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
            player=p["id"],
        )
    else:
        owner = s["properties"][prop]["owner"]
        open_claim(s, events, owner, p["id"], prop, multiplier * dice_total)


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
    if len(survivors(s)) < 2:
        raise DomainError(
            f"A game needs two players to start; only {p['name']} is at the table: seat a "
            "latecomer first.",
            "too_few_players",
        )
    s["status"] = "playing"
    s["turn"]["first"] = p["id"]
    begin_turn(s, p["id"])
    event(s, events, "started", f"{p['name']} won the opening roll and starts.", player=p["id"])


def roll_check(s: dict, c: dict) -> DomainError | None:
    """Why the roll `c` is refused now, or None: cmd_roll's every check, all made before it
    changes anything (rules/schema.py's `refusal=`)."""
    try:
        p = active_player(s, c)
        require_playing(s)
        who = s["turn"]["player"]
        if who != p["id"]:
            raise DomainError(
                f"It is {name(s, who)}'s turn to roll, not {p['name']}'s.", "not_your_turn"
            )
        require_nothing_pending(s, "the next roll")
    except DomainError as e:
        return e
    return None


def cmd_roll(s: dict, events: list, c: dict) -> None:
    p = active_player(s, c)
    d1, d2 = c["dice"]
    pid, t = p["id"], s["turn"]
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


def cmd_buy(s: dict, events: list, c: dict) -> None:
    require_ready(s)
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
        deed, price = deed_name(offer["property"]), money(offer["price"])
        raise DomainError(
            with_cash(
                p,
                f"{p['name']} has {money(p['cash'])} and {deed} costs {price}: raise the cash "
                "or put it up for auction.",
                f"{p['name']} does not have the {price} {deed} costs: raise the cash or put it "
                "up for auction.",
            ),
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


def _jailed_turn(s: dict, c: dict) -> dict:
    p = active_player(s, c)
    require_ready(s)
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
            with_cash(
                p,
                f"{p['name']} has only {money(p['cash'])}: the fine is {JAIL_FINE}.",
                f"{p['name']} does not have the {JAIL_FINE} fine in cash.",
            ),
            "insufficient_cash",
        )
    p["cash"] -= JAIL_FINE
    p["in_jail"], p["jail_attempts"] = False, 0
    pot = feed_pot(s, JAIL_FINE, "jail_fine")
    where = f" (into the Free Parking pot, now {money(s['bank']['free_parking'])})" if pot else ""
    event(
        s,
        events,
        "jail_fine_paid",
        f"{p['name']} paid the {JAIL_FINE} fine{where} and left Jail; now roll and move as normal.",
        player=p["id"],
        **({"free_parking": JAIL_FINE} if pot else {}),
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


def card_holder(s: dict, deck: str) -> dict | None:
    for p in s["players"]:
        if deck in p["jail_cards"]:
            return p
    return None
