"""The Banker's corrections of mistakes found later: `adjust` cash, `move` a token."""

from __future__ import annotations

from .board import SPACES
from .errors import DomainError
from .state import active_player, event, money, require_playing, with_cash


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
