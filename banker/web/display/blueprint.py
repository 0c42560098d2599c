"""The display's blueprint, and what its views share: the page of a display link that does not
work. Every answer carries a token in its links: no shared cache may keep it."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from htmx_flask import make_response as htmx_response

from banker.web.common.links import keep_private
from banker.web.common.seats import link_token
from banker.web.common.store import get_store

bp = Blueprint("display", __name__)
bp.after_request(keep_private)


@bp.before_request
def _follow_a_resumed_game():
    """The big screen of a game paused and resumed on this server follows the copy, as the
    players' phones do: its page goes on to the copy's big screen (303), and its poll (or its
    push stream's "changed") reloads the page first. The story pages stay the paused game's."""
    if request.endpoint not in ("display.show", "display.version"):
        return None
    store = get_store()
    game_id = store.game_for_display_token(link_token())
    moved_to = store.moved_to(game_id) if game_id else None
    if moved_to is None:
        return None
    if request.endpoint == "display.version":
        return htmx_response("", 200, refresh=True)
    return redirect(url_for("display.show", token=store.display_token(moved_to)), 303)


UNKNOWN = (
    "This display link does not work: it is not the link of any game here. Check that it was "
    "copied whole, or ask the Banker for the link under “Show on a big screen”."
)
REPLACED = (
    "This display link no longer works: the Banker made a new one. Open the link shown under "
    "“Show on a big screen” on the Banker's phone."
)


def message(status: int, sentence: str):
    """A display's page that says why it shows nothing: a page still polling with this token
    reloads itself and shows the sentence instead."""
    html = render_template("display/message.html", sentence=sentence)
    return htmx_response(html, status, refresh=True)


def gone(token: str):
    """The page for a display link that does not work: replaced (403) or unknown (404)."""
    if get_store().token_revoked(token) == "display":
        return message(403, REPLACED)
    return message(404, UNKNOWN)
