"""Which server runs banker (issue 25): the same app under each candidate installed here,
measured the same way; docs/scaling.md gives the figures and the choice.

    python -m bench.servers [--commands 600] [--idle 2000]

For each candidate, a fresh process serves the whole app (`create_app`) on loopback:
- waitress 3 (banker's server before push), 8 threads;
- uvicorn with httptools, Flask through a2wsgi's WSGIMiddleware (8 workers);
- `banker serve` itself: uvicorn with httptools, banker.net.site's bridge and push streams
  (asyncio's own loop, then uvloop's when it is installed).
Measured: a command's round trip through the API (p50 and p95 of `commands`, one keep-alive
connection, the bot's game as bench.run plays it) and the server's CPU per command; then the
server's resident memory with `idle` more connections open and silent (waitress refuses past
its 1,000), per thousand. Nothing fails; the machine is shared: wall times are "under load".
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.idle_polling import cpu_seconds  # noqa: E402
from bench.run import Client, Table, pct  # noqa: E402
from bench.tables import rss_mb  # noqa: E402
from tests.serving import free_port, process_env  # noqa: E402

CANDIDATES = ["waitress", "uvicorn+a2wsgi", "banker (asyncio)", "banker (uvloop)"]


def serve(name: str, port: int, db: str) -> None:
    """Serve the app under candidate `name` until killed (in its own process)."""
    from banker.web import create_app

    app = create_app({"DATABASE": db})
    if name == "waitress":
        from waitress import serve as waitress_serve

        waitress_serve(app, host="127.0.0.1", port=port, threads=8, connection_limit=1000,
                       channel_timeout=300)  # fmt: skip
    elif name == "uvicorn+a2wsgi":
        import uvicorn
        from a2wsgi import WSGIMiddleware

        uvicorn.run(WSGIMiddleware(app, workers=8), host="127.0.0.1", port=port,
                    http="httptools", loop="asyncio", lifespan="off", log_level="warning",
                    timeout_keep_alive=300)  # fmt: skip
    else:
        import os

        from banker.net.serving import create_server

        os.environ["BANKER_IDLE_SECONDS"] = "300"
        server = create_server(app, host="127.0.0.1", port=port, threads=8)
        server.uvicorn.config.loop = "uvloop" if "uvloop" in name else "asyncio"
        server.run()


def start(name: str, db: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.servers", "--serve", name, "--port", str(port),
         "--db", str(db)],
        cwd=REPO, env=process_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"{name} did not start")


def measure(name: str, commands: int, idle: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start(name, Path(tmp) / "s.db")
        try:
            client = Client("127.0.0.1", port)
            table = Table(client)
            table.play_until_events(100)
            table.times.clear()
            cpu = cpu_seconds(proc.pid)
            for _ in range(commands):
                table.step()
            cpu = (cpu_seconds(proc.pid) - cpu) / commands
            times = sorted(x for xs in table.times.values() for x in xs)
            before = rss_mb(proc.pid)
            held = []
            for _ in range(idle):
                try:
                    held.append(socket.create_connection(("127.0.0.1", port), timeout=2))
                except OSError:
                    break
            time.sleep(1.0)
            alive = sum(_open(s) for s in held)
            after = rss_mb(proc.pid)
            for s in held:
                s.close()
        finally:
            proc.kill()
            proc.wait()
    return {"p50": pct(times, 0.5), "p95": pct(times, 0.95), "cpu": cpu,
            "held": alive, "per_1000": (after - before) / max(1, alive) * 1000,
            "rss": before}  # fmt: skip


def _open(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", type=int, default=600)
    ap.add_argument("--idle", type=int, default=2000)
    ap.add_argument("--serve", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--db", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        serve(args.serve, args.port, args.db)
        return 0
    from banker.net.serving import raise_file_limit

    raise_file_limit(args.idle + 500)
    print(f"{'server':<18}  {'command p50':>11}  {'p95':>8}  {'CPU/command':>11}  "
          f"{'idle connections held':>21}  {'MB per 1,000':>12}")  # fmt: skip
    for name in CANDIDATES:
        try:
            r = measure(name, args.commands, args.idle)
        except Exception as e:  # noqa: BLE001 - a candidate that fails is reported, not fatal
            print(f"{name:<18}  failed: {e!r}", flush=True)
            continue
        print(f"{name:<18}  {r['p50'] * 1000:9.2f} ms  {r['p95'] * 1000:5.2f} ms  "
              f"{r['cpu'] * 1000:8.2f} ms  {r['held']:>15,} of {args.idle:,}  "
              f"{r['per_1000']:9.1f} MB", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
