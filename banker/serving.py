"""How `banker serve` faces the network: the server that holds every phone's connection, its
limits, and one server per database file.

The server is uvicorn (one asyncio event loop, httptools parsing HTTP/1.1) running
`banker.net.site.Site`: each page's push stream is a small coroutine on the loop (thousands
cost a few kilobytes each, no thread), and every other request is the Flask app, run in a pool
of `threads` worker threads (the store's commits block on the disk; group commit needs
concurrent writers). docs/scaling.md says why this server and not another. The limits below are
kept by `banker.net.connection.Connection` (the HTTP connection) and `banker.net.push` (the
streams); docs/hosting.md lists them with how to change each ($BANKER_… variables).
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import resource
import socket
import time
from dataclasses import dataclass, fields
from email.utils import formatdate
from pathlib import Path

import uvicorn

from banker.net.connection import Connection
from banker.net.site import Site
from banker.web.common.limits import redact_logs


@dataclass
class Limits:
    """What one connection, one client and all of them together may hold."""

    connections: int = 10_000  # open connections in all (1,000 tables of 6 phones and room)
    per_address: int = 256  # open connections of one client address other than this machine's
    streams_per_client: int = 64  # push streams of one client (a family's phones: about 6)
    idle_seconds: float = 5.0  # a connection that sends nothing (before or between requests)
    header_seconds: float = 10.0  # to send a request's headers, once its first byte came
    body_seconds: float = 120.0  # to send a request's body (a 5 MB snapshot on a slow phone)
    max_header_bytes: int = 32 * 1024  # a request line and its headers
    max_body: int = 6 * 1024 * 1024  # a snapshot (5 MB) in a form, with room; the app checks
    heartbeat_seconds: float = 20.0  # a push stream's keep-alive comment (proxies time out at 60)
    commands_per_second: float = 10.0  # one token's commands, sustained (a table: about 1)
    command_burst: int = 40  # one token's commands at once before the rate applies

    @classmethod
    def from_env(cls, env=None) -> Limits:
        """The defaults, each changed by $BANKER_<NAME> when it is set (a number)."""
        env = os.environ if env is None else env
        values = {}
        for f in fields(cls):
            text = env.get(f"BANKER_{f.name.upper()}", "").strip()
            if text:
                try:
                    values[f.name] = type(f.default)(float(text))
                except ValueError:
                    raise ValueError(f"${f.name.upper()} must be a number, not {text!r}") from None
        return cls(**values)


HEADER_SECONDS = Limits.header_seconds  # (the tests' name for it)


class Server:
    """`banker serve`'s server: uvicorn on a socket bound here (so the port is known before it
    runs), the app's push hub started with its loop. `run()` blocks until Ctrl+C, SIGTERM or
    `close()` (from another thread)."""

    def __init__(self, app, host: str, port: int, threads: int, limits: Limits | None = None):
        self.limits = limits or Limits.from_env()
        raise_file_limit(self.limits.connections + 2 * threads + 64)
        self.site = Site(app, threads=threads, limits=self.limits)
        self.socket = _bind(host, port)
        self.effective_port = self.socket.getsockname()[1]
        dated = _Dated(self.site)
        config = uvicorn.Config(
            dated,
            http=Connection,
            lifespan="on",
            loop="auto",  # uvloop when installed (a dependency on Linux and macOS)
            proxy_headers=False,  # banker.net.clients trusts a proxy on this machine itself
            server_header=False,
            date_header=True,
            timeout_keep_alive=int(max(1, self.limits.idle_seconds)),
            timeout_graceful_shutdown=3,
            backlog=2048,
            log_config=None,
            access_log=False,
            ws="none",
        )
        config.banker_limits = self.limits
        config.banker_site = self.site
        self.uvicorn = dated.server = _Uvicorn(config, self.site)
        # uvicorn says "started", "shutting down"… at INFO: banker serve prints its own lines.
        logging.getLogger("uvicorn.error").setLevel(logging.WARNING)

        redact_logs(logging.getLogger("uvicorn.error"), logging.getLogger("uvicorn"))

    def run(self) -> None:
        self.uvicorn.run(sockets=[self.socket])

    def close(self) -> None:
        self.uvicorn.should_exit = True


class _Uvicorn(uvicorn.Server):
    """uvicorn's Server, ending the push streams first when it shuts down, and idle while
    nothing happens (issue 35): uvicorn ticks ten times a second (to stop when asked, and to
    keep its Date header current), which was most of an idle server's CPU (1.5 ms a second).
    Here its loop wakes only when it is asked to stop (a signal, close() from another thread),
    and the Date header is brought up to date as each request arrives (`_Dated`)."""

    def __init__(self, config, site):
        self._stop = None  # (loop, future) main_loop waits on
        super().__init__(config)
        self.site = site
        self.second = 0  # of the Date header now said

    @property
    def should_exit(self) -> bool:
        return self._should_exit

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        # Set by a signal's handler, by close() from another thread, or by uvicorn itself.
        self._should_exit = value
        if value and self._stop is not None:
            loop, future = self._stop
            try:
                loop.call_soon_threadsafe(_wake, future)
            except RuntimeError:  # the loop closed
                pass

    async def main_loop(self) -> None:
        """uvicorn's loop of ticks (on_tick: the Date header, whether to stop), woken only to
        stop."""
        loop = asyncio.get_running_loop()
        should_exit = await self.on_tick(0)
        while not should_exit:
            future = loop.create_future()
            self._stop = (loop, future)
            if self._should_exit:
                break
            await future
            should_exit = await self.on_tick(10)
        self._stop = None

    def date_now(self) -> None:
        """The Date header of the answers made from now on: this second (changed in place:
        a request's answer reads uvicorn's default headers when it starts)."""
        now = int(time.time())
        if now != self.second:
            self.second = now
            headers = self.server_state.default_headers
            said = formatdate(now, usegmt=True).encode()
            for i, (name, _) in enumerate(headers):
                if name == b"date":
                    headers[i] = (b"date", said)


class _Dated:
    """ASGI: the Date header brought up to date as each request comes in (see _Uvicorn)."""

    def __init__(self, app):
        self.app = app
        self.server: _Uvicorn | None = None

    async def __call__(self, scope, receive, send):
        if self.server is not None and scope["type"] == "http":
            self.server.date_now()
        await self.app(scope, receive, send)


def _wake(future) -> None:
    if not future.done():
        future.set_result(None)


def _bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (IPv6 when host is one); OSError as socket gives it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on connections of such a socket (else
    # an answer written in two parts waits for the client's delayed ACK, 40 ms).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host == "::":
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # IPv4 too
        sock.bind((host, port))
        sock.listen(2048)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def raise_file_limit(wanted: int) -> int:
    """Raise this process's open-file limit towards `wanted` (within the hard limit): each
    connection is a file. The limit now in force."""

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


def create_server(app, host: str, port: int, threads: int) -> Server:
    """The server for `app` on host:port with `threads` worker threads for the Flask app."""
    return Server(app, host, port, threads)


# -- one server per database ------------------------------------------------------------------


class AlreadyServed(Exception):
    """Another process serves this database: `pid` (0 when this system does not say which)."""

    def __init__(self, pid: int):
        super().__init__(pid)
        self.pid = pid


def hold_database(database: str | Path) -> int:
    """Lock the database file itself for this process's lifetime (the lock goes when the
    process does): an flock on the file, so every path that reaches it (a symlink, a hard link)
    meets the same lock. The descriptor holding it, never to be closed: closing a descriptor of
    the file would also drop SQLite's own locks on it in this process. AlreadyServed when
    another process holds it."""
    fd = os.open(database, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _lock_holder(os.fstat(fd))
        os.close(fd)  # this process stops here
        raise AlreadyServed(pid) from None
    return fd


def server_of(database: str | Path) -> int | None:
    """The process that holds the database's lock (a `banker serve`; 0 when this system does not
    say which), else None. To be asked before this process opens the file with SQLite (see
    hold_database)."""
    try:
        fd = os.open(database, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return _lock_holder(os.fstat(fd))
    finally:
        os.close(fd)
    return None


def _lock_holder(st: os.stat_result) -> int:
    """The process holding an flock on this file, from Linux's /proc/locks (else 0)."""
    device = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in locks:
                fields = line.split()
                if fields[1:2] == ["FLOCK"] and len(fields) > 5 and fields[5] == device:
                    return int(fields[4])
    except (OSError, ValueError):
        pass
    return 0
