"""The Join panel of the Banker's table: the QR code of each link (a player's page, the big
screen) and a new link for a lost phone. What the panel lists is the template global
`join_panel` (banker.web.common.template_globals)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, redirect, render_template, request, url_for

from banker.store import GameNotFound, StoreError
from banker.web.common.errors import link_error_page
from banker.web.common.guards import error_page, wants_fragment
from banker.web.common.links import seat_url
from banker.web.common.qr import qr_svg
from banker.web.common.seats import banker_link_args, banker_token_given
from banker.web.common.store import get_store
from banker.web.table.blueprint import bp


@bp.get("/games/<game_id>/codes/<who>.svg")
def link_code(game_id: str, who: str):
    """The QR code of a link the Banker's table shows, as an SVG image: `who` is a player's id
    (their page) or "display" (the big screen). An image rather than inline markup, so that the
    table's first load does not carry codes that sit in closed panels: the browser
    fetches one when its panel opens. The game's Banker only; never cached (a new link changes
    it)."""
    if banker_token_given(game_id) is None:
        return link_error_page(403, "Only the Banker of this game may show its links.")
    store = get_store()
    if who == "display":
        label = "The big screen's link"
        url = seat_url(game_id, "display", store.display_token(game_id))
    else:
        player = next((p for p in store.players(game_id) if p["id"] == who), None)
        if player is None:
            return link_error_page(404, "There is no such player in this game.")
        url = seat_url(game_id, who, player["token"])
        label = f"{player['name']}'s link"
    return current_app.response_class(qr_svg(url, label), mimetype="image/svg+xml")


def _new_link_banker(game_id: str):
    """(the banker token given, None) for a new link of this game, else (None, the page that
    says why not: no such game, or not its Banker)."""
    try:
        get_store().state(game_id)
    except GameNotFound:
        return None, error_page(404, "There is no such game on this Banker.")
    given = banker_token_given(game_id)
    if given is None:
        sentence = "Only the Banker of this game may give a player a new link."
        return None, error_page(403, sentence)
    return given, None


@bp.get("/games/<game_id>/players/<player_id>/new-link")
def new_link_confirm(game_id: str, player_id: str):
    """The step before a new link (works without JS): it names the player and says the old link
    stops working at once; only its "Yes" button posts to new_link. Nothing changes here."""
    store = get_store()
    given, refused = _new_link_banker(game_id)
    if refused is not None:
        return refused
    who = next((p for p in store.players(game_id) if p["id"] == player_id), None)
    if who is None:
        return error_page(404, "There is no such player in this game.")
    carried = banker_link_args(given)
    view = {
        "game_id": game_id,
        "who": who,
        "token": carried.get("token"),
        "back": url_for("table.game", game_id=game_id, **carried),
    }
    if wants_fragment():
        return render_template("table/_new_link_confirm.html", **view)
    return render_template("table/new_link.html", **view)


@bp.post("/games/<game_id>/players/<player_id>/new-link")
def new_link(game_id: str, player_id: str):
    """The Banker gives a player a new link; the old one stops working at once."""
    store = get_store()
    given, refused = _new_link_banker(game_id)
    if refused is not None:
        return refused
    try:
        store.rotate_player_token(game_id, player_id)
    except StoreError as e:
        return link_error_page(e.status, e.message)
    if wants_fragment():
        return render_template("table/_join_panel.html", game_id=game_id)
    # Without JS: back to the page the form was on (the Banker's table), else the game's page.
    back = request.referrer
    if not back or urlsplit(back).netloc != request.host or urlsplit(back).path == request.path:
        back = url_for("table.game", game_id=game_id, **banker_link_args(given))
    return redirect(back, code=303)
