"""The board as the display and the phone's Board draw it: 40 spaces with owners, buildings,
mortgages and tokens, plus who must act now. Read from a public state only.

Seat colours are CSS classes (`seat-0` … `seat-11`: present.seat_color, static/chart.css) so
that each scheme, light or dark, gets a shade with enough contrast; the hues are those of the
Banker's screens.
"""

from __future__ import annotations

from banker.rules import building_value, to_act
from banker.rules.board import DEEDS, GROUP_NAMES, GROUPS, JAIL, SPACES
from banker.web.common.present import deed_facts, money, rent_text, seat_color
from banker.web.common.present import where as present_where

# One deed's group, as its card names it.
GROUP_NAME = {**GROUP_NAMES, "railroad": "Railroad", "utility": "Utility"}
# Where a long word may break on a narrow space (a soft hyphen, shown only when it breaks).
_BREAKS = {
    "Mediterranean": "Medi\u00adter\u00adra\u00adnean",
    "Connecticut": "Con\u00adnec\u00adti\u00adcut",
    "Pennsylvania": "Penn\u00adsyl\u00adva\u00adnia",
    "Community": "Com\u00admu\u00adni\u00adty",
    "Kentucky": "Ken\u00adtucky",
    "Virginia": "Vir\u00adgin\u00adia",
    "Carolina": "Caro\u00adli\u00adna",
    "Railroad": "Rail\u00adroad",
    "Illinois": "Illi\u00adnois",
    "Electric": "Elec\u00adtric",
    "Company": "Com\u00adpany",
    "Atlantic": "Atlan\u00adtic",
    "Boardwalk": "Board\u00adwalk",
    "Gardens": "Gar\u00addens",
    "Avenue": "Ave\u00adnue",
    "Parking": "Park\u00ading",
}
# Spaces whose printed name is two things at once, or too long for a corner.
_PRINTED = {JAIL: "In Jail / Just Visiting"}
# The big screen's tiles: each name shortened as a printed board shortens it ("Medit. Ave."),
# so that it stands on one line of a side tile, or two of a top or bottom tile, at the
# screen's smallest type (20 CSS px at 1366x768). The full name is read out beside it.
SHORT_NAMES = (
    "GO", "Medit. Ave.", "Comm. Chest", "Baltic Ave.", "Income Tax", "Reading R.R.",
    "Oriental Ave.", "Chance", "Vermont Ave.", "Conn. Ave.",
    "Jail", "St. Charles Pl.", "Electric Co.", "States Ave.", "Virginia Ave.", "Penn. R.R.",
    "St. James Pl.", "Comm. Chest", "Tenn. Ave.", "New York Ave.",
    "Free Parking", "Kentucky Ave.", "Chance", "Indiana Ave.", "Illinois Ave.", "B.&O. R.R.",
    "Atlantic Ave.", "Ventnor Ave.", "Water Works", "Marvin Gdns.",
    "Go to Jail", "Pacific Ave.", "N. Car. Ave.", "Comm. Chest", "Penn. Ave.", "Short Line",
    "Chance", "Park Place", "Luxury Tax", "Boardwalk",
)  # fmt: skip


def breakable(name: str) -> str:
    """The name with soft hyphens where its long words may break."""
    return " ".join(_BREAKS.get(w, w) for w in name.split(" "))


def _side(i: int) -> str:
    if i % 10 == 0:
        return "corner"
    return ("bottom", "left", "top", "right")[i // 10]


def initials(state: dict) -> dict[str, str]:
    """What each token shows: the name's first letter, or its first two where two players
    share a first letter (Ann and Alice: "An", "Al"), else the seat number."""
    first = [p["name"][:1].upper() for p in state["players"]]
    two = [p["name"][:2].title() for p in state["players"]]
    out = {}
    for i, p in enumerate(state["players"]):
        if first.count(first[i]) == 1:
            out[p["id"]] = first[i]
        elif two.count(two[i]) == 1:
            out[p["id"]] = two[i]
        else:
            out[p["id"]] = str(i + 1)
    return out


def _token(p: dict, seat: int, tag: str) -> dict:
    return {
        "id": p["id"],
        "name": p["name"],
        "initial": tag,
        "seat": seat,
        "in_jail": p["in_jail"],
    }


def rent_ladder(prop: str) -> list[tuple[str, str]]:
    """The deed card's rent lines as printed: [(what, amount)]."""
    d = DEEDS[prop]
    if d.kind == "street":
        labels = ("Rent", "With color set", "With 1 house", "With 2 houses", "With 3 houses")
        labels += ("With 4 houses", "With hotel")
        return [(label, money(r)) for label, r in zip(labels, d.rents, strict=True)]
    if d.kind == "railroad":
        return [
            (f"{n} railroad{'s' if n > 1 else ''} owned", money(r))
            for n, r in enumerate(d.rents, 1)
        ]
    return [
        (f"{n} utilit{'ies' if n > 1 else 'y'} owned", f"{r} × the dice")
        for n, r in enumerate(d.rents, 1)
    ]


def deed_card(
    state: dict,
    prop: str,
    seats: dict[str, int],
    names: dict[str, str],
    tags: dict[str, str] | None = None,
) -> dict:
    """What a deed's card tells: owner, rent now and the ladder, buildings, mortgage."""
    d, st = DEEDS[prop], state["properties"][prop]
    return {
        **deed_facts(state, prop),
        "group_name": GROUP_NAME[d.group],
        "price": money(d.price),
        "owner_name": names.get(st["owner"]),
        "owner_seat": seats.get(st["owner"]),
        "owner_tag": (tags or {}).get(st["owner"]) or (names.get(st["owner"]) or "")[:1],
        "building_value": building_value(prop, st),
        "mortgage_value": money(d.mortgage_value),
        "lift_cost": money(d.lift_cost(state["edition"])),
        "house_cost": money(d.house_cost) if d.kind == "street" else None,
        "rent_now": rent_text(state, prop),
        "ladder": rent_ladder(prop),
        "set_size": len(GROUPS[d.group]),
    }


def spaces_key(state: dict) -> tuple:
    """All that `spaces` reads of the state (two states with the same key have the same spaces):
    the edition, each player's name, token and jail, each deed's owner, buildings and
    mortgage. Cheaper to make and compare than the spaces themselves."""
    return (
        state["edition"],
        tuple(
            (p["id"], p["name"], p["eliminated"], p["position"], p["in_jail"])
            for p in state["players"]
        ),
        tuple(
            (k, st["owner"], st["houses"], st["hotel"], st["mortgaged"])
            for k, st in state["properties"].items()
        ),
    )


def spaces(state: dict) -> list[dict]:
    """The 40 spaces in board order with their deed, tokens and place round the board."""
    seats = {p["id"]: seat_color(i) for i, p in enumerate(state["players"])}
    names = {p["id"]: p["name"] for p in state["players"]}
    here: dict[int, list[dict]] = {}
    tags = initials(state)
    for i, p in enumerate(state["players"]):
        if not p["eliminated"]:
            here.setdefault(p["position"], []).append(_token(p, seat_color(i), tags[p["id"]]))
    out = []
    for sp in SPACES:
        name = _PRINTED.get(sp.index, sp.name)
        tokens = here.get(sp.index, [])
        space = {
            "index": sp.index,
            "name": name,
            "label": breakable(name),
            "short": SHORT_NAMES[sp.index],
            "kind": sp.kind,
            "side": _side(sp.index),
            "tokens": [t for t in tokens if not t["in_jail"]],
            "jailed": [t for t in tokens if t["in_jail"]],
            "deed": deed_card(state, sp.deed, seats, names, tags) if sp.deed else None,
            "amount": money(sp.amount) if sp.amount else None,
        }
        out.append(space)
    return out


SIDES = (
    ("From GO to Jail", range(0, 10)),
    ("From Jail to Free Parking", range(10, 20)),
    ("From Free Parking to Go to Jail", range(20, 30)),
    ("From Go to Jail to GO", range(30, 40)),
)


def sides(all_spaces: list[dict]) -> list[dict]:
    """The spaces in four lists, one per side of the board, as a phone lists them."""
    return [{"title": t, "spaces": [all_spaces[i] for i in r]} for t, r in SIDES]


def players(state: dict, viewer: str = "banker") -> list[dict]:
    """Everyone with seat, cash (None when hidden from this viewer), where, deeds, turn."""
    private = bool(state["options"].get("private_cash"))
    tags = initials(state)
    then = to_act(state)["then"] if state["status"] == "playing" else None
    rolls_next = then["who"] if then and then["kind"] == "roll" else []  # never a roll to come
    out = []
    for i, p in enumerate(state["players"]):
        mine = [prop for prop, st in state["properties"].items() if st["owner"] == p["id"]]
        hidden = private and viewer != "banker" and viewer != p["id"]
        cash = None if hidden else p["cash"]
        where = present_where(p)
        out.append(
            {
                "id": p["id"],
                "name": p["name"],
                "seat": seat_color(i),
                "initial": tags[p["id"]],
                "cash": money(cash) if cash is not None else None,
                "where": where,
                "in_jail": p["in_jail"],
                "eliminated": p["eliminated"],
                "deeds": len(mine),
                "jail_cards": len(p["jail_cards"]),
                "is_turn": p["id"] in rolls_next,
            }
        )
    return out


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def acting(state: dict) -> dict:
    """What the game waits for now, as the core says it (rules.to_act): {"who": [player ids],
    "kind" (of what holds the game: "roll", "auction", "debt", …; None once it is over), "text"
    (its sentence; at the end, who won), "then" (the next roll's sentence when something else
    comes first), "pending" (every other thing still to settle: [item])}."""
    said = to_act(state)
    now, then = said["now"], said["then"]
    text = said["sentence"]
    if state["status"] == "finished" and state["winners"]:
        names = {p["id"]: p["name"] for p in state["players"]}
        won = "wins" if len(state["winners"]) == 1 else "share the win"
        text = f"The game is over: {_and([names[w] for w in state['winners']])} {won}."
    return {
        "who": said["who"],
        "kind": now["kind"] if now else None,
        "text": text,
        "then": then["sentence"] if then and then is not now else None,
        "pending": [i for i in said["pending"] if i is not now],
        "phase": said["phase"],
        "phase_sentence": said["phase_sentence"],
    }


def _bidders(state: dict, act: dict, names: dict[str, str]) -> str | None:
    """Who may bid in the open auction, in words ("Everyone may bid."), or None."""
    if act["kind"] != "auction":
        return None
    who = act["who"]
    if not who:
        return "Nobody can bid."
    if set(who) == {p["id"] for p in state["players"] if not p["eliminated"]} and len(who) > 1:
        return "Everyone may bid."
    return f"{_and([names[p] for p in who])} may bid."


def now(state: dict) -> dict:
    """What the table waits for, from the core's `to_act`, as the pictures show it: {"turn"
    (whose turn it is, {"name", "player"}, when that player is the one to act), "act" (what
    holds the game now, a sentence), "acting" (the players it waits for: seat and initial),
    "bidders" (who may bid, in words, during an auction), "then" (whose roll comes next, when
    something else comes first), "claims" and "others" (the rest still to settle: the rent
    claims, the payments, trade offers and deeds still to auction, a sentence each),
    "final_round" (a sentence while time is called), "bank" (houses and hotels left, "auction"
    while one is auctioned), "pot" (Free Parking's, with that house rule)}."""
    names = {p["id"]: p["name"] for p in state["players"]}
    tags = initials(state)
    seats = {p["id"]: seat_color(i) for i, p in enumerate(state["players"])}
    act = acting(state)
    t = state["turn"]
    turn = None
    if state["status"] == "playing" and t["player"] and act["kind"] == "roll":
        turn = {"name": t.get("roller") or names[t["player"]], "player": t["player"]}
    final = None
    if act["phase"] in ("final_round", "claims_wait") and act["phase_sentence"] != act["text"]:
        final = act["phase_sentence"]
    return {
        "turn": turn,
        "act": act["text"],
        "acting": [
            {"id": pid, "name": names[pid], "seat": seats[pid], "initial": tags[pid]}
            for pid in act["who"]
            if pid in names
        ],
        "bidders": _bidders(state, act, names),
        "then": act["then"],
        "claims": [i["sentence"] for i in act["pending"] if i["kind"] == "claim"],
        "others": [i["sentence"] for i in act["pending"] if i["kind"] != "claim"],
        "final_round": final,
        **_bank(state),
    }


def _bank(state: dict) -> dict:
    """The Bank's houses and hotels ("auction" while one of them is auctioned) and, with the
    Free Parking jackpot house rule, the pot: {"bank", "pot"}."""
    bank, auction = state["bank"], state["pending"]["auction"]
    pot = None
    if state["options"].get("free_parking_jackpot"):
        pot = money(bank.get("free_parking", 0))
    return {
        "bank": {
            "houses": bank["houses"],
            "hotels": bank["hotels"],
            "auction": bool(auction and auction["item"] in ("house", "hotel")),
        },
        "pot": pot,
    }


# -- the phone's Board ---------------------------------------------------------------------------


def _cell(i: int) -> tuple[int, int, int, int]:
    """(x, y, w, h) of space i on a 13-unit board: GO bottom right, play clockwise."""
    if i % 10 == 0:
        return {0: (11, 11), 10: (0, 11), 20: (0, 0), 30: (11, 0)}[i] + (2, 2)
    if i < 10:
        return 11 - i, 11, 1, 2
    if i < 20:
        return 0, 11 - (i - 10), 2, 1
    if i < 30:
        return 2 + (i - 21), 0, 1, 2
    return 11, 2 + (i - 31), 2, 1


def _band(i: int, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """The colour band's rectangle, on the side of the cell that faces the centre."""
    t = 3.5
    side = _side(i)
    if side == "bottom":
        return x, y, w, t
    if side == "top":
        return x, y + h - t, w, t
    if side == "left":
        return x + w - t, y, t, h
    return x, y, t, h


def mini_cells(all_spaces: list[dict]) -> list[dict]:
    """The SVG overview's geometry (10 units a space) for each space."""
    out = []
    for s in all_spaces:
        x, y, w, h = (v * 10 for v in _cell(s["index"]))
        cell = {"s": s, "x": x, "y": y, "w": w, "h": h, "cx": x + w / 2, "cy": y + h / 2}
        d = s["deed"]
        if d and d["kind"] == "street":
            bx, by, bw, bh = _band(s["index"], x, y, w, h)
            cell["band"] = {
                "x": bx,
                "y": by,
                "w": bw,
                "h": bh,
                "cx": bx + bw / 2,
                "cy": by + bh / 2,
            }
        cell["tokens"] = [
            {**t, "tx": x + 2.8 + (k % 3) * 4.4, "ty": y + h - 2.8 - (k // 3) * 4.4}
            for k, t in enumerate(s["tokens"])
        ]
        # In Jail: the box in the corner's inner part (Just Visiting is the strip round it).
        cell["tokens"] += [
            {**t, "tx": x + 10 + (k % 2) * 5, "ty": y + 4.5 + (k // 2) * 5}
            for k, t in enumerate(s["jailed"])
        ]
        out.append(cell)
    return out


def phone(state: dict) -> dict:
    """Everything templates/table/_board.html shows."""
    all_spaces = spaces(state)
    return {
        "spaces": all_spaces,
        "sides": sides(all_spaces),
        "cells": mini_cells(all_spaces),
        "players": players(state, "banker"),
        "now": now(state),
    }
