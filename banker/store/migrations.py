"""The database's layout, step by step: numbered migration steps (sqlite-utils' `Migrations`,
each recorded in the `_sqlite_migrations` table with the time it ran), banker's mark on its
files (PRAGMA application_id), and the checks that refuse a file that is not banker's or is
damaged before anything is written to it.

A database from before the steps were numbered has no record of them: it gets every step,
each written to be safe on a database that already has what it adds, and each is recorded."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime

import sqlite_utils
from sqlite_utils import Migrations

from banker import __version__
from banker.store.errors import DatabaseDamaged, NotBankers, SchemaTooNew

# PRAGMA application_id of a banker database: "BANK" in ASCII. Files made before it was set
# have 0 and are recognised by their `games` table.
APPLICATION_ID = 0x42414E4B
# The database layout's version (PRAGMA user_version); raise it with any change a previous
# banker could not read, so that one refuses the file instead of damaging it. A step that an
# older banker can ignore (a table it never reads) leaves it as it is.
# 2: the row's undo entries name the version of their state; `undo_base` (log.py).
# 3 (release 0.2.0): the releases that wrote the file (`releases`), keys stored before scopes
# kept as the game's (LEGACY_SCOPE), which a release of schema 2 would not honour (it would
# apply such a retry again); 0.1.0's releases of schema 2 refuse the file, as they should.
SCHEMA_VERSION = 3
# Columns every banker database's `games` table has had since the first one.
GAMES_COLUMNS = {"id", "edition", "names", "options", "banker_token", "version", "state"}

STEPS = Migrations("banker")
_RELEASE = re.compile(r"\d{1,6}\.\d{1,6}\.\d{1,6}")

# The key scope of an Idempotency-Key stored before keys had scopes (releases of 2026-11-29):
# the game's, whichever of its tokens sends it again (Store.execute looks there too).
LEGACY_SCOPE = "*"
# The expected_version of a keyed command stored before they were recorded: the retry is the
# same command whatever expected_version it carries (the release that stored it replayed it so).
NOT_RECORDED = -1


@STEPS(name="m001_games_and_their_log")
def _games_and_their_log(db: sqlite_utils.Database) -> None:
    """The games, their players' tokens and the append-only log of commands and events."""
    db["games"].create(
        {"id": str, "edition": str, "names": str, "options": str, "banker_token": str,
         "version": int, "state": str, "created_at": str},
        pk="id",
        not_null=GAMES_COLUMNS - {"id"},
        if_not_exists=True,
    )  # fmt: skip
    db["player_tokens"].create(
        {"token": str, "game_id": str, "player_id": str, "revoked": int},
        pk="token",
        not_null={"game_id", "player_id", "revoked"},
        defaults={"revoked": 0},
        foreign_keys=[("game_id", "games", "id")],
        if_not_exists=True,
    )
    db["player_tokens"].create_index(["game_id"], if_not_exists=True)
    db["commands"].create(
        {"game_id": str, "version": int, "command": str, "idempotency_key": str,
         "response": str, "at": str},
        pk=("game_id", "version"),
        not_null={"command", "response", "at"},
        foreign_keys=[("game_id", "games", "id")],
        if_not_exists=True,
    )  # fmt: skip
    db["events"].create(
        {"game_id": str, "seq": int, "version": int, "type": str, "text": str, "data": str,
         "at": str, "undone": int},
        pk=("game_id", "seq"),
        not_null={"version", "type", "text", "data", "at", "undone"},
        defaults={"undone": 0},
        foreign_keys=[("game_id", "games", "id")],
        if_not_exists=True,
    )  # fmt: skip


@STEPS(name="m002_moved_games")
def _moved_games(db: sqlite_utils.Database) -> None:
    """A game resumed elsewhere from its snapshot: its players' old links point to the copy."""
    db["moved_games"].create(
        {"game_id": str, "moved_to": str}, pk="game_id", not_null={"moved_to"}, if_not_exists=True
    )


@STEPS(name="m003_display_tokens")
def _display_tokens(db: sqlite_utils.Database) -> None:
    """The display's token (a game created before it gets one when first loaded)."""
    if "display_token" not in db["games"].columns_dict:
        db["games"].add_column("display_token", str)
    db["games"].create_index(["display_token"], if_not_exists=True)


@STEPS(name="m004_revoked_tokens")
def _revoked_tokens(db: sqlite_utils.Database) -> None:
    """Banker and display tokens replaced by new links (players' stay in player_tokens)."""
    db["revoked_tokens"].create(
        {"token": str, "game_id": str, "seat": str},
        pk="token",
        not_null={"game_id", "seat"},
        foreign_keys=[("game_id", "games", "id")],
        if_not_exists=True,
    )


@STEPS(name="m005_idempotency_keys_per_token")
def _scoped_keys(db: sqlite_utils.Database) -> None:
    """Idempotency keys are scoped to a game and a token (key_scope(token); "" for the pages'
    own keys and for keys stored before scopes existed), unique among keyed commands."""
    if "key_scope" not in db["commands"].columns_dict:
        db["commands"].add_column("key_scope", str, not_null_default="")
        # The keys stored so far were the game's (any token's): they stay so.
        db.execute(
            "update commands set key_scope = ? where idempotency_key is not null", [LEGACY_SCOPE]
        )
    db.execute("drop index if exists commands_idempotency_key")
    # Only keyed commands in the index (partial): a command sent without a key, most of them,
    # then writes no index page; `idempotency_key = ?` still finds a key through it.
    found = db.execute(
        "select sql from sqlite_master where name = 'commands_scoped_idempotency_key'"
    ).fetchone()
    if found is not None and "where" not in found[0].lower():
        db.execute("drop index commands_scoped_idempotency_key")
    db.execute(
        "create unique index if not exists commands_scoped_idempotency_key on commands "
        "(game_id, key_scope, idempotency_key) where idempotency_key is not null"
    )


@STEPS(name="m006_undo_base")
def _undo_base(db: sqlite_utils.Database) -> None:
    """The state the bottom undo entry takes the game back to (schema 2, see store/log.py)."""
    if "undo_base" not in db["games"].columns_dict:
        db["games"].add_column("undo_base", str)


@STEPS(name="m007_keyed_expected_version")
def _keyed_expected_version(db: sqlite_utils.Database) -> None:
    """A keyed command's expected_version (null: none sent), so that a key sent again with
    another one is told apart from a retry (Store.execute: idempotency_key_reused)."""
    if "expected_version" not in db["commands"].columns_dict:
        db["commands"].add_column("expected_version", int)
        db.execute(
            "update commands set expected_version = ? where idempotency_key is not null",
            [NOT_RECORDED],
        )


@STEPS(name="m008_releases")
def _releases(db: sqlite_utils.Database) -> None:
    """The releases of banker that wrote this database, each with its schema version and when
    it first did: a release that cannot read the file names the one that wrote it."""
    db["releases"].create(
        {"release": str, "schema_version": int, "first_at": str},
        pk="release",
        not_null={"schema_version", "first_at"},
        if_not_exists=True,
    )


def migrate(db: sqlite_utils.Database) -> None:
    """Apply the steps not yet recorded, each with its record in one transaction (savepoints
    inside the caller's transaction); safe to run any number of times."""
    STEPS.apply(db)


def needs_writing(db: sqlite_utils.Database) -> bool:
    """Whether opening this database will write to it (a step to run, or banker's mark or the
    layout's version to set): a current database is only read."""
    application_id, version = (
        db.execute(f"PRAGMA {name}").fetchone()[0] for name in ("application_id", "user_version")
    )
    if (application_id, version) != (APPLICATION_ID, SCHEMA_VERSION) or STEPS.pending(db):
        return True
    return db.execute("select 1 from releases where release = ?", [__version__]).fetchone() is None


def mark(db: sqlite_utils.Database) -> None:
    """Mark the file as banker's, of this layout's version, written by this release (inside the
    migration's transaction)."""
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.execute(
        "insert or ignore into releases (release, schema_version, first_at) values (?, ?, ?)",
        [__version__, SCHEMA_VERSION, datetime.now(UTC).isoformat(timespec="seconds")],
    )


def newest_release(db: sqlite_utils.Database) -> str | None:
    """The newest release recorded as having written the database (None before 0.2.0)."""
    try:
        rows = db.execute("select release from releases").fetchall()
    except sqlite3.OperationalError:  # no such table: written before releases were recorded
        return None
    known = [r[0] for r in rows if isinstance(r[0], str) and _RELEASE.fullmatch(r[0])]
    return max(known, key=lambda r: tuple(int(n) for n in r.split(".")), default=None)


def check(db: sqlite_utils.Database, path: str) -> None:
    """Refuse, before anything is written, another program's database, one from a newer
    banker, or one damaged (SQLite's quick_check). Inside `explained(path)`."""
    application_id, version = (
        db.execute(f"PRAGMA {n}").fetchone()[0] for n in ("application_id", "user_version")
    )
    if application_id != APPLICATION_ID:
        _check_unmarked(db, path, application_id)
    if version > SCHEMA_VERSION:  # written by a newer banker: change nothing in it
        newer = newest_release(db)
        whose = f"banker {newer}" if newer else "a newer banker"
        raise SchemaTooNew(
            f"The database {path} was written by {whose} (schema version {version}), which "
            f"this banker {__version__} (schema version {SCHEMA_VERSION}) cannot read: upgrade "
            "banker to use it, or serve a backup made before that upgrade; nothing in the file "
            "was changed."
        )
    problems = [row[0] for row in db.execute("PRAGMA quick_check(3)").fetchall()]
    if problems != ["ok"]:
        raise damaged(path, problems[0])


@contextlib.contextmanager
def explained(path: str) -> Iterator[None]:
    """SQLite's errors of a file that is not a database, or is damaged, said in a sentence."""
    try:
        yield
    except sqlite3.DatabaseError as e:
        name = getattr(e, "sqlite_errorname", "")
        if name == "SQLITE_NOTADB":
            raise NotBankers(
                f"{path} is not a SQLite database, so banker leaves it alone: give --db the "
                "file of your games, or a new file name to start afresh."
            ) from None
        if name.startswith("SQLITE_CORRUPT"):
            raise damaged(path, str(e)) from None
        raise


def damaged(path: str, problem: str) -> DatabaseDamaged:
    """The refusal of a damaged database, naming what SQLite found."""
    return DatabaseDamaged(
        f"The database {path} is damaged ({problem}): restore your latest backup over it "
        f"(`banker backup` makes them), or save what can be saved with `sqlite3 {path} "
        "'.recover' | sqlite3 recovered.db` and serve that with --db."
    )


def _check_unmarked(db: sqlite_utils.Database, path: str, application_id: int) -> None:
    """A file without banker's mark is banker's only if it is empty or has banker's games."""
    tables = sorted(t for t in db.table_names() if not t.startswith("sqlite_"))
    if application_id == 0:
        if not tables:
            return  # a new (or empty) file: banker makes its tables in it
        if "games" in tables and GAMES_COLUMNS <= set(db["games"].columns_dict):
            return  # banker's own, from before the mark
    shown = ", ".join(tables[:5]) + (", …" if len(tables) > 5 else "")
    whose = f"its tables are {shown}" if tables else f"its application id is {application_id}"
    raise NotBankers(
        f"{path} is another program's SQLite database ({whose}), so banker leaves it alone: "
        "give --db the file of your games, or a new file name to start afresh."
    )
