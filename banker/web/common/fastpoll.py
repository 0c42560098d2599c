"""Answer an idle phone's poll before Flask.

Every player's page asks `GET /join/<token>/version?v=N` about every 700 ms, the display's
`GET /display/<token>/version?v=N` about every 400 ms (where push is blocked). While the game
is still at version N the answer is an empty 204, found with two dictionary lookups in the
Store's memory; a player's poll's time is noted too (Store.saw: the Banker's table shows who
follows). Everything else (a new version, an unknown or replaced token, and every command: they
all take Flask's one path, its hooks included) goes on to Flask, which renders the fragment or
the clear page as `banker.web.player` and `banker.web.display` say.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from banker.store import Store
from banker.web.common.link_shapes import poll_of

_HEADERS = [("Cache-Control", "private, no-store"), ("Content-Length", "0")]


class IdlePolls:
    """WSGI middleware: 204 for a player's or the display's version poll when nothing
    changed."""

    def __init__(self, app, store: Store):
        self.app, self.store = app, store

    def __call__(self, environ, start_response):
        found = environ.get("REQUEST_METHOD") == "GET" and poll_of(environ.get("PATH_INFO", ""))
        if found:
            v = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0]
            if v.isascii() and v.isdigit() and len(v) <= 12 and self._still(*found, int(v)):
                start_response("204 NO CONTENT", list(_HEADERS))
                return [b""]
        return self.app(environ, start_response)

    def _still(self, room: str, token: str, v: int) -> bool:
        """_unchanged, or False when the database fails: Flask then answers (503, its page)."""
        try:
            return self._unchanged(room, token, v)
        except Exception:
            return False

    def _unchanged(self, room: str, token: str, v: int) -> bool:
        """Whether this page's token is current and its game still at version v (a player's
        poll is noted for Store.following either way)."""
        if room == "join":
            found = self.store.player_by_token(token)
            if found is None:
                return False
            self.store.saw(*found)
            # A game resumed elsewhere: the page is told by Flask (pages: moved to another game).
            return v == self.store.version(found[0]) and self.store.moved_to(found[0]) is None
        game_id = self.store.game_for_display_token(token)
        # A game resumed elsewhere: Flask tells the big screen to follow it.
        return (
            game_id is not None
            and v == self.store.version(game_id)
            and self.store.moved_to(game_id) is None
        )
