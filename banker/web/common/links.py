"""Links another phone can open: absolute URLs on the public address, and each seat's link."""

from __future__ import annotations

import functools
import ipaddress
from urllib.parse import urlsplit

from flask import current_app, has_request_context, request, url_for

BUILT_KEPT = 8192  # links kept by install_kept_links (each app)


def _is_loopback(host: str) -> bool:
    name = urlsplit("//" + host).hostname or ""
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def public_url_for(endpoint: str, **values) -> str:
    """An absolute URL that another phone can open.

    Built on config PUBLIC_URL when set (a reverse proxy, another name); else on the request's
    host, except that a loopback host (the Banker browsing on the laptop itself) is replaced by
    config LAN_URL, the address `banker serve` found on the local network.
    """
    config = current_app.config
    base = config.get("PUBLIC_URL")
    if not base and config.get("LAN_URL") and _is_loopback(request.host):
        base = config["LAN_URL"]
    if not base:
        return url_for(endpoint, _external=True, **values)
    path = url_for(endpoint, **values)
    root = request.script_root
    if root and path.startswith(root):
        path = path[len(root) :]
    return base.rstrip("/") + path


def seat_url(game_id: str, seat: str, token: str) -> str:
    """The link that opens a seat's page with its token: the Banker's table (banker_url), the
    big screen (display_url) or a player's page (join_url)."""
    if seat == "banker":
        return public_url_for("table.game", game_id=game_id, token=token)
    if seat == "display":
        return public_url_for("display.show", token=token)
    return public_url_for("player.join", token=token)


def keep_private(response):
    """An answer that names a player or carries a token in its links: no shared cache may keep
    it, and no Referer carries its address on."""
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def install_kept_links(app) -> None:
    """The templates' `url_for` builds each link once and keeps it (a view draws the same few
    dozen links at every version: building them was a tenth of rendering a change). A link
    depends on its endpoint and values and on the request's address (path prefix, host, scheme,
    the blueprint a relative endpoint names), all in the key; a value that cannot be a key
    (none of banker's) is built each time."""
    build = app.url_for

    @functools.lru_cache(maxsize=BUILT_KEPT)
    def built(endpoint: str, values: tuple, _where: tuple) -> str:
        return build(endpoint, **dict(values))

    def kept_url_for(endpoint: str, **values) -> str:
        if not has_request_context():
            return build(endpoint, **values)
        environ = request.environ
        where = (
            environ.get("SCRIPT_NAME", ""),
            environ.get("HTTP_HOST"),
            environ.get("SERVER_NAME"),
            environ.get("SERVER_PORT"),
            environ.get("wsgi.url_scheme"),
            request.blueprint if endpoint.startswith(".") else None,
        )
        try:
            return built(endpoint, tuple(sorted(values.items())), where)
        except TypeError:  # a value that is not hashable
            return build(endpoint, **values)

    app.jinja_env.globals["url_for"] = kept_url_for
