"""The one table of game options (banker/rules/options.py) drives everything that reads or
describes them: the Start form, the OpenAPI document, a snapshot's shape, the paper record and
docs/api.md's table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from werkzeug.datastructures import MultiDict

from banker.rules.options import EDITIONS, OPTIONS
from banker.snapshot.shape import SNAPSHOT

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bob", "Cat", "Dan"]  # four: the partnerships need them


def _switches(html: str) -> dict[str, bool]:
    """The Start form's checkboxes: {name: checked}."""
    found = re.findall(r'<input type="checkbox" name="([a-z_]+)"( checked)?>', html)
    return {name: bool(checked) for name, checked in found}


def _create(client, edition: str, switched: dict[str, bool]):
    on = [(name, "on") for name, on in switched.items() if on]
    form = MultiDict([("edition", edition), *(("name", n) for n in NAMES), *on])
    return client.post("/games", data=form)


def _options_of(app, response) -> dict:
    assert response.status_code == 303, response.text
    game_id = response.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    return app.extensions["banker.store"].state(game_id)["options"]


def test_the_start_form_has_a_switch_for_every_option_on_as_its_default(client):
    html = client.get("/").text
    assert _switches(html) == {name: o.default for name, o in OPTIONS.items()}
    for o in OPTIONS.values():
        assert f"<strong>{o.label}</strong><br>{o.help}</span>" in html


@pytest.mark.parametrize("name", [n for n, o in OPTIONS.items() if "g0009" in o.editions])
def test_the_start_form_creates_the_game_with_an_option_switched_against_its_default(
    app, client, name
):
    drawn = {n: o.default for n, o in OPTIONS.items()}
    options = _options_of(app, _create(client, "g0009", {**drawn, name: not drawn[name]}))
    assert options == {**drawn, name: not drawn[name]}


def test_a_classic_game_from_the_start_form_as_drawn_is_never_refused_for_a_g0009_switch(
    app, client
):
    drawn = {n: o.default for n, o in OPTIONS.items()}
    options = _options_of(app, _create(client, "classic", drawn))
    assert options == {n: o.default and "classic" in o.editions for n, o in OPTIONS.items()}


def test_a_g0009_variation_switched_on_for_classic_is_refused_with_the_cores_sentence(client):
    name = next(n for n, o in OPTIONS.items() if "classic" not in o.editions and not o.default)
    r = _create(client, "classic", {name: True})
    assert r.status_code == 422
    assert "The classic edition offers no house variations" in r.text and name in r.text


def test_the_openapi_document_describes_exactly_the_declared_options(client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    new_game = schemas["NewGame"]["properties"]["options"]
    assert list(new_game["properties"]) == list(OPTIONS)
    assert new_game["additionalProperties"] is False
    for name, o in OPTIONS.items():
        assert new_game["properties"][name]["type"] == "boolean"
        assert o.help in new_game["properties"][name]["description"]
    assert list(schemas["State"]["properties"]["options"]["properties"]) == list(OPTIONS)


def test_a_snapshots_shape_names_the_declared_options_and_import_refuses_any_other(
    client, new_game
):
    assert list(SNAPSHOT["properties"]["game"]["properties"]["options"]["properties"]) == list(
        OPTIONS
    )
    g = new_game(["Ann", "Bob"])
    doc = client.get(f"/api/v1/games/{g.id}/snapshot", headers=g.auth()).get_json()
    doc["game"]["options"] = {"colour": True}
    r = client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 400
    assert "There is no option 'colour'." in r.get_json()["error"]["message"]


def _docs_rows() -> dict[str, list[str]]:
    """docs/api.md's table of options: {option: [default, does]}."""
    api = (ROOT / "docs" / "api.md").read_text()
    table = api[api.index("| option | default | does |") :].split("\n\n")[0]
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1:]
    return rows


def _default_in_words(name: str) -> str:
    o = OPTIONS[name]
    values = {e: str(o.default_in(e)).lower() for e in EDITIONS}
    if len(set(values.values())) == 1:
        return values[EDITIONS[0]]
    return ", ".join(f"{v} ({e})" for e, v in values.items())


def test_docs_api_lists_exactly_the_declared_options_with_their_defaults():
    rows = _docs_rows()
    assert list(rows) == list(OPTIONS)
    for name, (default, does) in rows.items():
        assert default == _default_in_words(name), name
        assert ("House rule" in does) == OPTIONS[name].house_rule, name


def test_the_paper_record_names_every_rule_of_play_switched_on(client):
    r = client.post(
        "/api/v1/games",
        json={"players": NAMES, "options": {"auction_all": True, "teams": True}},
    )
    created = r.get_json()
    page = client.get(f"/games/{created['game_id']}/pause?token={created['banker_token']}")
    assert "G0009 (current guide); auction every purchase, two partnerships, hotel-shortage" in (
        page.text
    )
