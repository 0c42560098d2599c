"""Black-box acceptance fixtures: the real `banker serve` as a subprocess, spoken to over HTTP.

Nothing here imports banker: the tests see only what an external client sees, and judge it by
the project's API documentation (docs/api.md) and the rule texts.
"""

from __future__ import annotations

import pytest

from tests.serving import serving
from tests.table_web import HttpTable

from .contract import EVENT_TEXTS


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("acceptance")
    with serving(tmp / "banker.db") as running:
        yield HttpTable(running.url, texts=EVENT_TEXTS)


@pytest.fixture(name="http")
def http_fixture(server):
    """The server as a table for `Game` (tests/game.py), as each test names it."""
    return server
