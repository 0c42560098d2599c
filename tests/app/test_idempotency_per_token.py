"""Idempotency-Key is scoped to one game and one token, and looked at only after the token is
authorized for that command; only accepted commands' answers are remembered (docs/api.md)."""

from __future__ import annotations

import sqlite_utils

from banker.store import Store, migrate

ROLL_TO_BALTIC = {"type": "roll", "player": "p1", "dice": [1, 2]}


def keyed(g, command, key, token=None):
    return g.send(command, token=token, headers={"Idempotency-Key": key})


def test_a_players_key_does_not_swallow_a_later_banker_command_with_the_same_key(game):
    keyed(game, ROLL_TO_BALTIC, "k1")
    r = keyed(game, {"type": "buy"}, "same", token=game.tokens["p1"])
    assert r.status_code == 200 and r.get_json()["version"] == 3
    r = keyed(game, {"type": "roll", "player": "p2", "dice": [2, 3]}, "same")
    assert r.status_code == 200
    assert "Idempotent-Replayed" not in r.headers
    assert r.get_json()["version"] == 4
    assert game.state["players"][1]["position"] == 5


def test_the_same_key_and_token_replay_the_first_answer(game):
    keyed(game, ROLL_TO_BALTIC, "k1")
    first = keyed(game, {"type": "buy"}, "k2", token=game.tokens["p1"])
    again = keyed(game, {"type": "buy"}, "k2", token=game.tokens["p1"])
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert game.state["version"] == 3


def test_a_used_key_with_a_command_the_token_may_not_send_is_403_not_a_replay(game):
    keyed(game, ROLL_TO_BALTIC, "k1")
    keyed(game, {"type": "buy"}, "k2", token=game.tokens["p1"])
    before = game.now()
    for command in (ROLL_TO_BALTIC, {"type": "adjust", "player": "p1", "amount": 9, "reason": "x"}):
        r = keyed(game, command, "k2", token=game.tokens["p1"])
        assert r.status_code == 403
        assert r.get_json()["error"]["code"] == "banker_only"
        assert "Idempotent-Replayed" not in r.headers
    # Another player's token with that key is not a replay either.
    r = keyed(game, {"type": "buy"}, "k2", token=game.tokens["p2"])
    assert r.status_code == 403 and "Idempotent-Replayed" not in r.headers
    assert game.now() == before


def test_a_refused_command_is_not_remembered(game):
    keyed(game, ROLL_TO_BALTIC, "k1")
    ann = game.tokens["p1"]
    keyed(game, {"type": "buy"}, "k2", token=ann)
    r = keyed(game, {"type": "build", "property": "baltic-avenue"}, "k3", ann)
    assert r.status_code == 422  # Ann has only one of the two brown deeds
    r = keyed(game, {"type": "mortgage", "property": "baltic-avenue"}, "k3", ann)
    assert r.status_code == 200 and "Idempotent-Replayed" not in r.headers
    assert game.state["properties"]["baltic-avenue"]["mortgaged"] is True


def test_a_key_stays_with_its_token_after_a_new_link(game):
    keyed(game, ROLL_TO_BALTIC, "k1")
    r = game.table.client.post(
        f"/api/v1/games/{game.id}/tokens", headers=game.auth(), json={"for": "p1"}
    )
    new = r.get_json()["token"]
    r = keyed(game, {"type": "buy"}, "k1", token=new)  # the Banker's key, not Ann's
    assert r.status_code == 200 and "Idempotent-Replayed" not in r.headers


def test_keys_stored_before_scopes_still_replay_for_the_pages_and_migration_runs_twice(db_path):
    store = Store(db_path)
    game_id = store.create_game("g0009", ["Ann", "Bob"], None)["game_id"]
    first = store.execute(game_id, {"type": "start", "first": "p1"}, idempotency_key="form-1")
    store.close()
    db = sqlite_utils.Database(db_path)
    migrate(db)
    migrate(db)
    indexes = {i.name for i in db["commands"].indexes}
    assert "commands_scoped_idempotency_key" in indexes
    assert "commands_idempotency_key" not in indexes
    db.close()
    store = Store(db_path)
    again = store.execute(game_id, {"type": "start", "first": "p1"}, idempotency_key="form-1")
    assert again.replayed and again.body == first.body
    store.close()
