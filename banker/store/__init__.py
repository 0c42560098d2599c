"""The only package that touches SQLite (through sqlite-utils): each game's command and event
log plus its current state.

- `database`: the SQLite file, a connection per thread, transactions, backup;
- `migrations`: the numbered steps of the layout, banker's mark, the checks of a file opened;
- `tokens`: the token index (who a token is, new links, look-ups from memory);
- `service`: the game service (create, execute, import, answer), `Store` itself;
- `kept`: what the store keeps in memory of one game (its state while in use, its lock);
- `reads`: the log read back (events, games list, the story's rows, snapshots);
- `log`: the rows a command writes, and what the story keeps of a round's start;
- `errors`: the store's refusals (status, code, message).
"""

from __future__ import annotations

import time  # noqa: F401  (tests pin time.monotonic through this module)

from banker.store.answer import Answer
from banker.store.database import (
    backup,
    compacted_size,
    default_database_path,
    dumps,
    utc_now,
)
from banker.store.errors import (
    DatabaseDamaged,
    DiskFull,
    GameNotFound,
    KeyReused,
    NotBankers,
    PlayerNotFound,
    SchemaTooNew,
    SnapshotRefused,
    StoreError,
    UnknownSeat,
    VersionConflict,
)
from banker.store.log import NO_ANSWER, story_state
from banker.store.migrations import APPLICATION_ID, SCHEMA_VERSION, migrate
from banker.store.service import FOLLOWING_SECONDS, Store
from banker.store.tokens import key_scope, new_secret, same_token

KEPT_ANSWERS = 300  # the answers kept per game, for the latest keyed commands

__all__ = [
    "APPLICATION_ID",
    "FOLLOWING_SECONDS",
    "KEPT_ANSWERS",
    "NO_ANSWER",
    "SCHEMA_VERSION",
    "Answer",
    "DatabaseDamaged",
    "DiskFull",
    "GameNotFound",
    "KeyReused",
    "NotBankers",
    "PlayerNotFound",
    "SchemaTooNew",
    "SnapshotRefused",
    "Store",
    "StoreError",
    "UnknownSeat",
    "VersionConflict",
    "backup",
    "compacted_size",
    "default_database_path",
    "dumps",
    "key_scope",
    "migrate",
    "new_secret",
    "same_token",
    "story_state",
    "utc_now",
]
