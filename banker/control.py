"""The local channel between a running `banker serve` and the `banker games` commands run on
the same machine, so that a new Banker link or a removed game takes effect in the server at
once (it keeps the games' tokens and states in memory).

The channel is a Unix socket beside the database's real path (symlinks resolved):
`banker.db.control`, created with mode 0600, so only the user who runs the server (and root) may
connect; the server checks each caller's user id again (SO_PEERCRED). One JSON request a line,
one JSON answer a line: "hello" (the server's process id and URL), "new_link" (a seat's new
token), "remove", and "has" (whether it holds a game: asked by the other servers of the same
folder, docs/scaling.md, to say where a game they do not hold is).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

from banker.store import GameNotFound, Store, StoreError

SUFFIX = ".control"
MAX_REQUEST = 64 * 1024
TIMEOUT = 10  # seconds a caller may take to send its request, or the server to answer
LONGEST_PATH = 100  # sun_path holds 108 bytes: a longer path goes through /proc/self/fd

log = logging.getLogger("banker.control")


class Unreachable(Exception):
    """The server's channel could not be used; the reason in words."""


@contextlib.contextmanager
def _address(path: Path) -> Iterator[str]:
    """The socket address of `path`, through its folder's descriptor when it is too long."""
    if len(os.fsencode(path)) <= LONGEST_PATH:
        yield str(path)
        return
    folder = os.open(path.parent, os.O_PATH | os.O_DIRECTORY)
    try:
        yield f"/proc/self/fd/{folder}/{path.name}"
    finally:
        os.close(folder)


def control_path(database: str | Path) -> Path:
    """Where the control socket of a server of `database` is."""
    return Path(os.path.realpath(database) + SUFFIX)


def _peer_uid(conn: socket.socket) -> int:
    pid, uid, gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
    return uid


class Channel:
    """The server's end: a thread answering `banker games` on the socket beside the database."""

    def __init__(self, store: Store, database: str | Path, url: str):
        self.store, self.url = store, url
        self.path = control_path(database)
        self.sock: socket.socket | None = None

    def open(self) -> str:
        """Listen (replacing the socket a killed server left: this process holds the lock)."""
        self.path.unlink(missing_ok=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        mask = os.umask(0o177)  # the socket file is born 0600
        try:
            with _address(self.path) as address:
                sock.bind(address)
        finally:
            os.umask(mask)
        sock.listen(8)
        self.sock = sock
        threading.Thread(target=self._serve, name="banker-control", daemon=True).start()
        return str(self.path)

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
            self.path.unlink(missing_ok=True)

    def _serve(self) -> None:
        sock = self.sock
        while sock is not None and sock.fileno() != -1:
            try:
                conn, _ = sock.accept()
            except OSError:
                return  # closed
            with conn:
                try:
                    self._one(conn)
                except (OSError, ValueError) as e:
                    log.warning("A banker games request on %s failed: %s", self.path, e)

    def _one(self, conn: socket.socket) -> None:
        conn.settimeout(TIMEOUT)
        uid = _peer_uid(conn)
        if uid not in (os.geteuid(), 0):
            log.warning("Refused a banker games request from user id %d on %s", uid, self.path)
            return
        data = b""
        while not data.endswith(b"\n") and len(data) <= MAX_REQUEST:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
        request = json.loads(data)
        answer = self.answer(request if isinstance(request, dict) else {})
        conn.sendall(json.dumps(answer).encode() + b"\n")

    def answer(self, request: dict) -> dict:
        """What the server does for `banker games`: say who it is, give a game a new Banker
        link, remove games."""
        op = request.get("op")
        try:
            if op == "hello":
                return {"ok": True, "pid": os.getpid(), "url": self.url}
            if op == "new_link":
                seat = str(request.get("seat", "banker"))
                token = self.store.new_token(str(request["game"]), seat)
                whose = "Banker" if seat == "banker" else f"player {seat}'s"
                log.info(
                    "A new %s link for game %s (banker games --new-link)", whose, request["game"]
                )
                return {"ok": True, "token": token, "url": self.url}
            if op == "has":  # another process of this folder asks where a game is
                try:
                    self.store.version(str(request["game"]))
                except GameNotFound:
                    return {"ok": True, "has": False, "url": self.url}
                return {"ok": True, "has": True, "url": self.url}
            if op == "remove":
                for game_id in request["games"]:
                    self.store.remove_game(str(game_id))
                    log.info("Removed game %s (banker games --remove)", game_id)
                return {"ok": True, "removed": list(request["games"])}
        except StoreError as e:
            return {"ok": False, "error": e.message}
        except (KeyError, TypeError):
            pass
        return {"ok": False, "error": f"Not a request this server knows: {request!r}."}


def ask(database: str | Path, request: dict, timeout: float = TIMEOUT) -> dict:
    """Send one request to the server of `database`; its answer. Unreachable (with the reason)
    when there is no one there or this user may not connect."""
    return _request(control_path(database), request, timeout)


def _request(control: Path, request: dict, timeout: float) -> dict:
    """One request on the control socket at `control`; its answer, or Unreachable."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            with _address(control) as address:
                sock.connect(address)
            sock.sendall(json.dumps(request).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError as e:
            raise Unreachable(e.strerror or str(e)) from None
    try:
        return json.loads(data)
    except ValueError:
        raise Unreachable("it did not answer") from None


SIBLINGS = 16  # the other servers of a folder asked where a game is, at most
SIBLING_TIMEOUT = 0.5  # seconds each may take to answer


def where_is(database: str | Path, game_id: str) -> str | None:
    """The URL of the other `banker serve` that holds `game_id`, among those serving a database
    in the same folder as `database` (docs/scaling.md's several processes: each one's control
    socket is there, and they run as one user); None when none says it does."""
    own = control_path(database)
    others = sorted(p for p in own.parent.glob(f"*{SUFFIX}") if p != own)[:SIBLINGS]
    for control in others:
        try:
            answer = _request(control, {"op": "has", "game": game_id}, SIBLING_TIMEOUT)
        except Unreachable:
            continue
        if answer.get("has") and answer.get("url"):
            return str(answer["url"])
    return None
