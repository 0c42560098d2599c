"""The JSON API as tables for `Game` (tests/game.py): the app through Flask's test client
(`FlaskTable`), or a real `banker serve` over HTTP (`HttpTable`).

Nothing here imports banker: the black-box acceptance suite plays through `HttpTable`.
"""

from __future__ import annotations

import json

from tests.serving import request

API = "/api/v1"


class FlaskTable:
    """The app through its Flask test client; replies are the client's responses."""

    def __init__(self, client):
        self.client = client

    def create(self, names, edition, options) -> dict:
        body = {"edition": edition, "players": names}
        if options is not None:
            body["options"] = options
        r = self.client.post(f"{API}/games", json=body)
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def send(self, game, command, token=None, headers=None, raw=None):
        headers = {**game.auth(token), **(headers or {})}
        url = f"{API}/games/{game.id}/commands"
        if raw is None:
            return self.client.post(url, headers=headers, json=command)
        headers.setdefault("Content-Type", "application/json")
        return self.client.post(url, headers=headers, data=raw)

    def get(self, game, path="", token=None):
        return self.client.get(f"{API}/games/{game.id}{path}", headers=game.auth(token))

    def state(self, game) -> dict:
        return game.read()

    def history(self, game, token=None) -> list[dict]:
        return game.read("/events", token)


class HttpTable:
    """A running `banker serve` at `url` (http://127.0.0.1:PORT), one connection per request.
    `texts`: a list that collects every accepted command's event texts."""

    def __init__(self, url: str, texts: list[str] | None = None):
        self.url = url.rstrip("/")
        self.texts = texts

    def reply(self, method, path, body=None, token=None, headers=None, raw=None):
        """Any request to the server: its reply (see serving.Reply)."""
        return request(self.url + path, method, body, token, headers, raw, timeout=15)

    def request(self, method, path, body=None, token=None, headers=None, raw=None):
        """Any request to the server: (status, body parsed as JSON else its text, content type)."""
        r = self.reply(method, path, body, token, headers, raw)
        text = r.data.decode("utf-8", "replace")
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = text
        return r.status_code, parsed, r.content_type

    def create(self, names, edition, options) -> dict:
        body = {"edition": edition, "players": names}
        if options is not None:
            body["options"] = options
        r = self.reply("POST", f"{API}/games", body)
        assert r.status_code == 201, (r.status_code, r.get_json())
        return r.get_json()

    def send(self, game, command, token=None, headers=None, raw=None):
        path = f"{API}/games/{game.id}/commands"
        r = self.reply("POST", path, command, token or game.banker_token, headers, raw)
        if r.status_code == 200 and self.texts is not None:
            self.texts += [e["text"] for e in r.get_json()["events"]]
        return r

    def get(self, game, path="", token=None):
        return self.reply("GET", f"{API}/games/{game.id}{path}", token=token or game.banker_token)

    def state(self, game) -> dict:
        return game.read()

    def history(self, game, token=None) -> list[dict]:
        return game.read("/events", token)


CREATED_FIELDS = ["game_id", "banker_token", "banker_url", "display_url", "players", "state"]
"""The fields of a 201 answer to a new game or an import, in order."""
