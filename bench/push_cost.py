"""What push costs the server's CPU (issue 35): idle with no page open, each open idle page,
and each change of a table of six pages, rendered and sent to all six.

    python -m bench.push_cost [--seconds 30] [--changes 100] [--gap 0.1] [--played N] [--code DIR]

Starts the real server (`banker serve`) on a fresh database with one started game of four
players, and reads the server's CPU time (every thread's, /proc/<pid>/task/*/schedstat):

1. no page open, `seconds` long: the server alone (budget 0.2 ms a second);
2. the table's six pages open (the Banker's table, four players' views, the big screen, each
   stream asking for its view as a live page does), `seconds` long, nothing happening: the
   more per open page (budget 0.05 ms a second);
3. `changes` commands (`adjust`, through the JSON API on one keep-alive connection), one every
   `gap` seconds (0.1: a table's pace is slower still), each waited for until all six pages
   have its view: the server's CPU per change, less the idle pages' share (budget 5 ms): the
   command, six views rendered, sent. A processor left idle even a tenth of a second loses
   what its caches held (this VM: a command costs 2.4–2.8 ms of CPU after 0.1 s idle, 1.1–1.3
   ms back to back): `--gap 0.002` reads the same work with the caches warm. Then the pages
   close and the same changes are sent again: what the command alone costs, which a change
   costs with or without pages (printed as the first part of 3's figure);
4. what each audience's view costs to render alone (the fragment its poll gets, asked 50 times
   over HTTP): where a change's CPU goes.

`--played N`: the game is first played N commands by bench.bot (a long game: its pages show
more deeds, more events, a longer chart), the changes measured after them.

The machine's load is printed beside the figures: on a shared machine every figure is high.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.tables import (  # noqa: E402
    Device,
    cpu_seconds,
    devices_of,
    load_average,
    make_tables,
    play,
    show,
)


async def _changes(
    port: int, game: dict, devices: list[Device], changes: int, gap: float = 0.1
) -> list[float]:
    """Send the changes, one every `gap` seconds; the seconds from each to its view on the last
    of the pages (to its answer with none)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = json.dumps({"type": "adjust", "player": "p1", "amount": 1, "reason": "bench"})
    times = []
    for _ in range(changes):
        await asyncio.sleep(gap)
        writer.write((f"POST /api/v1/games/{game['game_id']}/commands HTTP/1.1\r\n"
                      f"Host: bench\r\nAuthorization: Bearer {game['banker_token']}\r\n"
                      f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                      f"{body}").encode())  # fmt: skip
        t0 = time.perf_counter()
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        version = json.loads(await reader.readexactly(length))["version"]
        while not all(version in d.seen for d in devices):
            await asyncio.sleep(0.001)
        times.append(max((d.seen[version] for d in devices), default=time.perf_counter()) - t0)
    writer.close()
    return times


async def _run(
    port: int, pid: int, game: dict, seconds: float, changes: int, gap: float = 0.1
) -> dict:
    out = {}
    c0, w0 = cpu_seconds(pid), time.perf_counter()
    await asyncio.sleep(seconds)
    out["alone"] = (cpu_seconds(pid) - c0) / (time.perf_counter() - w0)
    devices = devices_of(game)
    await asyncio.gather(*(d.open(port) for d in devices))
    listeners = [asyncio.ensure_future(d.listen()) for d in devices]
    await asyncio.sleep(1)
    c0, w0 = cpu_seconds(pid), time.perf_counter()
    await asyncio.sleep(seconds)
    out["pages"] = (cpu_seconds(pid) - c0) / (time.perf_counter() - w0)
    c0, w0 = cpu_seconds(pid), time.perf_counter()
    out["delays"] = await _changes(port, game, devices, changes, gap)
    spent, wall = cpu_seconds(pid) - c0, time.perf_counter() - w0
    out["per_change"] = (spent - out["pages"] * wall) / changes
    out["rendered"] = sum(d.rendered for d in devices)
    for task in listeners:
        task.cancel()
    for d in devices:
        d.close()
    await asyncio.sleep(1)  # the pages gone
    c0, w0 = cpu_seconds(pid), time.perf_counter()
    await _changes(port, game, [], changes, gap)
    spent, wall = cpu_seconds(pid) - c0, time.perf_counter() - w0
    out["command"] = (spent - out["alone"] * wall) / changes
    return out


def render_costs(port: int, pid: int, game: dict, times: int = 50) -> dict[str, float]:
    """The server's CPU for one rendering of each audience's view (its poll's fragment)."""
    gid = game["game_id"]
    display = game["display_url"].rsplit("/", 1)[1]
    asks = {
        "the Banker's table": (f"/games/{gid}/poll?v=0&screen=table&f=-",
                               {"Cookie": f"banker_{gid}={game['banker_token']}"}),
        "a player's view": (f"/join/{game['players'][0]['token']}/version?v=0", {}),
        "the big screen": (f"/display/{display}/version?v=0", {}),
    }  # fmt: skip
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    out = {}
    for name, (path, headers) in asks.items():
        headers = {**headers, "HX-Request": "true"}
        for _ in range(5):
            conn.request("GET", path, headers=headers)
            conn.getresponse().read()
        c0 = cpu_seconds(pid)
        for _ in range(times):
            conn.request("GET", path, headers=headers)
            conn.getresponse().read()
        out[name] = (cpu_seconds(pid) - c0) / times
    conn.close()
    return out


def measure(seconds: float = 30.0, changes: int = 100, code: Path | None = None,
            played: int = 0, gap: float = 0.1) -> dict:  # fmt: skip
    from bench.run import server

    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "c.db", code) as srv:
        _, port, pid = srv
        (game,) = make_tables(port, 1)
        play(port, game, played)
        time.sleep(2)  # started and settled
        loop = asyncio.new_event_loop()
        try:
            found = loop.run_until_complete(_run(port, pid, game, seconds, changes, gap))
        finally:
            loop.close()
        found["renders"] = render_costs(port, pid, game)
    found["changes"], found["played"], found["gap"] = changes, played, gap
    return found


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1)))] if xs else float("nan")


def rows(r: dict) -> list[tuple[str, str, str, bool | None]]:
    alone, more = 1000 * r["alone"], 1000 * (r["pages"] - r["alone"]) / 6
    per, command = 1000 * r["per_change"], 1000 * r["command"]
    after = f", after {r['played']:,} commands" if r.get("played") else ""
    out = [
        ("server CPU, no page open", "<= 0.2 ms/s", f"{alone:.3f} ms per second", alone <= 0.2),
        ("  each open idle page more", "<= 0.05 ms/s",
         f"{max(more, 0):.4f} ms per second{' (below the noise)' if more <= 0 else ''} (six "
         f"pages: {1000 * r['pages']:.3f} ms/s in all)",
         more <= 0.05),
        ("server CPU per change, a table of six pages", "<= 5 ms",
         f"{per:.2f} ms (its command, six views rendered and sent; {r['changes']} changes, "
         f"{r['rendered']} views delivered{after}; one every {r['gap']:g} s)", per <= 5),
        ("  of which its command alone (the same changes, no page open)", "",
         f"{command:.2f} ms", None),
        ("  of which the six pages (their views rendered and sent)", "",
         f"{per - command:.2f} ms", None),
        ("  the change on all six pages' streams, p50 / p95", "",
         f"{1000 * pct(r['delays'], 0.5):.1f} / {1000 * pct(r['delays'], 0.95):.1f} ms", None),
    ]  # fmt: skip
    for name, cost in r["renders"].items():
        out.append((f"  one rendering of {name}", "", f"{1000 * cost:.2f} ms of CPU", None))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="of each idle phase")
    ap.add_argument("--changes", type=int, default=100)
    ap.add_argument("--gap", type=float, default=0.1, help="seconds between two changes")
    ap.add_argument("--played", type=int, default=0, help="commands played before (a long game)")
    ap.add_argument("--code", type=Path, default=None, help="the banker checkout to serve")
    args = ap.parse_args(argv)
    found = measure(args.seconds, args.changes, args.code, args.played, args.gap)
    print(load_average())
    show(rows(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
