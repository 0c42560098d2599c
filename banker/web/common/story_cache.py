"""A game's story (banker.story) read through the Store, computed once per game version: the
story pages and a player's page's chart read it from here."""

from __future__ import annotations

from banker import story
from banker.rules import public_state
from banker.store import Store
from banker.web.common import per_version
from banker.web.common.recent import Recent

MOST_GAMES = 1024  # games whose played rounds' figures are kept (a few KB each)
_points = Recent(MOST_GAMES)  # game id -> its played rounds' figures (story.rounds' `points`)


def load(store: Store, game_id: str) -> dict:
    """The game's whole story (everyone's cash in it), computed once per version (every phone
    polls right after a command: one of them computes, the others wait for it)."""
    return load_at(store, game_id)[1]


def load_at(store: Store, game_id: str) -> tuple[int, dict]:
    """(the version, the story at it): what is made of the story can be kept by its version."""
    state = public_state(store.state(game_id))
    version = state["version"]

    def made() -> dict:
        return compute(store, game_id, state, _points_of(game_id))

    return version, per_version.kept("story", game_id, version, made)


def rounds_at(store: Store, game_id: str) -> tuple[int, dict]:
    """(the version, what a net-worth chart shows of the story at it: story.rounds), made once
    per version; a player's page's chart reads it at every change, and needs none of the rest
    of the story (its rents, its turns, its standings)."""
    state = public_state(store.state(game_id))
    version = state["version"]

    def made() -> dict:
        return story.rounds(*_read(store, game_id, state), state, _points_of(game_id))

    return version, per_version.kept("story-rounds", game_id, version, made)


def compute(
    store: Store, game_id: str, state: dict | None = None, points: dict | None = None
) -> dict:
    """The story read afresh from the store (`points`: story.build's, the played rounds'
    figures kept for the game; none: all computed)."""
    state = state or public_state(store.state(game_id))
    events, states = _read(store, game_id, state)
    return story.build(events, states, state, store.time_span(game_id), points)


def _read(store: Store, game_id: str, state: dict) -> tuple[list, dict]:
    """The game's story events and the states the story needs."""
    events = store.story_events(game_id)
    seats = [p["id"] for p in state["players"]]
    return events, store.states_at(game_id, story.versions_needed(events, seats))


def _points_of(game_id: str) -> dict:
    points = _points.get(game_id)
    if points is None:
        points = {}
        _points.put(game_id, points)
    return points
