"""Fixtures for the store and API tests: an app on a temporary database, its test client, and
games played through it with `Game` (tests/game.py) on a `FlaskTable` (tests/table_web.py).

The folders say how a test runs: core/ (the rules alone), app/ (the store and Flask's test
client, in this process), server/ (a real `banker serve` or `banker` command), acceptance/ (the
contract against a real server, importing no banker), browser/ (Chromium), project/ (the
repository itself: layout, docs). Everything in server/, acceptance/ and browser/ is marked
slow here; a slow test elsewhere says so with @pytest.mark.slow."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import jinja2
import pytest
from flask import Flask

from banker.web import create_app, get_store
from tests.game import Game
from tests.plays import a_plausible_command
from tests.table_web import FlaskTable

SLOW_FOLDERS = {"server", "acceptance", "browser"}
SHM = "/dev/shm"


class _CompiledTemplates(jinja2.BytecodeCache):
    """Jinja's compiled templates kept in memory for every app the tests make in this process:
    each test's app is its own, but compiles a template only if no app compiled it before
    (each source is checked against its checksum: a changed template compiles again)."""

    def __init__(self):
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket):
        self.compiled[bucket.key] = bucket.bytecode_to_string()


# Flask's documented way to set the Jinja environment's options of the apps made from now on.
Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": _CompiledTemplates()}


def pytest_collection_modifyitems(items):
    for item in items:
        parts = item.path.parts
        if "tests" in parts and parts[parts.index("tests") + 1] in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """The quick run (`-m "not slow"`) spreads over the machine's cores with pytest-xdist
    (about half the time on 2 cores), unless `-n` says otherwise (`-n 0`: one process). The
    whole suite stays in one process: its real servers and browsers are timed for it."""
    quick = config.option.markexpr == "not slow"
    if (
        quick
        and config.pluginmanager.hasplugin("xdist")
        and config.option.numprocesses is None
        and not config.option.collectonly
        and not hasattr(config, "workerinput")
    ):
        config.option.numprocesses = "auto"
        # A file's tests on one worker: a module's fixtures (a 5,000-event snapshot) are made once.
        if config.option.dist == "no":
            config.option.dist = "loadfile"


@pytest.fixture
def db_path(tmp_path):
    """A new database's path: in memory (Linux's tmpfs, /dev/shm) where there is one, since
    these tests are of the app, not of the disk; a commit's sync there costs nothing (about a
    millisecond on a disk, 12,000 commits in the quick run). A commit that survives a crash is
    tested on a disk, through a real server: tests/server/test_crash.py."""
    try:
        folder = Path(tempfile.mkdtemp(prefix="banker-test-", dir=SHM))
    except OSError:  # no tmpfs here
        yield tmp_path / "banker.db"
        return
    yield folder / "banker.db"
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def app(db_path):
    app = create_app({"TESTING": True, "DATABASE": str(db_path)})
    yield app
    app.extensions["banker.store"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def store(app):
    with app.app_context():
        yield get_store()


@pytest.fixture
def new_game(client):
    """Create a game through the API: new_game(["Ann", "Bob"], options={...}) -> Game, played
    through the Flask test client."""

    def make(players=("Ann", "Bob"), edition="g0009", options=None) -> Game:
        return Game(FlaskTable(client), players, edition, options)

    return make


@pytest.fixture
def game(new_game) -> Game:
    """Ann and Bob, started: Ann rolls first."""
    g = new_game()
    g.start("p1")
    return g


@pytest.fixture
def play():
    """play(game, rng, steps, check=None): post plausible commands; check(response) each one."""

    def run(game: Game, rng, steps: int, check=None) -> int:
        accepted = 0
        for _ in range(steps):
            state = game.state
            if state["status"] != "playing":
                break
            r = game.send(a_plausible_command(state, rng))
            assert r.status_code in (200, 422), r.get_json()
            if check:
                check(r)
            accepted += r.status_code == 200
        return accepted

    return run
