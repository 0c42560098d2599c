"""Checks every HTML blueprint makes before it acts on a form."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, request

CROSS_SITE = "This form was sent from another site, so nothing was done."


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def own_origins() -> set[str]:
    """The origins this server's pages are served from: the one the request names (behind
    --public-url, the public URL's), and the address it really came to (a LAN phone)."""
    origins = {f"{request.scheme}://{request.host}".lower()}
    public = current_app.config.get("PUBLIC_URL")
    if public:
        origins.add(_origin(public))
    direct = request.environ.get("banker.direct_host")
    # Asked at its own address (not the public host a proxy passes on): that address's origin.
    if direct and (not public or direct.lower() != urlsplit(public).netloc.lower()):
        scheme = request.environ.get("banker.direct_scheme", "http")
        origins.add(f"{scheme}://{direct}".lower())
    return origins


def is_cross_site_post() -> bool:
    """A POST that a browser sent from another site's page (CSRF): its Origin or Referer names
    another origin than this server's. Requests with neither header are not a browser's
    cross-site form; the SameSite=Strict cookies and the secret tokens guard them."""
    if request.method != "POST":
        return False
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if source is None:
        return False
    if source == "null":
        # Under Referrer-Policy: no-referrer a browser's plain form POST says "Origin: null"
        # even on its own site; Sec-Fetch-Site (set by the browser, never by a page) tells.
        return request.headers.get("Sec-Fetch-Site") != "same-origin"
    return _origin(source) not in own_origins()
