"""The Banker's pages' blueprint, and what every view of it shares: the game's path (where the
banker cookie lives), the decorator of a Banker's page, and the pages of a refusal."""

from __future__ import annotations

from flask import Blueprint, Response, request, url_for
from htmx_flask import make_response as htmx_response

from banker.store import GameNotFound
from banker.web.common.errors import no_game
from banker.web.common.guards import error_page
from banker.web.common.links import keep_private
from banker.web.common.seats import MOVED, as_banker, banker_token_replaced, remember_banker
from banker.web.common.store import get_store

bp = Blueprint("table", __name__)


def game_path(game_id: str) -> str:
    """The game's table screen, without a token: the path of its banker cookie."""
    return url_for("table.game", game_id=game_id)


# Every view of a game's screens is for its Banker, by the game's cookie only (the pages keep
# the token out of their URLs): banker.web.common.seats.banker_state with pages=True (404, 403,
# 410).
banker_page = as_banker(pages=True)


def remember(response: Response, game_id: str, token: str) -> Response:
    """Keep the banker token in a cookie for this game's pages, and the id in the games list."""
    return remember_banker(response, game_id, token, game_path(game_id))


# The Join panel's answers and the table's version poll name a player or carry a token.
PRIVATE = {"table.link_code", "table.new_link_confirm", "table.new_link", "table.game_version"}


@bp.after_request
def _private(response: Response) -> Response:
    return keep_private(response) if request.endpoint in PRIVATE else response


@bp.errorhandler(403)
def _forbidden(e):
    # A banker token replaced by a new link (POST …/tokens) says so; a polling page reloads.
    if banker_token_replaced((request.view_args or {}).get("game_id", "")):
        return htmx_response(*error_page(403, MOVED), refresh=True)
    return error_page(403, "Open this game from its Banker link (the one with ?token=).")


def game_here(game_id: str) -> bool:
    try:
        get_store().version(game_id)
    except GameNotFound:
        return False
    return True


@bp.errorhandler(404)
def _not_found(e):
    game_id = (request.view_args or {}).get("game_id")
    if game_id and not game_here(game_id):
        return error_page(404, no_game(game_id))  # perhaps on another process
    return error_page(404, "There is no such game or player here.")
