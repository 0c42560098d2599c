"""Every setting of `banker serve`, declared once: its name, its environment variable, its
command-line flag (when it has one), its type and range, its default and its help.

`read(environ, flags)` reads them all, once, when the server starts: a flag given wins over
its variable, a variable set (and not empty) over the default. A value that is not of its type
or out of its range is `SettingError`, one sentence naming the variable or the flag as the host
typed it and what to give instead; `banker serve` prints it and exits 1 before anything listens.
docs/hosting.md's table of limits lists each one (tests/project/test_settings_docs.py holds it
to this table).

A leaf module (the standard library only): the server (banker.net.serving, banker.net) and the app
(banker.web) both read the values it gives, never the environment themselves.
"""

from __future__ import annotations

import ipaddress
import os
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path


class SettingError(ValueError):
    """A setting's value the host must change: one sentence, naming it as it was given."""


@dataclass(frozen=True)
class Setting:
    name: str  # the attribute of Settings
    kind: str  # "int", "seconds", "number", "bool", "networks", "path", "url", "text"
    default: object
    help: str
    low: float | None = None
    high: float | None = None
    flag: str | None = None  # banker serve's flag, when it has one
    limit: bool = True  # a row of docs/hosting.md's table of limits (else of its options)
    noun: str = ""  # what a value is ("a port"): its refusal says "is not a port"
    give: str = ""  # what to give instead, when the range does not say it well

    @property
    def env(self) -> str:
        return f"BANKER_{self.name.upper()}"

    def figure(self) -> str:
        """The default as docs/hosting.md writes it: 10,000; 5 s; 32 KB; 6 MB; off."""
        value = self.default
        if self.kind == "seconds":
            return f"{value:g} s"
        if self.kind == "number":
            return f"{value:g}"
        if self.kind == "bool":
            return "on" if value else "off"
        if self.name.endswith("_mb"):
            return f"{value:,} MB"
        if self.name.startswith("max_") and self.name.endswith(("_bytes", "_body")):
            return f"{value // 2**20} MB" if value >= 2**20 else f"{value // 2**10} KB"
        return f"{value:,}" if isinstance(value, int) else str(value)


def _data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


# fmt: off
SETTINGS: tuple[Setting, ...] = (
    # -- where and how it serves: banker serve's options -------------------------------------
    Setting("host", "text", "0.0.0.0", "the address to listen on; `127.0.0.1` for this machine "
            "only (behind a proxy)", flag="--host", limit=False),
    Setting("port", "int", 8000, "the port to listen on; `0` picks a free one", 0, 65535,
            flag="--port", limit=False, noun="a port",
            give="give a number from 1 to 65535, or 0 for a free one."),
    Setting("db", "path", None, "the SQLite file of all the games (`~` is your home folder)",
            flag="--db", limit=False),
    Setting("threads", "int", 8, "worker threads running the app's requests (pages, API, "
            "commands); the pages' push streams need none", 1, 256, flag="--threads",
            limit=False, noun="a number of worker threads"),
    Setting("public_url", "url", None, "the address the phones use, when it is not this "
            "machine's own (a reverse proxy, a host name): the printed URL and the players' "
            "links use it", flag="--public-url", limit=False),
    Setting("access_log", "text", None, "a line per request to FILE (`-`: standard output), "
            "tokens left out", flag="--access-log", limit=False),
    # -- connections (banker.net.connection, banker.net.site, banker.net.push) ----------------
    Setting("connections", "int", 10_000, "open connections, in all", 16, 1_000_000),
    Setting("per_address", "int", 256, "open connections of one client", 1, 1_000_000),
    Setting("threads_per_client", "int", 2, "worker threads one client's requests may hold at "
            "once (the others wait their turn on the event loop, holding no thread)", 1, 256),
    Setting("uploads_per_client_mb", "int", 16, "request bodies one client may have on their "
            "way at once, in MB (the others are refused 413 as they arrive)", 1, 100_000),
    Setting("streams_per_client", "int", 64, "push streams of one client (behind the proxy "
            "too)", 1, 100_000),
    Setting("idle_seconds", "seconds", 5.0, "a connection that sends nothing", 1, 3600),
    Setting("header_seconds", "seconds", 10.0, "a request's headers, from its first byte",
            1, 3600),
    Setting("body_seconds", "seconds", 120.0, "a request's body (read before any worker "
            "thread is given the request)", 1, 3600),
    Setting("write_seconds", "seconds", 30.0, "an answer the client does not read (no byte "
            "taken in that time)", 1, 3600),
    Setting("max_header_bytes", "int", 32 * 1024, "a request line and its headers, in bytes",
            1024, 1024 * 1024),
    Setting("max_body", "int", 6 * 1024 * 1024, "a request's body, in bytes (a snapshot is at "
            "most 5 MB; the app checks each route: 1 MB elsewhere)", 1024 * 1024,
            256 * 1024 * 1024),
    Setting("heartbeat_seconds", "seconds", 20.0, "a push stream's keep-alive comment", 1, 300),
    # -- what one client or token may do (banker.web.common.limits, rates) -------------------
    Setting("commands_per_second", "number", 10.0, "commands of one token, after its burst",
            0.1, 10_000),
    Setting("command_burst", "int", 40, "commands of one token at once", 1, 100_000),
    Setting("links_per_minute", "int", 10, "new links (`POST …/tokens`) of one token",
            1, 10_000),
    Setting("creates_per_minute", "int", 30, "games created or resumed by one client",
            1, 100_000),
    Setting("imports_per_hour", "int", 20, "snapshots resumed by one client (each may be "
            "5 MB)", 1, 100_000),
    Setting("imports_at_once", "int", 1, "snapshot imports replaying at once", 1, 256),
    Setting("max_games", "int", 2000, "games stored", 1, 100_000_000),
    Setting("max_db_mb", "int", 1024, "the database's size, in MB", 1, 100_000_000),
    Setting("limit_loopback", "bool", False, "count this machine too against the per-client "
            "limits (`1`; the tests' way to play a stranger)"),
    Setting("local_networks", "networks", "127.0.0.0/8,::1/128", "the addresses that are this "
            "machine (a proxy there is trusted for X-Forwarded-For)"),
)
# fmt: on
BY_NAME = {s.name: s for s in SETTINGS}


class Settings:
    """The values in force, as attributes (`settings.per_address`)."""

    def __init__(self, values: Mapping[str, object]):
        self.__dict__.update(values)

    def __repr__(self) -> str:
        return f"Settings({self.__dict__!r})"

    def replace(self, **changes) -> Settings:
        return Settings({**self.__dict__, **changes})


def read(environ: Mapping[str, str] | None = None, flags: Mapping[str, object] | None = None
         ) -> Settings:  # fmt: skip
    """Every setting's value: its flag's (`flags[name]`, when not None), else its variable's
    (`environ`, when set and not empty), else its default. SettingError for a bad one."""
    environ = os.environ if environ is None else environ
    flags = flags or {}
    values = {}
    for s in SETTINGS:
        given = flags.get(s.name)
        if given is not None:
            values[s.name] = parse(s, str(given), s.flag or s.env, " ")
            continue
        text = environ.get(s.env, "")
        if text.strip():
            values[s.name] = parse(s, text, s.env, "=")
        else:
            values[s.name] = default(s)
    return Settings(values)


def read_one(name: str, environ: Mapping[str, str] | None = None) -> object:
    """One setting's value from its variable, else its default (SettingError when bad)."""
    s = BY_NAME[name]
    text = (os.environ if environ is None else environ).get(s.env, "")
    return parse(s, text, s.env, "=") if text.strip() else default(s)


def defaults() -> Settings:
    """Every setting at its default (an app made in process, without `banker serve`)."""
    return Settings({s.name: default(s) for s in SETTINGS})


def default_database() -> str:
    """Where the games are when neither --db nor $BANKER_DB says (for the commands' help)."""
    return default(BY_NAME["db"])


def default(s: Setting) -> object:
    if s.name == "db":
        return str(_data_home() / "banker" / "banker.db")
    if s.kind == "networks":
        return _networks(s.default)
    return s.default


def parse(s: Setting, text: str, given_as: str, sep: str) -> object:
    """`text` as setting `s`'s value, or SettingError naming it as `given_as`."""
    said = f"{given_as}{sep}{text}"
    try:
        return _PARSERS[s.kind](s, text.strip())
    except BadValue as e:
        raise SettingError(f"{said} {e.args[0]}") from None


class BadValue(ValueError):
    """A value that is not its setting's: the rest of a sentence naming it."""


def _range(s: Setting, whole: bool, unit: str = "") -> str:
    def f(x):  # 65535 as a port is written, 1,000,000 with its separators
        if not (whole or float(x).is_integer()):
            return f"{x:g}"
        return f"{int(x):,}" if s.high > 100_000 else str(int(x))

    default = f(s.default) if s.default is not None else "none"
    return f"give one from {f(s.low)} to {f(s.high)}{unit} (the default is {default}{unit})."


def _int(s: Setting, text: str) -> int:
    bare = text.replace("_", "")
    if not (bare.isascii() and bare.lstrip("-").isdigit()):
        raise BadValue(f"is not {s.noun or 'a whole number'}: {s.give or _range(s, True)}")
    value = int(bare)
    if not s.low <= value <= s.high:
        said = f"is not {s.noun}" if s.noun else "is out of range"
        raise BadValue(f"{said}: {s.give or _range(s, True)}")
    return value


def _number(s: Setting, text: str, unit: str = "") -> float:
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or value != value or value in (float("inf"), float("-inf")):
        raise BadValue(f"is not a number: {_range(s, False, unit)}")
    if not s.low <= value <= s.high:
        raise BadValue(f"is out of range: {_range(s, False, unit)}")
    return value


def _seconds(s: Setting, text: str) -> float:
    return _number(s, text.removesuffix("s").strip(), " seconds")


def _bool(s: Setting, text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise BadValue("is neither on nor off: give 1 (on) or 0 (off; the default).")


def _networks(text: str) -> tuple:
    found = []
    for part in text.split(","):
        if part.strip():
            try:
                found.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError:
                raise BadValue(
                    f"names {part.strip()!r}, which is not a network: give networks such as "
                    "127.0.0.0/8,::1/128 (the default), separated by commas."
                ) from None
    if not found:
        raise BadValue("names no network: give some, such as 127.0.0.0/8,::1/128 (the default).")
    return tuple(found)


def _path(s: Setting, text: str) -> str:
    expanded = os.path.expanduser(text)
    if expanded.startswith("~"):
        raise BadValue(
            f"starts with {expanded.split('/')[0]}, a user this machine does not know: give "
            "the file's whole path (~/ is your own home folder)."
        )
    if "\0" in expanded:
        raise BadValue("holds a NUL character: give the file's path.")
    return expanded


def _url(s: Setting, text: str) -> str:
    return public_url(text)


def _text(s: Setting, text: str) -> str:
    return text


_PARSERS: dict[str, Callable] = {
    "int": _int,
    "number": _number,
    "seconds": _seconds,
    "bool": _bool,
    "networks": lambda s, text: _networks(text),
    "path": _path,
    "url": _url,
    "text": _text,
}


def public_url(text: str) -> str:
    """A public URL: http(s)://host[:port][/path], kept without its trailing slash; BadValue
    (in words) otherwise."""
    shape = "give an http:// or https:// URL with a host, such as https://banker.example.org"
    if any(c.isspace() for c in text):
        raise BadValue(f"holds a space: {shape}.")
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadValue(f"is not a URL the phones can open: {shape}.")
    if parts.query or parts.fragment:
        raise BadValue(f"has a ?query or #fragment: {shape} (a path is fine).")
    if "@" in parts.netloc:
        raise BadValue(f"carries a user name or password (before @): {shape}, without them.")
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is not None and not 1 <= port <= 65535:
        raise BadValue(f"has a port that is not from 1 to 65535: {shape}.")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
