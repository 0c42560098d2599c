"""Checks every HTML blueprint makes before it acts on a form, and the page of a refusal.

`install(app)` registers the cross-site check once for the whole app: every POST but the JSON
API's (which is authorized by its Bearer token, not by a browser's cookie) is refused with the
error page when a browser sent it from another site's page."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from flask import current_app, make_response, render_template, request
from werkzeug.exceptions import HTTPException

CROSS_SITE = "This form was sent from another site, so nothing was done."
# The sentence of the error page of each HTTP error a page's address may meet (the API answers
# them in JSON); another status says Werkzeug's own description.
HTTP_ERRORS = {
    400: "The server could not read this request, so nothing was done.",
    404: "There is no page at this address: check the link, or start again from the home page.",
    405: "This address does not take that kind of request, so nothing was done.",
    413: "What was sent is too large for the server, so nothing was done.",
    500: "The server failed on this request, so nothing was done: try again, and if it happens "
    "again the host will find why in the server's log.",
}
DATABASE_UNAVAILABLE = (
    "The server cannot use its database just now, so nothing was done: try again in a moment, "
    "and if it goes on the host will find why in the server's log."
)
log = logging.getLogger("banker.web")


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
    """A POST that a browser sent from another site's page (CSRF).

    Its Origin, when it names one, must be this server's (behind --public-url, the public
    URL's). Pages say `Referrer-Policy: no-referrer`, under which browsers send `Origin: null`
    for a plain form post: then the browser's own `Sec-Fetch-Site` decides (same-origin, or
    none for the user's own typing). A bare null, or a Referer naming another origin, is
    refused. Requests with none of these headers are not a browser's cross-site form; the
    SameSite=Strict cookies and the secret tokens guard them."""
    if request.method != "POST":
        return False
    origin = request.headers.get("Origin")
    if origin and origin != "null":
        return _origin(origin) not in own_origins()
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site:
        return fetch_site not in ("same-origin", "none")
    if origin == "null":
        return True
    referer = request.headers.get("Referer")
    return referer is not None and _origin(referer) not in own_origins()


def wants_fragment() -> bool:
    """Whether htmx asks for a fragment to swap in (not for a boosted link's or a history
    restore's whole page): the same test for every page that answers both ways."""
    htmx = request.htmx
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def error_page(status: int, message: str, **shown):
    """The one error page (templates/error.html): (html, status). `shown` may set its heading,
    title, and home=False (no link home)."""
    return render_template("error.html", status=status, message=message, **shown), status


def http_error_page(e: HTTPException):
    """The error page of an HTTP error (404, 405, 413, 500…) met by a page's address."""
    status = e.code or 500
    response = make_response(*error_page(status, HTTP_ERRORS.get(status) or e.description))
    for name, value in e.get_headers():
        if name.lower() in ("allow", "retry-after"):
            response.headers[name] = value
    return response


def _what_the_browser_said() -> str:
    """Which header told that a form came from another site, with its value."""
    origin = request.headers.get("Origin")
    if origin and origin != "null":
        return f"its Origin is {_origin(origin)}"
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site:
        return f"the browser says Sec-Fetch-Site: {fetch_site}"
    if origin == "null":
        return "its Origin is null"
    return f"its Referer is on {_origin(request.headers.get('Referer', ''))}"


def _refuse_cross_site_posts():
    """A form posted from another site is refused before anything is read or done, and the
    host is told why in the log (a proxy without --public-url makes every form look so)."""
    if request.blueprint != "api" and is_cross_site_post():
        public = current_app.config.get("PUBLIC_URL")
        hint = (
            f"check that --public-url ({public}) is the address the phones use"
            if public
            else "behind a reverse proxy or another host name, start banker serve with "
            "--public-url set to the address the phones use"
        )
        log.warning(
            "Refused a form posted to %s as sent from another site: %s, and this server's "
            "origin is %s. If the form came from banker's own pages, %s.",
            request.path, _what_the_browser_said(), " or ".join(sorted(own_origins())), hint,
        )  # fmt: skip
        return error_page(403, CROSS_SITE)
    return None


def install(app) -> None:
    """Register the cross-site check on the app (after the limits: their order as before)."""
    app.before_request(_refuse_cross_site_posts)
