"""One push stream as the hub keeps it (banker.net.push): whose it is, what it has been told, and
what its request says (the version its page has, the view it shows); the page whose view the
web app's renderer is asked for (`Page`); a stream refused, or ended by its page."""

from __future__ import annotations

import asyncio
import secrets
from typing import NamedTuple

from banker.net import refusals


class Page(NamedTuple):
    """What the web app's renderer is asked for: the view a stream's page shows, as of
    `since` (the version the page has; None: unknown), with the stream's own request
    (`environ`: its link, cookie, host and client, as the page's own poll would send them).
    `follow`: drawn again at the same version (a phone started or stopped following)."""

    kind: str  # "games", "join", "display"
    key: str  # the game id (the Banker's) or the page's token
    view: str  # the stream's ?as=
    since: int | None
    follow: bool
    environ: dict


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


async def until_disconnect(receive, stream: Stream) -> None:
    """(Another server than banker's.) The stream closed when its page goes."""
    while (await receive())["type"] != "http.disconnect":
        pass
    stream.close()


async def refuse(send, status: int, code: str, message: str, retry: int | None = None) -> None:
    """A stream refused: the server's own refusal (banker.net.refusals)."""
    headers, data = refusals.parts(status, True, retry, code=code, message=message)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})
