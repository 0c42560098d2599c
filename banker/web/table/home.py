"""The Banker's home page and new games: Start a game, and the games and player links this
browser knows (routes of the `table` blueprint)."""

from __future__ import annotations

from flask import redirect, render_template, request
from htmx_flask import make_response as htmx_response
from werkzeug.datastructures import MultiDict

from banker.rules import DomainError
from banker.rules.options import OPTIONS, form_groups
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
        "option_groups": form_groups(),
    }


def _new_game_options(form, edition: str) -> dict:
    """The Start form's switches as the contract's options (banker.rules.options). An option
    this edition offers is sent on or off as switched; one it does not offer is sent only when
    switched on against its default (the core then says why not), so a switch left as it was
    drawn never refuses a game."""
    options = {}
    for name, option in OPTIONS.items():
        on = form.get(name) == "on"
        if edition in option.editions:
            options[name] = on
        elif on and not option.default:
            options[name] = True
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
