"""What the core tests share: `started` games of the core (tests/table_core.py's `CoreGame`, the
one `Game` of tests/game.py on the rules core) and the whole `pending` dict.

    g = started(names=["Ann", "Bob", "Cat"])
    g.roll("p1", 3, 5)              # Ann lands on Vermont Avenue
    g.do(type="buy")
    g.refused(DomainError, type="roll", player="p1", dice=[1, 2])   # and the state is unchanged

Focused tests arrange the board with `g.setup(...)`, `g.own(...)` and `g.place(...)`: each works
on a fresh copy of the state (the core never mutates a state it was given, and neither do we).
"""

from __future__ import annotations

import copy

from banker.rules import BadCommand, DomainError
from tests.table_core import CoreGame

__all__ = ["BadCommand", "DomainError", "CoreGame", "NO_PENDING", "pending", "started"]

NO_PENDING = {
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
}


def pending(**changes) -> dict:
    """The whole `pending` dict: nothing pending but the given keys."""
    return {**copy.deepcopy(NO_PENDING), **changes}


def started(
    edition: str = "g0009", names=("Ann", "Bob", "Cat"), options=None, first: str = "p1"
) -> CoreGame:
    """A game already started, `first` to roll."""
    g = CoreGame(names, edition, options)
    g.start(first)
    return g
