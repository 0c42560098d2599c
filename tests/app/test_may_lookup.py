"""banker.web.common.may.May: a button's targets found by one field (a deed's Build, Sell,
Mortgage, Lift by `property`) are looked up in an index made once per command type, not searched
for each button: the same targets, in the same order, as searching them."""

from __future__ import annotations

import random

from banker.rules import apply, new_game
from banker.rules.schema import COMMANDS
from banker.web.common.may import May
from tests.plays import played_on


def searched(may: May, kind: str, fields: dict) -> list[dict]:
    entry = may._entry(kind) or {"targets": []}
    return [t for t in entry["targets"] if all(t["command"].get(k) == v for k, v in fields.items())]


def test_a_buttons_targets_looked_up_by_one_field_are_those_a_search_finds_in_a_played_game():
    state = new_game("g1", "g0009", ["Ann", "Bob", "Cy", "Di"])
    state, _ = apply(state, {"type": "start", "first": "p1"})
    rng, looked = random.Random(35), 0
    for step in range(300):
        if step % 10 == 0:
            for seat in ("banker", "p1", "p2", "p3", "p4"):
                may = May(state, seat)
                for kind in COMMANDS:
                    entry = may._entry(kind) or {"targets": []}
                    values = {(k, repr(v)): (k, v) for t in entry["targets"]
                              for k, v in t["command"].items()}  # fmt: skip
                    asked = [*values.values(), ("property", "nowhere"), ("property", 7),
                             ("player", "p9"), ("property", None)]  # fmt: skip
                    for field, value in asked:
                        got = may._targets(kind, {field: value})
                        assert got == searched(may, kind, {field: value}), (kind, field, value)
                        looked += bool(got)
        state = played_on(state, rng)
        if state["status"] != "playing":
            break
    assert looked > 500, looked
