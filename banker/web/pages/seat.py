"""The Banker's seat can move: "Use this game on another device" makes a new Banker link
(the contract's POST …/tokens, through Store.new_token) and this browser stops being the
Banker at once; the other device opens the link or scans its code and takes the seat."""

from __future__ import annotations

from flask import make_response, render_template

from banker.web import get_store
from banker.web.guards import error_page
from banker.web.pages import banker_page, bp

UNAVAILABLE = "This server cannot make a new Banker link yet; nothing changed."


@bp.post("/games/<game_id>/seat")
@banker_page
def move_seat(game_id: str, state: dict):
    """Make a new Banker link; show it with its QR code; forget the old one here."""
    from banker.web.player import public_url_for
    from banker.web.qr import qr_svg

    store = get_store()
    new_token = getattr(store, "new_token", None)
    if new_token is None:
        return error_page(503, UNAVAILABLE)
    token = new_token(game_id, "banker")
    url = public_url_for("pages.game", game_id=game_id, token=token)
    names = [p["name"] for p in state["players"]]
    html = render_template(
        "pages/moved.html",
        game_id=game_id,
        url=url,
        qr=qr_svg(url, "The new Banker link"),
        names=names,
    )
    response = make_response(html)
    response.headers["Cache-Control"] = "no-store"
    # The old cookie stays: its token is dead, and it lets this phone say the seat moved.
    return response
