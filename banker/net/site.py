"""The whole site as one ASGI app: a page's push stream (banker.net.push) answered on the event
loop, every other request handed to the Flask app (WSGI) in a pool of worker threads.

A worker thread is never held by the network, so a patient stranger cannot pin them all:
- the request's body is read here, on the event loop, before any thread is given the request
  (within `body_seconds`: banker.net.connection answers 408 past it); a request that says
  `Expect: 100-continue` is first asked of the app (`banker.before_body`: too large for its
  route, no token where one is needed) and refused before its body is asked for; the bodies
  one client has on their way at once are at most `uploads_per_client_mb` together (past it,
  413 `uploads_too_large`), so a stranger's many large bodies cannot fill the memory;
- one client holds at most `threads_per_client` worker threads at once, each turn lasting
  until its answer is taken; its other requests wait their turn here, on the loop, holding no
  thread (this machine's own are not counted; behind a proxy on this machine a client is the
  one the proxy names: banker.net.clients);
- the answer is made whole in the thread, then sent from the loop in parts of WRITE_CHUNK
  bytes, each waiting for the client to take the previous one: a client that takes nothing
  for `write_seconds` is cut off, and an answer nobody reads holds at most a part in memory.
- A Host header that is not a host name (a label over 63 characters, an empty label) is
  answered 400 here: the app would fail on it.
The client's key (banker.net.clients) is handed to the app as `banker.client` in the WSGI
environ: the app's per-client limits (banker.web.common.limits) count it.

One hop to the thread, one back with the whole answer: a2wsgi's WSGIMiddleware, measured
first, crossed threads for every chunk it sent and received (four times for a command) and
took about 0.15 ms more per request (docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import sys
from concurrent.futures import ThreadPoolExecutor

from banker.net import clients, push, refusals
from banker.net.collector import Collector
from banker.web.common.limits import tripped
from banker.web.common.link_shapes import match_stream

_LABEL = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?")  # a host name's label
WRITE_CHUNK = 64 * 1024  # an answer is sent in parts of this size, each as the client takes it
SEND_BUFFER = 256 * 1024  # the system's send buffer of a connection sending a larger answer


class Site:
    """ASGI: push streams on the loop, Flask in `threads` worker threads."""

    def __init__(self, app, threads: int, limits):
        self.app, self.limits = app, limits
        self.pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="banker")
        self.hub = push.Hub(app, limits, self.pool)
        self.hub.environ = lambda scope: _environ(scope, io.BytesIO())  # a stream's request
        self.collector = Collector()
        self.turns: dict[str, _Turns] = {}  # each client's worker threads in use
        self.uploading: dict[str, int] = {}  # each client's bytes of bodies on their way
        public = app.config.get("PUBLIC_URL") or ""
        self.prefix = public.split("://", 1)[-1].partition("/")[2].rstrip("/")
        self.prefix = f"/{self.prefix}" if self.prefix else ""

    async def __call__(self, scope, receive, send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self._lifespan(receive, send)
            return
        if kind != "http":
            return
        path = scope["path"]
        if self.prefix and (path == self.prefix or path.startswith(self.prefix + "/")):
            path = path[len(self.prefix) :] or "/"
        found = match_stream(path) if scope["method"] == "GET" else None
        if found is not None:
            await self.hub.stream(scope, receive, send, *found)
            return
        await self.bridge(scope, receive, send, path)

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                loop = asyncio.get_running_loop()
                self.hub.start(loop)
                # The garbage collector's full passes kept short (banker.net.collector).
                self.collector.start(loop)
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.hub.close()
                self.collector.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def bridge(self, scope, receive, send, path: str) -> None:
        """The request through Flask in a worker thread, once its body is all here; its answer
        sent from the loop as the client takes it."""
        headers = scope["headers"]
        peer = (scope.get("client") or ("", 0))[0]
        forwarded = _header(headers, b"x-forwarded-for")
        client = clients.client_key(
            clients.forwarded_for(peer, None if forwarded is None else forwarded.decode("latin-1"))
        )
        if not _host_ok(_header(headers, b"host")):
            said = (400, "bad_host", "The Host header is not a host name.")
            await _refuse(send, scope, client, *said)
            return
        if _header(headers, b"expect", b"").lower() == b"100-continue":
            said = self.app.extensions["banker.before_body"](
                scope["method"], path, dict(_wsgi_headers(headers))
            )
            if said is not None:
                await _refuse(send, scope, client, *said)
                return
        try:
            body = await self._read_body(receive, client)
        except _TooMuchAtOnce:
            said = (
                413,
                "uploads_too_large",
                "This client is already sending as much as the "
                "server takes from one at once; send it again when the others are in.",
            )
            await _refuse(send, scope, client, *said)
            return
        if body is None:  # gone, or refused by the connection (too slow, too large)
            return
        environ = _environ(scope, io.BytesIO(body))
        environ["banker.client"] = client
        loop = asyncio.get_running_loop()
        # The client's turn lasts until its answer is taken: what one client has not read yet is
        # at most threads_per_client answers, whatever it asks meanwhile.
        async with self._turn(client):
            status, headers, data = await loop.run_in_executor(self.pool, _call, self.app, environ)
            await self._answer(scope, send, status, headers, data)

    async def _read_body(self, receive, client: str) -> bytes | None:
        """The request's whole body, received on the loop; None when the client went first.
        What one client has on its way at once, all its requests together, is at most
        `uploads_per_client_mb` (this machine's own are not counted): past it,
        _TooMuchAtOnce."""
        budget = None if client == clients.LOCAL else self.limits.uploads_per_client_mb << 20
        parts, taken = [], 0
        try:
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return None
                part = message.get("body", b"")
                if budget is not None and part:
                    held = self.uploading.get(client, 0) + len(part)
                    if held > budget:
                        raise _TooMuchAtOnce
                    self.uploading[client], taken = held, taken + len(part)
                parts.append(part)
                if not message.get("more_body", False):
                    return b"".join(parts)
        finally:
            if taken:
                left = self.uploading[client] - taken
                if left:
                    self.uploading[client] = left
                else:
                    del self.uploading[client]

    def _turn(self, client: str) -> _Turns | contextlib.nullcontext:
        """The client's turn at a worker thread (none to wait for this machine's own)."""
        if client == clients.LOCAL:
            return contextlib.nullcontext()
        turns = self.turns.get(client)
        if turns is None:
            turns = self.turns[client] = _Turns(self.turns, client, self.limits.threads_per_client)
        return turns

    async def _answer(self, scope, send, status: int, headers: list, data: bytes) -> None:
        """Send the answer in parts, each within write_seconds of the client taking the last;
        else the connection is cut (an answer nobody reads is not kept)."""
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if len(data) <= WRITE_CHUNK:
            await send({"type": "http.response.body", "body": data})
            return
        connection = scope.get("banker.connection")
        deadline = self.limits.write_seconds
        if connection is not None:
            connection.keep_send_buffer(SEND_BUFFER)
        view = memoryview(data)
        for at in range(0, len(data), WRITE_CHUNK):
            last = at + WRITE_CHUNK >= len(data)
            part = {"type": "http.response.body", "body": bytes(view[at : at + WRITE_CHUNK]),
                    "more_body": not last}  # fmt: skip
            try:
                await asyncio.wait_for(send(part), deadline)
            except TimeoutError:
                if connection is not None:
                    connection.cut("an answer not read")
                return
        if connection is not None:
            connection.watch_unsent(deadline)


def _call(app, environ) -> tuple[int, list, bytes]:
    """Run the WSGI app on `environ` (in a worker thread): (status, headers, body)."""
    seen = {}

    def start_response(status, headers, exc_info=None):
        seen["status"], seen["headers"] = status, headers
        return chunks.append

    chunks: list[bytes] = []
    result = app(environ, start_response)
    try:
        for chunk in result:
            if chunk:
                chunks.append(chunk)
    finally:
        if hasattr(result, "close"):
            result.close()
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in seen["headers"]]
    return int(seen["status"][:3]), headers, b"".join(chunks)


class _TooMuchAtOnce(Exception):
    """A client's bodies on their way would pass uploads_per_client_mb."""


class _Turns:
    """One client's worker threads in use: at most `most`; the others wait on the loop."""

    def __init__(self, table: dict, client: str, most: int):
        self.table, self.client = table, client
        self.semaphore = asyncio.Semaphore(most)
        self.users = 0

    async def __aenter__(self):
        self.users += 1
        try:
            await self.semaphore.acquire()
        except BaseException:
            self._leave()
            raise

    async def __aexit__(self, *exc):
        self.semaphore.release()
        self._leave()

    def _leave(self) -> None:
        self.users -= 1
        if self.users == 0:
            self.table.pop(self.client, None)


def _header(headers: list, name: bytes, default: bytes | None = None) -> bytes | None:
    for key, value in headers:
        if key == name:
            return value
    return default


def _wsgi_headers(headers: list):
    for key, value in headers:
        yield key.decode("latin-1").lower(), value.decode("latin-1")


def _host_ok(host: bytes | None) -> bool:
    """Whether a Host header names a host: a name of labels of 1 to 63 characters (a final
    dot allowed), an IPv4 or a bracketed IPv6 address, and an optional port; no header is
    fine (HTTP/1.0)."""
    if host is None:
        return True
    text = host.decode("latin-1")
    if text.startswith("["):
        end = text.find("]")
        rest = text[end + 1 :] if end > 0 else "x"
        return end > 0 and (rest == "" or (rest[:1] == ":" and rest[1:].isdigit()))
    name, colon, port = text.partition(":")
    if colon and not (port.isascii() and port.isdigit() and len(port) <= 5):
        return False
    labels = name.removesuffix(".").split(".")
    return len(name) <= 253 and all(_LABEL.fullmatch(label) for label in labels)


async def _refuse(send, scope, client: str, status: int, code: str, message: str) -> None:
    """A refusal made here, with the app's headers (JSON under /api/), closing the connection
    (its body, if any, is never read)."""
    tripped(f"{status} {code}", None if client == clients.LOCAL else client)
    api = refusals.is_api(scope["path"].encode("latin-1", "replace"))
    headers, data = refusals.parts(status, api, code=code, message=message)
    headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def _environ(scope, body) -> dict:
    """The WSGI environ of an ASGI request (PEP 3333: strings as latin-1)."""
    path = scope["path"].encode("utf-8").decode("latin-1")
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "REMOTE_ADDR": client[0],
        "REMOTE_PORT": str(client[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    for name, value in scope["headers"]:
        key = name.decode("latin-1").upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = f"HTTP_{key}"
        text = value.decode("latin-1")
        environ[key] = f"{environ[key]},{text}" if key in environ else text
    return environ
