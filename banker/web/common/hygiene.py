"""What every answer carries, whatever made it (Flask, or the idle-poll layer before it):
security headers, gzip when the client accepts it, and the public URL behind a reverse proxy.

Two WSGI layers, outermost first: `Hygiene` (headers, Secure cookies, gzip) and `PublicURL`
(the scheme, host and path prefix of --public-url, so that links, redirects, cookies and the
cross-site check all see the address the phones use).
"""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path
from urllib.parse import urlsplit

# Only this server's own files: no inline script or style, no framing by another site.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
)
# A smaller body fits one packet as it is: compressing it saves the phone nothing.
GZIP_FROM = 1024
_COMPRESSIBLE = re.compile(
    r"^(text/|application/(json|javascript|manifest\+json|problem\+json|xml)|image/svg\+xml)"
)


def _accepts_gzip(header: str) -> bool:
    """Whether Accept-Encoding allows gzip (present, and not with q=0)."""
    for part in header.lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            q = params.strip()
            return not re.fullmatch(r"q\s*=\s*0(\.0*)?", q)
    return False


class Hygiene:
    """WSGI middleware: security headers on every answer, `Secure` on every cookie when the
    public URL is https, and a gzipped body for text, JSON, CSS, JS and SVG answers when the
    client accepts gzip."""

    def __init__(self, app, secure_cookies: bool = False, level: int = 6):
        self.app, self.secure_cookies, self.level = app, secure_cookies, level

    def __call__(self, environ, start_response):
        wants_gzip = _accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING", ""))
        seen: dict = {}

        def capture(status, headers, exc_info=None):
            seen.update(status=status, headers=headers, exc_info=exc_info)
            return lambda data: seen.setdefault("written", []).append(data)

        body = self.app(environ, capture)  # Flask and the idle-poll layer start at once
        headers = self._headers(seen["headers"], environ)
        status, written = seen["status"], seen.get("written", [])
        kind = _header(headers, "Content-Type") or ""
        compress = (
            _COMPRESSIBLE.match(kind)
            and not _header(headers, "Content-Encoding")
            and status[:3] not in ("204", "206", "304")
            and environ.get("REQUEST_METHOD") != "HEAD"
        )
        if not compress:
            start_response(status, headers, seen["exc_info"])
            return _Chain(written, body)
        try:
            data = b"".join([*written, *body])
        finally:
            if hasattr(body, "close"):
                body.close()
        headers = [(k, v) for k, v in headers if k.lower() != "vary"]
        headers.append(("Vary", _vary(seen["headers"])))
        if wants_gzip and len(data) >= GZIP_FROM:
            data = _gzipped(data, self.level, _header(seen["headers"], "ETag"), environ)
            headers = [(k, v) for k, v in headers if k.lower() not in ("content-length", "etag")]
            headers += [("Content-Encoding", "gzip"), ("Content-Length", str(len(data)))]
            etag = _header(seen["headers"], "ETag")
            if etag:  # the same resource, other bytes: a weak validator still revalidates
                headers.append(("ETag", etag if etag.startswith("W/") else f"W/{etag}"))
        start_response(status, headers, seen["exc_info"])
        return [data]

    def _headers(self, headers: list, environ) -> list:
        out = []
        secure = self.secure_cookies or environ.get("wsgi.url_scheme") == "https"
        for k, v in headers:
            if secure and k.lower() == "set-cookie" and "; secure" not in v.lower():
                v = f"{v}; Secure"
            out.append((k, v))
        present = {k.lower() for k, _ in out}
        out += [(k, v) for k, v in SECURITY_HEADERS if k.lower() not in present]
        return out


class _Chain:
    """Chunks written through start_response's write(), then the body; closes the body."""

    def __init__(self, written: list, body):
        self.written, self.body = written, body

    def __iter__(self):
        yield from self.written
        yield from self.body

    def close(self):
        if hasattr(self.body, "close"):
            self.body.close()


# Static files compressed once, at the highest level, for every later first load (htmx
# alone took 1.5 ms of the server's CPU to compress each time). Their ETag (the file's
# time and size) and length tell a changed file. So are the large answers made once per game
# version (banker.web.common.per_version: a long game's snapshot, its events), whose ETag names
# the game's version: compressing a 3 MB snapshot took 60 ms each time it was asked for.
_GZIPPED: dict[tuple, bytes] = {}
KEEP_GZIPPED_FROM = 64 * 1024
KEEP_GZIPPED_BYTES = 32 * 2**20


def _gzipped(data: bytes, level: int, etag: str | None, environ) -> bytes:
    """`data` gzipped: a static file's, or a large answer's with a strong ETag, from the cache
    (compressed once)."""
    path = environ.get("PATH_INFO", "")
    static = path.startswith("/static/")
    if not etag or not (static or (len(data) >= KEEP_GZIPPED_FROM and etag.startswith('"'))):
        return gzip.compress(data, level, mtime=0)
    key = (environ.get("SCRIPT_NAME", ""), path, etag, len(data))
    out = _GZIPPED.get(key)
    if out is None:
        out = gzip.compress(data, 9 if static else level, mtime=0)
        if len(_GZIPPED) >= 64 or sum(map(len, _GZIPPED.values())) > KEEP_GZIPPED_BYTES:
            _GZIPPED.clear()  # a bound: static files and a few games' answers fit well within
        _GZIPPED[key] = out
    return out


def _header(headers: list, name: str) -> str | None:
    for k, v in headers:
        if k.lower() == name.lower():
            return v
    return None


def _vary(headers: list) -> str:
    names = [v.strip() for k, vs in headers if k.lower() == "vary" for v in vs.split(",")]
    if "accept-encoding" not in {n.lower() for n in names}:
        names.append("Accept-Encoding")
    return ", ".join(n for n in names if n)


class PublicURL:
    """WSGI middleware for --public-url (a reverse proxy, another name): every request is seen
    as made to that URL (its scheme and host; its path as the script root, whether the proxy
    strips it or not), so that links, redirects and cookie paths use it. The Host the request
    really came with is kept as `banker.direct_host` for the cross-site check."""

    def __init__(self, app, public_url: str):
        parts = urlsplit(public_url)
        self.app = app
        self.scheme, self.host = parts.scheme, parts.netloc
        self.prefix = parts.path.rstrip("/")

    def __call__(self, environ, start_response):
        self.seen_at(environ)
        return self.app(environ, start_response)

    def seen_at(self, environ: dict) -> None:
        """The request's environ as if made to the public URL (in place)."""
        environ["banker.direct_host"] = environ.get("HTTP_HOST", "")
        environ["banker.direct_scheme"] = environ.get("wsgi.url_scheme", "http")
        environ["wsgi.url_scheme"] = self.scheme
        environ["HTTP_HOST"] = self.host
        if self.prefix:
            path = environ.get("PATH_INFO", "")
            if path == self.prefix or path.startswith(self.prefix + "/"):
                environ["PATH_INFO"] = path[len(self.prefix) :] or "/"
            environ["SCRIPT_NAME"] = self.prefix


# -- static files: a version in every URL, and how long a browser may keep each -------------

_HASHES: dict[tuple[str, float], str] = {}
NAME_VERSIONED = re.compile(r"-\d+(\.\d+)+(\.min)?\.\w+$")  # htmx-2.0.11.min.js
LONG = "public, max-age=31536000, immutable"
SHORT = "public, max-age=0, must-revalidate"


def file_version(folder: str, filename: str) -> str | None:
    """A short hash of a static file's bytes (recomputed when the file changes), else None."""
    path = Path(folder) / filename
    try:
        mtime = path.stat().st_mtime
    except (OSError, ValueError):
        return None
    key = (str(path), mtime)
    if key not in _HASHES:
        _HASHES[key] = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
    return _HASHES[key]


def static_cache_control(folder: str, filename: str, v: str | None) -> str:
    """Versioned (by its name, or by a ?v= that matches its bytes): a year, immutable. Else
    the browser asks again each time (answered 304 while unchanged)."""
    if NAME_VERSIONED.search(filename) or (v and v == file_version(folder, filename)):
        return LONG
    return SHORT
