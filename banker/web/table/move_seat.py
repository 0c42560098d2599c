"""The Banker's seat can move: "Use this game on another device" makes a new Banker link
(the contract's POST …/tokens, through Store.new_token) and this browser stops being the
Banker at once; the other device opens the link or scans its code and takes the seat."""

from __future__ import annotations

from flask import make_response, render_template

from banker.web.common.links import seat_url
from banker.web.common.qr import qr_svg
from banker.web.common.store import get_store
from banker.web.table.blueprint import banker_page, bp


@bp.post("/games/<game_id>/seat")
@banker_page
def move_seat(game_id: str, state: dict):
    """Make a new Banker link; show it with its QR code; forget the old one here."""
    token = get_store().new_token(game_id, "banker")
    url = seat_url(game_id, "banker", token)
    names = [p["name"] for p in state["players"]]
    html = render_template(
        "table/moved.html",
        game_id=game_id,
        url=url,
        qr=qr_svg(url, "The new Banker link"),
        names=names,
    )
    response = make_response(html)
    response.headers["Cache-Control"] = "no-store"
    # The old cookie stays: its token is dead, and it lets this phone say the seat moved.
    return response
