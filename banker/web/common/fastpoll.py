"""Answer an idle phone's poll, and a plainly well-formed API command, before Flask.

Every player's page asks `GET /join/<token>/version?v=N` about every 700 ms, the display's
`GET /display/<token>/version?v=N` about every 400 ms. While the game is still at version N
the answer is an empty 204, found with two dictionary lookups in the Store's memory; a
player's poll's time is noted too (Store.saw: the Banker's table shows who follows).
Everything else (a new version, an unknown or replaced token) goes on to Flask, which renders
the fragment or the clear page as `banker.web.player` and `banker.web.display` say.

A command sent to the JSON API (`POST /api/v1/games/<id>/commands`) is most of the table's
work: Flask's request and response objects, routing and hooks were about a quarter of its
cost. When its request is plainly well-formed (a JSON body of a known length, a token of that
game, no lone surrogate escapes) it is run here, through the very functions the API's view
calls (banker.web.common.commands: `run_command`, `answer_text`), and answered as the view
would (200, the same JSON text, `Idempotent-Replayed`). Anything else, and any refusal, goes
on to Flask with the body untouched, which then answers it (a refused command changed
nothing, so running it again there gives the same refusal, with the API's one error handler).
"""

from __future__ import annotations

import io
from urllib.parse import parse_qs

from banker.store import Store
from banker.web.common import commands, limits, rates, seats

_HEADERS = [("Cache-Control", "private, no-store"), ("Content-Length", "0")]
_COMMANDS_PREFIX, _COMMANDS_SUFFIX = "/api/v1/games/", "/commands"


class IdlePolls:
    """WSGI middleware: 204 for a player's or the display's version poll when nothing changed;
    a plainly well-formed API command run and answered."""

    def __init__(self, app, store: Store):
        self.app, self.store = app, store
        # The Flask app whose wsgi_app this wraps: its MAX_CONTENT_LENGTH bounds the bodies
        # read here (without it, commands all go through Flask).
        self.flask = getattr(app, "__self__", None)

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if (
            environ.get("REQUEST_METHOD") == "POST"
            and path.startswith(_COMMANDS_PREFIX)
            and path.endswith(_COMMANDS_SUFFIX)
            and path.count("/") == 5
        ):
            answered = self._command(environ, start_response, path)
            if answered is not None:
                return answered
        if (
            environ.get("REQUEST_METHOD") == "GET"
            and path.endswith("/version")
            and path.count("/") == 3
            and path.startswith(("/join/", "/display/"))
        ):
            token = path[path.index("/", 1) + 1 : -8]
            v = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0]
            if v.isascii() and v.isdigit() and len(v) <= 12 and self._still(path, token, int(v)):
                start_response("204 NO CONTENT", list(_HEADERS))
                return [b""]
        return self.app(environ, start_response)

    def _command(self, environ, start_response, path: str):
        """The answer to an API command run here, or None (environ left for Flask to answer
        the same request: its body is put back)."""
        config = getattr(self.flask, "config", None)
        length = environ.get("CONTENT_LENGTH", "")
        kind = environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
        if (
            config is None
            or kind != "application/json"
            or not (length.isascii() and length.isdigit())
            or not 0 < int(length) <= (config.get("MAX_CONTENT_LENGTH") or 0)
            or "HTTP_TRANSFER_ENCODING" in environ
        ):
            return None
        token = seats.bearer(environ.get("HTTP_AUTHORIZATION", ""))
        game_id = path[len(_COMMANDS_PREFIX) : -len(_COMMANDS_SUFFIX)]
        try:
            caller = token and self.store.role(game_id, token)
        except Exception:  # no such game: Flask's 404
            caller = None
        if not caller:
            return None
        peer, forwarded = environ.get("REMOTE_ADDR", ""), environ.get("HTTP_X_FORWARDED_FOR")
        if rates.wait(self.flask, token, peer, forwarded):
            return None  # too fast: Flask says so (429)
        data = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(data)
        if len(data) != int(length) or limits.SURROGATE_ESCAPE.search(data):
            return None
        try:
            command = commands.json_object(data)
            key = environ.get("HTTP_IDEMPOTENCY_KEY")
            answer = commands.run_command(self.store, game_id, token, caller, command, key)
        except Exception:  # refused (nothing changed): Flask runs it again and says why
            return None
        # Committed: from here on nothing goes back to Flask (it would run the command again).
        body = commands.answer_text(answer, caller).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        if answer.replayed:
            headers.append(("Idempotent-Replayed", "true"))
        start_response("200 OK", headers)
        return [body]

    def _still(self, path: str, token: str, v: int) -> bool:
        """_unchanged, or False when the database fails: Flask then answers (503, its page)."""
        try:
            return self._unchanged(path, token, v)
        except Exception:
            return False

    def _unchanged(self, path: str, token: str, v: int) -> bool:
        """Whether this page's token is current and its game still at version v (a player's
        poll is noted for Store.following either way)."""
        if path.startswith("/join/"):
            found = self.store.player_by_token(token)
            if found is None:
                return False
            self.store.saw(*found)
            # A game resumed elsewhere: the page is told by Flask (pages: moved to another game).
            return v == self.store.version(found[0]) and self.store.moved_to(found[0]) is None
        game_id = self.store.game_for_display_token(token)
        return game_id is not None and v == self.store.version(game_id)
