"""The Banker's home page and new games: Start a game, the games and player links this browser
knows, and the cookies that remember them (routes of the `pages` blueprint)."""

from __future__ import annotations

from flask import Response, make_response, redirect, render_template, request, url_for
from htmx_flask import make_response as htmx_response
from werkzeug.datastructures import MultiDict

from banker.rules import OPTIONS, DomainError
from banker.web import get_store
from banker.web.guards import wants_fragment
from banker.web.pages import (
    GAMES_COOKIE,
    JOINED_COOKIE,
    _remember,
    bp,
    game_path,
    remember_first,
    views,
)


@bp.get("/")
def home():
    """Start a game, or go back to one this browser is the Banker of or plays in."""
    return render_template("pages/home.html", **_home_context())


def _cookie_list(name: str) -> list[str]:
    return [x for x in request.cookies.get(name, "").split(".") if x]


def _home_context(error: str | None = None, form: MultiDict | None = None) -> dict:
    store = get_store()
    mine = _cookie_list(GAMES_COOKIE)[:50]
    # Only the games this browser knows are read: never every game of the server (issue 12).
    found = {t: store.player_by_token(t) for t in _cookie_list(JOINED_COOKIE)[:50]}
    ids = mine + [f[0] for f in found.values() if f]
    games = {g["game_id"]: g for g in store.known_games(ids)}
    joined = []
    for token, hit in found.items():
        if hit and hit[0] in games:
            game_id, pid = hit
            names = views.player_names(store.state(game_id))
            joined.append({**games[game_id], "as": names.get(pid, pid), "token": token})
    return {
        "games": [games[g] for g in mine if g in games],
        "joined": joined,
        "others": 0,
        "error": error,
        "form": form or MultiDict(),
    }


# The Start form's switches, in the contract's names (players_act is on unless switched off).
NEW_GAME_OPTIONS = ("players_act", "private_cash", "auction_all", "deadline", "teams")


def _new_game_options(form, edition: str) -> dict:
    """The switches of the Start form as the contract's options (only those the core knows)."""
    options = {}
    for key in NEW_GAME_OPTIONS:
        if key not in OPTIONS:
            continue
        on = form.get(key) == "on"
        if key == "players_act":
            options[key] = on  # sent either way: it is on unless the Banker switched it off
        elif on:
            options[key] = True  # the core says why classic has none of the variations
    if edition == "g0009":
        # The ruling's switch is on by default; classic has no such ruling, so it is not sent.
        options["hotel_shortage_ruling"] = form.get("hotel_shortage_ruling") == "on"
    return options


@bp.post("/games")
def create_game():
    """Create a game from the Start form; the Banker lands on its table screen."""
    form = request.form
    names = [n.strip() for n in form.getlist("name") if n.strip()]
    edition = form.get("edition", "g0009")
    options = _new_game_options(form, edition)
    try:
        created = get_store().create_game(edition, names, options)
    except DomainError as e:
        context = _home_context(error=e.message, form=form)
        if wants_fragment():
            return render_template("pages/_new_game.html", **context), 422
        return render_template("pages/home.html", **context), 422
    game_id = created["game_id"]
    if wants_fragment():
        response = htmx_response("", 204, redirect=game_path(game_id))
    else:
        response = redirect(game_path(game_id), 303)
    return _remember(response, game_id, created["banker_token"])


@bp.before_app_request
def _moved_player_link():
    """A player's old link of a game resumed elsewhere leads to their link in the copy."""
    if request.endpoint not in ("player.join", "player.version"):
        return None
    store = get_store()
    found = store.player_by_token((request.view_args or {}).get("token", ""))
    moved_to = store.moved_to(found[0]) if found else None
    if moved_to is None:
        return None
    if request.endpoint == "player.version":  # the old page polling: reload it to say so
        return htmx_response("", 200, refresh=True)
    token = next((p["token"] for p in store.players(moved_to) if p["id"] == found[1]), None)
    url = url_for("player.join", token=token) if token else None
    return make_response(
        render_template("pages/moved_game.html", moved_to=None, player_url=url), 410
    )


@bp.after_app_request
def _remember_joined(response: Response) -> Response:
    """A player's page opened here is listed on this browser's home page (one tap back in)."""
    token = (request.view_args or {}).get("token")
    if request.endpoint == "player.join" and response.status_code == 200 and token:
        return remember_first(response, JOINED_COOKIE, token, samesite="Lax")
    return response
