"""Browser fixtures: the real server on a free port and Debian's chromium at a phone's size.

Reuse them in any tests/browser/test_*.py:

    def test_something(live_server, phone):
        page = phone.new_page()                 # phone: a fresh 390x844 touch context
        page.goto(live_server.url + "/")
        live_server.store                       # the server's Store, to read states back

`live_server` (session): .url (http://127.0.0.1:PORT), .app (the Flask app), .store.
`browser` (session): one headless chromium for the whole run.
`phone` (function): a new context, 390x844, touch, mobile; closed after the test.
`new_api_game(names, **body)`: a game created through the JSON API (its answer as a dict).
Screenshots go to screenshots/ (kept out of git): `screenshot(page, "name")`.
"""

from __future__ import annotations

import json
import shutil
import threading
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
AXE = ROOT / "tests" / "vendor" / "axe-4.14.1.min.js"


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The whole app served by waitress on 127.0.0.1 and a free port, on a temporary DB."""
    from waitress.server import create_server

    from banker.web import create_app

    db = tmp_path_factory.mktemp("live") / "banker.db"
    app = create_app({"DATABASE": str(db)})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.effective_port}"
    yield SimpleNamespace(url=url, app=app, store=app.extensions["banker.store"])
    server.close()
    app.extensions["banker.store"].close()


@pytest.fixture(scope="session")
def browser():
    """One headless chromium for the whole run (Debian's, never a downloaded build)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def phone(browser):
    """A fresh phone-sized touch context (no cookies): .new_page() to open a tab."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def new_api_game(live_server):
    """Create a game through the JSON API: new_api_game(["Ann", "Bob"], options={...})."""

    def make(names=("Ann", "Bob"), edition="g0009", **body) -> dict:
        data = json.dumps({"edition": edition, "players": list(names), **body}).encode()
        request = urllib.request.Request(
            live_server.url + "/api/v1/games",
            data=data,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    return make


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot as screenshots/<name>.png (for review, not compared)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
