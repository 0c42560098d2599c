"""How `banker serve` faces the network: the server that holds every phone's connection, its
limits, and one server per database file.

The server is uvicorn (one asyncio event loop, httptools parsing HTTP/1.1) running
`banker.net.site.Site`: each page's push stream is a small coroutine on the loop (thousands
cost a few kilobytes each, no thread), and every other request is the Flask app, run in a pool
of `threads` worker threads (the store's commits block on the disk; group commit needs
concurrent writers). docs/scaling.md says why this server and not another. The limits below are
declared in banker.settings (docs/hosting.md lists them with how to change each: $BANKER_…
variables) and kept by `banker.net.connection.Connection` (the HTTP connection),
`banker.net.site` (bodies, threads per client, answers nobody reads) and `banker.net.push` (the
streams).
"""

from __future__ import annotations

import asyncio
import ctypes
import fcntl
import logging
import os
import resource
import socket
import stat
import time
from email.utils import formatdate
from pathlib import Path

import uvicorn

from banker import settings as declared
from banker.net import clients
from banker.net.connection import Connection
from banker.net.site import Site
from banker.web.common.limits import redact_logs


class Server:
    """`banker serve`'s server: uvicorn on a socket bound here (so the port is known before it
    runs), the app's push hub started with its loop. `run()` blocks until Ctrl+C, SIGTERM or
    `close()` (from another thread)."""

    def __init__(self, app, settings: declared.Settings | None = None):
        self.limits = settings = settings or declared.read()
        clients.configure(settings.local_networks)
        give_back_large_blocks()
        raise_file_limit(settings.connections + 2 * settings.threads + 64)
        self.site = Site(app, threads=settings.threads, limits=settings)
        self.socket = _bind(settings.host, settings.port)
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


def give_back_large_blocks() -> bool:
    """Have glibc's malloc map every block of 128 KB or more on its own, so that freeing it
    gives the memory back to the system. Its default raises that threshold to the largest block
    freed so far (up to 32 MB): after a long game's 3 MB snapshot was made and sent, the next
    ones came from the worker threads' heaps and stayed there (the server grew by 55 MB and
    never shrank; with this, it grows by about 10). Whether it was done (not glibc: no)."""
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    m_mmap_threshold = -3  # <malloc.h>
    return bool(mallopt(m_mmap_threshold, 128 * 1024))


def raise_file_limit(wanted: int) -> int:
    """Raise this process's open-file limit towards `wanted` (within the hard limit): each
    connection is a file. The limit now in force."""

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


def create_server(app, settings: declared.Settings | None = None, **changes) -> Server:
    """The server for `app` on settings.host and .port, with settings.threads worker threads
    for the Flask app (the settings `banker serve` read, else those of this process's
    environment, with `changes`: host="127.0.0.1", port=0…)."""
    return Server(app, (settings or declared.read()).replace(**changes))


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
    except PermissionError:  # another user's 0600 file: its lock is still seen in /proc/locks
        try:
            return _lock_holder(os.stat(database)) or None
        except OSError:
            return None
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return _lock_holder(os.fstat(fd))
    finally:
        os.close(fd)
    return None


def keep_private(database: str | Path) -> None:
    """Whatever this process creates from now on is its user's alone (umask 077), and the
    database with its -wal and -shm files lose every right of the group and of others when it
    exists (0644 becomes 0600; a read-only 0444 file stays read-only, 0400, and is refused as
    such): they hold every token, and another local user who could read them could also hold
    the file's lock."""
    os.umask(0o077)
    for suffix in ("", "-wal", "-shm"):
        path = f"{database}{suffix}"
        try:
            os.chmod(path, stat.S_IMODE(os.stat(path).st_mode) & 0o700)
        except (FileNotFoundError, NotADirectoryError):  # (a file on the way: said later)
            pass
        except PermissionError:  # not this user's file: SQLite says what it can do with it
            pass


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
