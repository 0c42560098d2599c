"""A game's log never outgrows what an import accepts: every game the server keeps, it exports
and imports again (the contract's "Snapshots across releases"). The limits are made small here
through banker.snapshot's constants, which the store and the import read at each request."""

from __future__ import annotations

import random

import pytest

from banker import snapshot
from tests.game import Game
from tests.plays import a_plausible_command
from tests.table_web import FlaskTable

SENTENCE = "This game has reached the longest a paused game can carry"

# Each case makes one of the three limits the one that binds first.
LIMITS = {
    "commands": {"MAX_COMMANDS": 60},
    "events": {"MAX_EVENTS": 90},
    "bytes": {"MAX_BYTES": 90_000},
}


@pytest.fixture(params=sorted(LIMITS))
def small_limits(request, monkeypatch):
    monkeypatch.setattr(snapshot, "CORRECTION_ROOM", 3)
    monkeypatch.setattr(snapshot, "CORRECTION_BYTES", 2048)
    for name, value in LIMITS[request.param].items():
        monkeypatch.setattr(snapshot, name, value)
    return request.param


def played_to_the_limit(game: Game, seed: int = 7) -> tuple[dict, tuple]:
    """Plausible commands until one is refused as too long: (that command, the game before)."""
    rng = random.Random(seed)
    for _ in range(3000):
        before = game.now()
        command = a_plausible_command(before[0], rng)
        r = game.send(command)
        if r.status_code == 422 and r.get_json()["error"]["code"] == "game_too_long":
            return command, before
        assert r.status_code in (200, 422), r.get_json()
    raise AssertionError("the game never reached its limit")


def exported(client, game: Game) -> bytes:
    r = client.get(f"/api/v1/games/{game.id}/snapshot", headers=game.auth())
    assert r.status_code == 200
    return r.get_data()


def test_a_game_at_the_limit_refuses_the_next_command_with_a_sentence_and_changes_nothing(
    client, small_limits
):
    game = Game(FlaskTable(client), ("Ann", "Bob", "Cat"))
    game.start("p1")
    command, before = played_to_the_limit(game)
    r = game.send(command)
    assert r.status_code == 422
    assert r.get_json()["error"]["message"] == (
        f"{SENTENCE} ({before[0]['version']:,} commands; a long real game has about 2,000): "
        "nothing more can be recorded, and nothing was done. Undo and corrections still work. "
        "To play on, finish with paper money from the paper record on the Pause page."
    )
    assert game.now() == before
    assert game.version <= snapshot.MAX_COMMANDS and len(before[1]) <= snapshot.MAX_EVENTS


def test_the_export_of_a_game_at_the_limit_imports_and_resumes_the_same_state(client, small_limits):
    game = Game(FlaskTable(client), ("Ann", "Bob", "Cat"))
    game.start("p1")
    command, (state, history) = played_to_the_limit(game)
    data = exported(client, game)
    assert len(data) <= snapshot.MAX_BYTES
    r = client.post("/api/v1/games/import", data=data, content_type="application/json")
    assert r.status_code == 201, r.get_json()
    resumed = Game.of(FlaskTable(client), r.get_json())
    assert {**resumed.state, "game_id": game.id} == state
    assert [(e["seq"], e["text"]) for e in resumed.history()] == [
        (e["seq"], e["text"]) for e in history
    ]
    # The resumed game is as long: it refuses the same command, and nothing changes.
    assert resumed.send(command).get_json()["error"]["code"] == "game_too_long"
    assert resumed.state == r.get_json()["state"]


def test_a_game_at_the_limit_still_undoes_and_its_export_still_imports(client, small_limits):
    game = Game(FlaskTable(client), ("Ann", "Bob", "Cat"))
    game.start("p1")
    command, (state, _) = played_to_the_limit(game)
    game.do(type="adjust", player="p2", amount=10, reason="a miscount")
    assert game.cash("p2") == next(p for p in state["players"] if p["id"] == "p2")["cash"] + 10
    game.do(type="undo")
    assert game.state == {**state, "version": state["version"] + 2}
    data = exported(client, game)
    r = client.post("/api/v1/games/import", data=data, content_type="application/json")
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["state"]["version"] == state["version"] + 2
