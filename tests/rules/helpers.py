"""A fluent way to play the rules core at the table, and to set the board up directly.

    g = Game("g0009", ["Ann", "Bob", "Cat"])
    g.start("p1")
    g.roll("p1", 3, 5)              # Ann lands on Vermont Avenue
    g.do(type="buy")
    g.refused(DomainError, type="roll", player="p1", dice=[1, 2])   # and the state is unchanged

Focused tests arrange the board with `g.setup(...)`, `g.own(...)` and `g.place(...)`: each works
on a fresh copy of the state (the core never mutates a state it was given, and neither do we).
"""

from __future__ import annotations

import copy

import pytest

from banker.rules import BadCommand, DomainError, apply, new_game, public_state

__all__ = ["BadCommand", "DomainError", "Game", "NO_PENDING", "pending", "started"]

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


class Game:
    """One game of the core, its current state and the events of the latest command."""

    def __init__(self, edition: str = "g0009", names=("Ann", "Bob", "Cat"), options=None):
        self.state = new_game("g1", edition, list(names), options)
        self.events: list[dict] = []
        self.log: list[dict] = []

    # --- commands ------------------------------------------------------------------------

    def do(self, **command) -> list[dict]:
        """Apply an accepted command; its events."""
        version = self.state["version"]
        self.state, self.events = apply(self.state, command)
        assert self.state["version"] == version + 1
        self.log += self.events
        return self.events

    def refused(self, error: type, **command) -> DomainError:
        """Apply a command the core must refuse with exactly `error`; the state stays as it was."""
        before = copy.deepcopy(self.state)
        with pytest.raises(DomainError) as caught:
            apply(self.state, command)
        assert type(caught.value) is error, caught.value
        assert self.state == before
        assert caught.value.message.endswith((".", "?")), caught.value.message
        return caught.value

    def start(self, first: str = "p1") -> list[dict]:
        return self.do(type="start", first=first)

    def roll(self, pid: str, d1: int, d2: int) -> list[dict]:
        return self.do(type="roll", player=pid, dice=[d1, d2])

    def draw(self, deck: str, card: str) -> list[dict]:
        return self.do(type="draw_card", deck=deck, card=card)

    def claim(self, claim_id: str | None = None) -> list[dict]:
        """The owner asks for an open claim (the only one, unless named)."""
        if claim_id is None:
            (only,) = self.claims
            claim_id = only["id"]
        return self.do(type="claim_rent", claim=claim_id)

    # --- arranging the board directly ----------------------------------------------------

    def setup(self, fn) -> None:
        """Change a copy of the state with fn(state) and carry on from it."""
        s = copy.deepcopy(self.state)
        fn(s)
        self.state = s

    def own(self, pid: str | None, *props: str, mortgaged=False, houses=0, hotel=False) -> None:
        """Give deeds to pid (None: back to the Bank), as they stand on the table."""

        def arrange(s):
            for prop in props:
                s["properties"][prop] = {
                    "owner": pid,
                    "mortgaged": mortgaged,
                    "houses": houses,
                    "hotel": hotel,
                }
                s["bank"]["houses"] -= houses
                s["bank"]["hotels"] -= 1 if hotel else 0

        self.setup(arrange)

    def place(self, pid: str, position: int, **fields) -> None:
        """Stand pid's token on a space (and set any other player fields, e.g. cash=20)."""

        def arrange(s):
            self._p(s, pid).update(position=position, **fields)

        self.setup(arrange)

    def set_cash(self, **cash: int) -> None:
        def arrange(s):
            for pid, amount in cash.items():
                self._p(s, pid)["cash"] = amount

        self.setup(arrange)

    # --- reading -------------------------------------------------------------------------

    @staticmethod
    def _p(s: dict, pid: str) -> dict:
        return next(p for p in s["players"] if p["id"] == pid)

    def player(self, pid: str) -> dict:
        return self._p(self.state, pid)

    def cash(self) -> dict:
        return {p["id"]: p["cash"] for p in self.state["players"]}

    def position(self, pid: str) -> int:
        return self.player(pid)["position"]

    def prop(self, prop: str) -> dict:
        return self.state["properties"][prop]

    @property
    def pending(self) -> dict:
        return self.state["pending"]

    @property
    def claims(self) -> list[dict]:
        return self.state["pending"]["rent_claims"]

    @property
    def turn(self) -> dict:
        return self.state["turn"]

    @property
    def whose_turn(self) -> str | None:
        return self.state["turn"]["player"]

    def texts(self) -> list[str]:
        """The sentences of the latest command's events."""
        return [e["text"] for e in self.events]

    def types(self) -> list[str]:
        return [e["type"] for e in self.events]

    def public(self) -> dict:
        return public_state(self.state)


def pending(**changes) -> dict:
    """The whole `pending` dict: nothing pending but the given keys."""
    return {**copy.deepcopy(NO_PENDING), **changes}


def started(
    edition: str = "g0009", names=("Ann", "Bob", "Cat"), options=None, first: str = "p1"
) -> Game:
    """A game already started, `first` to roll."""
    g = Game(edition, names, options)
    g.start(first)
    return g
