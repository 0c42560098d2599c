"""The store's refusals, shaped like the core's errors (status, code, message)."""

from __future__ import annotations

import sqlite3

from banker.rules import Refusal


class StoreError(Refusal):
    """A refusal from the store, shaped like the core's errors (status, code, message)."""

    status = 500
    code = "store_error"

    def __init__(self, message: str):
        super().__init__(message)


class GameNotFound(StoreError):
    """No game has this id (HTTP 404)."""

    status = 404
    code = "game_not_found"


class PlayerNotFound(StoreError):
    """The game has no player with this id (HTTP 404)."""

    status = 404
    code = "player_not_found"


class UnknownSeat(StoreError):
    """A new link was asked for a seat the game does not have (HTTP 400)."""

    status = 400
    code = "unknown_seat"


class VersionConflict(StoreError):
    """The command's expected_version is not the game's version (HTTP 409)."""

    status = 409
    code = "version_conflict"


class KeyReused(StoreError):
    """An Idempotency-Key sent again with another command (HTTP 422): nothing applied."""

    status = 422
    code = "idempotency_key_reused"


class GameTooLong(StoreError):
    """A command that would take the game's log past what a snapshot import accepts (HTTP 422):
    nothing applied (Store.execute; the limits are banker.snapshot's)."""

    status = 422
    code = "game_too_long"


class DiskFull(StoreError):
    """The disk (or the database's size limit) is full: nothing was recorded (HTTP 507)."""

    status = 507
    code = "disk_full"

    def __init__(self, message: str = ""):
        super().__init__(
            message
            or "The server's disk is full, so nothing was recorded. Free some space on it "
            "and try again: the game goes on from where it was."
        )


class SchemaTooNew(StoreError):
    """The database's schema version (PRAGMA user_version) is newer than this banker's."""

    code = "schema_too_new"


class NotBankers(StoreError):
    """The file is not a SQLite database, or is another program's: banker leaves it alone."""


class DatabaseDamaged(StoreError):
    """SQLite finds the database damaged (a page overwritten, a file cut short)."""


class SnapshotRefused(StoreError):
    """A snapshot that cannot be resumed: 400 (malformed) or 422 (its log does not hold)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code = status, code


def is_disk_full(e: BaseException) -> bool:
    """SQLite's SQLITE_FULL (13): the disk, or the database's max_page_count, is full."""
    return isinstance(e, sqlite3.Error) and (
        getattr(e, "sqlite_errorcode", None) == 13 or "disk is full" in str(e)
    )
