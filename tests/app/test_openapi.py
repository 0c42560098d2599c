"""GET /api/v1/openapi.json: a valid OpenAPI 3 document that real answers fit."""

from __future__ import annotations

import random

import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate as validate_spec

CONTRACT_COMMANDS = {
    "start", "roll", "buy", "auction", "bid", "close_auction", "draw_card", "rent_roll",
    "claim_rent", "pay_jail_fine", "use_jail_card", "build", "sell_building",
    "building_auction", "mortgage", "unmortgage", "trade", "pay_debt", "bankrupt",
    "call_time", "adjust", "move", "undo", "score_game", "stop", "propose_trade",
    "accept_trade", "decline_trade", "rename_player", "add_player", "leave",
}  # fmt: skip


@pytest.fixture
def doc(client):
    r = client.get("/api/v1/openapi.json")
    assert r.status_code == 200
    return r.get_json()


@pytest.fixture
def fits(doc):
    """fits(name, value): assert that value fits components/schemas/<name>."""

    def check(name: str, value) -> None:
        schema = {"components": doc["components"], "$ref": f"#/components/schemas/{name}"}
        OAS30Validator(schema).validate(value)

    return check


def test_the_document_is_a_valid_openapi_3_document(doc):
    validate_spec(doc)
    assert doc["openapi"].startswith("3.")


def test_the_document_describes_every_api_route_and_method(app, doc):
    routes = {
        (rule.rule.replace("<game_id>", "{game_id}"), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    documented = {
        (path, method)
        for path, item in doc["paths"].items()
        for method in item
        if method != "parameters"
    }
    assert documented == routes


def test_the_command_schema_covers_every_command_type_of_the_contract(doc):
    mapping = doc["components"]["schemas"]["Command"]["discriminator"]["mapping"]
    assert set(mapping) == CONTRACT_COMMANDS
    for type_, ref in mapping.items():
        schema = doc["components"]["schemas"][ref.rsplit("/", 1)[1]]
        assert schema["properties"]["type"]["enum"] == [type_]


def test_the_creation_answer_and_the_state_fit_their_schemas(client, new_game, fits):
    g = new_game(["Ann", "Bob", "Cy", "Di"], options={"teams": True})
    fits("CreatedGame", g.created)
    fits("State", g.state)


@pytest.mark.parametrize("seed", range(3))
def test_every_answer_of_a_played_game_fits_its_schema(game, play, fits, seed):
    def check(response):
        fits("CommandAnswer" if response.status_code == 200 else "Error", response.get_json())

    accepted = play(game, random.Random(seed), 150, check)
    assert accepted > 50
    fits("State", game.state)
    for event in game.history():
        fits("Event", event)


def test_error_answers_fit_the_error_schema(client, game, fits):
    for r in [
        client.get("/api/v1/nothing"),
        client.get(f"/api/v1/games/{game.id}"),
        game.send({"type": "buy"}),
        game.send({"type": "roll", "expected_version": 9}),
    ]:
        assert r.status_code >= 400
        fits("Error", r.get_json())


def test_a_command_that_fits_the_schema_is_what_the_api_accepts(game, fits):
    command = {"type": "roll", "player": "p1", "dice": [3, 4], "expected_version": 1}
    fits("Command", command)
    assert game.send(command).status_code == 200


def test_each_command_schema_is_the_cores_own_schema_of_that_command(doc):
    """The OpenAPI document is generated from the core's one command schema, so the
    two cannot drift; the API adds only expected_version."""
    from banker.rules import COMMAND_SCHEMA, describe_command

    mapping = doc["components"]["schemas"]["Command"]["discriminator"]["mapping"]
    assert set(mapping) == set(COMMAND_SCHEMA)
    for type_, ref in mapping.items():
        schema = doc["components"]["schemas"][ref.rsplit("/", 1)[1]]
        properties = dict(schema["properties"])
        assert properties.pop("expected_version")["type"] == "integer"
        assert {**schema, "properties": properties} == describe_command(type_)


def test_a_state_with_a_trade_offer_a_rent_roll_and_a_stop_fits_the_state_schema(new_game, fits):
    g = new_game(["Ann", "Bob"])
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [6, 6]})  # Electric Company, on offer
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Pennsylvania Railroad
    g.do({"type": "auction"})
    g.do({"type": "close_auction"})
    state = g.do({"type": "roll", "player": "p2", "dice": [6, 6]})["state"]
    assert state["pending"]["dice"]["property"] == "electric-company"
    fits("State", state)
    g.do({"type": "rent_roll", "dice": [1, 2]})
    offer = {"type": "propose_trade", "from": "p1", "to": "p2"}
    offer["receive"] = {"cash": 100}
    offer["give"] = {"properties": ["electric-company"]}
    state = g.do(offer)["state"]
    assert state["pending"]["trade_offers"][0]["id"] == "o1"
    fits("State", state)
    state = g.do({"type": "stop"})["state"]
    assert state["status"] == "unfinished"
    fits("State", state)
