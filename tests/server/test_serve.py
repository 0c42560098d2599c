"""`banker serve` as a real process: it prints the URL to open, and a game can be played there."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.serving import call, run_banker, serving

REPO = Path(__file__).resolve().parents[2]


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

    status, _, created = call(url + "api/v1/games", "POST", {"players": ["Ann", "Bob"]})
    assert status == 201
    assert created["banker_url"].startswith(f"{url}games/{created['game_id']}?token=")
    assert created["players"][0]["join_url"].startswith(f"{url}join/")

    commands = f"{url}api/v1/games/{created['game_id']}/commands"
    status, _, answer = call(
        commands, "POST", {"type": "start", "first": "p1"}, created["banker_token"]
    )
    assert (status, answer["version"]) == (200, 1)
    status, _, error = call(commands, "POST", {"type": "buy"}, created["banker_token"])
    assert (status, error["error"]["code"]) == (422, "no_offer")
    status, _, state = call(
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
    top = run_banker("--help")
    assert top.returncode == 0 and "serve" in top.stdout
    serve = run_banker("serve", "--help")
    assert serve.returncode == 0
    for option in ("--host", "--port", "--db", "BANKER_DB"):
        assert option in serve.stdout
