"""Who is asking (banker.web.common.seats): where each kind of page takes the banker token from.

The Banker's own pages and the Banker's story read the game's cookie only; the pause page
(and the Join panel) take it anywhere a browser or a program carries it; the JSON API reads
the Bearer header. Each answer names what is wrong.
"""

from __future__ import annotations

import pytest

NEW_GAME = {"edition": "g0009", "players": ["Ann", "Bob"]}


@pytest.fixture
def made(client):
    r = client.post("/api/v1/games", json=NEW_GAME)
    assert r.status_code == 201
    created = r.get_json()
    return created["game_id"], created["banker_token"]


def test_the_bankers_story_is_read_with_the_games_cookie_only(client, made):
    game_id, token = made
    story = f"/games/{game_id}/story"
    assert client.get(f"{story}?token={token}").status_code == 403
    assert client.get(story, headers={"Authorization": f"Bearer {token}"}).status_code == 403
    client.set_cookie(f"banker_{game_id}", token)
    assert client.get(story).status_code == 200
    assert client.get("/games/nope/story").status_code == 404


def test_the_pause_page_takes_the_banker_token_from_the_link_or_a_bearer_header(client, made):
    game_id, token = made
    pause = f"/games/{game_id}/pause"
    assert client.get(pause).status_code == 403
    assert client.get(f"{pause}?token=wrong").status_code == 403
    assert client.get(f"{pause}?token={token}").status_code == 200
    assert client.get(pause, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert client.get(pause, headers={"Authorization": f"Basic {token}"}).status_code == 403


def test_a_cookie_of_an_older_banker_link_says_the_seat_moved_and_reloads_a_polling_page(
    client, made
):
    game_id, old = made
    r = client.post(
        f"/api/v1/games/{game_id}/tokens",
        headers={"Authorization": f"Bearer {old}"},
        json={"for": "banker"},
    )
    assert r.status_code == 201
    client.set_cookie(f"banker_{game_id}", old)
    for path in (f"/games/{game_id}/story", f"/games/{game_id}/board"):
        r = client.get(path)
        assert (r.status_code, r.headers.get("HX-Refresh")) == (403, "true")
        assert "This phone is no longer the Banker of this game" in r.get_data(as_text=True)


def test_the_api_asks_for_a_bearer_token_in_words(client, made):
    game_id, token = made
    for headers in ({}, {"Authorization": "Bearer  "}, {"Authorization": f"Basic {token}"}):
        r = client.get(f"/api/v1/games/{game_id}", headers=headers)
        assert r.status_code == 401
        assert r.headers["WWW-Authenticate"] == "Bearer"
        assert r.get_json()["error"] == {
            "code": "token_missing",
            "message": "This needs a token: send the header Authorization: Bearer <token>.",
        }
    r = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"bearer {token}"})
    assert r.status_code == 200
