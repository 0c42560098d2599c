"""The store: its parts (database, games, tokens, reads) and what changes a game: create it,
apply its commands one at a time, import a snapshot, and answer. Each accepted command is one
transaction (its `commands` row, its `events` rows and the game's new state); the current state
is also kept in memory, so a command never replays the log."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

from banker import rules
from banker import snapshot as snapshots
from banker.store import log
from banker.store.answer import Answer
from banker.store.database import Database, dumps, utc_now
from banker.store.errors import GameTooLong, KeyReused, SnapshotRefused, VersionConflict
from banker.store.games import Games
from banker.store.memory import GameInMemory
from banker.store.migrations import LEGACY_SCOPE, NOT_RECORDED
from banker.store.reads import Reads
from banker.store.tokens import Tokens, new_secret, seat_changes

REMEMBERED_ANSWERS = 300  # per game: the answers of its latest keyed commands, for their replay

# The parts' calls the app makes, offered on the Store as they are (store.role(...) is
# store.tokens.role(...)): a thin facade, so that a caller needs only the Store.
OFFERED = {
    "database": ("check_writable", "answers", "close"),
    "games": ("state", "version", "tell", "mark_moved", "moved_to", "saw", "following", "live"),
    "tokens": (
        "role", "players", "new_token", "rotate_player_token", "banker_token", "display_token",
        "find_player_token", "player_by_token", "game_for_display_token", "token_revoked",
        "player_token_revoked",
    ),
    "reads": (
        "events", "recent_events", "latest_events", "events_since", "offers_made", "list_games",
        "known_games", "game_count", "commands", "replayed_state", "snapshot", "story_events",
        "states_at", "time_span",
    ),
}  # fmt: skip


class Store:
    """The games of one SQLite file, in four parts: `database` (the file: connections,
    transactions, group commit), `games` (each game in memory: state, lock, tokens; where it
    moved; who follows it), `tokens` (who a token is, new links) and `reads` (the log read
    back). The Store itself runs what changes a game: `create_game`, `execute` (one command,
    written in one transaction) and `import_snapshot`. The parts' calls the app makes are
    offered here too, each answered by its part."""

    def __init__(self, path: str | Path, clock: Callable[[], str] = utc_now):
        self.clock = clock
        self.database = Database(path)
        self.games = Games(self.database)
        self.tokens = Tokens(self.database, self.games)
        self.reads = Reads(self.database, self.games, clock)
        self.remembered_answers = (
            REMEMBERED_ANSWERS  # per game: the answers of its latest keyed commands
        )
        self.path, self.watchers = self.database.path, self.games.watchers
        for part, calls in OFFERED.items():
            for call in calls:
                setattr(self, call, getattr(getattr(self, part), call))

    # -- games ---------------------------------------------------------------------------------

    def create_game(self, edition: str, names: list, options: dict | None) -> dict:
        """Create a game and its tokens: {"game_id", "banker_token", "players", "state"}.

        `players` lists the created state's players (one per partnership with teams) with
        their token. The core's BadCommand/DomainError pass through; nothing is stored then.
        """
        game_id = self.games.new_id()
        state = rules.new_game(game_id, edition, names, options)
        return self.add_game(game_id, edition, names, options, state)

    def add_game(self, game_id, edition, names, options, state, rows=None) -> dict:
        """Store a new game with fresh tokens (and `rows(db)`'s log) in one transaction: the
        answer of create_game."""
        banker_token, display_token = new_secret(), new_secret()
        players = [
            {"id": p["id"], "name": p["name"], "token": new_secret()}
            for p in rules.public_state(state)["players"]
        ]
        base = log.undo_base(state, None)
        with self.database.transaction() as db:
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
        games = self.games
        game = GameInMemory(state, banker_token, tokens, display_token, load=games.loader(game_id),
                        base_version=base and base[0], loaded=games.state_loaded)  # fmt: skip
        games.add(game_id, game)
        return {
            "game_id": game_id,
            "banker_token": banker_token,
            "display_token": display_token,
            "players": players,
            "state": state,
        }

    def remove_game(self, game_id: str) -> None:
        """Delete a game and everything recorded of it (`banker games --remove`)."""
        self.games.remove(game_id)
        self.tokens.forget_game(game_id)

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
        game = self.games.get(game_id)
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
            if undo:
                state = self.games.full_state(game, game_id)
            new_state, events = rules.apply(state, command, seat)
            answer = self._record(game, game_id, command, state, new_state, events, keyed)
            # Only a committed command becomes the current state.
            game.state = new_state
        self.games.tell(game_id)
        return answer

    def _authorized_replay(self, game_id, state, command, keyed, authorize) -> Answer | None:
        """Authorize the command (Store.execute); then the answer already given for its key,
        or None when the key is new; KeyReused when the key came with another command."""
        key, scope, expected_version = keyed
        earlier = None
        if key is not None:
            # A key an earlier release stored before keys had scopes is the game's, whoever
            # sends it again (LEGACY_SCOPE, migrations.py).
            earlier = self.database.one(
                "select response, command, expected_version from commands "
                "where game_id = ? and key_scope in (?, ?) and idempotency_key = ? "
                "order by key_scope = ? limit 1",
                [game_id, scope, LEGACY_SCOPE, key, LEGACY_SCOPE],
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
        private = self.reads.private_words(game_id, body["version"])
        return Answer(body, earlier["response"], replayed=True, private=private)

    def _record(self, game, game_id, command, before, after, events, keyed) -> Answer:
        """Write one accepted command in one transaction (shared with other games' commands
        waiting at the same moment: Database.write); its answer, once committed. `keyed`:
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
        grown = self._within_snapshot_limits(game, game_id, command, after, events, at, row)
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
                log.forget_old_answers(db, game_id, self.remembered_answers)
            if starts:
                log.keep_story_state(db, game_id, before)
            conn.executemany(log.INSERT_EVENT, log.event_rows(game_id, version, events, at))
            log.mark_undone(db, game_id, events)
            if seated or gone:
                self.tokens.write_seats(db, game_id, seated, gone)
            if base is None:
                conn.execute(
                    "update games set version = ?, state = ? where id = ?", [version, row, game_id]
                )
            else:  # a new bottom of the undo stack (a roll): its state, once
                conn.execute(
                    "update games set version = ?, state = ?, undo_base = ? where id = ?",
                    [version, row, base[1], game_id],
                )

        self.database.write(write)  # returns once committed: a group commit with other games'
        self.reads.recorded(game_id, version, events, at)
        if seated or gone:
            self.tokens.seats_written(game, seated, gone)
        game.row = version, row
        game.log_bytes += grown
        game.rounds.first, game.rounds.last = first, last
        if base is not None:
            game.base_version = base[0]
        return Answer(body, text, private=private)

    def _within_snapshot_limits(self, game, game_id, command, after, events, at, row) -> int:
        """The bytes this command adds to the game's snapshot file; GameTooLong when the file
        would then be more than a snapshot import accepts here (banker.snapshot's limits, read
        at each command): every game the store keeps, it exports and imports again. Below the
        limits, room is left for the state (STATE_ROOM times its row) and for the Banker's
        corrections: undo, adjust and move are refused only at the limits themselves, any other
        command CORRECTION_ROOM corrections before."""
        s = snapshots
        entries = [{"version": after["version"], "at": at, "command": command}] + [
            {"seq": e["seq"], "version": after["version"], "type": e["type"], "text": e["text"],
             "at": at, "undone": False}
            for e in events
        ]  # fmt: skip
        grown = sum(s.entry_bytes(e) for e in entries)
        if game.log_bytes is None:
            game.log_bytes = self.reads.log_bytes(game_id)
        size = game.log_bytes + grown + s.STATE_ROOM * len(row.encode()) + s.HEAD_ROOM
        room = 0 if command.get("type") in s.CORRECTIONS else s.CORRECTION_ROOM
        if (
            after["version"] > s.MAX_COMMANDS - room
            or after.get("_seq", 0) > s.MAX_EVENTS - room
            or size > s.MAX_BYTES - room * s.CORRECTION_BYTES
        ):
            raise GameTooLong(
                f"This game has reached the longest a paused game can carry ({game.version:,} "
                "commands; a long real game has about 2,000): nothing more can be recorded, and "
                "nothing was done. Undo and corrections still work. To play on, finish with "
                "paper money from the paper record on the Pause page."
            )
        return grown

    def import_snapshot(self, doc: dict) -> dict:
        """Resume a snapshot as a new game with fresh tokens; the answer of create_game, and
        "events": what the import says of how it resumed ([{"type", "text"}]: a game an earlier
        release's rules led elsewhere resumes as recorded, and says so).

        The snapshot is checked and replayed first (banker.snapshot.check); a refusal raises
        SnapshotRefused and nothing is stored. The new game carries the whole log: its
        commands, its events (undone marks and times included) and the replayed state.
        """
        game_id = self.games.new_id()
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

        created = self.add_game(
            game_id, checked.edition, checked.names, checked.options, checked.state, rows
        )
        return {**created, "events": checked.notes}


def _same_command(earlier, command, expected_version) -> bool:
    """Whether a keyed command's row holds this very command: the same JSON value once parsed
    (key order and spacing do not count; 1, 1.0 and true do) and the same expected_version
    (unless the row was stored before expected_versions were: NOT_RECORDED)."""

    def canonical(value) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    stored = json.loads(earlier["command"])
    same = canonical(stored) == canonical(command)
    if earlier["expected_version"] == NOT_RECORDED:  # stored before it was: any one
        return same
    return same and earlier["expected_version"] == expected_version
