"""Behind a reverse proxy under a path (--public-url https://example.com/monopoly): every
cookie stays under that path, and a form refused as cross-site tells the host why in the log."""

from __future__ import annotations

import logging

import pytest
from werkzeug.datastructures import MultiDict

from banker.web import create_app

PUBLIC = "https://banker.example/monopoly"
NEW_GAME = MultiDict([("edition", "g0009"), ("name", "Ann"), ("name", "Bob")])
NGINX = {"Host": "127.0.0.1:8000", "X-Forwarded-Proto": "https", "Origin": "https://banker.example"}


def make(tmp_path, public):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "b.db")}
    app = create_app({**config, "PUBLIC_URL": public} if public else config)
    return app


@pytest.fixture
def proxied(tmp_path):
    app = make(tmp_path, PUBLIC)
    yield app.test_client()
    app.extensions["banker.store"].close()


def paths(response) -> dict[str, str]:
    """Each cookie set: its name and its Path."""
    found = {}
    for cookie in response.headers.getlist("Set-Cookie"):
        name = cookie.partition("=")[0]
        found[name] = next(p[5:] for p in cookie.split("; ") if p.startswith("Path="))
    return found


def test_every_cookie_is_scoped_to_the_public_urls_path(proxied):
    r = proxied.post("/monopoly/games", data=NEW_GAME, headers=NGINX)
    assert r.status_code == 303
    game_id = r.location.rsplit("/", 1)[1].partition("?")[0]
    assert paths(r) == {
        f"banker_{game_id}": f"/monopoly/games/{game_id}",
        "banker_games": "/monopoly",
    }
    r = proxied.get(f"/monopoly/api/v1/games/{game_id}/players", headers=NGINX)
    join = proxied.get("/monopoly/", headers=NGINX)  # the home page (no cookie on a GET)
    assert "banker_games" not in paths(join)
    store_game = proxied.application.extensions["banker.store"]
    token = store_game.players(game_id)[0]["token"]
    r = proxied.get(f"/monopoly/join/{token}", headers=NGINX)
    assert r.status_code == 200
    assert paths(r) == {"banker_joined": "/monopoly"}


def test_without_a_public_path_the_cookies_are_the_whole_sites(tmp_path):
    app = make(tmp_path, None)
    r = app.test_client().post("/games", data=NEW_GAME)
    assert paths(r)["banker_games"] == "/"
    app.extensions["banker.store"].close()


def test_a_form_refused_as_cross_site_is_logged_naming_both_origins_and_the_hint(tmp_path, caplog):
    app = make(tmp_path, None)
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="banker.web"):
        r = client.post("/games", data=NEW_GAME, headers={"Origin": "https://banker.example"})
    assert r.status_code == 403
    assert caplog.messages == [
        "Refused a form posted to /games as sent from another site: its Origin is "
        "https://banker.example, and this server's origin is http://localhost. If the form "
        "came from banker's own pages, behind a reverse proxy or another host name, start "
        "banker serve with --public-url set to the address the phones use."
    ]
    app.extensions["banker.store"].close()


def test_with_a_public_url_the_log_line_names_it(proxied, caplog):
    with caplog.at_level(logging.WARNING, logger="banker.web"):
        r = proxied.post("/monopoly/games", data=NEW_GAME,
                         headers={**NGINX, "Origin": "https://other.example"})  # fmt: skip
    assert r.status_code == 403
    (line,) = caplog.messages
    assert line.startswith(
        "Refused a form posted to /games as sent from another site: its Origin is "
        "https://other.example, and this server's origin is http://127.0.0.1:8000 or "
        "https://banker.example."
    )
    assert line.endswith(f"check that --public-url ({PUBLIC}) is the address the phones use.")
