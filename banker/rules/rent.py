"""Rent and rent claims: what a deed's owner may ask, claims opened at a landing, asked for,
refused (a deed mortgaged or no longer the owner's), or lapsed at another player's roll."""

from __future__ import annotations

from .board import DEEDS, GROUPS, RAILROADS, UTILITIES
from .errors import DomainError
from .state import deed_name, event, money, name, pay, player, require_playing, require_ready


def owned_in_group(s: dict, owner: str, group) -> int:
    return sum(1 for d in group if s["properties"][d]["owner"] == owner)


def owns_set(s: dict, owner: str, prop: str) -> bool:
    group = GROUPS[DEEDS[prop].group]
    return owned_in_group(s, owner, group) == len(group)


def deed_rent(s: dict, prop: str, dice_total: int | None = None) -> int:
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


def claim_refusal(s: dict, claim_id: str, debt_counts: bool = True) -> DomainError | None:
    """Why the owner may not ask for this rent claim now, or None (then claim_rent is accepted).

    The claim must be open; the deed must still be the claim owner's and not mortgaged ("No rent
    is collected on a mortgaged property"), though the amount stays the one fixed at landing.
    While a debt is pending (no roll can come, so the claim stays open) it is paid at once if the
    payer's cash covers it, else it waits until that debt is settled (unless `debt_counts` is
    False: then the debt is not looked at).
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
    if debt_counts and s["pending"]["debt"]:
        return _debt_refusal(s, cl)
    return None


def _debt_refusal(s: dict, cl: dict) -> DomainError | None:
    """A claim asked while a debt is pending: refused only when the payer's cash does not cover
    it (the sentence names no one's cash in hand)."""
    if player(s, cl["payer"])["cash"] >= cl["amount"]:
        return None
    d = s["pending"]["debt"]
    return DomainError(
        f"{name(s, d['debtor'])} owes {name(s, d['creditor'])} {money(d['amount'])} and "
        f"{name(s, cl['payer'])}'s cash does not cover the {money(cl['amount'])} rent: the claim "
        "stays open until that debt is settled.",
        "debt_pending",
    )


def cmd_claim_rent(s: dict, events: list, c: dict) -> None:
    cid = c["claim"]
    require_playing(s)
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
    require_ready(s)
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
