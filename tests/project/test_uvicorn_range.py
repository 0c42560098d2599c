"""banker.net.connection adds banker's limits to uvicorn by subclassing its private
HttpToolsProtocol: pyproject.toml pins the uvicorn releases it was tested with, and what it
overrides or reads of that class is still there (the limits themselves are tested through a
real server in tests/server)."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import uvicorn
from packaging.specifiers import SpecifierSet
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from banker.net.connection import Connection

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_uvicorn_is_one_of_the_releases_pyproject_pins():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (spec,) = [d for d in project["dependencies"] if re.match(r"uvicorn\b", d)]
    pinned = SpecifierSet(spec.removeprefix("uvicorn"))
    assert pinned.contains(version("uvicorn"))
    assert "<1" not in str(pinned)  # an upper bound within the tested minor releases


def test_what_the_connection_overrides_and_reads_of_uvicorns_protocol_is_still_there():
    for name in ("connection_made", "connection_lost", "data_received", "send_400_response",
                 "on_message_begin", "on_url", "on_header", "on_headers_complete", "on_body",
                 "on_message_complete", "timeout_keep_alive_handler",
                 "_unset_keepalive_if_required"):  # fmt: skip
        assert callable(getattr(HttpToolsProtocol, name)), name
    config = uvicorn.Config(app=lambda scope, receive, send: None, http="httptools")
    config.load()
    config.banker_limits = object()
    protocol = Connection(config, ServerState(), {})
    for name in ("parser", "connections", "cycle", "scope", "client", "transport", "loop",
                 "headers", "timeout_keep_alive_task", "flow"):  # fmt: skip
        assert hasattr(protocol, name), name
