"""`banker serve` as a real process: it prints the URL to open, and a game can be played there."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from serving import serving

REPO = Path(__file__).resolve().parent.parent


def request(url: str, body: dict | None = None, token: str | None = None):
    """(status, parsed JSON) of one HTTP request with urllib."""
    req = urllib.request.Request(url, method="POST" if body is not None else "GET")
    if body is not None:
        req.data = json.dumps(body).encode()
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture
def server(tmp_path):
    """Start `banker serve` on a free port with a temporary database: (process, printed URL,
    what it printed, the database)."""
    db = tmp_path / "served.db"
    with serving(db) as running:
        output = running.output()
        url = re.search(r"Open (http://\S+/) on the Banker's phone", output).group(1)
        yield running.proc, url, output, db


def test_serve_prints_the_url_and_a_game_can_be_created_and_played_there(server):
    proc, url, output, db = server
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)
    assert str(db) in output

    status, created = request(url + "api/v1/games", {"players": ["Ann", "Bob"]})
    assert status == 201
    assert created["banker_url"].startswith(f"{url}games/{created['game_id']}?token=")
    assert created["players"][0]["join_url"].startswith(f"{url}join/")

    commands = f"{url}api/v1/games/{created['game_id']}/commands"
    status, answer = request(commands, {"type": "start", "first": "p1"}, created["banker_token"])
    assert (status, answer["version"]) == (200, 1)
    status, error = request(commands, {"type": "buy"}, created["banker_token"])
    assert (status, error["error"]["code"]) == (422, "no_offer")
    status, state = request(
        f"{url}api/v1/games/{created['game_id']}", token=created["players"][1]["token"]
    )
    assert (status, state["version"]) == (200, 1)

    # The banker_url trades its token for a cookie and redirects to the clean URL.
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with browser.open(created["banker_url"], timeout=10) as r:
        assert r.status == 200
        assert created["game_id"] in r.read().decode()
    assert db.exists()


def test_the_banker_command_has_help_for_every_command():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    top = subprocess.run(
        [sys.executable, "-m", "banker", "--help"], capture_output=True, text=True, env=env
    )
    assert top.returncode == 0 and "serve" in top.stdout
    serve = subprocess.run(
        [sys.executable, "-m", "banker", "serve", "--help"], capture_output=True, text=True, env=env
    )
    assert serve.returncode == 0
    for option in ("--host", "--port", "--db", "BANKER_DB"):
        assert option in serve.stdout
