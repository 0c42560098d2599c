"""The display: a read-only page for a shared big screen beside the board (`display_url`), and
the story of a game in charts for the display, the Banker and each player (issue 16).

The display page polls `GET /display/<token>/version?v=N` about every 700 ms: 204 while the
game is still at version N, else the fresh `#display` fragment. It can do nothing; with
`private_cash` it shows no one's cash.

Routes:
- /display/<token>            the big screen (display token)
- /display/<token>/version    its poll
- /display/<token>/story      the story, as the display may see it
- /games/<game_id>/story      the story for the Banker (banker cookie, as the Banker's pages)
- /join/<token>/story         the story for one player (their own cash shown)
"""

from __future__ import annotations

from flask import Blueprint, render_template, request, url_for
from htmx_flask import make_response as htmx_response

from banker import story as stories
from banker.rules import public_state
from banker.web import board, get_store
from banker.web import stories as story_pages
from banker.web.seats import as_banker, as_display, as_player

bp = Blueprint("display", __name__)

POLL_EVERY = "400ms"
LATEST_EVENTS = 8
UNKNOWN = (
    "This display link does not work: it is not the link of any game here. Check that it was "
    "copied whole, or ask the Banker for the link under “Show on a big screen”."
)
REPLACED = (
    "This display link no longer works: the Banker made a new one. Open the link shown under "
    "“Show on a big screen” on the Banker's phone."
)


@bp.after_request
def _private(response):
    # Every answer here carries a token in its links: no shared cache may keep it.
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _gone(token: str):
    """The page for a display link that does not work: replaced (403) or unknown (404)."""
    if get_store().token_revoked(token) == "display":
        return _message(403, REPLACED)
    return _message(404, UNKNOWN)


def _message(status: int, sentence: str):
    # A page still polling with this token reloads itself and shows the sentence instead.
    html = render_template("display/message.html", sentence=sentence)
    return htmx_response(html, status, refresh=True)


def display_view(token: str, game_id: str) -> dict:
    """Everything the big screen shows, from the game's current state as the display sees it."""
    store = get_store()
    state = public_state(store.state(game_id))
    private_cash = bool(state["options"].get("private_cash"))
    events = store.recent_events(game_id, LATEST_EVENTS, "display")  # no one's cash (private)
    return {
        "token": token,
        "game_id": game_id,
        "version": state["version"],
        "status": state["status"],
        "poll_every": POLL_EVERY,
        "spaces": board.spaces(state),
        "players": board.players(state, "display"),
        "now": board.now(state),
        "private_cash": private_cash,
        "events": events,
        "story_url": url_for("display.story", token=token),
    }


@bp.get("/display/<token>")
@as_display(_gone)
def show(token: str, game_id: str):
    """The big-screen page of the game this display token belongs to."""
    return render_template("display/page.html", **display_view(token, game_id))


@bp.get("/display/<token>/version")
@as_display(_gone)
def version(token: str, game_id: str):
    """The display's poll: 204 while the game is at version ?v=, else the fresh fragment."""
    if request.args.get("v", type=int) == get_store().version(game_id):
        return "", 204
    return render_template("display/_live.html", **display_view(token, game_id))


# -- the story ---------------------------------------------------------------------------------


def _story_page(game_id: str, viewer: str, back: str | None):
    whole = story_pages.load(get_store(), game_id)
    shown = stories.for_viewer(whole, viewer)
    return render_template("story/page.html", back=back, **story_pages.context(shown))


@bp.get("/display/<token>/story")
@as_display(_gone)
def story(token: str, game_id: str):
    """The story of the game as the display may see it (no cash with private_cash)."""
    return _story_page(game_id, "display", url_for("display.show", token=token))


@bp.get("/games/<game_id>/story")
@as_banker(pages=True)  # as the Banker's pages: the game's cookie
def banker_story(game_id: str, state: dict):
    """The story for the Banker: everyone's cash."""
    return _story_page(game_id, "banker", url_for("pages.game", game_id=game_id))


@bp.get("/join/<token>/story")
@as_player(lambda token: _message(404, "This link is not a player's link in any game here."))
def player_story(token: str, game_id: str, player_id: str):
    """The story for one player: their own cash, the others' as private_cash says."""
    return _story_page(game_id, player_id, url_for("player.join", token=token))


# -- fragments other pages include ---------------------------------------------------------------


@bp.app_template_global()
def player_chart(game_id: str, player_id: str) -> dict:
    """What templates/story/_player_chart.html shows: this player's line among the others."""
    whole = story_pages.load(get_store(), game_id)
    shown = stories.for_viewer(whole, player_id)
    return story_pages.worth_chart(shown, highlight=player_id, table_rows=8)


@bp.app_template_global()
def big_screen(game_id: str) -> dict:
    """The Banker's "Show on a big screen": {"url"} (its QR code: player.link_code)."""
    from banker.web.player import public_url_for

    return {"url": public_url_for("display.show", token=get_store().display_token(game_id))}
