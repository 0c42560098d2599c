"""Fixtures of the real-process and command-line tests: banker as the user nobody."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.server.unprivileged import Nobody, open_folder


@pytest.fixture(scope="session")
def nobody():
    """banker runnable as the user nobody (tests/server/unprivileged.py); skipped where this
    process cannot change user (not root, or no setpriv)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run banker as another user")
    runtime = Nobody()
    yield runtime
    runtime.remove()


@pytest.fixture
def shared_dir():
    """A folder in /tmp every user may enter (pytest's tmp_path is root's alone)."""
    folder = open_folder("banker-test-")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
