"""What 50 idle phones cost the server, and how fast a Banker's command reaches them (issue 5).

    python bench/idle_polling.py [--phones 50] [--seconds 5]

Starts the real server (`banker serve`) on loopback with a fresh database and 10 games of 5
players. Each simulated phone is a thread with its own keep-alive connection (http.client)
polling `GET /join/<token>/version?v=N` as the player's page does:

1. At the page's pace (every 700 ms), while the Banker records one command a second on one of
   the games: the server's CPU (utime + stime from /proc/<pid>/stat) per idle phone, and the
   delay from a command to each of that game's phones holding the new page.
2. Back to back, as fast as the phones can ask: the polls per second the server sustains.

Prints figures; nothing here is a test and nothing fails on a slow machine. The phones run on
the same 2 cores as the server, so phase 2 measures the pair, a lower bound for the server.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.run import server  # noqa: E402  (the same real server as the other benchmarks)

POLL_EVERY = 0.7  # seconds, as templates/player/_view.html
PLAYERS_PER_GAME = 5
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime and stime (fields 14 and 15)


def call(conn: http.client.HTTPConnection, method: str, path: str, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    r = conn.getresponse()
    return r.status, r.read()


class Phone(threading.Thread):
    """One player's page: polls its version, keeps the fresh fragment's version."""

    def __init__(self, port: int, token: str, game: int, version: int, stop, pace: float | None):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.token, self.game, self.version = token, game, version
        self.stop, self.pace = stop, pace
        self.polls = self.changed = self.errors = 0
        self.latencies: list[float] = []
        self.seen: dict[int, float] = {}  # version -> when this phone first held it

    def run(self):
        next_at = time.monotonic()
        while not self.stop.is_set():
            if self.pace:
                next_at += self.pace
            start = time.monotonic()
            try:
                status, body = call(
                    self.conn, "GET", f"/join/{self.token}/version?v={self.version}"
                )
            except OSError:
                self.errors += 1
                self.conn.close()
                continue
            now = time.monotonic()
            self.latencies.append(now - start)
            self.polls += 1
            if status == 200:
                self.changed += 1
                self.version = int(re.search(rb'data-version="(\d+)"', body).group(1))
                self.seen[self.version] = now
            elif status != 204:
                self.errors += 1
            if self.pace:
                self.stop.wait(max(0.0, next_at - time.monotonic()))
        self.conn.close()


def make_games(port: int, phones: int) -> list[dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    games = []
    for g in range((phones + PLAYERS_PER_GAME - 1) // PLAYERS_PER_GAME):
        names = [f"P{g}-{i}" for i in range(PLAYERS_PER_GAME)]
        status, body = call(conn, "POST", "/api/v1/games", {"players": names})
        created = json.loads(body)
        call(conn, "POST", f"/api/v1/games/{created['game_id']}/commands",
             {"type": "start", "first": "p1"}, created["banker_token"])  # fmt: skip
        games.append(created)
    conn.close()
    return games


def start_phones(port, games, phones, stop, pace) -> list[Phone]:
    tokens = [(i, p["token"]) for i, g in enumerate(games) for p in g["players"]][:phones]
    threads = [Phone(port, token, game, 1, stop, pace) for game, token in tokens]
    for t in threads:
        # A first poll brings each phone to the current version (and warms the server's cache).
        status, body = call(t.conn, "GET", f"/join/{t.token}/version?v=-1")
        t.version = int(re.search(rb'data-version="(\d+)"', body).group(1))
    for t in threads:
        if pace:
            time.sleep(pace / len(threads))  # spread the phones over the polling period
        t.start()
    return threads


def idle_phase(port, pid, games, phones, seconds) -> dict:
    stop = threading.Event()
    threads = start_phones(port, games, phones, stop, POLL_EVERY)
    banker = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    commands: list[tuple[int, int, float]] = []  # (game, version, when accepted)
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    n = 0
    while time.monotonic() - t0 < seconds:
        time.sleep(1.0)
        g = n % len(games)
        game = games[g]
        status, body = call(banker, "POST", f"/api/v1/games/{game['game_id']}/commands",
                            {"type": "adjust", "player": "p1", "amount": 1, "reason": "bench"},
                            game["banker_token"])  # fmt: skip
        commands.append((g, json.loads(body)["version"], time.monotonic()))
        n += 1
    time.sleep(POLL_EVERY * 1.5)  # the last command's phones catch up
    cpu1, t1 = cpu_seconds(pid), time.monotonic()
    stop.set()
    for t in threads:
        t.join()
    banker.close()
    delays, missed = [], 0
    for g, version, at in commands:
        for t in threads:
            if t.game == g:
                seen = [when for v, when in t.seen.items() if v >= version]
                if seen:
                    delays.append(min(seen) - at)
                else:
                    missed += 1
    polls = sum(t.polls for t in threads)
    latencies = sorted(x for t in threads for x in t.latencies)
    return {
        "seconds": t1 - t0,
        "cpu": cpu1 - cpu0,
        "polls": polls,
        "changed": sum(t.changed for t in threads),
        "errors": sum(t.errors for t in threads),
        "latency_median": statistics.median(latencies),
        "latency_p95": latencies[int(0.95 * (len(latencies) - 1))],
        "delays": sorted(delays),
        "missed": missed,
        "commands": len(commands),
    }


def saturation_phase(port, pid, games, phones, seconds) -> dict:
    stop = threading.Event()
    threads = start_phones(port, games, phones, stop, None)
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    polls0 = sum(t.polls for t in threads)
    time.sleep(seconds)
    cpu1, t1 = cpu_seconds(pid), time.monotonic()
    polls1 = sum(t.polls for t in threads)
    stop.set()
    for t in threads:
        t.join()
    return {
        "seconds": t1 - t0,
        "cpu": cpu1 - cpu0,
        "polls": polls1 - polls0,
        "errors": sum(t.errors for t in threads),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--phones", type=int, default=50, help="simulated phones (default: 50)")
    p.add_argument("--seconds", type=float, default=5.0, help="length of each phase (default: 5)")
    args = p.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "bench.db") as (_, port, pid):
        games = make_games(port, args.phones)
        idle = idle_phase(port, pid, games, args.phones, args.seconds)
        busy = saturation_phase(port, pid, games, args.phones, args.seconds * 0.8)

    phones = args.phones
    cpu_share = idle["cpu"] / idle["seconds"]
    delays = idle["delays"]
    rows = [
        ("phones polling every 700 ms", f"{phones} in {len(games)} games"),
        ("polls answered (idle phase)",
         f"{idle['polls']} in {idle['seconds']:.1f} s = {idle['polls'] / idle['seconds']:.0f}/s, "
         f"{idle['polls'] - idle['changed']} of them 204, {idle['errors']} errors"),
        ("server CPU, all idle phones", f"{100 * cpu_share:.1f}% of one core"),
        ("server CPU per idle phone", f"{1000 * cpu_share / phones:.2f} ms per second "
                                      f"({100 * cpu_share / phones:.3f}% of a core)"),
        ("server CPU per poll", f"{1e6 * idle['cpu'] / max(idle['polls'], 1):.0f} µs"),
        ("poll round trip", f"median {1000 * idle['latency_median']:.1f} ms, "
                            f"p95 {1000 * idle['latency_p95']:.1f} ms"),
        ("command to phone's new page",
         f"median {1000 * statistics.median(delays):.0f} ms, max {1000 * max(delays):.0f} ms "
         f"({len(delays)} phone updates after {idle['commands']} commands, "
         f"{idle['missed']} missed)" if delays else "no command measured"),
        ("polls sustained back to back",
         f"{busy['polls'] / busy['seconds']:.0f}/s with {phones} keep-alive connections, "
         f"server CPU {100 * busy['cpu'] / busy['seconds']:.0f}% of one core, "
         f"{busy['errors']} errors"),
        ("idle phones that rate would carry",
         f"{busy['polls'] / busy['seconds'] * POLL_EVERY:.0f}"),
    ]  # fmt: skip
    width = max(len(name) for name, _ in rows)
    print(f"banker idle polling: {phones} phones, {args.seconds:.0f} s per phase, "
          f"{os.cpu_count()} cores shared by the server and the phones")  # fmt: skip
    for name, figure in rows:
        print(f"{name:<{width}}  {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
