"""A deed as a player's sheet shows it (the Banker's and the player's own page alike): its
printed rents with the one that applies now, and each action with why it is not possible now.

No rule is decided here: whether Build, Sell, Mortgage or Lift may be sent now, and the
sentence why not, is the core's answer for the seat looking (banker.web.common.may: the deed's
own rule, and what the game forbids now: a debt, the deadline's cutoff…); the rent is its
deed_rent().
"""

from __future__ import annotations

from banker.rules import owned_in_group, owns_set
from banker.rules.board import DEED_IDS, DEEDS, GROUP_COLORS, GROUP_NAMES, GROUPS
from banker.web.common.may import May
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


def deed(state: dict, prop: str, may: May) -> dict:
    """A deed as a sheet shows it, with each action and why `may`'s seat may not send it now."""
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
        actions.append(("build", build_label))
        actions.append(("sell_building", sell_label))
    if st["mortgaged"]:
        actions.append(("unmortgage", f"Lift {money(d.lift_cost(state['edition']))}"))
    else:
        actions.append(("mortgage", f"Mortgage +{money(d.mortgage_value)}"))
    return {
        **deed_facts(state, prop),
        "price": d.price,
        "rent": rent_text(state, prop),
        "ladder": rent_ladder(state, prop),
        "actions": [
            {"type": a, "label": label, "why": may.why(a, property=prop)} for a, label in actions
        ],
    }


def holdings_of(state: dict, pid: str, row=None, may: May | None = None) -> list[dict]:
    """A player's deeds grouped by color set, in board order: [{"group", "name", "color",
    "deeds", "complete", "size"}]; each deed as `row(state, prop)` makes it (default: the
    sheet's row, with its rent and its buttons as `may`'s seat may press them)."""
    if row is None:
        may = may or May(state, "banker")

        def row(state: dict, prop: str) -> dict:
            return deed(state, prop, may)

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
