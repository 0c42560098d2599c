"""What a stranger may cost the server: limits on making games, ceilings on what is
stored, text that is not text, and tokens kept out of the logs.

Anyone who reaches the server may create or import a game without a token (the contract wants
it). So, before a game is made (`POST /api/v1/games`, `/api/v1/games/import`, the home page's
Start form and Resume from file):
- at most CREATES_PER_MINUTE per client in any minute, and IMPORTS_PER_HOUR snapshots in any
  hour (429 with Retry-After); requests from the machine itself (loopback) are not counted
  unless LIMIT_LOOPBACK is set. Who the client is the server says (`client_key`: behind a
  reverse proxy on this machine the address the proxy names, an IPv6 client as its /64);
- at most MAX_GAMES games stored (503) and a database of at most MAX_DB_BYTES (507): the
  Banker's existing games go on, only new ones are refused;
- at most IMPORTS_AT_ONCE imports replaying at the same time (503 with Retry-After): a replay
  is the costliest request there is, and worker threads are for the table.
Settings come from the app's config, else from banker.settings (`SETTINGS` in the config: the
values `banker serve` read, else the defaults).
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections import deque
from pathlib import Path

from flask import Flask, current_app, g, request

from banker import settings, snapshot
from banker.web.common.errors import error_response
from banker.web.common.guards import HTTP_ERRORS, error_page
from banker.web.common.link_shapes import redact
from banker.web.common.seats import TOKEN_MISSING, bearer
from banker.web.common.store import get_store

CREATING = {"api.create_game", "api.import_game", "table.create_game", "snapshots.resume"}
IMPORTING = {"api.import_game", "snapshots.resume"}
# The app's config keys, from banker.settings's names (the database's ceiling in bytes).
FROM_SETTINGS = (
    "creates_per_minute",
    "imports_per_hour",
    "limit_loopback",
    "max_games",
    "imports_at_once",
    "commands_per_second",
    "command_burst",
    "links_per_minute",
)
LOCAL = "local"  # the client key of this machine's own requests (banker.net.clients's too)
# A lone UTF-16 surrogate written as a JSON escape (\ud800 to \udfff): not a character.
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF][0-9a-fA-F]{2}")


class Limiter:
    """Sliding windows of `window` seconds: at most `per_minute` (per window) by key
    (thread-safe)."""

    def __init__(self, per_minute: int, clock=time.monotonic, window: float = 60.0):
        self.per_minute, self.clock, self.window = per_minute, clock, window
        self._seen: dict[str, deque] = {}
        self._lock = threading.Lock()

    def wait(self, key: str) -> float:
        """0 and counts one when `key` may go on now; else seconds to wait."""
        now, window = self.clock(), self.window
        with self._lock:
            if len(self._seen) > 10_000:  # forget the keys whose windows have passed
                self._seen = {a: q for a, q in self._seen.items() if q and q[-1] > now - window}
            times = self._seen.setdefault(key, deque())
            while times and times[0] <= now - window:
                times.popleft()
            if len(times) >= self.per_minute:
                return times[0] + window - now
            times.append(now)
            return 0.0


def install(app: Flask) -> None:
    """Apply the limits to `app` (called once by create_app)."""
    values = app.config.get("SETTINGS") or settings.defaults()
    for name in FROM_SETTINGS:
        app.config.setdefault(name.upper(), getattr(values, name))
    app.config.setdefault("MAX_DB_BYTES", values.max_db_mb * 2**20)
    app.extensions["banker.limiter"] = Limiter(app.config["CREATES_PER_MINUTE"])
    app.extensions["banker.imports_limiter"] = Limiter(
        app.config["IMPORTS_PER_HOUR"], window=3600.0
    )
    app.extensions["banker.imports"] = threading.BoundedSemaphore(app.config["IMPORTS_AT_ONCE"])
    app.extensions["banker.before_body"] = _before_body(app)
    app.before_request(_before)
    app.teardown_request(_release_import)
    app.register_error_handler(UnicodeEncodeError, _not_text)
    redact_logs(app.logger, logging.getLogger("uvicorn.error"), logging.getLogger("werkzeug"))


def refuse(status: int, code: str, message: str, retry_after: float | None = None):
    """The refusal in the API's JSON shape, or as a page for the forms."""
    if request.path.startswith("/api/"):
        response, _ = error_response(status, code, message)
    else:
        html, _ = error_page(status, message)
        response = current_app.response_class(html, status=status, mimetype="text/html")
    response.status_code = status
    tripped(f"{status} {code}", request.environ.get("banker.client"))
    if retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return response


def too_many(code: str, done: str, wait: float):
    """429 `code`: "This device has <done>, the most allowed; try again in …"."""
    later = (
        f"{math.ceil(wait / 60)} minutes" if wait > 120 else f"{max(1, math.ceil(wait))} seconds"
    )
    said = f"This device has {done}, the most allowed; try again in {later}."
    return refuse(429, code, said, wait)


def _before_body(app: Flask):
    """What the server asks before it asks for a body (`Expect: 100-continue`): (status, code,
    sentence) of a refusal the body could not change (larger than its route takes, an API call
    without its token), else None. Called on the server's loop: it reads no body, no store."""
    adapter = app.url_map.bind("localhost")
    most_imported = snapshot.MAX_BYTES + 64 * 1024  # a snapshot, in a form (the resume page)

    def check(method: str, path: str, headers: dict) -> tuple | None:
        try:
            endpoint, _ = adapter.match(path, method=method)
        except Exception:  # no such page, another method: the app answers that
            return None
        length = headers.get("content-length", "")
        most = most_imported if endpoint in IMPORTING else app.config["MAX_CONTENT_LENGTH"]
        if length.isascii() and length.isdigit() and int(length) > most:
            return 413, "body_too_large", HTTP_ERRORS[413]
        if endpoint.startswith("api.") and endpoint not in CREATING:
            if not bearer(headers.get("authorization", "")):
                return 401, "token_missing", TOKEN_MISSING
        return None

    return check


# -- what the host sees when a limit trips: one line a minute per limit ------------------------

_TRIPS: dict[str, list] = {}  # what -> [count since the last line, when the line was written]
_TRIPS_LOCK = threading.Lock()
log = logging.getLogger("banker.limits")


def tripped(what: str, client: str | None, clock=time.monotonic) -> None:
    """Note a limit that refused a request: a WARNING line for the first, then at most one a
    minute for that limit with the count (a flood writes one line a minute, never a
    traceback)."""
    now = clock()
    with _TRIPS_LOCK:
        seen = _TRIPS.setdefault(what, [0, -math.inf])
        seen[0] += 1
        if now - seen[1] < 60:
            return
        count, seen[0], seen[1] = seen[0], 0, now
    log.warning("Refused %s (%d in the last minute; latest from %s)", what, count,
                client or "this machine")  # fmt: skip


def _before():
    if request.method != "POST":
        return None
    if request.path.startswith("/api/") and request.endpoint not in IMPORTING:
        refused = _lone_surrogates()
        if refused is not None:
            return refused
    if request.endpoint not in CREATING:
        return None
    return _creation_refusal() or _import_refusal()


def _lone_surrogates():
    """400 for a JSON body holding a lone surrogate escape (the store could not save it)."""
    try:
        data = request.get_data(cache=True)
    except Exception:  # too large: the view's own check answers that
        return None
    if SURROGATE_ESCAPE.search(data) and has_lone_surrogate(data):
        return refuse(400, "bad_text", NOT_TEXT)
    return None


NOT_TEXT = (
    "Some text in the request is not valid Unicode (a lone UTF-16 surrogate such as \\ud800): "
    "send names and reasons as plain text."
)


def has_lone_surrogate(data: bytes) -> bool:
    """Whether the JSON `data` decodes to any string holding a lone surrogate."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return False  # not JSON: the view says so
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not _encodes(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _not_text(e: UnicodeEncodeError):
    """Text that reached the store but cannot be saved as UTF-8: 400, never 500."""
    return refuse(400, "bad_text", NOT_TEXT)


def client_key(environ: dict | None = None) -> str | None:
    """Who is asking, for the per-client limits: the key the server wrote in the request
    (banker.net.site: `banker.client`, from banker.net.clients), else LOCAL (a request made in
    process, without the server: a test's). None when not to be counted: this machine's own,
    unless LIMIT_LOOPBACK."""
    environ = request.environ if environ is None else environ
    key = environ.get("banker.client") or LOCAL
    if key == LOCAL:
        if not current_app.config["LIMIT_LOOPBACK"]:
            return None
        return environ.get("REMOTE_ADDR") or LOCAL
    return key


def _creation_refusal():
    config = current_app.config
    key = client_key()
    if key is not None:
        wait = current_app.extensions["banker.limiter"].wait(key)
        if wait:
            made = f"made {config['CREATES_PER_MINUTE']} games in the last minute"
            return too_many("too_many_games", made, wait)
        if request.endpoint in IMPORTING:
            wait = current_app.extensions["banker.imports_limiter"].wait(key)
            if wait:
                made = f"resumed {config['IMPORTS_PER_HOUR']} games from a file in the last hour"
                return too_many("too_many_imports", made, wait)

    store = get_store()
    games = store.game_count()
    if games >= config["MAX_GAMES"]:
        return refuse(
            503,
            "server_full",
            f"This server already holds {games:,} games, its ceiling, so no new game can start; "
            "the games under way go on. Its owner can remove finished games to make room.",
            60,
        )
    size = database_bytes(store.path)
    if size >= config["MAX_DB_BYTES"]:
        return refuse(
            507,
            "disk_full",
            f"The games database has reached its ceiling of {config['MAX_DB_BYTES'] // 2**20:,} "
            "MB, so no new game can start; the games under way go on.",
        )
    return None


def _import_refusal():
    if request.endpoint not in IMPORTING:
        return None
    if not current_app.extensions["banker.imports"].acquire(timeout=0.2):
        return refuse(
            503,
            "busy",
            "The server is resuming other games right now; try again in a few seconds.",
            5,
        )
    g.banker_import_slot = True
    return None


def _release_import(exc=None):
    if g.pop("banker_import_slot", False):
        current_app.extensions["banker.imports"].release()


def database_bytes(path: str) -> int:
    """The database's size on disk, with its write-ahead log."""
    total = 0
    for suffix in ("", "-wal"):
        try:
            total += Path(path + suffix).stat().st_size
        except OSError:
            pass
    return total


# -- logs ------------------------------------------------------------------------------------


class RedactTokens(logging.Filter):
    """A log filter that writes no token: the message and its arguments are redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and record.exc_info[1] is not None:
            # Tracebacks name the URL too (werkzeug, Flask): format them now, redacted.
            formatter = logging.Formatter()
            record.exc_text = redact(formatter.formatException(record.exc_info))
            record.exc_info = None
            record.msg = f"{record.msg}\n{record.exc_text}"
            record.exc_text = None
        return True


def redact_logs(*loggers: logging.Logger) -> None:
    """Redact tokens in what these loggers, and every handler of the root logger, write."""
    f = RedactTokens()
    for logger in loggers:
        if not any(isinstance(x, RedactTokens) for x in logger.filters):
            logger.addFilter(f)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(x, RedactTokens) for x in handler.filters):
            handler.addFilter(f)
