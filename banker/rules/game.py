"""Creating a game, applying commands, undo, and what follows each command."""

from __future__ import annotations

from . import holdings, turn
from .board import DEED_IDS, HOTELS, HOUSES, STARTING_CASH
from .errors import BadCommand, DomainError
from .names import normalised_names
from .state import (
    active_player,
    clone,
    event,
    int_field,
    money,
    name,
    pay,
    player,
    require_playing,
    str_field,
    survivors,
)

EDITIONS = ("g0009", "classic")
VARIATIONS = ("auction_all", "deadline", "teams")
OPTIONS = VARIATIONS + ("hotel_shortage_ruling", "private_cash")


def new_game(game_id: str, edition: str, names: list, options: dict | None = None) -> dict:
    """A new game in setup: every player on GO with 1,500, every deed in the Bank."""
    if edition not in EDITIONS:
        raise BadCommand('\'edition\' must be "g0009" or "classic".', "unknown_edition")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise BadCommand("'players' must be a list of names.", "wrong_type")
    names = normalised_names(names)  # NFC, trimmed, visible, no look-alikes (rules/names.py)
    if not 2 <= len(names) <= 6:
        raise BadCommand("A game has 2 to 6 players.", "out_of_range")
    for n in names:
        if not 1 <= len(n) <= 30:
            raise BadCommand("Each player's name has 1 to 30 characters.", "out_of_range")
    if len({n.casefold() for n in names}) != len(names):
        raise BadCommand(
            "Two players have the same name: give each a different one.", "duplicate_name"
        )
    opts = _options(edition, options, len(names))
    if opts["teams"]:
        groups = [names[:2], names[2:]]
    else:
        groups = [[n] for n in names]
    players = [
        {
            "id": f"p{i}",
            "name": " & ".join(g),
            "members": g,
            "cash": STARTING_CASH,
            "position": 0,
            "in_jail": False,
            "jail_attempts": 0,
            "jail_cards": [],
            "eliminated": False,
        }
        for i, g in enumerate(groups, 1)
    ]
    return {
        "game_id": game_id,
        "version": 0,
        "edition": edition,
        "options": opts,
        "status": "setup",
        "bank": {"houses": HOUSES, "hotels": HOTELS},
        "players": players,
        "properties": {
            d: {"owner": None, "mortgaged": False, "houses": 0, "hotel": False} for d in DEED_IDS
        },
        "turn": {"player": None, "doubles": 0, "first": None, "roller": None},
        "pending": {
            "offer": None,
            "auction": None,
            "auction_queue": [],
            "card": None,
            "dice": None,
            "debt": None,
            "payments": [],
            "rent_claims": [],
            "final_round": False,
        },
        "winners": [],
        "scores": None,
        "_seq": 0,
        "_claims": 0,
        "_undo": [],
        "_after_debt": None,
        "_turns_begun": {},
    }


def _options(edition: str, options, n_names: int) -> dict:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadCommand("'options' must be an object.", "wrong_type")
    for k, v in options.items():
        if k not in OPTIONS:
            raise BadCommand(f"There is no option '{str(k)[:40]}'.", "unknown_option")
        if not isinstance(v, bool):
            raise BadCommand(f"Option '{k}' must be true or false.", "wrong_type")
    opts = {k: bool(options.get(k, False)) for k in OPTIONS}
    opts["hotel_shortage_ruling"] = options.get("hotel_shortage_ruling", edition == "g0009")
    if edition == "classic":
        asked = [k for k in VARIATIONS + ("hotel_shortage_ruling",) if opts[k]]
        if asked:
            raise DomainError(
                f"The classic edition offers no house variations or hotel-shortage "
                f"ruling ({', '.join(asked)}); they belong to g0009.",
                "not_in_edition",
            )
    if opts["teams"] and n_names != 4:
        raise DomainError(
            "The partnerships variation needs exactly four names: two pairs.", "teams_need_four"
        )
    return opts


COMMANDS = {
    "start": turn.cmd_start,
    "roll": turn.cmd_roll,
    "buy": turn.cmd_buy,
    "auction": turn.cmd_auction,
    "bid": turn.cmd_bid,
    "close_auction": turn.cmd_close_auction,
    "draw_card": turn.cmd_draw_card,
    "rent_roll": turn.cmd_rent_roll,
    "claim_rent": turn.cmd_claim_rent,
    "pay_jail_fine": turn.cmd_pay_jail_fine,
    "use_jail_card": turn.cmd_use_jail_card,
    "build": holdings.cmd_build,
    "sell_building": holdings.cmd_sell_building,
    "building_auction": holdings.cmd_building_auction,
    "mortgage": holdings.cmd_mortgage,
    "unmortgage": holdings.cmd_unmortgage,
    "trade": holdings.cmd_trade,
    "pay_debt": holdings.cmd_pay_debt,
    "bankrupt": holdings.cmd_bankrupt,
    "call_time": holdings.cmd_call_time,
}


def apply(state: dict, command: dict) -> tuple[dict, list[dict]]:
    """Apply one command; the new state (version + 1) and the events it produced."""
    if not isinstance(command, dict):
        raise BadCommand("A command is a JSON object with a 'type'.", "wrong_type")
    kind = command.get("type")
    if kind == "undo":
        return _undo(state)
    if kind in ("adjust", "move"):
        handler = _adjust if kind == "adjust" else _move
    elif isinstance(kind, str) and kind in COMMANDS:
        handler = COMMANDS[kind]
    else:
        raise BadCommand(f"Unknown command type '{str(kind)[:40]}'.", "unknown_command")
    s = clone({k: v for k, v in state.items() if k != "_undo"})
    events: list[dict] = []
    handler(s, events, command)
    settle(s, events)
    before = {k: v for k, v in state.items() if k != "_undo"}
    entry = {
        "state": before,
        "events": [e["seq"] for e in events],
        "text": events[0]["text"] if events else kind,
    }
    if kind == "roll":
        s["_undo"] = [entry]
    elif state["_undo"]:
        s["_undo"] = state["_undo"] + [entry]
    else:
        s["_undo"] = []
    s["version"] = state["version"] + 1
    return s, events


def settle(s: dict, events: list) -> None:
    """Carry on what waits behind a settled debt, then check whether the game is over."""
    pending = s["pending"]
    while s["status"] == "playing" and not pending["debt"]:
        if pending["payments"]:
            x = pending["payments"].pop(0)
            pay(s, events, x["from"], x["to"], x["amount"], x["reason"], "card")
        elif s["_after_debt"]:
            after, s["_after_debt"] = s["_after_debt"], None
            turn.leave_jail_and_move(s, events, after["player"], after["steps"])
        elif not pending["auction"] and pending["auction_queue"]:
            prop = pending["auction_queue"].pop(0)
            turn.open_auction(s, events, prop, "Returned by a bankrupt player")
        else:
            break
    if s["status"] == "playing":
        alive = survivors(s)
        if len(alive) == 1:
            _finish_with_winner(s, events, alive[0])
        elif pending["final_round"] and _round_over(s):
            holdings.finish_by_score(s, events)
    if pending["debt"]:
        pending["debt"]["can_raise"] = holdings.can_raise(s, pending["debt"]["debtor"])


def _round_over(s: dict) -> bool:
    t, p = s["turn"], s["pending"]
    busy = (
        p["offer"]
        or p["auction"]
        or p["auction_queue"]
        or p["card"]
        or p["dice"]
        or p["debt"]
        or p["payments"]
    )
    return t["player"] == t["first"] and t["doubles"] == 0 and not busy


def _finish_with_winner(s: dict, events: list, winner: dict) -> None:
    s["status"] = "finished"
    s["winners"] = [winner["id"]]
    s["turn"]["player"] = None
    for key in ("offer", "auction", "card", "dice", "debt"):
        s["pending"][key] = None
    s["pending"].update(auction_queue=[], payments=[], rent_claims=[], final_round=False)
    event(
        s,
        events,
        "finished",
        f"{winner['name']} is the last player standing and wins.",
        winners=[winner["id"]],
    )


def undo_refusal(state: dict) -> DomainError | None:
    """Why `undo` is refused now (game over, or nothing since the latest roll), or None."""
    if state["status"] == "finished":
        try:
            require_playing(state)
        except DomainError as e:
            return e
    if not state["_undo"]:
        return DomainError(
            "Nothing to undo: undo reaches back only to the latest roll.", "nothing_to_undo"
        )
    return None


def _undo(state: dict) -> tuple[dict, list[dict]]:
    refusal = undo_refusal(state)
    if refusal:
        raise refusal
    stack = state["_undo"]
    entry = stack[-1]
    s = dict(entry["state"])
    s["_seq"], s["_claims"] = state["_seq"], state["_claims"]  # ids are never reused
    s["_undo"] = stack[:-1]
    s["version"] = state["version"] + 1
    events: list[dict] = []
    event(s, events, "undone", f"Undid: {entry['text']}", undid=entry["events"])
    return s, events


def _adjust(s: dict, events: list, c: dict) -> None:
    require_playing(s)
    p = active_player(s, c)
    amount = int_field(c, "amount", -1_000_000, 1_000_000)
    reason = (str_field(c, "reason") or "").strip()
    if not reason:
        raise BadCommand("Give a reason for the correction.", "missing_field")
    if amount == 0:
        raise BadCommand("A correction of 0 changes nothing.", "out_of_range")
    if p["cash"] + amount < 0:
        raise DomainError(
            f"{p['name']} has {money(p['cash'])}: a correction cannot make cash negative.",
            "negative_cash",
        )
    p["cash"] += amount
    verb = (
        f"gave {p['name']} {money(amount)}"
        if amount > 0
        else f"took {money(-amount)} from {p['name']}"
    )
    event(
        s,
        events,
        "adjusted",
        f"The Banker {verb} to correct a mistake: {reason}.",
        player=p["id"],
        amount=amount,
        reason=reason,
    )


def _move(s: dict, events: list, c: dict) -> None:
    from .board import SPACES

    require_playing(s)
    p = active_player(s, c)
    position = int_field(c, "position", 0, 39)
    reason = (str_field(c, "reason", required=False) or "").strip()
    if p["in_jail"]:
        raise DomainError(
            f"{p['name']} is in Jail: leave Jail by the rules, not by moving the token.", "in_jail"
        )
    p["position"] = position
    why = f": {reason}" if reason else ""
    event(
        s,
        events,
        "token_moved",
        f"The Banker put {p['name']}'s token on "
        f"{SPACES[position].name} (no GO money, nothing resolved){why}.",
        player=p["id"],
        position=position,
    )


def public_state(state: dict) -> dict:
    """The contract's State: everything but the core's own bookkeeping."""
    return {k: v for k, v in state.items() if not k.startswith("_")}


def replay(
    game_id: str, edition: str, names: list, options: dict | None, commands: list[dict]
) -> dict:
    """Rebuild a game's state from its creation and its accepted commands."""
    s = new_game(game_id, edition, names, options)
    for c in commands:
        s, _ = apply(s, c)
    return s


__all__ = ["apply", "new_game", "public_state", "replay", "name", "player"]
