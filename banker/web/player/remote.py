"""What a player's page shows: their money, deeds and the table, and the remote's controls.

The player's page is a remote for that one player: their offer, the auction, their jail choices,
their deeds' Build / Sell / Mortgage / Lift, their debt, their rent claims and trade offers. No
rule is decided here: what is possible and why not comes from the presenters the Banker's table
shares (banker.web.common: deeds, choices, trade, which ask the core), what a player's phone
may send from banker.rules.permissions, and what a player may see of the others (private cash)
from view_for.
"""

from __future__ import annotations

import secrets

from werkzeug.datastructures import MultiDict

from banker.rules import askable_claims, claims_wait, score, view_for
from banker.rules.board import DECK_NAMES, DEEDS
from banker.web.common import choices
from banker.web.common.deeds import holdings_of
from banker.web.common.present import deed_facts, money, player_names, state_player
from banker.web.common.present import where as present_where
from banker.web.common.store import get_store
from banker.web.common.trade import offer_args, trade_summary, trade_view

POLL_EVERY = "700ms"
LATEST_EVENTS = 6
FINAL_ROUND_OVER = "Final round over: waiting for rent claims."


def _at(p: dict) -> str:
    """Where a token stands, as a sentence begins: "In Jail", "Just Visiting", "On Boardwalk"."""
    where = present_where(p)
    return where if where in ("In Jail", "Just Visiting") else f"On {where}"


def final_round_over(state: dict) -> bool:
    """The agreed deadline's final round has ended and rent claims still wait to be asked."""
    return claims_wait(state) and bool(state["pending"]["rent_claims"])


def _ending(state: dict, names: dict) -> str | None:
    """The sentence for a game that is over (or whose final round is), else None."""
    if state["status"] == "finished":
        winners = " and ".join(names[w] for w in state["winners"])
        return f"The game is over: {winners} won." if winners else "The game is over."
    if state["status"] == "unfinished":
        return "The game was stopped early: an unfinished game, with no winner."
    if final_round_over(state):
        return FINAL_ROUND_OVER
    return None


def _auction_line(state: dict, names: dict) -> str:
    a = state["pending"]["auction"]
    what = DEEDS[a["item"]].name if a["item"] in DEEDS else f"a {a['item']}"
    if a["high_bidder"]:
        return f"Auction of {what}: {names[a['high_bidder']]} bids {money(a['high_bid'])}."
    return f"Auction of {what}: no bid yet."


def status_line(state: dict, me: dict) -> str:
    """One sentence on where the game stands, as a player at the table would say it."""
    names = player_names(state)
    if state["status"] == "setup":
        return "The game has not started yet: the Banker records who won the opening roll."
    ending = _ending(state, names)
    if ending:
        return ending
    pending = state["pending"]
    debt = pending["debt"]
    if debt:
        creditor = names.get(debt["creditor"], "the Bank")
        if debt["debtor"] == me["id"]:
            return (
                f"You owe {creditor} {money(debt['amount'])}: raise the cash "
                "(sell buildings, mortgage, trade), then pay."
            )
        return f"{names[debt['debtor']]} owes {creditor} {money(debt['amount'])}."
    offer = pending["offer"]
    if offer:
        deed, price = DEEDS[offer["property"]].name, money(offer["price"])
        if offer["player"] == me["id"]:
            return f"You may buy {deed} for {price}, or put it up for auction."
        return f"{names[offer['player']]} may buy {deed} for {price}."
    if pending["auction"]:
        return _auction_line(state, names)
    if pending["card"]:
        card = pending["card"]
        return f"{names[card['player']]} draws a {DECK_NAMES[card['deck']]} card."
    if pending["dice"]:
        return f"{names[pending['dice']['player']]} rolls the dice for a utility's rent."
    offered = [o for o in pending.get("trade_offers", []) if o["to"] == me["id"]]
    if offered:
        return f"{names[offered[0]['from']]} offers you a trade: accept or decline it below."
    roller = state["turn"]["roller"] or names.get(state["turn"]["player"], "")
    if state["turn"]["player"] == me["id"]:
        return f"Your turn to roll ({roller})." if len(me["members"]) > 1 else "Your turn to roll."
    return f"{roller} rolls next."


# -- the remote's controls -----------------------------------------------------------------------


def trade_offers(state: dict, pid: str) -> dict:
    """The open trade offers: to this player, from them, and between the others."""
    out: dict[str, list] = {"incoming": [], "outgoing": [], "others": []}
    for o in state["pending"].get("trade_offers", []):
        item = {
            "id": o["id"],
            "summary": trade_summary(state, o["from"], o["to"], offer_args(o)),
        }
        if o["to"] == pid:
            out["incoming"].append(item)
        elif o["from"] == pid:
            out["outgoing"].append(item)
        else:
            out["others"].append(item)
    return out


def _my_auction(state: dict, me: dict) -> dict | None:
    """The open auction as this player bids in it: quick raises never above their cash."""
    a = state["pending"]["auction"]
    if not a:
        return None
    names = player_names(state)
    mine = next((b for b in choices.bidders(state) if b["id"] == me["id"]), None)
    item = a["item"]
    return {
        "what": DEEDS[item].name if item in DEEDS else f"one {item}",
        "high_bid": a["high_bid"],
        "high_bidder": names.get(a["high_bidder"]),
        "leading": a["high_bidder"] == me["id"],
        "why": mine["why"] if mine else None,
        "can_bid": mine is not None and me["cash"] > a["high_bid"],
        "raises": [r for r in (mine["raises"] if mine else []) if r["amount"] <= me["cash"]],
        "cash": me["cash"],
    }


def _my_jail(state: dict, pid: str) -> dict | None:
    jail = choices.jail_choices(state)
    if jail is None or jail["player"]["id"] != pid:
        return None
    return jail


def _my_debt(state: dict, pid: str) -> dict | None:
    debt = choices.debt(state)
    if debt is None or debt["debtor"] != pid:
        return None
    return debt


def controls(state: dict, me: dict) -> dict:
    """What this player may press now (only their own things); empty unless players act."""
    acts = bool(state["options"].get("players_act", True))
    live = acts and state["status"] == "playing" and not me["eliminated"]
    offer = state["pending"]["offer"]
    return {
        "acts": acts,
        "live": live,
        # The trade form is not live: it shows before the start too, fetched fresh when opened.
        "trading": acts and state["status"] in ("setup", "playing") and not me["eliminated"],
        "offer": offer if live and offer and offer["player"] == me["id"] else None,
        "offer_deed": DEEDS[offer["property"]].name if offer else None,
        "auction": _my_auction(state, me) if live else None,
        "jail": _my_jail(state, me["id"]) if live else None,
        "debt": _my_debt(state, me["id"]) if live else None,
        "holdings": holdings_of(state, me["id"]),
        "trades": trade_offers(state, me["id"]),
    }


def compose_view(state: dict, pid: str, args) -> dict | None:
    """The trade this player is putting together (from the query string), or None when no
    other player is left to trade with. The summary is the Banker's Trade screen's sentence."""
    me = state_player(state, pid)
    others = [p for p in state["players"] if not p["eliminated"] and p["id"] != pid]
    if me["eliminated"] or not others:
        return None
    chosen = MultiDict(args)
    chosen["from"] = pid
    trade = trade_view(state, chosen)
    for side in trade["sides"]:
        if state["options"].get("private_cash") and side["player"]["id"] != pid:
            side["player"] = {**side["player"], "cash": None}  # theirs to know
    picked = any(
        chosen.get(k) or chosen.getlist(k)
        for k in ("give_properties", "receive_properties", "give_jail_cards")
        + ("receive_jail_cards", "give_cash", "receive_cash")
    )
    return {**trade, "others": others, "picked": picked}


# -- the whole page ---------------------------------------------------------------------------


def pot(state: dict) -> str | None:
    """The Free Parking pot while that house rule is on, else None."""
    if not state["options"]["free_parking_jackpot"]:
        return None
    return money(state["bank"]["free_parking"])


def _me(internal: dict, state: dict, player_id: str) -> dict:
    me = state_player(state, player_id)
    return {
        "id": me["id"],
        "name": me["name"],
        "members": me["members"],
        "cash": money(me["cash"]),
        "where": present_where(me),
        "in_jail": me["in_jail"],
        "jail_attempts": me["jail_attempts"],
        "jail_cards": [DECK_NAMES[d] for d in me["jail_cards"]],
        "eliminated": me["eliminated"],
        "net_worth": money(score(internal, player_id)),
        "score": state["scores"] and state["scores"].get(player_id),
    }


def player_view(token: str, game_id: str, player_id: str, args=None) -> dict:
    """Everything a player's page shows, computed from the game's current state.

    `args`: the trade being composed (the compose form's fields); None leaves it empty.
    """
    store = get_store()
    internal = store.state(game_id)
    seen = view_for(internal, player_id)  # others' cash is None under private_cash
    names = player_names(seen)
    me_state = state_player(internal, player_id)
    private_cash = bool(seen["options"].get("private_cash"))
    claims = [
        {
            "id": c["id"],
            "payer": names[c["payer"]],
            "amount": money(c["amount"]),
            "property": DEEDS[c["property"]].name,
        }
        for c in askable_claims(internal)  # one mortgaged or sold since is gone (the core's rule)
        if c["owner"] == player_id
    ]
    others = [
        {
            "id": p["id"],
            "name": p["name"],
            "where": present_where(p),
            "at": _at(p),
            "cash": None if p["cash"] is None else money(p["cash"]),
            "eliminated": p["eliminated"],
            "jail_cards": len(p["jail_cards"]),
            "groups": holdings_of(seen, p["id"], deed_facts),
        }
        for p in seen["players"]
        if p["id"] != player_id
    ]
    return {
        "token": token,
        "game_id": game_id,
        "version": internal["version"],
        "status": internal["status"],
        "edition": internal["edition"],
        "poll_every": POLL_EVERY,
        "me": _me(internal, seen, player_id),
        "status_line": status_line(internal, me_state),
        "ending": _ending(internal, names),
        "claims": claims,
        # A fresh key per rendering: a double tap repeats the answer, a later claim (say, the
        # same claim opened again by an undo) is a new command.
        "claim_key": secrets.token_urlsafe(12),
        "others": others,
        "private_cash": private_cash,
        "pot": pot(seen),
        "events": store.recent_events(game_id, LATEST_EVENTS, player_id),
        "remote": controls(internal, me_state),
        "compose": compose_view(internal, player_id, args if args is not None else MultiDict()),
        "compose_open": bool(args and args.get("to")),
    }
