"""Chance and Community Chest: the card drawn from the pile landed on, and what it does."""

from __future__ import annotations

from .board import CARDS, JAIL_CARD
from .errors import DomainError
from .state import (
    deck_name,
    deed_name,
    event,
    name,
    others_from_left,
    pay,
    player,
    receive,
    require_ready,
)
from .turn import card_holder, land, move_forward, send_to_jail


def cmd_draw_card(s: dict, events: list, c: dict) -> None:
    deck, card_id = c["deck"], c["card"]
    require_ready(s)
    pending = s["pending"]["card"]
    if not pending:
        raise DomainError("Nobody is waiting to draw a card.", "no_card_pending")
    if pending["deck"] != deck:
        raise DomainError(
            f"{name(s, pending['player'])} landed on "
            f"{deck_name(pending['deck'])}: draw from that pile.",
            "wrong_deck",
        )
    auction, queue = s["pending"]["auction"], s["pending"]["auction_queue"]
    if auction or queue:
        item = auction["item"] if auction else queue[0]
        what = deed_name(item) if item not in ("house", "hotel") else f"one {item}"
        raise DomainError(
            f"The auction of {what} comes first: close it before the card is drawn.",
            "auction_pending",
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


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
