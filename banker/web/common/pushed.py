"""What a push stream carries (banker.net.push): the view its page shows, rendered here once per
audience when the game changes, as the page's own poll would have it.

The hub asks `render(page)` (registered by `install` as the app's "banker.push.render"; the
hub imports no view) in a worker thread, with the stream's own request (its link, the Banker's
cookie, its host). The answer is the very fragment the page's poll gets, made by the same views
through Flask's request (the same URL, hooks, seat checks and templates; only what dresses an
answer for the network is left out: `_view`), so a player's stream carries only what that
seat's own page would show (private cash included), and the big screen only what it shows:

- the Banker's pages (`as` one of the screens: table, board, history, trade, player:<id>):
  `GET /games/<id>/poll?v=<since>&screen=<as>` (the screen with the sentence of what happened);
- a player's page (`as=view`): `GET /join/<token>/version?v=<since>` (the live view, the
  table, this player's news since the page's version);
- the big screen (`as=screen`): `GET /display/<token>/version?v=<since>`.

None when there is nothing to swap (a refusal, a game moved elsewhere: the page then asks and
is told by the app).

Before any view is rendered, `figures(state, kind, player)` (the app's "banker.push.figures")
gives each page the money it shows, so that a change of cash is on every screen at once, not
after the renders (about 10 ms for a table of six pages): every player's cash as that page's seat
may see it (`rules.view_for`: under `private_cash`, a player's page holds only its own figure,
the big screen none), by the id of the element that shows it there, as the templates write it
(`money`). A figure is an early copy of what the view that follows shows
(tests/app/test_pushed_parts.py holds each to its view's element).

A page's own tap names its stream (static/refresh.js sends the name its stream's `ready` gave,
header X-Banker-Stream): `tapped` (on the command path, before the command is executed) holds
that stream from the renders and `answered` lets it go when the request ends, with the version
its answer showed: the answer is that page's view (it was rendered a second time for the push,
which the page ignored).
"""

from __future__ import annotations

import functools
import io
import sys
from urllib.parse import quote

from flask import Flask, current_app, g, has_request_context, request

from banker.rules import view_for
from banker.web.common import hygiene
from banker.web.common.present import money

SCREENS = ("table", "board", "history", "trade", "player")
TAP_HEADER = "X-Banker-Stream"
VIEWS = {"join": "view", "display": "screen"}
# The element that shows a player's cash on each audience's pages, by the player's id (the
# templates' ids: the Banker's list of players, the others' on a player's phone, the big
# screen's people), and a player's own on their phone.
CASH_IDS = {"games": "strip-cash-{}", "join": "other-cash-{}", "display": "person-cash-{}"}
OWN_CASH_ID = "my-cash"


def request_of(page) -> tuple[str, str] | None:
    """(path, query) of the poll whose answer is this page's view, or None for a view unknown."""
    since = "" if page.since is None else str(page.since)
    if page.kind == "games":
        if page.view.partition(":")[0] not in SCREENS:
            return None
        # f: never the phones following now, so that the table is drawn even at its version.
        return f"/games/{page.key}/poll", f"v={since}&screen={quote(page.view)}&f=-"
    if VIEWS.get(page.kind) == page.view:
        return f"/{page.kind}/{page.key}/version", f"v={since}"
    return None


def render(app: Flask, page) -> str | None:
    """The HTML the page swaps in (see the module's docstring), or None."""
    found = request_of(page)
    if found is None:
        return None
    environ = dict(page.environ)
    for name in ("HTTP_ACCEPT_ENCODING", "HTTP_LAST_EVENT_ID", "HTTP_IF_NONE_MATCH"):
        environ.pop(name, None)
    environ.update(
        REQUEST_METHOD="GET",
        PATH_INFO=found[0],
        QUERY_STRING=found[1],
        HTTP_ACCEPT="text/html",
        HTTP_HX_REQUEST="true",
    )
    environ["wsgi.input"] = io.BytesIO()
    public = app.config.get("PUBLIC_URL")
    if public:
        hygiene.PublicURL(None, public).seen_at(environ)
    return _view(app, environ)


def _view(app: Flask, environ: dict) -> str | None:
    """The poll's answer as its view function gives it, through Flask's request (its URL
    matched, the before-request hooks run: a moved game's refresh, the seat checks), without
    what only dresses an answer for the network (the after-request hooks' headers, cookies,
    the WSGI response), which no page ever receives: 4-8% of a player's view, and a change
    renders six. None unless it is a 200 that swaps in place (not a refresh, a redirect, an
    error: the page then asks)."""
    with app.request_context(environ):
        try:
            answer = app.preprocess_request()
            if answer is None:
                answer = app.dispatch_request()
            response = app.make_response(answer)
        except Exception as e:  # a refusal, a 404 as the app answers them; then the page asks
            try:
                app.handle_user_exception(e)
            except Exception:  # none answers it: logged as Flask logs a request's
                app.log_exception(sys.exc_info())
            return None
    if response.status_code != 200:
        return None
    if any(k in response.headers for k in ("HX-Refresh", "HX-Redirect", "Location")):
        return None
    return response.get_data(as_text=True) or None


def figures(state: dict, kind: str, player: str | None) -> dict[str, str]:
    """The cash the pages of an audience (`kind` of its stream: "games" the Banker's, "join" a
    player's, `player` theirs, "display" the big screen) show, as they show it, by the id of its
    element: only what that seat may see."""
    viewer = {"games": "banker", "display": "display"}.get(kind, player)
    shown = {}
    for p in view_for(state, viewer)["players"]:
        if p["cash"] is not None:
            at = OWN_CASH_ID if kind == "join" and p["id"] == player else CASH_IDS[kind]
            shown[at.format(p["id"])] = money(p["cash"])
    return shown


def tapped(game_id: str, seat: str) -> None:
    """(Before a command from a page is executed.) Hold the page's stream from the renders until
    the request ends (`answered`): the page's answer is its view."""
    hub = current_app.extensions.get("banker.push")
    name = request.headers.get(TAP_HEADER, "") if has_request_context() else ""
    if hub is None or not name or len(name) > 40 or "banker_tap" in g:
        return
    stream = hub.tap(name, game_id, seat)
    if stream is not None:
        g.banker_tap = [hub, stream, None]


def answer_shows(version: int) -> None:
    """The version the tap's answer shows (the command's): the stream's page has it."""
    tap = g.get("banker_tap")
    if tap is not None:
        tap[2] = version


def _answered(error=None) -> None:
    """(The request's end, whatever happened.) The tapping page's stream is let go."""
    tap = g.pop("banker_tap", None)
    if tap is not None:
        hub, stream, version = tap
        hub.answered(stream, None if error is not None else version)


def install(app: Flask) -> None:
    app.teardown_request(_answered)
    app.extensions["banker.push.render"] = functools.partial(render, app)
    app.extensions["banker.push.figures"] = figures
