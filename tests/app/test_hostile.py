"""Hostile input: schemathesis against /api/v1/openapi.json finds no 5xx and no answer outside
the documented schema; names with HTML, quotes, emoji and right-to-left text show as text on
every page; oversized bodies are refused; forms posted from another site are refused."""

from __future__ import annotations

import json
import random
import re
import sqlite3

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from banker.web import create_app
from tests.plays import a_plausible_command

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES = 50  # per operation and way of generating: the whole run stays well under a minute

HOSTILE = [
    "<script>alert(1)</script>",
    '"Bob" O\'Neil & <b>co</b>',
    "Zoë 🎲😀 {{7*7}}",
    "مريم evil",
    "<img src=x onerror=alert(2)>",
    "יעל' --",
]
# How each name must appear in HTML: escaped, never as markup.
ESCAPED = [
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&#34;Bob&#34; O&#39;Neil &amp; &lt;b&gt;co&lt;/b&gt;",
    "Zoë 🎲😀 {{7*7}}",
    "مريم evil",
    "&lt;img src=x onerror=alert(2)&gt;",
    "יעל&#39; --",
]


def games_in(db_path) -> int:
    with sqlite3.connect(db_path) as conn:
        return conn.execute("select count(*) from games").fetchone()[0]


# -- schemathesis ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    """An app on its own database with a game in the middle of play, for the fuzzer to hit."""
    db = tmp_path_factory.mktemp("fuzz") / "banker.db"
    app = create_app({"TESTING": True, "DATABASE": str(db)})
    client = app.test_client()
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cat"]}).get_json()
    auth = {"Authorization": f"Bearer {created['banker_token']}"}
    url = f"/api/v1/games/{created['game_id']}"
    client.post(f"{url}/commands", json={"type": "start", "first": "p1"}, headers=auth)
    rng = random.Random(6)
    for _ in range(80):
        state = client.get(url, headers=auth).get_json()
        client.post(f"{url}/commands", json=a_plausible_command(state, rng), headers=auth)
    yield app, created
    app.extensions["banker.store"].close()


def operations(app) -> list:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    return [result.ok() for result in schema.get_all_operations()]


def fuzz(op, mode, fixed: dict, failures: list, statuses: dict, aimed: bool = False) -> None:
    """Send EXAMPLES requests generated for one operation; note the checks that fail.

    `aimed`: a command loses its (random) expected_version, so that some are accepted and
    the game moves on.
    """
    checks = CHECKS + ([negative_data_rejection] if mode == GenerationMode.NEGATIVE else [])

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=op.as_strategy(generation_mode=mode, **fixed))
    def run(case):
        if aimed and op.method.upper() == "POST" and isinstance(case.body, dict):
            case.body.pop("expected_version", None)
        # The WSGI transport does not un-gzip bodies: ask for them plain.
        response = case.call(headers={"Accept-Encoding": "identity"})
        statuses.setdefault(op.label, set()).add(response.status_code)
        try:
            case.validate_response(response, checks=checks)
        except FailureGroup as e:
            failures.append(f"{op.label} ({mode.value}): {str(e)[:2000]}")

    run()


@pytest.mark.slow
def test_schemathesis_finds_no_server_error_and_no_answer_outside_the_documented_schema(fuzzed):
    app, created = fuzzed
    game = {"game_id": created["game_id"]}
    banker = {"Authorization": f"Bearer {created['banker_token']}"}
    player = {"Authorization": f"Bearer {created['players'][1]['token']}"}
    # New links last: a 201 there replaces the banker token the other operations are sent with.
    found = sorted(operations(app), key=lambda op: op.path.endswith("/tokens"))
    assert {op.label for op in found} == {
        "POST /api/v1/games",
        "GET /api/v1/games/{game_id}",
        "GET /api/v1/games/{game_id}/events",
        "POST /api/v1/games/{game_id}/commands",
        "GET /api/v1/games/{game_id}/snapshot",
        "POST /api/v1/games/import",
        "POST /api/v1/games/{game_id}/tokens",
    }
    failures: list[str] = []
    statuses: dict[str, set[int]] = {}
    for op in found:
        path = game if "{game_id}" in op.path else {}
        # Whole random requests (unknown games, odd tokens), then ones aimed at the real game
        # with the banker's and a player's token, then ones that break the schema on purpose.
        ways = [
            (GenerationMode.POSITIVE, {}, False),
            (GenerationMode.POSITIVE, {"path_parameters": path, "headers": banker}, True),
            (GenerationMode.POSITIVE, {"path_parameters": path, "headers": banker}, False),
            (GenerationMode.POSITIVE, {"path_parameters": path, "headers": player}, False),
            (GenerationMode.NEGATIVE, {"path_parameters": path, "headers": banker}, False),
        ]
        for mode, fixed, aimed in ways:
            try:
                fuzz(op, mode, fixed, failures, statuses, aimed)
            except Unsatisfiable:
                pass  # everything was fixed: nothing left to vary in that way
    assert not failures, "\n\n".join(failures[:5])
    # The fuzzer reached the real game, not only 404s: answers and refusals of every kind.
    assert {200, 400, 409, 422} <= statuses["POST /api/v1/games/{game_id}/commands"]
    assert {200, 403, 404} <= statuses["GET /api/v1/games/{game_id}/snapshot"]
    assert {201, 400} <= statuses["POST /api/v1/games"]


# -- names that look like markup --------------------------------------------------------------


@pytest.fixture
def hostile_game(client):
    """A game of six players with hostile names, a few commands in (names in the events)."""
    created = client.post(
        "/api/v1/games", json={"players": [f"  {n} " for n in HOSTILE]}
    ).get_json()
    auth = {"Authorization": f"Bearer {created['banker_token']}"}
    url = f"/api/v1/games/{created['game_id']}"
    for command in [
        {"type": "start", "first": "p1"},
        {"type": "roll", "player": "p1", "dice": [1, 2]},
        {"type": "buy"},
        {"type": "adjust", "player": "p2", "amount": 5, "reason": "<script>alert(3)</script>"},
        {"type": "roll", "player": "p2", "dice": [2, 5]},
    ]:
        r = client.post(f"{url}/commands", json=command, headers=auth)
        assert r.status_code == 200, r.get_json()
    return created


def test_hostile_names_come_back_exactly_as_given_in_the_json(client, hostile_game):
    auth = {"Authorization": f"Bearer {hostile_game['banker_token']}"}
    url = f"/api/v1/games/{hostile_game['game_id']}"
    assert [p["name"] for p in hostile_game["players"]] == HOSTILE
    r = client.get(url, headers=auth)
    assert r.mimetype == "application/json"
    assert [p["name"] for p in r.get_json()["players"]] == HOSTILE
    assert [p["members"] for p in r.get_json()["players"]] == [[n] for n in HOSTILE]
    texts = [e["text"] for e in client.get(f"{url}/events", headers=auth).get_json()]
    assert f"{HOSTILE[0]} bought Baltic Avenue for 60." in texts
    assert any("<script>alert(3)</script>" in t for t in texts)
    snapshot = client.get(f"{url}/snapshot", headers=auth).get_json()
    assert snapshot["game"]["players"] == [f"  {n} " for n in HOSTILE]
    assert client.post("/api/v1/games/import", json=snapshot).status_code == 201


def html_pages(app, game_id: str, player_token: str) -> list[str]:
    """Every page URL of the app that a GET can reach, filled in for this game."""
    values = {"game_id": game_id, "token": player_token, "player_id": "p1"}
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.rule.startswith(("/api/", "/static")):
            continue
        if not set(rule.arguments) <= set(values):
            continue
        url = rule.rule
        for name in rule.arguments:
            url = re.sub(rf"<(?:\w+:)?{name}>", values[name], url)
        urls.append(url)
    return urls


def test_hostile_names_show_as_text_on_every_page(app, client, hostile_game):
    game_id, token = hostile_game["game_id"], hostile_game["banker_token"]
    client.get(f"/games/{game_id}?token={token}")  # the Banker's cookie for the game's pages
    urls = html_pages(app, game_id, hostile_game["players"][0]["token"])
    assert f"/games/{game_id}/pause" in urls and f"/games/{game_id}" in urls
    assert "/resume" in urls and "/" in urls
    seen = 0
    for url in urls:
        r = client.get(url)
        assert r.status_code < 500, url
        if r.mimetype != "text/html" or r.status_code >= 400:
            continue
        html = r.get_data(as_text=True)
        for raw in HOSTILE[:2] + HOSTILE[4:5] + ["<script>alert(3)</script>"]:
            assert raw not in html, (url, raw)
        assert "onerror=alert" not in html.replace("&lt;img src=x onerror=alert(2)&gt;", "")
        # The only scripts are the vendored files in static/.
        for tag in re.findall(r"<script\b[^>]*>", html, flags=re.I):
            assert re.search(r'src="/static/[\w.-]+\.js(\?v=\w+)?"', tag), (url, tag)
        if any(n in html for n in ESCAPED):
            seen += 1
    assert seen >= 3  # the names were really on several of them


def test_the_pause_page_shows_every_hostile_name_escaped(client, hostile_game):
    game_id, token = hostile_game["game_id"], hostile_game["banker_token"]
    html = client.get(f"/games/{game_id}/pause?token={token}").get_data(as_text=True)
    for name in ESCAPED:
        assert f"<bdi>{name}</bdi>" in html, name
    assert 'download="banker-' in html and "-scriptalert1script-BobONeilbcob-" in html
    r = client.get(f"/games/{game_id}/snapshot.json?token={token}")
    filename = r.headers["Content-Disposition"].removeprefix("attachment; filename=")
    assert re.fullmatch(r"banker-\d{4}-\d\d-\d\d-[A-Za-z0-9-]+\.json", filename), filename
    assert filename.endswith(
        "-scriptalert1script-BobONeilbcob-Zoe77-evil-imgsrcxonerroralert2-p6.json"
    )


# -- oversized bodies and cross-site forms ----------------------------------------------------


def test_oversized_bodies_are_refused_with_413_and_change_nothing(client, game, db_path):
    before = game.now()
    games = games_in(db_path)
    big = json.dumps({"players": ["Ann", "Bob"], "pad": "x" * 1024 * 1024}).encode()
    r = client.post("/api/v1/games", data=big, content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "body_too_large"
    r = game.send(raw=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "body_too_large"
    r = client.post("/games", data={"name": ["Ann", "Bob"], "pad": "x" * 1024 * 1024})
    assert r.status_code == 413
    huge = b'{"format": "banker-snapshot", "pad": "' + b"x" * (5 * 1024 * 1024) + b'"}'
    r = client.post("/api/v1/games/import", data=huge, content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "snapshot_too_large"
    assert game.now() == before
    assert games_in(db_path) == games


def test_forms_posted_from_another_site_are_refused_and_change_nothing(client, game, db_path):
    client.get(f"/games/{game.id}?token={game.banker_token}")  # the Banker's cookie
    before = game.now()
    games = games_in(db_path)
    evil = {"Origin": "http://evil.example"}
    r = client.post("/games", data={"name": ["Ann", "Bob"]}, headers=evil)
    assert r.status_code == 403
    r = client.post(
        f"/games/{game.id}/act",
        data={"type": "adjust", "player": "p1", "amount": "100", "reason": "gift"},
        headers={"Referer": "http://evil.example/page"},
    )
    assert r.status_code == 403
    r = client.post("/resume", data={}, headers={"Origin": "null"})
    assert r.status_code == 403
    assert game.now() == before
    assert games_in(db_path) == games
