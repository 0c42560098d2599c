"""Group commit: the writes of commands to different games that wait while another
commit syncs are committed together in one transaction; each caller returns only once its
own write is committed, and one write's failure leaves the others whole."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from banker.store import DiskFull, Store

NAMES = ["Ann", "Bob"]
START = {"type": "start", "first": "p1"}
ROLL = {"type": "roll", "player": "p1", "dice": [1, 2]}


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "b.db")
    yield store
    store.close()


def batches(store: Store) -> list[int]:
    """Record the size of each group committed from now on."""
    sizes: list[int] = []
    commit = store.database.commit_batch

    def counted(db, batch):
        sizes.append(len(batch))
        return commit(db, batch)

    store.database.commit_batch = counted
    return sizes


def queued(store: Store, n: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while len(store.database._waiting) < n:
        assert time.monotonic() < deadline, "the writes never queued"
        time.sleep(0.001)


def in_threads(calls) -> list:
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            results[i] = call()
        except Exception as e:  # noqa: BLE001 (the test looks at what each raised)
            results[i] = e

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    return threads, results


def committed_versions(store: Store, game_ids: list[str]) -> list[int]:
    """The versions on disk, read through a connection of its own."""
    conn = sqlite3.connect(store.path)
    try:
        return [
            conn.execute("select version from games where id = ?", [g]).fetchone()[0]
            for g in game_ids
        ]
    finally:
        conn.close()


def test_commands_of_games_waiting_for_a_commit_are_committed_together(store):
    games = [store.create_game("g0009", NAMES, None)["game_id"] for _ in range(6)]
    sizes = batches(store)
    with store.database.transaction():  # a commit syncing: the six commands queue behind it
        threads, results = in_threads([lambda g=g: store.execute(g, START) for g in games])
        queued(store, 6)
        assert committed_versions(store, games) == [0] * 6  # none answered, none written
        assert results == [None] * 6
    for t in threads:
        t.join(10)
    assert sizes == [6]  # one transaction, one sync, for the six
    assert [a.body["version"] for a in results] == [1] * 6
    assert committed_versions(store, games) == [1] * 6
    assert [store.state(g)["status"] for g in games] == ["playing"] * 6


def test_one_failing_write_in_a_group_leaves_the_others_committed_and_itself_unwritten(store):
    games = [store.create_game("g0009", NAMES, None)["game_id"] for _ in range(4)]
    for g in games:
        store.execute(g, START)
    sizes = batches(store)

    def broken(db):
        db.conn.execute("update games set version = 99 where id = ?", [games[2]])
        raise ValueError("a write that fails half-way")

    calls = [lambda g=g: store.execute(g, ROLL) for g in games[:2]]
    calls += [lambda: store.database.write(broken)]
    calls += [lambda: store.execute(games[3], ROLL)]
    with store.database.transaction():
        threads, results = in_threads(calls)
        queued(store, 4)
    for t in threads:
        t.join(10)
    assert isinstance(results[2], ValueError)
    assert [results[i].body["version"] for i in (0, 1, 3)] == [2, 2, 2]
    assert committed_versions(store, games) == [2, 2, 1, 2]  # the failed one: nothing of it
    assert sizes == [4, 3]  # tried with the four, then again without the failed one


def test_on_a_full_disk_each_command_of_a_group_is_committed_whole_or_refused_whole(store):
    games = [store.create_game("g0009", NAMES, None)["game_id"] for _ in range(3)]
    for g in games:
        store.execute(g, START)
    pages = store.database.connection().execute("pragma page_count").fetchone()[0]
    connection = store.database.connection

    def full_disk():  # whichever thread commits a group, its disk is full
        db = connection()
        db.execute(f"pragma max_page_count = {pages}")
        return db

    store.database.connection = full_disk
    refused = 0
    for amount in range(1, 200):  # the file's free room fills up within a few groups
        bonus = {"type": "adjust", "player": "p1", "amount": amount, "reason": "x" * 200}
        with store.database.transaction():
            threads, results = in_threads([lambda g=g, b=bonus: store.execute(g, b) for g in games])
            queued(store, 3)
        for t in threads:
            t.join(10)
        assert all(isinstance(r, DiskFull) or r.body["version"] for r in results), results
        refused += sum(isinstance(r, DiskFull) for r in results)
        # What is on disk is what each answer said: committed whole, or not at all.
        assert committed_versions(store, games) == [store.version(g) for g in games]
        if refused == len(games):
            break
    assert refused == len(games)
