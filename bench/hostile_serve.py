"""What a hostile visitor costs a real `banker serve` (issue 22's serving half): each attack
bounded in count and time, from loopback, and the Banker's own command answered meanwhile.

    python -m bench.hostile_serve      # also the last rows of `python -m bench.hostile`

- 1,010 silent sockets, opened and reopened as the server closes them, for 10 s;
- a trade-offer flood: one player's token proposing offers as fast as it can for 10 s, from
  this machine (not rate limited) and as a stranger (the per-token rate): offers accepted, the
  server's memory, the Banker's answer time;
- a runaway token: one token's commands as fast as it can for 5 s, as a stranger;
- games created through a real nginx by one client (127.0.0.2) in a burst of 100;
- the server's own refusals: security headers and JSON under /api.
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.tables import rss_mb  # noqa: E402
from tests.serving import (  # noqa: E402
    NGINX,
    NGINX_PROXY,
    call,
    nginx,
    reopen_closed,
    request,
    serving,
)

STRANGER = "127.0.0.2"
AS_STRANGER = {"BANKER_LOCAL_NETWORKS": "127.0.0.1/32"}


def _game(url: str, players=("Ann", "Bob", "Cat")) -> dict:
    status, _, g = call(f"{url}/api/v1/games", "POST", {"players": list(players)})
    assert status == 201, g
    call(f"{url}/api/v1/games/{g['game_id']}/commands", "POST", {"type": "start", "first": "p1"},
         g["banker_token"])  # fmt: skip
    return g


class BankerWatch(threading.Thread):
    """The Banker's command every 0.2 s on a fresh connection, timed, until stopped."""

    def __init__(self, url: str, game: dict):
        super().__init__(daemon=True)
        self.url, self.game, self.stop = url, game, threading.Event()
        self.ms: list[float] = []
        self.failed = 0

    def run(self):
        while not self.stop.wait(0.2):
            t0 = time.perf_counter()
            try:
                reply = request(f"{self.url}/api/v1/games/{self.game['game_id']}/commands",
                                "POST", {"type": "adjust", "player": "p1", "amount": 1,
                                         "reason": "watch"}, self.game["banker_token"],
                                timeout=30)  # fmt: skip
                ok = reply.status_code == 200
            except OSError:
                ok = False
            if ok:
                self.ms.append((time.perf_counter() - t0) * 1000)
            else:
                self.failed += 1

    def check(self, url: str) -> None:
        """Whether the Banker's game moved by the Banker's commands alone (`untouched`)."""
        try:
            status, _, state = call(f"{url}/api/v1/games/{self.game['game_id']}",
                                    token=self.game["banker_token"], timeout=60)  # fmt: skip
        except OSError:  # the server does not answer: nothing to say
            self.untouched = None
            return
        self.untouched = status == 200 and state["version"] == 1 + len(self.ms) + self.failed

    def said(self) -> str:
        xs = sorted(self.ms) or [float("nan")]
        said = (f"Banker answered {len(self.ms)}x (p50 {xs[len(xs) // 2]:.0f} ms, max "
                f"{xs[-1]:.0f} ms), {self.failed} not")  # fmt: skip
        if hasattr(self, "untouched"):
            said += f", its game moved by the Banker alone: {self.untouched}"
        return said


def silent_sockets(count: int = 1010, seconds: float = 10.0) -> tuple:
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "s.db") as server:
        port = int(server.url.rsplit(":", 1)[1])
        game = _game(server.url)
        watch = BankerWatch(server.url, game)
        sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
        watch.start()
        reopened, families, deadline = 0, 0, time.monotonic() + seconds
        while time.monotonic() < deadline:
            reopened += reopen_closed(sockets, port)
            families += request(f"{server.url}/api/v1/games", "POST",
                                {"players": ["Ann", "Bob"]}).status_code == 201  # fmt: skip
            time.sleep(0.3)
        watch.stop.set()
        watch.join()
        memory = rss_mb(server.proc.pid)
        for s in sockets:
            s.close()
    return (
        f"{count:,} silent sockets, reopened as closed, {seconds:.0f} s",
        "answered",
        f"{watch.said()}; {families} new families' games made; {reopened:,} sockets closed by "
        f"the server and reopened; server {memory:.0f} MB",
    )


def offer_flood(stranger: bool, seconds: float = 10.0) -> tuple:
    env = {**AS_STRANGER} if stranger else {}
    source = STRANGER if stranger else None
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "o.db", env=env) as server:
        game = _game(server.url)
        for command in ({"type": "roll", "player": "p1", "dice": [1, 2]}, {"type": "buy"}):
            call(
                f"{server.url}/api/v1/games/{game['game_id']}/commands",
                "POST",
                command,
                game["banker_token"],
            )  # fmt: skip  (Ann owns Baltic Avenue: a deed to offer)
        before = rss_mb(server.proc.pid)
        watch = BankerWatch(server.url, game)
        watch.start()
        made, refused = 0, {}
        path = f"{server.url}/api/v1/games/{game['game_id']}/commands"
        token = game["players"][0]["token"]
        nothing = {"cash": 0, "properties": [], "jail_cards": []}
        offer = {"type": "propose_trade", "from": "p1", "to": "p2",
                 "give": {**nothing, "properties": ["baltic-avenue"]},
                 "receive": {**nothing, "cash": 1}, "unmortgage": []}  # fmt: skip
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            reply = request(path, "POST", offer, token, source=source, timeout=30)
            if reply.status_code == 200:
                made += 1
            else:
                code = (reply.get_json() or {}).get("error", {}).get("code", reply.status_code)
                refused[code] = refused.get(code, 0) + 1
                if reply.status_code == 429:
                    time.sleep(0.05)
        watch.stop.set()
        watch.join()
        after = rss_mb(server.proc.pid)
    who = "as a stranger (rate limited)" if stranger else "from this machine (not rate limited)"
    return (
        f"trade-offer flood, one player's token, {seconds:.0f} s, {who}",
        "bounded",
        f"{made:,} offers open, refused: {', '.join(f'{n:,}x {c}' for c, n in refused.items())}"
        f"; server {before:.0f} -> {after:.0f} MB; "
        f"{watch.said()}",
    )


def runaway_token(seconds: float = 5.0) -> tuple:
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "r.db", env=AS_STRANGER) as s:
        game = _game(s.url)
        path = f"{s.url}/api/v1/games/{game['game_id']}/commands"
        body = {"type": "adjust", "player": "p2", "amount": 1, "reason": "loop"}
        codes: dict[int, int] = {}
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            code = request(path, "POST", body, game["banker_token"], source=STRANGER).status_code
            codes[code] = codes.get(code, 0) + 1
    said = ", ".join(f"{n:,}x {c}" for c, n in sorted(codes.items()))
    return (f"one token's commands as fast as it can, {seconds:.0f} s, a stranger",
            "40 + 10/s", said)  # fmt: skip


def proxy_creations(burst: int = 100) -> tuple:
    if not Path(NGINX).exists():
        return ("games made by one client through nginx", "30 a minute", "nginx not installed")
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "p.db", env=AS_STRANGER) as s:
        site = ("server { listen 127.0.0.1:{port};\n"
                f"    location / {{ proxy_pass {s.url};{NGINX_PROXY} }}\n}}")  # fmt: skip
        with nginx(Path(tmp) / "nginx", site) as proxy:
            codes = [
                request(
                    f"{proxy.url}/api/v1/games", "POST", {"players": ["A", "B"]}, source=STRANGER
                ).status_code  # fmt: skip
                for _ in range(burst)
            ]
    return ("games made by one client through nginx, a burst of 100", "30 a minute",
            f"{codes.count(201)} made, {codes.count(429)} told 429")  # fmt: skip


def refusals() -> tuple:
    asks = {
        413: b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n",
        431: b"GET /api/v1/x HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 40_000 + b"\r\n\r\n",
        400: b"GET /api/v1/x HTTP/1.1\r\nBad Header\r\n\r\n",
    }
    good = []
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "x.db") as server:
        port = int(server.url.rsplit(":", 1)[1])
        for status, data in asks.items():
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(data)
                answer = sock.recv(65536)
            if (answer.startswith(f"HTTP/1.1 {status}".encode())
                    and b"content-security-policy" in answer.lower()
                    and b"application/json" in answer):  # fmt: skip
                good.append(str(status))
    return ("the server's own refusals with the app's headers, JSON under /api", "all",
            f"{', '.join(good)} of 413, 431, 400")  # fmt: skip


def rows() -> list[tuple[str, str, str]]:
    return [
        silent_sockets(),
        offer_flood(stranger=False),
        offer_flood(stranger=True),
        runaway_token(),
        proxy_creations(),
        refusals(),
    ]


def main() -> int:
    for name, budget, figure in rows():
        print(f"{name:<72}  {budget:<12}  {figure}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
