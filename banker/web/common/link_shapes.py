"""The shapes of banker's links, in one place: which part of a path is a token, a live page's
push stream, and how a token is kept out of a log. Read by the server before Flask
(banker.net.site and banker.net.push match the streams), by the pages (banker.web.common.live
builds their stream's URL) and by the logs (banker.web.common.limits's filter,
banker.accesslog). The standard library only.

    /games/<game_id>/…     the Banker's pages (the token in a cookie, a form or ?token=)
    /join/<token>/…        a player's link
    /display/<token>/…     the big screen's link
    …/events               a live page's push stream (`stream_path`, `match_stream`)
    …/version              where push is blocked, a page's poll (`poll_of`)
"""

from __future__ import annotations

import re

ROOMS = ("games", "join", "display")  # a live page's first segment: a game's id or a token next
STREAM = "events"  # the last segment of a live page's push stream

# A token in a URL, a header or a log line: /join/<token>, /display/<token>, token=<token> in
# a query, `Bearer <token>`, a Banker's cookie `banker_<game id>=<token>`.
_SECRETS = re.compile(
    r"(?P<pre>(?:^|[?&])token=|/join/|/display/|Bearer\s+|banker_[a-z0-9]{8}=)[^\s&/?\"']+",
    re.IGNORECASE,
)


def stream_path(room: str, key: str) -> str:
    """The push stream of a live page: /games/<id>/events, /join/<token>/events…"""
    return f"/{room}/{key}/{STREAM}"


def match_stream(path: str) -> tuple[str, str] | None:
    """(room, game id or token) of a push stream's path, else None."""
    parts = path.split("/")
    if len(parts) != 4 or parts[0] or parts[1] not in ROOMS or parts[3] != STREAM or not parts[2]:
        return None
    return parts[1], parts[2]


def poll_of(path: str) -> tuple[str, str] | None:
    """(room, token) of a player's or the big screen's version poll (/join/<token>/version,
    /display/<token>/version), else None."""
    parts = path.split("/")
    if len(parts) == 4 and not parts[0] and parts[1] in ("join", "display") and parts[2]:
        return (parts[1], parts[2]) if parts[3] == "version" else None
    return None


def live_page(path: str) -> tuple[str, str] | None:
    """(room, game id or token) of a live page's path (/games/<id>…, /join/<token>…), else
    None."""
    parts = path.split("/")
    if len(parts) >= 3 and parts[1] in ROOMS and parts[2]:
        return parts[1], parts[2]
    return None


def redact(text: str, mark: str = "…") -> str:
    """`text` with every token in it written `mark`."""
    return _SECRETS.sub(lambda m: m.group("pre") + mark, text)
