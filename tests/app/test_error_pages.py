"""Every HTTP error a page's address meets is answered with the app's own error page (404, 405,
413, 500), JSON under /api; a database that fails during a request is a 503 with that page (or
`database_unavailable`), logged for the host, never a bare 500."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from banker.web.common import guards

PAGE = "text/html"


def page_says(r, status: int, heading: str, sentence: str) -> None:
    assert r.status_code == status
    assert r.mimetype == PAGE
    html = r.get_data(as_text=True)
    assert f"<h1>{heading}</h1>" in html
    assert f'<p id="message" class="error" role="alert">{sentence}</p>' in html.replace(
        "&#39;", "'"
    )
    assert 'href="/static/site.css' in html  # the app's own page, with its style
    assert "Werkzeug" not in html and "<title>404 Not Found</title>" not in html


def test_an_unknown_address_is_the_apps_not_found_page(client):
    page_says(client.get("/no/such/page"), 404, "Not found", guards.HTTP_ERRORS[404])
    r = client.get("/api/v1/no/such/thing")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found"


def test_a_wrong_method_is_the_apps_page_with_its_allow_header(client):
    r = client.delete("/")
    page_says(r, 405, "Cannot do that", guards.HTTP_ERRORS[405])
    assert set(r.headers["Allow"].split(", ")) >= {"GET", "HEAD"}
    r = client.delete("/api/v1/games")
    assert (r.status_code, r.get_json()["error"]["code"]) == (405, "method_not_allowed")


def test_a_body_too_large_is_the_apps_page(client):
    r = client.post("/games", data={"edition": "g0009", "name": "A" * (2 * 1024 * 1024)})
    page_says(r, 413, "Too large", guards.HTTP_ERRORS[413])


def test_a_failure_in_a_view_is_the_apps_page_and_is_logged(app, client, caplog):
    app.config["PROPAGATE_EXCEPTIONS"] = False

    def broken():
        raise RuntimeError("a bug")

    app.add_url_rule("/broken", "broken", broken)
    app.add_url_rule("/api/v1/broken", "api_broken", broken)
    with caplog.at_level(logging.ERROR):
        page_says(client.get("/broken"), 500, "Something went wrong", guards.HTTP_ERRORS[500])
    assert "a bug" in caplog.text
    r = client.get("/api/v1/broken")
    assert (r.status_code, r.get_json()["error"]["code"]) == (500, "internal_error")


@pytest.fixture
def failing_database(app, game, monkeypatch):
    """The game's database fails from now on (SQLite: damaged)."""
    store = app.extensions["banker.store"]

    def damaged(*args, **kwargs):
        raise sqlite3.DatabaseError("database disk image is malformed")

    for name in ("list_games", "known_games", "create_game"):
        monkeypatch.setattr(store, name, damaged)
    monkeypatch.setattr(store.games, "get", damaged)
    return game


def test_a_database_that_fails_during_a_request_is_a_503_logged(failing_database, client, caplog):
    game = failing_database
    with caplog.at_level(logging.ERROR):
        r = client.get(f"/api/v1/games/{game.id}", headers=game.auth())
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert r.get_json() == {
        "error": {"code": "database_unavailable", "message": guards.DATABASE_UNAVAILABLE}
    }
    assert f"The database failed on GET /api/v1/games/{game.id}: database disk image" in (
        caplog.text
    )
    r = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
    assert (r.status_code, r.get_json()["error"]["code"]) == (503, "database_unavailable")
    page_says(
        client.get(f"/games/{game.id}"), 503, "Not available now", guards.DATABASE_UNAVAILABLE
    )
    page_says(client.get("/"), 503, "Not available now", guards.DATABASE_UNAVAILABLE)
