"""The big screen: a read-only page for a shared screen beside the board (`display_url`).

Its push stream carries each change as the `#display` fragment of `version` below, rendered
once for every big screen of the game (banker.web.common.pushed); where push is blocked, the
page asks `GET /display/<token>/version?v=N` every 400 ms (templates/display/page.html): 204
while the game is still at version N (answered before Flask: banker.web.common.fastpoll), else
the fresh `#display` fragment. It can do nothing; with `private_cash` it shows no one's cash.

Routes (the story pages are banker.web.display.story_pages):
- /display/<token>            the big screen (display token)
- /display/<token>/version    its poll
"""

from __future__ import annotations

from flask import current_app, render_template, request, url_for
from markupsafe import Markup

from banker.rules import public_state
from banker.web.common import board_picture
from banker.web.common.recent import Recent
from banker.web.common.seats import as_display
from banker.web.common.store import get_store
from banker.web.display import story_pages
from banker.web.display.blueprint import bp, gone

LATEST_EVENTS = 8
MOST_BOARDS = 1024  # games whose drawn tiles are kept (about 12 KB each), the oldest first out

_boards = Recent(MOST_BOARDS)  # game -> (what the tiles show, their HTML)


def spaces_html(game_id: str, state: dict) -> Markup:
    """The board's 40 tiles (display/_spaces.html), drawn only when what they show changed
    since the game's last drawing (board_picture.spaces_key): most changes (cash, a claim, a
    turn) move no token and no deed, and the tiles were about half of the big screen's
    drawing."""
    said = board_picture.spaces_key(state)
    found = _boards.get(game_id)
    if found is not None and found[0] == said:
        return found[1]
    template = current_app.jinja_env.get_template("display/_spaces.html")
    html = Markup(template.render(spaces=board_picture.spaces(state)))
    _boards.put(game_id, (said, html))
    return html


def display_view(token: str, game_id: str) -> dict:
    """Everything the big screen shows, from the game's current state as the display sees it."""
    store = get_store()
    state = public_state(store.state(game_id))
    private_cash = bool(state["options"].get("private_cash"))
    events = store.recent_events(game_id, LATEST_EVENTS, "display")  # no one's cash (private)
    now = board_picture.now(state)
    players = board_picture.players(state, "display")
    acting = {a["id"] for a in now["acting"]}
    if acting >= {p["id"] for p in players if not p["eliminated"]}:
        acting = set()  # everyone may act (an auction): no one is singled out
    over = state["status"] in ("finished", "unfinished")
    end = None
    if over:
        end = {**story_pages.ending(game_id), "initials": board_picture.initials(state)}
    return {
        "token": token,
        "game_id": game_id,
        "version": state["version"],
        "status": state["status"],
        "spaces_html": spaces_html(game_id, state),
        "players": [{**p, "acting": p["id"] in acting} for p in players],
        "now": now,
        "private_cash": private_cash,
        "events": events,
        "story_url": url_for("display.story", token=token),
        "ending": over,
        "end": end,
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
