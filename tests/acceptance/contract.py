"""What the black-box acceptance tests share: the reference figures, the contract's field lists,
and the situations several parts start from. The games are played with `Game` (tests/game.py)
through `HttpTable` (tests/table_web.py): every command checks the contract's shapes.

The tests (tests/acceptance/test_*.py, one file per part of docs/api.md) judge `banker serve`
against the project's API documentation (docs/api.md) and the rule texts.

Every expected value here comes from docs/api.md, the two rule texts or the printed figures
(tests/data/g0009.json, source named in tests/data/README.md), never from the implementation.
Where the rule texts are silent docs/rules-decisions.md is accepted. Each test makes its own game.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.game import Game

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
    g.deeds_by_rolls(*[(p, "p1") for streets in sets.values() for p in streets])
    g.adjust("p1", 20000, "the test's bank loan")
    for _level in range(5):
        for p in sets["brown"]:
            g.do(type="build", property=p)
    for color in ("light_blue", "pink"):
        for _level in range(4):
            for p in sets[color]:
                g.do(type="build", property=p)
    for p in ["st-james-place", "tennessee-avenue", "new-york-avenue"] * 2 + ["st-james-place"]:
        g.do(type="build", property=p)
    s = g.state
    assert s["bank"] == {"houses": 1, "hotels": 10, "free_parking": 0}
    return g


def trade(frm, to, give=None, receive=None, unmortgage=()):
    empty = {"cash": 0, "properties": [], "jail_cards": []}
    return {"type": "trade", "from": frm, "to": to, "give": {**empty, **(give or {})},
            "receive": {**empty, **(receive or {})}, "unmortgage": list(unmortgage)}  # fmt: skip
