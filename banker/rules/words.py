"""What is pending and who must act, once for every page (the Banker's, a player's, the display,
the pause page's paper record). Pure; reads the state only.

`to_act(state)` answers "what does the game wait for, and from whom?":

    {"phase": "playing" | "setup" | "final_round" | "claims_wait" | "finished" | "unfinished",
     "phase_sentence": "" while the game simply goes on, else the phase in words (the final
                       round is said until the game is scored),
     "pending": [Item, …],  what the table still has to settle, in the order it settles them,
     "now": Item | None,    what holds the game now: the first pending thing that blocks the
                            next roll (a rent claim never does, except after the final round),
                            else the next roll itself; None once the game is over,
     "then": Item | None,   what comes once nothing blocks: the next roll, or the end of the
                            final round when no roll will come (never a roll that will not come),
     "who": [player id, …], who must act now (now's `who`),
     "sentence": str}       the one sentence a heading shows (now's, else the phase's)

    Item = {"kind": "debt" | "payment" | "offer" | "auction" | "auction_queue" | "card" |
                    "dice" | "trade_offer" | "claim" | "roll" | "round_end",
            "who": [player id, …],  the person(s) who act on it (the debtor, the one offered a
                                    deed, the bidders, the card drawer, the one an offer is made
                                    to, the claim's owner, the roller),
            "banker": bool,         the Banker records it too (the dice, the cards, the hammer),
            "sentence": str,
            and the item's id where it has one: "offer" (a trade offer), "claim"}

`pending_in_words(state)` is the phase's sentence (unless the game simply goes on) and each
pending thing's, as a list.
"""

from __future__ import annotations

from .endgame import askable_claims, claims_wait, phase, phase_sentence
from .holdings import building_refusal_anywhere
from .state import deck_name, deed_name, money, name, survivors
from .trades import describe_deal


def _item(kind: str, who: list, sentence: str, banker: bool = False, **ids) -> dict:
    return {"kind": kind, "who": who, "banker": banker, "sentence": sentence, **ids}


def _auctioned(item: str) -> str:
    return deed_name(item) if item not in ("house", "hotel") else f"one {item}"


def _bidders(s: dict, item: str) -> list[str]:
    """Who may bid: every player still in (for a building, one who could legally place it)."""
    ids = [p["id"] for p in survivors(s)]
    if item in ("house", "hotel"):
        ids = [pid for pid in ids if building_refusal_anywhere(s, pid, item) is None]
    return ids


def _owed(s: dict) -> list[dict]:
    """The debt and the card payments waiting behind it."""
    p, out = s["pending"], []
    if p["debt"]:
        d = p["debt"]
        out.append(
            _item(
                "debt",
                [d["debtor"]],
                f"{name(s, d['debtor'])} owes {name(s, d['creditor'])} {money(d['amount'])}: "
                "raise the cash and pay it, or go bankrupt.",
            )
        )
    for x in p["payments"]:
        out.append(
            _item(
                "payment",
                [x["from"]],
                f"Then {name(s, x['from'])} pays {name(s, x['to'])} {money(x['amount'])}.",
            )
        )
    return out


def _one_at_a_time(s: dict) -> list[dict]:
    """What a landing or a bankruptcy opened: an offer, an auction, a card, a rent roll."""
    p, out = s["pending"], []
    if p["offer"]:
        o = p["offer"]
        out.append(
            _item(
                "offer",
                [o["player"]],
                f"{name(s, o['player'])} may buy {deed_name(o['property'])} for "
                f"{money(o['price'])} or put it up for auction.",
            )
        )
    if p["auction"]:
        a = p["auction"]
        high = (
            f"high bid {money(a['high_bid'])} by {name(s, a['high_bidder'])}"
            if a["high_bidder"]
            else "no bid yet (bids open at 10)"
        )
        sentence = f"The Banker is auctioning {_auctioned(a['item'])}: {high}."
        out.append(_item("auction", _bidders(s, a["item"]), sentence, banker=True))
    if p["auction_queue"]:
        queue = ", ".join(deed_name(x) for x in p["auction_queue"])
        out.append(_item("auction_queue", [], f"Still to auction after that: {queue}.", True))
    if p["card"]:
        c = p["card"]
        sentence = f"{name(s, c['player'])} draws a {deck_name(c['deck'])} card."
        out.append(_item("card", [c["player"]], sentence, banker=True))
    if p["dice"]:
        d = p["dice"]
        sentence = (
            f"{name(s, d['player'])} rolls the dice for the rent on {deed_name(d['property'])} "
            f"({d['multiplier']} times the roll)."
        )
        out.append(_item("dice", [d["player"]], sentence, banker=True))
    return out


def _answers(s: dict) -> list[dict]:
    """Trade offers waiting for an answer, then the rent claims that may be asked."""
    out = [
        _item(
            "trade_offer",
            [o["to"]],
            f"A trade offer: {describe_deal(s, o)}; {name(s, o['to'])} answers.",
            offer=o["id"],
        )
        for o in s["pending"]["trade_offers"]
    ]
    out += [
        _item(
            "claim",
            [cl["owner"]],
            f"{name(s, cl['owner'])} may ask {name(s, cl['payer'])} for {money(cl['amount'])} "
            f"rent on {deed_name(cl['property'])}.",
            claim=cl["id"],
        )
        for cl in askable_claims(s)
    ]
    return out


def _then(s: dict) -> dict | None:
    """What comes once nothing blocks: the next roll, or the end of the final round."""
    t = s["turn"]
    if s["status"] != "playing" or t["player"] is None:
        return None
    if s["pending"]["final_round"] and t["player"] == t["first"] and t["doubles"] == 0:
        return _item(
            "round_end",
            [],
            "Then the final round is over and the game is scored.",
            banker=True,
        )
    p = next(x for x in s["players"] if x["id"] == t["player"])
    roller = t["roller"] or p["name"]
    if p["in_jail"]:
        sentence = f"{roller} rolls next, in Jail: pay 50, use a card or try for doubles."
    else:
        sentence = f"{roller} rolls next."
    return _item("roll", [p["id"]], sentence, banker=True)


def to_act(s: dict) -> dict:
    """What is pending and who must act now (see the module's docstring for the shape)."""
    now_phase = phase(s)
    pending = _owed(s) + _one_at_a_time(s) + _answers(s) if s["status"] == "playing" else []
    then = _then(s)
    blocking = [i for i in pending if i["kind"] not in ("payment", "claim")]
    claims = [i for i in pending if i["kind"] == "claim"]
    now = blocking[0] if blocking else None
    if now is None and now_phase == "claims_wait" and claims:
        owners = list(dict.fromkeys(w for i in claims for w in i["who"]))
        now = _item("claim", owners, phase_sentence(s), banker=True)
    if now is None:
        now = then
    head = phase_sentence(s)
    return {
        "phase": now_phase,
        "phase_sentence": head,
        "pending": pending,
        "now": now,
        "then": then,
        "who": now["who"] if now else [],
        "sentence": now["sentence"] if now else head,
    }


def pending_in_words(s: dict) -> list[str]:
    """Every thing the table still has to settle, one sentence each, the phase first when the
    game is not simply going on ("Final round over: waiting for rent claims.")."""
    said = to_act(s)
    head = [said["phase_sentence"]] if said["phase"] != "playing" else []
    return head + [i["sentence"] for i in said["pending"]]


__all__ = ["claims_wait", "pending_in_words", "to_act"]
