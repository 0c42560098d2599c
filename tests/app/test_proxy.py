"""Behind a reverse proxy (docs/hosting.md): with --public-url the server takes the
public URL's scheme, host and path for its links, redirects and cookies, and its cross-site
check compares Origin with the public URL's origin. Requests here carry exactly the headers the
documented Caddy and nginx configurations send."""

from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from banker.web import create_app

PUBLIC = "https://banker.example/monopoly"
NEW_GAME = MultiDict([("edition", "g0009"), ("name", "Ann"), ("name", "Bob")])
# Caddy's reverse_proxy keeps Host and adds X-Forwarded-*; `handle_path /monopoly/*` strips the
# prefix. nginx (as documented) sends its upstream's Host unless told otherwise, and keeps the
# path when proxy_pass has no URI part.
CADDY = {
    "headers": {
        "Host": "banker.example",
        "X-Forwarded-For": "192.0.2.10",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "banker.example",
    },
    "prefix": "",
}
NGINX = {
    "headers": {
        "Host": "127.0.0.1:8000",
        "X-Real-IP": "192.0.2.10",
        "X-Forwarded-For": "192.0.2.10",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "banker.example",
    },
    "prefix": "/monopoly",
}


@pytest.fixture
def proxied(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "b.db"), "PUBLIC_URL": PUBLIC})
    yield app.test_client()
    app.extensions["banker.store"].close()


@pytest.mark.parametrize("proxy", [CADDY, NGINX], ids=["caddy", "nginx"])
def test_behind_a_proxy_a_form_post_from_the_public_page_is_accepted(proxied, proxy):
    """Before: every form POST was refused when the proxy rewrote Host."""
    headers, prefix = proxy["headers"], proxy["prefix"]
    home = proxied.get(f"{prefix}/", headers=headers)
    assert home.status_code == 200
    # The page's own links and form actions are under the public path.
    assert 'action="/monopoly/games"' in home.get_data(as_text=True)
    r = proxied.post(
        f"{prefix}/games",
        data=NEW_GAME,
        headers={**headers, "Origin": "https://banker.example", "Referer": f"{PUBLIC}/"},
    )
    assert r.status_code == 303
    # The redirect and the cookie use the public path; the cookies are Secure.
    game_id = re.fullmatch(r"(?:https://banker\.example)?/monopoly/games/(\w+)(\?.*)?", r.location)
    assert game_id, r.location
    cookies = r.headers.getlist("Set-Cookie")
    assert cookies and all("; Secure" in c for c in cookies), cookies
    assert any(f"Path=/monopoly/games/{game_id.group(1)}" in c for c in cookies), cookies


@pytest.mark.parametrize("proxy", [CADDY, NGINX], ids=["caddy", "nginx"])
def test_behind_a_proxy_a_post_from_another_site_is_still_refused(proxied, proxy):
    headers, prefix = proxy["headers"], proxy["prefix"]
    for other in (
        {"Origin": "https://evil.example"},
        {"Origin": "http://banker.example"},  # not the public URL's scheme: another origin
        {"Referer": "https://evil.example/page"},
        {"Origin": "null"},
    ):
        r = proxied.post(f"{prefix}/games", data=NEW_GAME, headers={**headers, **other})
        assert r.status_code == 403, other
        assert "This form was sent from another site" in r.get_data(as_text=True)
    r = proxied.get(f"{prefix}/api/v1/games", headers=headers)
    assert r.status_code in (404, 405)  # (no list of games in the API)


def test_behind_a_proxy_the_apis_links_use_the_public_url(proxied):
    r = proxied.post("/api/v1/games", json={"players": ["Ann", "Bob"]}, headers=NGINX["headers"])
    assert r.status_code == 201
    body = r.get_json()
    game_id = body["game_id"]
    assert body["banker_url"] == f"{PUBLIC}/games/{game_id}?token={body['banker_token']}"
    assert all(p["join_url"].startswith(f"{PUBLIC}/join/") for p in body["players"])
    assert r.headers["Location"] == f"{PUBLIC}/api/v1/games/{game_id}"


def test_a_phone_on_the_lan_may_still_post_to_the_server_directly(proxied):
    """The same server reached at its own address: the Origin is the address it was asked at."""
    r = proxied.post(
        "/games",
        data=NEW_GAME,
        headers={"Host": "192.168.1.20:8000", "Origin": "http://192.168.1.20:8000"},
    )
    assert r.status_code == 303


def test_a_plain_form_post_under_no_referrer_is_judged_by_sec_fetch_site(proxied):
    """Under `Referrer-Policy: no-referrer` a browser's plain form post says `Origin: null`;
    its Sec-Fetch-Site (set by the browser, not the page) tells same-origin from cross-site."""
    headers = {**CADDY["headers"], "Origin": "null"}
    ok = proxied.post("/games", data=NEW_GAME, headers={**headers, "Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 303
    for site in ("cross-site", "same-site"):
        r = proxied.post("/games", data=NEW_GAME, headers={**headers, "Sec-Fetch-Site": site})
        assert r.status_code == 403, site
    # An Origin naming another site is refused whatever Sec-Fetch-Site claims.
    evil = {**CADDY["headers"], "Origin": "https://evil.example", "Sec-Fetch-Site": "same-origin"}
    assert proxied.post("/games", data=NEW_GAME, headers=evil).status_code == 403
    # A bare null with nothing else is refused.
    assert proxied.post("/games", data=NEW_GAME, headers=headers).status_code == 403
