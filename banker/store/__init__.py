"""The only package that touches SQLite (through sqlite-utils): each game's command and event
log plus its current state.

`Store` (`service`) is made of four parts, each an object holding no other's private parts:
- `database` (`Database`): the SQLite file, a connection per thread, transactions, group commit;
- `games` (`Games`): each game in memory (`memory`'s GameInMemory: its state while in use, its
  tokens, its lock), where a game moved, which pages follow it, the watchers;
- `tokens` (`Tokens`): who a token is, new links, look-ups from memory;
- `reads` (`Reads`): the log read back (events, games list, the story's rows, snapshots);
and runs what changes a game itself (create, execute, import). Beside them:
- `log`: the rows a command writes, and what the story keeps of a round's start;
- `migrations`: the numbered steps of the layout, banker's mark, the checks of a file opened;
- `backups`: a consistent copy of a database in use (`banker backup`), its compacted size;
- `answer`: a command's answer; `errors`: the store's refusals (status, code, message).
"""

from __future__ import annotations

from banker.store.answer import Answer
from banker.store.backups import backup, compacted_size
from banker.store.database import default_database_path, dumps, utc_now
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
from banker.store.games import FOLLOWING_SECONDS
from banker.store.log import NO_ANSWER, story_state
from banker.store.migrations import APPLICATION_ID, SCHEMA_VERSION, migrate
from banker.store.service import REMEMBERED_ANSWERS, Store
from banker.store.tokens import key_scope, new_secret, same_token

__all__ = [
    "APPLICATION_ID",
    "FOLLOWING_SECONDS",
    "REMEMBERED_ANSWERS",
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
