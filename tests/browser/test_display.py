"""The pictures of the game in chromium: the big-screen display follows a game played
through the API at 1920x1080 and 1366x768, the phone's Board at 390x844 light and dark, and the
story page; each is screenshot into screenshots/ and checked by axe-core."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from banker.rules.board import SPACES

from .conftest import AXE, SCREENSHOTS, layout_problems, played, screenshot

SIZES = {"tv": (1920, 1080), "laptop": (1366, 768)}
WITHIN = 1000  # ms: the display follows the game within a second
SMALLEST = 20  # CSS px: the smallest type on the big screen, read from three metres
TOKEN = 36  # CSS px: a token's disc on a 1920x1080 screen

_OVERFLOW = """
() => {
  const W = innerWidth, H = innerHeight, out = [];
  const root = document.documentElement;
  if (root.scrollWidth > W || root.scrollHeight > H) {
    out.push(`the page is ${root.scrollWidth}x${root.scrollHeight}`);
  }
  const outside = (b, c) => b.left < c.left - .5 || b.right > c.right + .5
    || b.top < c.top - .5 || b.bottom > c.bottom + .5;
  const name = el => `${el.closest('[id]')?.id}: ${el.tagName}.`
    + (el.className.baseVal ?? el.className);
  const screen = {left: 0, top: 0, right: W, bottom: H};
  const events = document.querySelector('#events')?.getBoundingClientRect();
  for (const el of document.querySelectorAll('#display *')) {
    if (el.closest('.sr-only')) continue;
    const b = el.getBoundingClientRect();
    if (!b.width && !b.height) continue;
    if (el.matches('#events > li')) {  // an event that does not fit is left out whole,
      // well clear of the edge (a glyph reaching left of its line, a "T", was painted at it)
      const away = b.left >= events.right + 8 || b.top >= events.bottom - .5;
      if (outside(b, events) && !away) out.push(`an event is cut: ${el.textContent.slice(0, 40)}`);
      continue;
    }
    if (el.closest('#events > li')) continue;
    if (outside(b, screen)) out.push(`${name(el)} leaves the screen`);
  }
  for (const sp of document.querySelectorAll('.sp')) {
    const tile = sp.getBoundingClientRect();
    for (const el of sp.querySelectorAll('*')) {
      if (!el.closest('.sr-only') && outside(el.getBoundingClientRect(), tile)) {
        out.push(`${name(el)} sticks out of its tile`);
      }
    }
    // Each line of each text: within its tile, and as wide as its own box at most.
    const walker = document.createTreeWalker(sp, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || el.closest('.sr-only')) continue;
      const box = el.closest('.token, .owner, .price, .name').getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const line of range.getClientRects()) {
        if (outside(line, tile)) out.push(`${sp.id}: "${n.textContent}" leaves its tile`);
        if (line.left < box.left - .5 || line.right > box.right + .5) {
          out.push(`${sp.id}: "${n.textContent}" is wider than its box`);
        }
      }
    }
  }
  for (const el of document.querySelectorAll('.centre > *, .now-col > *, .panel > *')) {
    const box = el.parentElement.getBoundingClientRect();
    if (outside(el.getBoundingClientRect(), box)) out.push(`${name(el)} overflows its box`);
  }
  return out;
}
"""

# The smallest type shown, as drawn: an SVG's text scales with its picture.
_SMALLEST_TEXT = """
(root) => {
  let smallest = [Infinity, ''];
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || el.closest('.sr-only, title, style, script')) continue;
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) size *= el.getScreenCTM().a;
    if (size < smallest[0]) smallest = [size, n.textContent.trim().slice(0, 40)];
  }
  return smallest;
}
"""


def smallest_text(page, root: str = "#display") -> tuple[float, str]:
    """The smallest type on the page under `root` as drawn, and where: [px, its text]."""
    return tuple(page.evaluate(_SMALLEST_TEXT, root))


def token_sizes(page) -> set[tuple[int, int]]:
    """Every token disc's (width, height) on the page, in whole CSS px."""
    return {
        (round(b["width"]), round(b["height"]))
        for b in page.evaluate(
            "[...document.querySelectorAll('#display .token')]"
            ".map(t => t.getBoundingClientRect().toJSON())"
        )
    }


def as_if_across_the_room(page, shot: Path, name: str) -> Path:
    """The screenshot scaled to 480x270: roughly what three metres leave of a TV's picture."""
    data = base64.b64encode(shot.read_bytes()).decode()
    small = page.context.new_page()
    small.set_viewport_size({"width": 480, "height": 270})
    small.set_content(
        '<body style="margin:0"><img alt="" style="width:480px;height:270px;display:block" '
        f'src="data:image/png;base64,{data}"></body>'
    )
    path = SCREENSHOTS / f"{name}.png"
    small.screenshot(path=str(path))
    small.close()
    return path


def fits(page, size: str) -> None:
    """The display's rules at this size: no type under 20 px, nothing clipped, and on a
    1920x1080 screen every token a disc of 36 px at least."""
    assert page.evaluate(_OVERFLOW) == []
    px, where = smallest_text(page)
    assert px >= SMALLEST, f"{where!r} is {px} px"
    if size == "tv":
        assert all(w >= TOKEN and h >= TOKEN for w, h in token_sizes(page)), token_sizes(page)


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


def said(page, selector: str) -> str:
    return " ".join(page.inner_text(selector).split())


@pytest.mark.parametrize("size", ["tv", "laptop"])
def test_the_display_follows_a_game_played_through_the_api(live_server, new_api_game, screen, size):
    game = new_api_game(["Ann", "Bob", "Cleo"], options={"free_parking_jackpot": True})
    page = screen(size)
    page.goto(game["display_url"])
    shown = text(page)
    for space in SPACES:
        assert space.name in shown, space.name  # read out beside the shortened name
    assert "In Jail" in shown and "Just Visiting" in shown
    assert said(page, "#bank") == "The Bank has 32 houses 12 hotels"
    fits(page, size)

    api(live_server, game, {"type": "start", "first": "p1"})
    page.wait_for_function("() => document.querySelector('#act').textContent.includes('Ann rolls')")
    api(live_server, game, {"type": "roll", "player": "p1", "dice": [1, 2]})  # Baltic Avenue
    api(live_server, game, {"type": "buy"})
    follows(page, "document.querySelector('#space-3 .owner')?.textContent.includes('Ann')", "buy")
    api(live_server, game, {"type": "move", "player": "p1", "position": 38})
    api(live_server, game, {"type": "roll", "player": "p2", "dice": [2, 3]})  # Reading Railroad
    api(live_server, game, {"type": "auction"})
    api(live_server, game, {"type": "bid", "player": "p3", "amount": 120})
    follows(page, "document.querySelector('#act').textContent.includes('120')", "high bid")
    assert said(page, "#act") == "The Banker is auctioning Reading Railroad: high bid 120 by Cleo."
    assert said(page, "#bidders") == "Everyone may bid."  # Bob declined it: Cleo rolls next
    assert said(page, "#then") == "Cleo rolls next."
    api(live_server, game, {"type": "close_auction"})
    api(live_server, game, {"type": "roll", "player": "p3", "dice": [1, 3]})  # Income Tax
    follows(page, "document.querySelector('#pot')?.textContent.includes('200')", "the pot")
    assert said(page, "#pot") == "Free Parking 200"
    api(live_server, game, {"type": "roll", "player": "p1", "dice": [1, 2]})  # Mediterranean
    api(live_server, game, {"type": "buy"})
    api(live_server, game, {"type": "build", "property": "baltic-avenue"})
    follows(page, "document.querySelectorAll('#space-3 svg.house').length === 1", "a house")
    assert said(page, "#bank") == "The Bank has 31 houses 12 hotels"
    api(live_server, game, {"type": "mortgage", "property": "reading-railroad"})
    follows(page, "document.querySelector('#space-5.mortgaged') !== null", "a mortgage")
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
    fits(page, size)
    shot = screenshot(page, f"display-{size}-light")
    if size == "tv":
        as_if_across_the_room(page, shot, "display-tv-light-480x270")
    assert axe_violations(page) == []
    page.emulate_media(color_scheme="dark")
    shot = screenshot(page, f"display-{size}-dark")
    if size == "tv":
        as_if_across_the_room(page, shot, "display-tv-dark-480x270")
    assert axe_violations(page) == []


@pytest.mark.parametrize("size", ["tv", "laptop"])
def test_a_building_auction_the_final_round_and_a_deadline_end_on_the_display(
    live_server, new_api_game, screen, size
):
    game = new_api_game(["Ann", "Bob", "Cleo"], options={"deadline": True})
    g = played(live_server, game)
    g.start("p1")
    g.deeds_by_rolls(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    g.deeds_by_rolls(("reading-railroad", "p3"))
    page = screen(size)
    page.goto(game["display_url"])
    assert page.locator("#bank.auctioned").count() == 0
    g.do(type="building_auction", kind="house")
    follows(page, "document.querySelector('#bank.auctioned') !== null", "the Bank's supply")
    assert said(page, "#act") == "The Banker is auctioning one house: no bid yet (bids open at 10)."
    assert said(page, "#bidders") == "Ann may bid."
    assert said(page, "#bank") == "The Bank has 32 houses 12 hotels"
    big = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#bank')).fontSize)")
    assert big >= 1.3 * SMALLEST
    fits(page, size)
    g.do(type="close_auction")  # nobody bid: the house stays in the Bank
    g.move("p1", 0)
    g.roll("p1", 4, 6)  # Ann's turn of the last round: Just Visiting
    assert page.locator("#final-round").count() == 0
    g.do(type="call_time")
    follows(page, "document.querySelector('#final-round') !== null", "the final round")
    assert said(page, "#final-round").startswith("Final round. Time is called")
    fits(page, size)
    for pid in ("p2", "p3"):  # the round is over: the game is scored
        g.move(pid, 0)
        g.roll(pid, 4, 6)
    follows(page, "document.querySelector('#standings') !== null", "the scores")
    scores = g.state["scores"]
    assert min(scores.values()) >= 1000
    rows = page.locator("#standings tbody tr").all_inner_texts()
    assert len(rows) == 3 and all(f"{scores[p]:,}" in " ".join(rows) for p in scores)
    assert page.locator(".end-chart svg.chart.lines polyline").count() == 3
    assert said(page, "#end-turns") == "6"
    fits(page, size)
    screenshot(page, f"display-end-{size}-light")
    assert axe_violations(page) == []
    page.emulate_media(color_scheme="dark")
    screenshot(page, f"display-end-{size}-dark")
    assert axe_violations(page) == []
    page.locator(".story-link").click()  # one tap to the whole story
    page.wait_for_url(re.compile(r"/display/[^/]+/story$"))
    assert "Net worth over the game" in text(page)


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


BOXES = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width};
  };
  return [box(document.querySelector('.s-standings')), box(document.querySelector('.s-worth')),
          [...document.querySelectorAll('.parts-grid figure')].map(box)];
}"""


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
    for scheme in ("light", "dark"):  # a TV: the charts side by side, no type under 20 px
        page = screen("tv", scheme)
        page.goto(game["display_url"] + "/story")
        assert "Net worth over the game" in text(page)
        # Read in one go: the live page may be redrawn by push between two reads.
        standings, worth, parts = page.evaluate(BOXES)
        assert standings["y"] == worth["y"] and standings["x"] + standings["width"] < worth["x"]
        assert len(parts) == 3 and len({p["y"] for p in parts}) == 1
        px, where = smallest_text(page, "main")
        assert px >= SMALLEST, f"{where!r} is {px} px"
        screenshot(page, f"story-tv-{scheme}")
        assert axe_violations(page) == []
    page = phone.new_page()  # a phone: the charts' labels of 14 px at least
    page.goto(game["display_url"] + "/story")
    ticks = page.evaluate(
        "[...document.querySelectorAll('svg.chart .tick')]"
        ".map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"
    )
    assert ticks and min(ticks) >= 14, min(ticks)
    screenshot(page, "story-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert axe_violations(page) == []
    page = screen("laptop")  # on paper: A4, the figures' tables open
    page.set_viewport_size({"width": 688, "height": 1000})  # A4 less its margins, at 96 dpi
    page.goto(game["display_url"] + "/story")
    page.emulate_media(media="print")
    assert page.evaluate("document.documentElement.scrollWidth") <= 688
    assert page.locator("#worth-cap ~ details table").is_visible()
    assert not page.locator(".back").is_visible()
    screenshot(page, "story-print")
    pdf = page.pdf(format="A4")
    assert 1 <= len(re.findall(rb"/Type /Page\b", pdf)) <= 4
    (SCREENSHOTS / "story-a4.pdf").write_bytes(pdf)


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


def test_six_tokens_on_one_space_stay_on_it(live_server, new_api_game, screen):
    game = new_api_game(["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"])
    g = played(live_server, game)
    g.start("p1")
    page = screen("laptop")  # the smallest tiles
    page.goto(game["display_url"])
    assert page.locator("#space-0 .token").count() == 6
    fits(page, "laptop")
    for space in (26, 14, 10, 33):  # a top tile with its price, a side tile, Just Visiting
        for pid in ("p1", "p2", "p3", "p4", "p5", "p6"):
            g.move(pid, space)
        follows(page, f"document.querySelectorAll('#space-{space} .token').length === 6", space)
        fits(page, "laptop")
