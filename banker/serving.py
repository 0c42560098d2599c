"""How `banker serve` faces the network (issue 12): waitress settings that keep one slow or
hostile client from locking out the table, and one server per database file.

Waitress reads every request whole before a worker thread sees it, so idle or slow sockets cost
no thread, only a connection. The settings below give room for a family's phones many times over
(each phone holds a few keep-alive connections), close a connection that has sent nothing for
CHANNEL_TIMEOUT seconds, and close one whose request headers are still incomplete after
HEADER_SECONDS (a client trickling a byte every few seconds, "slowloris") or whose body is
still incomplete after BODY_SECONDS (room for a 5 MB snapshot on a slow phone).
"""

from __future__ import annotations

import fcntl
import os
import types
from pathlib import Path

CONNECTION_LIMIT = 1000  # a family's phones use about 30; the rest is margin against idlers
CHANNEL_TIMEOUT = 30  # seconds a keep-alive connection may send nothing (phones poll each second)
HEADER_SECONDS = 10  # to send a request's headers, once its first byte came
BODY_SECONDS = 120  # to send a request's body
MAX_BODY = 6 * 1024 * 1024  # a snapshot (5 MB) in a form, with room; the app checks each route

SETTINGS = {
    "connection_limit": CONNECTION_LIMIT,
    "channel_timeout": CHANNEL_TIMEOUT,
    "cleanup_interval": 2,
    "asyncore_use_poll": True,  # select() cannot watch more than 1,024 sockets
    "backlog": 1024,
    "max_request_header_size": 32 * 1024,
    "max_request_body_size": MAX_BODY,
    "expose_tracebacks": False,
    "ident": "banker",
}


def create_server(app, host: str, port: int, threads: int):
    """A waitress server for `app` with the settings above and the slow-request reaper."""
    from waitress.server import create_server as waitress_server

    server = waitress_server(app, host=host, port=port, threads=threads, **SETTINGS)
    server._banker_partial = {}
    server.maintenance = types.MethodType(_maintenance, server)
    return server


def _maintenance(server, now: float) -> None:
    """Waitress's own (close connections idle for channel_timeout), plus: close a connection
    whose current request has been arriving for too long."""
    cutoff = now - server.adj.channel_timeout
    seen, partial = server._banker_partial, {}
    for fd, channel in list(server.active_channels.items()):
        if not channel.requests and channel.last_activity < cutoff:
            channel.will_close = True
        request = getattr(channel, "request", None)
        if request is None or channel.will_close:
            continue
        key = (fd, id(request))
        since = seen.get(key, now)
        partial[key] = since
        limit = BODY_SECONDS if request.headers_finished else HEADER_SECONDS
        if now - since > limit:
            channel.will_close = True
    server._banker_partial = partial


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
