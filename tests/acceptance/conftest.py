"""Black-box acceptance fixtures: the real `banker serve` as a subprocess, spoken to over HTTP.

Nothing here imports banker: the tests see only what an external client sees, and judge it by
the project's API documentation (docs/api.md) and the rule texts.
"""

from __future__ import annotations

import http.client
import json

import pytest
from serving import serving


class Http:
    """JSON over http.client, one fresh connection per request."""

    def __init__(self, port: int):
        self.port = port

    def request(self, method, path, body=None, token=None, headers=None, raw=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        hdrs = dict(headers or {})
        data = None
        if raw is not None:
            data = raw if isinstance(raw, bytes) else raw.encode()
            hdrs.setdefault("Content-Type", "application/json")
        elif body is not None:
            data = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        if token is not None:
            hdrs["Authorization"] = f"Bearer {token}"
        try:
            conn.request(method, path, body=data, headers=hdrs)
            resp = conn.getresponse()
            text = resp.read().decode("utf-8", "replace")
            ctype = resp.getheader("Content-Type", "")
        finally:
            conn.close()
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = text
        return resp.status, parsed, ctype


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("acceptance")
    with serving(tmp / "banker.db") as running:
        yield Http(int(running.url.rsplit(":", 1)[1]))


@pytest.fixture(name="http")
def http_fixture(server):
    """The server, as each test names it (named apart from the http module used above)."""
    return server
