"""A database of schema 1 (before the row stopped carrying undo's states) opens as schema 2: the
row's undo entries carried their states and there was no undo_base; the idempotency index held
every command. Its games play on and undo exactly, and its keys still answer their replays."""

from __future__ import annotations

import json
import sqlite3

from banker import rules
from banker.store import SCHEMA_VERSION, Store

NAMES = ["Ann", "Bob"]
COMMANDS = [
    {"type": "start", "first": "p1"},
    {"type": "roll", "player": "p1", "dice": [1, 2]},
    {"type": "buy"},
]


def as_schema_1(path) -> tuple[str, dict]:
    """Turn a fresh database into what banker wrote before: full undo states in the row, no
    undo_base column, the idempotency index over every command."""
    store = Store(path)
    game_id = store.create_game("g0009", NAMES, None)["game_id"]
    for i, c in enumerate(COMMANDS):
        store.execute(game_id, c, idempotency_key=f"k{i}")
    full = store.state(game_id)
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("update games set state = ?", [json.dumps(full)])
    conn.execute("alter table games drop column undo_base")
    conn.execute("drop index commands_scoped_idempotency_key")
    conn.execute(
        "create unique index commands_scoped_idempotency_key "
        "on commands (game_id, key_scope, idempotency_key)"
    )
    conn.execute("pragma user_version = 1")
    # Nor did it mark its files or record numbered steps (banker/store/migrations.py).
    conn.execute("drop table _sqlite_migrations")
    conn.execute("pragma application_id = 0")
    conn.commit()
    conn.close()
    return game_id, full


def test_a_schema_1_database_plays_on_and_undoes_exactly(tmp_path):
    path = tmp_path / "old.db"
    game_id, full = as_schema_1(path)
    store = Store(path)
    try:
        db = store.database.connection()
        assert db.execute("pragma user_version").fetchone() == (SCHEMA_VERSION,) == (3,)
        assert "undo_base" in db["games"].columns_dict
        (index,) = db.execute(
            "select sql from sqlite_master where name = 'commands_scoped_idempotency_key'"
        ).fetchone()
        assert index.lower().endswith("where idempotency_key is not null")
        # A key given before answers its replay, as it was.
        replay = store.execute(game_id, COMMANDS[2], idempotency_key="k2")
        assert replay.replayed and replay.body["version"] == 3
        expected = full
        adjust = {"type": "adjust", "player": "p2", "amount": 7, "reason": "a correction"}
        for c in (adjust, {"type": "undo"}, {"type": "undo"}, {"type": "undo"}):
            answer = store.execute(game_id, c)
            expected = rules.apply(expected, c)[0]
            assert answer.body["state"] == rules.public_state(expected)
            store.close()
            store = Store(path)  # and read back from the row each time
            assert store.state(game_id) == expected
    finally:
        store.close()
