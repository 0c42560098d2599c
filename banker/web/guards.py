"""Checks every HTML blueprint makes before it acts on a form."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import request

CROSS_SITE = "This form was sent from another site, so nothing was done."


def is_cross_site_post() -> bool:
    """A POST that a browser sent from another site's page (CSRF): its Origin or Referer names
    another host. Requests with neither header are not a browser's cross-site form; the
    SameSite=Strict cookies and the secret tokens guard them."""
    if request.method != "POST":
        return False
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if source is None:
        return False
    return source == "null" or urlsplit(source).netloc.lower() != request.host.lower()
