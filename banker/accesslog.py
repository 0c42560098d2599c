"""The optional request log (`banker serve --access-log FILE`): WSGI middleware, so it is the
same whatever server runs the app. One line per request, when its answer has been sent:

    127.0.0.1 - - [01/Dec/2025:20:15:03 +0000] "GET /join/*** HTTP/1.1" 200 5120 3.1ms

the client's address (as the app saw it: behind a trusted proxy, the real client), the time,
the request line, the status, the bytes of the body and the time it took. Tokens never reach
the log: the player's and the display's links (`/join/<token>…`, `/display/<token>…`) and a
`token=` in the query are written `***`; headers (a Bearer token, cookies) are not written."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TextIO

from banker.web.common.link_shapes import redact

SECRET = "***"
_UNPRINTABLE = re.compile(r'[\x00-\x1f\x7f-\xff"\\]')


def _printable(text: str) -> str:
    """No quote, backslash or control character of a request in the log line (no forged line)."""
    return _UNPRINTABLE.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def request_target(environ: dict) -> str:
    """The path and query the client asked for, tokens written ***."""
    path = redact(environ.get("PATH_INFO", "") or "/", SECRET)
    path = environ.get("SCRIPT_NAME", "") + path
    query = redact(environ.get("QUERY_STRING", ""), SECRET)
    return _printable(f"{path}?{query}" if query else path)


class AccessLog:
    """WSGI middleware writing one line per request to `out` (a text stream)."""

    def __init__(self, app, out: TextIO):
        self.app, self.out = app, out
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        started = time.monotonic()
        line = (
            f"{_printable(environ.get('REQUEST_METHOD', '-'))} {request_target(environ)} "
            f"{_printable(environ.get('SERVER_PROTOCOL', '-'))}"
        )
        seen = {"status": "-"}

        def noted(status, headers, exc_info=None):
            seen["status"] = status.partition(" ")[0]
            return start_response(status, headers, exc_info)

        def done(size: int) -> None:
            self.write(environ, line, seen["status"], size, time.monotonic() - started)

        try:
            body = self.app(environ, noted)
        except BaseException:
            done(0)
            raise
        return _Counted(body, done)

    def write(self, environ, line: str, status: str, size: int, seconds: float) -> None:
        when = datetime.now(UTC).strftime("%d/%b/%Y:%H:%M:%S +0000")
        client = _printable(environ.get("REMOTE_ADDR") or "-")
        text = f'{client} - - [{when}] "{line}" {status} {size} {seconds * 1000:.1f}ms\n'
        try:
            with self._lock:
                self.out.write(text)
                self.out.flush()
        except (OSError, ValueError):  # a full disk or a closed file never fails the request
            pass


class _Counted:
    """The answer's body as it is sent, counted; `done(bytes)` once it is closed."""

    def __init__(self, body: Iterable[bytes], done: Callable[[int], None]):
        self.body, self.done, self.size = body, done, 0

    def __iter__(self):
        for chunk in self.body:
            self.size += len(chunk)
            yield chunk

    def close(self):
        try:
            if hasattr(self.body, "close"):
                self.body.close()
        finally:
            self.done(self.size)
