"""Who is asking: the one place a page request's token is read and matched to a game's seat.

The JSON API reads its Bearer token and asks `Store.role` (banker/web/api.py); the pages read
the banker token from where a browser carries it: the Banker's pages' cookie (named by
`banker_cookie`, its path the game's), a form field, `?token=` or a Bearer header.

One decorator per role for the views of a link:
    @as_banker                 view(game_id, state): 404/403 unless the banker token is given
    @as_player(gone)           view(token, game_id, player_id): else gone(token)
    @as_display(gone)          view(token, game_id): else gone(token)
(`gone` is the blueprint's own page for a link that does not work.)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from urllib.parse import unquote

from flask import abort, request

from banker.store import GameNotFound, same_token
from banker.web import get_store


def banker_cookie(game_id: str) -> str:
    """The name of the cookie that holds a game's banker token (its path is the game's)."""
    return f"banker_{game_id}"


def sentence_cookie(name: str) -> dict | None:
    """A sentence carried across a plain POST's redirect in cookie `name` (JSON with "text"),
    or None when it is absent or not what this server wrote."""
    raw = request.cookies.get(name)
    if not raw:
        return None
    try:
        said = json.loads(unquote(raw))
    except ValueError:
        return None
    if not isinstance(said, dict) or not isinstance(said.get("text"), str):
        return None
    return said


def banker_token_given(game_id: str) -> tuple[str, bool] | None:
    """(banker token, whether it came in the pages' cookie) if this request carries it right;
    None otherwise (an unknown game too)."""
    try:
        banker_token = get_store().banker_token(game_id)
    except GameNotFound:
        return None
    scheme, _, bearer = request.headers.get("Authorization", "").partition(" ")
    given = [
        (request.cookies.get(banker_cookie(game_id)), True),
        (request.form.get("token") if request.method == "POST" else None, False),
        (request.args.get("token"), False),
        (bearer.strip() if scheme.lower() == "bearer" else None, False),
    ]
    for token, by_cookie in given:
        if token and same_token(token, banker_token):
            return banker_token, by_cookie
    return None


def banker_state(game_id: str) -> dict:
    """The game's internal state if this request carries its banker token; else abort with 404
    (no such game) or 403 (the blueprint's handlers say so in words)."""
    store = get_store()
    try:
        state = store.state(game_id)
    except GameNotFound:
        abort(404)
    if banker_token_given(game_id) is None:
        abort(403)
    return state


def as_banker(view: Callable) -> Callable:
    """A view of `/games/<game_id>/…` for the game's Banker: called with the game's state."""

    @functools.wraps(view)
    def wrapped(game_id: str, **values):
        return view(game_id, banker_state(game_id), **values)

    return wrapped


def as_player(gone: Callable[[str], object]) -> Callable:
    """A view of a player's link `/…/<token>`: called with the player's game and id."""

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(token: str, **values):
            found = get_store().player_by_token(token)
            if found is None:
                return gone(token)
            return view(token, *found, **values)

        return wrapped

    return decorate


def as_display(gone: Callable[[str], object]) -> Callable:
    """A view of a display link `/display/<token>…`: called with the display's game."""

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(token: str, **values):
            game_id = get_store().game_for_display_token(token)
            if game_id is None:
                return gone(token)
            return view(token, game_id, **values)

        return wrapped

    return decorate
