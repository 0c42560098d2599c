"""Fixtures for the store and API tests: an app on a temporary database and a small client."""

from __future__ import annotations

import pytest

from banker.web import create_app, get_store


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "banker.db"


@pytest.fixture
def app(db_path):
    app = create_app({"TESTING": True, "DATABASE": str(db_path)})
    yield app
    app.extensions["banker.store"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def store(app):
    with app.app_context():
        yield get_store()


class Game:
    """One created game, seen through the API: its tokens and shortcuts to its endpoints."""

    def __init__(self, client, created: dict):
        self.client = client
        self.created = created
        self.id = created["game_id"]
        self.banker_token = created["banker_token"]
        self.tokens = {p["id"]: p["token"] for p in created["players"]}

    def auth(self, token: str | None = None) -> dict:
        return {"Authorization": f"Bearer {token or self.banker_token}"}

    def post(self, command, token: str | None = None, headers: dict | None = None, **kw):
        """POST a command (a dict sent as JSON, or raw `data=`) with the banker token."""
        headers = {**self.auth(token), **(headers or {})}
        if "data" in kw:
            return self.client.post(f"/api/v1/games/{self.id}/commands", headers=headers, **kw)
        return self.client.post(f"/api/v1/games/{self.id}/commands", headers=headers, json=command)

    def ok(self, command, **kw) -> dict:
        """POST a command that must be accepted; its answer."""
        r = self.post(command, **kw)
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def state(self) -> dict:
        r = self.client.get(f"/api/v1/games/{self.id}", headers=self.auth())
        assert r.status_code == 200
        return r.get_json()

    def events(self) -> list[dict]:
        r = self.client.get(f"/api/v1/games/{self.id}/events", headers=self.auth())
        assert r.status_code == 200
        return r.get_json()

    def snapshot(self) -> tuple[dict, list[dict]]:
        """State and events, to compare before and after a refused request."""
        return self.state(), self.events()


@pytest.fixture
def new_game(client):
    """Create a game through the API: new_game(["Ann", "Bob"], options={...}) -> Game."""

    def make(players=("Ann", "Bob"), edition="g0009", **body) -> Game:
        r = client.post(
            "/api/v1/games", json={"edition": edition, "players": list(players), **body}
        )
        assert r.status_code == 201, r.get_json()
        return Game(client, r.get_json())

    return make


@pytest.fixture
def game(new_game) -> Game:
    """Ann and Bob, started: Ann rolls first."""
    g = new_game()
    g.ok({"type": "start", "first": "p1"})
    return g
