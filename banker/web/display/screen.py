"""The big screen: a read-only page for a shared screen beside the board (`display_url`).

The display page polls `GET /display/<token>/version?v=N` about every 400 ms: 204 while the
game is still at version N (answered before Flask: banker.web.common.fastpoll), else the fresh
`#display` fragment. It can do nothing; with `private_cash` it shows no one's cash.

Routes (the story pages are banker.web.display.story_pages):
- /display/<token>            the big screen (display token)
- /display/<token>/version    its poll
"""

from __future__ import annotations

from flask import render_template, request, url_for

from banker.rules import public_state
from banker.web.common import board_picture
from banker.web.common.seats import as_display
from banker.web.common.store import get_store
from banker.web.display.blueprint import bp, gone

POLL_EVERY = "400ms"
LATEST_EVENTS = 8


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
        "spaces": board_picture.spaces(state),
        "players": board_picture.players(state, "display"),
        "now": board_picture.now(state),
        "private_cash": private_cash,
        "events": events,
        "story_url": url_for("display.story", token=token),
    }


@bp.get("/display/<token>")
@as_display(gone)
def show(token: str, game_id: str):
    """The big-screen page of the game this display token belongs to."""
    return render_template("display/page.html", **display_view(token, game_id))


@bp.get("/display/<token>/version")
@as_display(gone)
def version(token: str, game_id: str):
    """The display's poll: 204 while the game is at version ?v=, else the fresh fragment."""
    if request.args.get("v", type=int) == get_store().version(game_id):
        return "", 204
    return render_template("display/_live.html", **display_view(token, game_id))
