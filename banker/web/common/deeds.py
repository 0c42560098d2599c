"""A deed as a player's sheet shows it (the Banker's and the player's own page alike): its
printed rents with the one that applies now, and each action with why it is not possible now.

No rule is decided here: legality comes from the core's refusal functions (build_refusal,
sell_refusal, mortgage_refusal, unmortgage_refusal) and the rent from its rent().
"""

from __future__ import annotations

from banker.rules import (
    build_refusal,
    mortgage_refusal,
    owned_in_group,
    owns_set,
    sell_refusal,
    unmortgage_refusal,
)
from banker.rules.board import DEED_IDS, DEEDS, GROUP_COLORS, GROUP_NAMES, GROUPS
from banker.web.common.present import GROUP_ORDER, deed_facts, money, rent_text

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
