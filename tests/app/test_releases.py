"""Releases: the version every answer names, and a snapshot saved by a newer release."""

from __future__ import annotations

import copy
import sqlite3

import banker
from banker.snapshot import releases


def games_in(db_path) -> int:
    with sqlite3.connect(db_path) as conn:
        return conn.execute("select count(*) from games").fetchone()[0]


def snapshot_of(g) -> dict:
    r = g.table.client.get(f"/api/v1/games/{g.id}/snapshot", headers=g.auth())
    assert r.status_code == 200
    return r.get_json()


def played(new_game):
    g = new_game(["Ann", "Bob"])
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "buy"})
    return g


def test_this_release_is_0_2_0_and_the_openapi_document_and_every_snapshot_name_it(
    client, new_game
):
    assert banker.__version__ == "0.2.0"
    assert client.get("/api/v1/openapi.json").get_json()["info"]["version"] == "0.2.0"
    doc = snapshot_of(played(new_game))
    assert (doc["format_version"], doc["banker_version"]) == (2, "0.2.0")


def test_a_snapshot_of_a_higher_format_is_refused_naming_both_releases_and_nothing_is_created(
    client, new_game, db_path
):
    doc = snapshot_of(played(new_game))
    doc.update(format_version=3, banker_version="0.3.0")
    before = games_in(db_path)
    r = client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 422
    assert r.get_json()["error"] == {
        "code": "snapshot_too_new",
        "message": "This snapshot was saved by banker 0.3.0 (format_version 3); this is banker "
        "0.2.0, which reads format_version 2 and earlier: upgrade banker to resume it.",
    }
    assert games_in(db_path) == before


def test_a_newer_releases_snapshot_this_release_cannot_read_is_snapshot_too_new_with_the_reason(
    client, new_game, db_path
):
    doc = snapshot_of(played(new_game))
    doc["banker_version"] = "0.4.1"
    doc["commands"][2]["command"] = {"type": "teleport", "player": "p1"}
    before = games_in(db_path)
    r = client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert error["code"] == "snapshot_too_new"
    assert error["message"].startswith(
        "This snapshot was saved by banker 0.4.1, a newer release than this banker 0.2.0, "
        "which cannot read it (Command 3 of the log (teleport) is refused by the rules: "
    )
    assert error["message"].endswith("): upgrade banker to resume it.")
    assert games_in(db_path) == before


def test_a_newer_releases_snapshot_this_release_can_read_resumes(client, new_game):
    g = played(new_game)
    doc = snapshot_of(g)
    doc["banker_version"] = "0.9.0"
    r = client.post("/api/v1/games/import", json=copy.deepcopy(doc))
    assert r.status_code == 201
    assert r.get_json()["state"]["players"] == g.state["players"]


def test_releases_compare_by_their_numbers_not_their_letters():
    assert releases.parse("0.10.0") > releases.parse("0.9.3")
    assert releases.is_newer("0.10.0") and not releases.is_newer("0.2.0")
    assert not releases.is_newer("0.1.0")
