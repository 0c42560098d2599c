"""A trade as the Banker's Trade screen and a player's own trade form show it: the choices of
each side, and the deal in one sentence (an offer waiting for an answer too)."""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from banker.rules import Refusal, apply, seat_refusal, set_has_buildings, text_for
from banker.rules.board import DECK_NAMES, DEED_IDS, DEEDS, GROUP_COLORS
from banker.web.common import forms
from banker.web.common.present import listing, money, player_names, state_player


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


def deal_refusal(state: dict, args, kind: str = "trade", seat: str = "banker") -> str | None:
    """Why the deal as the form holds it now (`args`) would be refused if sent as `kind`
    ("trade" by the Banker, "propose_trade" from a player's phone, `seat`), or None: the form's
    send button is then disabled with this sentence. The core decides, on a copy: the deal is
    read as the form would be sent and applied to the state, which is not changed."""
    data = MultiDict(args)
    data["type"] = kind
    try:
        command = forms.command_from(data, forms.TYPES | {"propose_trade"})
    except forms.FormError as e:
        return e.message
    why = seat_refusal(state, seat, command)
    if why:
        return why
    try:
        apply(state, command)
    except Refusal as e:
        return text_for(state, seat, e)  # private_cash: no one else's cash in hand
    return None


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
    sentence = f"{names[a]} gives {listing(give)} to {names[b]} for {listing(get)}."
    lifted = [p for p in args.getlist("unmortgage") if p in DEEDS]
    kept = [
        p
        for prefix in ("give", "receive")
        for p in args.getlist(f"{prefix}_properties")
        if p in DEEDS and state["properties"][p]["mortgaged"] and p not in lifted
    ]
    if lifted:
        sentence += f" Lifted at once: {listing([DEEDS[p].name for p in lifted])}."
    if kept:
        kept_names = listing([DEEDS[p].name for p in kept])
        if state["edition"] == "classic":
            sentence += f" Kept mortgaged (10% interest now): {kept_names}."
        else:
            sentence += f" Kept mortgaged: {kept_names}."
    return sentence


def offer_sentence(state: dict, offer: dict) -> str:
    """A trade offer in the Trade screen's one sentence, said as an offer."""
    deal = trade_summary(state, offer["from"], offer["to"], offer_args(offer))
    return f"Offer: {deal} Waiting for {player_names(state)[offer['to']]}."


def offer_args(offer: dict) -> MultiDict:
    """A trade offer as the Trade form's fields, so that its summary is the Banker's sentence."""
    args = MultiDict()
    for prefix in ("give", "receive"):
        side = offer.get(prefix) or {}
        args.setlist(f"{prefix}_properties", list(side.get("properties") or []))
        args.setlist(f"{prefix}_jail_cards", list(side.get("jail_cards") or []))
        args[f"{prefix}_cash"] = str(side.get("cash") or 0)
    args.setlist("unmortgage", list(offer.get("unmortgage") or []))
    return args
