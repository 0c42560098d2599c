"""What a button may name: for each command type, the targets a seat is offered now (each a
command's fields, ready to send, with what a person types: `free`). Declared with each command
(rules/schema.py's `targets=`); rules/actions.py tries each target against the rules.

Pure: reads the state only.
"""

from __future__ import annotations

from .board import CARDS, DECKS, DEED_IDS, DEEDS, GROUPS
from .fields import MAX_AMOUNT
from .holdings import level
from .seating import name_refusal
from .state import survivors
from .trades import trade_refusal

DICE = {"dice": {"min": 1, "max": 6}}
NAME = {"name": {"max": 30}}  # a player's name, typed (a partnership's: each partner's)


def target(command: dict, free: dict | None = None) -> dict:
    """One target: the command's fields, and what a person types (`free`)."""
    return {"command": command, "free": free or {}}


def _live(s: dict) -> list[str]:
    return [p["id"] for p in survivors(s)] or [p["id"] for p in s["players"]]


def _player(s: dict, pid: str) -> dict:
    return next(p for p in s["players"] if p["id"] == pid)


def seated(s: dict, seat: str) -> list[str]:
    """The players a seat acts for: the Banker for everyone still in, a player for themselves."""
    return _live(s) if seat not in _ids(s) else [seat]


def _ids(s: dict) -> set[str]:
    return {p["id"] for p in s["players"]}


def roller(s: dict, seat: str) -> str:
    """Whose roll (or jail choice) a seat would record: the player whose turn it is."""
    if seat in _ids(s):
        return seat
    return s["turn"]["player"] or _live(s)[0]


def owned(s: dict, seat: str, streets_only: bool = False) -> list[str]:
    mine = seat if seat in _ids(s) else None
    return [
        d
        for d in DEED_IDS
        if (s["properties"][d]["owner"] is not None if mine is None else
            s["properties"][d]["owner"] == mine)
        and (not streets_only or DEEDS[d].kind == "street")
    ]  # fmt: skip


def bids(s: dict, seat: str) -> list[dict]:
    a = s["pending"]["auction"]
    low = 10 if not a or a["high_bidder"] is None else a["high_bid"] + 1
    out = []
    for pid in seated(s, seat):
        high = max(_player(s, pid)["cash"], low)  # an empty range still names the next bid
        out.append(target({"player": pid, "amount": low}, {"amount": {"min": low, "max": high}}))
    return out


def close(s: dict, seat: str) -> list[dict]:
    a = s["pending"]["auction"]
    if a and a["item"] in ("house", "hotel") and a["high_bidder"]:
        streets = owned(s, a["high_bidder"], streets_only=True)
        return [target({"property": d}) for d in streets] or [target({})]
    return [target({})]


def cards(s: dict, seat: str) -> list[dict]:
    deck = (s["pending"]["card"] or {}).get("deck", "chance")
    return [target({"deck": deck, "card": card}) for card in CARDS[deck]]


def claims(s: dict, seat: str) -> list[dict]:
    claims = s["pending"]["rent_claims"]
    if seat in _ids(s):
        claims = [cl for cl in claims if cl["owner"] == seat]
    return [target({"claim": cl["id"]}) for cl in claims]


def offers(sides: tuple[str, ...]):
    def targets(s: dict, seat: str) -> list[dict]:
        offers = s["pending"]["trade_offers"]
        if seat in _ids(s):
            offers = [o for o in offers if seat in (o[side] for side in sides)]
        return [target({"offer": o["id"]}) for o in offers]

    return targets


def _tradeable(s: dict, pid: str) -> list[tuple[str, str]]:
    """What pid could hand over alone: ("jail_cards", deck) first, then deeds with no building
    on their set, unmortgaged first (no fees for the receiver)."""
    out = [("jail_cards", d) for d in _player(s, pid)["jail_cards"]]
    deeds = [
        d
        for d in owned(s, pid)
        if not any(level(s["properties"][x]) for x in GROUPS[DEEDS[d].group])
    ]
    deeds.sort(key=lambda d: s["properties"][d]["mortgaged"])
    return out + [("properties", d) for d in deeds]


def _deal(s: dict, frm: str, to: str) -> dict:
    """The smallest deal between two players that could change hands now: one thing of
    either side, the first the rules accept (else the first of them, or 1 in cash alone)."""
    nothing = {"cash": 0, "properties": [], "jail_cards": []}
    tries = [("give", x) for x in _tradeable(s, frm)] + [("receive", x) for x in _tradeable(s, to)]
    deals = []
    for side, (kind, item) in tries[:4]:
        deal = {"from": frm, "to": to, "give": nothing, "receive": nothing, "unmortgage": []}
        deals.append({**deal, side: {**nothing, kind: [item]}})
    for deal in deals:
        if trade_refusal(s, deal) is None:
            return deal
    # Nothing either could hand over: the rules' word for why cash alone cannot change hands.
    cash = {"from": frm, "to": to, "give": {**nothing, "cash": 1}, "receive": nothing}
    return deals[0] if deals else {**cash, "unmortgage": []}


def deals(s: dict, seat: str) -> list[dict]:
    live = _live(s)
    if seat in _ids(s):
        pairs = [(seat, b) for b in live if b != seat]
    else:
        pairs = [(a, b) for i, a in enumerate(live) for b in live[i + 1 :]]
    return [target(_deal(s, a, b)) for a, b in pairs]


def adjusts(s: dict, seat: str) -> list[dict]:
    out = []
    for pid in seated(s, seat):
        cash = _player(s, pid)["cash"]
        free = {"amount": {"min": -cash, "max": MAX_AMOUNT, "not": 0}, "reason": {"max": 200}}
        out.append(target({"player": pid, "amount": 1, "reason": "a correction"}, free))
    return out


def moves(s: dict, seat: str) -> list[dict]:
    return [
        target(
            {"player": pid, "position": (_player(s, pid)["position"] + 1) % 40},
            {"position": {"min": 0, "max": 39}},
        )
        for pid in seated(s, seat)
    ]


def _new_name(s: dict, pid: str | None = None) -> str:
    """A name unlike every other player's ("Player 4"; with partnerships "Player 4 & Player
    5"): what a rename's or a latecomer's target carries; the page's field types the real one."""
    n = len(s["players"]) + 1
    while True:
        name = f"Player {n} & Player {n + 1}" if s["options"]["teams"] else f"Player {n}"
        if name_refusal(s, name, pid) is None:
            return name
        n += 1


def renames(s: dict, seat: str) -> list[dict]:
    """Any player, those out of the game included (for a player's seat: themselves)."""
    pids = [seat] if seat in _ids(s) else [p["id"] for p in s["players"]]
    return [target({"player": pid, "name": _new_name(s, pid)}, NAME) for pid in pids]


def each(field: str, values):
    def targets(s: dict, seat: str) -> list[dict]:
        return [target({field: v}) for v in values(s, seat)]

    return targets


def bare(s: dict, seat: str) -> list[dict]:
    """One target, the command alone (a command without fields to choose)."""
    return [target({})]


def streets(s: dict, seat: str) -> list[str]:
    """The streets a seat may build or sell on (its own; every owned one for the Banker)."""
    return owned(s, seat, streets_only=True)


def roll(s: dict, seat: str) -> list[dict]:
    return [target({"player": roller(s, seat), "dice": [1, 2]}, DICE)]


def rent_roll(s: dict, seat: str) -> list[dict]:
    return [target({"dice": [1, 2]}, DICE)]


def jail_fine(s: dict, seat: str) -> list[dict]:
    return [target({"player": roller(s, seat)})]


def jail_cards(s: dict, seat: str) -> list[dict]:
    return [target({"player": roller(s, seat), "deck": d}) for d in DECKS]


def building_kinds(s: dict, seat: str) -> tuple[str, ...]:
    return ("house", "hotel")


def latecomer(s: dict, seat: str) -> list[dict]:
    return [target({"name": _new_name(s)}, NAME)]
