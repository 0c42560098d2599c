"""Beyond one process (docs/scaling.md): two `banker serve` processes, each with its own
database and its own public path (/s1, /s2), behind one nginx on loopback configured as
docs/scaling.md says. A game is created through the proxy's root (nginx picks the process),
then played on each process through the proxy, by its links and by the API's root paths
(nginx asks the next process when one answers 404: a game lives in exactly one), push
included."""

from __future__ import annotations

import socket
import time

import pytest

from tests.serving import NGINX_PROXY, Server, free_port, nginx, request

pytestmark = pytest.mark.slow


def scaling_site(ports: list[int]) -> str:
    """docs/scaling.md's nginx server block for these processes, on {port}."""
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in ports)
    paths = "".join(
        f"    location /s{i}/ {{ proxy_pass http://127.0.0.1:{p};{NGINX_PROXY}"
        "        proxy_buffering off;\n    }\n"
        for i, p in enumerate(ports, 1)
    )
    return (
        f"upstream banker {{\n{servers}}}\n"
        "server {\n    listen 127.0.0.1:{port};\n    client_max_body_size 6m;\n"
        "    location / {\n        proxy_pass http://banker;\n"
        "        proxy_next_upstream http_404 non_idempotent;"
        f"{NGINX_PROXY}    }}\n{paths}}}\n"
    )


def first_event(url: str, path: str, command) -> tuple[float, bytes]:
    """Open a push stream at `path`, run command(), and return (seconds, the event's bytes)."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        seen = b""
        while b"event: ready" not in seen:
            seen += s.recv(4096)
        t0 = time.monotonic()
        version = command()
        want = f"id: {version}".encode()
        while want not in seen:
            seen += s.recv(4096)
        return time.monotonic() - t0, seen


def test_two_processes_behind_nginx_each_play_their_own_games_push_included(tmp_path):
    proxy_port = free_port()
    public = f"http://127.0.0.1:{proxy_port}"
    servers = [
        Server(
            tmp_path / f"s{i}.db",
            tmp_path / f"s{i}.log",
            "--public-url",
            f"{public}/s{i}",
            port=free_port(),
        )  # (it prints the public URL, not its port)
        for i in (1, 2)
    ]
    try:
        for s in servers:
            s.start()
        ports = [int(s.url.rsplit(":", 1)[1]) for s in servers]
        with nginx(tmp_path / "nginx", scaling_site(ports), port=proxy_port) as proxy:
            games = []
            for _ in range(2):  # nginx hands each creation to the next process in turn
                made = request(f"{proxy.url}/api/v1/games", "POST", {"players": ["Ann", "Bob"]})
                assert made.status_code == 201, made.data
                games.append(made.get_json())
            prefixes = sorted(g["banker_url"].split("/")[3] for g in games)
            assert prefixes == ["s1", "s2"]
            for g in games:
                play_one(proxy.url, g)
            # Each database holds its own game only.
            for g, s in zip(sorted(games, key=lambda g: g["banker_url"]), servers, strict=True):
                assert request(f"{s.url}/api/v1/games/{g['game_id']}", token=g["banker_token"])
                other = [x for x in games if x is not g][0]
                lost = request(f"{s.url}/api/v1/games/{other['game_id']}", token=g["banker_token"])
                assert lost.status_code == 404
    finally:
        for s in servers:
            s.stop()


def play_one(url: str, g: dict) -> None:
    gid, token = g["game_id"], g["banker_token"]
    prefix = "/" + g["banker_url"].split("/")[3]

    def command(body: dict, path: str = "") -> int:
        answer = request(f"{url}{path}/api/v1/games/{gid}/commands", "POST", body, token)
        assert answer.status_code == 200, answer.data
        return answer.get_json()["version"]

    command({"type": "start", "first": "p1"})  # by the API's root path
    command({"type": "roll", "player": "p1", "dice": [1, 2]}, prefix)  # by the game's path
    player = g["players"][1]
    assert request(player["join_url"]).status_code == 200  # the player's link, through nginx
    seconds, said = first_event(
        url, f"{prefix}/join/{player['token']}/events", lambda: command({"type": "buy"})
    )
    assert b"event: ready" in said
    assert seconds < 1.0, seconds  # not held back by the proxy
    state = request(f"{url}/api/v1/games/{gid}", token=token).get_json()
    assert state["version"] == 3
    assert state["properties"]["baltic-avenue"]["owner"] == "p1"
