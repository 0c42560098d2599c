"""How fast one token may send commands: never a bite at a real table, a stop for a runaway
client (a script in a loop, a broken phone resending).

Each token (the Banker's, a player's, whatever carries it: the JSON API's Bearer header, the
Banker's cookie, a player's link) has a bucket of COMMAND_BURST commands that refills at
COMMANDS_PER_SECOND. A table sends about one command a second at its busiest (an auction's
bids come from several tokens); a burst of 40 then 10 a second is far above it. A command past
the bucket is refused 429 `too_many_commands` with Retry-After, before anything is read or
run; the refused request costs the bucket nothing. Requests from this machine itself are not
counted (like game creations: LIMIT_LOOPBACK counts them); behind a reverse proxy on this
machine the client is the one the proxy names (banker.net.clients).

Settings: the app's config, else $BANKER_COMMANDS_PER_SECOND and $BANKER_COMMAND_BURST.
"""

from __future__ import annotations

import math
import os
import threading
import time

from flask import Flask, current_app, request

from banker.net import clients
from banker.web.common.limits import refuse
from banker.web.common.seats import banker_cookie, bearer_token

COMMANDING = {"api.post_command", "table.act", "player.act", "player.claim"}
DEFAULTS = {"COMMANDS_PER_SECOND": 10.0, "COMMAND_BURST": 40}


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
    """Count the commands of `app`'s views (called once by create_app)."""
    for key, value in DEFAULTS.items():
        if key not in app.config:
            env = os.environ.get(f"BANKER_{key}", "").strip()
            try:
                app.config[key] = type(value)(float(env)) if env else value
            except ValueError:
                app.config[key] = value
    app.extensions["banker.rates"] = CommandRate(
        app.config["COMMANDS_PER_SECOND"], app.config["COMMAND_BURST"]
    )
    app.before_request(_before)


def wait(app: Flask, token: str | None, peer: str, forwarded: str | None) -> float:
    """Seconds `token` must wait before its next command (0: go on, counted); for fastpoll
    (before Flask) and the views alike."""
    if not token:
        return 0.0
    address = clients.forwarded_for(peer, forwarded)
    if not address:  # no peer at all: called in process (a test's WSGI call), not the network
        return 0.0
    if clients.is_loopback(address) and not app.config.get("LIMIT_LOOPBACK"):
        return 0.0
    return app.extensions["banker.rates"].wait(token)


def _token() -> str | None:
    args = request.view_args or {}
    if request.endpoint == "api.post_command":
        return bearer_token()
    if request.endpoint == "table.act":
        return request.cookies.get(banker_cookie(args.get("game_id", "")))
    return args.get("token")


def _before():
    if request.method != "POST" or request.endpoint not in COMMANDING:
        return None
    app = current_app._get_current_object()
    seconds = wait(app, _token(), request.remote_addr or "", request.headers.get("X-Forwarded-For"))
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
