"""POST bodies under /api/v1 must be sent as application/json, else 415 (docs/api.md)."""

from __future__ import annotations

import json

import pytest

UNSUPPORTED = {
    "error": {
        "code": "unsupported_media_type",
        "message": "Send the body as JSON with the header Content-Type: application/json.",
    }
}


def count_games(store) -> int:
    return store.database.connection().execute("select count(*) from games").fetchone()[0]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_creating_or_importing_a_game_needs_a_json_body(client, store, content_type):
    body = json.dumps({"players": ["Ann", "Bob"]})
    headers = {"Content-Type": content_type} if content_type else {}
    for path in ("/api/v1/games", "/api/v1/games/import"):
        r = client.post(path, data=body, headers=headers)
        assert r.status_code == 415
        assert r.get_json() == UNSUPPORTED
    assert count_games(store) == 0


def test_a_charset_parameter_is_allowed(client):
    r = client.post(
        "/api/v1/games",
        data=json.dumps({"players": ["Ann", "Bob"]}),
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert r.status_code == 201


def test_commands_and_new_links_need_a_json_body(game):
    before = game.now()
    body = json.dumps({"type": "roll", "player": "p1", "dice": [1, 2]})
    r = game.send(raw=body, headers={"Content-Type": "text/plain"})
    assert (r.status_code, r.get_json()) == (415, UNSUPPORTED)
    r = game.table.client.post(
        f"/api/v1/games/{game.id}/tokens",
        data=json.dumps({"for": "p1"}),
        headers={**game.auth(), "Content-Type": "text/plain"},
    )
    assert (r.status_code, r.get_json()) == (415, UNSUPPORTED)
    assert game.now() == before
    r = game.table.client.get(f"/api/v1/games/{game.id}", headers=game.auth(game.tokens["p1"]))
    assert r.status_code == 200  # Ann's token was not replaced
