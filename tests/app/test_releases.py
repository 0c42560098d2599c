"""Releases: the version every answer names, and a snapshot saved by a newer release."""

from __future__ import annotations

import copy
import io
import json
import re
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


def refused_and_nothing_created(client, db_path, doc: dict) -> dict:
    """The import's 422 error body, after checking that no game was created."""
    before = games_in(db_path)
    r = client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 422, r.get_json()
    assert games_in(db_path) == before
    return r.get_json()["error"]


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
    assert refused_and_nothing_created(client, db_path, doc) == {
        "code": "snapshot_too_new",
        "message": "This snapshot was saved by banker 0.3.0 (format_version 3); this is banker "
        "0.2.0, which reads format_version 2 and earlier: upgrade banker to resume it.",
    }


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


# -- snapshots of earlier releases: checked by what their commands do --------------------------


def as_saved_by_0_1_0(doc: dict) -> dict:
    """The same file as release 0.1.0 would have saved it: format_version 1, no release named."""
    old = copy.deepcopy(doc)
    old["format_version"] = 1
    del old["banker_version"]
    return old


def test_an_earlier_releases_file_whose_words_differ_resumes_with_its_own_words(client, new_game):
    doc = as_saved_by_0_1_0(snapshot_of(played(new_game)))
    doc["events"][1]["text"] = "Ann rolled 1 and 2 (as release 0.1.0 said it)."
    r = client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["events"] == []  # the same game: nothing to say
    history = client.get(
        f"/api/v1/games/{r.get_json()['game_id']}/events",
        headers={"Authorization": f"Bearer {r.get_json()['banker_token']}"},
    ).get_json()
    assert history[1]["text"] == "Ann rolled 1 and 2 (as release 0.1.0 said it)."


def test_an_earlier_releases_file_its_rules_led_elsewhere_resumes_as_recorded_and_says_so(
    client, new_game, db_path
):
    g = played(new_game)
    doc = as_saved_by_0_1_0(snapshot_of(g))
    doc["state"]["players"][0]["cash"] += 10  # as if 0.1.0 had charged Baltic 10 less
    r = client.post("/api/v1/games/import", json=copy.deepcopy(doc))
    assert r.status_code == 201, r.get_json()
    created = r.get_json()
    assert created["state"]["players"][0]["cash"] == g.state["players"][0]["cash"] + 10
    assert created["events"] == [
        {
            "type": "resumed_as_recorded",
            "text": "This game was saved by banker 0.1.0, whose rules differ from this release's: "
            "its commands lead elsewhere under this release's rules, at state.players[0].cash "
            "(recorded 1450, replayed 1440). It resumes exactly as recorded, and this release's "
            "rules apply from here on.",
        }
    ]
    # And plays on from there, by this release's rules.
    r = client.post(
        f"/api/v1/games/{created['game_id']}/commands",
        json={"type": "roll", "player": "p2", "dice": [2, 3]},
        headers={"Authorization": f"Bearer {created['banker_token']}"},
    )
    assert r.status_code == 200, r.get_json()


def test_the_same_change_in_a_file_of_this_release_is_refused_as_changed_and_nothing_is_created(
    client, new_game, db_path
):
    doc = snapshot_of(played(new_game))
    doc["state"]["players"][0]["cash"] += 10
    assert refused_and_nothing_created(client, db_path, doc) == {
        "code": "state_mismatch",
        "message": "The file was changed or damaged after it was saved: its recorded state is "
        "not what its commands replay to; they differ at state.players[0].cash (recorded 1450, "
        "replayed 1440).",
    }


def test_an_earlier_releases_command_these_rules_refuse_resumes_as_recorded_and_says_which(
    client, new_game, store
):
    g = played(new_game)
    g.do({"type": "roll", "player": "p2", "dice": [1, 3]})  # Income Tax
    g.do({"type": "roll", "player": "p1", "dice": [2, 3]})
    doc = as_saved_by_0_1_0(snapshot_of(g))
    doc["commands"][2]["command"] = {"type": "bid", "player": "p1", "amount": 5}  # for the buy
    r = client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 201, r.get_json()
    (said,) = r.get_json()["events"]
    assert said["type"] == "resumed_as_recorded"
    assert "release's: command 3 of the log (bid) is refused by the rules: " in said["text"]
    # The commands after it were not replayed: their events are kept without data, and the
    # story of the game, which reads that data, leaves them out.
    game_id, token = r.get_json()["game_id"], r.get_json()["banker_token"]
    assert client.get(f"/games/{game_id}?token={token}").status_code == 303  # the cookie
    assert client.get(f"/games/{game_id}/story").status_code == 200
    told = store.story_events(game_id)
    assert told and all("player" in e for e in told if e["type"] == "rolled")
    assert said["text"].endswith(". It resumes exactly as recorded, and this release's rules "
                                 "apply from here on.")  # fmt: skip


def test_an_earlier_releases_state_no_banker_keeps_is_refused_and_nothing_is_created(
    client, new_game, db_path
):
    doc = as_saved_by_0_1_0(snapshot_of(played(new_game)))
    doc["state"]["players"][0]["cash"] = "a lot"
    assert refused_and_nothing_created(client, db_path, doc) == {
        "code": "state_mismatch",
        "message": "The file was changed or damaged after it was saved: its recorded state is "
        "not one banker keeps (at state.players[0].cash).",
    }


def test_resume_from_file_of_a_game_an_earlier_release_led_elsewhere_says_so_before_the_table(
    client, new_game
):
    doc = as_saved_by_0_1_0(snapshot_of(played(new_game)))
    doc["state"]["players"][0]["cash"] += 10
    data = json.dumps(doc).encode()
    r = client.post(
        "/resume",
        data={"snapshot": (io.BytesIO(data), "old.json")},
        content_type="multipart/form-data",
    )
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "This game was saved by banker 0.1.0, whose rules differ from this release&#39;s" in html
    link = re.search(r'href="(/games/\w+\?token=[\w-]+)">Open the resumed game</a>', html)
    assert link and client.get(link[1]).status_code == 303  # on to the table, as a resume goes
