"""One HTTP connection as `banker serve` keeps it: uvicorn's httptools protocol, with the limits
that keep one client, slow or hostile, from holding the server (banker.settings declares them).

uvicorn has no hooks for these, so this subclasses its HttpToolsProtocol (private: the range
of uvicorn versions it was tested with is pinned in pyproject.toml, and
tests/server/test_connections.py and test_hostile_serve.py hold each limit through a real
server).

- A connection that has sent nothing for `idle_seconds` (before its first request, or between
  requests) is closed; a request whose headers are not all in `header_seconds` after its first
  byte ("slowloris"), or whose body is not all in `body_seconds`, is answered 408 and closed.
- At most `connections` open in all, and `per_address` from one client address other than
  this machine's own (an IPv6 /64 counts as one; banker.net.clients): past either, the new
  connection is answered 503 or 429 and closed at once.
- A request line and headers over `max_header_bytes` is 431, a body over `max_body` 413, a
  malformed request 400.
- An answer the client takes nothing of for `write_seconds` is cut off (`cut`,
  `watch_unsent`: banker.net.site sends answers in parts).
Every one of these answers carries the app's security headers and is JSON under /api/
(banker.net.refusals). A push stream holds its connection while its page is open: it sent its
request, so it is not idle; the streams have their own cap per client (banker.net.push).
"""

from __future__ import annotations

import contextlib
import fcntl
import socket
import struct
import termios

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from banker.net import clients, refusals
from banker.web.common.limits import tripped


class Refuse(Exception):
    """Raised in a parser callback: answer `status` and close (httptools hands it back as the
    cause of its parser error)."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class Census:
    """The open connections of each client address (this machine's not counted)."""

    def __init__(self):
        self.by_key: dict[str, int] = {}

    def add(self, key: str) -> int:
        count = self.by_key.get(key, 0) + 1
        self.by_key[key] = count
        return count

    def remove(self, key: str) -> None:
        count = self.by_key.get(key, 0) - 1
        if count > 0:
            self.by_key[key] = count
        else:
            self.by_key.pop(key, None)


class Connection(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 connection with banker's limits (see the module's docstring)."""

    def __init__(self, config, server_state, app_state, _loop=None):
        super().__init__(config, server_state, app_state, _loop)
        self.limits = config.banker_limits
        census = getattr(server_state, "banker_census", None)
        if census is None:
            census = server_state.banker_census = Census()
        self.census: Census = census
        self.key: str | None = None  # counted in the census under this key
        self.refused = False
        self.deadline = None
        self.in_headers = False
        self.header_bytes = self.parsed_bytes = 0
        self.body_bytes = 0
        self.on_lost = None  # a push stream's callback when the connection goes

    # -- the connection's life ------------------------------------------------------------

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        key = clients.client_key(self.client[0] if self.client else "")
        if len(self.connections) > self.limits.connections:
            self._refuse(503, retry_after=5)
            return
        if key != clients.LOCAL:
            if self.census.add(key) > self.limits.per_address:
                self.census.remove(key)
                self._refuse(429, retry_after=10)
                return
            self.key = key
        # Nothing sent yet: closed after idle_seconds, as between requests (uvicorn's timer,
        # which any data received cancels).
        self.timeout_keep_alive_task = self.loop.call_later(
            self.limits.idle_seconds, self.timeout_keep_alive_handler
        )

    def connection_lost(self, exc) -> None:
        if self.key is not None:
            self.census.remove(self.key)
            self.key = None
        self._deadline(None)
        if self.on_lost is not None:
            lost, self.on_lost = self.on_lost, None
            lost()
        super().connection_lost(exc)
        # The request's scope names this connection (for a push stream): without that link a
        # closed connection holds no reference cycle, so it is freed at once, never left to the
        # garbage collector (whose full passes banker.net.collector keeps short).
        if self.scope is not None:
            self.scope.pop("banker.connection", None)

    def data_received(self, data: bytes) -> None:
        self._unset_keepalive_if_required()
        if self.refused:
            return
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._refuse(400)  # no WebSocket or other upgrade here
            return
        except httptools.HttpParserError as e:
            cause = e.__context__
            self._refuse(cause.status if isinstance(cause, Refuse) else 400)
            return
        if self.in_headers:
            self.header_bytes += len(data)
            if self.header_bytes > self.limits.max_header_bytes:
                self._refuse(431)

    def send_400_response(self, msg: str) -> None:  # uvicorn's own, for a malformed request
        self._refuse(400)

    # -- the parser's callbacks -----------------------------------------------------------

    def on_message_begin(self) -> None:
        self.in_headers, self.header_bytes, self.body_bytes = True, 0, 0
        self.parsed_bytes = 0
        self._deadline(self.limits.header_seconds)
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def _count(self, size: int) -> None:
        """Headers parsed so far (a whole request may come in one packet)."""
        self.parsed_bytes += size
        if self.parsed_bytes > self.limits.max_header_bytes:
            raise Refuse(431)

    def on_headers_complete(self) -> None:
        self.in_headers = False
        length = next((v for k, v in self.headers if k == b"content-length"), b"0")
        chunked = any(k == b"transfer-encoding" for k, _ in self.headers)
        if length.isdigit() and int(length) > self.limits.max_body:
            raise Refuse(413)
        self._deadline(self.limits.body_seconds if chunked or length not in (b"", b"0") else None)
        super().on_headers_complete()
        self.scope["banker.connection"] = self

    def on_body(self, body: bytes) -> None:
        self.body_bytes += len(body)
        if self.body_bytes > self.limits.max_body:
            raise Refuse(413)
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._deadline(None)
        super().on_message_complete()

    # -- refusals and deadlines -----------------------------------------------------------

    def cut(self, why: str) -> None:
        """Drop the connection at once, whatever it has not sent: a reset, so that the system
        frees its buffers too (a plain close would keep them until it gave up, minutes)."""
        self.refused = True
        self._deadline(None)
        tripped(f"cut off: {why} in {self.limits.write_seconds:g} s", self._client())
        if self.cycle is not None:  # the app's answer ends here (uvicorn need not say so)
            self.cycle.response_started = self.cycle.response_complete = True
        transport = self.transport
        if transport is not None:
            sock = transport.get_extra_info("socket")
            with contextlib.suppress(OSError, AttributeError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            transport.abort()

    def keep_send_buffer(self, size: int) -> None:
        """At most `size` bytes of this connection's answers waiting in the system's send
        buffer (its default grows to 4 MB per connection)."""
        sock = self.transport.get_extra_info("socket") if self.transport else None
        with contextlib.suppress(OSError, AttributeError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)

    def watch_unsent(self, seconds: float) -> None:
        """Cut the connection if what it has not sent of its latest answer (here or in the
        system's send buffer) has not shrunk in `seconds`."""
        unsent = self._unsent()
        if unsent:
            self.loop.call_later(seconds, self._still_unsent, unsent)

    def _unsent(self) -> int:
        transport = self.transport
        if transport is None or transport.is_closing():
            return 0
        queued = 0
        sock = transport.get_extra_info("socket")
        with contextlib.suppress(OSError, AttributeError, ValueError):
            out = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
            queued = struct.unpack("i", out)[0]
        return transport.get_write_buffer_size() + queued

    def _still_unsent(self, before: int) -> None:
        if self._unsent() >= before > 0:
            self.cut("an answer not read")

    def _client(self) -> str:
        return clients.client_key(self.client[0] if self.client else "")

    def _refuse(self, status: int, retry_after: int | None = None) -> None:
        """Answer `status` (unless an answer already began) and close the connection."""
        self.refused = True
        self._deadline(None)
        tripped(f"{status} {refusals.SAID.get(status, ('error',))[0]}", self._client())
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            url = getattr(self, "url", b"") or b""
            transport.write(refusals.response(status, url, retry_after))
            if self.cycle is not None:
                self.cycle.response_started = self.cycle.response_complete = True
        transport.close()

    def _deadline(self, seconds: float | None) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        if seconds is not None:
            self.deadline = self.loop.call_later(seconds, self._refuse, 408)
