"""The only module that touches SQLite: each game's command and event log plus its current state.

Every accepted command is one transaction: its `commands` row (with the answer sent back, for
Idempotency-Key repeats), its `events` rows and the game's new cached state. Commands on one game
run one at a time (a lock per game); the current state is also kept in memory, so a command never
replays the log.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from banker import rules
from banker import snapshot as snapshots
from banker.rules.errors import Refusal

# Game ids are read aloud at the table: no look-alike characters (0/o, 1/l/i).
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_ID_LENGTH = 8
# A player's page polls about every 700 ms: seen within this many seconds, it follows the game.
FOLLOWING_SECONDS = 5.0


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


def _is_disk_full(e: BaseException) -> bool:
    """SQLite's SQLITE_FULL (13): the disk, or the database's max_page_count, is full."""
    return isinstance(e, sqlite3.Error) and (
        getattr(e, "sqlite_errorcode", None) == 13 or "disk is full" in str(e)
    )


class SchemaTooNew(StoreError):
    """The database's schema version (PRAGMA user_version) is newer than this banker's."""

    code = "schema_too_new"


# The database layout's version (PRAGMA user_version); raise it with any change a previous
# banker could not read, so that one refuses the file instead of damaging it.
SCHEMA_VERSION = 1


class SnapshotRefused(StoreError):
    """A snapshot that cannot be resumed: 400 (malformed) or 422 (its log does not hold)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code = status, code


@dataclass
class Answer:
    """The answer to one command: the body as a dict and as the exact JSON text to send."""

    body: dict
    text: str
    replayed: bool = False


@dataclass
class _Game:
    """What the store keeps in memory about one game."""

    state: dict
    banker_token: str
    player_tokens: dict[str, str]  # token -> player id, revoked tokens left out
    display_token: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)


def default_database_path() -> Path:
    """$BANKER_DB, else banker.db in the user's data folder ($XDG_DATA_HOME or ~/.local/share)."""
    if os.environ.get("BANKER_DB"):
        return Path(os.environ["BANKER_DB"])
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "banker" / "banker.db"


def same_token(given: str, token: str) -> bool:
    """Whether a token sent by a client is `token`, compared in constant time."""
    # As bytes: compare_digest refuses str with non-ASCII characters, which a client may send.
    return secrets.compare_digest(given.encode(), token.encode())


def utc_now() -> str:
    """The current time as an ISO 8601 UTC timestamp with milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_secret() -> str:
    """A fresh token: 24 random bytes, URL-safe."""
    return secrets.token_urlsafe(24)


def key_scope(token: str) -> str:
    """The scope of a token's Idempotency-Keys, stored instead of the token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def migrate(db: sqlite_utils.Database) -> None:
    """Create the tables and indexes; safe to run any number of times."""
    db["games"].create(
        {
            "id": str,
            "edition": str,
            "names": str,
            "options": str,
            "banker_token": str,
            "version": int,
            "state": str,
            "created_at": str,
        },
        pk="id",
        not_null={"edition", "names", "options", "banker_token", "version", "state"},
        if_not_exists=True,
    )
    db["player_tokens"].create(
        {"token": str, "game_id": str, "player_id": str, "revoked": int},
        pk="token",
        not_null={"game_id", "player_id", "revoked"},
        defaults={"revoked": 0},
        foreign_keys=[("game_id", "games", "id")],
        if_not_exists=True,
    )
    db["commands"].create(
        {
            "game_id": str,
            "version": int,
            "command": str,
            "idempotency_key": str,
            "response": str,
            "at": str,
        },
        pk=("game_id", "version"),
        not_null={"command", "response", "at"},
        foreign_keys=[("game_id", "games", "id")],
        if_not_exists=True,
    )
    db["events"].create(
        {
            "game_id": str,
            "seq": int,
            "version": int,
            "type": str,
            "text": str,
            "data": str,
            "at": str,
            "undone": int,
        },
        pk=("game_id", "seq"),
        not_null={"version", "type", "text", "data", "at", "undone"},
        defaults={"undone": 0},
        foreign_keys=[("game_id", "games", "id")],
        if_not_exists=True,
    )
    db["player_tokens"].create_index(["game_id"], if_not_exists=True)
    # A game resumed elsewhere from its snapshot: its players' old links point to the copy.
    db["moved_games"].create(
        {"game_id": str, "moved_to": str}, pk="game_id", not_null={"moved_to"}, if_not_exists=True
    )
    # The display's token (games created before it get one when first loaded).
    if "display_token" not in db["games"].columns_dict:
        db["games"].add_column("display_token", str)
    db["games"].create_index(["display_token"], if_not_exists=True)
    # Banker and display tokens replaced by new links (players' stay in player_tokens).
    db["revoked_tokens"].create(
        {"token": str, "game_id": str, "seat": str},
        pk="token",
        not_null={"game_id", "seat"},
        foreign_keys=[("game_id", "games", "id")],
        if_not_exists=True,
    )
    # Idempotency keys are scoped to a game and a token (key_scope(token); "" for the pages'
    # own keys and for keys stored before scopes existed). SQLite lets many rows have a NULL key.
    if "key_scope" not in db["commands"].columns_dict:
        db["commands"].add_column("key_scope", str, not_null_default="")
    db.execute("drop index if exists commands_idempotency_key")
    db["commands"].create_index(
        ["game_id", "key_scope", "idempotency_key"],
        index_name="commands_scoped_idempotency_key",
        unique=True,
        if_not_exists=True,
    )


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Store:
    """The games of one SQLite file: create them, run their commands, read them back."""

    def __init__(self, path: str | Path, clock: Callable[[], str] = utc_now):
        self.path = str(path)
        self.clock = clock
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._connections_lock = threading.Lock()
        self._games: dict[str, _Game] = {}
        self._games_lock = threading.Lock()
        # Player token -> game id, filled on first use: a player page's poll never reads SQLite.
        self._token_games: dict[str, str] = {}
        self._display_games: dict[str, str] = {}  # the same for display tokens
        self._moved: dict[str, str | None] = {}  # game id -> the game it moved to (or None)
        # (game id, player id) -> time.monotonic() of that player's page's latest poll.
        self._seen: dict[tuple[str, str], float] = {}
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = self._db()
        found = db.execute("PRAGMA user_version").fetchone()[0]
        if found > SCHEMA_VERSION:  # written by a newer banker: change nothing in it
            raise SchemaTooNew(
                f"The database {self.path} was written by a newer banker (schema version "
                f"{found}; this banker knows up to {SCHEMA_VERSION}): upgrade banker to use it."
            )
        db.enable_wal()
        migrate(db)
        if found < SCHEMA_VERSION:
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    # -- connections and transactions ---------------------------------------------------------

    def _db(self) -> sqlite_utils.Database:
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
    def _transaction(self) -> Iterator[sqlite_utils.Database]:
        """One write transaction, committed at the end or rolled back on any exception."""
        db = self._db()
        # IMMEDIATE takes the write lock up front: a deferred transaction that read first could
        # fail to upgrade with SQLITE_BUSY when another thread wrote to another game meanwhile.
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.commit()  # inside: a commit that fails (disk full) is rolled back too
        except BaseException as e:
            db.rollback()
            if _is_disk_full(e):
                raise DiskFull() from None
            raise

    def close(self) -> None:
        """Close every connection this store opened."""
        with self._connections_lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()

    # -- games ---------------------------------------------------------------------------------

    def _new_game_id(self) -> str:
        # A collision between two threads at once would fail on the primary key, not overwrite.
        while True:
            game_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(_ID_LENGTH))
            if not self._db().execute("select 1 from games where id = ?", [game_id]).fetchone():
                return game_id

    def create_game(self, edition: str, names: list, options: dict | None) -> dict:
        """Create a game and its tokens: {"game_id", "banker_token", "players", "state"}.

        `players` lists the created state's players (one per partnership with teams) with
        their token. The core's BadCommand/DomainError pass through; nothing is stored then.
        """
        game_id = self._new_game_id()
        state = rules.new_game(game_id, edition, names, options)
        return self._add_game(game_id, edition, names, options, state)

    def _add_game(self, game_id, edition, names, options, state, log=None) -> dict:
        """Store a new game with fresh tokens (and `log(db)`'s rows) in one transaction."""
        banker_token, display_token = new_secret(), new_secret()
        players = [
            {"id": p["id"], "name": p["name"], "token": new_secret()}
            for p in rules.public_state(state)["players"]
        ]
        with self._transaction() as db:
            db["games"].insert(
                {
                    "id": game_id,
                    "edition": edition,
                    "names": _dumps(names),
                    "options": _dumps(options),
                    "banker_token": banker_token,
                    "version": state["version"],
                    "state": _dumps(state),
                    "created_at": self.clock(),
                    "display_token": display_token,
                }
            )
            db["player_tokens"].insert_all(
                {"token": p["token"], "game_id": game_id, "player_id": p["id"], "revoked": 0}
                for p in players
            )
            if log is not None:
                log(db)
        game = _Game(state, banker_token, {p["token"]: p["id"] for p in players}, display_token)
        with self._games_lock:
            self._games[game_id] = game
        return {
            "game_id": game_id,
            "banker_token": banker_token,
            "display_token": display_token,
            "players": players,
            "state": state,
        }

    def _game(self, game_id: str) -> _Game:
        """The in-memory entry of a game, loaded from the database the first time."""
        with self._games_lock:
            game = self._games.get(game_id)
            if game is None:
                db = self._db()
                row = db.execute(
                    "select banker_token, state, display_token from games where id = ?", [game_id]
                ).fetchone()
                if row is None:
                    raise GameNotFound(f"There is no game {game_id!r}.")
                tokens = db.execute(
                    "select token, player_id from player_tokens where game_id = ? and not revoked",
                    [game_id],
                ).fetchall()
                display_token = row[2]
                if display_token is None:  # a game stored before displays existed
                    display_token = new_secret()
                    with self._transaction() as tx:
                        tx.execute(
                            "update games set display_token = ? where id = ?",
                            [display_token, game_id],
                        )
                game = _Game(json.loads(row[1]), row[0], dict(tokens), display_token)
                self._games[game_id] = game
            return game

    def state(self, game_id: str) -> dict:
        """The game's current internal state (treat it as read-only)."""
        return self._game(game_id).state

    def role(self, game_id: str, token: str) -> str | None:
        """Who `token` is in this game: "banker", a player id, "display", or None (a stranger,
        or a token replaced by a new link)."""
        game = self._game(game_id)
        if same_token(token, game.banker_token):
            return "banker"
        if same_token(token, game.display_token):
            return "display"
        for player_token, player_id in game.player_tokens.items():
            if same_token(token, player_token):
                return player_id
        return None

    def players(self, game_id: str) -> list[dict]:
        """The game's players with their tokens: [{"id", "name", "token"}] in seating order."""
        game = self._game(game_id)
        token_of = {player_id: token for token, player_id in game.player_tokens.items()}
        return [
            {"id": p["id"], "name": p["name"], "token": token_of.get(p["id"])}
            for p in rules.public_state(game.state)["players"]
        ]

    def find_player_token(self, token: str) -> tuple[str, str] | None:
        """(game id, player id) for a player's token, or None when unknown or revoked."""
        return (
            self._db()
            .execute(
                "select game_id, player_id from player_tokens where token = ? and not revoked",
                [token],
            )
            .fetchone()
        )

    def banker_token(self, game_id: str) -> str:
        """The banker token of a game."""
        return self._game(game_id).banker_token

    def display_token(self, game_id: str) -> str:
        """The display token of a game (its big screen's link)."""
        return self._game(game_id).display_token

    def game_for_display_token(self, token: str) -> str | None:
        """The game whose current display token is `token`, else None; from memory after once."""
        game_id = self._display_games.get(token)
        if game_id is None:
            row = (
                self._db()
                .execute("select id from games where display_token = ?", [token])
                .fetchone()
            )
            if row is None:
                return None
            game_id = row[0]
        if not same_token(token, self._game(game_id).display_token):
            self._display_games.pop(token, None)
            return None
        self._display_games[token] = game_id
        return game_id

    def mark_moved(self, game_id: str, moved_to: str) -> None:
        """Record that `game_id` was resumed as `moved_to` (its players follow the copy)."""
        self._game(game_id)
        with self._transaction() as db:
            db["moved_games"].upsert({"game_id": game_id, "moved_to": moved_to}, pk="game_id")
        self._moved[game_id] = moved_to

    def moved_to(self, game_id: str) -> str | None:
        """The game `game_id` was resumed as, if it moved; else None (read once, then kept)."""
        if game_id not in self._moved:
            row = (
                self._db()
                .execute("select moved_to from moved_games where game_id = ?", [game_id])
                .fetchone()
            )
            self._moved[game_id] = row[0] if row else None
        return self._moved[game_id]

    def token_revoked(self, token: str, game_id: str | None = None) -> str | None:
        """The seat ("banker", "display" or a player id) `token` was replaced for (in game
        `game_id`, when given), else None."""
        db = self._db()
        row = db.execute(
            "select seat, game_id from revoked_tokens where token = ?", [token]
        ).fetchone()
        if row is None:
            row = db.execute(
                "select player_id, game_id from player_tokens where token = ? and revoked",
                [token],
            ).fetchone()
        if row is None or (game_id is not None and row[1] != game_id):
            return None
        return row[0]

    # -- player links and cheap version checks ---------------------------------------------------

    def version(self, game_id: str) -> int:
        """The game's current version, from memory."""
        return self._game(game_id).state["version"]

    def player_by_token(self, token: str) -> tuple[str, str] | None:
        """(game id, player id) for a current player token, else None; from memory after once.

        A player's page polls this every second or so: only the first look at a token reads
        SQLite. A token replaced by rotate_player_token is refused at once.
        """
        game_id = self._token_games.get(token)
        if game_id is None:
            found = self.find_player_token(token)
            if found is None:
                return None
            game_id = found[0]
            self._token_games[token] = game_id
        player_id = self._game(game_id).player_tokens.get(token)
        if player_id is None:
            return None
        return game_id, player_id

    def player_token_revoked(self, token: str) -> bool:
        """Whether `token` was a player's token that the Banker has since replaced."""
        row = (
            self._db()
            .execute("select 1 from player_tokens where token = ? and revoked", [token])
            .fetchone()
        )
        return row is not None

    def new_token(self, game_id: str, seat: str) -> str:
        """A new token for a seat ("banker", "display" or a player id): its new link. The seat's
        old token stops working at once (API, pages, polls); token_revoked() then names the seat.
        An unknown seat raises UnknownSeat (400) and changes nothing."""
        game = self._game(game_id)
        if seat not in ("banker", "display"):
            if not isinstance(seat, str) or all(p["id"] != seat for p in game.state["players"]):
                raise UnknownSeat(
                    f"There is no seat {seat!r} in game {game_id!r}: ask for "
                    '"banker", "display" or a player id.'
                )
            return self.rotate_player_token(game_id, seat)
        with game.lock:
            token, old = new_secret(), getattr(game, f"{seat}_token")
            with self._transaction() as db:
                db["revoked_tokens"].insert({"token": old, "game_id": game_id, "seat": seat})
                db.execute(f"update games set {seat}_token = ? where id = ?", [token, game_id])
            setattr(game, f"{seat}_token", token)
            self._display_games.pop(old, None)
            return token

    def remove_game(self, game_id: str) -> None:
        """Delete a game and everything recorded of it (`banker games --remove`)."""
        with self._transaction() as db:
            if db.execute("select 1 from games where id = ?", [game_id]).fetchone() is None:
                raise GameNotFound(f"There is no game {game_id!r}.")
            for table in ("events", "commands", "player_tokens", "revoked_tokens"):
                db.execute(f"delete from {table} where game_id = ?", [game_id])
            db.execute("delete from games where id = ?", [game_id])
        with self._games_lock:
            self._games.pop(game_id, None)
        for cache in (self._token_games, self._display_games):
            for token in [t for t, g in cache.items() if g == game_id]:
                cache.pop(token, None)

    def rotate_player_token(self, game_id: str, player_id: str) -> str:
        """Give a player a new token (their new link); their old one stops working at once."""
        game = self._game(game_id)
        with game.lock:
            if all(p["id"] != player_id for p in game.state["players"]):
                raise PlayerNotFound(f"There is no player {player_id!r} in game {game_id!r}.")
            token = new_secret()
            with self._transaction() as db:
                db.execute(
                    "update player_tokens set revoked = 1 "
                    "where game_id = ? and player_id = ? and not revoked",
                    [game_id, player_id],
                )
                db["player_tokens"].insert(
                    {"token": token, "game_id": game_id, "player_id": player_id, "revoked": 0}
                )
            # A new dict swapped in whole: role() may be iterating the old one in another thread.
            old = [t for t, p in game.player_tokens.items() if p == player_id]
            tokens = {t: p for t, p in game.player_tokens.items() if p != player_id}
            tokens[token] = player_id
            game.player_tokens = tokens
            for t in old:
                self._token_games.pop(t, None)
            return token

    def saw(self, game_id: str, player_id: str) -> None:
        """Note that this player's page polled just now (memory only)."""
        self._seen[(game_id, player_id)] = time.monotonic()

    def following(self, game_id: str) -> set[str]:
        """The players whose page polled in the last FOLLOWING_SECONDS: their phone follows."""
        since = time.monotonic() - FOLLOWING_SECONDS
        seen = list(self._seen.items())  # a copy: polls write from other threads
        return {pid for (gid, pid), at in seen if gid == game_id and at >= since}

    def recent_events(self, game_id: str, limit: int) -> list[dict]:
        """The game's `limit` latest events not undone, newest first: [{"seq","type","text"}]."""
        self._game(game_id)
        rows = self._db().execute(
            "select seq, type, text from events where game_id = ? and not undone "
            "order by seq desc limit ?",
            [game_id, limit],
        )
        return [{"seq": seq, "type": type_, "text": text} for seq, type_, text in rows]

    # -- commands and events -------------------------------------------------------------------

    def execute(
        self,
        game_id: str,
        command: dict,
        *,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        authorize: Callable[[dict], None] | None = None,
        key_scope: str = "",
    ) -> Answer:
        """Apply one command to a game and record it; return the answer for the API.

        In order, under the game's lock: `authorize(state)` may raise to refuse (unless the
        exception is marked `replayable` and this very command was accepted before with this
        key and scope: a double tap on a Buy that has since been bought is still its replay);
        an answer already given for `idempotency_key` within `key_scope` (the API's:
        key_scope(token)) is returned as it was; a stale `expected_version` raises
        VersionConflict; the core applies the command (its refusals pass through). Only then
        is anything written, all in one transaction: only accepted commands' answers are
        remembered. After any exception nothing changed.
        """
        game = self._game(game_id)
        with game.lock:
            state = game.state
            row = None
            if idempotency_key is not None:
                row = (
                    self._db()
                    .execute(
                        "select response, command from commands "
                        "where game_id = ? and key_scope = ? and idempotency_key = ?",
                        [game_id, key_scope, idempotency_key],
                    )
                    .fetchone()
                )
            if authorize is not None:
                try:
                    authorize(state)
                except Exception as e:
                    same = row is not None and json.loads(row[1]) == command
                    if not (same and getattr(e, "replayable", False)):
                        raise
            if row is not None:
                return Answer(json.loads(row[0]), row[0], replayed=True)
            if expected_version is not None and expected_version != state["version"]:
                raise VersionConflict(
                    f"The game is at version {state['version']}, not {expected_version}; "
                    "reload it and try again."
                )
            new_state, events = rules.apply(state, command)
            version = new_state["version"]
            body = {
                "version": version,
                "events": [{"seq": e["seq"], "type": e["type"], "text": e["text"]} for e in events],
                "state": rules.public_state(new_state),
            }
            text = _dumps(body)
            at = self.clock()
            with self._transaction() as db:
                db["commands"].insert(
                    {
                        "game_id": game_id,
                        "version": version,
                        "command": _dumps(command),
                        "idempotency_key": idempotency_key,
                        "key_scope": key_scope,
                        "response": NO_ANSWER if idempotency_key is None else text,
                        "at": at,
                    }
                )
                if idempotency_key is not None:
                    _forget_old_answers(db, game_id)
                if command.get("type") == "roll":
                    _keep_story_state(db, game_id, state)
                db["events"].insert_all(
                    {
                        "game_id": game_id,
                        "seq": e["seq"],
                        "version": version,
                        "type": e["type"],
                        "text": e["text"],
                        "data": _dumps({k: v for k, v in e.items() if k not in _EVENT_COLUMNS}),
                        "at": at,
                        "undone": 0,
                    }
                    for e in events
                )
                undid = [seq for e in events if e["type"] == "undone" for seq in e.get("undid", [])]
                if undid:
                    marks = ", ".join("?" for _ in undid)
                    db.execute(
                        f"update events set undone = 1 where game_id = ? and seq in ({marks})",
                        [game_id, *undid],
                    )
                db.execute(
                    "update games set version = ?, state = ? where id = ?",
                    [version, _dumps(new_state), game_id],
                )
            # Only a committed command becomes the current state.
            game.state = new_state
            return Answer(body, text)

    def events(self, game_id: str) -> list[dict]:
        """Every accepted event of a game, oldest first: [{"seq","type","text","at","undone"}]."""
        self._game(game_id)
        rows = self._db().execute(
            "select seq, type, text, at, undone from events where game_id = ? order by seq",
            [game_id],
        )
        return [
            {"seq": seq, "type": type_, "text": text, "at": at, "undone": bool(undone)}
            for seq, type_, text, at, undone in rows
        ]

    def latest_events(self, game_id: str) -> list[dict]:
        """The events of the game's latest accepted command: [{"seq","type","text","undone"}]."""
        version = self._game(game_id).state["version"]
        rows = self._db().execute(
            "select seq, type, text, undone from events where game_id = ? and version = ? "
            "order by seq",
            [game_id, version],
        )
        return [
            {"seq": seq, "type": type_, "text": text, "undone": bool(undone)}
            for seq, type_, text, undone in rows
        ]

    def list_games(self) -> list[dict]:
        """Every game, latest first: [{"game_id","edition","names","status","version","at"}]."""
        rows = self._db().execute(
            "select g.id, g.edition, g.names, g.version, g.created_at, "
            "json_extract(g.state, '$.status'), "
            "(select max(at) from commands c where c.game_id = g.id) "
            "from games g"
        )
        games = [
            {
                "game_id": game_id,
                "edition": edition,
                "names": json.loads(names),
                "status": status,
                "version": version,
                "at": last or created or "",
            }
            for game_id, edition, names, version, created, status, last in rows
        ]
        return sorted(games, key=lambda g: g["at"], reverse=True)

    def commands(self, game_id: str) -> list[dict]:
        """Every accepted command of a game, in the order it was applied."""
        self._game(game_id)
        rows = self._db().execute(
            "select command from commands where game_id = ? order by version", [game_id]
        )
        return [json.loads(command) for (command,) in rows]

    def replayed_state(self, game_id: str) -> dict:
        """The game's state rebuilt from its creation and stored commands (a check of the log)."""
        row = (
            self._db()
            .execute("select edition, names, options from games where id = ?", [game_id])
            .fetchone()
        )
        if row is None:
            raise GameNotFound(f"There is no game {game_id!r}.")
        edition, names, options = row
        return rules.replay(
            game_id, edition, json.loads(names), json.loads(options), self.commands(game_id)
        )

    # -- bounded storage (issue 12) ---------------------------------------------------------------

    def game_count(self) -> int:
        """How many games the database holds (the ceiling on new games counts them)."""
        return self._db().execute("select count(*) from games").fetchone()[0]

    def known_games(self, game_ids: list[str]) -> list[dict]:
        """The games among `game_ids` (at most 100 looked at), as list_games gives them: a home
        page reads only the games its browser knows, never every game of the server."""
        ids = list(dict.fromkeys(i for i in game_ids if i))[:100]
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = self._db().execute(
            "select g.id, g.edition, g.names, g.version, g.created_at, "
            "json_extract(g.state, '$.status'), "
            "(select max(at) from commands c where c.game_id = g.id) "
            f"from games g where g.id in ({marks})",
            ids,
        )
        games = [
            {
                "game_id": game_id,
                "edition": edition,
                "names": json.loads(names),
                "status": status,
                "version": version,
                "at": last or created or "",
            }
            for game_id, edition, names, version, created, status, last in rows
        ]
        return sorted(games, key=lambda g: g["at"], reverse=True)

    # -- the story of a game (issue 16): cheap reads for banker.story ------------------------------

    STORY_EVENT_TYPES = ("started", "rolled", "paid", "rent_claim_opened", "rent_asked")

    def story_events(self, game_id: str) -> list[dict]:
        """The events banker.story reads, not undone, oldest first, with their data.

        [{"seq", "version", "type", "at", "text" (rent claims' only, else ""), **data}]; only
        STORY_EVENT_TYPES, so that a long game's story reads a few thousand small rows.
        """
        self._game(game_id)
        marks = ", ".join("?" for _ in self.STORY_EVENT_TYPES)
        rows = self._db().execute(
            "select seq, version, type, at, "
            "case when type = 'rent_claim_opened' then text else '' end, data from events "
            f"where game_id = ? and not undone and type in ({marks}) order by seq",
            [game_id, *self.STORY_EVENT_TYPES],
        )
        return [
            {**json.loads(data), "seq": seq, "version": v, "type": t, "at": at, "text": text}
            for seq, v, t, at, text, data in rows
        ]

    def states_at(self, game_id: str, versions) -> dict[int, dict]:
        """The players and deeds right after each of these versions' commands:
        {version: {"players": [...], "properties": {...}}} as in the public state.

        Read from the answers stored with the commands (version 0, before any command, has
        none: it is left out).
        """
        wanted = sorted({int(v) for v in versions if int(v) > 0})
        states: dict[int, dict] = {}
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = self._db().execute(
                "select version, json_extract(response, '$.state.players'), "
                "json_extract(response, '$.state.properties') from commands "
                f"where game_id = ? and version in ({marks}) and response != ''",
                [game_id, *chunk],
            )
            states.update(
                (v, {"players": json.loads(players), "properties": json.loads(props)})
                for v, players, props in rows
            )
        return states

    def time_span(self, game_id: str) -> tuple[str | None, str | None]:
        """When the game's first and latest commands were recorded (ISO UTC), or Nones."""
        row = (
            self._db()
            .execute("select min(at), max(at) from commands where game_id = ?", [game_id])
            .fetchone()
        )
        return row[0], row[1]

    # -- snapshots (pause and resume) ------------------------------------------------------------

    def snapshot(self, game_id: str) -> dict:
        """The game as a snapshot document (see banker.snapshot), read at one version."""
        game = self._game(game_id)
        with game.lock:  # no command of this game is half-way between the reads below
            db = self._db()
            edition, names, options, created_at = db.execute(
                "select edition, names, options, created_at from games where id = ?", [game_id]
            ).fetchone()
            commands = [
                {"version": version, "at": at, "command": json.loads(command)}
                for version, at, command in db.execute(
                    "select version, at, command from commands where game_id = ? order by version",
                    [game_id],
                )
            ]
            events = [
                {"seq": seq, "version": v, "type": t, "text": text, "at": at, "undone": bool(u)}
                for seq, v, t, text, at, u in db.execute(
                    "select seq, version, type, text, at, undone from events "
                    "where game_id = ? order by seq",
                    [game_id],
                )
            ]
            state = game.state
        return snapshots.build(
            game_id,
            edition,
            json.loads(names),
            json.loads(options),
            created_at,
            commands,
            events,
            state,
            exported_at=self.clock(),
        )

    def import_snapshot(self, doc: dict) -> dict:
        """Resume a snapshot as a new game with fresh tokens; the same answer as create_game.

        The snapshot is checked and replayed first (banker.snapshot.check); a refusal raises
        SnapshotRefused and nothing is stored. The new game carries the whole log: its
        commands, its events (undone marks and times included) and the replayed state.
        """
        game_id = self._new_game_id()
        try:
            checked = snapshots.check(doc, game_id)
        except snapshots.SnapshotError as e:
            raise SnapshotRefused(e.status, e.code, e.message) from None

        commands, events = _log_rows(game_id, checked)

        def log(db: sqlite_utils.Database) -> None:
            # Rows made before the write lock is taken: the lock is held only to insert them.
            db.conn.executemany(
                "insert into commands (game_id, version, command, idempotency_key, response, at)"
                " values (?, ?, ?, null, ?, ?)",
                commands,
            )
            db.conn.executemany(
                "insert into events (game_id, seq, version, type, text, data, at, undone)"
                " values (?, ?, ?, ?, ?, ?, ?, ?)",
                events,
            )

        return self._add_game(
            game_id, checked.edition, checked.names, checked.options, checked.state, log
        )


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
    src = sqlite_utils.Database(sqlite3.connect(source, timeout=10))
    try:
        dst = sqlite3.connect(partial)
        try:
            src.conn.backup(dst)
            # The copy stands alone: no -wal file beside it (a server turns WAL back on).
            dst.execute("PRAGMA journal_mode=DELETE")
            (verdict,) = dst.execute("PRAGMA integrity_check").fetchone()
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"The copy failed its integrity check: {verdict}")
            games = dst.execute("select count(*) from games").fetchone()[0]
        finally:
            dst.close()
        os.replace(partial, target)
    finally:
        src.conn.close()
        partial.unlink(missing_ok=True)
    return games


_EVENT_COLUMNS = {"seq", "type", "text"}

# -- bounded storage (issue 12) ------------------------------------------------------------------

NO_ANSWER = ""  # the `response` of a command sent without an Idempotency-Key: nothing to repeat
KEPT_ANSWERS = 300  # the answers kept per game, for the latest keyed commands


def _log_rows(game_id: str, checked) -> tuple[list[tuple], list[tuple]]:
    """The commands and events rows of an imported game. Keys belong to the game they were sent
    to, and answers are kept only for keyed commands: an imported command keeps none, only,
    before a roll, the players and deeds the story reads."""
    commands = [
        (
            game_id,
            c["version"],
            _dumps(c["command"]),
            _dumps(c["story"]) if c["story"] else NO_ANSWER,
            c["at"],
        )
        for c in checked.commands
    ]
    events = [
        (
            game_id,
            e["seq"],
            c["version"],
            e["type"],
            e["text"],
            _dumps({k: v for k, v in e.items() if k not in _EVENT_COLUMNS}),
            checked.events_at[e["seq"]],
            int(e["seq"] in checked.undone),
        )
        for c in checked.commands
        for e in c["events"]
    ]
    return commands, events


def _forget_old_answers(db: sqlite_utils.Database, game_id: str) -> None:
    """Keep the answers (and keys) of only the game's latest KEPT_ANSWERS keyed commands: a
    retry comes seconds after its command, and a long game's log stays proportional to its
    events. A forgotten key is new again (a client never reuses one after minutes). An answer
    whose state the story reads (the state just before a roll, see states_at) keeps only what
    the story reads of it (snapshot.story_of)."""
    rows = db.execute(
        "select version, response, exists (select 1 from commands n where n.game_id = ? "
        "  and n.version = c.version + 1 and json_extract(n.command, '$.type') = 'roll') "
        "from commands c where game_id = ? and idempotency_key is not null and version <= ("
        "  select version from commands where game_id = ? and idempotency_key is not null"
        "  order by version desc limit 1 offset ?)",
        [game_id, game_id, game_id, KEPT_ANSWERS],
    ).fetchall()
    for version, response, before_roll in rows:
        kept = NO_ANSWER
        if before_roll and response:
            kept = _dumps(snapshots.story_of(json.loads(response)["state"]))
        db.execute(
            "update commands set idempotency_key = null, response = ? "
            "where game_id = ? and version = ?",
            [kept, game_id, version],
        )


def story_state(state: dict) -> str:
    """What the story keeps of the state just before a roll (snapshot.story_of)."""
    return _dumps(snapshots.story_of(rules.public_state(state)))


def _keep_story_state(db: sqlite_utils.Database, game_id: str, before: dict) -> None:
    """A roll is about to be recorded: the command before it keeps the state the story reads
    (unless it kept its whole answer, for its Idempotency-Key)."""
    if before["version"] > 0:
        db.execute(
            "update commands set response = ? where game_id = ? and version = ? and response = ?",
            [story_state(before), game_id, before["version"], NO_ANSWER],
        )
