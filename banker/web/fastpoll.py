"""Answer an idle phone's poll before Flask: the cheapest request the server gets.

Every player's page asks `GET /join/<token>/version?v=N` about every 700 ms. While the game is
still at version N the answer is an empty 204, found with two dictionary lookups in the Store's
memory; everything else (a new version, an unknown or replaced token) goes on to Flask, which
renders the fragment or the clear page as `banker.web.player` says.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from banker.store import Store

_HEADERS = [("Cache-Control", "private, no-store"), ("Content-Length", "0")]


class IdlePolls:
    """WSGI middleware: 204 for a player's version poll when nothing changed."""

    def __init__(self, app, store: Store):
        self.app, self.store = app, store

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if (
            environ.get("REQUEST_METHOD") == "GET"
            and path.startswith("/join/")
            and path.endswith("/version")
            and path.count("/") == 3
        ):
            token = path[6:-8]
            v = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0]
            plain = v.isascii() and v.isdigit() and len(v) <= 12  # not "²", nor 4,300 digits
            found = self.store.player_by_token(token) if plain else None
            if found is not None and int(v) == self.store.version(found[0]):
                start_response("204 NO CONTENT", list(_HEADERS))
                return [b""]
        return self.app(environ, start_response)
