"""One push stream as the hub keeps it (banker.net.push): whose it is, what it has been told, and
what its request says (the version its page has, the view it shows)."""

from __future__ import annotations

import asyncio
import secrets


class Stream:
    """One open stream: whose it is and what it has been told."""

    __slots__ = (
        "game",
        "player",
        "token",
        "version",
        "waiter",
        "woken",
        "closed",
        "pending",
        "said_at",
        "kind",
        "key",
        "view",
        "environ",
        "outbox",
        "follow",
        "sid",
        "taps",
    )

    def __init__(self, game: str, player: str | None, token: str, version: int | None):
        self.game, self.player, self.token, self.version = game, player, token, version
        self.kind = self.key = ""
        self.view: str | None = None  # which view the page shows (?as=): it is pushed
        self.environ: dict = {}  # the stream's request, for the renderer
        self.outbox: list[str] = []  # rendered messages waiting to be sent
        self.follow = False  # the Banker's table: drawn again (a phone following)
        self.waiter: asyncio.Future | None = None
        self.woken = False  # woken since it last looked (a wake while it sends is kept)
        self.closed = False
        self.pending: set[str] = set()  # "following", "changed", "tokens"
        self.said_at = 0.0  # when it was last sent anything (loop time)
        self.sid = secrets.token_urlsafe(12)  # its name, for its page's taps (Hub.tap)
        self.taps = 0  # its page's taps being answered: the answer is its view

    def wake(self, what: str | None = None) -> None:
        if what:
            self.pending.add(what)
        self.woken = True
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def close(self) -> None:
        self.closed = True
        self.wake()


def data_lines(text: str) -> str:
    """Text as the data of one SSE message (each of its lines a `data:` line)."""
    return text.replace("\r", "").replace("\n", "\ndata: ")


def known_version(headers: dict, query: bytes) -> int | None:
    """The version the page has: Last-Event-ID (the browser's reconnect), else ?v=."""
    text = (headers.get(b"last-event-id") or b"").decode("latin-1").strip()
    if not text:
        text = query_value(query, "v")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def query_value(query: bytes, name: str) -> str:
    """The value of `name` in a query string ("" when absent); the views' names are plain."""
    for part in query.decode("latin-1").split("&"):
        key, _, value = part.partition("=")
        if key == name:
            return value.replace("%3A", ":").replace("%3a", ":")
    return ""
