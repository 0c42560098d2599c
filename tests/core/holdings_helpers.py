"""What the holdings tests add to `helpers`: deed dicts, the Bank's supply, jail cards, trades."""

from __future__ import annotations

from tests.table_core import CoreGame, player_in

from .helpers import BadCommand, DomainError, pending, started

__all__ = [
    "BadCommand",
    "DomainError",
    "CoreGame",
    "deed",
    "pending",
    "started",
    "bank",
    "jail_cards",
    "trade",
    "debt",
]


def deed(
    owner: str | None = None, mortgaged: bool = False, houses: int = 0, hotel: bool = False
) -> dict:
    """A whole entry of `properties` as the contract shows it."""
    return {"owner": owner, "mortgaged": mortgaged, "houses": houses, "hotel": hotel}


def bank(g: CoreGame, houses: int | None = None, hotels: int | None = None) -> None:
    """Set what the Bank still holds (the rest are in the box, as after other players' building)."""

    def arrange(s):
        if houses is not None:
            s["bank"]["houses"] = houses
        if hotels is not None:
            s["bank"]["hotels"] = hotels

    g.setup(arrange)


def jail_cards(g: CoreGame, pid: str, *decks: str) -> None:
    """pid holds these Get Out of Jail Free cards."""
    g.setup(lambda s: player_in(s, pid).update(jail_cards=list(decks)))


def trade(
    frm: str,
    to: str,
    give: dict | None = None,
    receive: dict | None = None,
    unmortgage: list | None = None,
) -> dict:
    """A trade command; sides default to nothing."""
    c = {
        "type": "trade",
        "from": frm,
        "to": to,
        "give": {"cash": 0, "properties": [], "jail_cards": [], **(give or {})},
        "receive": {"cash": 0, "properties": [], "jail_cards": [], **(receive or {})},
    }
    if unmortgage is not None:
        c["unmortgage"] = unmortgage
    return c


def debt(debtor: str, creditor: str | None, amount: int, reason: str, can_raise: int) -> dict:
    return {
        "debtor": debtor,
        "creditor": creditor,
        "amount": amount,
        "reason": reason,
        "can_raise": can_raise,
    }
