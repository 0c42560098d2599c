"""Nothing ever lost: a server killed mid-game keeps every acknowledged command and no half of
one, and `banker backup` copies the database consistently while commands are being written."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
import uuid
from http.client import HTTPException

import pytest

from banker import rules
from banker.store import Store, backup
from tests.game import Game
from tests.plays import a_plausible_command
from tests.serving import Server, call, run_banker
from tests.table_web import HttpTable

KILLS = 5


def as_json(value):
    return json.loads(json.dumps(value))


def check_database(db_path, expected: dict[str, list[dict]] | None = None) -> dict[str, dict]:
    """Open a database file as a fresh server would and check every game in it is whole.

    For each game: versions 1..N with nothing missing, the stored state at version N equal to a
    replay of its stored commands (internal fields included), every event belonging to one of
    them, seqs without gaps. `expected` maps game ids to the commands that must be there, in
    order. Returns each game's state.
    """
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store = Store(db_path)
    try:
        db = store.database.connection()
        states = {}
        for game_id, edition, names, options, version in db.execute(
            "select id, edition, names, options, version from games"
        ).fetchall():
            commands = store.commands(game_id)
            versions = [
                v
                for (v,) in db.execute(
                    "select version from commands where game_id = ? order by version", [game_id]
                )
            ]
            assert versions == list(range(1, version + 1))
            state = store.state(game_id)
            assert state["version"] == version == len(commands)
            replayed = rules.replay(
                game_id, edition, json.loads(names), json.loads(options), commands
            )
            assert as_json(replayed) == state
            events = db.execute(
                "select seq, version from events where game_id = ? order by seq", [game_id]
            ).fetchall()
            assert [seq for seq, _ in events] == list(range(1, state["_seq"] + 1))
            assert {v for _, v in events} <= set(versions)
            if expected is not None and game_id in expected:
                assert commands == expected[game_id]
            states[game_id] = state
        return states
    finally:
        store.close()


def test_a_server_killed_at_random_moments_keeps_every_acknowledged_command_and_no_half_one(
    tmp_path,
):
    rng = random.Random(20261129)
    server = Server(tmp_path / "games.db", tmp_path / "server.log")
    base = server.start()
    acked: dict[str, dict[int, dict]] = {}  # game id -> version -> the command acknowledged
    tokens: dict[str, str] = {}
    current: dict = {}  # the game being played: id, token, its last known public state

    def new_game() -> None:
        status, _, created = call(f"{base}/api/v1/games", "POST", {"players": ["Ann", "Bob"]})
        assert status == 201
        tokens[created["game_id"]] = created["banker_token"]
        acked[created["game_id"]] = {}
        current.update(id=created["game_id"], state=created["state"])

    def send(command: dict, key: str) -> None:
        """POST a command with an Idempotency-Key; record it when acknowledged."""
        game_id = current["id"]
        status, _, body = call(
            f"{base}/api/v1/games/{game_id}/commands",
            "POST",
            command,
            tokens[game_id],
            {"Idempotency-Key": key},
        )
        assert status in (200, 422), body
        if status == 200:
            assert body["version"] not in acked[game_id]
            acked[game_id][body["version"]] = command
            current["state"] = body["state"]

    def next_command(state: dict, rng) -> dict:
        if state["status"] == "setup":
            return {"type": "start", "first": "p1"}
        return a_plausible_command(state, rng)

    # What was being sent when the server died: ("create",) or (command, key), else nothing.
    in_flight: list[tuple] = []
    sent = 0
    new_game()
    for _ in range(KILLS):
        stop = threading.Event()
        client_rng = random.Random(rng.random())

        def stream(stop: threading.Event, client_rng: random.Random):
            nonlocal sent
            while not stop.is_set():
                try:
                    if current["state"]["status"] == "finished":
                        in_flight[:] = [("create",)]
                        new_game()
                    else:
                        command = next_command(current["state"], client_rng)
                        in_flight[:] = [(command, str(uuid.uuid4()))]
                        send(*in_flight[0])
                        sent += 1
                except (OSError, HTTPException):
                    return  # killed mid-request: the answer is lost, the request in doubt
                in_flight.clear()

        client = threading.Thread(target=stream, args=(stop, client_rng))
        client.start()
        time.sleep(rng.uniform(0.3, 1.0))
        server.kill()
        stop.set()
        client.join(timeout=30)
        assert not client.is_alive()

        # Restarted on the same file with no manual step, the server carries on.
        base = server.start()
        game_id = current["id"]
        status, _, state = call(f"{base}/api/v1/games/{game_id}", token=tokens[game_id])
        assert status == 200
        last = max(acked[game_id], default=0)
        current["state"] = state
        if in_flight and len(in_flight[0]) == 2:
            # The answer was lost: the same Idempotency-Key tells whether it was applied (then
            # this is its first answer) or not (then it is applied now), exactly once either way.
            assert state["version"] in (last, last + 1)
            send(*in_flight.pop())
        else:
            assert state["version"] == last
    server.stop()

    assert sent > 20 * KILLS, "the client hardly got to send anything between the kills"
    expected = {
        game_id: [by_version[v] for v in sorted(by_version)]
        for game_id, by_version in acked.items()
    }
    for game_id, by_version in acked.items():
        assert sorted(by_version) == list(range(1, len(by_version) + 1)), game_id
    states = check_database(tmp_path / "games.db", expected)
    # Besides them, at most a game whose creation was cut short: created, untouched.
    assert set(acked) <= set(states)
    assert all(states[g]["version"] == 0 for g in set(states) - set(acked))


def test_backup_writes_a_consistent_copy_while_commands_are_being_written(tmp_path):
    db_path = tmp_path / "live.db"
    store = Store(db_path)
    rng = random.Random(7)
    created = store.create_game("g0009", ["Ann", "Bob", "Cat"], None)
    game_id = created["game_id"]
    store.execute(game_id, {"type": "start", "first": "p1"})
    done = threading.Event()
    accepted = [1]

    def write():
        while not done.is_set():
            state = rules.public_state(store.state(game_id))
            if state["status"] != "playing":
                break
            try:
                store.execute(game_id, a_plausible_command(state, rng))
                accepted.append(1)
            except rules.DomainError:
                pass

    writer = threading.Thread(target=write)
    writer.start()
    try:
        copies = []
        for i in range(4):
            time.sleep(0.1)
            copy = tmp_path / f"copy-{i}.db"
            assert backup(db_path, copy) == 1
            copies.append(copy)
    finally:
        done.set()
        writer.join()
    store.close()

    versions = []
    for copy in copies:
        # A standalone file: no -wal beside it is needed to read it.
        assert not copy.with_name(copy.name + "-wal").exists()
        states = check_database(copy)
        versions.append(states[game_id]["version"])
    assert versions == sorted(versions) and versions[-1] > versions[0] > 1
    # The live database went on and is whole too.
    assert check_database(db_path)[game_id]["version"] == len(accepted)


def test_banker_backup_copies_the_database_of_a_running_server_and_the_copy_serves(tmp_path):
    server = Server(tmp_path / "games.db", tmp_path / "server.log")
    server.start()
    try:
        g = Game(HttpTable(server.url))
        g.start("p1")
        g.roll("p1", 1, 2)
        g.do(type="buy")
        before = g.state

        out = run_banker("backup", str(tmp_path / "backup.db"), "--db", str(tmp_path / "games.db"))
        assert out.returncode == 0, out.stderr
        assert out.stdout == (
            f"Backed up 1 game from {tmp_path / 'games.db'} to {tmp_path / 'backup.db'}.\n"
        )
        # The server is still serving after the backup.
        assert g.state == before
    finally:
        server.stop()

    # Restore: start a server on the copy; the game is there as it was, tokens included.
    restored = Server(tmp_path / "backup.db", tmp_path / "restored.log")
    restored.start()
    try:
        g = Game.of(HttpTable(restored.url), g.created)
        state = g.state
        assert state == before
        assert state["properties"]["baltic-avenue"]["owner"] == "p1"
        assert state["players"][0]["cash"] == 1440
        assert g.roll("p2", 3, 4)["version"] == 4
    finally:
        restored.stop()


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["copy.db", "--db", "missing.db"],
            "banker backup: There is no database at missing.db: check the path given to --db (or "
            "$BANKER_DB); `banker serve` creates it when it first starts.\n",
        ),
        (
            ["games.db", "--db", "games.db"],
            "banker backup: The backup games.db is the database itself: give another file name.\n",
        ),
    ],
)
def test_banker_backup_refuses_a_missing_database_or_a_copy_over_itself(tmp_path, args, message):
    Store(tmp_path / "games.db").close()
    out = run_banker("backup", *args, cwd=tmp_path)
    assert (out.returncode, out.stdout, out.stderr) == (1, "", message)
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db") == ["games.db"]
