"""Who is asking: the one place a request's token is read and matched to a game's seat, and
where the cookies that keep tokens are written.

A banker token may come where a browser or a program carries it (`banker_token_given`): the
Banker's pages' cookie (named by `banker_cookie`, its path the game's; set by
`remember_banker`), a form field, `?token=` (`url_token`) or a Bearer header
(`bearer_token`); the one a command or a new link comes with, `request_token`. The JSON
API's caller is the seat of its Bearer token (`bearer_seat`).
The Banker's own pages take it from their cookie only (they keep it out of their URLs); a link
they give carries the token on only when the request came without the cookie
(`banker_link_args`). The player links this browser opened are listed in a cookie of their own
(`remember_joined`, `joined_tokens`), for the home page.

One decorator per role for the views of a link:
    @as_banker                 view(game_id, state): 404/403 unless the banker token is given
    @as_banker(pages=True)     the same for the Banker's own pages (see `banker_state`)
    @as_player(gone)           view(token, game_id, player_id): else gone(token)
    @as_display(gone)          view(token, game_id): else gone(token)
(`gone` is the blueprint's own page for a link that does not work.)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from urllib.parse import unquote

from flask import abort, make_response, render_template, request
from htmx_flask import make_response as htmx_response
from werkzeug.http import parse_cookie

from banker.rules import Refusal
from banker.store import GameNotFound, same_token
from banker.web.common.guards import error_page
from banker.web.common.store import get_store

GAMES_COOKIE = "banker_games"  # the ids of the games this browser is the Banker of
JOINED_COOKIE = "banker_joined"  # the player links this browser opened
KEPT = 400 * 24 * 3600  # seconds a browser keeps these cookies: the most browsers allow


def banker_cookie(game_id: str) -> str:
    """The name of the cookie that holds a game's banker token (its path is the game's)."""
    return f"banker_{game_id}"


def banker_cookie_token(cookie_header: str, game_id: str) -> str | None:
    """The banker token a Cookie header carries for this game (a push stream's request, read
    on the server's loop before Flask), else None."""
    return parse_cookie(cookie_header).get(banker_cookie(game_id))


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


ANYWHERE = ("cookie", "form", "query", "bearer")
COOKIE = ("cookie",)
MOVED = (
    "This phone is no longer the Banker of this game: the Banker’s seat was moved to another "
    "device (a new Banker link was made). Open the game there, or from its newest Banker link."
)


def bearer(header: str) -> str | None:
    """The token of an Authorization header `Bearer <token>`, else None (asked by the server
    before a body is read, too: banker.web.common.limits)."""
    scheme, _, token = header.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def bearer_token() -> str | None:
    """The token of the request's `Authorization: Bearer …` header, if it has one."""
    return bearer(request.headers.get("Authorization", ""))


TOKEN_MISSING = "This needs a token: send the header Authorization: Bearer <token>."
REPLACED = (
    "This token no longer works: the Banker made a new link for its seat ({seat}). Use the new one."
)


def bearer_seat(game_id: str) -> str:
    """The JSON API's caller: the seat ("banker", a player id or "display") of the request's
    Bearer token in this game. A Refusal otherwise: 404 no such game (whatever the token), 401
    no token, 403 a token replaced by a new link or of another game."""
    store = get_store()
    store.version(game_id)  # GameNotFound: 404
    token = bearer_token()
    if not token:
        raise Refusal(TOKEN_MISSING, "token_missing", 401)
    role = store.role(game_id, token)
    if role is None:
        seat = store.token_revoked(token, game_id)
        if seat is not None:
            raise Refusal(REPLACED.format(seat=seat), "token_replaced", 403)
        raise Refusal("This token does not belong to this game.", "token_not_allowed", 403)
    return role


def request_token() -> str | None:
    """The token a command or a new link comes with, for counting how fast it sends them: the
    API's Bearer header, the Banker's cookie on the Banker's pages (`/games/<id>/…`), a link's
    path (`/join/<token>/…`); else None."""
    if request.blueprint == "api":
        return bearer_token()
    args = request.view_args or {}
    if "game_id" in args and request.blueprint == "table":
        game_id = args["game_id"]
        return _token_in(game_id, "cookie") or _token_in(game_id, "form") or url_token()
    return args.get("token")


def link_token() -> str:
    """The token in the path of a link's page (/join/<token>…, /display/<token>…), else ""."""
    return (request.view_args or {}).get("token", "")


def url_token() -> str | None:
    """The token the request's URL names (`?token=`), if any."""
    return request.args.get("token")


def _remember_first(response, cookie: str, item: str, samesite: str):
    """Put `item` first in a cookie's list (dot-separated, the 20 latest), for 400 days."""
    known = [x for x in _cookie_list(cookie) if x != item]
    response.set_cookie(
        cookie,
        ".".join([item, *known][:20]),
        max_age=KEPT,
        path=request.script_root or "/",  # under --public-url's path, only there
        httponly=True,
        samesite=samesite,
    )
    return response


def _cookie_list(name: str) -> list[str]:
    return [x for x in request.cookies.get(name, "").split(".") if x]


def remember_banker(response, game_id: str, token: str, path: str):
    """Keep the banker token in a cookie for the game's pages (under `path`), and the game's id
    first in this browser's list of games."""
    response.set_cookie(
        banker_cookie(game_id), token, max_age=KEPT, path=path, httponly=True, samesite="Strict"
    )
    return _remember_first(response, GAMES_COOKIE, game_id, samesite="Strict")


def remember_joined(response, token: str):
    """List a player's link this browser opened first on its home page (one tap back in)."""
    return _remember_first(response, JOINED_COOKIE, token, samesite="Lax")


def known_games(most: int) -> list[str]:
    """The ids of the games this browser is the Banker of, latest first (at most `most`)."""
    return _cookie_list(GAMES_COOKIE)[:most]


def joined_tokens(most: int) -> list[str]:
    """The player links this browser opened, latest first (at most `most`)."""
    return _cookie_list(JOINED_COOKIE)[:most]


def _token_in(game_id: str, place: str) -> str | None:
    if place == "cookie":
        return request.cookies.get(banker_cookie(game_id))
    if place == "form":
        return request.form.get("token") if request.method == "POST" else None
    if place == "query":
        return url_token()
    return bearer_token()


def banker_token_given(game_id: str, places: tuple[str, ...] = ANYWHERE) -> tuple[str, bool] | None:
    """(banker token, whether it came in the pages' cookie) if this request carries it right
    in one of `places` (of ANYWHERE); None otherwise (an unknown game too)."""
    try:
        banker_token = get_store().banker_token(game_id)
    except GameNotFound:
        return None
    for place in places:
        token = _token_in(game_id, place)
        if token and same_token(token, banker_token):
            return banker_token, place == "cookie"
    return None


def banker_link_args(given: tuple[str, bool]) -> dict:
    """What a link of the Banker's pages carries on, for a request that carries the banker
    token (`banker_token_given`): nothing when it came in the pages' cookie, else the token."""
    token, by_cookie = given
    return {} if by_cookie else {"token": token}


def banker_token_replaced(game_id: str) -> bool:
    """Whether the banker token this request names (`?token=`, else the pages' cookie) is one
    the Banker replaced by a new link (POST …/tokens): the seat moved to another device."""
    given = _token_in(game_id, "query") or _token_in(game_id, "cookie")
    return bool(given) and get_store().token_revoked(given) == "banker"


def banker_state(game_id: str, pages: bool = False, places: tuple[str, ...] = ANYWHERE) -> dict:
    """The game's internal state if this request carries its banker token in one of `places`;
    else abort with 404 (no such game) or 403 (the blueprint's handlers say so in words).

    `pages`: the Banker's own pages, which read the token from their cookie only; a cookie of
    an older Banker link says the seat moved (403, a polling page reloads to show it), and a
    game resumed elsewhere shows where it went (410; not to "Use this game on another device").
    """
    store = get_store()
    try:
        state = store.state(game_id)
    except GameNotFound:
        abort(404)
    if banker_token_given(game_id, COOKIE if pages else places) is None:
        if pages and _token_in(game_id, "cookie"):
            abort(htmx_response(*error_page(403, MOVED), refresh=True))
        abort(403)
    if pages and request.endpoint != "table.move_seat":
        moved_to = store.moved_to(game_id)
        if moved_to is not None:
            page = render_template("moved_game.html", moved_to=moved_to, player_url=None)
            abort(make_response(page, 410))
    return state


def as_banker(view: Callable | None = None, *, pages: bool = False) -> Callable:
    """A view of `/games/<game_id>/…` for the game's Banker: called with the game's state.
    `@as_banker(pages=True)` for the Banker's own pages (see banker_state)."""

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(game_id: str, **values):
            return view(game_id, banker_state(game_id, pages), **values)

        return wrapped

    return decorate(view) if view is not None else decorate


def _by_link(find: Callable[[str], tuple | None], gone: Callable[[str], object]) -> Callable:
    """A decorator for the views of a link `/…/<token>…`: view(token, *find(token)), else
    gone(token) when find says None."""

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(token: str, **values):
            found = find(token)
            if found is None:
                return gone(token)
            return view(token, *found, **values)

        return wrapped

    return decorate


def as_player(gone: Callable[[str], object]) -> Callable:
    """A view of a player's link `/…/<token>`: called with the player's game and id."""
    return _by_link(lambda token: get_store().player_by_token(token), gone)


def as_display(gone: Callable[[str], object]) -> Callable:
    """A view of a display link `/display/<token>…`: called with the display's game."""

    def find(token: str) -> tuple[str] | None:
        game_id = get_store().game_for_display_token(token)
        return None if game_id is None else (game_id,)

    return _by_link(find, gone)
