"""Acceptance: docs/api.md, Endpoints: snapshots (pause, import) and the OpenAPI document.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

import json
import re

import pytest

from tests.game import Game, error_of

from .contract import (
    API,
)


def test_snapshot_and_import_round_trip(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    g.roll("p2", 3, 5)
    r = g.get("/snapshot")
    status, snap = r.status_code, r.get_json()
    assert status == 200 and isinstance(snap, dict)
    status, created, _ = http.request("POST", f"{API}/games/import", snap)
    assert status == 201, created
    assert set(created) >= {"game_id", "banker_token", "banker_url", "players", "state"}
    assert created["game_id"] != g.id
    assert created["banker_token"] != g.banker_token
    assert {p["token"] for p in created["players"]}.isdisjoint(g.tokens.values())
    assert [p["id"] for p in created["players"]] == ["p1", "p2", "p3"]
    old, new = g.state, created["state"]
    assert new["game_id"] == created["game_id"]
    assert {**new, "game_id": None} == {**old, "game_id": None}
    # the old tokens do not open the new game; the new ones do, and play goes on
    status, _, _ = http.request("GET", f"{API}/games/{created['game_id']}", token=g.banker_token)
    assert status in (401, 403)
    h = Game.of(http, created)
    assert h.read(token=h.tokens["p2"]) == new
    (claim,) = new["pending"]["rent_claims"]
    h.do(token=h.tokens["p1"], type="claim_rent", claim=claim["id"])
    assert h.cashes() == {"p1": 1406, "p2": 1494, "p3": 1500}
    assert g.cashes() == {"p1": 1400, "p2": 1500, "p3": 1500}  # the original is untouched


def test_damaged_snapshot_is_refused(http):
    g = Game(http)
    g.start()
    for bad in ({}, {"what": "not a snapshot"}, [1, 2, 3]):
        status, body, _ = http.request("POST", f"{API}/games/import", bad)
        assert status in (400, 422), (bad, status)
        error_of(body)


def test_openapi_document(http):
    status, doc, ctype = http.request("GET", f"{API}/openapi.json")
    assert status == 200 and "json" in ctype
    assert str(doc["openapi"]).startswith("3.")
    paths = set(doc["paths"])
    for p in ("/api/v1/games", "/api/v1/games/{id}", "/api/v1/games/{id}/commands",
              "/api/v1/games/{id}/events", "/api/v1/games/{id}/snapshot",
              "/api/v1/games/import", "/api/v1/openapi.json"):  # fmt: skip
        short = p.replace("/api/v1", "")
        assert (
            p in paths
            or short in paths
            or any(
                re.sub(r"\{[^}]+\}", "{}", q)
                in (re.sub(r"\{[^}]+\}", "{}", p), re.sub(r"\{[^}]+\}", "{}", short))
                for q in paths
            )
        ), (p, sorted(paths))


def test_tampered_snapshot_is_refused(http):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    r = g.get("/snapshot")
    status, snap = r.status_code, r.get_json()
    assert status == 200
    text = json.dumps(snap)
    assert '"cash": 1400' in text
    bad = json.loads(text.replace('"cash": 1400', '"cash": 1900'))
    status, body, _ = http.request("POST", f"{API}/games/import", bad)
    assert status in (400, 422), (status, body)
    error_of(body)


def test_import_twice_and_a_finished_game(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.roll("p1", 4, 6)
    g.roll("p2", 4, 6)
    g.do(type="call_time")
    r = g.get("/snapshot")
    status, snap = r.status_code, r.get_json()
    ids = set()
    for _ in range(2):
        status, created, _ = http.request("POST", f"{API}/games/import", snap)
        assert status == 201
        ids.add(created["game_id"])
        assert created["state"]["status"] == "finished"
        h = Game.of(http, created)
        h.refused(422, {"type": "roll", "player": "p1", "dice": [1, 2]})
    assert len(ids) == 2 and g.id not in ids


def test_openapi_document_is_valid(http):
    validator = pytest.importorskip("openapi_spec_validator")
    status, doc, _ = http.request("GET", f"{API}/openapi.json")
    assert status == 200
    validator.validate(doc)


@pytest.mark.parametrize(
    "damage",
    ["format", "players", "unknown-player", "dice", "version-type", "no-commands"],
)
def test_damaged_snapshots_are_refused(http, damage):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    r = g.get("/snapshot")
    status, snap = r.status_code, r.get_json()
    assert status == 200
    snap = json.loads(json.dumps(snap))
    if damage == "format":
        snap["format"] = "chess-pgn"
    elif damage == "players":
        snap["game"]["players"] = ["Ann"]
    elif damage == "unknown-player":
        snap["commands"][0]["command"]["first"] = "p9"
    elif damage == "dice":
        snap["commands"][1]["command"]["dice"] = [9, 9]
    elif damage == "version-type":
        snap["format_version"] = "one"
    elif damage == "no-commands":
        del snap["commands"]
    status, body, _ = http.request("POST", f"{API}/games/import", snap)
    assert status in (400, 422), (damage, status, body)
    error_of(body)
