"""The Banker's corrections of mistakes found later: `adjust` cash, `move` a token, `undo` the
latest command."""

from __future__ import annotations

from .board import SPACES
from .errors import DomainError, WithCash
from .state import active_player, event, money, require_playing, taken_back, with_cash


def cmd_adjust(s: dict, events: list, c: dict) -> None:
    require_playing(s)
    p = active_player(s, c)
    amount, reason = c["amount"], c["reason"]
    if p["cash"] + amount < 0:
        raise DomainError(
            with_cash(
                p,
                f"{p['name']} has {money(p['cash'])}: a correction cannot make cash negative.",
                f"A correction cannot make {p['name']}'s cash negative.",
            ),
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


def cmd_move(s: dict, events: list, c: dict) -> None:
    require_playing(s)
    p = active_player(s, c)
    position = c["position"]
    reason = (c["reason"] or "").strip()
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


def undo_refusal(state: dict) -> DomainError | None:
    """Why `undo` is refused now (game over, or nothing since the latest roll), or None.

    A stopped game (`unfinished`) can always be taken back: the stop is the latest command."""
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


def cmd_undo(state: dict, c: dict) -> tuple[dict, list[dict]]:
    """undo: the state before the latest command, its events marked as taken back (it makes
    the new state itself: schema's `forward=False`)."""
    refusal = undo_refusal(state)
    if refusal:
        raise refusal
    stack = state["_undo"]
    entry = stack[-1]
    s = taken_back({k: v for k, v in state.items() if k != "_undo"}, entry["changes"])
    for key in COUNTERS:  # ids are never reused
        s[key] = state[key]
    s["_undo"] = stack[:-1]
    events: list[dict] = []
    text = f"Undid: {entry['text']}"
    if "cash_of" in entry:  # the command's first sentence stated a player's cash
        text = WithCash(text, entry["cash_of"], f"Undid: {entry['without_cash']}")
    event(s, events, "undone", text, undid=entry["events"])
    return s, events


COUNTERS = ("_seq", "_claims", "_offers", "_players")
