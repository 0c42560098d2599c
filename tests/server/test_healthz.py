"""`GET /healthz`, for monitors and the proxy (docs/api.md, docs/hosting.md): 200
{"ok": true, "version"} while the database answers, 503 as soon as it does not, 200 again once
it is back, on a real `banker serve`, directly and under a --public-url path."""

from __future__ import annotations

import banker
from tests.serving import free_port, request, serving


def test_healthz_is_200_while_the_database_answers_and_503_when_it_does_not(tmp_path):
    db = tmp_path / "b.db"
    with serving(db) as server:
        r = request(f"{server.url}/healthz")
        assert (r.status_code, r.get_json()) == (200, {"ok": True, "version": banker.__version__})
        assert r.header("Cache-Control") == "no-store"
        db.rename(tmp_path / "moved.db")  # the file taken away underneath the server
        try:
            r = request(f"{server.url}/healthz")
            assert r.status_code == 503 and r.header("Retry-After") == "5"
            assert r.get_json()["ok"] is False
            assert r.get_json()["version"] == banker.__version__
            assert "The health check found the database failing: unable to open database file" in (
                server.output()
            )
        finally:
            (tmp_path / "moved.db").rename(db)
        assert request(f"{server.url}/healthz").status_code == 200


def test_healthz_answers_under_the_public_urls_path_and_at_the_root(tmp_path):
    public = ("--public-url", "https://example.com/monopoly")
    with serving(tmp_path / "b.db", *public, port=free_port()) as server:
        for path in ("/monopoly/healthz", "/healthz"):
            r = request(f"{server.url}{path}")
            assert (r.status_code, r.get_json()["ok"]) == (200, True), path
