"""A game's story (banker.story) read through the Store, computed once per game version: the
story pages and a player's page's chart read it from here."""

from __future__ import annotations

from banker import story
from banker.rules import public_state
from banker.store import Store
from banker.web.common import per_version


def load(store: Store, game_id: str) -> dict:
    """The game's whole story (everyone's cash in it), computed once per version (every phone
    polls right after a command: one of them computes, the others wait for it)."""
    return load_at(store, game_id)[1]


def load_at(store: Store, game_id: str) -> tuple[int, dict]:
    """(the version, the story at it): what is made of the story can be kept by its version."""
    state = public_state(store.state(game_id))
    version = state["version"]
    return version, per_version.kept("story", game_id, version,
                                     lambda: compute(store, game_id, state))  # fmt: skip


def compute(store: Store, game_id: str, state: dict | None = None) -> dict:
    """The story read afresh from the store (no cache)."""
    state = state or public_state(store.state(game_id))
    events = store.story_events(game_id)
    seats = [p["id"] for p in state["players"]]
    states = store.states_at(game_id, story.versions_needed(events, seats))
    return story.build(events, states, state, store.time_span(game_id))
