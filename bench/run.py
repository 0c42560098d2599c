"""Measure banker against its budgets and print a table of figures (issue 7).

    python -m bench.run            # from the repository root, after `pip install -e '.[test]'`

Starts the real server (`banker serve`) on loopback with a fresh database, as a user would,
runs each measurement several times and prints the median with min and max next to the budget.
Measurements are not tests: nothing here fails on a slow machine.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import re
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bot import Bot  # noqa: E402
from tests.serving import serving  # noqa: E402

# --- the server and a client --------------------------------------------------------------


@contextmanager
def server(db: Path):
    """`banker serve` on a free loopback port (tests/serving.py, as the tests start it):
    yields (host, port, pid)."""
    with serving(db) as running:
        yield "127.0.0.1", int(running.url.rsplit(":", 1)[1]), running.proc.pid


class Client:
    """One keep-alive HTTP connection speaking the JSON API."""

    def __init__(self, host: str, port: int):
        self.conn = http.client.HTTPConnection(host, port, timeout=30)

    def call(
        self,
        method: str,
        path: str,
        body=None,
        token: str | None = None,
        headers: dict | None = None,
    ):
        h = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            h["Authorization"] = f"Bearer {token}"
        h.update(headers or {})
        self.conn.request(method, path, None if body is None else json.dumps(body), h)
        r = self.conn.getresponse()
        data = r.read()
        return r.status, data, r

    def json(self, method: str, path: str, body=None, token: str | None = None):
        status, data, _ = self.call(method, path, body, token)
        return status, json.loads(data) if data else None


class Table:
    """A game played by the bot over HTTP, timing each command by type."""

    def __init__(self, client: Client, names=("Ann", "Bob", "Cat", "Dan"), seed: int = 1):
        self.c = client
        status, g = client.json(
            "POST", "/api/v1/games", {"edition": "g0009", "players": list(names)}
        )
        assert status == 201, g
        self.game = g
        self.id, self.token = g["game_id"], g["banker_token"]
        self.state = g["state"]
        self.bot = Bot(seed)
        self.events = 0
        self.times: dict[str, list[float]] = {}

    def step(self, command: dict | None = None) -> dict:
        command = command or self.bot.next_command(self.state)
        t0 = time.perf_counter()
        status, ans = self.c.json("POST", f"/api/v1/games/{self.id}/commands", command, self.token)
        dt = time.perf_counter() - t0
        assert status == 200, (command, ans)
        self.times.setdefault(command["type"], []).append(dt)
        self.state = ans["state"]
        self.events += len(ans["events"])
        return ans

    def play_until_events(self, n: int) -> None:
        while self.events < n:
            self.step()

    def trade(self) -> None:
        """A deed for 1 between two players (a set with no buildings), when one exists."""
        from banker.rules.board import DEEDS, GROUPS

        props = self.state["properties"]
        ids = [p["id"] for p in self.state["players"]]
        for prop, st in props.items():
            group = GROUPS[DEEDS[prop].group]
            if st["owner"] and not any(props[g]["houses"] or props[g]["hotel"] for g in group):
                to = ids[(ids.index(st["owner"]) + 1) % len(ids)]
                self.step(
                    {
                        "type": "trade",
                        "from": st["owner"],
                        "to": to,
                        "give": {"properties": [prop]},
                        "receive": {"cash": 1},
                    }
                )
                return
        self.step()


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


# --- measurements ---------------------------------------------------------------------------


def measure_commands(client: Client, n: int = 400, at_events: int = 100, seed: int = 1):
    """p50/p99 of commands (all types mixed, the bot's game) after `at_events` events."""
    t = Table(client, seed=seed)
    t.play_until_events(at_events)
    t.times.clear()
    for i in range(n):
        if i % 20 == 0:
            t.trade()
        else:
            t.step()
    every = [x for xs in t.times.values() for x in xs]
    by_type = {k: statistics.median(v) for k, v in t.times.items() if len(v) >= 5}
    return pct(every, 0.5), pct(every, 0.99), by_type


def measure_state_read(client: Client, n: int = 500):
    t = Table(client)
    t.play_until_events(200)
    xs = []
    for _ in range(n):
        t0 = time.perf_counter()
        status, _, _ = client.call("GET", f"/api/v1/games/{t.id}", token=t.token)
        xs.append(time.perf_counter() - t0)
        assert status == 200
    return pct(xs, 0.5), pct(xs, 0.99)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure_memory(client: Client, pid: int, games: int = 200, commands: int = 30) -> float:
    for i in range(games):
        t = Table(client, seed=i)
        for _ in range(commands):
            t.step()
        client.json("GET", f"/api/v1/games/{t.id}", token=t.token)
    return rss_mb(pid)


def measure_page_weight(client: Client) -> dict[str, int] | None:
    """Gzipped bytes of the Banker's page and a player's page with what each fetches."""
    t = Table(client)
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


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def settle_by_api(t: Table) -> None:
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


def measure_taps(client: Client, host: str, port: int, taps: int = 20) -> list[float] | None:
    """Tap on the second die to the swapped screen, in ms, as the browser itself times it."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not Path("/usr/bin/chromium").exists():
        return None
    t = Table(client)
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
            page.wait_for_function("window.__t1 !== null && window.__t1 !== undefined")
            out.append(page.evaluate("window.__t1 - window.__t0") / 1000)
            status, state = client.json("GET", f"/api/v1/games/{t.id}", token=t.token)
            t.state = state
        browser.close()
    return out


def measure_import(client: Client, events: int = 5000, runs: int = 3) -> list[float]:
    """Seconds to import (check, replay and store) the snapshot of a game of `events` events."""
    t = Table(client)
    t.play_until_events(events)
    status, data, _ = client.call("GET", f"/api/v1/games/{t.id}/snapshot", token=t.token)
    assert status == 200, data[:200]
    doc = json.loads(data)
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        status, ans = client.json("POST", "/api/v1/games/import", doc)
        out.append(time.perf_counter() - t0)
        assert status == 201, ans
    return out, len(data)


# --- the table ------------------------------------------------------------------------------


def summarize(runs: list[float]) -> str:
    return (
        f"{ms(statistics.median(runs))} (min {ms(min(runs))}, max {ms(max(runs))})"
        if runs
        else "n/a"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="repetitions of each measurement")
    ap.add_argument("--long", type=int, default=10_000, help="events in the long game")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "bench.db") as (host, port, pid):
        client = Client(host, port)
        p50s, p99s, longp50s, longp99s = [], [], [], []
        types: dict[str, list[float]] = {}
        for r in range(args.runs):
            p50, p99, by_type = measure_commands(client, at_events=100, seed=r)
            p50s.append(p50)
            p99s.append(p99)
            for k, v in by_type.items():
                types.setdefault(k, []).append(v)
            p50, p99, _ = measure_commands(client, at_events=args.long, seed=r)
            longp50s.append(p50)
            longp99s.append(p99)
        rows.append(("command through the server, p50", "<= 2 ms", summarize(p50s)))
        rows.append(("command through the server, p99", "<= 5 ms", summarize(p99s)))
        for k in ("roll", "buy", "claim_rent", "build", "trade"):
            if k in types:
                rows.append((f"  {k}, p50", "", summarize(types[k])))
        ratio = statistics.median(longp50s) / statistics.median(p50s)
        rows.append(
            (
                f"command after {args.long:,} events, p50",
                "<= 1.2x of after 100",
                f"{summarize(longp50s)}; {ratio:.2f}x",
            )
        )
        rows.append((f"command after {args.long:,} events, p99", "", summarize(longp99s)))
        reads = [measure_state_read(client)[0] for _ in range(args.runs)]
        rows.append(("reading a game's state, p50", "<= 2 ms", summarize(reads)))
        weight = measure_page_weight(client)
        if weight:
            rows.append(
                (
                    "Banker's page, first load, gzipped",
                    "<= 40 KB",
                    f"{weight['banker'] / 1024:.1f} KB",
                )
            )
            rows.append(
                (
                    "player's page, first load, gzipped",
                    "<= 25 KB",
                    f"{weight['player'] / 1024:.1f} KB",
                )
            )
        taps = measure_taps(client, host, port)
        if taps:
            rows.append(
                (
                    "tap to updated screen, Chromium 390x844, median",
                    "<= 50 ms",
                    f"{ms(statistics.median(taps))} (min {ms(min(taps))}, "
                    f"max {ms(max(taps))}, {len(taps)} taps)",
                )
            )
        imports, size = measure_import(client, runs=args.runs)
        rows.append(
            (
                f"import a 5,000-event snapshot ({size / 1e6:.1f} MB)",
                "<= 1 s",
                f"{statistics.median(imports):.2f} s (min {min(imports):.2f} s, "
                f"max {max(imports):.2f} s)",
            )
        )

    from bench.idle_polling import make_games, saturation_phase

    rates = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "b.db") as (_, port, pid):
            games = make_games(port, 50)
            busy = saturation_phase(port, pid, games, 50, 4.0)
            rates.append(busy["polls"] / busy["seconds"])
    rows.append(
        (
            "unchanged polls answered, 50 phones",
            ">= 2,000/s",
            f"{statistics.median(rates):,.0f}/s (min {min(rates):,.0f}, "
            f"max {max(rates):,.0f}; the phones share the 2 cores)",
        )
    )
    mems = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "m.db") as (host, port, pid):
            mems.append(measure_memory(Client(host, port), pid))
    rows.append(
        (
            "server memory, 200 games open",
            "<= 100 MB",
            f"{statistics.median(mems):.1f} MB resident (min {min(mems):.1f}, max {max(mems):.1f})",
        )
    )
    from bench import phones_follow

    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "f.db") as (_, port, _pid):
        rows += phones_follow.figures(phones_follow.measure(port))
    from bench.story import measure_story
    from bench.story import rows as story_rows

    rows += story_rows(measure_story(args.long, args.runs))
    from bench import hostile  # issue 12: what a hostile visitor costs

    rows += hostile.rows()
    width = max(len(r[0]) for r in rows)
    print(f"{'measurement':<{width}}  {'budget':<22}  figure")
    for name, budget, figure in rows:
        print(f"{name:<{width}}  {budget:<22}  {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
