"""Beyond one process (docs/scaling.md): two `banker serve` processes, each with its own
database and its own public path (/s1, /s2), behind one nginx on loopback configured as
docs/scaling.md says. A game is created through the proxy's root (nginx picks the process),
then played on each process through the proxy, by its links and by the API's root paths
(nginx asks the next process when one answers 404: a game lives in exactly one), push
included."""

from __future__ import annotations

import re
import signal
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.serving import REPO, Server, first_pushed_event, free_port, nginx, request, run_banker

SCALING = (REPO / "docs" / "scaling.md").read_text()
HOSTING = (REPO / "docs" / "hosting.md").read_text()

pytestmark = pytest.mark.slow


def scaling_site(ports: list[int], errors: Path) -> str:
    """docs/scaling.md's nginx configuration as written, on {port} without TLS, for these
    processes, with docs/hosting.md's error pages (written by `banker error-pages` to
    `errors`) and their `map`."""
    (block,) = [b for b in re.findall(r"```nginx\n(.*?)```", SCALING, re.S) if "upstream" in b]
    (mapping,) = [b for b in re.findall(r"```nginx\n(.*?)```", HOSTING, re.S) if "map $uri" in b]
    s1 = re.search(r"    location /s1/ \{[^\n]*\n(.*?)    \}\n", block, re.S).group(1)
    site = block.replace("listen 443 ssl;", "listen 127.0.0.1:{port};")
    site = site.replace("        # … the same lines as /s1/\n", "".join(
        line + "\n" for line in s1.splitlines() if not line.strip().startswith("proxy_pass")
    ))  # fmt: skip
    for i, port in enumerate(ports, 1):
        site = site.replace(f"127.0.0.1:800{i}", f"127.0.0.1:{port}")
    return mapping + site.replace("/var/www/banker-errors/", f"{errors}/")


def first_event(url: str, path: str, command) -> tuple[float, bytes]:
    """Open a push stream at `path`, run command(), and return (seconds, the event's bytes)."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        return first_pushed_event(s, port, path, command)


@contextmanager
def two_processes(tmp_path: Path) -> Iterator[tuple[list[Server], str, list[dict]]]:
    """Two processes (their databases in one folder) behind nginx as docs/scaling.md says, and
    a game created on each through the proxy's root: (servers, proxy URL, games by process)."""
    proxy_port = free_port()
    public = f"http://127.0.0.1:{proxy_port}"
    servers = [
        Server(
            tmp_path / f"s{i}.db",
            tmp_path / f"s{i}.log",
            "--public-url",
            f"{public}/s{i}",
            port=free_port(),
        )  # (it prints the public URL, not its port)  # fmt: skip
        for i in (1, 2)
    ]
    errors = tmp_path / "banker-errors"
    assert run_banker("error-pages", str(errors)).returncode == 0
    try:
        for s in servers:
            s.start()
        ports = [int(s.url.rsplit(":", 1)[1]) for s in servers]
        with nginx(tmp_path / "nginx", scaling_site(ports, errors), port=proxy_port) as proxy:
            games = []
            for _ in range(2):  # nginx hands each creation to the next process in turn
                made = request(f"{proxy.url}/api/v1/games", "POST", {"players": ["Ann", "Bob"]})
                assert made.status_code == 201, made.data
                games.append(made.get_json())
            games.sort(key=lambda g: g["banker_url"])
            assert [g["banker_url"].split("/")[3] for g in games] == ["s1", "s2"]
            yield servers, proxy.url, games
    finally:
        for s in servers:
            s.stop()


def test_two_processes_behind_nginx_each_play_their_own_games_push_included(tmp_path):
    with two_processes(tmp_path) as (servers, url, games):
        for g in games:
            play_one(url, g)
        # Each database holds its own game only.
        for g, s in zip(games, servers, strict=True):
            assert request(f"{s.url}/api/v1/games/{g['game_id']}", token=g["banker_token"])
            other = [x for x in games if x is not g][0]
            lost = request(f"{s.url}/api/v1/games/{other['game_id']}", token=g["banker_token"])
            assert lost.status_code == 404


def test_a_game_asked_on_the_other_processes_path_is_said_to_be_there(tmp_path):
    with two_processes(tmp_path) as (servers, url, games):
        on_s2 = games[1]
        wrong = f"{url}/s1/api/v1/games/{on_s2['game_id']}/commands"
        r = request(wrong, "POST", {"type": "start", "first": "p1"}, on_s2["banker_token"])
        assert r.status_code == 404
        assert r.get_json()["error"] == {
            "code": "game_not_found",
            "message": f"There is no game {on_s2['game_id']!r} on this server ({url}/s1). It is "
            f"on the server at {url}/s2: use that address (its links carry it).",
        }
        page = request(f"{url}/s1/games/{on_s2['game_id']}")
        assert page.status_code == 404
        assert f"It is on the server at {url}/s2" in page.data.decode().replace("&#39;", "'")
        assert request(f"{url}/api/v1/games/{on_s2['game_id']}",
                       token=on_s2["banker_token"]).get_json()["version"] == 0  # fmt: skip


def test_with_one_process_killed_no_request_of_the_others_games_fails(tmp_path):
    """SIGKILL s1; then 40 rounds of the surviving game's reads and commands by the root paths
    and its own path, and new games: not one fails (nginx routes around the dead process);
    the dead one's links answer banker's page, and JSON under /api/, with 503."""
    with two_processes(tmp_path) as (servers, url, games):
        dead, alive = games
        servers[0].proc.send_signal(signal.SIGKILL)
        servers[0].proc.wait(timeout=10)
        gid, token = alive["game_id"], alive["banker_token"]
        failures = []

        def expect(status: int, r) -> None:
            if r.status_code != status:
                failures.append((r.status_code, r.data[:200]))

        expect(200, request(f"{url}/api/v1/games/{gid}/commands", "POST",
                            {"type": "start", "first": "p1"}, token))  # fmt: skip
        bonus = {"type": "adjust", "player": "p1", "amount": 1, "reason": "a test"}
        for _ in range(40):
            expect(200, request(f"{url}/api/v1/games/{gid}", token=token))
            expect(200, request(f"{url}/api/v1/games/{gid}/commands", "POST", bonus, token))
            expect(200, request(f"{url}/s2/api/v1/games/{gid}/commands", "POST", bonus, token))
            expect(200, request(alive["players"][0]["join_url"]))
            expect(200, request(f"{url}/"))
        for _ in range(10):
            made = request(f"{url}/api/v1/games", "POST", {"players": ["Cat", "Dan"]})
            expect(201, made)
            if made.status_code == 201:
                assert "/s2/" in made.get_json()["banker_url"]
        assert failures == []
        state = request(f"{url}/api/v1/games/{gid}", token=token).get_json()
        assert state["players"][0]["cash"] == 1500 + 80  # each command once, none twice
        page = request(dead["banker_url"])
        assert page.status_code == 503 and page.header("Retry-After") == "30"
        assert page.mimetype == "text/html"
        assert "The Banker&#39;s server is not answering just now" in page.data.decode()
        assert request(f"{url}/banker-errors/site.css").status_code == 200  # its look
        api = request(f"{url}/s1/api/v1/games/{dead['game_id']}", token=dead["banker_token"])
        assert (api.status_code, api.mimetype) == (503, "application/json")
        assert api.get_json()["error"]["code"] == "server_unavailable"


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
