"""The state's shape is described once (rules/shape.py): every state the core makes
fits that description, and the core's bookkeeping keys are the ones it documents."""

from __future__ import annotations

from openapi_schema_validator import OAS30Validator

from banker.rules import BOOKKEEPING, apply, new_game, public_state, state_schema

VALIDATOR = OAS30Validator(state_schema())
# A short game touching most of the state: a purchase, an auction, a trade offer, a rent roll.
PLAYED = [
    {"type": "start", "first": "p1"},
    {"type": "roll", "player": "p1", "dice": [1, 2]},  # Baltic Avenue: on offer
    {"type": "buy"},
    {"type": "roll", "player": "p2", "dice": [2, 4]},  # Oriental Avenue
    {"type": "auction"},
    {"type": "bid", "player": "p3", "amount": 10},
    {"type": "close_auction"},
    {"type": "roll", "player": "p3", "dice": [5, 6]},  # St. Charles Place
    {"type": "buy"},
    {
        "type": "propose_trade",
        "from": "p1",
        "to": "p3",
        "give": {"cash": 20, "properties": ["baltic-avenue"], "jail_cards": []},
    },
    {"type": "adjust", "player": "p2", "amount": -5, "reason": "a miscount"},
    {"type": "stop"},
]


def played_states() -> list[dict]:
    state = new_game("g1", "g0009", ["Ann", "Bob", "Cat"], {"deadline": True})
    states = [state]
    for command in PLAYED:
        state, _ = apply(state, command)
        states.append(state)
    return states


def test_every_state_of_a_played_game_fits_the_one_description_of_the_state():
    states = played_states()
    assert [s["version"] for s in states] == list(range(len(PLAYED) + 1))
    assert any(s["pending"]["trade_offers"] for s in states)  # checked with an offer open
    assert states[-1]["status"] == "unfinished"
    for state in states:
        VALIDATOR.validate(public_state(state))


def test_the_description_names_every_key_of_the_public_state_and_nothing_else():
    described = state_schema()["properties"]
    for state in played_states():
        public = public_state(state)
        assert set(public) == set(described)
        assert set(public["pending"]) == set(described["pending"]["properties"])


def test_the_cores_bookkeeping_keys_are_the_documented_ones():
    for state in played_states():
        assert {k for k in state if k.startswith("_")} == set(BOOKKEEPING)
