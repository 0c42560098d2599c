"""A changing table: a player renamed, a latecomer added, a player who leaves for good.

- `rename_player`: the same name rules as at creation (rules/names.py), against every other
  player's name, the eliminated included; ids and tokens do not change.
- `add_player`: the same name rules; while the game is in setup or playing, with fewer than six
  players still in, not with partnerships. The latecomer's id is p<N+1>, N the players the game
  ever had (`_players`, kept across undo: an id is never reused), with the starting cash from
  the Bank, on GO, seated last.
- `leave`: as a bankruptcy to the Bank — buildings sold back at half price, cash back to the
  Bank (its figure said: an amount changing hands), deeds back unmortgaged and auctioned one
  after another in board order, Get Out of Jail Free cards back to their decks, open offers and
  the claims owed to or by them lapse, eliminated — refused with partnerships and while
  anything at all is pending for anyone (`leave_refusal`: the sentence names what waits). With
  one player left, they win and the deeds stay with the Bank. In setup the player just leaves
  the table: no longer in `players`, their id never reused; `start` then needs two players.

Pages ask `leave_refusal(state, pid)` and `what_leaves(state, pid)` (what goes back to the
Bank) before offering the command.
"""

from __future__ import annotations

from .board import DEED_IDS, STARTING_CASH
from .debts import eliminate
from .endgame import claims_wait, finish_with_winner
from .errors import DomainError
from .holdings import building_value, names_of
from .names import skeleton
from .state import (
    active_player,
    deck_name,
    deed_name,
    event,
    money,
    name,
    new_player,
    player,
    survivors,
)

MAX_PLAYERS = 6  # still in the game at once


def _members(s: dict, new_name: str) -> list[str]:
    """The partners a name stands for: two with partnerships (schema.Name joined them)."""
    return new_name.split(" & ") if s["options"]["teams"] else [new_name]


def name_refusal(s: dict, new_name: str, pid: str | None = None) -> DomainError | None:
    """Why `new_name` cannot be pid's (None: a latecomer's), or None: it must not be, or look
    like, the name of any other player, those out of the game included."""
    for other in s["players"]:
        if other["id"] == pid:
            continue
        for theirs in other["members"]:
            for mine in _members(s, new_name):
                if skeleton(mine) != skeleton(theirs):
                    continue
                if mine.casefold() == theirs.casefold():
                    text = f"{theirs} is already the name of a player: choose another name."
                else:
                    text = (
                        f"{mine!r} looks like {theirs!r}, another player's name: choose a name "
                        "the table can tell apart."
                    )
                return DomainError(text, "duplicate_name")
    return None


def rename_check(s: dict, c: dict) -> DomainError | None:
    """Why the rename `c` is refused now, or None: cmd_rename_player's every check
    (rules/schema.py's `refusal=`)."""
    p, new_name = player(s, c["player"]), c["name"]
    if new_name == p["name"]:
        return DomainError(f"{p['name']} is already called {new_name}.", "same_name")
    return name_refusal(s, new_name, p["id"])


def cmd_rename_player(s: dict, events: list, c: dict) -> None:
    p, new_name = player(s, c["player"]), c["name"]
    old, old_members = p["name"], p["members"]
    p["name"], p["members"] = new_name, _members(s, new_name)
    t = s["turn"]
    if t["player"] == p["id"] and t["roller"] in old_members:
        t["roller"] = p["members"][old_members.index(t["roller"])]
    event(
        s,
        events,
        "renamed",
        f"{old} is now called {new_name}.",
        player=p["id"],
        old=old,
        new=new_name,
    )


def _no_teams(s: dict, sentence: str) -> None:
    if s["options"]["teams"]:
        raise DomainError(sentence, "not_with_teams")


def latecomer_check(s: dict, c: dict) -> DomainError | None:
    """Why the latecomer `c` is refused now, or None: cmd_add_player's every check
    (rules/schema.py's `refusal=`)."""
    try:
        _no_teams(
            s, "No one can join the partnerships variation: it is played by two pairs to the end."
        )
    except DomainError as e:
        return e
    if len(survivors(s)) >= MAX_PLAYERS:
        return DomainError(
            f"The game already has {MAX_PLAYERS} players, the most it can seat.", "table_full"
        )
    return name_refusal(s, c["name"])


def cmd_add_player(s: dict, events: list, c: dict) -> None:
    new_name = c["name"]
    last = s["players"][-1]["name"]
    s["_players"] += 1
    pid = f"p{s['_players']}"
    s["players"].append(new_player(pid, [new_name], STARTING_CASH))
    event(
        s,
        events,
        "player_added",
        f"{new_name} joins the game, seated last (play reaches them after {last}): a token on "
        f"GO and {money(STARTING_CASH)} from the Bank.",
        player=pid,
        amount=STARTING_CASH,
    )


# --- leaving ------------------------------------------------------------------------------


def leave_refusal(s: dict, pid: str) -> DomainError | None:
    """Why pid may not leave now, or None: partnerships, or anything at all pending for anyone
    (a table lets the current business finish first, so a leaver's deed is never at once
    offered to a player and in the auction queue). A player in debt leaves by paying it or by
    going bankrupt. Trade offers and rent claims do not hold a leave (the final round's claims
    aside): those owed to or by the leaver lapse with them."""
    p = player(s, pid)
    who = p["name"]
    if s["options"]["teams"]:
        return DomainError(
            "In the partnerships variation no one leaves the table: the two pairs play to the "
            "end (a partnership out of money goes bankrupt).",
            "not_with_teams",
        )
    d = s["pending"]["debt"]
    if d and d["debtor"] == pid:
        return DomainError(
            f"{who} owes {name(s, d['creditor'])} {money(d['amount'])}: a player in debt pays it "
            "or goes bankrupt, rather than leaving.",
            "debt_pending",
        )
    if d and d["creditor"] == pid:
        return DomainError(
            f"{name(s, d['debtor'])} owes {who} {money(d['amount'])}: settle that debt before "
            f"{who} leaves.",
            "debt_pending",
        )
    refusal = _own_pending_refusal(s, pid, who)
    if refusal:
        return refusal
    waits = _what_waits(s)
    if waits is None:
        return None
    what, code = waits
    return DomainError(f"{what}: the table settles that before {who} leaves.", code)


def _own_pending_refusal(s: dict, pid: str, who: str) -> DomainError | None:
    """What waits for pid alone: their offer to buy, card, rent roll, or a high bid."""
    pending = s["pending"]
    o, card, dice, a = pending["offer"], pending["card"], pending["dice"], pending["auction"]
    if o and o["player"] == pid:
        return DomainError(
            f"{who} may buy {deed_name(o['property'])}: buy it or put it up for auction before "
            f"{who} leaves.",
            "offer_pending",
        )
    if card and card["player"] == pid:
        return DomainError(
            f"{who} must draw a {deck_name(card['deck'])} card before leaving.", "card_pending"
        )
    if dice and dice["player"] == pid:
        return DomainError(
            f"{who} must roll for the utility rent before leaving.", "rent_roll_pending"
        )
    if a and a["high_bidder"] == pid:
        item = deed_name(a["item"]) if a["item"] in DEED_IDS else f"one {a['item']}"
        return DomainError(
            f"{who} holds the high bid in the auction of {item}: close that auction before "
            f"{who} leaves.",
            "high_bidder",
        )
    return None


def _what_waits(s: dict) -> tuple[str, str] | None:
    """The first thing pending for anyone that holds a leave, in words, with its code."""
    pending = s["pending"]
    d, o, a = pending["debt"], pending["offer"], pending["auction"]
    card, dice = pending["card"], pending["dice"]
    if d:
        owes = f"{name(s, d['debtor'])} owes {name(s, d['creditor'])} {money(d['amount'])}"
        if s["_after_debt"]:  # a jailed player's move waiting for the fine
            owes += f" and {name(s, s['_after_debt']['player'])}'s move waits for it"
        return owes, "debt_pending"
    if pending["payments"]:
        x = pending["payments"][0]
        return (
            f"A card's payments are still to be made ({name(s, x['from'])} pays "
            f"{name(s, x['to'])} {money(x['amount'])})",
            "payments_pending",
        )
    if s["_after_debt"]:
        return f"{name(s, s['_after_debt']['player'])}'s move waits", "move_pending"
    if o:
        return (
            f"{name(s, o['player'])} may buy {deed_name(o['property'])} or put it up for auction",
            "offer_pending",
        )
    if a:
        item = deed_name(a["item"]) if a["item"] in DEED_IDS else f"one {a['item']}"
        return f"The auction of {item} is open", "auction_pending"
    if pending["auction_queue"]:
        queue = names_of(pending["auction_queue"])
        one = len(pending["auction_queue"]) == 1
        return f"{queue} still wait{'s' if one else ''} to be auctioned", "auction_pending"
    if card:
        return (
            f"{name(s, card['player'])} must draw a {deck_name(card['deck'])} card",
            "card_pending",
        )
    if dice:
        return f"{name(s, dice['player'])} must roll for the utility rent", "rent_roll_pending"
    if claims_wait(s):
        return "The final round is over and its rent claims wait", "final_round_over"
    return None


def what_leaves(s: dict, pid: str) -> dict:
    """What returns to the Bank if pid leaves now: {"cash" (in hand), "buildings" (what
    selling theirs back at half price brings), "deeds" (board order), "jail_cards" (decks)}."""
    p = player(s, pid)
    deeds = [d for d in DEED_IDS if s["properties"][d]["owner"] == pid]
    return {
        "cash": p["cash"],
        "buildings": sum(building_value(d, s["properties"][d]) for d in deeds),
        "deeds": deeds,
        "jail_cards": list(p["jail_cards"]),
    }


def _left_sentence(s: dict, who: str, back: dict, last_one: bool) -> str:
    """ "Cat left the game for good: …" — what went back to the Bank. The cash a leaver hands
    over is an amount changing hands: said with its figure, private_cash or not."""
    cash, sold, deeds, cards = back["cash"], back["buildings"], back["deeds"], back["jail_cards"]
    money_back = f"{money(cash + sold)} in cash returns to the Bank"
    if sold:
        money_back += f" ({money(sold)} of it for their buildings, sold back at half price)"
    parts = [money_back]
    if deeds and last_one:
        parts.append(f"{names_of(deeds)} stay{'s' if len(deeds) == 1 else ''} with the Bank")
    elif deeds:
        one = len(deeds) == 1
        parts.append(
            f"{names_of(deeds)} return{'s' if one else ''} to the Bank unmortgaged, to be "
            f"auctioned{'' if one else ' one after another'}"
        )
    for deck in cards:
        parts.append(f"the {deck_name(deck)} Get Out of Jail Free card goes back to its deck")
    return f"{who} left the game for good: " + "; ".join(parts) + "."


def _leave_the_table(s: dict, events: list, p: dict) -> None:
    """In setup the player just leaves the table: no longer in `players` (their id is never
    given to anyone else: `_players` counts every player the game ever had)."""
    if len(s["players"]) == 1:
        raise DomainError(
            f"{p['name']} is the only one at the table: a game needs players.", "last_at_table"
        )
    s["players"] = [x for x in s["players"] if x["id"] != p["id"]]
    event(
        s,
        events,
        "left",
        f"{p['name']} left the table before the game started.",
        player=p["id"],
    )


def leave_check(s: dict, c: dict) -> DomainError | None:
    """Why the leave `c` is refused now, or None: cmd_leave's every check (rules/schema.py's
    `refusal=`)."""
    try:
        p = active_player(s, c)
    except DomainError as e:
        return e
    return leave_refusal(s, p["id"])


def cmd_leave(s: dict, events: list, c: dict) -> None:
    p = active_player(s, c)
    pid = p["id"]
    if s["status"] == "setup":
        _leave_the_table(s, events, p)
        return
    back = what_leaves(s, pid)
    bank = s["bank"]
    for d in back["deeds"]:
        st = s["properties"][d]
        bank["houses"] += st["houses"]
        bank["hotels"] += st["hotel"]
        st.update(owner=None, mortgaged=False, houses=0, hotel=False)
    p["cash"], p["jail_cards"] = 0, []
    last_one = len(survivors(s)) == 2
    event(s, events, "left", _left_sentence(s, p["name"], back, last_one), player=pid)
    eliminate(s, events, pid)
    if last_one:
        finish_with_winner(s, events, survivors(s)[0])
    else:
        s["pending"]["auction_queue"] = s["pending"]["auction_queue"] + back["deeds"]
