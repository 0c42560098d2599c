"""The pages: for now a home page and plain pages behind banker_url and join_url."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from banker.rules import public_state
from banker.store import GameNotFound, same_token
from banker.web import get_store

bp = Blueprint("pages", __name__)


@bp.get("/")
def home():
    """What this is and where its API lives."""
    return render_template("home.html")


@bp.get("/games/<game_id>")
def game(game_id: str):
    """The Banker's page of one game (banker_url); needs the banker token in ?token=."""
    store = get_store()
    try:
        banker_token = store.banker_token(game_id)
    except GameNotFound:
        abort(404)
    if not same_token(request.args.get("token", ""), banker_token):
        abort(403)
    return render_template(
        "game.html",
        game_id=game_id,
        state=public_state(store.state(game_id)),
        players=store.players(game_id),
        token=banker_token,
    )


@bp.get("/join/<token>")
def join(token: str):
    """A player's own page (join_url): names the game and the player."""
    store = get_store()
    found = store.find_player_token(token)
    if found is None:
        abort(404)
    game_id, player_id = found
    state = public_state(store.state(game_id))
    player = next(p for p in state["players"] if p["id"] == player_id)
    return render_template("join.html", game_id=game_id, state=state, player=player)
