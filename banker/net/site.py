"""The whole site as one ASGI app: a page's push stream (banker.net.push) answered on the event
loop, every other request handed to the Flask app (WSGI) in a pool of worker threads.

The bridge to Flask takes the body that has already arrived with the request (a command's JSON
is in the first packet) and hands the request to a worker thread at once: one hop to the
thread, one back with the whole answer. A longer body (a snapshot) is read by the thread as
Flask asks for it, so the app's own size limits still refuse it before it is read. a2wsgi's
WSGIMiddleware, measured first, crossed threads for every chunk it sent and received (four
times for a command) and took about 0.15 ms more per request (docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import io
import sys
from concurrent.futures import ThreadPoolExecutor

from banker.net import push
from banker.net.collector import Collector


class Site:
    """ASGI: push streams on the loop, Flask in `threads` worker threads."""

    def __init__(self, app, threads: int, limits):
        self.app, self.limits = app, limits
        self.pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="banker")
        self.hub = push.Hub(app, limits, self.pool)
        self.hub.environ = lambda scope: _environ(scope, io.BytesIO())  # a stream's request
        self.collector = Collector()
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
        found = push.match(path) if scope["method"] == "GET" else None
        if found is not None:
            await self.hub.stream(scope, receive, send, *found)
            return
        await self.bridge(scope, receive, send)

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

    async def bridge(self, scope, receive, send) -> None:
        """The request through Flask in a worker thread; its answer sent whole."""
        loop = asyncio.get_running_loop()
        first = await receive()
        body = _Body(loop, receive, first.get("body", b""), first.get("more_body", False))
        environ = _environ(scope, body)
        status, headers, data = await loop.run_in_executor(self.pool, _call, self.app, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})


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


class _Body(io.RawIOBase):
    """wsgi.input: the body that came with the request, then the rest as the app reads it."""

    def __init__(self, loop, receive, first: bytes, more: bool):
        self.loop, self.receive = loop, receive
        self.buffer, self.more = bytearray(first), more

    def readable(self) -> bool:
        return True

    def _fill(self, size: int) -> None:
        while self.more and (size < 0 or len(self.buffer) < size):
            message = asyncio.run_coroutine_threadsafe(self.receive(), self.loop).result()
            if message["type"] != "http.request":
                self.more = False
                break
            self.buffer += message.get("body", b"")
            self.more = message.get("more_body", False)

    def read(self, size: int = -1) -> bytes:
        size = -1 if size is None else size
        self._fill(size)
        if size < 0 or size >= len(self.buffer):
            data, self.buffer = bytes(self.buffer), bytearray()
        else:
            data, self.buffer = bytes(self.buffer[:size]), self.buffer[size:]
        return data

    def readinto(self, b) -> int:
        data = self.read(len(b))
        b[: len(data)] = data
        return len(data)

    def readline(self, size: int = -1) -> bytes:
        while b"\n" not in self.buffer and self.more:
            self._fill(len(self.buffer) + 65536)
        end = self.buffer.find(b"\n") + 1 or len(self.buffer)
        if 0 <= size < end:
            end = size
        data, self.buffer = bytes(self.buffer[:end]), self.buffer[end:]
        return data


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
