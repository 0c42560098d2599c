"""Push: every live page holds one Server-Sent Events stream and is sent each change of its game
the moment it is committed, already drawn for that page (static/refresh.js swaps it in).

    GET /games/<game_id>/events   the Banker's pages (the game's cookie)
    GET /join/<token>/events      a player's page and story
    GET /display/<token>/events   the big screen and its story

A stream says, as SSE events:
- `ready` (data: the game's version; a stream with a view, a second line: its name) once it
  is open: the page knows push works. A page's tap names its stream (`Hub.tap`, header
  X-Banker-Stream): its answer is the page's view, so the stream is not rendered for until the
  tap is answered (the view was rendered twice for the page that acted, the push ignored);
- `figures` (banker.net.figures) at the commit, before the views: the money the page shows
  that changed, which the page writes in at once; its view follows as below;
- `swap` (`id:` the version, data: the HTML the page swaps in) whenever the game moves on, for
  a page that says which view it shows (`?as=`: the Banker's screen, `view` for a player's
  page, `screen` for the big screen): the change itself, rendered by the web app once per
  audience (`Hub.render`, registered by banker.web.common.pushed: the very fragment the page's
  poll would get, with that page's own link, so a player's stream carries only that seat's
  view) and sent to every stream of that audience; the page asks for nothing;
- `parts` (`id:` the version, data: the version the parts are since, then the parts) just
  before the `swap`, when the hub sent that audience a view before (banker.net.parts): the
  elements of the view that changed since, each marked to be swapped by its id; a page that
  still shows that very view swaps only those (a change then costs a page about a millisecond,
  not a whole redraw) and skips the `swap`; any other page swaps the whole view;
- a version (the default event, `id:` and data the version) instead, for a page that shows no
  view (a story) or when the render could not be made (the page then asks, as before push);
- both at once on opening when the page's version (`Last-Event-ID` on the browser's own
  reconnect, else `?v=`) is not the game's: a page that was away catches up the moment it is back;
- `follow` (the Banker's table: its screen drawn again at the same version) when a player's
  phone starts or stops following the game; `following` to a Banker's page showing no view;
- `changed` when the game was resumed elsewhere, `gone` when the page's token was replaced
  (the page then asks, and is told by the app);
- a comment every `heartbeat_seconds` while nothing happens (proxies close silent streams).

Rendering runs in one thread of its own, never on the event loop: when a game changes, one task
per game has each audience with an open stream rendered once (the players' views first, the
cheapest, then the big screen, then the Banker's screen), each answer handed to the loop as soon
as it is made; a change arriving meanwhile is rendered next, from the newest version. One
thread, not the worker pool: Python runs one thread at a time, and renders of several games in
several threads took turns at its lock, each switch costing (at 600 tables, 20 ms of CPU per
change against 13 in one thread: bench.tables).

The page's side is static/refresh.js (every live page loads it: kept small, its account is
here). A tap always wins over a live refresh (an htmx request of an element marked
`data-refresh`, or a pushed swap): a refresh is not sent and a pushed view not swapped while a
tap is in flight (unanswered for at most 15 s; the newest pushed view is swapped after the tap's
answer when it is newer than it), a refresh's answer is not swapped when a tap was sent after
it, and nothing is aborted (htmx logs an aborted request as a console error); taps drop a second
tap of their own (hx-sync). A pushed view is swapped as htmx swaps an answer (`htmx.swap`: its
out-of-band parts too), after static/typing.js kept the fields being typed (its
`banker:beforePush` event), and only when newer than the page's (`data-version`); the parts
likewise, when the page shows the view the stream last brought (no answer of its own swapped
since), but by refresh.js itself, each element put in place of the one of its id as htmx swaps
out of band (its fields being typed moved in live, an element of a chart read as SVG, the new
elements that carry a link, a form or a request set up by htmx): htmx's swap around it (its
events, settling) took three to eight times as long in Chromium; the page then writes the new
version where it keeps it (`data-version`, forms' `expected_version` and `seen`, the live parts'
links). A page in a state of its own that the server does not know (the Banker's first die
tapped, an open "are you sure?") asks for its part instead, with that state, as before. The
Banker's pages reopen their stream with the new `?as=` when they move to another screen. Each
part marked `data-live` without a view (the story) reads the page again when told a version. A
request already in flight when an event comes or held back by a tap would leave the page behind:
after every answer the page compares its version with the latest said and asks again. It opens a
fresh stream whenever it becomes visible or online again. Where push is blocked (no EventSource,
a proxy that holds the stream back: no `ready` in 5 s, a refusal) it polls every `data-poll` ms
instead, as before push; `<html data-push="push|poll">` says which.

The store tells the hub of every change (`Store.watchers`, called from the worker thread that
committed it); the hub wakes the streams of that game on the event loop. A stream costs a
coroutine and a future, no thread: bench.tables measures what thousands cost.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from banker.net import clients, figures, parts
from banker.net.streams import (
    Page,
    Stream,
    data_lines,
    known_version,
    query_value,
    refuse,
    until_disconnect,
)
from banker.store import FOLLOWING_SECONDS, GameNotFound, same_token
from banker.web.common import seats
from banker.web.common.hygiene import SECURITY_HEADERS

RETRY_MS = 1000  # the browser reconnects after a drop within a second
HANDOVER_SECONDS = 0.002  # how long a rendering worker waits for the loop to take a view
_STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),  # nginx: pass each event on at once
]


# Audiences rendered first to last: the cheapest to render first (a player's view, then the big
# screen, then the Banker's screen), so that most pages wait for the fewest renders before
# theirs. (Since the pages swap only the parts that changed, a page's swap costs about the same
# whatever its view; when they swapped whole views, the costliest went first.)
_ORDER = {"join": 0, "display": 1, "games": 2}


class Hub:
    """The open streams by game; wakes them when their game changes."""

    def __init__(self, app, limits, pool):
        self.app, self.limits, self.pool = app, limits, pool
        self.renderer = ThreadPoolExecutor(1, thread_name_prefix="banker-render")
        self.queued = 0  # games whose views wait for the render thread (on the loop)
        self.store = app.extensions["banker.store"]
        self.loop: asyncio.AbstractEventLoop | None = None
        self.games: dict[str, set[Stream]] = {}
        self.clients: Counter = Counter()
        self.players: dict[str, Counter] = {}  # game -> {player: open streams}
        self.closing = False
        # The web app's renderer (banker.web.common.pushed): Page -> the HTML the page swaps
        # in, or None (the page then asks). Without one, streams say versions only.
        self.render = app.extensions.get("banker.push.render")
        shown = app.extensions.get("banker.push.figures")  # the money, before the views
        self.figures = None if shown is None else figures.Figures(shown)
        self.environ = None  # scope -> a WSGI environ (banker.net.site sets it)
        self.rendering: set[str] = set()  # games whose render task runs
        # Each game's audiences' latest view as sent (banker.net.parts.Drawn), the next one's
        # parts are found against it; dropped when the game's last stream closes.
        self.drawn: dict[str, dict[tuple, parts.Drawn]] = {}
        self.again: set[str] = set()  # games changed while it ran
        self.named: dict[str, Stream] = {}  # the streams with a view, by their sid
        app.extensions["banker.push"] = self

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Listen to the store's changes (on `loop`, the server's), and keep the silent streams
        alive: one timer for them all, not one per stream (thousands of timers, futures and
        their contexts would keep the garbage collector's full passes long)."""
        self.loop, self.closing = loop, False
        if self._changed_elsewhere not in self.store.watchers:
            self.store.watchers.append(self._changed_elsewhere)
        loop.call_later(self.limits.heartbeat_seconds / 4, self._heartbeat)

    def _heartbeat(self) -> None:
        """Wake the streams that said nothing for heartbeat_seconds (they send a comment)."""
        if self.closing or self.loop is None:
            return
        due = self.loop.time() - self.limits.heartbeat_seconds
        for streams in self.games.values():
            for stream in streams:
                if stream.said_at <= due:
                    stream.wake()
        self.loop.call_later(self.limits.heartbeat_seconds / 4, self._heartbeat)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self.closing = True
        for streams in list(self.games.values()):
            for stream in list(streams):
                stream.close()

    def following(self, game_id: str) -> set[str]:
        """The players of this game whose page holds a stream now."""
        return {p for p, n in list(self.players.get(game_id, {}).items()) if n > 0}

    # -- changes -----------------------------------------------------------------------------

    def _changed_elsewhere(self, game_id: str, what: str = "version") -> None:
        """Store.watchers: a change committed by a worker thread (or on the loop itself)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self.changed, game_id, what)
            except RuntimeError:  # the loop closed meanwhile: the server is stopping
                pass

    def changed(self, game_id: str, what: str = "version") -> None:
        """Wake this game's streams (on the loop). `what`: "version", "changed" (resumed
        elsewhere), "tokens" (a link replaced) or "following" (the Banker's only)."""
        rendered = False
        for stream in list(self.games.get(game_id, ())):
            if stream.view is not None and what in ("version", "following"):
                if what == "following" and stream.view == "table":
                    stream.follow = rendered = True
                elif what == "version":
                    rendered = True
                continue
            if what == "following" and stream.player is not None:
                continue
            stream.wake(None if what == "version" else what)
        if rendered:
            if self.figures is not None and what == "version":
                self._tell_figures(game_id)
            self._render_soon(game_id)

    def _tell_figures(self, game_id: str) -> None:
        """(On the loop, the moment a change is committed.) The money first (banker.net.figures),
        unless other games wait for the render thread: near its limit, the figures' second
        write to every stream cost a change of 1,000 tables 0.7-0.9 ms more (the views' p95
        58 ms without them, 500 ms with). The state is in memory: its commit put it there."""
        if self.queued:
            self.figures.drop(game_id)  # its views alone: the next change says all
            return
        try:
            self.figures.tell(game_id, self.store.state(game_id), self.games.get(game_id, ()))
        except GameNotFound:
            pass

    # -- rendering (in the worker threads) ---------------------------------------------------

    def _render_soon(self, game_id: str) -> None:
        """Render this game's views for its pushed streams (one task per game at a time)."""
        if game_id in self.rendering:
            self.again.add(game_id)
            return
        if self.loop is None or self.closing:
            return
        self.rendering.add(game_id)
        self.loop.create_task(self._render_game(game_id))

    async def _render_game(self, game_id: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self.closing:
                self.again.discard(game_id)
                try:
                    version = self.store.version(game_id)
                except GameNotFound:
                    return
                groups: dict[tuple, list[Stream]] = {}
                for s in self.games.get(game_id, ()):
                    if s.view is not None and not s.taps and (s.version != version or s.follow):
                        follow = s.version == version
                        s.follow = False
                        host = s.environ.get("HTTP_HOST")
                        groups.setdefault((s.kind, s.token, s.view, s.version, follow, host),
                                          []).append(s)  # fmt: skip
                if groups:
                    pages = sorted(groups, key=lambda g: _ORDER.get(g[0], 3))
                    self.queued += 1
                    try:
                        await loop.run_in_executor(
                            self.renderer, self._render_pages, loop, version, pages, groups
                        )
                    finally:
                        self.queued -= 1
                if game_id not in self.again:
                    return
        finally:
            self.rendering.discard(game_id)

    def _render_pages(self, loop, version: int, keys: list, groups: dict) -> None:
        """(The render thread) render each audience once; each answer goes to the loop at once,
        with the parts that changed since the view its streams have, when the hub drew it.
        Before the next, the thread waits (at most HANDOVER_SECONDS) for the loop to have taken
        it: else, rendering on, it held Python's lock and the loop sent the views all together
        at the end (a thread waiting for the lock gets it after 5 ms). Not while other games
        wait for their renders: then every view is sent as soon as the loop gets to it, and
        the thread only lets go of the lock between views, so that a command waiting for it
        is not held up to 5 ms at each of its steps (1,000 tables: a command's p95 62–172 ms
        without, 15–36 ms with it)."""
        drawn = self.drawn.setdefault(groups[keys[0]][0].game, {})
        taken = threading.Event()
        for i, key in enumerate(keys):
            first = groups[key][0]
            page = Page(first.kind, first.key, first.view, first.version, key[4], first.environ)
            try:
                html = self.render(page)
            except Exception:  # the page asks instead (and is answered, or told why)
                html = None
            changed = None
            if html is not None:
                audience = (key[0], key[1], key[2], key[5])
                old = drawn.get(audience)
                new = parts.Drawn(html, version, after=old)
                if not key[4] and old is not None and old.version == first.version:
                    changed = parts.changed(old, new)
                drawn[audience] = new.kept()
            taken.clear()
            try:
                deliver = (version, key[4], groups[key], html, changed, first.version, taken)
                loop.call_soon_threadsafe(self._deliver, *deliver)
            except RuntimeError:  # the loop closed: the server is stopping
                return
            if i + 1 < len(keys):
                if self.queued <= 1:
                    taken.wait(HANDOVER_SECONDS)
                else:
                    time.sleep(0)  # Python's lock to whoever waits for it: a command first

    def _deliver(self, version: int, follow: bool, streams: list, html: str | None,
                 changed: str | None, was: int | None, taken: threading.Event) -> None:  # fmt: skip
        """(On the loop) a rendered view to its streams that have not had it: the parts that
        changed (against the view at version `was`), then the whole view (for a page holding
        another view). A stream still sending what came before (a page reading slowly or
        never) keeps only the newest whole view: one view held, however long unread."""
        if html is None:
            said = whole = f"id: {version}\ndata: {version}\n\n"
        else:
            kind = "follow" if follow else "swap"
            said = whole = f"id: {version}\nevent: {kind}\ndata: {data_lines(html)}\n\n"
            if changed is not None:
                parts_said = f"data: {was}\ndata: {data_lines(changed)}\n\n"
                said = f"id: {version}\nevent: parts\n{parts_said}" + whole
        for s in streams:
            if s.closed or (s.version is not None and s.version > version):
                continue
            if s.version == version and not follow:
                continue
            s.version = version
            s.outbox = [whole] if s.outbox else [said]
            s.wake()
        taken.set()

    # -- a page's own tap ----------------------------------------------------------------------

    def tap(self, sid: str, game_id: str, seat: str) -> Stream | None:
        """(A worker thread, before a page's tap is executed.) The page's stream (named in the
        tap: its `ready` said the name), not rendered for until `answered`: the tap's answer is
        its view (it was rendered twice, the push ignored by the page). None for a stream of
        another game or seat."""
        s = self.named.get(sid)
        if s is None or s.game != game_id or (s.player or "banker") != seat or self.loop is None:
            return None
        try:
            self.loop.call_soon_threadsafe(self._tapped, s, 1, None)  # before the commit's news
        except RuntimeError:  # the loop closed: the server is stopping
            return None
        return s

    def answered(self, s: Stream, version: int | None) -> None:
        """(A worker thread.) The tap's answer, showing `version` (None: nothing to count on),
        has gone to the page: its stream is rendered for again from the next change on."""
        try:
            self.loop.call_soon_threadsafe(self._tapped, s, -1, version)
        except RuntimeError:  # the loop closed: the server is stopping
            pass

    def _tapped(self, s: Stream, taps: int, version: int | None) -> None:
        s.taps += taps
        if version is not None and (s.version is None or version > s.version):
            s.version = version
        if taps < 0 and not s.taps and not s.closed:
            self._render_soon(s.game)  # a change that came meanwhile

    # -- one stream --------------------------------------------------------------------------

    async def stream(self, scope, receive, send, kind: str, key: str) -> None:
        """Serve one page's stream until the page goes or the server stops."""
        loop = asyncio.get_running_loop()
        headers = dict(scope["headers"])
        who = await loop.run_in_executor(self.pool, self._who, kind, key, headers.get(b"cookie"))
        if who is None:
            await refuse(send, 403, "link_not_allowed", "This link does not open this game.")
            return
        peer = (scope.get("client") or ("", 0))[0]
        client = clients.client_key(
            clients.forwarded_for(peer, (headers.get(b"x-forwarded-for") or b"").decode("latin-1"))
        )
        if client != clients.LOCAL and self.clients[client] >= self.limits.streams_per_client:
            said = "This address follows too many pages at once; close some."
            await refuse(send, 429, "too_many_streams", said, 30)
            return
        game, player, token = who
        stream = Stream(game, player, token, known_version(headers, scope["query_string"]))
        stream.kind, stream.key = kind, key
        view = query_value(scope["query_string"], "as")
        if view and self.render is not None and self.environ is not None and len(view) <= 40:
            stream.view = view
            stream.environ = self.environ(scope)
        self._open(stream, client)
        connection = scope.get("banker.connection")
        if connection is not None:
            connection.on_lost = stream.close
        else:  # another server: its disconnect message says the page went
            watch = loop.create_task(until_disconnect(receive, stream))
        try:
            await self._serve(stream, send)
        finally:
            self._closed(stream, client)
            if connection is None:
                watch.cancel()

    async def _serve(self, stream: Stream, send) -> None:
        start = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS]
        await send({"type": "http.response.start", "status": 200,
                    "headers": start + _STREAM_HEADERS})  # fmt: skip
        version = self.store.version(stream.game)
        first = f"retry: {RETRY_MS}\nevent: ready\ndata: {version}\n\n"
        if stream.view is not None:
            first = first[:-1] + f"data: {stream.sid}\n\n"  # its name, for its page's taps
            if stream.version != version:  # caught up by its own view, rendered
                self._render_soon(stream.game)
        else:
            if stream.version != version:
                first += f"id: {version}\ndata: {version}\n\n"
            stream.version = version
        await send({"type": "http.response.body", "body": first.encode(), "more_body": True})
        loop = asyncio.get_running_loop()
        stream.said_at = loop.time()
        while not (stream.closed or self.closing):
            if not stream.woken:
                stream.waiter = loop.create_future()
                await stream.waiter
                stream.waiter = None
            stream.woken = False
            if stream.closed or self.closing:
                break
            said = self._news(stream)
            if said is None:
                break
            await send({"type": "http.response.body", "body": said.encode(), "more_body": True})
            stream.said_at = loop.time()
            if said.startswith("event: gone"):
                break
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def _news(self, stream: Stream) -> str | None:
        """What to tell the page now (a heartbeat comment when nothing), None to end."""
        try:
            version = self.store.version(stream.game)
            if "tokens" in stream.pending and self.store.role(stream.game, stream.token) is None:
                return "event: gone\ndata: \n\n"
        except GameNotFound:  # removed meanwhile
            return None
        said = ""
        if stream.outbox:
            said, stream.outbox = "".join(stream.outbox), []
        elif stream.view is None and version != stream.version:
            said += f"id: {version}\ndata: {version}\n\n"
            stream.version = version
        for what in ("following", "changed"):
            if what in stream.pending:
                said += f"event: {what}\ndata: \n\n"
        stream.pending.clear()
        return said or ": \n\n"

    def _open(self, stream: Stream, client: str) -> None:
        self.games.setdefault(stream.game, set()).add(stream)
        if self.figures is not None:
            self.figures.drop(stream.game)  # the page shows what it loaded
        self.store.live(stream.game, 1)  # its state stays in memory while followed
        if stream.view is not None:
            self.named[stream.sid] = stream
        self.clients[client] += 1
        if stream.player is not None:
            players = self.players.setdefault(stream.game, Counter())
            players[stream.player] += 1
            if players[stream.player] == 1:
                self.changed(stream.game, "following")

    def _closed(self, stream: Stream, client: str) -> None:
        self.named.pop(stream.sid, None)
        self.store.live(stream.game, -1)
        streams = self.games.get(stream.game)
        if streams is not None:
            streams.discard(stream)
            if not streams:
                del self.games[stream.game]
                self.drawn.pop(stream.game, None)
                if self.figures is not None:
                    self.figures.drop(stream.game)
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]
        players = self.players.get(stream.game)
        if stream.player is not None and players is not None:
            players[stream.player] -= 1
            if players[stream.player] <= 0:
                del players[stream.player]
                if not players:
                    del self.players[stream.game]
                # Still following for a few seconds (a page reconnecting); then the Banker's
                # table is told.
                self.store.saw(stream.game, stream.player)
                if not self.closing and self.loop is not None:
                    self.loop.call_later(FOLLOWING_SECONDS + 0.5, self.changed, stream.game,
                                         "following")  # fmt: skip

    def _who(self, kind: str, key: str, cookie: bytes | None) -> tuple | None:
        """(game, player or None, token) of a stream's link (in a worker thread: an unknown
        token reads SQLite), else None."""
        store = self.store
        try:
            if kind == "join":
                found = store.player_by_token(key)
                return None if found is None else (found[0], found[1], key)
            if kind == "display":
                game = store.game_for_display_token(key)
                return None if game is None else (game, None, key)
            token = seats.banker_cookie_token((cookie or b"").decode("latin-1"), key)
            if token and same_token(token, store.banker_token(key)):
                return key, None, token
        except GameNotFound:
            pass
        return None
