"""Many live tables on one `banker serve`: what idle phones cost, and how fast every change
reaches every phone under load (issue 25).

    python -m bench.tables [--tables 1000] [--idle 30] [--seconds 60] [--tmpfs] [--code DIR]
                           [--played N]

Starts the real server on loopback with a fresh database and makes `tables` games of four
players. Each table has six devices, each holding its page's push stream exactly as
static/refresh.js opens it: the Banker's (`/games/<id>/events` with the game's cookie), four
players' (`/join/<token>/events`) and the display's (`/display/<token>/events`). The devices
are asyncio connections of one client process (uvloop when installed), on the same 2 cores.

1. Idle: nothing happens for `idle` seconds; the server's CPU (utime + stime of /proc/<pid>)
   per connected device per second. Budget 0.05 ms.
2. Load: every table sends one command (`adjust`, through the JSON API) every 10 s, the tables
   spread evenly over those 10 s, for `seconds`: each command's round trip (p95 budget 20 ms),
   and for each command, the time from sending it to each of its table's six devices holding
   the new version's event (p95 budget 250 ms; a device that never gets it is "missed").
   The machine's own share is printed beside them: how much of the phase some task on it
   waited for a CPU, or for the disk (Linux's pressure stall figures, /proc/pressure): a
   shared machine's load is in every latency here. `--tmpfs` puts the database on /dev/shm
   (each commit's sync to the disk aside) to tell the disk's part from the rest.

Each device asks for its page's view in its stream, as a live page does (`?as=`: the Banker's
table, a player's view, the big screen): every change is rendered by the server once per
audience and delivered to each device as the HTML its page swaps in (an `event: swap`
message); a device counts a change delivered when that message, whole, has arrived. `--events`
instead opens the streams without a view (only the version is told, as a story page's): the
event alone, the figure before issue 35. `--played N`: the tables are games N commands under
way (deeds owned, houses, a story of rounds: what a table an hour in shows on its pages), one
game played by bench.bot and resumed from its snapshot for every other table, each sent one
command before the phones connect (a game's first command after it is loaded reads its whole
log once, to know its snapshot's size: a server running for a while has done so); a change
costs more there than in a game just started. Bounded: it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.serving import serving  # noqa: E402

COMMAND = json.dumps({"type": "adjust", "player": "p1", "amount": 1, "reason": "bench"}).encode()
_ID = re.compile(rb"(?m)^id: (\d+)$")
_VERSION = re.compile(rb'^\{"version":(\d+)')


class Device:
    """One page's push stream: the times each version's message arrived whole (its view, when
    the device asks for one), how many of them carried a rendered view, and how many the money
    sent before it (`figures`)."""

    __slots__ = ("path", "cookie", "view", "seen", "rendered", "figured", "reader", "writer",
                 "ok")  # fmt: skip

    def __init__(self, path: str, cookie: str = "", view: str = ""):
        self.path, self.cookie, self.view = path, cookie, view
        self.seen: dict[int, float] = {}
        self.rendered = self.figured = 0  # views, and the money sent before them (figures)
        self.reader = self.writer = None
        self.ok = False

    async def open(self, port: int) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        cookie = f"Cookie: {self.cookie}\r\n" if self.cookie else ""
        view = f"&as={self.view}" if self.view else ""
        self.writer.write(
            f"GET {self.path}?v=1{view} HTTP/1.1\r\nHost: bench\r\n"
            f"Accept: text/event-stream\r\n{cookie}\r\n".encode()
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        self.ok = head.startswith(b"HTTP/1.1 200")

    async def listen(self) -> None:
        buffer = b""
        try:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    return
                now = time.perf_counter()
                buffer += data
                whole, _, buffer = buffer.rpartition(b"\n\n")  # messages arrived whole
                for m in _ID.finditer(whole):
                    self.seen.setdefault(int(m.group(1)), now)
                self.rendered += whole.count(b"\nevent: swap\n")
                self.figured += whole.count(b"event: figures\n")
        except (ConnectionError, asyncio.CancelledError):
            return

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Commander:
    """Keep-alive connections sending the tables' commands; each round trip timed."""

    def __init__(self, port: int, connections: int = 16):
        self.port, self.free = port, asyncio.Queue()
        self.connections = connections
        self.sent: list[tuple[str, int, float]] = []  # (game, version, sent at)
        self.times: list[float] = []
        self.errors = 0

    async def open(self) -> None:
        for _ in range(self.connections):
            self.free.put_nowait(await asyncio.open_connection("127.0.0.1", self.port))

    async def send(self, game: dict) -> None:
        reader, writer = await self.free.get()
        try:
            command = game.get("command", COMMAND)
            request = (
                f"POST /api/v1/games/{game['game_id']}/commands HTTP/1.1\r\nHost: bench\r\n"
                f"Authorization: Bearer {game['banker_token']}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(command)}\r\n\r\n"
            ).encode() + command
            t0 = time.perf_counter()
            if reader.at_eof():  # closed by the server while idle (few tables): a new one
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                t0 = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
            body = await reader.readexactly(length)
            self.times.append(time.perf_counter() - t0)
            found = _VERSION.match(body)
            if not head.startswith(b"HTTP/1.1 200") or found is None:
                self.errors += 1
                return
            self.sent.append((game["game_id"], int(found.group(1)), t0))
        finally:
            self.free.put_nowait((reader, writer))


def cpu_seconds(pid: int) -> float:
    """The CPU time all the process's threads have used so far, in nanoseconds' resolution
    (/proc/<pid>/task/*/schedstat; /proc/<pid>/stat counts 10 ms ticks: too coarse for an idle
    server)."""
    total = 0
    for path in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            total += int(path.read_text().split()[0])
        except (OSError, ValueError, IndexError):  # a thread that ended meanwhile
            pass
    return total / 1e9


def pressure() -> dict[str, float]:
    """Microseconds some task on this machine has waited for a CPU and for the disk since boot
    (Linux's /proc/pressure, "some" line; empty where it is not kept)."""
    out = {}
    for kind in ("cpu", "io"):
        try:
            line = Path(f"/proc/pressure/{kind}").read_text().splitlines()[0]
            out[kind] = float(line.rsplit("total=", 1)[1])
        except (OSError, IndexError, ValueError):
            pass
    return out


def play(port: int, game: dict, commands: int) -> None:
    """Play the started game `commands` commands on (bench.bot's choices, through the API)."""
    from bench.bot import Bot
    from bench.run import Client

    client, bot = Client("127.0.0.1", port), Bot(1)
    path = f"/api/v1/games/{game['game_id']}"
    state = client.json("GET", path, token=game["banker_token"])[1]
    for _ in range(commands):
        status, answer = client.json("POST", path + "/commands", bot.next_command(state),
                                     game["banker_token"])  # fmt: skip
        assert status == 200, answer
        state = answer["state"]
    client.conn.close()


def played_tables(port: int, tables: int, played: int) -> list[dict]:
    """`tables` games well under way: one game played `played` commands, paused (its snapshot)
    and resumed `tables - 1` times (each a game of its own, in the same state). Each one's
    `command` corrects the cash of a player still in the game."""
    from bench.run import Client

    (first,) = make_tables(port, 1)
    play(port, first, played)
    client, path = Client("127.0.0.1", port), f"/api/v1/games/{first['game_id']}"
    status, snapshot = client.json("GET", path + "/snapshot", token=first["banker_token"])
    assert status == 200, snapshot
    games = [first]
    for _ in range(tables - 1):
        status, game = client.json("POST", "/api/v1/games/import", snapshot)
        assert status == 201, game
        games.append(game)
    live = next(p["id"] for p in snapshot["state"]["players"] if not p["eliminated"])
    command = {"type": "adjust", "player": live, "amount": 1, "reason": "bench"}
    for game in games:
        game["command"] = json.dumps(command).encode()
        # One command each first, as a server running for a while has had: a game's first
        # command after it is loaded reads its whole log once (the snapshot's size so far).
        status, answer = client.json("POST", f"/api/v1/games/{game['game_id']}/commands",
                                     command, game["banker_token"])  # fmt: skip
        assert status == 200, answer
    client.conn.close()
    return games


def make_tables(port: int, tables: int) -> list[dict]:
    """`tables` started games of four players (through the API, one keep-alive connection)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    games = []
    for i in range(tables):
        names = [f"A{i}", f"B{i}", f"C{i}", f"D{i}"]
        conn.request("POST", "/api/v1/games", json.dumps({"players": names}),
                     {"Content-Type": "application/json"})  # fmt: skip
        game = json.loads(conn.getresponse().read())
        conn.request("POST", f"/api/v1/games/{game['game_id']}/commands",
                     json.dumps({"type": "start", "first": "p1"}),
                     {"Content-Type": "application/json",
                      "Authorization": f"Bearer {game['banker_token']}"})  # fmt: skip
        conn.getresponse().read()
        games.append(game)
    conn.close()
    return games


def devices_of(game: dict, views: bool = True) -> list[Device]:
    """The six pages of a table: the Banker's, four players', the big screen's; each asks for
    its view in the stream (`views`), else for the version only."""
    gid = game["game_id"]
    table, view, screen = ("table", "view", "screen") if views else ("", "", "")
    out = [Device(f"/games/{gid}/events", f"banker_{gid}={game['banker_token']}", table)]
    out += [Device(f"/join/{p['token']}/events", "", view) for p in game["players"]]
    out.append(Device("/display/" + game["display_url"].rsplit("/", 1)[1] + "/events", "",
                      screen))  # fmt: skip
    return out


async def run(port: int, pid: int, games: list[dict], idle: float, seconds: float,
              views: bool = True) -> dict:  # fmt: skip
    devices = {g["game_id"]: devices_of(g, views) for g in games}
    every = [d for ds in devices.values() for d in ds]
    t0 = time.perf_counter()
    for i in range(0, len(every), 400):  # in batches: the listening socket's backlog
        await asyncio.gather(*(d.open(port) for d in every[i : i + 400]))
    opened = time.perf_counter() - t0
    listeners = [asyncio.ensure_future(d.listen()) for d in every]
    # Every stream's first message in (each page is behind: its view is rendered and sent at
    # once, a few seconds of the server's work for 1,000 tables of games under way), then 2 s.
    deadline = time.perf_counter() + 120
    while not all(d.seen for d in every if d.ok) and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)
    await asyncio.sleep(2)
    # The devices' own objects (6,000 connections) out of this process's garbage collector:
    # its full passes stalled this loop 100-300 ms, counted in every figure below.
    gc.collect()
    gc.freeze()
    cpu0, w0 = cpu_seconds(pid), time.perf_counter()
    await asyncio.sleep(idle)
    idle_cpu, idle_wall = cpu_seconds(pid) - cpu0, time.perf_counter() - w0
    commander = Commander(port)
    await commander.open()
    cpu0, w0, stalls0 = cpu_seconds(pid), time.perf_counter(), pressure()
    tasks, start = [], time.perf_counter()
    step = 10.0 / len(games)
    n = 0
    while (at := n * step) < seconds:
        await asyncio.sleep(max(0.0, start + at - time.perf_counter()))
        tasks.append(asyncio.ensure_future(commander.send(games[n % len(games)])))
        n += 1
    await asyncio.gather(*tasks)
    await asyncio.sleep(2)  # the last events arrive
    load_cpu, load_wall = cpu_seconds(pid) - cpu0, time.perf_counter() - w0
    stalls = {k: (v - stalls0[k]) / 1e6 / load_wall for k, v in pressure().items() if k in stalls0}
    for task in listeners:
        task.cancel()
    for d in every:
        d.close()
    gc.unfreeze()
    delays, missed = [], 0
    for game_id, version, sent in commander.sent:
        for d in devices[game_id]:
            got = [t for v, t in d.seen.items() if v >= version]
            if got:
                delays.append(min(got) - sent)
            else:
                missed += 1
    return {
        "devices": len(every), "refused": sum(not d.ok for d in every), "opened": opened,
        "idle_cpu": idle_cpu, "idle_wall": idle_wall, "load_cpu": load_cpu,
        "load_wall": load_wall, "commands": sorted(commander.times), "errors": commander.errors,
        "delays": sorted(delays), "missed": missed, "stalls": stalls, "views": views,
        "rendered": sum(d.rendered for d in every),
        "figured": sum(d.figured for d in every),
        "loadavg": os.getloadavg(),
    }  # fmt: skip


def pct(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1)))] if xs else float("nan")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure(tables: int = 1000, idle: float = 30.0, seconds: float = 60.0,
            tmpfs: bool = False, code: Path | None = None, views: bool = True,
            played: int = 0) -> dict:  # fmt: skip
    """The whole run on a fresh server: run()'s figures, plus the server's memory. `tmpfs`:
    the database on /dev/shm; `code`: the checkout of banker to serve (an older one: before);
    `played`: games that many commands under way (played_tables), not just started."""
    from banker.net.serving import raise_file_limit

    raise_file_limit(tables * 6 + 1000)
    try:
        import uvloop

        loop_factory = uvloop.new_event_loop
    except ImportError:
        loop_factory = asyncio.new_event_loop
    env = {"BANKER_MAX_GAMES": str(max(2000, tables + 10))}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    where = "/dev/shm" if tmpfs and Path("/dev/shm").is_dir() else None
    with (
        tempfile.TemporaryDirectory(dir=where) as tmp,
        serving(Path(tmp) / "t.db", env=env) as server,
    ):
        port, pid = int(server.url.rsplit(":", 1)[1]), server.proc.pid
        games = played_tables(port, tables, played) if played else make_tables(port, tables)
        loop = loop_factory()
        try:
            result = loop.run_until_complete(run(port, pid, games, idle, seconds, views))
        finally:
            loop.close()
        result["rss_mb"] = rss_mb(pid)
    result["tables"], result["tmpfs"], result["played"] = tables, where is not None, played
    return result


def rows(r: dict) -> list[tuple[str, str, str, bool | None]]:
    """(measurement, budget, figure, met) rows of a run."""
    per_device = 1000 * r["idle_cpu"] / r["idle_wall"] / max(1, r["devices"])
    cmd95, got95 = pct(r["commands"], 0.95), pct(r["delays"], 0.95)
    rendered = f", {r['rendered']:,} views rendered" if r.get("views") else ""
    if r.get("views"):  # the money first, while the render thread had no game waiting
        rendered += f" ({r.get('figured', 0):,} after the money first)"
    n = r["tables"]
    under_way = f" {r['played']:,} commands under way" if r.get("played") else ""
    return [
        (f"{n:,} tables{under_way}: devices connected by push", f"{6 * n:,}",
         f"{r['devices'] - r['refused']:,} of {r['devices']:,} in {r['opened']:.1f} s, "
         f"server {r['rss_mb']:.0f} MB resident", r["refused"] == 0),
        ("server CPU per connected idle device", "<= 0.05 ms/s",
         f"{per_device:.4f} ms per second ({100 * r['idle_cpu'] / r['idle_wall']:.1f}% of a "
         f"core for {r['devices']:,}, {r['idle_wall']:.0f} s)", per_device <= 0.05),
        (f"{n:,} tables, a command each every 10 s: command p95", "<= 20 ms",
         f"{1000 * cmd95:.1f} ms (p50 {1000 * pct(r['commands'], 0.5):.1f} ms, "
         f"{len(r['commands']):,} commands, {r['errors']} refused)", cmd95 <= 0.020),
        ("  every change rendered, on every device, p95" if r.get("views") else
         "  every change's event to every device, p95", "<= 250 ms",
         f"{1000 * got95:.0f} ms (p50 {1000 * pct(r['delays'], 0.5):.0f} ms, max "
         f"{1000 * (r['delays'] or [float('nan')])[-1]:.0f} ms; {len(r['delays']):,} deliveries"
         f"{rendered}, "
         f"{r['missed']} missed; server CPU {100 * r['load_cpu'] / r['load_wall']:.0f}% of a "
         "core)", got95 <= 0.250 and r["missed"] == 0),
        ("  server CPU per change (its command, six views rendered and sent)", "",
         f"{1000 * r['load_cpu'] / max(1, len(r['commands'])):.2f} ms", None),
        ("  the machine meanwhile", "", machine(r), None),
    ]  # fmt: skip


def machine(r: dict) -> str:
    """The load phase's machine: where the database was, load average, time some task waited
    for a CPU / for the disk."""
    stalls = r.get("stalls") or {}
    waited = ", ".join(
        f"some task waited for {'a CPU' if k == 'cpu' else 'the disk'} {100 * v:.0f}% of it"
        for k, v in stalls.items()
    )
    where = "database on tmpfs" if r.get("tmpfs") else "database on disk"
    load = ", ".join(f"{x:.1f}" for x in r.get("loadavg", ()))
    return f"{where}; load average {load}" + (f"; {waited}" if waited else "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--idle", type=float, default=30.0, help="seconds of the idle phase")
    ap.add_argument("--seconds", type=float, default=60.0, help="seconds of the load phase")
    ap.add_argument("--tmpfs", action="store_true", help="the database on /dev/shm (no disk)")
    ap.add_argument("--code", type=Path, default=None, help="the banker checkout to serve")
    ap.add_argument("--events", action="store_true",
                    help="the streams without a view: the version's event only")  # fmt: skip
    ap.add_argument(
        "--played",
        type=int,
        default=0,
        help="games this many commands under way (one played, resumed for each)",
    )
    args = ap.parse_args(argv)
    found = measure(args.tables, args.idle, args.seconds, args.tmpfs, args.code,
                    not args.events, args.played)  # fmt: skip
    print(f"{os.cpu_count()} cores shared by the server and the devices; {load_average()}")
    show(rows(found))
    return 0


def load_average() -> str:
    """The machine's load average now (1, 5, 15 minutes), as `uptime` says it."""
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def show(table: list[tuple[str, str, str, bool | None]]) -> None:
    """Print (measurement, budget, figure, met) rows, met or MISSED beside each budget."""
    width = max(len(r[0]) for r in table)
    for name, budget, figure, met in table:
        mark = "" if met is None else ("met" if met else "MISSED")
        print(f"{name:<{width}}  {budget:<14}  {mark:<6}  {figure}")


if __name__ == "__main__":
    sys.exit(main())
