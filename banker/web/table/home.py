"""The Banker's home page and new games: Start a game, and the games and player links this
browser knows (routes of the `table` blueprint)."""

from __future__ import annotations

from flask import redirect, render_template, request
from htmx_flask import make_response as htmx_response
from werkzeug.datastructures import MultiDict

from banker.rules import OPTIONS, DomainError
from banker.web.common.guards import wants_fragment
from banker.web.common.present import player_names
from banker.web.common.seats import joined_tokens, known_games
from banker.web.common.store import get_store
from banker.web.table.blueprint import bp, game_path, remember


@bp.get("/")
def home():
    """Start a game, or go back to one this browser is the Banker of or plays in."""
    return render_template("table/home.html", **_home_context())


def _home_context(error: str | None = None, form: MultiDict | None = None) -> dict:
    store = get_store()
    mine = known_games(50)
    # Only the games this browser knows are read: never every game of the server.
    found = {t: store.player_by_token(t) for t in joined_tokens(50)}
    ids = mine + [f[0] for f in found.values() if f]
    games = {g["game_id"]: g for g in store.known_games(ids)}
    joined = []
    for token, hit in found.items():
        if hit and hit[0] in games:
            game_id, pid = hit
            names = player_names(store.state(game_id))
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
            return render_template("table/_new_game.html", **context), 422
        return render_template("table/home.html", **context), 422
    game_id = created["game_id"]
    if wants_fragment():
        response = htmx_response("", 204, redirect=game_path(game_id))
    else:
        response = redirect(game_path(game_id), 303)
    return remember(response, game_id, created["banker_token"])
