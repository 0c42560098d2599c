"""The measurements of issue 17 that bench/run.py did not have: throughput, stored bytes per
command, first contentful paint, and the tap timed without evaluating strings (the pages'
Content-Security-Policy forbids eval, so Playwright's string predicates cannot run there)."""

from __future__ import annotations

import gzip
import json
import re
import statistics
import threading
import time
from pathlib import Path

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def throughput_one_game(client_cls, host: str, port: int, commands: int = 1000) -> float:
    """Commands per second on one game, one client sending them back to back (each durable:
    the server answers only after its commit)."""
    from bench.run import Table

    t = Table(client_cls(host, port))
    t.step()
    t0 = time.perf_counter()
    for _ in range(commands):
        t.step()
    return commands / (time.perf_counter() - t0)


def throughput_many_games(
    client_cls, host: str, port: int, games: int = 50, clients: int = 8, seconds: float = 5.0
) -> float:
    """Commands per second over `games` games, `clients` threads each playing its share of
    the games in turn, each on its own keep-alive connection."""
    from bench.run import Table

    tables = [Table(client_cls(host, port), seed=i) for i in range(games)]
    shares = [tables[i::clients] for i in range(clients)]
    counts = [0] * clients
    stop = threading.Event()

    def play(k: int) -> None:
        conn = client_cls(host, port)
        for t in shares[k]:
            t.c = conn
        while not stop.is_set():
            for t in shares[k]:
                t.step()
                counts[k] += 1

    threads = [threading.Thread(target=play, args=(k,), daemon=True) for k in range(clients)]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    time.sleep(seconds)
    stop.set()
    for th in threads:
        th.join(30)
    return sum(counts) / (time.perf_counter() - t0)


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
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
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
    if not Path("/usr/bin/chromium").exists():
        return None
    t = _table(client)
    t.step()  # start
    out = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
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
