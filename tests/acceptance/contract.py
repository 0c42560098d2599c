"""What the black-box acceptance tests share: the reference figures, the contract's field lists,
and `Game`, a game made through the API whose every call checks the contract's shapes.

The tests (tests/acceptance/test_*.py, one file per part of docs/api.md) judge `banker serve`
against the project's API documentation (docs/api.md) and the rule texts.

Every expected value here comes from docs/api.md, the two rule texts or the printed figures
(tests/data/g0009.json, source named in tests/data/README.md), never from the implementation.
Where the rule texts are silent docs/rules-decisions.md is accepted. Each test makes its own game.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

REF = json.loads((Path(__file__).resolve().parents[1] / "data" / "g0009.json").read_text())
DEEDS = {s["id"]: s for s in REF["board"] if "id" in s}
INDEX = {pid: s["index"] for pid, s in DEEDS.items()}
BOARD_ORDER = [s["id"] for s in REF["board"] if "id" in s]

API = "/api/v1"
PENDING_EMPTY = {
    "offer": None,
    "auction": None,
    "auction_queue": [],
    "card": None,
    "dice": None,
    "debt": None,
    "payments": [],
    "rent_claims": [],
    "final_round": False,
}


def pick(obj, keys):
    """The contract's fields of an object (more fields may be added, docs/api.md says)."""
    return None if obj is None else {k: obj[k] for k in keys}


def debt(state):
    """pending.debt's contract fields. `can_raise` is an amount (docs/rules-decisions.md: it
    "counts" what could be sold); in Python False == 0, so the types are checked apart."""
    d = state["pending"]["debt"]
    assert d is not None, state["pending"]
    assert type(d["amount"]) is int and type(d["can_raise"]) is int, d
    assert isinstance(d.get("reason"), str) and d["reason"], d
    return pick(d, DEBT)


OFFER = ("player", "property", "price")
AUCTION = ("item", "high_bid", "high_bidder")
CARD = ("player", "deck")
DICE = ("player", "reason", "multiplier")
DEBT = ("debtor", "creditor", "amount", "can_raise")
PAYMENT = ("from", "to", "amount")
CLAIM = ("owner", "payer", "property", "amount")


EVENT_TEXTS: list[str] = []  # every event text the suite saw, for a look at their form


class Game:
    """One game made through the API, with shortcuts; every call checks the contract's shapes."""

    def __init__(self, http, names=("Ann", "Bob"), edition="g0009", options=None):
        self.http = http
        body = {"edition": edition, "players": list(names)}
        if options is not None:
            body["options"] = options
        status, created, _ = http.request("POST", f"{API}/games", body)
        assert status == 201, (status, created)
        self.created = created
        self.id = created["game_id"]
        self.bt = created["banker_token"]
        self.tokens = {p["id"]: p["token"] for p in created["players"]}

    # -- reading --
    def get(self, path="", token=None):
        return self.http.request("GET", f"{API}/games/{self.id}{path}", token=token or self.bt)

    def state(self, token=None):
        status, body, _ = self.get("", token)
        assert status == 200, (status, body)
        return body

    def events(self, token=None):
        status, body, _ = self.get("/events", token)
        assert status == 200, (status, body)
        return body

    def player(self, pid):
        return next(p for p in self.state()["players"] if p["id"] == pid)

    def cash(self, pid):
        return self.player(pid)["cash"]

    def cashes(self):
        return {p["id"]: p["cash"] for p in self.state()["players"]}

    def prop(self, pid):
        return self.state()["properties"][pid]

    def pending(self):
        return self.state()["pending"]

    def turn(self):
        return self.state()["turn"]["player"]

    # -- commands --
    def send(self, command, token=None, headers=None, raw=None):
        status, body, ctype = self.http.request(
            "POST", f"{API}/games/{self.id}/commands", command, token=token or self.bt,
            headers=headers, raw=raw,
        )  # fmt: skip
        assert "json" in ctype, (status, ctype)  # JSON out, errors included
        return status, body

    def cmd(self, token=None, headers=None, **command):
        before = self.state()["version"]
        status, body = self.send(command, token, headers)
        assert status == 200, (command, status, body)
        assert set(body) >= {"version", "events", "state"}, body
        assert body["version"] == before + 1 == body["state"]["version"], (before, body["version"])
        for e in body["events"]:
            assert isinstance(e["type"], str) and isinstance(e["text"], str) and e["text"], e
            EVENT_TEXTS.append(e["text"])
        return body

    def refused(self, command, status, token=None, code=None, raw=None, headers=None):
        """Answered with `status` and an error body; the game is exactly as before."""
        before_state, before_events = self.state(), self.events()
        got, body = self.send(command, token, headers, raw)
        assert got == status if isinstance(status, int) else got in status, (command, got, body)
        assert_error_body(body)
        if code is not None:
            assert body["error"]["code"] == code, body
        assert self.state() == before_state, command
        assert self.events() == before_events, command
        return body

    # -- getting to situations quickly --
    def start(self, first="p1"):
        return self.cmd(type="start", first=first)

    def move(self, pid, position):
        return self.cmd(type="move", player=pid, position=position)

    def roll(self, pid, d1, d2):
        return self.cmd(type="roll", player=pid, dice=[d1, d2])

    def adjust(self, pid, amount, reason="setting up the test"):
        return self.cmd(type="adjust", player=pid, amount=amount, reason=reason)

    def set_cash(self, pid, amount):
        delta = amount - self.cash(pid)
        if delta:
            self.adjust(pid, delta)

    def land(self, pid, index, d1=1, d2=2):
        """`pid` (whose turn it is) moves to index-(d1+d2) and rolls onto `index`."""
        self.move(pid, (index - d1 - d2) % 40)
        return self.roll(pid, d1, d2)

    def pass_to(self, pid):
        """Harmless rolls (GO -> Just Visiting) until `pid` is to roll."""
        for _ in range(8):
            x = self.turn()
            if x == pid:
                return
            self.move(x, 0)
            self.roll(x, 4, 6)
        raise AssertionError("turn never reached " + pid)

    def own(self, *items):
        """Deeds to players by real rolls: the roller buys, or the owner wins the auction at 10."""
        for prop, owner in items:
            x = self.turn()
            self.land(x, INDEX[prop])
            assert pick(self.pending()["offer"], ("property",)) == {"property": prop}
            if x == owner:
                self.cmd(type="buy")
            else:
                self.cmd(type="auction")
                self.cmd(type="bid", player=owner, amount=10)
                self.cmd(type="close_auction")
            assert self.prop(prop)["owner"] == owner


def assert_error_body(body):
    assert isinstance(body, dict) and set(body) == {"error"}, body
    err = body["error"]
    assert isinstance(err.get("code"), str) and re.fullmatch(r"[a-z][a-z0-9_]*", err["code"]), body
    assert isinstance(err.get("message"), str) and err["message"].strip(), body


def jail_ann(g):
    """Ann (p1, to roll) goes to Jail by the Go To Jail space; Bob rolls; Ann's turn again."""
    g.move("p1", 27)
    g.roll("p1", 1, 2)
    g.pass_to("p1")
    assert g.player("p1")["in_jail"]


def shortage_game(http, edition="g0009", options=None):
    """Ann owns brown (two hotels), light blue and pink (4 houses each), orange (3, 2, 2):
    31 houses out, the Bank keeps 1 house and 10 hotels."""
    g = Game(http, edition=edition, options=options)
    g.start()
    sets = {
        "brown": ["mediterranean-avenue", "baltic-avenue"],
        "light_blue": ["oriental-avenue", "vermont-avenue", "connecticut-avenue"],
        "pink": ["st-charles-place", "states-avenue", "virginia-avenue"],
        "orange": ["st-james-place", "tennessee-avenue", "new-york-avenue"],
    }
    g.own(*[(p, "p1") for streets in sets.values() for p in streets])
    g.adjust("p1", 20000, "the test's bank loan")
    for _level in range(5):
        for p in sets["brown"]:
            g.cmd(type="build", property=p)
    for color in ("light_blue", "pink"):
        for _level in range(4):
            for p in sets[color]:
                g.cmd(type="build", property=p)
    for p in ["st-james-place", "tennessee-avenue", "new-york-avenue"] * 2 + ["st-james-place"]:
        g.cmd(type="build", property=p)
    s = g.state()
    assert s["bank"] == {"houses": 1, "hotels": 10}
    return g


def trade(frm, to, give=None, receive=None, unmortgage=()):
    empty = {"cash": 0, "properties": [], "jail_cards": []}
    return {"type": "trade", "from": frm, "to": to, "give": {**empty, **(give or {})},
            "receive": {**empty, **(receive or {})}, "unmortgage": list(unmortgage)}  # fmt: skip
