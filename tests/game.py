"""One `Game` for every test: a game played through a table it is given, in one vocabulary.

    g = Game(table, ["Ann", "Bob", "Cat"])
    g.start("p1")
    g.roll("p1", 3, 5)                   # Ann lands on Vermont Avenue
    g.do(type="buy")                     # accepted: the answer {"version", "events", "state"}
    g.refused(422, type="roll", player="p1", dice=[1, 2], code="not_your_turn")

The table is where the game is played:
- the rules core (`tests/table_core.py`: `CoreGame`, which may also arrange the board directly);
- the app through Flask's test client, or a real `banker serve` over HTTP (`tests/table_web.py`).
A table has `create(names, edition, options) -> created`, `send(game, command, token, headers,
raw) -> reply`, `get(game, path, token) -> reply`; a reply answers like Flask's test response
(`status_code`, `get_json()`, `headers`, `data`, `mimetype`).

A refusal is checked the same way on every table: its status (an int, a tuple of them, or a
`Refusal` class, whose `status` is taken), the contract's error body (a snake_case code, a
sentence), the code when named, and the game exactly as before (state and event log).
`refusal_of(reply, status, code)` checks a reply alone (a request that is not a command).

This module imports nothing of banker and nothing of the web: the black-box acceptance suite and
the core tests both use it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

BOARD = json.loads((Path(__file__).parent / "data" / "g0009.json").read_text())["board"]
SPACES = {s["id"]: s["index"] for s in BOARD if "id" in s}  # each deed's space (printed board)
SENTENCE = re.compile(r"^\S.*[.!?]$", re.S)


@dataclass(frozen=True)
class Refused:
    """What a refusal said: its status, code and message."""

    status: int
    code: str
    message: str


class Game:
    """One game on a table: its tokens, its commands, and what it looks like now."""

    def __init__(self, table, names=("Ann", "Bob"), edition="g0009", options=None):
        self._adopt(table, table.create(list(names), edition, options))

    @classmethod
    def of(cls, table, created: dict) -> Game:
        """The game a table made otherwise (an import): `created` is its 201 answer."""
        game = cls.__new__(cls)
        game._adopt(table, created)
        return game

    def _adopt(self, table, created: dict) -> None:
        self.table, self.created = table, created
        self.id = created["game_id"]
        self.banker_token = created.get("banker_token")
        self.tokens = {p["id"]: p["token"] for p in created.get("players", [])}
        self.events: list[dict] = []  # the latest accepted command's events

    # --- commands ----------------------------------------------------------------------------

    def send(self, command=None, /, *, token=None, headers=None, raw=None, **fields):
        """Send a command (a dict, or its fields as keywords; `raw`: a body as it is), nothing
        checked; the table's reply."""
        assert command is None or not fields, "a command dict or its fields, not both"
        if command is None and raw is None:
            command = fields
        reply = self.table.send(self, command, token=token, headers=headers, raw=raw)
        assert "json" in reply.mimetype, (command, reply.status_code, reply.mimetype)
        return reply

    def do(self, command=None, /, *, token=None, headers=None, **fields) -> dict:
        """A command that must be accepted: the next version, its events as the contract shapes
        them. Its answer {"version", "events", "state"}."""
        assert command is None or not fields, "a command dict or its fields, not both"
        command = fields if command is None else command
        before = self.version
        reply = self.send(command, token=token, headers=headers)
        answer = reply.get_json()
        assert reply.status_code == 200, (command, reply.status_code, answer)
        assert set(answer) >= {"version", "events", "state"}, answer
        assert answer["version"] == before + 1 == answer["state"]["version"], (before, answer)
        for e in answer["events"]:
            assert isinstance(e["type"], str) and isinstance(e["text"], str) and e["text"], e
        self.events = answer["events"]
        return answer

    def refused(self, expected, command=None, /, *, code=None, **fields) -> Refused:
        """A command that must be refused with `expected` (a status, a tuple of them, or a
        Refusal class) and, when given, `code`; the game is exactly as it was. What it said.
        `fields`: the command's, or send's token=, headers=, raw=."""
        before = self.now()
        said = refusal_of(self.send(command, **fields), expected, code, command or fields)
        assert self.now() == before, command or fields
        return said

    def start(self, first="p1") -> dict:
        return self.do(type="start", first=first)

    def roll(self, pid, d1, d2) -> dict:
        return self.do(type="roll", player=pid, dice=[d1, d2])

    def draw(self, deck, card) -> dict:
        return self.do(type="draw_card", deck=deck, card=card)

    def claim(self, claim_id=None, token=None) -> dict:
        """The owner asks for an open claim (the only one, unless named)."""
        if claim_id is None:
            (only,) = self.claims
            claim_id = only["id"]
        return self.do(type="claim_rent", claim=claim_id, token=token)

    # --- getting to situations by documented commands ----------------------------------------

    def move(self, pid, position) -> dict:
        return self.do(type="move", player=pid, position=position)

    def adjust(self, pid, amount, reason="setting up the test") -> dict:
        return self.do(type="adjust", player=pid, amount=amount, reason=reason)

    def adjust_to(self, pid, amount) -> None:
        """pid's cash becomes `amount` by an adjustment (none when it already is)."""
        delta = amount - self.cash(pid)
        if delta:
            self.adjust(pid, delta)

    def land(self, pid, index, d1=1, d2=2) -> dict:
        """`pid` (whose turn it is) moves to index-(d1+d2) and rolls onto `index`."""
        self.move(pid, (index - d1 - d2) % 40)
        return self.roll(pid, d1, d2)

    def pass_to(self, pid) -> None:
        """Harmless rolls (GO -> Just Visiting) until `pid` is to roll."""
        for _ in range(8):
            x = self.whose_turn
            if x == pid:
                return
            self.move(x, 0)
            self.roll(x, 4, 6)
        raise AssertionError("turn never reached " + pid)

    def deeds_by_rolls(self, *items) -> None:
        """Deeds to players by real rolls, (deed, owner) each: the roller lands there and buys,
        or the owner wins its auction at 10."""
        for prop, owner in items:
            x = self.whose_turn
            self.land(x, SPACES[prop])
            assert (self.pending["offer"] or {}).get("property") == prop, self.pending
            if x == owner:
                self.do(type="buy")
            else:
                self.do(type="auction")
                self.do(type="bid", player=owner, amount=10)
                self.do(type="close_auction")
            assert self.prop(prop)["owner"] == owner

    # --- reading -----------------------------------------------------------------------------

    def get(self, path="", token=None):
        """GET the game's resource at `path` ("", "/events", "/snapshot"...): the reply."""
        return self.table.get(self, path, token=token)

    def auth(self, token=None) -> dict:
        """The Authorization header of a token (the Banker's by default)."""
        return {"Authorization": f"Bearer {token or self.banker_token}"}

    def read(self, path="", token=None):
        reply = self.get(path, token)
        assert reply.status_code == 200, (path, reply.status_code, reply.get_json())
        return reply.get_json()

    @property
    def state(self) -> dict:
        return self.table.state(self)

    @property
    def version(self) -> int:
        return self.state["version"]

    def history(self, token=None) -> list[dict]:
        """Every event of the game so far (its event log)."""
        return self.table.history(self, token)

    def now(self) -> tuple[dict, list[dict]]:
        """State and event log, to compare before and after a refusal."""
        return self.state, self.history()

    def player(self, pid) -> dict:
        return next(p for p in self.state["players"] if p["id"] == pid)

    def cash(self, pid) -> int:
        return self.player(pid)["cash"]

    def cashes(self) -> dict:
        return {p["id"]: p["cash"] for p in self.state["players"]}

    def position(self, pid) -> int:
        return self.player(pid)["position"]

    def prop(self, prop) -> dict:
        return self.state["properties"][prop]

    @property
    def pending(self) -> dict:
        return self.state["pending"]

    @property
    def claims(self) -> list[dict]:
        return self.pending["rent_claims"]

    @property
    def turn(self) -> dict:
        return self.state["turn"]

    @property
    def whose_turn(self):
        return self.turn["player"]

    def texts(self) -> list[str]:
        """The sentences of the latest accepted command's events."""
        return [e["text"] for e in self.events]

    def types(self) -> list[str]:
        return [e["type"] for e in self.events]


def refusal_of(reply, expected, code=None, what=None) -> Refused:
    """A reply that must be a refusal: `expected` its status (an int, a tuple of them, or a
    Refusal class, whose `status` is taken), the contract's error body, `code` when named."""
    statuses = expected if isinstance(expected, tuple) else (getattr(expected, "status", expected),)
    body = reply.get_json()
    assert reply.status_code in statuses, (what, reply.status_code, body)
    error = error_of(body)
    assert code is None or error.code == code, (what, body)
    return Refused(reply.status_code, error.code, error.message)


def error_of(body) -> Refused:
    """The contract's error body {"error": {"code", "message"}}: a snake_case code, a sentence."""
    assert isinstance(body, dict) and set(body) == {"error"}, body
    err = body["error"]
    assert isinstance(err.get("code"), str) and re.fullmatch(r"[a-z][a-z0-9_]*", err["code"]), body
    assert isinstance(err.get("message"), str) and SENTENCE.match(err["message"]), body
    return Refused(0, err["code"], err["message"])
