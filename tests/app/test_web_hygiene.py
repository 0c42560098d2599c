"""Web hygiene: no inline style or script anywhere, so the Content-Security-Policy
can be `default-src 'self'`; compression, caching and security headers on every answer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))

INLINE = {
    "a style attribute": re.compile(r"""\sstyle\s*=""", re.I),
    "a <style> block": re.compile(r"<style\b", re.I),
    "an inline <script> body": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I),
    "an on… handler": re.compile(r"""\son[a-z]+\s*=\s*["']""", re.I),
    "an hx-on handler": re.compile(r"""\shx-on[:-]""", re.I),
}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_carries_inline_style_or_script(template):
    text = template.read_text()
    found = [what for what, pattern in INLINE.items() if pattern.search(text)]
    assert found == [], f"{template.name} has {', '.join(found)}"


# -- headers and compression on every kind of answer -----------------------------------------

import gzip  # noqa: E402

from banker.web.common.hygiene import CSP, GZIP_FROM  # noqa: E402

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def started(client, new_game):
    """A game with Ann to roll, the client holding its Banker cookie."""
    g = new_game(["Ann", "Bob"])
    g.do({"type": "start", "first": "p1"})
    assert client.get(f"/games/{g.id}?token={g.banker_token}").status_code == 303
    return g


def answers(client, g) -> dict:
    """One answer of every kind the server gives, asked for with gzip accepted."""
    player = g.tokens["p1"]
    with client.get("/static/site.css", headers=GZIP) as css:
        css.get_data()
    with client.get("/static/htmx-2.0.11.min.js", headers=GZIP) as js:
        js.get_data()
    return {
        "page": client.get(f"/games/{g.id}", headers=GZIP),
        "htmx fragment": client.get(f"/games/{g.id}", headers={**GZIP, "HX-Request": "true"}),
        "player page": client.get(f"/join/{player}", headers=GZIP),
        "home": client.get("/", headers=GZIP),
        "json": client.get(f"/api/v1/games/{g.id}", headers={**GZIP, **g.auth()}),
        "json error": client.get("/api/v1/games/nope", headers={**GZIP, **g.auth()}),
        "openapi": client.get("/api/v1/openapi.json", headers=GZIP),
        "css": css,
        "js": js,
        "html 404": client.get("/no/such/page", headers=GZIP),
        "redirect": client.get(f"/games/{g.id}?token={g.banker_token}", headers=GZIP),
        "idle poll 204": client.get(f"/join/{player}/version?v=1", headers=GZIP),
    }


def test_every_answer_carries_the_security_headers(client, new_game):
    g = started(client, new_game)
    for kind, r in answers(client, g).items():
        assert r.headers["Content-Security-Policy"] == CSP, kind
        assert r.headers["X-Content-Type-Options"] == "nosniff", kind
        assert r.headers["Referrer-Policy"] == "no-referrer", kind
    assert "default-src 'self'" in CSP and "frame-ancestors 'none'" in CSP
    assert "style-src 'self';" in CSP and "script-src 'self';" in CSP
    assert "unsafe-inline" not in CSP and "unsafe-eval" not in CSP


def test_every_answer_with_a_body_is_gzipped_when_the_client_accepts_it(client, new_game):
    g = started(client, new_game)
    # (A page's forms carry fresh one-time keys: only the JSON is the same bytes twice.)
    plain = {"json": client.get(f"/api/v1/games/{g.id}", headers=g.auth()).get_data()}
    for kind, r in answers(client, g).items():
        if kind in ("redirect", "idle poll 204"):
            assert r.status_code in (303, 204), kind
            continue
        assert "Accept-Encoding" in r.headers["Vary"], kind
        if "Content-Encoding" not in r.headers:  # a body under GZIP_FROM bytes goes as it is
            assert len(r.get_data()) < GZIP_FROM, kind
            continue
        assert r.headers["Content-Encoding"] == "gzip", kind
        body = gzip.decompress(r.get_data())
        assert int(r.headers["Content-Length"]) == len(r.get_data()), kind
        if kind in plain:
            assert body == plain[kind], kind
    # Without Accept-Encoding (or with gzip;q=0) the body comes plain.
    for headers in ({}, {"Accept-Encoding": "gzip;q=0, identity"}):
        r = client.get(f"/api/v1/games/{g.id}", headers={**headers, **g.auth()})
        assert "Content-Encoding" not in r.headers
        assert r.get_json()["version"] == 1


def test_the_tables_first_load_is_small_on_the_wire(client, new_game):
    """87 KB on the wire before gzip, against about 25 KB gzipped."""
    g = started(client, new_game)
    sizes = {kind: len(r.get_data()) for kind, r in answers(client, g).items()}
    assert sizes["page"] + sizes["css"] + sizes["js"] < 30_000, sizes


def test_static_files_are_versioned_and_kept_long_the_rest_revalidated(client, new_game):
    g = started(client, new_game)
    html = client.get(f"/games/{g.id}").get_data(as_text=True)
    css_url = re.search(r'href="(/static/site\.css\?v=\w+)"', html).group(1)
    assert 'src="/static/htmx-2.0.11.min.js"' in html  # versioned by its name
    for url in (css_url, "/static/htmx-2.0.11.min.js"):
        with client.get(url) as r:
            assert r.status_code == 200
            assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable", url
    # Without its version (or with a stale one) the browser must ask again: 304 while unchanged.
    for url in ("/static/site.css", "/static/site.css?v=0ld"):
        with client.get(url, headers=GZIP) as r:
            assert r.headers["Cache-Control"] == "public, max-age=0, must-revalidate"
            etag = r.headers["ETag"]
        assert etag.startswith('W/"')  # gzipped bytes: a weak validator
        with client.get(url, headers={**GZIP, "If-None-Match": etag}) as again:
            assert again.status_code == 304
    # Pages and JSON are never cached by a shared cache.
    assert "no-store" in client.get(f"/join/{g.tokens['p1']}").headers["Cache-Control"]


def test_every_page_links_a_manifest_with_icons_and_a_theme_colour_and_a_favicon(client, new_game):
    g = started(client, new_game)
    html = client.get(f"/join/{g.tokens['p1']}").get_data(as_text=True)
    link = re.search(r'<link rel="manifest" href="([^"]+)">', html).group(1)
    assert link == f"/manifest.webmanifest?start=/join/{g.tokens['p1']}"
    r = client.get(link)
    assert r.mimetype == "application/manifest+json"
    manifest = r.get_json()
    assert manifest["start_url"] == f"/join/{g.tokens['p1']}" and manifest["scope"] == "/"
    assert manifest["display"] == "fullscreen" and manifest["theme_color"] == "#0b6b3a"
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as png:
            data = png.get_data()
        assert png.status_code == 200 and data[:8] == b"\x89PNG\r\n\x1a\n", icon
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert icon["sizes"] == f"{width}x{height}"
    # Only paths of this site start the app.
    for start in ("https://evil.example/", "//evil.example/", "javascript:alert(1)"):
        assert (
            client.get("/manifest.webmanifest", query_string={"start": start}).get_json()[
                "start_url"
            ]
            == "/"
        )
    with client.get("/favicon.ico") as ico:
        assert ico.status_code == 200 and ico.get_data()[:4] == b"\x00\x00\x01\x00"
    assert '<meta name="theme-color" content="#0b6b3a"' in html
    assert 'rel="apple-touch-icon"' in html
