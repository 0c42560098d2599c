"""Where one command's time goes: a profile of the bot's commands through banker (issue 17).

    python -m bench.profile_command [--commands 1000] [--server] [--top 30] [--code DIR]

The bot plays a 4-player game of `--commands` commands (after 100 events) on a database in
/dev/shm (the disk aside), each `POST /api/v1/games/<id>/commands` with the Banker's token:
- by default through Flask's test client, in this process;
- with `--server`, through the server over loopback as `banker serve` runs it (one worker
  thread, this checkout's `banker.net.serving.create_server`), the client in this process on its own
  keep-alive connection; the server's two threads (uvicorn's event loop and the worker running
  Flask) are profiled, the client is not.

Prints the CPU per command unprofiled first (the same commands, a fresh game), then the
profiled run: cumulative microseconds per command for the parts named in GROUPS, then the top
functions by their own time. In process the clock is cProfile's own (one thread, which waits
for nothing but SQLite); with `--server` it is each thread's own CPU time (time.thread_time:
waiting for the client or another thread counts nothing), which costs more to read. cProfile
roughly doubles every figure (with --server, triples): compare parts, not totals.
Nothing here is a test.
"""

from __future__ import annotations

import argparse
import cProfile
import http.client
import json
import pstats
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# (label, file fragment, function name): cumulative time of the first match per command.
GROUPS = [
    ("the event loop: a request read and parsed", "banker/net/connection.py", "data_received"),
    ("the event loop: the answer written", "httptools_impl.py", "send"),
    ("the worker's part (WSGI, whole answer)", "banker/net/site.py", "_call"),
    ("  WSGI stack (every middleware, Flask, the view)", "web/common/hygiene.py", "__call__"),
    ("    Flask: full dispatch", "flask/app.py", "full_dispatch_request"),
    ("      before_request hooks (limits, guards, …)", "flask/app.py", "preprocess_request"),
    ("      the view (api.post_command)", "banker/web/api/routes.py", "post_command"),
    ("      after_request hooks", "flask/app.py", "process_response"),
    ("    the command before Flask (fastpoll)", "banker/web/common/fastpoll.py", "_command"),
    ("      Store.execute", "banker/store/service.py", "execute"),
    ("        rules.apply (the core)", "banker/rules/game.py", "apply"),
    ("          clone", "banker/rules/state.py", "clone"),
    ("        Store._record (answer, rows, commit)", "banker/store/service.py", "_record"),
    (
        "          the transaction's commit",
        "~",
        "<method 'commit' of 'sqlite3.Connection' objects>",
    ),
    ("          sqlite3 execute", "~", "<method 'execute' of 'sqlite3.Connection' objects>"),
    (
        "          sqlite3 executemany",
        "~",
        "<method 'executemany' of 'sqlite3.Connection' objects>",
    ),
    ("      JSON encoding (all calls)", "json/encoder.py", "encode"),
    ("      json.loads (all calls)", "json/__init__.py", "loads"),
    ("    gzip", "gzip.py", "compress"),
]


def bot_commands(n: int, warmup_events: int = 100, seed: int = 1):
    """The bot's commands of a game played in the core alone: (first `warmup` commands, the
    next `n`). Replaying them in a fresh game gives the same states (the core is pure)."""
    from banker import rules
    from bench.bot import Bot

    bot, s = Bot(seed), rules.new_game("profile", "g0009", ["Ann", "Bob", "Cat", "Dan"], None)
    warm, measured, events = [], [], 0
    while len(measured) < n:
        command = bot.next_command(rules.public_state(s))
        s, evs = rules.apply(s, command)
        events += len(evs)
        (warm if events <= warmup_events and not measured else measured).append(command)
    return warm, measured


class InProcess:
    """The Flask test client over one app."""

    def __init__(self, db: Path):
        from banker.web import create_app

        self.app = create_app({"DATABASE": str(db)})
        self.client = self.app.test_client()

    def create(self) -> tuple[str, str]:
        r = self.client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cat", "Dan"]})
        g = r.get_json()
        return g["game_id"], g["banker_token"]

    def post(self, game_id: str, token: str, body: bytes) -> int:
        r = self.client.post(
            f"/api/v1/games/{game_id}/commands",
            data=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        return r.status_code

    def close(self) -> None:
        self.app.extensions["banker.store"].close()


class OverLoopback:
    """The server (this checkout's) in this process, one worker thread, both threads
    profiled once `profiling` is set; a keep-alive http.client connection to it."""

    def __init__(self, db: Path):
        from banker.net.serving import create_server
        from banker.web import create_app

        self.profiles: list[cProfile.Profile] = []
        self.profiling = False
        app = create_app({"DATABASE": str(db)})
        self.store = app.extensions["banker.store"]
        self.server = create_server(app, host="127.0.0.1", port=0, threads=1)
        self.server.site.app = self._profiled(app)
        self._loop_profile = cProfile.Profile(time.thread_time)
        self._loop_on = False
        self.server.uvicorn.on_tick = self._wrap_tick(self.server.uvicorn.on_tick)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.conn = http.client.HTTPConnection("127.0.0.1", self.server.effective_port)

    def _profiled(self, app):
        worker = threading.local()

        def wsgi(environ, start_response):
            if self.profiling and not getattr(worker, "on", False):
                worker.profile, worker.on = cProfile.Profile(time.thread_time), True
                self.profiles.append(worker.profile)
                worker.profile.enable()
            elif not self.profiling and getattr(worker, "on", False):
                worker.profile.disable()
                worker.on = False
            return app(environ, start_response)

        return wsgi

    def _wrap_tick(self, on_tick):
        # Called in the event loop's thread every 0.1 s: switch its profile there.
        async def wrapped(counter):
            if self.profiling and not self._loop_on:
                self._loop_profile.enable()
                self._loop_on = True
            elif not self.profiling and self._loop_on:
                self._loop_profile.disable()
                self._loop_on = False
                self.profiles.append(self._loop_profile)
            return await on_tick(counter)

        return wrapped

    def start(self) -> None:
        self.profiling = True
        time.sleep(0.3)  # the loop thread's profile starts at its next tick

    def stop(self) -> None:
        self.profiling = False
        self.post("x", "x", b"{}")  # the worker's profile stops at its next request
        time.sleep(0.3)  # and the loop thread's at its next tick

    def create(self) -> tuple[str, str]:
        body = json.dumps({"players": ["Ann", "Bob", "Cat", "Dan"]})
        self.conn.request("POST", "/api/v1/games", body, {"Content-Type": "application/json"})
        g = json.loads(self.conn.getresponse().read())
        return g["game_id"], g["banker_token"]

    def post(self, game_id: str, token: str, body: bytes) -> int:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.conn.request("POST", f"/api/v1/games/{game_id}/commands", body, headers)
        r = self.conn.getresponse()
        r.read()
        return r.status

    def close(self) -> None:
        self.conn.close()
        self.server.close()
        self.thread.join(10)
        self.store.close()


def play(target, warm: list, measured: list, start=None, stop=None) -> tuple[float, float]:
    """A fresh game: the warm-up commands, then the measured ones between `start()` and
    `stop()`; (CPU s, wall s) of those."""
    game_id, token = target.create()
    for c in warm:
        assert target.post(game_id, token, json.dumps(c).encode()) == 200
    bodies = [json.dumps(c).encode() for c in measured]
    if start:
        start()
    cpu, wall = time.process_time(), time.perf_counter()
    for body in bodies:
        status = target.post(game_id, token, body)
        assert status == 200, status
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if stop:
        stop()
    return cpu, wall


def grouped(stats: pstats.Stats, n: int) -> list[tuple[str, float]]:
    out = []
    for label, file_part, fn in GROUPS:
        best = 0.0
        for (file, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():
            if name == fn and file_part in file:
                best = max(best, ct) if file_part != "~" else best + ct
        out.append((label, best / n * 1e6))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", type=int, default=1000)
    ap.add_argument("--server", action="store_true", help="through waitress over loopback")
    ap.add_argument("--top", type=int, default=25, help="functions listed by their own time")
    ap.add_argument("--code", type=Path, default=REPO, help="the banker checkout to profile")
    ap.add_argument("--cpu-only", action="store_true", help="the unprofiled figure alone")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(args.code.resolve()))
    warm, measured = bot_commands(args.commands)
    kind = OverLoopback if args.server else InProcess
    base = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=base) as tmp:
        target = kind(Path(tmp) / "p.db")
        try:
            cpu, wall = play(target, warm, measured)
            n = len(measured)
            who = "server and client" if args.server else "in process"
            print(f"unprofiled: {cpu / n * 1e6:.0f} us CPU ({who}), {wall / n * 1e6:.0f} us wall "
                  f"per command, {n} commands")  # fmt: skip
            if args.cpu_only:
                return 0
            if args.server:
                play(target, warm, measured, start=target.start, stop=target.stop)
                stats = pstats.Stats(*target.profiles)
            else:
                profile = cProfile.Profile()
                play(target, warm, measured, start=profile.enable, stop=profile.disable)
                stats = pstats.Stats(profile)
        finally:
            target.close()
    print(f"\nprofiled, cumulative us per command ({n} commands):")
    for label, us in grouped(stats, n):
        print(f"  {label:<52} {us:8.1f}")
    print(f"\ntop {args.top} functions by own time (us per command):")
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[: args.top]
    for (file, line, name), (_cc, nc, tt, ct, _callers) in rows:
        where = f"{Path(file).parent.name}/{Path(file).name}:{line}" if file != "~" else ""
        print(f"  {tt / n * 1e6:8.1f} own {ct / n * 1e6:8.1f} cum {nc / n:6.1f}x  {name} {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
