"""The server's own refusals, made before the app sees a request (too many connections, a
request too large or malformed, too slow): the same security headers as every answer of the
app (banker.web.common.hygiene), and the API's JSON error shape under /api/, a sentence
elsewhere."""

from __future__ import annotations

import json
from http import HTTPStatus

from banker.web.common.hygiene import SECURITY_HEADERS

# The sentences, by status: (code, message).
SAID = {
    400: ("bad_request", "The request is not valid HTTP."),
    408: ("request_timeout", "The request took too long to arrive; send it again."),
    413: ("body_too_large", "The request's body is larger than this server accepts."),
    429: ("too_many_connections", "This address has too many connections open; close some."),
    431: ("headers_too_large", "The request's headers are larger than this server accepts."),
    503: ("server_busy", "The server holds as many connections as it can; try again soon."),
}


def body(status: int, api: bool, code: str | None = None, message: str | None = None) -> tuple:
    """(content type, bytes) of a refusal: JSON {"error": {code, message}} for the API."""
    said_code, said = SAID.get(status, ("error", HTTPStatus(status).phrase + "."))
    code, message = code or said_code, message or said
    if api:
        text = json.dumps({"error": {"code": code, "message": message}}, separators=(",", ":"))
        return "application/json", text.encode()
    return "text/plain; charset=utf-8", f"{message}\n".encode()


def parts(status: int, api: bool, retry_after: int | None = None, **said) -> tuple:
    """The ASGI headers and body of a refusal: [(name, value)] as bytes, and the body."""
    kind, data = body(status, api, **said)
    out = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS]
    out += [
        (b"content-type", kind.encode()),
        (b"content-length", str(len(data)).encode()),
        (b"cache-control", b"no-store"),
    ]
    if retry_after is not None:
        out.append((b"retry-after", str(retry_after).encode()))
    return out, data


def response(status: int, path: bytes | str = b"", retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 refusal that closes the connection, for the connection to write."""
    if isinstance(path, str):
        path = path.encode("latin-1", "replace")
    found, data = parts(status, is_api(path), retry_after)
    phrase = HTTPStatus(status).phrase
    lines = [f"HTTP/1.1 {status} {phrase}".encode()]
    lines += [k + b": " + v for k, v in found]
    lines.append(b"connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n" + data


def is_api(path: bytes) -> bool:
    """Whether a request target is under /api/ (a public URL's prefix before it allowed)."""
    target = path.split(b"?", 1)[0]
    return target.startswith(b"/api/") or b"/api/v1/" in target
