"""private_cash: every state a player's token or the display receives hides the others' cash."""

from __future__ import annotations

import pytest

ROLL_TO_BALTIC = {"type": "roll", "player": "p1", "dice": [1, 2]}


@pytest.fixture
def private(new_game):
    g = new_game(["Ann", "Bob", "Cat"], options={"private_cash": True})
    g.do({"type": "start", "first": "p1"})
    g.do(ROLL_TO_BALTIC)
    return g


def display_token(g) -> str:
    return g.created["display_url"].rpartition("/")[2]


def cash_seen(state: dict) -> list:
    return [p["cash"] for p in state["players"]]


def read(g, token) -> dict:
    r = g.table.client.get(f"/api/v1/games/{g.id}", headers=g.auth(token))
    assert r.status_code == 200
    return r.get_json()


def test_a_player_reads_only_their_own_cash_and_the_display_none(private):
    assert cash_seen(read(private, private.banker_token)) == [1500, 1500, 1500]
    assert cash_seen(read(private, private.tokens["p1"])) == [1500, None, None]
    assert cash_seen(read(private, private.tokens["p2"])) == [None, 1500, None]
    assert cash_seen(read(private, display_token(private))) == [None, None, None]
    # Nothing else is hidden.
    banker, ann = read(private, private.banker_token), read(private, private.tokens["p1"])
    for p in banker["players"]:
        p["cash"] = None if p["id"] != "p1" else p["cash"]
    assert ann == banker


def test_a_players_command_answer_and_its_replay_hide_the_others_cash(private):
    headers = {"Idempotency-Key": "buy-1"}
    r = private.send({"type": "buy"}, token=private.tokens["p1"], headers=headers)
    assert r.status_code == 200
    assert cash_seen(r.get_json()["state"]) == [1440, None, None]
    again = private.send({"type": "buy"}, token=private.tokens["p1"], headers=headers)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == r.get_json()
    # The Banker's answers show everyone's.
    answer = private.do({"type": "roll", "player": "p2", "dice": [1, 2]})
    assert cash_seen(answer["state"]) == [1440, 1500, 1500]


def test_without_private_cash_players_see_everyones_cash(game):
    r = game.table.client.get(f"/api/v1/games/{game.id}", headers=game.auth(game.tokens["p2"]))
    assert cash_seen(r.get_json()) == [1500, 1500]
    r = game.table.client.get(f"/api/v1/games/{game.id}", headers=game.auth(display_token(game)))
    assert cash_seen(r.get_json()) == [1500, 1500]
