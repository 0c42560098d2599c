"""No one holds `banker serve` by holding connections, and the server's own refusals look like
the app's (issue 22, items 3 and 7; the per-token command rate). Against a real server on
loopback, every attack bounded in count and time. A stranger is played from 127.0.0.2: the
server is told that only 127.0.0.1 is this machine ($BANKER_LOCAL_NETWORKS)."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from tests.serving import reopen_closed, request, serving

pytestmark = pytest.mark.slow
STRANGER, OTHER = "127.0.0.2", "127.0.0.3"
SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def raw(url: str, data: bytes, source: str = "127.0.0.1", wait: float = 5) -> bytes:
    """Send `data` on a fresh connection; everything the server answers before it closes."""
    with socket.create_connection(("127.0.0.1", port_of(url)), timeout=wait,
                                  source_address=(source, 0)) as s:  # fmt: skip
        s.sendall(data)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except (ConnectionResetError, TimeoutError):
            pass
        return out


def parts(answer: bytes) -> tuple[int, dict, bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def looks_like_the_apps(answer: bytes, status: int, api: bool) -> dict:
    found, headers, body = parts(answer)
    assert found == status, answer[:300]
    for name in SECURITY:
        assert name.lower() in headers, (name, headers)
    if api:
        assert headers["content-type"] == "application/json"
        error = json.loads(body)["error"]
        assert error["message"].endswith("."), error
        return error
    assert headers["content-type"].startswith("text/plain")
    return {}


@pytest.fixture
def server(tmp_path):
    env = {"BANKER_LOCAL_NETWORKS": "127.0.0.1/32", "BANKER_PER_ADDRESS": "20",
           "BANKER_STREAMS_PER_CLIENT": "3", "BANKER_IDLE_SECONDS": "2",
           "BANKER_HEADER_SECONDS": "2", "BANKER_COMMAND_BURST": "5",
           "BANKER_COMMANDS_PER_SECOND": "2"}  # fmt: skip
    with serving(tmp_path / "banker.db", env=env) as running:
        yield running


def family(url: str, source: str = "127.0.0.1") -> dict:
    """A new family's game, made and started as the Banker's phone would (API), from `source`."""
    reply = request(f"{url}/api/v1/games", "POST", {"players": ["Ann", "Bob"]}, source=source)
    assert reply.status_code == 201, reply.data
    game = reply.get_json()
    start = {"type": "start", "first": "p1"}
    commands = f"{url}/api/v1/games/{game['game_id']}/commands"
    started = request(commands, "POST", start, game["banker_token"], source=source)
    assert started.status_code == 200, started.data
    first = request(f"{url}/join/{game['players'][0]['token']}", source=source, timeout=10)
    assert first.status_code == 200
    return game


def banker_command(url: str, game: dict, source: str = "127.0.0.1", amount: int = 1):
    return request(f"{url}/api/v1/games/{game['game_id']}/commands", "POST",
                   {"type": "adjust", "player": "p1", "amount": amount, "reason": "check"},
                   game["banker_token"], source=source, timeout=10)  # fmt: skip


def test_the_servers_own_refusals_carry_the_apps_headers_and_json_under_api(server):
    url = server.url
    big = b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n"
    assert looks_like_the_apps(raw(url, big), 413, api=True)["code"] == "body_too_large"
    huge = b"GET /api/v1/games/x HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n"
    assert looks_like_the_apps(raw(url, huge), 431, api=True)["code"] == "headers_too_large"
    looks_like_the_apps(raw(url, huge.replace(b"/api/v1/games/x", b"/")), 431, api=False)
    bad = b"GET /api/v1/games HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"
    assert looks_like_the_apps(raw(url, bad), 400, api=True)["code"] == "bad_request"
    looks_like_the_apps(raw(url, b"NOT HTTP AT ALL\r\n\r\n"), 400, api=False)
    slow = b"GET /api/v1/games/x HTTP/1.1\r\nHost: x\r\n"  # and never the blank line
    assert looks_like_the_apps(raw(url, slow), 408, api=True)["code"] == "request_timeout"


def test_a_stranger_holds_at_most_its_share_of_connections_push_streams_included(server):
    url = server.url
    held = []
    try:
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", port_of(url)), source_address=(STRANGER, 0))
            held.append(s)
        time.sleep(0.3)
        refused = raw(url, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", source=STRANGER)
        error = looks_like_the_apps(refused, 429, api=False)
        assert error == {} and parts(refused)[1]["retry-after"] == "10"
        # Another address, and this machine, are served meanwhile.
        assert request(f"{url}/", source=OTHER).status_code == 200
        game = family(url)
    finally:
        for s in held:
            s.close()
    time.sleep(0.3)
    # A stranger's push streams: at most 3 at once (behind a proxy: per real client).
    token = game["players"][0]["token"]
    streams = []
    try:
        for i in range(4):
            s = socket.create_connection(("127.0.0.1", port_of(url)), source_address=(STRANGER, 0))
            s.settimeout(5)
            s.sendall(f"GET /join/{token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            streams.append(s)
            first = s.recv(4096)
            assert first.startswith(b"HTTP/1.1 200" if i < 3 else b"HTTP/1.1 429"), first[:200]
    finally:
        for s in streams:
            s.close()


def test_1010_silent_sockets_opened_and_reopened_leave_the_banker_and_a_new_family_answered(
    server,
):
    url = server.url
    game = family(url)
    sockets: list[socket.socket] = []
    stop = threading.Event()
    reopened = [0]

    def attacker():  # from this machine, as a proxy's or a neighbour's would come
        while not stop.is_set():
            reopened[0] += reopen_closed(sockets, port_of(url))
            stop.wait(0.2)

    for _ in range(1010):
        sockets.append(socket.create_connection(("127.0.0.1", port_of(url))))
    thread = threading.Thread(target=attacker, daemon=True)
    try:
        # While all 1,010 are open: the Banker and a new family.
        assert banker_command(url, game).status_code == 200
        family(url)
        thread.start()
        deadline = time.monotonic() + 8  # the server closes them after 2 s; they are reopened
        answered = 0
        while time.monotonic() < deadline:
            assert banker_command(url, game).status_code == 200
            answered += 1
            time.sleep(0.2)
        family(url)
        assert reopened[0] >= 1010  # every silent socket was closed by the server at least once
        assert answered >= 10
    finally:
        stop.set()
        if thread.is_alive():
            thread.join(10)
        for s in sockets:
            s.close()


def test_a_runaway_token_is_told_to_slow_down_and_the_table_is_not(server):
    url = server.url
    game = family(url, source=STRANGER)
    # A burst of 5 (the game's start was the first), then 2 a second.
    statuses = [banker_command(url, game, source=STRANGER).status_code for _ in range(8)]
    assert statuses[:4] == [200] * 4 and statuses[4:] == [429] * 4
    refused = banker_command(url, game, source=STRANGER)
    assert refused.status_code == 429
    assert int(refused.header("Retry-After")) >= 1
    assert refused.get_json()["error"]["code"] == "too_many_commands"
    # Another token, even from the same address, is not slowed.
    assert banker_command(url, family(url, source=STRANGER), source=STRANGER).status_code == 200
    time.sleep(1.1)  # two a second come back
    assert banker_command(url, game, source=STRANGER).status_code == 200
