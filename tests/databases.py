"""Database files a host may point banker at by mistake, made for the tests: one damaged
part-way, another program's (with or without a `games` table), a file that is not SQLite."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from banker.store import Store


def played(path: Path, games: int = 3) -> list[str]:
    """A banker database with a few started games; their ids."""
    store = Store(path)
    try:
        ids = []
        for _ in range(games):
            game_id = store.create_game("g0009", ["Ann", "Bob"], None)["game_id"]
            store.execute(game_id, {"type": "start", "first": "p1"})
            ids.append(game_id)
        return ids
    finally:
        store.close()  # the last connection: the WAL is folded into the file


def damage_part_way(path: Path) -> None:
    """Overwrite the root page of the `events` table: the games' rows still read, their logs
    do not (SQLite: "database disk image is malformed")."""
    conn = sqlite3.connect(path)
    (root,) = conn.execute("select rootpage from sqlite_master where name = 'events'").fetchone()
    (size,) = conn.execute("pragma page_size").fetchone()
    conn.close()
    with open(path, "r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\xa5" * size)


def foreign(path: Path, with_games: bool) -> bytes:
    """Another program's SQLite file (its own `games` table, or none); its bytes."""
    conn = sqlite3.connect(path)
    if with_games:
        conn.execute("create table games (id integer primary key, title text, year int)")
        conn.execute("insert into games (title, year) values ('Chess', 600)")
    conn.execute("create table notes (id integer primary key, text text)")
    conn.execute("insert into notes (text) values ('keep me')")
    conn.commit()
    conn.close()
    return path.read_bytes()
