"""The tests' own scaffolding keeps its promises: the core tests play `Game` without loading any
web code, and the black-box acceptance suite plays it without loading banker at all."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
WEB = ("flask", "werkzeug", "waitress", "http.client", "banker.web", "banker.store")


def modules_loaded_by(paths: list[Path]) -> set[str]:
    """The modules a fresh interpreter holds after importing these test modules (as pytest
    would: the repository on the path)."""
    names = [".".join(p.relative_to(TESTS.parent).with_suffix("").parts) for p in paths]
    code = (
        "import importlib, json, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=TESTS.parent,
        env={"PYTHONPATH": str(TESTS.parent), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout))


def test_the_core_tests_play_the_game_without_loading_any_web_code():
    loaded = modules_loaded_by(sorted((TESTS / "core").glob("*.py")))
    assert {"tests.game", "tests.table_core", "banker.rules"} <= loaded
    assert sorted(m for m in loaded if m.startswith(WEB)) == []


def test_the_acceptance_suite_plays_the_game_without_loading_banker():
    loaded = modules_loaded_by(sorted((TESTS / "acceptance").glob("*.py")))
    assert {"tests.game", "tests.table_web", "tests.serving"} <= loaded
    assert sorted(m for m in loaded if m == "banker" or m.startswith("banker.")) == []
