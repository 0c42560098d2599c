"""What a patient stranger costs a real `banker serve` at its edge (issue 33): each attack
bounded in count and time, from loopback (the stranger plays from 127.0.0.2), the Banker's own
command timed meanwhile (bench.hostile_serve.BankerWatch: every 0.2 s, on a fresh connection).

    python -m bench.hostile_edge                    # this checkout
    python -m bench.hostile_edge --checkout DIR     # the server of another checkout (before)

Also the last rows of `python -m bench.hostile`. tests/server/test_edge_attacks.py runs the
same attacks, smaller, and asserts what must hold.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import stat
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.hostile_serve import AS_STRANGER, STRANGER, BankerWatch, _game  # noqa: E402
from bench.tables import rss_mb  # noqa: E402
from tests import serving as served  # noqa: E402
from tests.serving import NGINX, NGINX_PROXY, call, nginx, request, serving  # noqa: E402

LONG_GAME = Path(tempfile.gettempdir()) / "banker-bench-long-game.json"


# -- a load of connections, on one event loop ---------------------------------------------------


async def _one(
    host, port, data: bytes, until: float, counts: dict, source: str | None, read: bool = True
) -> None:
    """One connection sending `data` again and again until `until`, each answer read whole
    (reopened when the server closes it); counts answers by status."""
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, local_addr=(source, 0) if source else None), 5
            )
        except (OSError, TimeoutError):
            counts["refused"] = counts.get("refused", 0) + 1
            await asyncio.sleep(0.05)
            continue
        try:
            while loop.time() < until:
                writer.write(data)
                if not read:
                    await asyncio.sleep(until - loop.time())
                    break
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), until - loop.time())
                status = head[9:12].decode()
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await asyncio.wait_for(reader.readexactly(length), max(0.01, until - loop.time()))
                counts[status] = counts.get(status, 0) + 1
                if b"connection: close" in head.lower():
                    break
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()


def load(
    url: str,
    data: bytes,
    connections: int,
    seconds: float,
    source: str | None = STRANGER,
    read: bool = True,
) -> dict:
    """`connections` connections sending `data` for `seconds`: answers by status."""
    host, port = url.split("//")[1].split(":")
    counts: dict = {}

    async def run():
        until = asyncio.get_running_loop().time() + seconds
        await asyncio.gather(
            *(_one(host, int(port), data, until, counts, source, read) for _ in range(connections))
        )

    # In a thread of its own: the caller's thread may already run an event loop (Playwright's,
    # in a whole test run after the browser tests), where asyncio.run() is refused.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(lambda: asyncio.run(run())).result()
    return counts


def get(path: str, headers: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: bench\r\n{headers}\r\n".encode()


def kernel_tcp_mb() -> float:
    """The kernel's memory for TCP sockets, all of them (/proc/net/sockstat, pages of 4 KB)."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1]) * 4096 / 2**20
    return float("nan")


# -- the long game -------------------------------------------------------------------------------


def long_game_bytes() -> bytes:
    """A game of 12,000 commands, as a snapshot file (made once, kept in the temp folder)."""
    if not LONG_GAME.exists():
        from bench.hostile import compact, worst_snapshot

        LONG_GAME.write_bytes(compact(worst_snapshot()))
    return LONG_GAME.read_bytes()


def import_long_game(url: str) -> dict:
    """The long game imported by the stranger: its answer (tokens). Served from another
    checkout (before), as the snapshot format it reads (0.1.0's: format_version 1)."""
    data = long_game_bytes()
    if served.REPO != REPO:
        doc = json.loads(data)
        doc.pop("banker_version", None)
        data = json.dumps({**doc, "format_version": 1}).encode()
    reply = request(f"{url}/api/v1/games/import", "POST", raw=data, timeout=120, source=STRANGER)
    assert reply.status_code == 201, reply.data[:300]
    return reply.get_json()


# -- the attacks ---------------------------------------------------------------------------------


def slow_bodies(count: int = 8, seconds: float = 10.0) -> dict:
    """`count` POSTs saying Content-Length 1,000,000, sending 12 bytes, then nothing."""
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "s.db", env=AS_STRANGER) as s:
        port = int(s.url.rsplit(":", 1)[1])
        game = _game(s.url)
        socks = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), source_address=(STRANGER, 0))
            sock.sendall(
                b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                b'application/json\r\nContent-Length: 1000000\r\n\r\n{"players": ['
            )
            socks.append(sock)
        watch = BankerWatch(s.url, game)
        watch.start()
        homes = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            t0 = time.perf_counter()
            try:
                ok = request(f"{s.url}/", timeout=30).status_code == 200
            except OSError:
                ok = False
            homes.append((time.perf_counter() - t0) * 1000 if ok else float("inf"))
            time.sleep(0.5)
        watch.stop.set()
        watch.join()
        for sock in socks:
            sock.close()
        watch.check(s.url)
    return {"watch": watch, "home_max_ms": max(homes)}


def costly_answers(kind: str, connections: int = 16, seconds: float = 20.0,
                   back_within_mb: float | None = None) -> dict:  # fmt: skip
    """The stranger imports the long game, then `connections` connections ask for its
    snapshot.json (kind "snapshot", the Banker's token) or its API events (kind "events", a
    player's token) for `seconds`; the server's memory before, at the end and 10 s later
    (`back_within_mb`: or as soon as it is back within that of before, if sooner: a test waits
    no longer than it must)."""
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "c.db", env=AS_STRANGER) as s:
        game = _game(s.url)
        long = import_long_game(s.url)
        time.sleep(1)
        before = rss_mb(s.proc.pid)
        cookie = f"Cookie: banker_{long['game_id']}={long['banker_token']}\r\n"
        if kind == "history":
            ask = get(f"/games/{long['game_id']}/history", cookie + "Accept-Encoding: gzip\r\n")
        elif kind == "qr":
            ask = get(
                f"/games/{long['game_id']}/codes/p1.svg", cookie + "Accept-Encoding: gzip\r\n"
            )
        elif kind == "snapshot":
            ask = get(
                f"/games/{long['game_id']}/snapshot.json?token={long['banker_token']}",
                "Accept-Encoding: gzip\r\n",
            )
        else:
            token = long["players"][0]["token"]
            ask = get(
                f"/api/v1/games/{long['game_id']}/events",
                f"Authorization: Bearer {token}\r\nAccept-Encoding: gzip\r\n",
            )
        watch = BankerWatch(s.url, game)
        watch.start()
        counts = load(s.url, ask, connections, seconds)
        watch.stop.set()
        watch.join()
        watch.check(s.url)
        end = later = rss_mb(s.proc.pid)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if back_within_mb is not None and later - before < back_within_mb:
                break
            time.sleep(0.25)
            later = rss_mb(s.proc.pid)
    return {"watch": watch, "answers": counts, "rss": (before, end, later)}


def unread_answers(connections: int = 64, hold: float = 45.0, env: dict | None = None) -> dict:
    """`connections` connections ask for the long game's snapshot without gzip and never read:
    the server's memory and the kernel's TCP memory before, after 5 s, and after `hold`."""
    env = {**AS_STRANGER, **(env or {})}
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "u.db", env=env) as s:
        port = int(s.url.rsplit(":", 1)[1])
        long = import_long_game(s.url)
        time.sleep(1)
        before = (rss_mb(s.proc.pid), kernel_tcp_mb())
        ask = get(f"/games/{long['game_id']}/snapshot.json?token={long['banker_token']}")
        socks = []
        for _ in range(connections):
            sock = socket.create_connection(("127.0.0.1", port), source_address=(STRANGER, 0))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(ask)
            socks.append(sock)
        time.sleep(5)
        soon = (rss_mb(s.proc.pid), kernel_tcp_mb())
        peak = soon
        deadline = time.monotonic() + hold - 5
        while time.monotonic() < deadline:
            time.sleep(1)
            now = (rss_mb(s.proc.pid), kernel_tcp_mb())
            peak = (max(peak[0], now[0]), max(peak[1], now[1]))
        late = (rss_mb(s.proc.pid), kernel_tcp_mb())
        cut = sum(_closed(sock) for sock in socks)
        for sock in socks:
            sock.close()
    return {
        "before": before,
        "soon": soon,
        "peak": peak,
        "late": late,
        "cut": cut,
        "connections": connections,
    }


def _closed(sock: socket.socket) -> bool:
    """Whether the server dropped this connection (reading what it had sent, to its end)."""
    sock.settimeout(0.5)
    try:
        while sock.recv(1 << 20):
            pass
        return True
    except TimeoutError:
        return False
    except OSError:
        return True


def home_flood(connections: int = 256, seconds: float = 10.0, through_nginx: bool = False) -> dict:
    """`connections` connections asking for the home page for `seconds`, direct or through the
    nginx of docs/hosting.md; the Banker's command timed meanwhile (from this machine)."""
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "h.db", env=AS_STRANGER) as s:
        game = _game(s.url)
        url = s.url
        proxy = None
        if through_nginx:
            site = (
                "server { listen 127.0.0.1:{port};\n"
                f"    location / {{ proxy_pass {s.url};{NGINX_PROXY} }}\n}}"
            )
            proxy = nginx(Path(tmp) / "nginx", site)
            url = proxy.__enter__().url
        try:
            watch = BankerWatch(s.url, game)
            watch.start()
            counts = load(url, get("/"), connections, seconds)
            watch.stop.set()
            watch.join()
            watch.check(s.url)
        finally:
            if proxy is not None:
                proxy.__exit__(None, None, None)
    return {"watch": watch, "answers": counts}


def bad_hosts(connections: int = 32, seconds: float = 10.0) -> dict:
    """`connections` connections sending a Host with a 64-character label (half) or an empty
    label (half) for `seconds`: answers by status, the log's growth, whether it has a
    traceback, and one answer's headers."""
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "b.db", env=AS_STRANGER) as s:
        size = s.output_file.stat().st_size
        long = b"GET /api/v1/games/x HTTP/1.1\r\nHost: " + b"a" * 64 + b".example\r\n\r\n"
        empty = b"GET / HTTP/1.1\r\nHost: a..example\r\n\r\n"
        one = _raw(s.url, long)
        counts = load(s.url, long, connections // 2, seconds)
        for status, n in load(s.url, empty, connections // 2, seconds).items():
            counts[status] = counts.get(status, 0) + n
        grown = s.output_file.stat().st_size - size
        traceback = "Traceback" in s.output()
    return {"answers": counts, "log_bytes": grown, "traceback": traceback, "one": one}


def _raw(url: str, data: bytes, source: str | None = STRANGER) -> bytes:
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(
        ("127.0.0.1", port), timeout=10, source_address=(source, 0) if source else None
    ) as sock:
        sock.sendall(data)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer


def unreadable_forwarded_for(tries: int = 40) -> dict:
    """A proxy on this machine (127.0.0.1, trusted) naming its client `ip:port`, then
    `unknown`: games made by each such client in a burst of `tries` (the limit: 30 a minute)."""
    made = {}
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "f.db", env=AS_STRANGER) as s:
        for entry in ("203.0.113.9:5123", "unknown"):
            codes = [
                request(
                    f"{s.url}/api/v1/games",
                    "POST",
                    {"players": ["A", "B"]},
                    headers={"X-Forwarded-For": entry},
                ).status_code
                for _ in range(tries)
            ]
            made[entry] = (codes.count(201), codes.count(429))
    return made


def link_and_import_loops(seconds: float = 10.0, imports: int = 30) -> dict:
    """One token's `POST …/tokens` in a loop for `seconds`, and `imports` small snapshots
    resumed one after another, by the stranger: made and refused."""
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "l.db", env=AS_STRANGER) as s:
        game = _game(s.url)
        links: dict[int, int] = {}
        path = f"{s.url}/api/v1/games/{game['game_id']}/tokens"
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            code = request(
                path, "POST", {"for": "p1"}, game["banker_token"], source=STRANGER
            ).status_code
            links[code] = links.get(code, 0) + 1
        status, _, doc = call(
            f"{s.url}/api/v1/games/{game['game_id']}/snapshot", token=game["banker_token"]
        )
        data = json.dumps(doc).encode()
        resumed: dict[int, int] = {}
        for _ in range(imports):
            code = request(
                f"{s.url}/api/v1/games/import", "POST", raw=data, source=STRANGER
            ).status_code
            resumed[code] = resumed.get(code, 0) + 1
    return {"links": links, "imports": resumed}


def expect_continue() -> dict:
    """`Expect: 100-continue` with a 5.5 MB body to a 1 MB route (with the Banker's token), and
    a small one without a token: what the server says before the body, and how much of it it
    took."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "e.db", env=AS_STRANGER) as s:
        game = _game(s.url)
        port = int(s.url.rsplit(":", 1)[1])
        path = f"/api/v1/games/{game['game_id']}/commands"
        for name, size, token in (
            ("5.5 MB, token", 5_500_000, game["banker_token"]),
            ("1 KB, no token", 1000, None),
        ):
            auth = f"Authorization: Bearer {token}\r\n" if token else ""
            head = (
                f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {size}\r\nExpect: 100-continue\r\n{auth}\r\n"
            ).encode()
            with socket.create_connection(
                ("127.0.0.1", port), timeout=10, source_address=(STRANGER, 0)
            ) as sock:
                sock.sendall(head)
                first = sock.recv(65536)
                sent = 0
                if first.startswith(b"HTTP/1.1 100"):
                    chunk = b" " * 65536
                    try:
                        while sent < size:
                            sent += sock.send(chunk[: size - sent])
                        first = sock.recv(65536)
                    except OSError:
                        pass
            out[name] = (first.split(b"\r\n", 1)[0].decode(), sent)
    return out


def file_modes() -> dict:
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "m.db") as s:
        _game(s.url)
        return {
            p.name: oct(stat.S_IMODE(p.stat().st_mode))
            for p in sorted(Path(tmp).glob("m.db*"))
            if p.is_file()
        }


# -- the rows ------------------------------------------------------------------------------------


def _mb(pair) -> str:
    return f"{pair[0]:.0f} MB, kernel TCP {pair[1]:.0f} MB"


def rows() -> list[tuple[str, str, str]]:
    out = []
    r = slow_bodies()
    out.append(
        (
            "8 POSTs: Content-Length 1,000,000, 12 bytes, then nothing; 10 s",
            "< 1 s",
            f"{r['watch'].said()}; home page max {r['home_max_ms']:.0f} ms",
        )
    )
    for kind, who in (
        ("history", "history page, the Banker's cookie"),
        ("qr", "player's QR code, the Banker's cookie"),
        ("snapshot", "snapshot.json, the Banker's token"),
        ("events", "/api/v1/…/events, a player's token"),
    ):
        r = costly_answers(kind)
        before, end, later = r["rss"]
        out.append(
            (
                f"long game (12,000 commands), 16 connections ask its {who}, 20 s",
                "p50<=50 max<=500 ms",
                f"{r['watch'].said()}; answers {r['answers']}; server {before:.0f} -> "
                f"{end:.0f} MB, 10 s later {later:.0f} MB",
            )
        )
    r = unread_answers()
    out.append(
        (
            "64 connections ask that snapshot without gzip and never read, 45 s",
            "<= +100 MB",
            f"before {_mb(r['before'])}; at 5 s {_mb(r['soon'])}; peak "
            f"{_mb(r['peak'])}; at 45 s {_mb(r['late'])}; {r['cut']} of 64 cut",
        )
    )
    r = home_flood(256)
    out.append(
        (
            "256 connections to the home page, 10 s, direct",
            "p50 <= 50 ms",
            f"{r['watch'].said()}; answers {r['answers']}",
        )
    )
    if Path(NGINX).exists():
        r = home_flood(512, through_nginx=True)
        out.append(
            (
                "512 connections to the home page through nginx, 10 s",
                "p50 <= 50 ms",
                f"{r['watch'].said()}; answers {r['answers']}",
            )
        )
    r = bad_hosts()
    out.append(
        (
            "Host with a 64-character or an empty label, 32 connections, 10 s",
            "400, app's headers",
            f"answers {r['answers']}; log +{r['log_bytes']:,} bytes; "
            f"traceback: {r['traceback']}; CSP header: "
            f"{b'content-security-policy' in r['one'].lower()}",
        )
    )
    r = unreadable_forwarded_for()
    out.append(
        (
            "trusted proxy's X-Forwarded-For `ip:port`, `unknown`: 40 games each",
            "30 a minute",
            "; ".join(f"{k}: {m} made, {n} told 429" for k, (m, n) in r.items()),
        )
    )
    r = link_and_import_loops()
    out.append(
        (
            "POST …/tokens in a loop 10 s; 30 imports in a row, one client",
            "bounded",
            f"links {r['links']}; imports {r['imports']}",
        )
    )
    r = expect_continue()
    out.append(
        (
            "Expect: 100-continue",
            "refused before the body",
            "; ".join(f"{k}: {v[0]!r}, {v[1]:,} body bytes taken" for k, v in r.items()),
        )
    )
    out.append(("the database and its -wal/-shm", "0600", str(file_modes())))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", help="serve another checkout's banker (before)")
    args = parser.parse_args()
    if args.checkout:
        served.REPO = Path(args.checkout).resolve()
    print(f"# {os.popen('uptime').read().strip()}", flush=True)
    for name, budget, figure in rows():
        print(f"{name:<72}  {budget:<12}  {figure}", flush=True)
    print(f"# {os.popen('uptime').read().strip()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
