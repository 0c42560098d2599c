"""What the Banker's screens show, read from the state with the core's own functions.

No rule is decided here: legality comes from the core's refusal functions (build_refusal,
sell_refusal, mortgage_refusal, unmortgage_refusal, can_raise) and the rent from its deed_rent(),
all imported through banker.rules.
"""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from banker.rules import (
    bankruptcy_refusal,
    build_refusal,
    building_refusal_anywhere,
    can_raise,
    mortgage_refusal,
    owned_in_group,
    owns_set,
    score,
    sell_refusal,
    set_has_buildings,
    unmortgage_refusal,
)
from banker.rules.board import (
    DECK_NAMES,
    DEED_IDS,
    DEEDS,
    GROUP_COLORS,
    GROUP_NAMES,
    GROUPS,
    JAIL_FINE,
    SPACES,
)
from banker.web.present import GROUP_ORDER, SEAT_COLORS, deed_facts, money, rent_text
from banker.web.present import where as present_where


def space_names() -> list[tuple[int, str]]:
    return [(s.index, s.name) for s in SPACES]


def players(state: dict) -> list[dict]:
    """Every player with what the strip shows: cash, space, jail, seat color, turn marker."""
    t = state["turn"]
    out = []
    for seat, p in enumerate(state["players"]):
        where = present_where(p)
        if p["in_jail"]:
            where += f" · tried {p['jail_attempts']}"
        out.append(
            {
                **p,
                "where": where,
                "color": SEAT_COLORS[seat % len(SEAT_COLORS)],
                "initial": p["name"][:1].upper(),
                "is_turn": p["id"] == t["player"],
            }
        )
    return out


def player_names(state: dict) -> dict[str, str]:
    return {p["id"]: p["name"] for p in state["players"]}


_STREET_STEPS = ("rent", "set", "1 house", "2 houses", "3 houses", "4 houses", "hotel")


def rent_ladder(state: dict, prop: str) -> list[dict]:
    """The deed's printed rents, the one that applies now marked: [{"label","amount","now"}]."""
    d, st = DEEDS[prop], state["properties"][prop]
    owner = st["owner"]
    if d.kind == "street":
        if st["hotel"]:
            now = 6
        elif st["houses"]:
            now = 1 + st["houses"]
        else:
            now = 1 if owner and owns_set(state, owner, prop) else 0
        steps = [(label, money(r)) for label, r in zip(_STREET_STEPS, d.rents, strict=False)]
    else:
        owned = owned_in_group(state, owner, GROUPS[d.group]) if owner else 0
        now = owned - 1
        unit = "railroad" if d.kind == "railroad" else "utility"
        steps = [
            (f"{n} {unit}{'s' if n > 1 else ''}", f"{r} × dice" if unit == "utility" else money(r))
            for n, r in enumerate(d.rents, 1)
        ]
    if st["mortgaged"]:
        now = -1
    return [{"label": a, "amount": b, "now": i == now} for i, (a, b) in enumerate(steps)]


def deed(state: dict, prop: str) -> dict:
    """A deed as a sheet shows it, with each action and why it is not possible now."""
    d, st = DEEDS[prop], state["properties"][prop]
    actions = []
    if d.kind == "street":
        if st["hotel"]:
            build_label = "Build: full"
        elif st["houses"] == 4:
            build_label = f"Build hotel {money(d.hotel_cost)}"
        else:
            build_label = f"Build house {money(d.house_cost)}"
        if st["hotel"]:
            sell_label = f"Sell hotel +{money(d.hotel_cost // 2)}"
        else:
            sell_label = f"Sell house +{money(d.house_cost // 2)}"
        actions.append(("build", build_label, build_refusal(state, prop)))
        actions.append(("sell_building", sell_label, sell_refusal(state, prop)))
    if st["mortgaged"]:
        cost = d.lift_cost(state["edition"])
        actions.append(("unmortgage", f"Lift {money(cost)}", unmortgage_refusal(state, prop)))
    else:
        actions.append(
            (
                "mortgage",
                f"Mortgage +{money(d.mortgage_value)}",
                mortgage_refusal(state, prop),
            )
        )
    return {
        **deed_facts(state, prop),
        "price": d.price,
        "rent": rent_text(state, prop),
        "ladder": rent_ladder(state, prop),
        "actions": [{"type": a, "label": label, "why": why} for a, label, why in actions],
    }


def holdings_of(state: dict, pid: str, row=None) -> list[dict]:
    """A player's deeds grouped by color set, in board order: [{"group", "name", "color",
    "deeds", "complete", "size"}]; each deed as `row(state, prop)` makes it (default: the
    sheet's row, with its rent and its buttons)."""
    row = row or deed
    mine = [p for p in DEED_IDS if state["properties"][p]["owner"] == pid]
    groups = []
    for g in GROUP_ORDER:
        deeds = [row(state, p) for p in GROUPS[g] if p in mine]
        if deeds:
            groups.append(
                {
                    "group": g,
                    "name": GROUP_NAMES[g],
                    "color": GROUP_COLORS[g],
                    "deeds": deeds,
                    "complete": len(deeds) == len(GROUPS[g]),
                    "size": len(GROUPS[g]),
                }
            )
    return groups


def sheet(state: dict, pid: str) -> dict:
    p = next(x for x in state["players"] if x["id"] == pid)
    return {
        "player": p,
        "where": present_where(p),
        "groups": holdings_of(state, pid),
        "net_worth": score(state, pid),
        "can_raise": can_raise(state, pid),
        "jail_cards": [DECK_NAMES[d] for d in p["jail_cards"]],
    }


def bidders(state: dict) -> list[dict]:
    """Everyone still in, with the quick raises and, for a building, why they cannot bid."""
    a = state["pending"]["auction"]
    base = a["high_bid"]
    out = []
    for p in players(state):
        if p["eliminated"]:
            continue
        why = None
        if a["item"] in ("house", "hotel"):
            why = building_refusal_anywhere(state, p["id"], a["item"])
        if a["high_bidder"] is None:  # bids open at 10: offer the opening amounts themselves
            raises = [{"label": str(n), "amount": n} for n in (10, 20, 50)]
        else:
            raises = [{"label": f"+{n}", "amount": base + n} for n in (1, 10, 50)]
        # Only the raises this bidder can pay: a bid above the cash would be refused.
        cash = p["cash"]
        raises = [r for r in raises if cash is None or r["amount"] <= cash]
        leading = a["high_bidder"] == p["id"]
        if why is None and not leading and cash is not None and cash <= base:
            why = f"{p['name']} has {money(cash)}: not enough to raise the bid."
        out.append({**p, "why": why, "raises": raises, "leading": leading})
    return out


def placements(state: dict) -> list[dict]:
    """Where the winner of a building auction may place it now."""
    a = state["pending"]["auction"]
    winner = a["high_bidder"]
    if winner is None:
        return []
    return [
        {"id": prop, "name": DEEDS[prop].name}
        for prop in DEED_IDS
        if state["properties"][prop]["owner"] == winner
        and build_refusal(state, prop, cost=a["high_bid"], kind=a["item"]) is None
    ]


def debt(state: dict) -> dict | None:
    d = state["pending"]["debt"]
    if not d:
        return None
    names = player_names(state)
    debtor = next(p for p in state["players"] if p["id"] == d["debtor"])
    return {
        **d,
        "debtor_name": names[d["debtor"]],
        "creditor_name": "the Bank" if d["creditor"] is None else names[d["creditor"]],
        "cash": debtor["cash"],
        "covered": debtor["cash"] >= d["amount"],
        "may_go_bankrupt": bankruptcy_refusal(state, d["debtor"]) is None,
        "groups": holdings_of(state, d["debtor"]),
        "mortgaged_deeds": [
            {"id": p, "name": DEEDS[p].name}
            for p in DEED_IDS
            if state["properties"][p]["owner"] == d["debtor"]
        ],
    }


def jail_choices(state: dict) -> dict | None:
    """At the start of a jailed turn: pay the fine, use a card, or roll for doubles."""
    pid = state["turn"]["player"]
    if pid is None:
        return None
    p = next(x for x in state["players"] if x["id"] == pid)
    if not p["in_jail"]:
        return None
    return {
        "player": p,
        "fine": JAIL_FINE,
        "cards": [{"deck": d, "name": DECK_NAMES[d]} for d in p["jail_cards"]],
        "attempt": p["jail_attempts"] + 1,
    }


def claims(state: dict) -> list[dict]:
    names = player_names(state)
    return [
        {
            **c,
            "text": f"{names[c['owner']]} may ask {names[c['payer']]} for {money(c['amount'])} "
            f"({DEEDS[c['property']].name})",
        }
        for c in state["pending"]["rent_claims"]
    ]


def blocking(state: dict) -> str | None:
    """What the table must settle before the next roll, if anything, in the core's order."""
    p = state["pending"]
    for key in ("debt", "offer", "auction", "card", "dice"):
        if p[key]:
            return key
    return None


def trade_view(state: dict, args) -> dict:
    """The trade form's choices and, once two players are chosen, its one-sentence summary."""
    names = player_names(state)
    active = [p for p in state["players"] if not p["eliminated"]]
    a, b = args.get("from", ""), args.get("to", "")
    if a not in names or state_player(state, a)["eliminated"]:
        a = active[0]["id"] if active else ""
    if b not in names or b == a or state_player(state, b)["eliminated"]:
        b = next((p["id"] for p in active if p["id"] != a), "")
    sides = []
    for prefix, pid in (("give", a), ("receive", b)):
        if not pid:
            continue
        chosen = set(args.getlist(f"{prefix}_properties"))
        cards = set(args.getlist(f"{prefix}_jail_cards"))
        p = state_player(state, pid)
        sides.append(
            {
                "prefix": prefix,
                "player": p,
                "deeds": [
                    {
                        "id": prop,
                        "name": DEEDS[prop].name,
                        "color": GROUP_COLORS[DEEDS[prop].group],
                        "mortgaged": state["properties"][prop]["mortgaged"],
                        "buildings": set_has_buildings(state, prop),
                        "checked": prop in chosen,
                    }
                    for prop in DEED_IDS
                    if state["properties"][prop]["owner"] == pid
                ],
                "cards": [
                    {"deck": d, "name": DECK_NAMES[d], "checked": d in cards}
                    for d in p["jail_cards"]
                ],
                "cash": args.get(f"{prefix}_cash", ""),
            }
        )
    lifted = set(args.getlist("unmortgage"))
    mortgaged = [
        {
            "id": prop,
            "name": DEEDS[prop].name,
            "cost": DEEDS[prop].lift_cost(state["edition"]),
            "checked": prop in lifted,
        }
        for side in sides
        for prop in (d["id"] for d in side["deeds"] if d["checked"] and d["mortgaged"])
    ]
    return {
        "active": active,
        "from": a,
        "to": b,
        "sides": sides,
        "mortgaged": mortgaged,
        "summary": trade_summary(state, a, b, args) if a and b else None,
    }


def state_player(state: dict, pid: str) -> dict:
    return next(p for p in state["players"] if p["id"] == pid)


def _listing(parts: list[str]) -> str:
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _side_parts(args, prefix: str) -> list[str]:
    parts = [DEEDS[p].name for p in args.getlist(f"{prefix}_properties") if p in DEEDS]
    parts += [
        f"the {DECK_NAMES[d]} Get Out of Jail Free card"
        for d in args.getlist(f"{prefix}_jail_cards")
        if d in DECK_NAMES
    ]
    cash = (args.get(f"{prefix}_cash") or "").strip().replace(",", "")
    if cash.isascii() and cash.isdigit() and len(cash) <= 12 and int(cash) > 0:
        parts.append(money(int(cash)))
    return parts


def trade_summary(state: dict, a: str, b: str, args) -> str:
    """The deal in one sentence, e.g. "Ann gives Baltic Avenue and 50 to Bob for Reading
    Railroad; Bob lifts nothing."."""
    names = player_names(state)
    give, get = _side_parts(args, "give"), _side_parts(args, "receive")
    sentence = f"{names[a]} gives {_listing(give)} to {names[b]} for {_listing(get)}."
    lifted = [p for p in args.getlist("unmortgage") if p in DEEDS]
    kept = [
        p
        for prefix in ("give", "receive")
        for p in args.getlist(f"{prefix}_properties")
        if p in DEEDS and state["properties"][p]["mortgaged"] and p not in lifted
    ]
    if lifted:
        sentence += f" Lifted at once: {_listing([DEEDS[p].name for p in lifted])}."
    if kept:
        kept_names = _listing([DEEDS[p].name for p in kept])
        if state["edition"] == "classic":
            sentence += f" Kept mortgaged (10% interest now): {kept_names}."
        else:
            sentence += f" Kept mortgaged: {kept_names}."
    return sentence


def offer_sentence(state: dict, offer: dict) -> str:
    """A trade offer in the Trade screen's one sentence, said as an offer."""
    args = MultiDict([("unmortgage", x) for x in offer.get("unmortgage") or []])
    for prefix in ("give", "receive"):
        side = offer.get(prefix) or {}
        args.add(f"{prefix}_cash", str(side.get("cash") or 0))
        for x in side.get("properties") or []:
            args.add(f"{prefix}_properties", x)
        for x in side.get("jail_cards") or []:
            args.add(f"{prefix}_jail_cards", x)
    deal = trade_summary(state, offer["from"], offer["to"], args)
    return f"Offer: {deal} Waiting for {player_names(state)[offer['to']]}."
