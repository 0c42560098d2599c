"""Measure banker against its budgets and print a table of figures (issue 7).

    python -m bench.run            # from the repository root, after `pip install -e '.[test]'`

Starts the real server (`banker serve`) on loopback with a fresh database, as a user would,
runs each measurement several times and prints the median with min and max next to the budget.
Each figure is printed next to its budget (issue 17); the exit status is 1 when one is missed.
Measurements are not tests: the test suite never runs them.
"""

from __future__ import annotations

import argparse
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
from bench.measure import (  # noqa: E402
    measure_import,
    measure_page_weight,
    measure_taps,
)
from tests.serving import CHROMIUM, serving  # noqa: E402

# --- the server and a client --------------------------------------------------------------


CODE = REPO  # the checkout of banker that `server` serves (bench.run --code)


@contextmanager
def server(db: Path, code: Path | None = None):
    """`banker serve` on a free loopback port (tests/serving.py, as the tests start it):
    yields (host, port, pid). `code`: the checkout of banker to serve (default CODE)."""
    env = {"PYTHONPATH": str(code or CODE)}  # it runs beside `db`: this checkout comes first
    with serving(db, env=env) as running:
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
        encoded: bool = False,
    ):
        h = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            h["Authorization"] = f"Bearer {token}"
        h.update(headers or {})
        data = body if encoded or body is None else json.dumps(body)
        try:
            self.conn.request(method, path, data, h)
            r = self.conn.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            self.conn.close()  # the server closed an idle keep-alive connection: once more
            self.conn.request(method, path, data, h)
            r = self.conn.getresponse()
        return r.status, r.read(), r

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
        """Send one command; its answer. Timed from the request's first byte sent to the
        answer's last byte read: the client's own JSON (encoding the command, decoding the
        3 KB answer) is not banker's cost and is left out of the figure."""
        command = command or self.bot.next_command(self.state)
        body = json.dumps(command)
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"}
        t0 = time.perf_counter()
        status, data, _ = self.c.call(
            "POST", f"/api/v1/games/{self.id}/commands", body=body, headers=headers, encoded=True
        )
        dt = time.perf_counter() - t0
        ans = json.loads(data)
        assert status == 200, (command, ans)
        self.times.setdefault(command["type"], []).append(dt)
        self.state = ans["state"]
        self.events += len(ans["events"])
        return ans

    def play_until_events(self, n: int) -> None:
        while self.events < n:
            self.step()

    def trade(self) -> None:
        """A deed for 1 between two players (a set with no buildings), when one exists (and no
        rent is waiting to be claimed: the bot would claim it for a deed now traded away)."""
        from banker.rules.board import DEEDS, GROUPS

        if self.state["pending"]["rent_claims"]:
            self.step()
            return

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


def measure_commands(
    client: Client, n: int = 400, at_events: int = 100, seed: int = 1, pid: int | None = None
):
    """p50/p99 of commands (all types mixed, the bot's game) after `at_events` events, and
    by type; with `pid`, also the server's CPU seconds per command (not slowed by a busy
    machine as wall times are, unless the processor itself is shared)."""
    from bench.idle_polling import cpu_seconds

    t = Table(client, seed=seed)
    t.play_until_events(at_events)
    t.times.clear()
    cpu = cpu_seconds(pid) if pid else 0.0
    for i in range(n):
        if i % 20 == 0:
            t.trade()
        else:
            t.step()
    cpu = (cpu_seconds(pid) - cpu) / n if pid else 0.0
    every = [x for xs in t.times.values() for x in xs]
    by_type = {k: statistics.median(v) for k, v in t.times.items() if len(v) >= 5}
    by_type["cpu"] = cpu
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


# --- the table ------------------------------------------------------------------------------


def summarize(runs: list[float]) -> str:
    return (
        f"{ms(statistics.median(runs))} (min {ms(min(runs))}, max {ms(max(runs))})"
        if runs
        else "n/a"
    )


class Rows:
    """The table: (measurement, budget, figure, met) rows; met is None for a figure without
    a budget of its own."""

    def __init__(self):
        self.rows: list[tuple[str, str, str, bool | None]] = []

    def add(self, name: str, budget: str, figure: str, met: bool | None = None) -> None:
        self.rows.append((name, budget, figure, met))
        mark = "" if met is None else ("  met" if met else "  MISSED")
        print(f"  {name}: {figure} [{budget}]{mark}", file=sys.stderr, flush=True)

    def print(self) -> int:
        width = max(len(r[0]) for r in self.rows)
        print(f"{'measurement':<{width}}  {'budget':<24}  {'':6}  figure")
        for name, budget, figure, met in self.rows:
            mark = "" if met is None else ("met" if met else "MISSED")
            print(f"{name:<{width}}  {budget:<24}  {mark:<6}  {figure}")
        missed = [r[0] for r in self.rows if r[3] is False]
        print(f"\n{len(missed)} budget(s) missed" + (f": {', '.join(missed)}" if missed else ""))
        return 1 if missed else 0


def commands_rows(out: Rows, runs: int, long: int, tmpfs: bool) -> None:
    """Commands through the server: durable on disk, or on tmpfs (the disk aside)."""
    base = Path("/dev/shm") if tmpfs and Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=base) as tmp, server(Path(tmp) / "c.db") as srv:
        host, port, pid = srv
        client = Client(host, port)
        p50s, p99s, longp50s, types, cpus = [], [], [], {}, []
        for r in range(runs):
            p50, p99, by_type = measure_commands(client, at_events=100, seed=r, pid=pid)
            cpus.append(by_type.pop("cpu"))
            p50s.append(p50)
            p99s.append(p99)
            for k, v in by_type.items():
                types.setdefault(k, []).append(v)
            if not tmpfs:
                longp50s.append(measure_commands(client, at_events=long, seed=r)[0])
    p50 = statistics.median(p50s)
    where = "tmpfs" if tmpfs else "disk"
    out.add(f"  server CPU per command ({where})", "", summarize(cpus))
    if tmpfs:
        out.add("command, database on tmpfs, p50", "<= 0.5 ms", summarize(p50s), p50 <= 0.0005)
        return
    out.add("command through the server, p50", "<= 1.0 ms", summarize(p50s), p50 <= 0.001)
    p99 = statistics.median(p99s)
    out.add("command through the server, p99", "<= 3 ms", summarize(p99s), p99 <= 0.003)
    for k in ("roll", "buy", "claim_rent", "build", "trade"):
        if k in types:
            out.add(f"  {k}, p50", "", summarize(types[k]))
    ratio = statistics.median(longp50s) / p50
    out.add(
        f"command after {long:,} events, p50",
        "<= 1.1x of after 100",
        f"{summarize(longp50s)}; {ratio:.2f}x",
        ratio <= 1.1,
    )


def throughput_rows(out: Rows) -> None:
    from bench.measure import throughput_many_games, throughput_one_game

    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "t.db") as (host, port, _):
        one = throughput_one_game(Client, host, port)
        many = throughput_many_games(Client, host, port)
    out.add("throughput, one game, durable", ">= 1,000 commands/s", f"{one:,.0f}/s", one >= 1000)
    out.add(
        "throughput, 50 games, 8 clients, durable",
        ">= 1,500 commands/s",
        f"{many:,.0f}/s (the clients share the 2 cores)",
        many >= 1500,
    )


def browser_rows(out: Rows, runs: int) -> None:
    """Page weights, first paint, tap to updated screen."""
    from bench.measure import banker_url, first_paints, player_url

    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "b.db") as (host, port, pid):
        client = Client(host, port)
        weight = measure_page_weight(client)
        if weight:
            out.add(
                "  Banker's page and every file it links, gzipped",
                "",
                f"{weight['banker'] / 1024:.1f} KB (icons for home screens included)",
            )
            out.add("  player's page and every file it links, gzipped", "",
                    f"{weight['player'] / 1024:.1f} KB")  # fmt: skip
        if not Path(CHROMIUM).exists():
            return
        t = Table(client)
        for label, url, kb in (
            ("Banker's page", banker_url(t.game, host), 30),
            ("player's page", player_url(t.game, host), 25),
        ):
            fcp, received = first_paints(url)
            got = statistics.median(received) / 1024
            out.add(f"{label}, first load received by Chromium", f"<= {kb} KB", f"{got:.1f} KB",
                    got <= kb)  # fmt: skip
            out.add(
                f"first contentful paint, {label}",
                "<= 150 ms median",
                f"{ms(statistics.median(fcp))} (min {ms(min(fcp))}, max {ms(max(fcp))}, "
                f"{len(fcp)} cold loads)",
                statistics.median(fcp) <= 0.150,
            )
        taps = measure_taps(client, host, port)
        if taps:
            tap = statistics.median(taps)
            out.add(
                "tap to updated screen, Chromium 390x844, median",
                "<= 30 ms",
                f"{ms(tap)} (min {ms(min(taps))}, max {ms(max(taps))}, {len(taps)} taps)",
                tap <= 0.030,
            )
        imports, size, cpus = measure_import(client, runs=runs, pid=pid)
        best = statistics.median(imports)
        out.add(
            f"import a 5,000-event snapshot ({size / 1e6:.1f} MB)",
            "<= 0.5 s",
            f"{best:.2f} s (min {min(imports):.2f} s, max {max(imports):.2f} s); server CPU "
            f"{statistics.median(cpus):.2f} s",
            best <= 0.5,
        )


def storage_rows(out: Rows, runs: int) -> None:
    from bench.measure import stored_bytes_per_command

    with tempfile.TemporaryDirectory() as tmp:
        per = stored_bytes_per_command(server, Client, Path(tmp))
    out.add("stored bytes per command (a 5,000-event game)", "<= 1,024 B", f"{per:,.0f} B",
            per <= 1024)  # fmt: skip
    mems = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "m.db") as (host, port, pid):
            mems.append(measure_memory(Client(host, port), pid))
    mem = statistics.median(mems)
    out.add(
        "server memory, 200 games open",
        "<= 50 MB",
        f"{mem:.1f} MB resident (min {min(mems):.1f}, max {max(mems):.1f})",
        mem <= 50,
    )


def following_rows(out: Rows) -> None:
    from bench import phones_follow

    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "f.db") as (_, port, _pid):
        result = phones_follow.measure(port)
    for name, budget, figure in phones_follow.figures(result):
        p95 = re.match(r"\s*([\d.]+) (ms|s)", figure)
        met = None
        if budget and p95:
            value = float(p95.group(1)) / (1000 if p95.group(2) == "ms" else 1)
            met = value <= 1.0
        out.add(name.strip(), budget, figure, met)


def push_rows(out: Rows, tables: int) -> None:
    """Issue 25: a change on every screen in Chromium; idle devices and live tables."""
    from bench import push_browser
    from bench import tables as live_tables

    if Path(CHROMIUM).exists():
        with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "p.db") as (host, port, _):
            for row in push_browser.rows(push_browser.measure(f"http://{host}:{port}")):
                out.add(*row)
    for row in live_tables.rows(live_tables.measure(tables)):
        out.add(*row)
    out.add("  the machine, after the push part", "", live_tables.load_average(), None)


def extra_rows(out: Rows, runs: int, long: int) -> None:
    """The earlier tables' figures kept for comparison: state reads, idle polls, the story,
    a hostile visitor (issue 12)."""
    from bench.idle_polling import make_games, saturation_phase

    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "r.db") as (host, port, pid):
        client = Client(host, port)
        reads = [measure_state_read(client)[0] for _ in range(runs)]
        out.add("reading a game's state, p50", "<= 2 ms", summarize(reads),
                statistics.median(reads) <= 0.002)  # fmt: skip
        games = make_games(port, 50)
        busy = saturation_phase(port, pid, games, 50, 4.0)
        rate = busy["polls"] / busy["seconds"]
        out.add("unchanged polls answered, 50 phones", ">= 2,000/s", f"{rate:,.0f}/s",
                rate >= 2000)  # fmt: skip
    from bench import hostile
    from bench.story import measure_story
    from bench.story import rows as story_rows

    for name, budget, figure in story_rows(measure_story(long, runs)) + hostile.rows():
        out.add(name, budget, figure)


def main(argv=None) -> int:
    global CODE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="repetitions of each measurement")
    ap.add_argument("--long", type=int, default=10_000, help="events in the long game")
    ap.add_argument("--code", type=Path, default=REPO, help="the banker checkout to serve")
    ap.add_argument("--only", default="", help="comma-separated parts: commands,tmpfs,"
                    "throughput,browser,storage,following,push,extra (default: all)")  # fmt: skip
    ap.add_argument("--tables", type=int, default=1000, help="live tables of the push part")
    args = ap.parse_args(argv)
    CODE = args.code.resolve()
    parts = set(filter(None, args.only.split(","))) or {
        "commands", "tmpfs", "throughput", "browser", "storage", "following", "push", "extra"
    }  # fmt: skip
    out = Rows()
    if "commands" in parts:
        commands_rows(out, args.runs, args.long, tmpfs=False)
    if "tmpfs" in parts:
        commands_rows(out, args.runs, args.long, tmpfs=True)
    if "throughput" in parts:
        throughput_rows(out)
    if "browser" in parts:
        browser_rows(out, args.runs)
    if "storage" in parts:
        storage_rows(out, args.runs)
    if "following" in parts:
        following_rows(out)
    if "push" in parts:
        push_rows(out, args.tables)
    if "extra" in parts:
        extra_rows(out, args.runs, args.long)
    return out.print()


if __name__ == "__main__":
    sys.exit(main())
