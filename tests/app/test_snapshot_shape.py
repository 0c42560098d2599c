"""The snapshot's shape is described once (banker/snapshot/shape.py): the OpenAPI document's
Snapshot is that description, and import refuses, with 400 and nothing created, a document
missing any field it calls required or carrying a field it does not name (the snapshot's
checks cannot drift from the documented schema)."""

from __future__ import annotations

import copy

import pytest

from banker.snapshot.shape import SNAPSHOT
from tests.app.test_snapshots import SCRIPT, games_in, import_snapshot, script_snapshot  # noqa: F401

# The objects of a snapshot the description names, and how to reach the first of each.
OBJECTS = {
    "the snapshot": (SNAPSHOT, lambda doc: doc),
    "game": (SNAPSHOT["properties"]["game"], lambda doc: doc["game"]),
    "commands[0]": (SNAPSHOT["properties"]["commands"]["items"], lambda doc: doc["commands"][0]),
    "events[0]": (SNAPSHOT["properties"]["events"]["items"], lambda doc: doc["events"][0]),
}
MISSING = [(where, f) for where, (s, _) in OBJECTS.items() for f in s.get("required", ())]
OPTIONAL = [
    (where, f)
    for where, (s, _) in OBJECTS.items()
    for f in s["properties"]
    if f not in s.get("required", ())
]


@pytest.fixture
def exported(script_snapshot):  # noqa: F811  (the fixture of tests/app/test_snapshots.py)
    """A snapshot of the SCRIPT's game (tests/app/test_snapshots.py), the test's own copy."""
    return copy.deepcopy(script_snapshot)


def test_the_openapi_snapshot_is_the_snapshot_modules_own_description(client):
    document = client.get("/api/v1/openapi.json").get_json()
    assert document["components"]["schemas"]["Snapshot"] == SNAPSHOT


@pytest.mark.parametrize("where,field", MISSING)
def test_a_snapshot_missing_a_required_field_is_400_naming_it(
    exported, client, db_path, where, field
):
    doc = copy.deepcopy(exported)
    del OBJECTS[where][1](doc)[field]
    before = games_in(db_path)
    r = import_snapshot(client, doc)
    assert r.status_code == 400, r.get_json()
    assert field in r.get_json()["error"]["message"]
    assert games_in(db_path) == before


@pytest.mark.parametrize("where", list(OBJECTS))
def test_a_snapshot_with_a_field_its_description_does_not_name_is_400(
    exported, client, db_path, where
):
    doc = copy.deepcopy(exported)
    OBJECTS[where][1](doc)["colour"] = "blue"
    before = games_in(db_path)
    r = import_snapshot(client, doc)
    assert r.status_code == 400, r.get_json()
    assert "colour" in r.get_json()["error"]["message"]
    assert games_in(db_path) == before


@pytest.mark.parametrize("where,field", OPTIONAL)
def test_a_snapshot_without_an_optional_field_still_resumes(exported, client, where, field):
    doc = copy.deepcopy(exported)
    del OBJECTS[where][1](doc)[field]
    r = import_snapshot(client, doc)
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["state"]["version"] == len(SCRIPT)
