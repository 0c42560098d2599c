"""A game's story (banker.story) read through the Store, computed once per game version: the
story pages and a player's page's chart read it from here."""

from __future__ import annotations

import threading

from flask import current_app

from banker import story
from banker.rules import public_state
from banker.store import Store

_LOCK = threading.Lock()
_GAME_LOCKS: dict[str, threading.Lock] = {}


def load(store: Store, game_id: str) -> dict:
    """The game's whole story (everyone's cash in it), computed once per version."""
    state = public_state(store.state(game_id))
    cache = current_app.extensions.setdefault("banker.stories", {})
    key = (game_id, state["version"])
    with _LOCK:
        found = cache.get(key)
        game_lock = _GAME_LOCKS.setdefault(game_id, threading.Lock())
    if found is not None:
        return found
    # Every phone polls right after a command: one of them computes, the others wait for it.
    with game_lock:
        with _LOCK:
            found = cache.get(key)
        if found is not None:
            return found
        found = compute(store, game_id, state)
        with _LOCK:
            for old in [k for k in cache if k[0] == game_id]:
                del cache[old]
            if len(cache) > 64:
                cache.clear()
            cache[key] = found
    return found


def compute(store: Store, game_id: str, state: dict | None = None) -> dict:
    """The story read afresh from the store (no cache)."""
    state = state or public_state(store.state(game_id))
    events = store.story_events(game_id)
    seats = [p["id"] for p in state["players"]]
    states = store.states_at(game_id, story.versions_needed(events, seats))
    return story.build(events, states, state, store.time_span(game_id))


_LOCK = threading.Lock()
