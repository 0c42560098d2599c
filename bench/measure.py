"""The measurements of issue 17 that bench/run.py did not have: throughput, stored bytes per
command, first contentful paint, and the tap timed without evaluating strings (the pages'
Content-Security-Policy forbids eval, so Playwright's string predicates cannot run there)."""

from __future__ import annotations

import gzip
import json
import re
import socket
import statistics
import threading
import time
from pathlib import Path

from tests.serving import CHROMIUM, CHROMIUM_ARGS, read_answer


def throughput_one_game(client_cls, host: str, port: int, commands: int = 1000) -> float:
    """Commands per second on one game, one client sending them back to back (each durable:
    the server answers only after its commit). The client is `Loader`'s: see there."""
    game = _new_game(client_cls(host, port), seed=0)
    script = _script(0, commands + 1)
    loader = Loader(host, port, [(game, script)], connections=1)
    loader.run(count=1)  # the start, outside the timing
    t0 = time.perf_counter()
    sent = loader.run(count=commands)
    return sent / (time.perf_counter() - t0)


def throughput_many_games(
    client_cls, host: str, port: int, games: int = 50, clients: int = 8, seconds: float = 5.0
) -> float:
    """Commands per second over `games` games, `clients` keep-alive connections each playing
    its share of the games in turn (one command of each, then again). The client is
    `Loader`'s: see there."""
    conn = client_cls(host, port)
    tables = [_new_game(conn, seed=i) for i in range(games)]
    per_game = int(seconds * 3000 / games) + 10  # more than the server can take
    scripts = {}
    plan = []
    for i, game in enumerate(tables):
        seed = i % 10
        if seed not in scripts:
            scripts[seed] = _script(seed, per_game)
        plan.append((game, scripts[seed]))
    loader = Loader(host, port, plan, connections=clients)
    t0 = time.perf_counter()
    sent = loader.run(seconds=seconds)
    return sent / (time.perf_counter() - t0)


def _new_game(client, seed: int) -> dict:
    status, game = client.json(
        "POST", "/api/v1/games", {"edition": "g0009", "players": ["Ann", "Bob", "Cat", "Dan"]}
    )
    assert status == 201, game
    return game


def _script(seed: int, commands: int) -> list[bytes]:
    """The bot's commands of a 4-player game played in the core alone, JSON-encoded: sent in
    order to a new game of the same players, each is accepted exactly as it was here (the
    core is pure, and a game's id is not in its commands)."""
    from banker import rules
    from bench.bot import Bot

    bot = Bot(seed)
    state = rules.new_game("script", "g0009", ["Ann", "Bob", "Cat", "Dan"], None)
    out = []
    for _ in range(commands):
        command = bot.next_command(rules.public_state(state))
        state, _ = rules.apply(state, command)
        out.append(json.dumps(command).encode())
    return out


class Loader:
    """A load generator that costs little CPU, so that the 2 cores go to the server: commands
    are played in the core beforehand (`_script`) and sent as pre-encoded HTTP/1.1 requests on
    raw keep-alive sockets, one thread per connection; each answer is read whole (its status
    must be 200, its Content-Length bytes read) before the connection's next request. Every
    command is still a real request answered by `banker serve` after its commit."""

    def __init__(self, host: str, port: int, plan: list, connections: int):
        self.host, self.port = host, port
        self.shares = [plan[i::connections] for i in range(connections)]
        self.sent = [0] * len(plan)  # commands already sent, per game (plan order)
        self.index = {id(game): i for i, (game, _) in enumerate(plan)}
        self.sockets = [None] * connections

    def request(self, game: dict, body: bytes) -> bytes:
        head = (
            f"POST /api/v1/games/{game['game_id']}/commands HTTP/1.1\r\n"
            f"Host: {self.host}:{self.port}\r\n"
            f"Authorization: Bearer {game['banker_token']}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        return head.encode() + body

    def run(self, count: int | None = None, seconds: float | None = None) -> int:
        """Send `count` commands per connection, or for `seconds`; how many were answered."""
        stop = threading.Event()
        done = [0] * len(self.shares)

        def play(k: int) -> None:
            if self.sockets[k] is None:
                self.sockets[k] = socket.create_connection((self.host, self.port))
                self.sockets[k].setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock, buffer = self.sockets[k], b""
            while not stop.is_set() and (count is None or done[k] < count):
                for game, script in self.shares[k]:
                    i = self.index[id(game)]
                    if self.sent[i] >= len(script):
                        stop.set()  # a script ran out: stop there rather than repeat one
                        break
                    sock.sendall(self.request(game, script[self.sent[i]]))
                    self.sent[i] += 1
                    buffer = _answer(sock, buffer)
                    done[k] += 1
                    if count is not None and done[k] >= count:
                        break

        threads = [threading.Thread(target=play, args=(k,), daemon=True)
                   for k in range(len(self.shares))]  # fmt: skip
        for th in threads:
            th.start()
        if seconds is not None:
            time.sleep(seconds)
            stop.set()
        for th in threads:
            th.join(60)
        return sum(done)


def _answer(sock, buffer: bytes) -> bytes:
    """Read one HTTP answer whole from `sock` (status 200 required); the bytes after it."""
    answer, rest = read_answer(sock, buffer)
    if not answer.startswith(b"HTTP/1.1 200 "):
        raise AssertionError(answer.partition(b"\r\n\r\n")[0].decode("latin-1"))
    return rest


def stored_bytes_per_command(serve, client_cls, tmp: Path, events: int = 5000) -> float:
    """Database bytes per command of one played game (events included), after a VACUUM, less
    an empty database's: a fresh server, a bot's game of `events` events."""
    from banker.store import compacted_size
    from bench.run import Table

    db = tmp / "bytes.db"
    with serve(db) as (host, port, _pid):
        t = Table(client_cls(host, port))
        commands = 0
        while t.events < events:
            t.step()
            commands += 1
    empty = tmp / "empty.db"
    with serve(empty):
        pass
    return (compacted_size(db) - compacted_size(empty)) / commands


_RECEIVED = """() => {
    const nav = performance.getEntriesByType('navigation')[0];
    let bytes = nav ? nav.encodedBodySize : 0;
    for (const r of performance.getEntriesByType('resource')) bytes += r.encodedBodySize;
    return bytes;
}"""
_FCP = """() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime
    || null"""


def first_paints(url: str, loads: int = 20) -> tuple[list[float], list[int]]:
    """First contentful paint (s) of `url` in Chromium at 390x844, each load in a fresh
    context (nothing cached), and the bytes each load received (bodies as sent: gzipped)."""
    from playwright.sync_api import sync_playwright

    paints, received = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(loads):
            ctx = browser.new_context(
                viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
            )
            page = ctx.new_page()
            page.goto(url, wait_until="load")
            fcp = wait_for(page, _FCP, timeout=5)
            paints.append(fcp / 1000)
            received.append(page.evaluate(_RECEIVED))
            ctx.close()
        browser.close()
    return paints, received


def wait_for(page, expression: str, timeout: float = 10.0):
    """Poll a function expression in the page until it is truthy (no eval of strings)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = page.evaluate(expression)
        if value:
            return value
        time.sleep(0.005)
    raise TimeoutError(expression)


def player_url(game: dict, host: str) -> str:
    return game["players"][0]["join_url"].replace("localhost", host)


def banker_url(game: dict, host: str) -> str:
    return game["banker_url"].replace("localhost", host)


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def absolute(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


# --- moved from bench/run.py: page weight, taps, import ----------------------------------


def _table(client):
    """A new bot game over `client` (bench.run.Table)."""
    from bench.run import Table

    return Table(client)


def measure_page_weight(client) -> dict[str, int] | None:
    """Gzipped bytes of the Banker's page and a player's page with what each fetches."""
    t = _table(client)
    out = {}
    for label, url in (
        ("banker", t.game["banker_url"]),
        ("player", t.game["players"][0]["join_url"]),
    ):
        path = re.sub(r"^https?://[^/]+", "", url)
        total, seen = 0, set()
        cookies = ""
        for _ in range(5):  # follow redirects (a page may set a cookie and redirect)
            status, body, r = client.call("GET", path, headers={"Cookie": cookies})
            if r.getheader("Set-Cookie"):
                cookies = "; ".join(c.split(";")[0] for c in r.headers.get_all("Set-Cookie") or [])
            if status in (301, 302, 303, 307) and r.getheader("Location"):
                path = re.sub(r"^https?://[^/]+", "", r.getheader("Location"))
                continue
            break
        if status != 200:
            return None
        total += len(gzip.compress(body))
        for asset in re.findall(rb'(?:src|href)="(/static/[^"]+)"', body):
            if asset in seen:
                continue
            seen.add(asset)
            _, data, _ = client.call("GET", asset.decode())
            total += len(gzip.compress(data))
        out[label] = total
    return out


def settle_by_api(t) -> None:
    """Resolve whatever the last roll left open, so the dice pad shows again."""
    for _ in range(20):
        p = t.state["pending"]
        if not (
            p["offer"] or p["auction"] or p["card"] or p["dice"] or p["debt"] or p["auction_queue"]
        ):
            players = {x["id"]: x for x in t.state["players"]}
            if not players[t.state["turn"]["player"]]["in_jail"]:
                return
        t.step()


def measure_taps(client, host: str, port: int, taps: int = 20) -> list[float] | None:
    """Tap on the second die to the swapped screen, in ms, as the browser itself times it."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not Path(CHROMIUM).exists():
        return None
    t = _table(client)
    t.step()  # start
    out = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
        )
        page = ctx.new_page()
        page.goto(t.game["banker_url"].replace("localhost", host))
        for _ in range(taps):
            settle_by_api(t)
            page.reload()
            page.tap("button[aria-label='First die 2']")
            second = page.locator("button[aria-label^='Second die 3']")
            second.wait_for()
            page.evaluate("""() => {
                window.__t0 = window.__t1 = null;
                document.addEventListener('pointerdown', () => {
                    window.__t0 = performance.now(); }, {once: true, capture: true});
                document.body.addEventListener('htmx:afterSettle', () => {
                    if (window.__t0 !== null && window.__t1 === null) {
                        window.__t1 = performance.now(); } });
            }""")
            second.tap()
            wait_for(page, "() => window.__t1 !== null && window.__t1 !== undefined")
            out.append(page.evaluate("window.__t1 - window.__t0") / 1000)
            status, state = client.json("GET", f"/api/v1/games/{t.id}", token=t.token)
            t.state = state
        browser.close()
    return out


def measure_import(client, events: int = 5000, runs: int = 3, pid: int | None = None):
    """Seconds to import (check, replay and store) the snapshot of a game of `events` events:
    (wall seconds of each run, the snapshot's bytes, the server's CPU seconds of each run)."""
    from bench.idle_polling import cpu_seconds

    t = _table(client)
    t.play_until_events(events)
    status, data, _ = client.call("GET", f"/api/v1/games/{t.id}/snapshot", token=t.token)
    assert status == 200, data[:200]
    doc = json.loads(data)
    out, cpus = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), cpu_seconds(pid) if pid else 0.0
        status, ans = client.json("POST", "/api/v1/games/import", doc)
        out.append(time.perf_counter() - t0)
        cpus.append(cpu_seconds(pid) - c0 if pid else float("nan"))
        assert status == 201, ans
    return out, len(data), cpus
