"""The measurements of issue 17 that bench/run.py did not have: throughput, stored bytes per
command, first contentful paint, and the tap timed without evaluating strings (the pages'
Content-Security-Policy forbids eval, so Playwright's string predicates cannot run there)."""

from __future__ import annotations

import re
import statistics
import threading
import time
from pathlib import Path

from bench.bot import Bot

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


__all__ = ["Bot"]
