"""Browser fixtures: the real server on a free port and Debian's chromium at a phone's size.

Reuse them in any tests/browser/test_*.py:

    def test_something(live_server, phone):
        page = phone.new_page()                 # phone: a fresh 390x844 touch context
        page.goto(live_server.url + "/")
        live_server.store                       # the server's Store, to read states back

`live_server` (session): .url (http://127.0.0.1:PORT), .app (the Flask app), .store.
`browser` (session): one headless chromium for the whole run.
`phone` (function): a new context, 390x844, touch, mobile; closed after the test.
`new_api_game(names, options=...)`: a game created through the JSON API (its answer as a dict);
`played(live_server, answer)`: that game as a `Game` (tests/game.py) to send it commands.
`new_page_game(page, live_server, names)`: a game started on the home page's form; its id.
Screenshots go to screenshots/ (kept out of git): `screenshot(page, "name")`, or
`both_schemes(page, "name")` for name-light.png and name-dark.png.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.game import Game
from tests.serving import CHROMIUM, CHROMIUM_ARGS, in_process
from tests.table_web import HttpTable

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
    """The whole app served by banker's server (banker.net.serving: push included) on 127.0.0.1
    and a free port, on a temporary DB, in a thread of this process."""
    db = tmp_path_factory.mktemp("live") / "banker.db"
    with in_process(db, threads=4) as served:
        app = served.app
        yield SimpleNamespace(url=served.url, app=app, store=app.extensions["banker.store"])


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
    """Create a game through the JSON API: new_api_game(["Ann", "Bob"], options={...}) -> its
    answer (a dict); `played(live_server, answer)` plays it on."""

    def make(names=("Ann", "Bob"), edition="g0009", options=None) -> dict:
        return Game(HttpTable(live_server.url), names, edition, options).created

    return make


def new_page_game(page, live_server, names=("Ann", "Bob")) -> str:
    """Start a game as the Banker does, on the home page's form; its id (the page shows it)."""
    page.goto(live_server.url + "/")
    for i, name in enumerate(names, 1):
        page.get_by_label(f"Player {i}", exact=False).fill(name)
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    return page.url.rsplit("/", 1)[1]


def played(live_server, created: dict) -> Game:
    """The game a `new_api_game` answer made, to play on with `Game` (tests/game.py)."""
    return Game.of(HttpTable(live_server.url), created)


def screenshot(page, name: str, full_page: bool = True) -> Path:
    """Save a screenshot (the whole page, or what the screen shows) as screenshots/<name>.png
    (for review, not compared)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def both_schemes(page, name: str, full_page: bool = True) -> None:
    """Screenshots of the page as it is, light then dark (screenshots/<name>-light/-dark)."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(100)
        screenshot(page, f"{name}-{scheme}", full_page)
    page.emulate_media(color_scheme="light")


# -- checks every phone screen must pass ---------------------------------------------------

_LAYOUT_PROBLEMS = """
() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > 390) problems.push(`the page is ${root.scrollWidth}px wide`);
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  for (const el of document.querySelectorAll(controls)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;  // e.g. in a closed <details>
    let box = el.getBoundingClientRect();
    if (el.closest('.sr-only')) continue;
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) {
      box = el.closest('label').getBoundingClientRect();  // the label is what the thumb taps
    }
    if (box.height < 44 || box.width < 44) {
      const name = (el.innerText || el.value || el.name || el.tagName).trim().slice(0, 40);
      problems.push(`${el.tagName.toLowerCase()} "${name}" is ${box.width}x${box.height}`);
    }
    if (box.right > 390.5) problems.push(`"${(el.innerText || el.name).slice(0, 40)}" overflows`);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest('svg, .sr-only, style, script')) continue;
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 16) problems.push(`"${node.textContent.trim().slice(0, 40)}" is ${size}px text`);
  }
  return problems;
}
"""


def layout_problems(page) -> list[str]:
    """What breaks the phone rules on the page as shown: sideways scroll, small controls/text."""
    return page.evaluate(_LAYOUT_PROBLEMS)


def axe_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page as shown."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated by the test, not added as an inline <script>: the pages' CSP forbids those.
        page.evaluate(AXE.read_text() + "\n;undefined")
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => v.id + ': ' + v.help + ' -> ' + v.nodes.map(n => n.target.join(' ')).join(', '))"
    )
    return found


@pytest.fixture
def check_screen():
    """check_screen(page, "name"): screenshot it, then assert the phone and a11y rules hold."""

    def check(page, name: str) -> None:
        screenshot(page, name)
        assert layout_problems(page) == [], name
        assert axe_violations(page) == [], name

    return check
