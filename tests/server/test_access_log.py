"""Through a real `banker serve`: the optional request log (--access-log FILE) writes a line per
request with no token in it, and an unknown address gets the app's own error page with the
headers every answer carries."""

from __future__ import annotations

import re
import time

import pytest

from tests.serving import call, request, serving

pytestmark = pytest.mark.slow
LINE = re.compile(
    r'(?P<client>\S+) - - \[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d \+0000\] "(?P<request>[^"]*)" '
    r"(?P<status>\d{3}) (?P<size>\d+) (?P<ms>\d+\.\d)ms"
)


def lines(path, count: int) -> list[re.Match]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = path.read_text().splitlines() if path.exists() else []
        if len(found) >= count:
            break
        time.sleep(0.05)
    matches = [LINE.fullmatch(line) for line in found]
    assert all(matches), found
    return matches


def test_the_access_log_has_a_line_per_request_and_no_token(tmp_path):
    log = tmp_path / "access.log"
    with serving(tmp_path / "b.db", "--access-log", str(log)) as server:
        url = server.url
        status, _, game = call(f"{url}/api/v1/games", "POST", {"players": ["Ann", "Bob"]})
        assert status == 201
        player = game["players"][0]["token"]
        banker = game["banker_token"]
        display = game["display_url"].rsplit("/", 1)[1]
        assert request(f"{url}/join/{player}").status_code == 200
        assert request(f"{url}/join/{player}/version?v=0").status_code == 204
        assert request(f"{url}/games/{game['game_id']}?token={banker}").status_code == 303
        assert request(f"{url}/display/{display}").status_code == 200
        assert call(f"{url}/api/v1/games/{game['game_id']}", token=banker)[0] == 200
        assert request(f"{url}/no/such/page?x=1&token={banker}&y=2").status_code == 404
        found = lines(log, 7)
    text = log.read_text()
    for secret in (player, banker, display):
        assert secret not in text
    assert [(m["client"], m["request"], m["status"]) for m in found] == [
        ("127.0.0.1", "POST /api/v1/games HTTP/1.1", "201"),
        ("127.0.0.1", "GET /join/*** HTTP/1.1", "200"),
        ("127.0.0.1", "GET /join/***/version?v=0 HTTP/1.1", "204"),
        ("127.0.0.1", f"GET /games/{game['game_id']}?token=*** HTTP/1.1", "303"),
        ("127.0.0.1", "GET /display/*** HTTP/1.1", "200"),
        ("127.0.0.1", f"GET /api/v1/games/{game['game_id']} HTTP/1.1", "200"),
        ("127.0.0.1", "GET /no/such/page?x=1&token=***&y=2 HTTP/1.1", "404"),
    ]
    assert int(found[1]["size"]) > 1000 and found[2]["size"] == "0"


def test_an_unknown_address_is_the_apps_page_with_every_answers_headers(tmp_path):
    with serving(tmp_path / "b.db") as server:
        r = request(f"{server.url}/no/such/page")
        api = request(f"{server.url}/api/v1/nothing")
    assert (r.status_code, r.mimetype) == (404, "text/html")
    assert "<h1>Not found</h1>" in r.data.decode()
    assert r.header("Content-Security-Policy").startswith("default-src 'self'")
    assert r.header("X-Content-Type-Options") == "nosniff"
    assert (api.status_code, api.get_json()["error"]["code"]) == (404, "not_found")
