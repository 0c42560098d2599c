"""The database: one SQLite file in WAL mode with `synchronous=FULL` (an acknowledged command
is on disk), a connection per thread, one write transaction per command (several games'
commands share one commit: group commit) and the tables' migrations."""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from banker import settings
from banker.store import migrations
from banker.store.errors import DiskFull, is_disk_full

log = logging.getLogger("banker.store")
FULL_LOG_SECONDS = 60


def default_database_path() -> Path:
    """$BANKER_DB (`~` expanded), else banker.db in the user's data folder ($XDG_DATA_HOME or
    ~/.local/share): banker.settings's `db` (SettingError for a `~user` it does not know)."""
    return Path(settings.read_one("db"))


def utc_now() -> str:
    """The current time as an ISO 8601 UTC timestamp with milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# One encoder for every call: json.dumps with separators builds a new one each time, which
# costs more than encoding a small value (a command writes about seven).
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def dumps(value) -> str:
    """Compact JSON, as stored (json.dumps(value, separators=(",", ":"), ensure_ascii=False))."""
    return _ENCODER.encode(value)


class _Work:
    """One thread's writes waiting for a group commit (Database.write)."""

    __slots__ = ("work", "done", "error")

    def __init__(self, work: Callable[[sqlite_utils.Database], None]):
        self.work, self.done, self.error = work, False, None


class Database:
    """One SQLite file: `connection()` (this thread's), `one(sql)`, `transaction()` (one write
    transaction), `write(work)` (a command's rows, group-committed), `close()`."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        # One writer at a time, waiting here rather than in SQLite's busy handler (which sleeps
        # a millisecond or more before it looks again); one server per file (net/serving.py).
        self._writer = threading.Lock()
        self._waiting: list[_Work] = []  # writes queued for the next group commit
        self._waiting_lock = threading.Lock()
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._connections_lock = threading.Lock()
        self._said_full = -FULL_LOG_SECONDS  # when the log last said the disk is full
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        with migrations.explained(self.path):
            db = self.connection()
            migrations.check(db, self.path)
            db.enable_wal()  # a backup's copy is not in WAL mode: served, it is again
            if migrations.needs_writing(db):
                self._migrate(db)

    def _migrate(self, db: sqlite_utils.Database) -> None:
        """Run the steps not yet recorded and mark the file, in one write transaction (a
        process opening the file at the same moment waits, then finds it done)."""
        with self._writer:
            db.conn.execute("BEGIN IMMEDIATE")
            try:
                migrations.migrate(db)
                migrations.mark(db)
                db.conn.commit()
            except BaseException:
                db.conn.rollback()
                raise

    def connection(self) -> sqlite_utils.Database:
        """This thread's connection (SQLite connections must not be shared mid-transaction)."""
        db = getattr(self._local, "db", None)
        if db is None:
            # check_same_thread=False only so that close() may close it from another thread.
            conn = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
            conn.execute("PRAGMA synchronous=FULL")  # an acknowledged command survives a crash
            conn.execute("PRAGMA foreign_keys=ON")
            db = sqlite_utils.Database(conn)
            self._local.db = db
            with self._connections_lock:
                self._connections.append(conn)
        return db

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite_utils.Database]:
        """One write transaction, committed at the end or rolled back on any exception."""
        db = self.connection()
        with self._writer:
            # IMMEDIATE takes the write lock up front: a deferred transaction that read first
            # could fail to upgrade with SQLITE_BUSY when another process wrote meanwhile.
            db.conn.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.conn.commit()  # inside: a commit that fails (disk full) is rolled back too
            except BaseException as e:
                db.conn.rollback()
                if is_disk_full(e):
                    raise self._full() from None
                raise

    def write(self, work: Callable[[sqlite_utils.Database], None]) -> None:
        """Run `work(db)` in a write transaction and return once it is committed (on disk),
        or raise what it raised (DiskFull for a full disk), nothing of it written.

        Group commit: the writes of threads that arrive while another thread's commit is
        syncing wait for it, then the first of them commits them all in one transaction, one
        sync for several commands of different games (a game's commands never meet here: its
        lock holds each until committed). Every caller still returns only after the commit
        that holds its work. A work that fails is left out and the others run again without
        it, so one command's failure never touches another's."""
        mine = _Work(work)
        with self._waiting_lock:
            self._waiting.append(mine)
        with self._writer:
            if not mine.done:  # no leader took it: this thread commits what waits
                with self._waiting_lock:
                    batch, self._waiting = self._waiting, []
                try:
                    db = self.connection()
                    while batch:
                        batch = self.commit_batch(db, batch)
                except BaseException as e:  # could not even begin: none of them is written
                    for item in batch:
                        item.error, item.done = self._full() if is_disk_full(e) else e, True
        if mine.error is not None:
            raise mine.error

    def commit_batch(self, db: sqlite_utils.Database, batch: list[_Work]) -> list[_Work]:
        """One transaction of every work in `batch`; the works still to run when one failed
        (it is marked with its error and all is rolled back), else []."""
        db.conn.execute("BEGIN IMMEDIATE")
        for i, item in enumerate(batch):
            try:
                item.work(db)
            except BaseException as e:
                db.conn.rollback()
                item.error, item.done = self._full() if is_disk_full(e) else e, True
                return batch[:i] + batch[i + 1 :]
        try:
            db.conn.commit()
        except BaseException as e:
            db.conn.rollback()
            error = self._full() if is_disk_full(e) else e
            for item in batch:
                item.error = error
        for item in batch:
            item.done = True
        return []

    def _full(self) -> DiskFull:
        """The refusal of a write that found the disk full, said in the server's log too (at
        most one line a minute: a full disk refuses every command until space is freed)."""
        now = time.monotonic()
        if now - self._said_full >= FULL_LOG_SECONDS:
            self._said_full = now
            log.error(
                "The disk holding the database %s is full: commands are refused (507 "
                "disk_full) and nothing is recorded until some space is freed on it.", self.path
            )  # fmt: skip
        return DiskFull()

    def one(self, sql: str, params=()) -> dict | None:
        """The first row of a query as a dict, or None."""
        return next(iter(self.connection().query(sql, params)), None)

    def check_writable(self) -> None:
        """Raise SQLite's error (SQLITE_READONLY…) unless this process may write the file: a
        write that is rolled back (SQLite opens a file it may not write for reading only)."""
        db = self.connection()
        with self._writer:
            db.conn.execute("BEGIN IMMEDIATE")
            try:
                db.conn.execute(f"PRAGMA user_version = {migrations.SCHEMA_VERSION}")
            finally:
                db.conn.rollback()

    def answers(self) -> int:
        """The games counted through a connection of its own, read-only and opened now (no page
        this process keeps in memory): what a health check asks. sqlite3.Error when the file
        does not answer (gone, damaged, unreadable)."""
        if self.path == ":memory:":
            return self.connection()["games"].count
        uri = Path(self.path).absolute().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True, timeout=2)
        try:
            return conn.execute("select count(*) from games").fetchone()[0]
        finally:
            conn.close()

    def close(self) -> None:
        """Close every connection this store opened."""
        with self._connections_lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()
