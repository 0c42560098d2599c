"""The store: one transaction per command, a durable log, a state that survives a restart,
and commands on one game applied one at a time whatever the threads."""

from __future__ import annotations

import json
import random
import sqlite3
import threading

import pytest

from banker.store import GameNotFound, Store, default_database_path, migrate
from banker.store.log import state_text
from banker.web import create_app

START = {"type": "start", "first": "p1"}
ROLL_TO_BALTIC = {"type": "roll", "player": "p1", "dice": [1, 2]}


def rows(store: Store, sql: str, *params) -> list[tuple]:
    return store.database.connection().execute(sql, params).fetchall()


@pytest.fixture
def started(store):
    """A started game of Ann and Bob, made through the store itself: its id."""
    game_id = store.create_game("g0009", ["Ann", "Bob"], None)["game_id"]
    store.execute(game_id, START)
    return game_id


def test_a_new_app_on_the_same_database_file_sees_the_game(db_path, new_game):
    g = new_game(["Ann", "Bob"])
    g.do(START)
    g.do(ROLL_TO_BALTIC)
    g.do({"type": "buy"})
    before = g.now()

    restarted = create_app({"TESTING": True, "DATABASE": str(db_path)})
    try:
        g.table.client = restarted.test_client()
        assert g.now() == before
        bob = g.auth(g.tokens["p2"])
        assert g.table.client.get(f"/api/v1/games/{g.id}", headers=bob).status_code == 200
        answer = g.do({"type": "roll", "player": "p2", "dice": [1, 2]})
        assert answer["version"] == 4
        assert [e["seq"] for e in answer["events"]] == [6, 7, 8]
    finally:
        restarted.extensions["banker.store"].close()


def test_each_command_writes_one_commands_row_and_its_events(store, started):
    answer = store.execute(started, ROLL_TO_BALTIC, idempotency_key="k1")
    stored = rows(store, "select version, command, idempotency_key from commands")
    assert [(v, json.loads(c), k) for v, c, k in stored] == [
        (1, START, None),
        (2, ROLL_TO_BALTIC, "k1"),
    ]
    (response,) = rows(store, "select response from commands where version = 2")
    assert response == (answer.text,)
    assert json.loads(answer.text) == answer.body
    events = rows(store, "select seq, version, type, text, undone from events where version = 2")
    assert events == [(e["seq"], 2, e["type"], e["text"], 0) for e in answer.body["events"]]
    (game_row,) = rows(store, "select version, state from games where id = ?", started)
    assert game_row[0] == 2
    # The row holds the state; its undo entries as the core keeps them: the version of the state
    # before, and the changes that take the state back to it (store/log.py).
    assert json.loads(game_row[1]) == json.loads(state_text(store.state(started)))
    assert json.loads(game_row[1])["_undo"] == [
        {"version": 1,
         "changes": [[["players", 0, "position"], 0], [["turn", "player"], "p1"],
                     [["turn", "roller"], "Ann"], [["pending", "offer"], None],
                     [["_turns_begun", "p2"]]],
         "events": [e["seq"] for e in answer.body["events"]],
         "text": answer.body["events"][0]["text"]}
    ]  # fmt: skip


def test_a_failure_while_writing_a_command_leaves_no_trace(store, started):
    state_before = store.state(started)
    counts = "select (select count(*) from commands), (select count(*) from events)"
    before = rows(store, counts)
    store.database.connection().execute(
        "create trigger no_events before insert on events "
        "begin select raise(abort, 'disk full'); end"
    )
    with pytest.raises(sqlite3.IntegrityError):
        store.execute(started, ROLL_TO_BALTIC)
    assert rows(store, counts) == before
    assert rows(store, "select version from games") == [(1,)]
    assert store.state(started) is state_before

    store.database.connection().execute("drop trigger no_events")
    assert store.execute(started, ROLL_TO_BALTIC).body["version"] == 2


def test_an_undo_marks_the_events_it_took_back_in_the_same_transaction(store, started):
    bought = store.execute(started, ROLL_TO_BALTIC)
    bought = store.execute(started, {"type": "buy"})
    undo = store.execute(started, {"type": "undo"})
    (undone_event,) = undo.body["events"]
    (data,) = rows(store, "select data from events where seq = ?", undone_event["seq"])
    assert json.loads(data[0]) == {"undid": [e["seq"] for e in bought.body["events"]]}
    assert [e["seq"] for e in store.events(started) if e["undone"]] == [
        e["seq"] for e in bought.body["events"]
    ]


def test_concurrent_commands_on_one_game_are_applied_one_at_a_time(app, new_game):
    g = new_game(["Ann", "Bob"])
    g.do(START)
    threads, per_thread = 8, 10
    versions: list[int] = []
    failures: list = []
    barrier = threading.Barrier(threads)

    def correct_cash():
        client = app.test_client()
        barrier.wait()
        for _ in range(per_thread):
            r = client.post(
                f"/api/v1/games/{g.id}/commands",
                headers=g.auth(),
                json={"type": "adjust", "player": "p1", "amount": 1, "reason": "Counted again"},
            )
            if r.status_code == 200:
                versions.append(r.get_json()["version"])
            else:
                failures.append(r.get_json())

    workers = [threading.Thread(target=correct_cash) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()

    n = threads * per_thread
    assert failures == []
    assert sorted(versions) == list(range(2, n + 2))
    state = g.state
    assert state["version"] == n + 1
    assert state["players"][0]["cash"] == 1500 + n
    store = app.extensions["banker.store"]
    assert rows(store, "select version from commands order by version") == [
        (v,) for v in range(1, n + 2)
    ]


def test_concurrent_commands_on_different_games_all_land(app, new_game):
    games = [new_game(["Ann", "Bob"]) for _ in range(4)]

    def play_one(g):
        client = app.test_client()
        for cmd in [START, ROLL_TO_BALTIC, {"type": "buy"}]:
            r = client.post(f"/api/v1/games/{g.id}/commands", headers=g.auth(), json=cmd)
            assert r.status_code == 200, r.get_json()

    workers = [threading.Thread(target=play_one, args=(g,)) for g in games]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert [g.state["version"] for g in games] == [3, 3, 3, 3]


@pytest.mark.parametrize("seed", range(2))
def test_the_stored_commands_replay_to_the_current_state(store, game, play, seed):
    play(game, random.Random(seed), 120)
    assert store.replayed_state(game.id) == store.state(game.id)
    fresh = Store(store.path)
    try:
        assert fresh.state(game.id) == store.state(game.id)
    finally:
        fresh.close()


def test_migrations_are_safe_to_run_twice(store, started, db_path):
    migrate(store.database.connection())
    migrate(store.database.connection())
    again = Store(db_path)
    try:
        assert again.state(started)["version"] == 1
        assert {"games", "player_tokens", "commands", "events"} <= set(
            again.database.connection().table_names()
        )
    finally:
        again.close()


def test_the_database_is_in_wal_mode_and_syncs_fully(store):
    assert store.database.connection().execute("pragma journal_mode").fetchone() == ("wal",)
    assert store.database.connection().execute("pragma synchronous").fetchone() == (2,)  # FULL


def test_every_thread_gets_its_own_connection(store):
    seen = []
    t = threading.Thread(target=lambda: seen.append(store.database.connection()))
    t.start()
    t.join()
    assert seen[0] is not store.database.connection()
    assert seen[0].execute("pragma synchronous").fetchone() == (2,)


def test_event_times_come_from_the_store_clock(db_path):
    store = Store(db_path, clock=lambda: "2025-06-01T20:15:00.000Z")
    try:
        game_id = store.create_game("g0009", ["Ann", "Bob"], None)["game_id"]
        store.execute(game_id, START)
        assert [e["at"] for e in store.events(game_id)] == ["2025-06-01T20:15:00.000Z"]
    finally:
        store.close()


def test_an_unknown_game_raises_game_not_found(store):
    for call in (store.state, store.events, store.replayed_state):
        with pytest.raises(GameNotFound):
            call("nosuchgame")
    with pytest.raises(GameNotFound):
        store.execute("nosuchgame", START)


def test_tokens_identify_the_banker_and_each_player(store):
    created = store.create_game("g0009", ["Ann", "Bob"], None)
    game_id = created["game_id"]
    assert store.role(game_id, created["banker_token"]) == "banker"
    for p in created["players"]:
        assert store.role(game_id, p["token"]) == p["id"]
        assert store.find_player_token(p["token"]) == (game_id, p["id"])
    assert store.role(game_id, "nope") is None
    assert store.find_player_token(created["banker_token"]) is None


def test_the_database_file_defaults_to_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("BANKER_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_database_path() == tmp_path / "data" / "banker" / "banker.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_database_path() == tmp_path / ".local" / "share" / "banker" / "banker.db"
    monkeypatch.setenv("BANKER_DB", str(tmp_path / "x.db"))
    assert default_database_path() == tmp_path / "x.db"


def test_the_database_folder_is_created(tmp_path):
    store = Store(tmp_path / "new" / "folder" / "banker.db")
    store.close()
    assert (tmp_path / "new" / "folder" / "banker.db").exists()
