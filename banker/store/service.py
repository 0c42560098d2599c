"""The game service: create a game, apply its commands one at a time, import a snapshot, and
answer. Each accepted command is one transaction (its `commands` row, its `events` rows and
the game's new state); the current state is also kept in memory, so a command never replays
the log."""

from __future__ import annotations

import itertools
import json
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

from banker import rules
from banker import snapshot as snapshots
from banker.store import log
from banker.store.answer import Answer
from banker.store.database import Database, dumps, utc_now
from banker.store.errors import GameNotFound, KeyReused, SnapshotRefused, VersionConflict
from banker.store.kept import KeptGame
from banker.store.reads import Reads
from banker.store.tokens import TokenIndex, new_secret, seat_changes

# Game ids are read aloud at the table: no look-alike characters (0/o, 1/l/i).
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_ID_LENGTH = 8
# A player's page polls about every 700 ms: seen within this many seconds, it follows the game.
FOLLOWING_SECONDS = 5.0


class Store(Database, TokenIndex, Reads):
    """The games of one SQLite file: create them, run their commands, read them back."""

    # The states of at most this many games stay in memory (the most recently used); another
    # game's is read back from the database when next used (about 0.2 ms).
    KEEP_STATES = 40

    def __init__(self, path: str | Path, clock: Callable[[], str] = utc_now):
        self.clock = clock
        self._games: dict[str, KeptGame] = {}
        # The games whose state is in memory (about KEEP_STATES of them), under _games_lock.
        self._loaded: dict[KeptGame, None] = {}
        self._games_lock = threading.Lock()
        self._uses = itertools.count()
        self._init_tokens()
        self._moved: dict[str, str | None] = {}  # game id -> the game it moved to (or None)
        # (game id, player id) -> time.monotonic() of that player's page's latest poll.
        self._seen: dict[tuple[str, str], float] = {}
        # Called as watcher(game_id, what) after a game changed: "version" (a command
        # committed), "changed" (resumed elsewhere), "tokens" (a link replaced). The push hub
        # (banker.net.push) listens; a watcher must be quick and must not raise.
        self.watchers: list[Callable[[str, str], None]] = []
        Database.__init__(self, path)

    # -- games ---------------------------------------------------------------------------------

    def _new_game_id(self) -> str:
        # A collision between two threads at once would fail on the primary key, not overwrite.
        while True:
            game_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(_ID_LENGTH))
            if self._one("select 1 from games where id = ?", [game_id]) is None:
                return game_id

    def create_game(self, edition: str, names: list, options: dict | None) -> dict:
        """Create a game and its tokens: {"game_id", "banker_token", "players", "state"}.

        `players` lists the created state's players (one per partnership with teams) with
        their token. The core's BadCommand/DomainError pass through; nothing is stored then.
        """
        game_id = self._new_game_id()
        state = rules.new_game(game_id, edition, names, options)
        return self._add_game(game_id, edition, names, options, state)

    def _add_game(self, game_id, edition, names, options, state, rows=None) -> dict:
        """Store a new game with fresh tokens (and `rows(db)`'s log) in one transaction."""
        banker_token, display_token = new_secret(), new_secret()
        players = [
            {"id": p["id"], "name": p["name"], "token": new_secret()}
            for p in rules.public_state(state)["players"]
        ]
        base = log.undo_base(state, None)
        with self._transaction() as db:
            db["games"].insert(
                {
                    "id": game_id,
                    "edition": edition,
                    "names": dumps(names),
                    "options": dumps(options),
                    "banker_token": banker_token,
                    "version": state["version"],
                    "state": log.state_text(state),
                    "created_at": self.clock(),
                    "display_token": display_token,
                    "undo_base": base and base[1],
                }
            )
            db["player_tokens"].insert_all(
                {"token": p["token"], "game_id": game_id, "player_id": p["id"], "revoked": 0}
                for p in players
            )
            if rows is not None:
                rows(db)
        tokens = {p["token"]: p["id"] for p in players}
        game = KeptGame(state, banker_token, tokens, display_token, load=self._loader(game_id),
                     base_version=base and base[0], loaded=self._state_loaded)  # fmt: skip
        with self._games_lock:
            self._games[game_id] = game
            self._loaded[game] = None
            game.used = next(self._uses)
            self._keep_few_states()
        return {
            "game_id": game_id,
            "banker_token": banker_token,
            "display_token": display_token,
            "players": players,
            "state": state,
        }

    def _game(self, game_id: str) -> KeptGame:
        """The in-memory entry of a game, loaded from the database the first time."""
        game = self._games.get(game_id)
        if game is None:
            with self._games_lock:
                game = self._games.get(game_id)
                if game is None:
                    game = self._load_game(game_id)
                    self._games[game_id] = game
                    self._loaded[game] = None
                    game.used = next(self._uses)
                    self._keep_few_states()
        game.used = next(self._uses)
        return game

    def _loader(self, game_id: str) -> Callable[[], dict]:
        """How a game's forgotten state is read back."""

        def load() -> dict:
            row = self._one("select state from games where id = ?", [game_id])
            if row is None:  # removed meanwhile (`banker games --remove`)
                raise GameNotFound(f"There is no game {game_id!r}.")
            return json.loads(row["state"])

        return load

    def _state_loaded(self, game: KeptGame) -> None:
        """KeptGame.loaded: its state was read back (under the game's lock)."""
        with self._games_lock:
            self._loaded[game] = None
            self._keep_few_states()

    def _keep_few_states(self) -> None:
        """Forget the states of the least recently used games beyond KEEP_STATES (under
        _games_lock). Only the games whose state is in memory are looked at: a command's cost
        does not grow with the number of games (a thousand live tables)."""
        if len(self._loaded) <= self.KEEP_STATES:
            return
        loaded = sorted(self._loaded, key=lambda g: g.used)
        for game in loaded[: len(loaded) - self.KEEP_STATES]:
            if game._state is None or game.forget_state():
                del self._loaded[game]

    def _load_game(self, game_id: str) -> KeptGame:
        row = self._one(
            "select banker_token, state, display_token, "
            "json_extract(undo_base, '$.version') as base_version from games where id = ?",
            [game_id],
        )
        if row is None:
            raise GameNotFound(f"There is no game {game_id!r}.")
        tokens = self._db().query(
            "select token, player_id from player_tokens where game_id = ? and not revoked",
            [game_id],
        )
        display_token = row["display_token"]
        if display_token is None:  # a game stored before displays existed
            display_token = new_secret()
            with self._transaction() as tx:
                tx["games"].update(game_id, {"display_token": display_token})
        started = self._one(
            "select json_extract(data, '$.player') as first from events "
            "where game_id = ? and type = 'started' and not undone",
            [game_id],
        )
        return KeptGame(
            json.loads(row["state"]),
            row["banker_token"],
            {t["token"]: t["player_id"] for t in tokens},
            display_token,
            rounds=log.RoundTracker(started and started["first"]),
            load=self._loader(game_id),
            loaded=self._state_loaded,
            base_version=row["base_version"],
        )

    def state(self, game_id: str) -> dict:
        """The game's current internal state (treat it as read-only), undo's changes included
        (re-derived once for a row written by an earlier banker)."""
        game = self._game(game_id)
        state = game.state
        if log.needs_replay(state):
            with game.lock:
                state = game.state
                if log.needs_replay(state):
                    state = game.state = self._full_state(game_id, state)
        return state

    def version(self, game_id: str) -> int:
        """The game's current version, from memory."""
        return self._game(game_id).version

    def remove_game(self, game_id: str) -> None:
        """Delete a game and everything recorded of it (`banker games --remove`)."""
        with self._transaction() as db:
            if self._one("select 1 from games where id = ?", [game_id]) is None:
                raise GameNotFound(f"There is no game {game_id!r}.")
            for table in ("events", "commands", "player_tokens", "revoked_tokens"):
                db.execute(f"delete from {table} where game_id = ?", [game_id])
            db.execute("delete from games where id = ?", [game_id])
        with self._games_lock:
            game = self._games.pop(game_id, None)
            self._loaded.pop(game, None)
        self._forget_tokens_of(game_id)

    def mark_moved(self, game_id: str, moved_to: str) -> None:
        """Record that `game_id` was resumed as `moved_to` (its players follow the copy)."""
        self._game(game_id)
        with self._transaction() as db:
            db["moved_games"].upsert({"game_id": game_id, "moved_to": moved_to}, pk="game_id")
        self._moved[game_id] = moved_to
        self.tell(game_id, "changed")

    def tell(self, game_id: str, what: str = "version") -> None:
        """Tell the watchers that a game changed."""
        for watcher in self.watchers:
            watcher(game_id, what)

    def moved_to(self, game_id: str) -> str | None:
        """The game `game_id` was resumed as, if it moved; else None (read once, then kept)."""
        if game_id not in self._moved:
            row = self._one("select moved_to from moved_games where game_id = ?", [game_id])
            self._moved[game_id] = row["moved_to"] if row else None
        return self._moved[game_id]

    def saw(self, game_id: str, player_id: str) -> None:
        """Note that this player's page polled just now (memory only)."""
        self._seen[(game_id, player_id)] = time.monotonic()

    def following(self, game_id: str) -> set[str]:
        """The players whose page polled in the last FOLLOWING_SECONDS: their phone follows."""
        since = time.monotonic() - FOLLOWING_SECONDS
        seen = list(self._seen.items())  # a copy: polls write from other threads
        return {pid for (gid, pid), at in seen if gid == game_id and at >= since}

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
        seat: str | None = None,
    ) -> Answer:
        """Apply one command to a game and record it; return the answer for the API.

        In order, under the game's lock: `authorize(state)` may raise to refuse (unless the
        exception is marked `replayable` and this very command was accepted before with this
        key and scope: a double tap on a Buy that has since been bought is still its replay);
        an answer already given for `idempotency_key` within `key_scope` (the API's:
        key_scope(token)) is returned as it was if the command and its `expected_version` are
        the same (the same JSON value: key order and spacing do not count), else KeyReused
        (422); a stale `expected_version` raises VersionConflict; the core applies the command
        (its refusals pass through; `seat`, who sends it, for its words: rules.apply). Only
        then is anything written, all in one transaction: only accepted commands' answers are
        remembered. After any exception nothing changed.
        """
        game = self._game(game_id)
        keyed = (idempotency_key, key_scope, expected_version)
        with game.lock:
            state = game.state
            replay = self._authorized_replay(game_id, state, command, keyed, authorize)
            if replay is not None:
                return replay
            if expected_version is not None and expected_version != state["version"]:
                raise VersionConflict(
                    f"The game is at version {state['version']}, not {expected_version}; "
                    "reload it and try again."
                )
            # A state read back from its row lacks its undo entries' states until an undo needs
            # them (log.state_text): every other command only appends to them.
            undo = isinstance(command, dict) and command.get("type") == "undo"
            if undo and log.needs_replay(state):
                state = game.state = self._full_state(game_id, state)
            new_state, events = rules.apply(state, command, seat)
            answer = self._record(game, game_id, command, state, new_state, events, keyed)
            # Only a committed command becomes the current state.
            game.state = new_state
        self.tell(game_id)
        return answer

    def _authorized_replay(self, game_id, state, command, keyed, authorize) -> Answer | None:
        """Authorize the command (Store.execute); then the answer already given for its key,
        or None when the key is new; KeyReused when the key came with another command."""
        key, scope, expected_version = keyed
        earlier = None
        if key is not None:
            earlier = self._one(
                "select response, command, expected_version from commands "
                "where game_id = ? and key_scope = ? and idempotency_key = ?",
                [game_id, scope, key],
            )
        same = earlier is not None and _same_command(earlier, command, expected_version)
        if authorize is not None:
            try:
                authorize(state)
            except Exception as e:
                if not (same and getattr(e, "replayable", False)):
                    raise
        if earlier is None:
            return None
        if not same:
            raise KeyReused(
                "This Idempotency-Key was already used for another command in this game; send "
                "a new key with each new command. Nothing was done."
            )
        body = json.loads(earlier["response"])
        private = self.private_words(game_id, body["version"])
        return Answer(body, earlier["response"], replayed=True, private=private)

    def _full_state(self, game_id: str, state: dict) -> dict:
        """The game's state with every undo entry's changes, re-derived for a row written by an
        earlier banker (log.needs_replay): the row's `undo_base` (the bottom entry's state) and
        the stored commands after it, replayed through the core. The replay lands on `state`
        exactly (the core is pure) unless the rules changed since."""
        row = self._one("select undo_base from games where id = ?", [game_id])
        s = json.loads(row["undo_base"])
        s["_undo"] = []  # the command after the base began a new stack (a roll, or a stop)
        for c in self._db().query(
            "select command from commands where game_id = ? and version > ? and version <= ? "
            "order by version",
            [game_id, s["version"], state["version"]],
        ):
            s, _ = rules.apply(s, json.loads(c["command"]))
        if log.state_text(s) == log.state_text(state):
            return s
        # Recorded by a banker whose rules differed (a later fix): the stored state stands,
        # and each undo entry takes it back to the state the replay gives for its version.
        replayed = s["_undo"]
        if [log.undo_version(e) for e in replayed] != [log.undo_version(e) for e in state["_undo"]]:
            raise RuntimeError(f"Game {game_id}: its log does not replay to its undo entries.")
        entries = zip(state["_undo"], replayed, strict=True)
        return {**state, "_undo": [{**e, "changes": r["changes"]} for e, r in entries]}

    def _record(self, game, game_id, command, before, after, events, keyed) -> Answer:
        """Write one accepted command in one transaction (shared with other games' commands
        waiting at the same moment: Database._write); its answer, once committed. `keyed`:
        (Idempotency-Key or None, its scope, the expected_version sent or None)."""
        key, scope, expected = keyed
        version = after["version"]
        public = rules.public_state(after)
        said = [{"seq": e["seq"], "type": e["type"], "text": e["text"]} for e in events]
        private = [{k: e[k] for k in ("cash_of", "without_cash") if k in e} for e in events]
        body = {"version": version, "events": said, "state": public}
        public_text = dumps(public)
        # dumps(body), without serialising the state a second time.
        text = f'{{"version":{version},"events":{dumps(said)},"state":{public_text}}}'
        base = log.undo_base(after, game.base_version, game.row)
        seats = [p["id"] for p in public["players"]]
        starts, first, last = game.rounds.starts(events, seats)
        at = self.clock()
        row = log.state_text(after, public_text)
        added, gone = seat_changes(before, after)  # a latecomer's link, or an undo of one
        seated = {new_secret(): pid for pid in added}

        def write(db: sqlite_utils.Database) -> None:
            conn = db.conn
            conn.execute(
                log.INSERT_COMMAND,
                (game_id, version, dumps(command), key, scope,
                 log.NO_ANSWER if key is None else text, at, None if key is None else expected),
            )  # fmt: skip
            if key is not None:
                log.forget_old_answers(db, game_id, _kept_answers())
            if starts:
                log.keep_story_state(db, game_id, before)
            conn.executemany(log.INSERT_EVENT, log.event_rows(game_id, version, events, at))
            log.mark_undone(db, game_id, events)
            if seated or gone:
                self._write_seats(db, game_id, seated, gone)
            if base is None:
                conn.execute(
                    "update games set version = ?, state = ? where id = ?", [version, row, game_id]
                )
            else:  # a new bottom of the undo stack (a roll): its state, once
                conn.execute(
                    "update games set version = ?, state = ?, undo_base = ? where id = ?",
                    [version, row, base[1], game_id],
                )

        self._write(write)  # returns once committed: a group commit with other games'
        if seated or gone:
            self._seats_written(game, seated, gone)
        game.row = version, row
        game.rounds.first, game.rounds.last = first, last
        if base is not None:
            game.base_version = base[0]
        return Answer(body, text, private=private)

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
        commands, events = log.imported_rows(game_id, checked)

        def rows(db: sqlite_utils.Database) -> None:
            # Rows made before the write lock is taken: the lock is held only to insert them.
            db.conn.executemany(log.INSERT_COMMAND, commands)
            db.conn.executemany(
                "insert into events (game_id, seq, version, type, text, data, at, undone)"
                " values (?, ?, ?, ?, ?, ?, ?, ?)",
                events,
            )

        return self._add_game(
            game_id, checked.edition, checked.names, checked.options, checked.state, rows
        )


def _same_command(earlier, command, expected_version) -> bool:
    """Whether a keyed command's row holds this very command: the same JSON value once parsed
    (key order and spacing do not count; 1, 1.0 and true do) and the same expected_version."""

    def canonical(value) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    stored = json.loads(earlier["command"])
    same = canonical(stored) == canonical(command)
    return same and earlier["expected_version"] == expected_version


def _kept_answers() -> int:
    """banker.store.KEPT_ANSWERS, read when used (a test may lower it)."""
    import banker.store

    return banker.store.KEPT_ANSWERS
