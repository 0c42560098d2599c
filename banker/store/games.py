"""The games in memory: each game's `GameInMemory` (its state while in use, its tokens, its lock),
read from the database on first use, its state forgotten while idle; where a game moved; which
players' pages follow it; and the watchers told when it changes."""

from __future__ import annotations

import itertools
import json
import secrets
import threading
import time
from collections.abc import Callable

from banker import rules
from banker.store import log
from banker.store.database import Database
from banker.store.errors import GameNotFound
from banker.store.memory import GameInMemory
from banker.store.tokens import new_secret

# Game ids are read aloud at the table: no look-alike characters (0/o, 1/l/i).
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_ID_LENGTH = 8
# A player's page polls about every 700 ms: seen within this many seconds, it follows the game.
FOLLOWING_SECONDS = 5.0


class Games:
    """The store's games as kept in memory: `get(game_id)` (a GameInMemory), `state`, `version`,
    `add` (a game just written), `remove`; `moved_to`/`mark_moved`; `saw`/`following`;
    `watchers` and `tell`."""

    # The states of at most this many games stay in memory (the most recently used), besides
    # those followed by push (`live`); another game's is read back from the database when next
    # used (about 0.2 ms).
    KEEP_STATES = 40

    def __init__(self, database: Database):
        self.database = database
        self._in_memory: dict[str, GameInMemory] = {}
        # The games whose state is in memory (about KEEP_STATES of them), under _lock.
        self._loaded: dict[GameInMemory, None] = {}
        self._lock = threading.Lock()
        self._uses = itertools.count()
        self._moved: dict[str, str | None] = {}  # game id -> the game it moved to (or None)
        # game id -> {player id: time.monotonic() of that player's page's latest poll}.
        self._seen: dict[str, dict[str, float]] = {}
        # Called as watcher(game_id, what) after a game changed: "version" (a command
        # committed), "changed" (resumed elsewhere), "tokens" (a link replaced). The push hub
        # (banker.net.push) listens; a watcher must be quick and must not raise.
        self.watchers: list[Callable[[str, str], None]] = []

    def new_id(self) -> str:
        """An id no game has (a collision between two threads would fail on the primary key,
        not overwrite)."""
        while True:
            game_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(_ID_LENGTH))
            if self.database.one("select 1 from games where id = ?", [game_id]) is None:
                return game_id

    def add(self, game_id: str, game: GameInMemory) -> None:
        """Keep a game whose rows were just committed."""
        with self._lock:
            self._in_memory[game_id] = game
            self._note_loaded(game)

    def get(self, game_id: str) -> GameInMemory:
        """The in-memory entry of a game, loaded from the database the first time; GameNotFound
        when there is none."""
        game = self._in_memory.get(game_id)
        if game is None:
            with self._lock:
                game = self._in_memory.get(game_id)
                if game is None:
                    game = self._load(game_id)
                    self._in_memory[game_id] = game
                    self._note_loaded(game)
        game.used = next(self._uses)
        return game

    def loader(self, game_id: str) -> Callable[[], dict]:
        """How a game's forgotten state is read back."""

        def load() -> dict:
            row = self.database.one("select state from games where id = ?", [game_id])
            if row is None:  # removed meanwhile (`banker games --remove`)
                raise GameNotFound(f"There is no game {game_id!r}.")
            return log.read_state(row["state"])

        return load

    def state_loaded(self, game: GameInMemory) -> None:
        """GameInMemory.loaded: its state was read back (under the game's lock)."""
        with self._lock:
            self._note_loaded(game)

    def _note_loaded(self, game: GameInMemory) -> None:
        """(Under _lock.) The game's state is in memory; forget the states of the least
        recently used games beyond KEEP_STATES. Only the games whose state is in memory are
        looked at: a command's cost does not grow with the number of games."""
        self._loaded[game] = None
        game.used = next(self._uses)
        if len(self._loaded) <= self.KEEP_STATES:
            return
        idle = sorted((g for g in self._loaded if not g.live), key=lambda g: g.used)
        for old in idle[: len(idle) - self.KEEP_STATES]:
            if old.forgotten or old.forget_state():
                del self._loaded[old]

    def _load(self, game_id: str) -> GameInMemory:
        row = self.database.one(
            "select banker_token, state, display_token, "
            "json_extract(undo_base, '$.version') as base_version from games where id = ?",
            [game_id],
        )
        if row is None:
            raise GameNotFound(f"There is no game {game_id!r}.")
        tokens = self.database.connection().query(
            "select token, player_id from player_tokens where game_id = ? and not revoked",
            [game_id],
        )
        display_token = row["display_token"]
        if display_token is None:  # a game stored before displays existed
            display_token = new_secret()
            with self.database.transaction() as tx:
                tx["games"].update(game_id, {"display_token": display_token})
        started = self.database.one(
            "select json_extract(data, '$.player') as first from events "
            "where game_id = ? and type = 'started' and not undone",
            [game_id],
        )
        return GameInMemory(
            log.read_state(row["state"]),
            row["banker_token"],
            {t["token"]: t["player_id"] for t in tokens},
            display_token,
            rounds=log.RoundTracker(started and started["first"]),
            load=self.loader(game_id),
            loaded=self.state_loaded,
            base_version=row["base_version"],
        )

    def state(self, game_id: str) -> dict:
        """The game's current internal state (treat it as read-only), undo's changes included
        (re-derived once for a row written by an earlier banker)."""
        game = self.get(game_id)
        state = game.state
        if log.needs_replay(state):
            with game.lock:
                state = self.full_state(game, game_id)
        return state

    def full_state(self, game: GameInMemory, game_id: str) -> dict:
        """(Under the game's lock.) Its state with every undo entry's changes, which a row
        written by an earlier banker lacks (log.needs_replay): the row's `undo_base` (the
        bottom entry's state) and the stored commands after it, replayed through the core.
        The replay lands on the state exactly (the core is pure) unless the rules changed."""
        state = game.state
        if not log.needs_replay(state):
            return state
        row = self.database.one("select undo_base from games where id = ?", [game_id])
        s = log.read_state(row["undo_base"])
        s["_undo"] = []  # the command after the base began a new stack (a roll, or a stop)
        for c in self.database.connection().query(
            "select command from commands where game_id = ? and version > ? and version <= ? "
            "order by version",
            [game_id, s["version"], state["version"]],
        ):
            s, _ = rules.apply(s, json.loads(c["command"]))
        if log.state_text(s) != log.state_text(state):
            # Recorded by a banker whose rules differed (a later fix): the stored state stands,
            # and each undo entry takes it back to the state the replay gives for its version.
            replayed, stored = s["_undo"], state["_undo"]
            if [log.undo_version(e) for e in replayed] != [log.undo_version(e) for e in stored]:
                raise RuntimeError(f"Game {game_id}: its log does not replay to its undo entries.")
            entries = zip(stored, replayed, strict=True)
            s = {**state, "_undo": [{**e, "changes": r["changes"]} for e, r in entries]}
        game.state = s
        return s

    def version(self, game_id: str) -> int:
        """The game's current version, from memory."""
        return self.get(game_id).version

    def remove(self, game_id: str) -> None:
        """Delete a game and everything recorded of it (`banker games --remove`)."""
        with self.database.transaction() as db:
            if self.database.one("select 1 from games where id = ?", [game_id]) is None:
                raise GameNotFound(f"There is no game {game_id!r}.")
            for table in ("events", "commands", "player_tokens", "revoked_tokens"):
                db.execute(f"delete from {table} where game_id = ?", [game_id])
            db.execute("delete from games where id = ?", [game_id])
        with self._lock:
            game = self._in_memory.pop(game_id, None)
            self._loaded.pop(game, None)

    def mark_moved(self, game_id: str, moved_to: str) -> None:
        """Record that `game_id` was resumed as `moved_to` (its players follow the copy)."""
        self.get(game_id)
        with self.database.transaction() as db:
            db["moved_games"].upsert({"game_id": game_id, "moved_to": moved_to}, pk="game_id")
        self._moved[game_id] = moved_to
        self.tell(game_id, "changed")

    def moved_to(self, game_id: str) -> str | None:
        """The game `game_id` was resumed as, if it moved; else None (read once, then kept)."""
        if game_id not in self._moved:
            row = self.database.one("select moved_to from moved_games where game_id = ?", [game_id])
            self._moved[game_id] = row["moved_to"] if row else None
        return self._moved[game_id]

    def tell(self, game_id: str, what: str = "version") -> None:
        """Tell the watchers that a game changed."""
        for watcher in self.watchers:
            watcher(game_id, what)

    def saw(self, game_id: str, player_id: str) -> None:
        """Note that this player's page polled just now (memory only)."""
        self._seen.setdefault(game_id, {})[player_id] = time.monotonic()

    def following(self, game_id: str) -> set[str]:
        """The players whose page polled in the last FOLLOWING_SECONDS: their phone follows.
        (Only this game's polls are looked at: a page's cost does not grow with the games.)"""
        since = time.monotonic() - FOLLOWING_SECONDS
        seen = list(self._seen.get(game_id, {}).items())  # a copy: polls write meanwhile
        return {pid for pid, at in seen if at >= since}

    def live(self, game_id: str, pages: int) -> None:
        """`pages` more (or fewer) pages follow this game by push: while any does, its state
        stays in memory (every change of it is rendered for them at once), whatever
        KEEP_STATES says of the others."""
        game = self._in_memory.get(game_id)
        if game is not None:  # (one thread only, the push hub's loop, counts them)
            game.live = max(0, game.live + pages)
