"""What the store keeps in memory about one game (banker.store.games): its state
(which may be forgotten while the game is idle), its tokens, its lock."""

from __future__ import annotations

import threading
from collections.abc import Callable

from banker.store import log


class GameInMemory:
    """What the store keeps in memory about one game. Its state may be forgotten while the game
    is idle (Games.KEEP_STATES) and is then read back from the database on its next use."""

    def __init__(self, state, banker_token, player_tokens, display_token="", rounds=None,
                 load=None, base_version=None, loaded=None):  # fmt: skip
        self._state: dict | None = state
        self.version: int = state["version"]
        self.banker_token: str = banker_token
        self.player_tokens: dict[str, str] = player_tokens  # token -> player id, not revoked
        self.display_token: str = display_token
        self.lock = threading.RLock()
        self.rounds = rounds or log.RoundTracker()
        self.load: Callable[[], dict] | None = load
        # Told (under self.lock) when a forgotten state was read back: the store counts it.
        self.loaded: Callable[[GameInMemory], None] | None = loaded
        self.used = 0
        self.live = 0  # pages following it by push: its state stays in memory (Games.live)
        # The version of the state the row's `undo_base` holds (log.undo_base), or None.
        self.base_version: int | None = base_version
        # (version, text) of the row as this process last wrote it, while the state is kept.
        self.row: tuple[int, str] | None = None
        # The bytes its log (commands and events) takes in its snapshot file, counted once on
        # its first command here (Reads.log_bytes), then per command written; None until then.
        self.log_bytes: int | None = None
        # What its story has read so far (Reads.story_events, Reads.states_at), kept while its
        # state is: the events told in the story up to the newest event's seq read, and the
        # states at the versions it asked for (a command's kept answer never changes).
        self.story_events: tuple[int, list[dict]] | None = None
        self.story_states: dict[int, dict] = {}
        # (version, {what: rows}): its latest events as read at this version (Reads._at_version).
        self.reads: tuple[int, dict] | None = None
        self.span: tuple[str | None, str | None] | None = None  # Reads.time_span, once read

    @property
    def state(self) -> dict:
        state = self._state
        if state is None:
            with self.lock:  # never over a command's newer state
                if self._state is None:
                    self._state = self.load()
                    if self.loaded is not None:
                        self.loaded(self)
                state = self._state
        return state

    @state.setter
    def state(self, state: dict) -> None:
        self._state, self.version = state, state["version"]

    @property
    def forgotten(self) -> bool:
        """Whether its state is out of memory now (read back on its next use)."""
        return self._state is None

    def forget_state(self) -> bool:
        """Drop the state from memory unless a command holds the game (it is on disk); whether
        it was dropped."""
        if self.load is not None and self.lock.acquire(blocking=False):
            try:
                self._state, self.row = None, None
                self.story_events, self.story_states = None, {}
            finally:
                self.lock.release()
            return True
        return False
