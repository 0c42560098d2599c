"""One command schema: a malformed command is 400 whatever the game's state (docs/api.md:
"A malformed command (400: missing or wrong-typed field, an unknown player, deed, deck, card or
value) is refused as malformed whatever the game's state; the rules (422) are asked only about
well-formed ones")."""

from __future__ import annotations

import pytest

from banker.rules import COMMAND_SCHEMA, describe_command

from .helpers import BadCommand, CoreGame, DomainError, started

GOOD_SIDE = {"cash": 0, "properties": ["boardwalk"], "jail_cards": []}
MALFORMED = {
    "start": [{}, {"first": 1}, {"first": "p9"}],
    "roll": [{"player": "p1"}, {"player": "p1", "dice": [0, 3]}, {"player": "p9", "dice": [1, 2]}],
    "bid": [{"player": "p1"}, {"player": "p1", "amount": 0}, {"player": "p1", "amount": "10"}],
    "close_auction": [{"property": "nowhere"}, {"property": 3}],
    "draw_card": [
        {"deck": "chance"}, {"deck": "chest", "card": "x"}, {"deck": "chance", "card": "x"},
    ],
    "rent_roll": [{}, {"dice": [3]}, {"dice": [1, 7]}, {"dice": [True, 2]}],
    "claim_rent": [{}, {"claim": 1}, {"claim": "c" * 41}],
    "pay_jail_fine": [{}, {"player": "p7"}],
    "use_jail_card": [{"player": "p1"}, {"player": "p1", "deck": "bank"}],
    "build": [{}, {"property": "go"}],
    "sell_building": [{}, {"property": ["boardwalk"]}],
    "building_auction": [{}, {"kind": "castle"}],
    "mortgage": [{}, {"property": None}],
    "unmortgage": [{}, {"property": "park"}],
    "trade": [
        {"to": "p2", "give": GOOD_SIDE},
        {"from": "p1", "to": "p2", "give": {"cash": -5}},
        {"from": "p1", "to": "p2", "give": {"properties": ["moon"]}},
        {"from": "p1", "to": "p2", "give": {"jail_cards": ["bank"]}},
        {"from": "p1", "to": "p2", "give": {"deeds": []}},
        {"from": "p1", "to": "p2", "give": GOOD_SIDE, "unmortgage": "boardwalk"},
        {"from": "p1", "to": "p2", "give": {"properties": ["boardwalk", "boardwalk"]}},
    ],
    "propose_trade": [{"from": "p1"}, {"from": "p1", "to": "p8", "give": GOOD_SIDE}],
    "accept_trade": [{}, {"offer": 1}],
    "decline_trade": [{}, {"offer": ["o1"]}],
    "bankrupt": [{}, {"player": "p1", "unmortgage": ["moon"]}],
    "adjust": [
        {"player": "p1", "amount": 5},
        {"player": "p1", "amount": 0, "reason": "typo"},
        {"player": "p1", "amount": 5, "reason": "   "},
        {"player": "p1", "amount": 2_000_000, "reason": "typo"},
    ],
    "move": [
        {"player": "p1"}, {"player": "p1", "position": 40},
        {"player": "p1", "position": 3, "reason": 4},
    ],
    "rename_player": [
        {"player": "p1"}, {"name": "Annie"}, {"player": "p9", "name": "Annie"},
        {"player": "p1", "name": 7}, {"player": "p1", "name": ""},
        {"player": "p1", "name": "x" * 31}, {"player": "p1", "name": "An\u200bn"},
    ],
    "add_player": [{}, {"name": None}, {"name": ["Dan"]}, {"name": "   "}, {"name": "D" * 101}],
    "leave": [{}, {"player": "p9"}, {"player": 1}],
}  # fmt: skip
CASES = [(kind, fields) for kind, variants in MALFORMED.items() for fields in variants]


def test_every_command_with_fields_has_malformed_cases():
    with_fields = {k for k, c in COMMAND_SCHEMA.items() if c.fields and k != "undo"}
    assert with_fields == set(MALFORMED)


@pytest.mark.parametrize(("kind", "fields"), CASES)
def test_a_malformed_command_is_400_whatever_the_state_even_in_setup(kind, fields):
    g = CoreGame()  # setup: the rules would answer 422 not_started to a well-formed command
    g.refused(BadCommand, type=kind, **fields)


@pytest.mark.parametrize(("kind", "fields"), CASES)
def test_a_malformed_command_is_400_after_the_game_is_over(kind, fields):
    g = started()
    g.do(type="stop")
    g.refused(BadCommand, type=kind, **fields)


def test_the_field_readers_keep_their_sentences_and_codes():
    g = CoreGame()
    e = g.refused(BadCommand, type="build", property="go")
    assert (e.code, e.message) == ("unknown_property", "There is no property 'go'.")
    e = g.refused(BadCommand, type="trade", **{"from": "p1", "to": "p2", "give": {"cash": -5}})
    assert (e.code, e.message) == ("out_of_range", "'cash' must be between 0 and 1000000.")
    e = g.refused(BadCommand, type="roll", player="p1")
    assert (e.code, e.message) == ("missing_field", "The command needs the field 'dice'.")
    e = g.refused(BadCommand, type="draw_card", deck="chance", card="x")
    assert (e.code, e.message) == ("unknown_card", "There is no card 'x' in Chance.")
    e = g.refused(BadCommand, type="start", first="p9")
    assert (e.code, e.message) == ("unknown_player", "There is no player 'p9' in this game.")
    e = g.refused(BadCommand, type="fly")
    assert (e.code, e.message) == ("unknown_command", "Unknown command type 'fly'.")


def test_a_well_formed_command_in_setup_is_the_rules_not_started():
    g = CoreGame()
    e = g.refused(DomainError, type="build", property="boardwalk")
    assert e.code == "not_started"


def test_each_command_describes_its_fields_as_a_json_schema():
    assert describe_command("roll") == {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["roll"]},
            "player": {
                "type": "string",
                "pattern": "^p[1-9][0-9]*$",
                "description": "A player id: p1, p2… in the order they joined (a latecomer's is "
                "the next number, never reused).",
                "example": "p1",
            },
            "dice": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1, "maximum": 6},
                "minItems": 2,
                "maxItems": 2,
                "example": [3, 4],
            },
        },
        "required": ["type", "player", "dice"],
        "additionalProperties": False,
        "description": "A roll of the real dice by the player whose turn it is (also a jail "
        "attempt).",
    }


def test_a_field_a_command_does_not_have_is_400_unknown_field_at_every_level():
    """docs/api.md: 400 for "a field the command or one of its objects does not have", so no
    stored row is bigger than a command can legitimately be."""
    g = CoreGame()
    g.start("p1")
    e = g.refused(BadCommand, type="roll", player="p1", dice=[1, 2], note="x" * 900_000)
    assert (e.code, e.message) == ("unknown_field", "The command 'roll' has no field 'note'.")
    e = g.refused(BadCommand, type="buy", expected_version=1)  # the API's, never the core's
    assert e.code == "unknown_field"
    give = {"cash": 5, "properties": [], "jail_cards": [], "loan": 10}
    e = g.refused(BadCommand, type="propose_trade", give=give, **{"from": "p1", "to": "p2"})
    assert (e.code, e.message) == ("unknown_field", "'give' has an unknown field 'loan'.")
    e = g.refused(BadCommand, type="undo", again=True)
    assert e.code == "unknown_field"
