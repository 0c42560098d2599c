"""Pause and resume a game whose table changed and which plays the Free Parking jackpot: the
snapshot replays `add_player`, `rename_player`, `leave` and the pot exactly, and a damaged one
is refused (docs/api.md, "Snapshots")."""

from __future__ import annotations

import copy

import pytest

from tests.game import Game

EDITIONS = ["g0009", "classic"]


def changed_table(new_game, edition: str) -> Game:
    """Ann, Bob and Cat with the jackpot: a tax in the pot, Dan joined, Bob renamed Robert, Cat
    left (her deed auctioned), and Ann's roll since."""
    g = new_game(["Ann", "Bob", "Cat"], edition, {"free_parking_jackpot": True})
    g.start("p1")
    g.land("p1", 4)  # Income Tax: 200 into the pot
    g.do(type="add_player", name="Dan")
    g.do(type="rename_player", player="p2", name="Robert")
    g.land("p2", 6)
    g.do(type="auction")
    g.do(type="bid", player="p3", amount=30)
    g.do(type="close_auction")  # Cat owns Oriental Avenue
    g.do(type="leave", player="p3")  # and it returns to the Bank, auctioned
    g.do(type="bid", player="p4", amount=20)
    g.do(type="close_auction")
    g.pass_to("p1")
    g.land("p1", 20)
    assert g.state["bank"]["free_parking"] == 0  # Ann collected the 200
    return g


def snapshot(g: Game) -> dict:
    return g.read("/snapshot")


def imported(client, doc):
    return client.post("/api/v1/games/import", json=doc)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_changed_table_with_a_pot_resumes_exactly(new_game, client, edition):
    g = changed_table(new_game, edition)
    doc = snapshot(g)
    assert doc["game"]["players"] == ["Ann", "Bob", "Cat"]  # as created
    r = imported(client, doc)
    assert r.status_code == 201, r.get_json()
    created = r.get_json()
    assert {**created["state"], "game_id": g.id} == g.state
    assert [(p["id"], p["name"]) for p in created["players"]] == [
        ("p1", "Ann"),
        ("p2", "Robert"),
        ("p3", "Cat"),
        ("p4", "Dan"),
    ]
    resumed = Game.of(g.table, created)
    assert resumed.read(token=resumed.tokens["p4"])["players"][3]["name"] == "Dan"
    resumed.do(type="undo")  # undo still reaches back to Ann's roll onto Free Parking
    assert resumed.state["bank"]["free_parking"] == 200
    resumed.do(type="add_player", name="Eve")
    assert resumed.state["players"][-1]["id"] == "p5"


def test_a_pot_changed_in_the_file_is_refused(new_game, client):
    g = changed_table(new_game, "g0009")
    doc = snapshot(g)
    doc["state"]["bank"]["free_parking"] = 500
    r = imported(client, doc)
    assert r.status_code == 422
    assert r.get_json()["error"]["code"] == "state_mismatch"
    assert "state.bank.free_parking" in r.get_json()["error"]["message"]


def test_a_latecomer_renamed_in_the_log_is_refused(new_game, client):
    g = changed_table(new_game, "g0009")
    doc = snapshot(g)
    (entry,) = [c for c in doc["commands"] if c["command"]["type"] == "add_player"]
    entry["command"]["name"] = "Eve"
    r = imported(client, doc)
    assert r.status_code == 422
    assert r.get_json()["error"]["code"] == "state_mismatch"  # the state says another name


def test_a_snapshot_saved_before_the_jackpot_and_the_changing_table_still_resumes(new_game, client):
    """A file from a Banker that had neither: no bank.free_parking, no _players, and options
    without free_parking_jackpot (in its undo history too)."""
    g = new_game(["Ann", "Bob"], "g0009")
    g.start("p1")
    g.land("p1", 6)
    g.do(type="buy")
    doc = copy.deepcopy(snapshot(g))

    def older(state: dict) -> None:
        state["bank"].pop("free_parking")
        state.pop("_players", None)
        state["options"].pop("free_parking_jackpot")

    older(doc["state"])
    for entry in doc["state"]["_undo"]:  # entries of whole states (older bankers) or changes
        if "state" in entry:
            older(entry["state"])
    r = imported(client, doc)
    assert r.status_code == 201, r.get_json()
    resumed = Game.of(g.table, r.get_json())
    assert resumed.state["bank"]["free_parking"] == 0
    resumed.do(type="undo")
    resumed.do(type="add_player", name="Cat")
    assert resumed.state["players"][-1]["id"] == "p3"
