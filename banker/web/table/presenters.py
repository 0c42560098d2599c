"""The one home of what the Banker's screens show (banker.web.table.screens reads it for each
screen): who acts now (the core's to_act), a player's sheet, the rent claims, what blocks the
next roll, where a won building may go, the cards as printed, what an auction still holds,
whether a building auction is due, what a bankruptcy hands over, the history grouped by turn,
the standings of a stopped game. (What a player's page shows too is in banker.web.common:
deeds, choices, trade, present.)

Read from the state with the core's own functions; no rule is decided here: what the Banker may
press now, and why not, is the core's answer (banker.web.common.may).
"""

from __future__ import annotations

import re

from banker.rules import building_refusal_anywhere, building_value, can_raise, phase, score, to_act
from banker.rules.board import (
    CARDS,
    COLOR_GROUPS,
    DECK_NAMES,
    DEED_IDS,
    DEEDS,
    GROUPS,
    JAIL_CARD,
    SPACES,
)
from banker.web.common.deeds import holdings_of
from banker.web.common.may import May
from banker.web.common.present import (
    counted,
    listing,
    money,
    player_names,
    state_player,
    where,
)


def space_names() -> list[tuple[int, str]]:
    """Every space's number and printed name, in board order."""
    return [(s.index, s.name) for s in SPACES]


def sheet(state: dict, pid: str, may: May) -> dict:
    """A player's sheet: where they stand, their deeds by color set (with what the Banker may
    do on each now), net worth, jail cards."""
    p = next(x for x in state["players"] if x["id"] == pid)
    return {
        "player": p,
        "where": where(p),
        "groups": holdings_of(state, pid, may=may),
        "net_worth": score(state, pid),
        "can_raise": can_raise(state, pid),
        "jail_cards": [DECK_NAMES[d] for d in p["jail_cards"]],
    }


def placements(state: dict, may: May) -> list[dict]:
    """Where the winner of a building auction may place it now (the core's close_auction)."""
    a = state["pending"]["auction"]
    if a["high_bidder"] is None:
        return []
    return [
        {"id": prop, "name": DEEDS[prop].name}
        for prop in DEED_IDS
        if may.allowed("close_auction", property=prop)
    ]


def claims(state: dict, may: May) -> list[dict]:
    """The open rent claims, each with its sentence and, when it may not be asked now, why."""
    names = player_names(state)
    return [
        {
            **c,
            "text": f"{names[c['owner']]} may ask {names[c['payer']]} for {money(c['amount'])} "
            f"({DEEDS[c['property']].name})",
            "why": may.why("claim_rent", claim=c["id"]),
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


def final_claims_wait(state: dict) -> bool:
    """The agreed deadline's final round is over and only rent claims keep the game open (the
    core's phase)."""
    return phase(state) == "claims_wait" and bool(state["pending"]["rent_claims"])


def _heading(state: dict, item: dict, names: dict[str, str]) -> str:
    """The Banker's short heading for what holds the game now (an item of rules.to_act)."""
    p, kind = state["pending"], item["kind"]
    if kind == "debt":
        d = p["debt"]
        to = "the Bank" if d["creditor"] is None else names[d["creditor"]]
        return f"{names[d['debtor']]} must pay {money(d['amount'])} to {to}"
    if kind == "offer":
        deed = DEEDS[p["offer"]["property"]].name
        return f"{names[p['offer']['player']]} decides: buy {deed} or auction it"
    if kind == "auction":
        what = p["auction"]["item"]
        return f"Auction of {DEEDS[what].name if what in DEEDS else 'a ' + what}: everyone may bid"
    if kind == "card":
        return f"{names[p['card']['player']]} draws a {DECK_NAMES[p['card']['deck']]} card"
    if kind == "dice":
        deed = DEEDS[p["dice"]["property"]].name
        return f"{names[p['dice']['player']]} rolls for the rent on {deed}"
    if kind == "trade_offer":
        o = next(o for o in p["trade_offers"] if o["id"] == item["offer"])
        return f"{names[o['to']]} answers {names[o['from']]}’s trade offer"
    if kind == "roll":
        who, roller = state["turn"]["player"], state["turn"]["roller"]
        extra = f" ({roller} rolls)" if roller and roller != names[who] else ""
        return f"{names[who]}’s turn{extra}"
    return item["sentence"].rstrip(".")  # the final round's end, its claims


def acting(state: dict) -> dict:
    """The heading: who must act now and on what, then what comes next, from the core's one
    answer (rules.to_act: never a roll that will not come), in the Banker's short words.

    {"who": [player id, …] (who must act now), "text": the heading, "next": a line or None,
     "rolls_next": [the player whose roll comes next] or [] when no roll will come}.
    """
    status = state["status"]
    if status == "setup":
        return {"who": [], "text": "Who won the opening roll?", "next": None, "rolls_next": []}
    if status == "finished":
        return {"who": [], "text": "Game over", "next": None, "rolls_next": []}
    if status == "unfinished":
        return {"who": [], "text": "Game stopped, unfinished", "next": None, "rolls_next": []}
    said = to_act(state)
    now, then = said["now"], said["then"]
    names = player_names(state)
    rolls_next = then["who"] if then and then["kind"] == "roll" else []
    text = _heading(state, now, names) if now else said["sentence"]
    nxt = None
    if then and now is not then:
        if then["kind"] == "roll":
            t = state["turn"]
            again = " again" if t["doubles"] and t["player"] in said["who"] else ""
            nxt = f"Then {t['roller'] or names[t['player']]} rolls{again}."
        else:
            nxt = then["sentence"]
    return {"who": said["who"], "text": text, "next": nxt, "rolls_next": rolls_next}


# -- cards as printed ---------------------------------------------------------------------

_CAPS_WORD = re.compile(r"^[A-Z$0-9][A-Z$0-9.,'’:–-]*$")
_SENTENCE = re.compile(r"(?<=[.!?])(?<!ST\.)\s+")  # "ST. CHARLES PLACE" is one sentence
_KINDS = (
    ("Move", ("move_to", "move_to_nearest", "move_relative")),
    ("Collect", ("collect", "collect_from_each_player")),
    ("Pay", ("pay", "pay_each_player", "repairs")),
    ("Jail", ("go_to_jail", "get_out_of_jail_free")),
)


def _is_instruction(sentence: str) -> bool:
    first = sentence.split(" ", 1)[0]
    return bool(_CAPS_WORD.match(first)) and any(ch.isalpha() for ch in first) and len(first) > 1


def card_parts(text: str) -> tuple[str, str]:
    """(lead, rest) in the card's own words: a Community Chest card's story line, then its
    instruction in capitals; a Chance card's instruction in capitals, then its small print."""
    sentences = _SENTENCE.split(text.strip())
    i = next((k for k, s in enumerate(sentences) if _is_instruction(s)), 0)
    if i > 0:
        return " ".join(sentences[:i]), " ".join(sentences[i:])
    j = next((k for k, s in enumerate(sentences) if s != s.upper()), len(sentences))
    return " ".join(sentences[:j]), " ".join(sentences[j:])


def _sort_key(effect: dict) -> tuple:
    return (
        effect.get("target", effect.get("spaces", 99)),
        effect.get("amount", effect.get("per_house", 0)),
    )


def card_groups(state: dict, deck: str, held: bool, may: May) -> list[dict]:
    """The deck's cards grouped as a Banker scans them (Move, Collect, Pay, Jail), each card
    with its lead line and instruction, and why it may not be recorded now when the core says
    so; a Get Out of Jail Free card someone holds is left out."""
    groups = []
    for title, kinds in _KINDS:
        cards = [
            c
            for c in CARDS[deck].values()
            if c.effect["kind"] in kinds and not (held and c.id == JAIL_CARD)
        ]
        cards.sort(key=lambda c: _sort_key(c.effect))
        if cards:
            groups.append(
                {
                    "title": title,
                    "cards": [
                        {
                            "id": c.id,
                            "lead": card_parts(c.text)[0],
                            "rest": card_parts(c.text)[1],
                            "why": may.why("draw_card", deck=deck, card=c.id),
                        }
                        for c in cards
                    ],
                }
            )
    return groups


# -- auctions -------------------------------------------------------------------------------


def auction_queue_text(state: dict) -> str | None:
    queue = state["pending"]["auction_queue"]
    if not queue:
        return None
    n = len(queue)
    names = ", ".join(DEEDS[p].name for p in queue if p in DEEDS)
    return f"{n} more deed{'s' if n != 1 else ''} after this one: {names}."


def _room(state: dict, pid: str, kind: str) -> int:
    """How many buildings of that kind pid could still add on sets where building is allowed."""
    room = 0
    for group in COLOR_GROUPS:
        streets = GROUPS[group]
        sts = [state["properties"][s] for s in streets]
        if any(st["owner"] != pid or st["mortgaged"] for st in sts):
            continue
        if kind == "house":
            room += sum(0 if st["hotel"] else 4 - st["houses"] for st in sts)
        else:
            room += sum(0 if st["hotel"] else 1 for st in sts)
    return room


def building_shortage(state: dict) -> list[dict]:
    """The building auctions worth offering: the Bank's supply of a kind is fewer than what
    the players who could build it now (two or more) could still place."""
    out = []
    active = [p["id"] for p in state["players"] if not p["eliminated"]]
    for kind in ("house", "hotel"):
        bank = state["bank"][kind + "s"]
        if bank == 0:
            continue
        builders = [pid for pid in active if building_refusal_anywhere(state, pid, kind) is None]
        want = sum(_room(state, pid, kind) for pid in builders)
        if len(builders) >= 2 and want > bank:
            names = player_names(state)
            who = listing([names[b] for b in builders])
            out.append(
                {
                    "kind": kind,
                    "text": f"The Bank has {counted(bank, kind)}; {who} could place "
                    f"{counted(want, kind)} between them.",
                }
            )
    return out


# -- bankruptcy -----------------------------------------------------------------------------


def bankruptcy_preview(state: dict) -> dict | None:
    """Exactly what a bankruptcy now would hand over, and to whom."""
    d = state["pending"]["debt"]
    if not d:
        return None
    pid, creditor = d["debtor"], d["creditor"]
    names = player_names(state)
    p = state_player(state, pid)
    deeds = [prop for prop in DEED_IDS if state["properties"][prop]["owner"] == pid]
    buildings = sum(building_value(x, state["properties"][x]) for x in deeds)
    to_mortgage = [x for x in deeds if not state["properties"][x]["mortgaged"]]
    cash = p["cash"] + buildings
    if creditor is not None:
        cash += sum(DEEDS[x].mortgage_value for x in to_mortgage)
    rows = [
        {
            "id": x,
            "name": DEEDS[x].name,
            "already": state["properties"][x]["mortgaged"],
            "value": DEEDS[x].mortgage_value,
            "lift": DEEDS[x].lift_cost(state["edition"]),
        }
        for x in deeds
    ]
    cards = [DECK_NAMES[c] for c in p["jail_cards"]]
    return {
        "debtor": names[pid],
        "creditor": None if creditor is None else names[creditor],
        "cash": cash,
        "own_cash": p["cash"],
        "buildings": buildings,
        "deeds": rows,
        "to_mortgage": [DEEDS[x].name for x in to_mortgage],
        "cards": cards,
    }


# -- history --------------------------------------------------------------------------------

CORRECTIONS = {"adjusted", "token_moved"}


# What a player does at the start of their own turn, before rolling: it opens their turn.
BEFORE_THE_ROLL = {"jail_fine_paid", "jail_card_used"}


def _whose(text: str, names: dict[str, str]) -> str | None:
    """The player a sentence begins with ("Dan paid the 50 fine…": Dan)."""
    found = [n for n in names.values() if text.startswith(n + " ")]
    return max(found, key=len) if found else None


def history_groups(events: list[dict], names: dict[str, str]) -> list[dict]:
    """Events grouped by turn, newest turn first; inside a turn, in the order they happened.
    A turn is a roll (titled by it) and everything that followed it, but what a player does
    before their own roll (paying the fine or using a card to leave Jail) opens their turn, and
    the roll that follows is its title. Corrections are marked."""
    groups: list[dict] = []
    current: dict | None = None
    for e in events:
        opening = current is not None and current.get("opening")
        if e["type"] == "rolled" and opening:
            current.update(title=e["text"].rstrip("."), undone=e["undone"], opening=False)
            continue
        if e["type"] in ("rolled", "started"):
            current = {"title": e["text"].rstrip("."), "undone": e["undone"], "events": []}
            groups.append(current)
            continue
        if e["type"] in BEFORE_THE_ROLL and not opening:
            who = _whose(e["text"], names)
            title = f"{who}’s turn" if who else "The next turn"
            current = {"title": title, "undone": e["undone"], "events": [], "opening": True}
            groups.append(current)
        if current is None:
            current = {"title": "Before the first roll", "undone": False, "events": []}
            groups.append(current)
        current["events"].append({**e, "correction": e["type"] in CORRECTIONS})
    return list(reversed(groups))


def standings(state: dict) -> list[dict]:
    """Where each player stands, in seating order (an unfinished game ranks nobody)."""
    out = []
    for p in state["players"]:
        mine = [x for x in DEED_IDS if state["properties"][x]["owner"] == p["id"]]
        houses = sum(state["properties"][x]["houses"] for x in mine)
        hotels = sum(1 for x in mine if state["properties"][x]["hotel"])
        parts = []
        if houses:
            parts.append(f"{houses} house{'s' if houses != 1 else ''}")
        if hotels:
            parts.append(f"{hotels} hotel{'s' if hotels != 1 else ''}")
        mortgaged = sum(1 for x in mine if state["properties"][x]["mortgaged"])
        deeds = str(len(mine)) + (f" ({mortgaged} mortgaged)" if mortgaged else "")
        out.append(
            {
                "name": p["name"],
                "cash": p["cash"],
                "deeds": deeds,
                "buildings": ", ".join(parts) or "none",
                "eliminated": p["eliminated"],
            }
        )
    return out
