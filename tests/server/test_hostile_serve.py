"""What a stranger may cost, against the real `banker serve` on loopback: every attack is
bounded (it stops by itself, it targets only 127.0.0.1), and while it runs the Banker's commands
answer within a second and no game changes."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

from banker.settings import BY_NAME
from bench.hostile import compact, crafted_snapshot, worst_snapshot
from tests.game import Game
from tests.serving import Server, call, run_banker
from tests.table_web import HttpTable

# How long a check waits for the Banker's answer before calling the server starved: wide, so a
# loaded machine does not fail it; the milliseconds are bench.hostile's (budget 1 s).
ANSWER_WAIT = 10


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "banker.db", tmp_path / "serve.log")
    s.start()
    yield s
    s.stop()


def banker_game(url: str) -> tuple[str, str]:
    g = Game(HttpTable(url))
    g.start("p1")
    return g.id, g.banker_token


def banker_is_answered(url: str, game: str, token: str, amount: int = 1) -> None:
    """One Banker's command on a fresh connection is accepted: answered, not starved by the
    attack (the client gives up after ANSWER_WAIT seconds). How fast: `python -m bench.hostile`
    ("Banker's command beside 150 slowloris sockets", "… during 8 costly imports at once")."""
    status, _, answer = call(
        f"{url}/api/v1/games/{game}/commands",
        "POST",
        {"type": "adjust", "player": "p1", "amount": amount, "reason": "check"},
        token,
        timeout=ANSWER_WAIT,
    )
    assert status == 200, answer


def closed_by_server(sock: socket.socket, wait: float = 0.5) -> bool:
    """Whether the server closed this socket: at most a 408 answer, then the end."""
    sock.settimeout(wait)
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except TimeoutError:
        return False
    except OSError:  # reset
        return True
    return data == b"" or data.startswith(b"HTTP/1.1 408 ")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# -- 4. one server per database ---------------------------------------------------------------


def test_a_second_server_on_the_same_database_refuses_to_start_naming_the_first(server, tmp_path):
    game, token = banker_game(server.url)
    second = run_banker(
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--db",
        str(server.db),
        cwd=tmp_path,
        timeout=30,
    )
    assert second.returncode != 0
    assert f"Another banker serve (process {server.proc.pid}) is already serving" in (second.stderr)
    # banker backup still works beside it, and the first server goes on.
    backup = run_banker("backup", str(tmp_path / "copy.db"), "--db", str(server.db), timeout=30)
    assert backup.returncode == 0, backup.stderr
    assert "Backed up 1 game" in backup.stdout
    banker_is_answered(server.url, game, token)


# -- 3. connections ---------------------------------------------------------------------------


def test_150_idle_slow_sockets_do_not_lock_out_the_banker_and_are_closed_by_the_server(server):
    game, token = banker_game(server.url)
    port = int(server.url.rsplit(":", 1)[1])
    sockets = []
    for _ in range(150):
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        sockets.append(s)
    stop = threading.Event()

    def trickle():  # one byte per socket every second, as a slowloris client does
        while not stop.wait(1.0):
            for s in sockets:
                try:
                    s.send(b"X")
                except OSError:
                    pass

    t = threading.Thread(target=trickle, daemon=True)
    t.start()
    try:
        for _ in range(5):
            banker_is_answered(server.url, game, token)
        # Headers still incomplete after $BANKER_HEADER_SECONDS: the server closes those sockets.
        time.sleep(BY_NAME["header_seconds"].default + 3)
        assert sum(closed_by_server(s) for s in sockets) == 150
        banker_is_answered(server.url, game, token)
    finally:
        stop.set()
        t.join(5)
        for s in sockets:
            s.close()


# -- 1. hostile snapshots, many at once -------------------------------------------------------


def post_raw(url: str, data: bytes, timeout: float = 60) -> tuple[int, dict]:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request("POST", parts.path, body=data,
                     headers={"Content-Type": "application/json"})  # fmt: skip
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        conn.close()


def test_eight_costly_snapshots_at_once_leave_the_banker_answered(server):
    game, token = banker_game(server.url)
    crafted = compact(crafted_snapshot(moves=48_000))
    worst = compact(worst_snapshot())
    results: list[tuple[str, int, dict]] = []

    def attack(kind: str, data: bytes) -> None:
        results.append((kind, *post_raw(f"{server.url}/api/v1/games/import", data)))

    attackers = [
        threading.Thread(target=attack, args=(("worst", worst) if i % 2 else ("crafted", crafted)))
        for i in range(8)
    ]
    for a in attackers:
        a.start()
    answered = 0
    while any(a.is_alive() for a in attackers) and answered < 40:
        banker_is_answered(server.url, game, token)
        answered += 1
        time.sleep(0.05)
    for a in attackers:
        a.join(60)
    assert len(results) == 8
    for kind, status, body in results:
        # The crafted file is refused (422) by its cheap checks, or told to come back later
        # (503) while another import replays; the worst file is replayed (201) or told so.
        assert status in ((422, 503) if kind == "crafted" else (201, 503)), (kind, body)
        if status != 201:
            assert body["error"]["message"].endswith(".")
    # At most one replay at a time (IMPORTS_AT_ONCE): of the four worst files sent at once, one
    # is replayed and the others are told to come back later.
    worst_statuses = sorted(status for kind, status, _ in results if kind == "worst")
    assert worst_statuses.count(201) <= 1 and worst_statuses.count(503) >= 3, worst_statuses
    assert rss_mb(server.proc.pid) < 400
    # The Banker's game is exactly as the Banker left it.
    status, _, state = call(f"{server.url}/api/v1/games/{game}", token=token)
    assert state["version"] == 1 + answered


def test_no_token_reaches_the_server_log_even_on_odd_polls(server):
    status, _, g = call(f"{server.url}/api/v1/games", "POST", {"players": ["Ann", "Bob"]})
    player_token = g["players"][0]["token"]
    import urllib.error
    import urllib.request

    for v in ("%C2%B2", "9" * 4300, "1", "%ED%A0%80"):
        for path in (f"/join/{player_token}/version?v={v}", f"/join/{player_token}?v={v}"):
            try:
                status = urllib.request.urlopen(f"{server.url}{path}", timeout=5).status
            except urllib.error.HTTPError as e:
                status = e.code
            assert status < 500, path
    server.stop()
    log = "".join(p.read_text() for p in server.log.parent.glob(f"{server.log.name}.*"))
    assert player_token not in log and g["banker_token"] not in log
    assert "Traceback" not in log
