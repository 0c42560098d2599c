"""Creating a game, applying commands, undo, and what follows each command."""

from __future__ import annotations

import itertools
import marshal
import operator
from collections.abc import Callable

from . import auctions, endgame, holdings, schema, trades, turn
from .board import DEED_IDS, HOTELS, HOUSES, STARTING_CASH
from .corrections import undo_refusal
from .errors import BadCommand, DomainError
from .names import normalised_names
from .options import EDITIONS, OPTIONS, checked_options, defaults
from .state import changes, clone, new_player, pay, require_playing


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
    opts = checked_options(edition, options)
    if opts["teams"] and len(names) != 4:
        raise DomainError(
            "The partnerships variation needs exactly four names: two pairs.", "teams_need_four"
        )
    if opts["teams"]:
        groups = [names[:2], names[2:]]
    else:
        groups = [[n] for n in names]
    return _new_state(game_id, edition, opts, groups)


def _new_state(game_id: str, edition: str, opts: dict, groups: list[list[str]]) -> dict:
    players = [new_player(f"p{i}", g, STARTING_CASH) for i, g in enumerate(groups, 1)]
    return {
        "game_id": game_id,
        "version": 0,
        "edition": edition,
        "options": opts,
        "status": "setup",
        "bank": {"houses": HOUSES, "hotels": HOTELS, "free_parking": 0},
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
            "trade_offers": [],
            "final_round": False,
        },
        "winners": [],
        "scores": None,
        "_seq": 0,
        "_claims": 0,
        "_offers": 0,
        "_players": len(players),
        "_undo": [],
        "_after_debt": None,
        "_turns_begun": {},
    }


Handler = Callable[[dict, dict], tuple[dict, list[dict]]]


def _forward(handler: Callable[[dict, list, dict], None]) -> Handler:
    """A command that changes a copy of the state (every command but undo): the handler changes
    the copy and appends events; open offers naming anything it changed are withdrawn; what
    waited behind it is settled; what takes the new state back to the one before it is kept for
    undo (`state.changes`: back to the latest roll; a stop can be taken back even before any
    roll)."""

    def run(state: dict, c: dict) -> tuple[dict, list[dict]]:
        before = {k: v for k, v in state.items() if k != "_undo"}
        s = clone(before)
        events: list[dict] = []
        handler(s, events, c)
        trades.withdraw_changed_offers(before, s, events, c["type"])
        settle(s, events)
        entry = {
            "version": state["version"],
            "changes": changes(before, s),
            "events": [e["seq"] for e in events],
            "text": events[0]["text"] if events else c["type"],
        }
        if events and "cash_of" in events[0]:
            entry.update(cash_of=events[0]["cash_of"], without_cash=events[0]["without_cash"])
        if c["type"] == "roll":
            s["_undo"] = [entry]
        elif state["_undo"] or c["type"] == "stop":
            s["_undo"] = state["_undo"] + [entry]
        else:
            s["_undo"] = []
        return s, events

    return run


def _checked_first(c: schema.Command) -> Callable[[dict, list, dict], None]:
    """The command's handler, its declared check (rules/schema.py's `refusal=`) asked first:
    the one place that check is made before the rule, as rules.actions asks it alone."""
    handler, refusal = c.handler, c.refusal
    if refusal is None:
        return handler

    def run(s: dict, events: list, command: dict) -> None:
        why = refusal(s, command)
        if why is not None:
            raise why
        handler(s, events, command)

    return run


# Every command as rules/schema.py declares it: (state, command as read) -> (new state,
# events); apply adds the version.
RUN: dict[str, Handler] = {
    c.type: _forward(_checked_first(c)) if c.forward else c.handler
    for c in schema.COMMANDS.values()
}


def _tried(handler: Callable[[dict, list, dict], None]) -> Callable[[dict, dict], None]:
    """A forward command run only to learn whether it is refused (`attempt`): the very steps
    of `_forward` that may refuse (the handler, the offers it withdraws, what it settles), on a
    throwaway copy; undo's changes, which never refuse, are not computed. The copy is a
    `marshal` round trip: about twice as fast as `clone` (it copies every string too, which
    does not matter for a copy dropped at once)."""

    def run(state: dict, c: dict) -> None:
        before = {k: v for k, v in state.items() if k != "_undo"}
        s = marshal.loads(marshal.dumps(before))
        events: list[dict] = []
        handler(s, events, c)
        trades.withdraw_changed_offers(before, s, events, c["type"])
        settle(s, events)

    return run


TRY: dict[str, Callable[[dict, dict], object]] = {
    c.type: _tried(_checked_first(c)) if c.forward else c.handler for c in schema.COMMANDS.values()
}


def apply(state: dict, command: dict, seat: str | None = None) -> tuple[dict, list[dict]]:
    """Apply one command; the new state (version + 1) and the events it produced.

    Its shape is checked first (BadCommand, 400, whatever the state), then the rules. `seat`,
    who sends it (a player's id, "banker"; None: unknown), only chooses the words of what it
    did (an offer withdrawn by its maker, declined by anyone else), never what it does.
    """
    state, c = _admitted(state, command, seat)
    s, events = RUN[c["type"]](state, c)
    s["version"] = state["version"] + 1
    return s, events


def attempt(state: dict, command: dict, seat: str | None = None) -> None:
    """Raise what `apply` would raise for this command (its BadCommand or refusal), or nothing
    when `apply` accepts it; no new state is kept (rules/actions.py tries every button so)."""
    state, c = _admitted(state, command, seat)
    TRY[c["type"]](state, c)


def _admitted(state: dict, command: dict, seat: str | None) -> tuple[dict, dict]:
    """The state as banker keeps it and the command read by its schema, once nothing before
    its own rules refuses it (BadCommand, or the gate's refusal, raised)."""
    state = upgrade(state)
    c = schema.read(state, command)
    c["by"] = seat
    refusal = gate_refusal(state, c)
    if refusal:
        raise refusal
    return state, c


def gate_refusal(state: dict, c: dict) -> DomainError | None:
    """Why the read command `c` is refused before its own rules are asked: the game is over
    (every command but undo), or the deadline's cutoff (endgame.waiting_refusal); else None."""
    if state["status"] in ("finished", "unfinished") and c["type"] != "undo":
        try:
            require_playing(state)  # every further command is refused
        except DomainError as e:
            return e
    return endgame.waiting_refusal(state, c)


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
            auctions.open_auction(s, events, prop, "Returned to the Bank")
        else:
            break
    endgame.check_the_end(s, events)
    if pending["debt"]:
        pending["debt"]["can_raise"] = holdings.can_raise(s, pending["debt"]["debtor"])


def upgrade(state: dict) -> dict:
    """A state saved by an earlier banker as this one keeps it: before trade offers
    (2026-12-01), before the Free Parking jackpot and the changing table, or before one of its
    options was declared, their defaults added; an undo history of whole states, each entry as
    the changes that take the next state back to it. Any other state as it is. Games kept in a
    database or a snapshot stay playable."""
    old = not (
        "trade_offers" in state["pending"]
        and "_offers" in state
        and "_players" in state
        and "free_parking" in state["bank"]
        and OPTIONS.keys() <= state["options"].keys()
    )
    # (Asked of every state the pages' buttons try, a long undo history each time: looked
    # through in C, by map and operator.contains, rather than a generator.)
    whole = any(map(operator.contains, state.get("_undo", ()), itertools.repeat("state")))
    if not old and not whole:
        return state
    s = dict(state)
    if old:
        trade_offers = state["pending"].get("trade_offers", [])
        s["pending"] = {**state["pending"], "trade_offers": trade_offers}
        s["options"] = {**defaults(state["edition"]), **state["options"]}
        s["bank"] = {**state["bank"], "free_parking": state["bank"].get("free_parking", 0)}
        s.setdefault("_offers", 0)
        s.setdefault("_players", len(state["players"]))
    if whole:
        s["_undo"] = _as_changes(s)
    return s


def _as_changes(s: dict) -> list[dict]:
    """An undo history of whole states (each entry's "state": the one before its command) as
    changes: each entry's state against the next one's, the last one's against `s` itself."""
    stack = s["_undo"]
    states = [upgrade(e["state"]) for e in stack]
    states.append({k: v for k, v in s.items() if k != "_undo"})
    out = []
    for i, e in enumerate(stack):
        entry = {k: v for k, v in e.items() if k != "state"}
        out.append({"version": states[i]["version"], "changes": changes(states[i], states[i + 1])})
        out[-1].update(entry)
    return out


def public_state(state: dict) -> dict:
    """The contract's State: everything but the core's own bookkeeping."""
    return {k: v for k, v in upgrade(state).items() if not k.startswith("_")}


def replay(
    game_id: str, edition: str, names: list, options: dict | None, commands: list[dict]
) -> dict:
    """Rebuild a game's state from its creation and its accepted commands."""
    s = new_game(game_id, edition, names, options)
    for c in commands:
        s, _ = apply(s, c)
    return s


__all__ = ["apply", "gate_refusal", "new_game", "public_state", "replay", "undo_refusal", "upgrade"]
