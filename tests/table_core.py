"""The rules core as a table for `Game`, and `CoreGame`: a game of the core that may also arrange
the board directly on its state.

    g = CoreGame(["Ann", "Bob", "Cat"])
    g.own("p1", "boardwalk", "park-place", houses=2)   # as they stand on the table
    g.place("p2", 36, cash=20)
    g.start("p1")
    g.refused(DomainError, type="build", property="boardwalk")   # 422, the state unchanged

Standard library and `banker.rules` only: no web (tests/core/ stays web-free).
"""

from __future__ import annotations

import copy
import json

from banker.rules import Refusal, apply, new_game
from tests.game import Game


class Reply:
    """What the core answered, shaped as the API would answer it (as Flask's test response)."""

    def __init__(self, status_code: int, body: dict, refusal: Refusal | None = None):
        self.status_code, self.body, self.refusal = status_code, body, refusal
        self.headers: dict = {}
        self.mimetype = "application/json"

    def get_json(self) -> dict:
        return self.body

    @property
    def data(self) -> bytes:
        return json.dumps(self.body).encode()


class CoreTable:
    """Games of the core, their states and events in memory (`apply`, nothing else)."""

    def __init__(self):
        self.states: dict[str, dict] = {}
        self.logs: dict[str, list[dict]] = {}

    def create(self, names, edition, options) -> dict:
        game_id = f"g{len(self.states) + 1}"
        self.states[game_id] = new_game(game_id, edition, names, options)
        self.logs[game_id] = []
        return {"game_id": game_id, "state": self.states[game_id]}

    def send(self, game, command, token=None, headers=None, raw=None) -> Reply:
        assert token is None and headers is None and raw is None, "the core has no tokens"
        try:
            state, events = apply(self.states[game.id], command)
        except Refusal as e:
            body = {"error": {"code": e.code, "message": e.message}}
            return Reply(e.status, body, e)
        self.states[game.id] = state
        self.logs[game.id] += events
        return Reply(200, {"version": state["version"], "events": events, "state": state})

    def state(self, game) -> dict:
        return self.states[game.id]

    def history(self, game, token=None) -> list[dict]:
        return list(self.logs[game.id])


class CoreGame(Game):
    """A game of the rules core (Ann, Bob and Cat unless named). Arranging the board directly
    (`setup`, `own`, `place`, `set_cash`) works on a fresh copy of the state: the core never
    mutates a state it was given, and neither do we."""

    def __init__(self, names=("Ann", "Bob", "Cat"), edition="g0009", options=None):
        super().__init__(CoreTable(), names, edition, options)

    @property
    def state(self) -> dict:
        return self.table.states[self.id]

    def now(self) -> tuple[dict, list[dict]]:
        """The state as it is now (a deep copy: a refusal must not have touched it)."""
        return copy.deepcopy(self.state), len(self.table.logs[self.id])

    # --- arranging the board directly ---------------------------------------------------------

    def setup(self, fn) -> None:
        """Change a copy of the state with fn(state) and carry on from it."""
        s = copy.deepcopy(self.state)
        fn(s)
        self.table.states[self.id] = s

    def own(self, pid, *props, mortgaged=False, houses=0, hotel=False) -> None:
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

    def place(self, pid, position, **fields) -> None:
        """Stand pid's token on a space (and set any other player fields, e.g. cash=20)."""
        self.setup(lambda s: player_in(s, pid).update(position=position, **fields))

    def set_cash(self, **cash: int) -> None:
        def arrange(s):
            for pid, amount in cash.items():
                player_in(s, pid)["cash"] = amount

        self.setup(arrange)


def player_in(state: dict, pid: str) -> dict:
    return next(p for p in state["players"] if p["id"] == pid)
