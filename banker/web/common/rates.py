"""How fast one token may send commands and make new links: never a bite at a real table, a
stop for a runaway client (a script in a loop, a broken phone resending).

Each token (the Banker's, a player's, whatever carries it: the JSON API's Bearer header, the
Banker's cookie, a player's link; banker.web.common.seats reads it) has a bucket of
COMMAND_BURST commands that refills at COMMANDS_PER_SECOND. A table sends about one command a
second at its busiest (an auction's bids come from several tokens); a burst of 40 then 10 a
second is far above it. New links (`POST …/tokens`, the Join panel's "New link", moving the
Banker's seat) are at most LINKS_PER_MINUTE of one token in any minute: a Banker makes a few in
a whole game, and each one is a row stored for good. A request past either is refused 429
(`too_many_commands`, `too_many_links`) with Retry-After, before anything is read or run; the
refused request costs nothing. Requests from this machine itself are not counted (like game
creations: LIMIT_LOOPBACK counts them).

Settings: the app's config, from banker.settings (banker.web.common.limits copies them there).
"""

from __future__ import annotations

import math
import threading
import time

from flask import Flask, current_app, request

from banker.web.common.limits import Limiter, client_key, refuse, too_many
from banker.web.common.seats import request_token

COMMANDING = {"api.post_command", "table.act", "player.act", "player.claim"}
LINKING = {"api.new_token", "table.new_link", "table.move_seat"}


class CommandRate:
    """Token buckets by key (thread-safe)."""

    def __init__(self, per_second: float, burst: int, clock=time.monotonic):
        self.per_second, self.burst, self.clock = float(per_second), int(burst), clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)
        self._lock = threading.Lock()

    def wait(self, key: str) -> float:
        """0, and one command counted, when `key` may send one now; else the seconds until it
        may (nothing counted)."""
        now = self.clock()
        with self._lock:
            if len(self._buckets) > 50_000:  # forget the full ones
                full = self.burst / self.per_second
                self._buckets = {k: b for k, b in self._buckets.items() if now - b[1] < full}
            tokens, when = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - when) * self.per_second)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.per_second


def install(app: Flask) -> None:
    """Count the commands and new links of `app`'s views (called once by create_app, after
    banker.web.common.limits)."""
    app.extensions["banker.rates"] = CommandRate(
        app.config["COMMANDS_PER_SECOND"], app.config["COMMAND_BURST"]
    )
    app.extensions["banker.links"] = Limiter(app.config["LINKS_PER_MINUTE"])
    app.before_request(_before)


def _before():
    if request.method != "POST" or request.endpoint not in COMMANDING | LINKING:
        return None
    token = request_token()
    if not token or client_key() is None:  # no token: the view says so; this machine's own
        return None
    app = current_app._get_current_object()
    if request.endpoint in LINKING:
        seconds = app.extensions["banker.links"].wait(token)
        made = f"made {app.config['LINKS_PER_MINUTE']} new links in the last minute"
        return too_many("too_many_links", made, seconds) if seconds else None
    seconds = app.extensions["banker.rates"].wait(token)
    if not seconds:
        return None
    per = app.config["COMMANDS_PER_SECOND"]
    return refuse(
        429,
        "too_many_commands",
        f"Commands are coming faster than a table plays ({per:g} a second from one device "
        f"after a burst): try again in {max(1, math.ceil(seconds))} seconds.",
        seconds,
    )
