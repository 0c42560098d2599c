"""The pictures of the game in chromium: the big-screen display follows a game played
through the API at 1920x1080 and 1366x768, the phone's Board at 390x844 light and dark, and the
story page; each is screenshot into screenshots/ and checked by axe-core."""

from __future__ import annotations

import re

import pytest

from banker.rules.board import SPACES

from .conftest import AXE, SCREENSHOTS, layout_problems, played, screenshot

SIZES = {"tv": (1920, 1080), "laptop": (1366, 768)}
WITHIN = 1000  # ms: the display follows the game within a second

_OVERFLOW = """
() => {
  const W = innerWidth, H = innerHeight, out = [];
  const root = document.documentElement;
  if (root.scrollWidth > W || root.scrollHeight > H) {
    out.push(`the page is ${root.scrollWidth}x${root.scrollHeight}`);
  }
  const outside = (b, c) => b.left < c.left - .5 || b.right > c.right + .5
    || b.top < c.top - .5 || b.bottom > c.bottom + .5;
  const screen = {left: 0, top: 0, right: W, bottom: H};
  for (const el of document.querySelectorAll('#display *')) {
    if (el.closest('.sr-only') || el.closest('.events li')) continue;  // events clip at the end
    const b = el.getBoundingClientRect();
    if (!b.width && !b.height) continue;
    if (outside(b, screen)) out.push(`${el.tagName}.${el.className} leaves the screen`);
  }
  for (const sp of document.querySelectorAll('.sp')) {
    const c = sp.getBoundingClientRect();
    const parts = '.name, .meta, .owner, .token, .chip, .jail-in, .visiting';
    for (const el of sp.querySelectorAll(parts)) {
      if (outside(el.getBoundingClientRect(), c)) out.push(`${sp.id}: ${el.className} sticks out`);
      if (el.scrollWidth > el.clientWidth + 1 && !el.matches('.owner')) {
        out.push(`${sp.id}: ${el.className} is cut`);
      }
    }
  }
  for (const el of document.querySelectorAll('.centre > *, .panel > *')) {
    const box = el.closest('.centre, .panel').getBoundingClientRect();
    if (!el.closest('.events') && outside(el.getBoundingClientRect(), box)) {
      out.push(`${el.className || el.tagName} overflows its box`);
    }
  }
  return out;
}
"""


def axe_violations(page) -> list[str]:
    """axe-core's serious and critical violations, with the page's CSP left on: the script is
    evaluated through the browser's protocol, not added as an (inline) script tag."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    return page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => v.id + ': ' + v.help + ' -> ' + v.nodes.map(n => n.target.join(' ')).join(', '))"
    )


def api(live_server, game: dict, command: dict) -> dict:
    return played(live_server, game).do(command)


def text(page) -> str:
    return page.evaluate("document.body.textContent").replace("\u00ad", "")


def follows(page, script: str, what: str) -> None:
    """The display shows `what` (a JS condition) within a second of the command's answer."""
    try:
        # A function, not an expression: the CSP forbids eval.
        page.wait_for_function(f"() => ({script})", timeout=WITHIN, polling=50)
    except Exception as e:  # playwright's TimeoutError
        raise AssertionError(f"the display did not show {what} within {WITHIN} ms") from e


@pytest.fixture
def screen(browser):
    """screen(size, scheme) -> a new page of that size and colour scheme."""
    contexts = []

    def make(size: str, scheme: str = "light"):
        width, height = SIZES[size]
        context = browser.new_context(
            viewport={"width": width, "height": height}, color_scheme=scheme
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for c in contexts:
        c.close()


@pytest.mark.parametrize("size", ["tv", "laptop"])
def test_the_display_follows_a_game_played_through_the_api(live_server, new_api_game, screen, size):
    game = new_api_game(["Ann", "Bob", "Cleo"])
    page = screen(size)
    page.goto(game["display_url"])
    shown = text(page)
    for space in SPACES:
        assert space.name in shown, space.name
    assert "In Jail" in shown and "Just Visiting" in shown
    assert page.evaluate(_OVERFLOW) == []

    api(live_server, game, {"type": "start", "first": "p1"})
    page.wait_for_function("() => document.querySelector('#act').textContent.includes('Ann rolls')")
    api(live_server, game, {"type": "roll", "player": "p1", "dice": [1, 2]})  # Baltic Avenue
    api(live_server, game, {"type": "buy"})
    follows(page, "document.querySelector('#space-3 .owner')?.textContent.includes('Ann')", "buy")
    api(live_server, game, {"type": "move", "player": "p1", "position": 38})
    api(live_server, game, {"type": "roll", "player": "p2", "dice": [2, 3]})  # Reading Railroad
    api(live_server, game, {"type": "auction"})
    api(live_server, game, {"type": "bid", "player": "p3", "amount": 120})
    follows(page, "document.querySelector('#auction')?.textContent.includes('120')", "high bid")
    assert "High bid 120 by Cleo" in " ".join(text(page).split())
    api(live_server, game, {"type": "close_auction"})
    api(live_server, game, {"type": "roll", "player": "p3", "dice": [1, 3]})  # Income Tax
    api(live_server, game, {"type": "roll", "player": "p1", "dice": [1, 2]})  # Mediterranean
    api(live_server, game, {"type": "buy"})
    api(live_server, game, {"type": "build", "property": "baltic-avenue"})
    follows(page, "document.querySelectorAll('#space-3 svg.house').length === 1", "a house")
    api(live_server, game, {"type": "mortgage", "property": "reading-railroad"})
    follows(page, "document.querySelector('#space-5 .mort') !== null", "a mortgage")
    api(live_server, game, {"type": "move", "player": "p2", "position": 20})
    api(live_server, game, {"type": "roll", "player": "p2", "dice": [4, 6]})  # Go to Jail
    follows(
        page, "document.querySelector('#space-10 .jail-in').textContent.includes('Bob')", "jail"
    )
    assert "Bob" not in page.inner_text("#space-10 .visiting")
    assert "Bob" not in page.inner_text("#space-30")
    for prop in ["mediterranean-avenue", "baltic-avenue"] * 4:  # 4 houses, and a hotel
        api(live_server, game, {"type": "build", "property": prop})
    follows(page, "document.querySelector('#space-3 svg.hotel') !== null", "a hotel")
    assert page.locator("#space-1 svg.house").count() == 4
    screenshot(page, f"display-{size}-light")
    assert page.evaluate(_OVERFLOW) == []
    assert axe_violations(page) == []
    page.emulate_media(color_scheme="dark")
    screenshot(page, f"display-{size}-dark")
    assert axe_violations(page) == []


def test_the_display_with_private_cash_shows_no_cash(live_server, new_api_game, screen):
    game = new_api_game(["Ann", "Bob"], options={"private_cash": True})
    page = screen("tv")
    page.goto(game["display_url"])
    assert not re.search(r"\b1,500\b", text(page))
    assert "Cash is private in this game." in text(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_phone_board_is_readable_and_a_tap_shows_a_deed(
    live_server, new_api_game, phone, scheme
):
    game = new_api_game(["Ann", "Bob"])
    for command in (
        {"type": "start", "first": "p1"},
        {"type": "roll", "player": "p1", "dice": [1, 2]},
        {"type": "buy"},
        {"type": "roll", "player": "p2", "dice": [2, 3]},
        {"type": "buy"},
        {"type": "mortgage", "property": "reading-railroad"},
    ):
        api(live_server, game, command)
    page = phone.new_page()
    page.emulate_media(color_scheme=scheme)
    page.goto(game["banker_url"])
    page.goto(f"{live_server.url}/games/{game['game_id']}/board")
    shown = text(page)
    for space in SPACES:
        assert space.name in shown, space.name
    screenshot(page, f"board-phone-{scheme}")
    card = page.locator("#deed-baltic-avenue .deed-card")
    assert not card.is_visible()
    page.locator("#deed-baltic-avenue summary").tap()
    assert card.is_visible()
    assert "Owner" in card.inner_text() and "With hotel" in card.inner_text()
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"board-deed-{scheme}.png"))
    assert layout_problems(page) == []
    assert axe_violations(page) == []


def test_the_story_page_reads_well_and_passes_axe(live_server, new_api_game, screen, phone):
    game = new_api_game(["Ann", "Bob", "Cleo"])
    for command in (
        {"type": "start", "first": "p1"},
        {"type": "roll", "player": "p1", "dice": [1, 2]},  # Baltic Avenue
        {"type": "buy"},
        {"type": "roll", "player": "p2", "dice": [1, 2]},  # Baltic: rent to Ann
        {"type": "roll", "player": "p3", "dice": [2, 3]},  # Reading Railroad
        {"type": "buy"},
        {"type": "roll", "player": "p1", "dice": [1, 1]},  # Reading: rent to Cleo
        {"type": "roll", "player": "p1", "dice": [1, 2]},  # Vermont Avenue
        {"type": "buy"},
        {"type": "roll", "player": "p2", "dice": [1, 1]},  # Reading: rent to Cleo
        {"type": "roll", "player": "p2", "dice": [1, 2]},  # Vermont: rent to Ann
    ):
        answer = api(live_server, game, command)
        for claim in answer["state"]["pending"]["rent_claims"]:
            api(live_server, game, {"type": "claim_rent", "claim": claim["id"]})
    for scheme in ("light", "dark"):
        page = screen("laptop", scheme)
        page.goto(game["display_url"] + "/story")
        assert "Net worth over the game" in text(page)
        screenshot(page, f"story-{scheme}")
        assert axe_violations(page) == []
    page = phone.new_page()
    page.goto(game["display_url"] + "/story")
    screenshot(page, "story-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert axe_violations(page) == []


def test_six_players_with_long_names_fit_the_laptop_screen(live_server, screen):
    from bench.bot import Bot

    store = live_server.store
    names = ["Maximilian-Alexander Longname", "Bob", "Cleopatra Philopator VII", "Dave", "Eve"]
    game = store.create_game("g0009", [*names, "Frankenstein Junior"], {})
    bot = Bot(9)
    for _ in range(500):
        store.execute(game["game_id"], bot.next_command(store.state(game["game_id"])))
    page = screen("laptop")
    page.goto(f"{live_server.url}/display/{game['display_token']}")
    assert page.evaluate(_OVERFLOW) == []
    screenshot(page, "display-laptop-six-players")
