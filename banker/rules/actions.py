"""What may this seat do now? One answer, for every page's buttons and for the API's checks.

`actions(state, seat)`, `seat` being "banker", a player id or "display", gives for every command
type what that seat may send now:

    {"build": {"allowed": True, "why": None, "targets": [Target, …]}, "roll": {…}, …}

    Target = {"command": {…},  a whole command, ready to send (its free fields hold a value
                               that is accepted when the target is allowed),
              "allowed": bool,
              "why": str | None,  the sentence refusing it, as this seat is told it (a
                                  permission's, or the rules': the very one `apply` gives),
              "free": {field: {"min": a, "max": b}, …}}  what a person types: the dice
                                  (each 1–6), a bid's amount (from the next legal bid to the
                                  bidder's cash), a correction's amount (not 0, never below
                                  minus the player's cash) and reason, a token's space

A command type is `allowed` when one of its targets is; its `why` is then None, else the
sentence its targets share (or the first one's). The targets are what a page offers a button
for: the seat's own deeds (all owned deeds for the Banker), each open claim and trade offer, each
bidder, each card of the pile to draw from, each partner to trade with (with the smallest deal
that could change hands: the page composes the real one), the dice's roller, and so on. A seat's
own permission comes first (`permissions.seat_refusal`, the API's own check), then the rules:
each target is tried with `apply` on the state (which is never changed), or, for a deed's
build, sale, mortgage and lifting, with the very checks their handlers make
(`game.gate_refusal`, `holdings.deed_command_refusal`) — so what this function allows is
exactly what `apply` accepts and what it refuses is refused with the same sentence. The display
may send nothing: each command type is one refused target for it.

A new command type needs its targets here (`_TARGETS`), or it is offered as one bare command.
"""

from __future__ import annotations

from .board import CARDS, DECKS, DEED_IDS, DEEDS, GROUPS
from .errors import Refusal
from .fields import MAX_AMOUNT
from .game import apply, gate_refusal, upgrade
from .holdings import deed_command_refusal, level
from .permissions import DISPLAY_READ_ONLY, seat_refusal, text_for
from .schema import COMMANDS as SCHEMA
from .schema import read as read_command
from .seating import name_refusal
from .state import survivors
from .trades import trade_refusal

DEED_COMMANDS = ("build", "sell_building", "mortgage", "unmortgage")

DICE = {"dice": {"min": 1, "max": 6}}
NAME = {"name": {"max": 30}}  # a player's name, typed (a partnership's: each partner's)


def _target(command: dict, free: dict | None = None) -> dict:
    return {"command": command, "free": free or {}}


def _live(s: dict) -> list[str]:
    return [p["id"] for p in survivors(s)] or [p["id"] for p in s["players"]]


def _player(s: dict, pid: str) -> dict:
    return next(p for p in s["players"] if p["id"] == pid)


def _seated(s: dict, seat: str) -> list[str]:
    """The players a seat acts for: the Banker for everyone still in, a player for themselves."""
    return _live(s) if seat not in _ids(s) else [seat]


def _ids(s: dict) -> set[str]:
    return {p["id"] for p in s["players"]}


def _roller(s: dict, seat: str) -> str:
    """Whose roll (or jail choice) a seat would record: the player whose turn it is."""
    if seat in _ids(s):
        return seat
    return s["turn"]["player"] or _live(s)[0]


def _owned(s: dict, seat: str, streets_only: bool = False) -> list[str]:
    mine = seat if seat in _ids(s) else None
    return [
        d
        for d in DEED_IDS
        if (s["properties"][d]["owner"] is not None if mine is None else
            s["properties"][d]["owner"] == mine)
        and (not streets_only or DEEDS[d].kind == "street")
    ]  # fmt: skip


def _bids(s: dict, seat: str) -> list[dict]:
    a = s["pending"]["auction"]
    low = 10 if not a or a["high_bidder"] is None else a["high_bid"] + 1
    out = []
    for pid in _seated(s, seat):
        high = max(_player(s, pid)["cash"], low)  # an empty range still names the next bid
        out.append(_target({"player": pid, "amount": low}, {"amount": {"min": low, "max": high}}))
    return out


def _close(s: dict, seat: str) -> list[dict]:
    a = s["pending"]["auction"]
    if a and a["item"] in ("house", "hotel") and a["high_bidder"]:
        streets = _owned(s, a["high_bidder"], streets_only=True)
        return [_target({"property": d}) for d in streets] or [_target({})]
    return [_target({})]


def _cards(s: dict, seat: str) -> list[dict]:
    deck = (s["pending"]["card"] or {}).get("deck", "chance")
    return [_target({"deck": deck, "card": card}) for card in CARDS[deck]]


def _claims(s: dict, seat: str) -> list[dict]:
    claims = s["pending"]["rent_claims"]
    if seat in _ids(s):
        claims = [cl for cl in claims if cl["owner"] == seat]
    return [_target({"claim": cl["id"]}) for cl in claims]


def _offers(sides: tuple[str, ...]):
    def targets(s: dict, seat: str) -> list[dict]:
        offers = s["pending"]["trade_offers"]
        if seat in _ids(s):
            offers = [o for o in offers if seat in (o[side] for side in sides)]
        return [_target({"offer": o["id"]}) for o in offers]

    return targets


def _tradeable(s: dict, pid: str) -> list[tuple[str, str]]:
    """What pid could hand over alone: ("jail_cards", deck) first, then deeds with no building
    on their set, unmortgaged first (no fees for the receiver)."""
    out = [("jail_cards", d) for d in _player(s, pid)["jail_cards"]]
    deeds = [
        d
        for d in _owned(s, pid)
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


def _deals(s: dict, seat: str) -> list[dict]:
    live = _live(s)
    if seat in _ids(s):
        pairs = [(seat, b) for b in live if b != seat]
    else:
        pairs = [(a, b) for i, a in enumerate(live) for b in live[i + 1 :]]
    return [_target(_deal(s, a, b)) for a, b in pairs]


def _adjusts(s: dict, seat: str) -> list[dict]:
    out = []
    for pid in _seated(s, seat):
        cash = _player(s, pid)["cash"]
        free = {"amount": {"min": -cash, "max": MAX_AMOUNT, "not": 0}, "reason": {"max": 200}}
        out.append(_target({"player": pid, "amount": 1, "reason": "a correction"}, free))
    return out


def _moves(s: dict, seat: str) -> list[dict]:
    return [
        _target(
            {"player": pid, "position": (_player(s, pid)["position"] + 1) % 40},
            {"position": {"min": 0, "max": 39}},
        )
        for pid in _seated(s, seat)
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


def _renames(s: dict, seat: str) -> list[dict]:
    """Any player, those out of the game included (for a player's seat: themselves)."""
    pids = [seat] if seat in _ids(s) else [p["id"] for p in s["players"]]
    return [_target({"player": pid, "name": _new_name(s, pid)}, NAME) for pid in pids]


def _each(field: str, values):
    def targets(s: dict, seat: str) -> list[dict]:
        return [_target({field: v}) for v in values(s, seat)]

    return targets


_TARGETS = {
    "start": _each("first", _seated),
    "roll": lambda s, seat: [_target({"player": _roller(s, seat), "dice": [1, 2]}, DICE)],
    "bid": _bids,
    "close_auction": _close,
    "draw_card": _cards,
    "rent_roll": lambda s, seat: [_target({"dice": [1, 2]}, DICE)],
    "claim_rent": _claims,
    "pay_jail_fine": lambda s, seat: [_target({"player": _roller(s, seat)})],
    "use_jail_card": lambda s, seat: [
        _target({"player": _roller(s, seat), "deck": d}) for d in DECKS
    ],
    "build": _each("property", lambda s, seat: _owned(s, seat, True)),
    "sell_building": _each("property", lambda s, seat: _owned(s, seat, True)),
    "building_auction": _each("kind", lambda s, seat: ("house", "hotel")),
    "mortgage": _each("property", _owned),
    "unmortgage": _each("property", _owned),
    "trade": _deals,
    "propose_trade": _deals,
    "accept_trade": _offers(("to",)),
    "decline_trade": _offers(("from", "to")),
    "bankrupt": _each("player", _seated),
    "adjust": _adjusts,
    "move": _moves,
    "rename_player": _renames,
    "add_player": lambda s, seat: [_target({"name": _new_name(s)}, NAME)],
    "leave": _each("player", _seated),
}


def _rules_refusal(s: dict, command: dict) -> Refusal | None:
    """What `apply` says of a well-formed command: its refusal, or None when it accepts it."""
    if command["type"] in DEED_COMMANDS:  # the handlers' own checks, without a copy
        c = read_command(s, command)
        return gate_refusal(s, c) or deed_command_refusal(s, c["type"], c["property"])
    try:
        apply(s, command)
    except Refusal as e:
        return e
    return None


def _tried(s: dict, seat: str, kind: str, target: dict) -> dict:
    command = {"type": kind, **target["command"]}
    why = seat_refusal(s, seat, command)
    if why is None:
        refusal = _rules_refusal(s, command)
        why = None if refusal is None else text_for(s, seat, refusal)
    return {**target, "command": command, "allowed": why is None, "why": why}


def actions(s: dict, seat: str, kinds=None) -> dict[str, dict]:
    """For each command type (or each of `kinds`), what `seat` may send now (see the module's
    docstring). `s` is the game's state as the core keeps it (`Store.state`, not a view)."""
    s = upgrade(s)
    out = {}
    for kind in kinds or SCHEMA:
        if seat == "display":  # it may send nothing: one refused target says so
            target = {"command": {"type": kind}, "free": {}, "allowed": False}
            out[kind] = {"allowed": False, "why": DISPLAY_READ_ONLY, "targets": [target]}
            out[kind]["targets"][0]["why"] = DISPLAY_READ_ONLY
            continue
        made = _TARGETS.get(kind, lambda s, seat: [_target({})])(s, seat)
        targets = [_tried(s, seat, kind, t) for t in made]
        allowed = any(t["allowed"] for t in targets)
        whys = [t["why"] for t in targets if t["why"]]
        why = None if allowed or not whys else whys[0]
        out[kind] = {"allowed": allowed, "why": why, "targets": targets}
    return out


def allowed(s: dict, seat: str, kind: str) -> list[dict]:
    """The commands of one type `seat` may send now (the allowed targets' commands)."""
    return [t["command"] for t in actions(s, seat, [kind])[kind]["targets"] if t["allowed"]]
