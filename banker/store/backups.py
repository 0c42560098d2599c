"""Backups: a consistent copy of a database while a server may be using it
(`banker backup`), and the size its rows take once compacted."""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import sqlite_utils

from banker.store import migrations
from banker.store.errors import DiskFull, is_disk_full

T = TypeVar("T")
WAIT_SECONDS = 10  # how long a backup waits for a database another process holds locked


def _patiently(step: Callable[[], T], seconds: float = WAIT_SECONDS) -> T:
    """step(), tried again while the database is locked by another process, for `seconds` at
    most, in short waits: inside SQLite's own wait Python could not see Ctrl+C (the signal was
    noticed once the wait ended, 10 s later, or not at all)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return step()
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() >= deadline:
                raise
        time.sleep(0.05)


def backup(database: str | Path, destination: str | Path) -> int:
    """Copy a database, while a server may be using it, to a standalone file; its game count.

    SQLite's online backup API copies every page in one step under a read lock, so the copy
    is one consistent moment of the database: every command in it is whole. The copy is made
    beside `destination` and renamed over it only once complete and checked.
    """
    source, target = Path(database), Path(destination)
    if not source.is_file():
        raise FileNotFoundError(f"There is no database at {source}.")
    if target.exists() and target.resolve() == source.resolve():
        raise ValueError("The backup must be a different file from the database.")
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    src = sqlite_utils.Database(sqlite3.connect(source, timeout=0.05))  # waits: _patiently
    try:
        with migrations.explained(str(database)):
            # banker's, whole: else nothing is written
            _patiently(lambda: migrations.check(src, str(database)))
        try:
            # Born 0600, whatever the umask: the copy holds every game's tokens.
            os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            dst = sqlite3.connect(partial)
            try:
                _patiently(lambda: src.conn.backup(dst))
                # The copy stands alone: no -wal file beside it (a server turns WAL back on).
                dst.execute("PRAGMA journal_mode=DELETE")
                (verdict,) = dst.execute("PRAGMA integrity_check").fetchone()
                if verdict != "ok":
                    raise sqlite3.DatabaseError(f"The copy failed its integrity check: {verdict}")
                games = dst.execute("select count(*) from games").fetchone()[0]
            finally:
                dst.close()
            os.replace(partial, target)
        except (sqlite3.Error, OSError) as e:  # the copy's side: its disk full is said so
            if is_disk_full(e) or getattr(e, "errno", None) == errno.ENOSPC:
                raise DiskFull(e.strerror if isinstance(e, OSError) else str(e)) from None
            raise
    finally:
        src.conn.close()
        partial.unlink(missing_ok=True)
    return games


def compacted_size(path: str | Path) -> int:
    """The bytes of a database once compacted (VACUUM INTO a copy): what its rows take."""
    target = Path(f"{path}.{os.getpid()}.compact")
    target.unlink(missing_ok=True)
    conn = sqlite3.connect(path, timeout=10)
    try:
        conn.execute("VACUUM INTO ?", [str(target)])
        return target.stat().st_size
    finally:
        conn.close()
        target.unlink(missing_ok=True)
