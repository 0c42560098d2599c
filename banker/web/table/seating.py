"""The Players section of the Banker's More (templates/table/_players.html): rename a player,
add a latecomer (their code shown at once), and someone who leaves for good (a confirmation of
what goes back to the Bank and which deeds are auctioned, templates/table/_leave.html).

Every form posts to the table's one command path (table.act); nothing is decided here. What is
offered is what the core would accept now (`rules.actions`, what the Banker's seat may do): a
refused one is shown disabled with the core's sentence, so that a button is a promise. What a
leaver hands back is the core's `what_leaves`; what follows, the leave tried on the state
(`rules.apply`, which never changes it).

The confirmation of a leave is a step of the table screen like the bankruptcy's: its
`confirm` is "leave-<player id>" (kept by the live refresh and by a refused "Yes").
"""

from __future__ import annotations

import re

from banker.rules import DomainError, apply, what_leaves
from banker.rules.board import DECK_NAMES, DEEDS
from banker.web.common.may import answer, whole
from banker.web.common.present import player_names

LEAVE_STEP = re.compile(r"leave-(p[1-9][0-9]{0,5})")


def leaving(confirm: str | None) -> str | None:
    """The player whose leave the screen asks to confirm ("leave-p3": "p3"), else None."""
    m = LEAVE_STEP.fullmatch(confirm or "")
    return m.group(1) if m else None


def section(state: dict, latest: list[dict], confirm: str | None) -> dict:
    """What the Players section shows: {"rename": {"players", "why"}, "add": {"why"}, "leave":
    [{"id", "name", "why"}] (those still in), "latecomer": the player the latest command
    added (their code is shown at once) or None, "leaving": the leave being confirmed or None}.
    `state`: as the store keeps it; `latest`: the events of the game's latest accepted
    command."""
    # Renaming and adding: the type as a whole (tried until one target is allowed); leaving:
    # each player's own.
    said = {k: whole(state, "banker", k) for k in ("rename_player", "add_player")}
    said["leave"] = answer(state, "banker", "leave")
    added = any(e["type"] == "player_added" and not e["undone"] for e in latest)
    pid = leaving(confirm)
    open_ = state["status"] in ("setup", "playing")
    names = player_names(state)
    return {
        "rename": {
            "players": [
                {"id": p["id"], "name": p["name"], "out": p["eliminated"]} for p in state["players"]
            ],
            "why": said["rename_player"][1],
        },
        "add": {"why": said["add_player"][1]},
        "leave": [
            {"id": t["command"]["player"], "name": names[t["command"]["player"]], "why": t["why"]}
            for t in said["leave"]["targets"]
        ],
        "latecomer": state["players"][-1]["id"] if added else None,
        "leaving": leave_preview(state, pid) if pid in names and open_ else None,
    }


def leave_preview(state: dict, pid: str) -> dict:
    """What `pid` leaving now hands back and what follows: {"id", "name", "cash" (in hand),
    "buildings" (what selling them back brings), "deeds" (names, board order), "cards" (decks'
    names), "why" (the core's refusal, None when it would be accepted), "then": a sentence on
    what follows (the first auction, whose turn, or who wins), "ends": the game ends with it,
    "undoable": undo could take it back, "lapses": what of theirs lapses, in words}."""
    p = next(x for x in state["players"] if x["id"] == pid)
    back = what_leaves(state, pid)
    why, then, ends = None, "", False
    try:
        after, _ = apply(state, {"type": "leave", "player": pid})
    except DomainError as e:
        why = e.message
    else:
        then, ends = _then(state, after), after["status"] == "finished"
    return {
        "id": pid,
        "name": p["name"],
        "out": p["eliminated"],
        "cash": back["cash"],
        "buildings": back["buildings"],
        "deeds": [DEEDS[d].name for d in back["deeds"]],
        "cards": [DECK_NAMES[d] for d in back["jail_cards"]],
        "why": why,
        "then": then,
        "ends": ends,
        "undoable": bool(state.get("_undo")),  # a roll since: undo reaches back to it
        "lapses": _lapses(state, pid),
    }


def _lapses(state: dict, pid: str) -> str:
    """What of pid's lapses when they leave: "their open trade offers and rent claims", "" for
    nothing open."""
    pending = state["pending"]
    offers = any(pid in (o["from"], o["to"]) for o in pending.get("trade_offers") or [])
    claims = any(pid in (c["owner"], c["payer"]) for c in pending["rent_claims"])
    parts = [w for w, open_ in (("trade offers", offers), ("rent claims", claims)) if open_]
    return f"their open {' and '.join(parts)}" if parts else ""


def _then(before: dict, after: dict) -> str:
    """What the table does next once the player has left (`after`: the state then)."""
    names = player_names(after)
    if after["status"] == "finished":
        won = " and ".join(names[w] for w in after["winners"])
        return f"{won} is the only player left and wins the game; the deeds stay with the Bank."
    pending = after["pending"]
    auction = pending["auction"]
    if auction and not before["pending"]["auction"]:
        queued = len(pending["auction_queue"])
        more = f", then {queued} more one after another" if queued else ""
        return f"The auction of {DEEDS[auction['item']].name} opens at once{more}."
    if pending["auction_queue"]:
        return "Their deeds are auctioned once the auction now open is closed."
    turn = after["turn"]["player"]
    return f"{names[turn]} rolls next." if turn else ""
