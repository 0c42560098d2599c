"""The database's layout in numbered steps, each recorded (sqlite-utils' Migrations), banker's
mark on its files, and the files it refuses to touch: another program's, one that is not
SQLite, one damaged part-way."""

from __future__ import annotations

import sqlite3

import pytest
import sqlite_utils

from banker.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    DatabaseDamaged,
    NotBankers,
    Store,
    migrate,
)
from banker.store.migrations import STEPS
from tests.databases import damage_part_way, foreign, played

NAMES = [
    "m001_games_and_their_log",
    "m002_moved_games",
    "m003_display_tokens",
    "m004_revoked_tokens",
    "m005_idempotency_keys_per_token",
    "m006_undo_base",
    "m007_keyed_expected_version",
    "m008_releases",
]


def records(path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "select migration_set, name, applied_at from _sqlite_migrations order by id"
        ).fetchall()
    finally:
        conn.close()


def marks(path) -> tuple[int, int]:
    conn = sqlite3.connect(path)
    try:
        pragmas = ("application_id", "user_version")
        return tuple(conn.execute(f"pragma {p}").fetchone()[0] for p in pragmas)
    finally:
        conn.close()


def test_a_new_database_records_each_numbered_step_once_in_order(tmp_path):
    path = tmp_path / "new.db"
    Store(path).close()
    first = records(path)
    assert [(s, n) for s, n, _ in first] == [("banker", n) for n in NAMES]
    assert [m.name for m in STEPS._migrations] == NAMES
    assert marks(path) == (APPLICATION_ID, SCHEMA_VERSION) == (0x42414E4B, 3)
    Store(path).close()
    assert records(path) == first  # opened again: nothing runs twice


def test_opening_a_current_database_writes_nothing(tmp_path):
    path = tmp_path / "b.db"
    played(path, games=1)
    before = path.read_bytes()
    store = Store(path)
    store.close()
    assert path.read_bytes() == before


def as_first_layout(path) -> str:
    """What the first banker wrote: the games, player tokens, commands and events tables only,
    no mark, no record of steps (a game started in it); the game's id."""
    (game_id,) = played(path, games=1)
    conn = sqlite3.connect(path)
    for sql in (
        "drop index commands_scoped_idempotency_key",
        "alter table commands drop column key_scope",
        "create unique index commands_idempotency_key on commands (game_id, idempotency_key)",
        "drop index idx_games_display_token",
        "alter table games drop column display_token",
        "alter table games drop column undo_base",
        "drop table moved_games",
        "drop table revoked_tokens",
        "drop table _sqlite_migrations",
        "pragma application_id = 0",
        "pragma user_version = 0",
    ):
        conn.execute(sql)
    conn.commit()
    conn.close()
    return game_id


def test_a_database_of_the_first_layout_gets_every_step_recorded_and_plays_on(tmp_path):
    path = tmp_path / "first.db"
    game_id = as_first_layout(path)
    store = Store(path)
    try:
        assert [n for _, n, _ in records(path)] == NAMES
        assert marks(path) == (APPLICATION_ID, SCHEMA_VERSION)
        db = store.database.connection()
        assert {"display_token", "undo_base"} <= set(db["games"].columns_dict)
        assert "key_scope" in db["commands"].columns_dict
        assert {"moved_games", "revoked_tokens"} <= set(db.table_names())
        answer = store.execute(game_id, {"type": "roll", "player": "p1", "dice": [1, 2]})
        assert answer.body["version"] == 2
        assert answer.body["state"]["players"][0]["position"] == 3
        assert store.display_token(game_id)  # given on first load
    finally:
        store.close()


def test_a_step_that_fails_leaves_no_record_and_nothing_of_it(tmp_path, monkeypatch):
    path = tmp_path / "b.db"
    as_first_layout(path)

    def broken(db):
        db["undo_base_copy"].create({"id": int}, pk="id")
        raise sqlite3.OperationalError("a step that fails")

    step = next(m for m in STEPS._migrations if m.name == "m006_undo_base")
    monkeypatch.setattr(step, "fn", broken)
    with pytest.raises(sqlite3.OperationalError, match="a step that fails"):
        Store(path)
    conn = sqlite3.connect(path)
    assert "_sqlite_migrations" not in {
        r[0] for r in conn.execute("select name from sqlite_master")
    }
    assert conn.execute("pragma user_version").fetchone() == (0,)
    conn.close()
    monkeypatch.undo()
    Store(path).close()
    assert [n for _, n, _ in records(path)] == NAMES


@pytest.mark.parametrize("with_games", [True, False])
def test_another_programs_database_is_refused_and_left_exactly_as_it_was(tmp_path, with_games):
    path = tmp_path / "their.db"
    before = foreign(path, with_games)
    with pytest.raises(NotBankers) as refused:
        Store(path)
    tables = "games, notes" if with_games else "notes"
    assert refused.value.message == (
        f"{path} is another program's SQLite database (its tables are {tables}), so banker "
        "leaves it alone: give --db the file of your games, or a new file name to start afresh."
    )
    assert path.read_bytes() == before
    assert not path.with_name("their.db-wal").exists()


def test_a_database_marked_by_another_program_is_refused_even_empty(tmp_path):
    path = tmp_path / "marked.db"
    conn = sqlite3.connect(path)
    conn.execute("pragma application_id = 1234")
    conn.commit()
    conn.close()
    with pytest.raises(NotBankers, match=r"\(its application id is 1234\)"):
        Store(path)


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n" * 200)
    with pytest.raises(NotBankers) as refused:
        Store(path)
    assert refused.value.message.startswith(f"{path} is not a SQLite database, so banker")
    assert path.read_text() == "shopping list\n" * 200


def test_an_empty_file_becomes_a_banker_database(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    Store(path).close()
    assert marks(path) == (APPLICATION_ID, SCHEMA_VERSION)


def test_a_database_damaged_part_way_is_refused_naming_what_sqlite_found(tmp_path):
    path = tmp_path / "b.db"
    played(path)
    damage_part_way(path)
    with pytest.raises(DatabaseDamaged) as refused:
        Store(path)
    message = refused.value.message
    assert message.startswith(f"The database {path} is damaged (")
    assert message.endswith(
        "): restore your latest backup over it (`banker backup` makes them), or save what can "
        f"be saved with `sqlite3 {path} '.recover' | sqlite3 recovered.db` and serve that with "
        "--db."
    )


def test_migrate_runs_any_number_of_times_on_an_open_database(tmp_path):
    path = tmp_path / "b.db"
    played(path, games=1)
    db = sqlite_utils.Database(path)
    migrate(db)
    migrate(db)
    db.close()
    assert [n for _, n, _ in records(path)] == NAMES
