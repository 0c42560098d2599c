"""What a player's page shows: their money, deeds and the table, and the remote's controls.

The player's page is a remote for that one player: their offer, the auction, their jail choices,
their deeds' Build / Sell / Mortgage / Lift, their debt, their rent claims and trade offers. No
rule is decided here: what is possible and why not comes from the presenters the Banker's table
shares (banker.web.common: deeds, choices, trade, which ask the core), what a player's phone
may send from banker.rules.permissions, and what a player may see of the others (private cash)
from view_for.
"""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from banker.rules import askable_claims, claims_wait, score, to_act, view_for
from banker.rules.board import DECK_NAMES, DEEDS
from banker.store import key_scope
from banker.web.common import choices
from banker.web.common.deeds import holdings_of
from banker.web.common.kept import NOTHING, Kept
from banker.web.common.may import May
from banker.web.common.present import (
    deed_facts,
    final_round_said,
    money,
    player_names,
    state_player,
    to_you,
)
from banker.web.common.present import where as present_where
from banker.web.common.store import get_store
from banker.web.common.template_globals import new_key
from banker.web.common.trade import deal_refusal, offer_args, trade_summary, trade_view

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


def _said_to(state: dict, now: dict, me: dict, names: dict) -> str:
    """What holds the game now (an item of rules.to_act) said to the player who must act."""
    if now["kind"] == "trade_offer":
        o = next(o for o in state["pending"]["trade_offers"] if o["id"] == now["offer"])
        return f"{names[o['from']]} offers you a trade: accept or decline it below."
    if now["kind"] == "roll":
        team = f" ({state['turn']['roller']})" if len(me["members"]) > 1 else ""
        jail = " You are in Jail: pay 50, use a card or try for doubles." if me["in_jail"] else ""
        return f"Your turn to roll{team}.{jail}"
    return to_you(now["sentence"], me["name"])


def status_line(state: dict, me: dict) -> str:
    """One sentence on where the game stands: who must act now and on what, from the core's one
    answer (rules.to_act), said to this player when it is them; never a roll that will not
    come."""
    names = player_names(state)
    if state["status"] == "setup":
        return "The game has not started yet: the Banker records who won the opening roll."
    ending = _ending(state, names)
    if ending:
        return ending
    said = to_act(state)
    now = said["now"]
    if now is None:
        return said["sentence"]
    if me["id"] in now["who"] and not me["eliminated"]:
        return _said_to(state, now, me, names)
    return now["sentence"]


# -- the remote's controls -----------------------------------------------------------------------


def trade_offers(state: dict, pid: str, may: May | None) -> dict:
    """The open trade offers: to this player, from them, and between the others; each with why
    this player may not answer (or withdraw) it now, when the core says so."""
    out: dict[str, list] = {"incoming": [], "outgoing": [], "others": []}
    for o in state["pending"].get("trade_offers", []):
        item = {
            "id": o["id"],
            "summary": trade_summary(state, o["from"], o["to"], offer_args(o)),
            "accept_why": may and may.why("accept_trade", offer=o["id"]),
            "decline_why": may and may.why("decline_trade", offer=o["id"]),
        }
        if o["to"] == pid:
            out["incoming"].append(item)
        elif o["from"] == pid:
            out["outgoing"].append(item)
        else:
            out["others"].append(item)
    return out


def _my_auction(state: dict, me: dict, may: May) -> dict | None:
    """The open auction as this player bids in it: the quick raises the core allows them (never
    above their cash), or why they may not bid."""
    a = state["pending"]["auction"]
    if not a:
        return None
    names = player_names(state)
    mine = next((b for b in choices.bidders(state, may) if b["id"] == me["id"]), None)
    why = to_you(mine["why"], me["name"]) if mine else may.why("bid", player=me["id"])
    item = a["item"]
    return {
        "what": DEEDS[item].name if item in DEEDS else f"one {item}",
        "high_bid": a["high_bid"],
        "high_bidder": names.get(a["high_bidder"]),
        "leading": a["high_bidder"] == me["id"],
        "why": why,
        "can_bid": why is None,
        "raises": mine["raises"] if mine else [],
        "cash": me["cash"],
    }


def _my_jail(state: dict, me: dict, may: May) -> dict | None:
    jail = choices.jail_choices(state, may)
    if jail is None or jail["player"]["id"] != me["id"]:
        return None
    return {**jail, "fine_why": to_you(jail["fine_why"], me["name"])}


def _my_debt(state: dict, me: dict, may: May) -> dict | None:
    debt = choices.debt(state, may)
    if debt is None or debt["debtor"] != me["id"]:
        return None
    return {**debt, "groups": yours(debt["groups"], me["name"])}


def yours(groups: list[dict], name: str) -> list[dict]:
    """A player's deeds (holdings_of) with each action's reason said to them ("You must own
    every light blue street…")."""
    return [
        {
            **g,
            "deeds": [
                {**d, "actions": [{**a, "why": to_you(a["why"], name)} for a in d["actions"]]}
                for d in g["deeds"]
            ],
        }
        for g in groups
    ]


def controls(state: dict, me: dict) -> dict:
    """What this player may press now (only their own things), each button from the core's
    answer for their seat (banker.web.common.may); nothing unless players act."""
    acts = bool(state["options"].get("players_act", True))
    live = acts and state["status"] == "playing" and not me["eliminated"]
    may = May(state, me["id"])
    offer = state["pending"]["offer"]
    mine = live and offer and offer["player"] == me["id"]
    trading = acts and state["status"] in ("setup", "playing") and not me["eliminated"]
    return {
        "acts": acts,
        "live": live,
        # The trade form is not live: it shows before the start too, fetched fresh when opened.
        "trading": trading,
        # Why an offer may not be made now (the deadline's cutoff…): the link is then disabled.
        "trade_why": to_you(may.why("propose_trade"), me["name"]) if live else None,
        "offer": offer if mine else None,
        "offer_deed": DEEDS[offer["property"]].name if offer else None,
        "buy_why": to_you(may.why("buy"), me["name"]) if mine else None,
        "auction_why": to_you(may.why("auction"), me["name"]) if mine else None,
        "auction": _my_auction(state, me, may) if live else None,
        "jail": _my_jail(state, me, may) if live else None,
        "debt": _my_debt(state, me, may) if live else None,
        "holdings": yours(holdings_of(state, me["id"], may=may), me["name"]),
        "trades": trade_offers(state, me["id"], may if live else None),
        "claim_whys": {
            c["id"]: to_you(may.why("claim_rent", claim=c["id"]), me["name"])
            for c in state["pending"]["rent_claims"]
            if c["owner"] == me["id"]
        },
    }


# The trade form of a live update that leaves the page's own form as it is (player_view).
COMPOSE_KEPT = {"kept": True}


def _may_compose(state: dict, pid: str) -> bool:
    """Whether compose_view would draw a form (this player is in, another player too)."""
    me = state_player(state, pid)
    return not me["eliminated"] and any(
        not p["eliminated"] and p["id"] != pid for p in state["players"]
    )


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
    chosen["to"] = trade["to"]
    why = deal_refusal(state, chosen, "propose_trade", pid)  # the Offer button's, if refused
    why = to_you(why, me["name"])
    return {**trade, "others": others, "picked": picked, "why": why}


# -- what happened to this player's offers since the page last looked -------------------------

NEWS_TYPES = ("trade_accepted", "trade_declined", "trade_dropped", "trade_withdrawn")


def news(game_id: str, player_id: str, token: str, since: int | None) -> list[str]:
    """What happened to this player's own trade offers since their page showed version
    `since`, one sentence each, said to them ("Bob declined your offer."); an offer they
    withdrew from this phone is not told again (the phone said so when they did)."""
    store = get_store()
    if since is None or not 0 <= since < store.version(game_id):
        return []
    events = store.events_since(game_id, since, NEWS_TYPES)
    if not events:
        return []
    mine = store.offers_made(game_id, player_id)
    names = player_names(store.state(game_id))
    own = key_scope(token)
    out = []
    for e in events:
        offer = mine.get(e["data"].get("offer"))
        if offer is None or e["key_scope"] == own:
            continue
        to = names.get(offer["to"], "the other player")
        if e["type"] == "trade_accepted":
            out.append(f"{to} accepted your offer.")
        elif e["type"] == "trade_declined":
            out.append(f"{to} declined your offer.")
        elif e["type"] == "trade_dropped":
            out.append(f"Your offer to {to} is off: {to} is out of the game.")
        else:
            reason = e["data"].get("reason")
            out.append(f"Your offer to {to} is off: {reason}." if reason else
                       f"Your offer to {to} was withdrawn.")  # fmt: skip
    return out


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


def _my_claims(state: dict, player_id: str, whys: dict) -> list[dict]:
    """The rent this player may ask for (a claim whose deed was mortgaged or sold since is gone:
    the core's askable_claims), each with why it may not be asked now, when the core says so."""
    names = player_names(state)
    return [
        {
            "id": c["id"],
            "why": whys.get(c["id"]),
            "payer": names[c["payer"]],
            "amount": money(c["amount"]),
            "property": DEEDS[c["property"]].name,
        }
        for c in askable_claims(state)
        if c["owner"] == player_id
    ]


def player_view(
    token: str, game_id: str, player_id: str, args=None, kept: Kept = NOTHING, live: bool = False
) -> dict:
    """Everything a player's page shows, computed from the game's current state.

    `args`: the trade being composed (the compose form's fields); None leaves it empty.
    `kept`: a refused form's fields, drawn again as they were sent.
    `live`: for a live update (the poll's answer, the view pushed in the stream), which leaves
    the trade form as the page has it while this player may trade: it is then not computed
    (`compose` is only COMPOSE_KEPT: a fifth of the view's cost, for nothing drawn).
    """
    store = get_store()
    internal = store.state(game_id)
    seen = view_for(internal, player_id)  # others' cash is None under private_cash
    names = player_names(seen)
    me_state = state_player(internal, player_id)
    private_cash = bool(seen["options"].get("private_cash"))
    remote = controls(internal, me_state)
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
        "phase_said": final_round_said(internal),  # the deadline's final round, until scored
        "ending": _ending(internal, names),
        "claims": _my_claims(internal, player_id, remote["claim_whys"]),
        # A fresh key per rendering: a double tap repeats the answer, a later claim (say, the
        # same claim opened again by an undo) is a new command.
        "claim_key": new_key(),
        "others": others,
        "private_cash": private_cash,
        "pot": pot(seen),
        "events": store.recent_events(game_id, LATEST_EVENTS, player_id),
        "remote": remote,
        "compose": COMPOSE_KEPT
        if live and remote["trading"] and _may_compose(internal, player_id)
        else compose_view(internal, player_id, args if args is not None else MultiDict()),
        "compose_open": bool(args and args.get("to")),
        "kept": kept,
    }
