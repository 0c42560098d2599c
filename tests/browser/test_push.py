"""Push in Chromium (issue 25): a change shows on the other open pages as it happens, a page
that was cut off catches up the moment it is back, and where push is blocked the page polls by
itself."""

from __future__ import annotations

import re
import time

import pytest

from .conftest import both_schemes, played

expect = pytest.importorskip("playwright.sync_api").expect
LIVE = "html[data-push=push]"


def open_player(phone, game: dict, seat: int = 0):
    page = phone.new_page()
    page.goto(game["players"][seat]["join_url"])
    return page


def pay(live_server, game: dict, amount: int) -> None:
    played(live_server, game).do(
        {"type": "adjust", "player": "p1", "amount": amount, "reason": "push"}
    )


def three_pages(live_server, new_api_game, phone, browser):
    """A started game of three and three of its pages following it by push: the Banker's and
    Bob's phones, the big screen. (game, the game to play on, the big screen's context, pages)"""
    game = new_api_game(["Ann", "Bob", "Cat"])
    g = played(live_server, game)
    g.start("p1")
    big = browser.new_context(viewport={"width": 1280, "height": 800})
    pages = {"banker": phone.new_page(), "player": open_player(phone, game, 1),
             "display": big.new_page()}  # fmt: skip
    pages["banker"].goto(game["banker_url"])
    pages["display"].goto(game["display_url"])
    for page in pages.values():
        page.locator(LIVE).wait_for(state="attached", timeout=5000)
    return game, g, big, pages


def test_a_change_shows_on_the_bankers_and_a_players_page_by_push(
    live_server, new_api_game, phone, browser
):
    game = new_api_game(["Ann", "Bob"])
    played(live_server, game).do({"type": "start", "first": "p1"})
    player = open_player(phone, game)
    banker = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    banker.goto(game["banker_url"])
    for page in (player, banker):
        page.locator(LIVE).wait_for(state="attached", timeout=5000)
    pay(live_server, game, 123)
    # Told by push (html[data-push=push]: no poll runs), well within the polls' time even on
    # a busy machine (bench.push_browser times it).
    expect(player.locator("#my-cash")).to_have_text("1,623", timeout=2000)
    expect(banker.locator("#screen")).to_contain_text("1,623", timeout=2000)
    banker.context.close()


def test_a_page_cut_off_catches_up_within_a_second_of_coming_back(live_server, new_api_game, phone):
    game = new_api_game(["Ann", "Bob"])
    played(live_server, game).do({"type": "start", "first": "p1"})
    page = open_player(phone, game)
    page.locator(LIVE).wait_for(state="attached", timeout=5000)
    phone.set_offline(True)  # a dropped Wi-Fi
    page.wait_for_timeout(500)
    pay(live_server, game, 77)
    page.wait_for_timeout(1500)
    expect(page.locator("#my-cash")).to_have_text("1,500")  # it could not know
    phone.set_offline(False)
    t0 = time.monotonic()
    expect(page.locator("#my-cash")).to_have_text("1,577", timeout=1000)
    assert time.monotonic() - t0 < 1.0


def test_where_push_is_blocked_the_page_polls_by_itself(live_server, new_api_game, phone):
    game = new_api_game(["Ann", "Bob"])
    played(live_server, game).do({"type": "start", "first": "p1"})
    # A proxy in the way that never lets the stream through.
    phone.route("**/events?*", lambda route: route.abort())
    polls = []
    phone.on("request", lambda r: "/version?" in r.url and polls.append(r.url))
    page = open_player(phone, game)
    page.locator("html[data-push=poll]").wait_for(state="attached", timeout=8000)
    page.wait_for_timeout(1500)
    assert len(polls) >= 2  # every 0.7 s
    pay(live_server, game, 40)
    expect(page.locator("#my-cash")).to_have_text("1,540", timeout=2000)


# -- the change itself in the stream (issue 35) -------------------------------------------------


def asked(context) -> list[str]:
    """The pages' own requests for a fresh part (polls, versions, the page again), from now."""
    seen: list[str] = []
    context.on("request", lambda r: any(p in r.url for p in ("/poll?", "/version?"))
               and seen.append(r.url))  # fmt: skip
    return seen


def test_a_change_is_swapped_in_from_the_push_on_every_page_without_asking_for_it(
    live_server, new_api_game, phone, browser
):
    game = new_api_game(["Ann", "Bob"])
    played(live_server, game).do({"type": "start", "first": "p1"})
    big = browser.new_context(viewport={"width": 1280, "height": 800})
    pages = [open_player(phone, game, 0), open_player(phone, game, 1), phone.new_page(),
             big.new_page()]  # fmt: skip
    pages[2].goto(game["banker_url"])
    pages[3].goto(game["display_url"])
    for page in pages:
        page.locator(LIVE).wait_for(state="attached", timeout=5000)
    requests = asked(phone) + asked(big)
    mine, bobs = asked(phone), asked(big)
    pay(live_server, game, 321)
    expect(pages[0].locator("#my-cash")).to_have_text("1,821", timeout=2000)
    expect(pages[1].locator("#player-view")).to_have_attribute("data-version", "2")
    expect(pages[2].locator("#screen")).to_contain_text("1,821", timeout=2000)
    expect(pages[3].locator("#display")).to_contain_text("1,821", timeout=2000)
    pages[0].wait_for_timeout(300)
    assert mine == [] and bobs == [] and requests == []
    big.close()


def bob_at_an_auction(live_server, new_api_game, phone):
    """A game of three whose Baltic Avenue is up for auction, and Bob's page, live."""
    game = new_api_game(["Ann", "Bob", "Cat"])
    g = played(live_server, game)
    g.start("p1")
    g.roll("p1", 1, 2)
    g.do(type="auction")  # Ann declined Baltic Avenue
    bob = open_player(phone, game, 1)
    bob.locator(LIVE).wait_for(state="attached", timeout=5000)
    return g, bob


# Before a page's scripts: the versions its stream brought as views (swap) or parts.
HEARD = """(() => {
    window.__heard = [];
    const Source = window.EventSource;
    window.EventSource = function (url, options) {
        const s = new Source(url, options);
        for (const kind of ["swap", "parts"])
            s.addEventListener(kind, e => window.__heard.push(kind + " " + e.lastEventId));
        return s;
    };
    window.EventSource.prototype = Source.prototype;
})()"""


def test_a_players_tap_names_its_stream_which_is_not_sent_the_view_its_answer_brought(
    live_server, new_api_game, phone
):
    """Bob's bid is answered with his page's view at the new version: his tap names his
    page's stream (X-Banker-Stream, from its ready event), which is then not sent that
    version again (rendered twice before, the push ignored); the next change made elsewhere
    comes by push as before."""
    phone.add_init_script(HEARD)
    g, bob = bob_at_an_auction(live_server, new_api_game, phone)
    named = []
    bob.on("request", lambda r: r.method == "POST" and named.append(
        r.headers.get("x-banker-stream", "")))  # fmt: skip
    bob.get_by_role("button", name="10: bid 10").tap()
    expect(bob.locator("#high-bid")).to_contain_text("10 by you", timeout=3000)
    version = live_server.store.version(g.id)
    bob.wait_for_timeout(500)
    assert len(named) == 1 and len(named[0]) >= 16
    assert not [h for h in bob.evaluate("window.__heard") if h.endswith(f" {version}")]
    g.do(type="bid", player="p3", amount=20)  # Cat's bid, from her phone
    expect(bob.locator("#high-bid")).to_contain_text("20 by Cat", timeout=3000)
    assert f"swap {version + 1}" in bob.evaluate("window.__heard")


def test_a_bid_being_typed_on_a_players_page_survives_a_pushed_change(
    live_server, new_api_game, phone
):
    g, bob = bob_at_an_auction(live_server, new_api_game, phone)
    field = bob.locator("#bid-amount")
    field.tap()
    field.press_sequentially("4")
    g.do(type="bid", player="p3", amount=20)  # Cat bids on her phone meanwhile
    expect(bob.locator("#high-bid")).to_contain_text("20", timeout=2000)
    field.press_sequentially("5")
    expect(bob.locator("#bid-amount")).to_have_value("45")
    assert bob.evaluate("document.activeElement.id") == "bid-amount"


def test_a_bid_being_typed_survives_changes_that_come_as_parts(live_server, new_api_game, phone):
    g, bob = bob_at_an_auction(live_server, new_api_game, phone)
    g.do(type="bid", player="p3", amount=10)  # the stream has brought Bob's page a view
    expect(bob.locator("#high-bid")).to_contain_text("10", timeout=2000)
    field = bob.locator("#bid-amount")
    field.tap()
    field.press_sequentially("4")
    g.do(type="bid", player="p3", amount=20)  # this change comes as its parts
    expect(bob.locator("#high-bid")).to_contain_text("20", timeout=2000)
    assert bob.evaluate("document.documentElement.dataset.pushed") == "parts"
    field.press_sequentially("5")
    expect(bob.locator("#bid-amount")).to_have_value("45")
    assert bob.evaluate("document.activeElement.id") == "bid-amount"


def test_the_banker_on_a_players_sheet_with_more_open_follows_the_change_there(
    live_server, new_api_game, phone
):
    game = new_api_game(["Ann", "Bob"])
    played(live_server, game).do({"type": "start", "first": "p1"})
    page = phone.new_page()
    page.goto(game["banker_url"])
    page.locator(LIVE).wait_for(state="attached", timeout=5000)
    page.locator("#more > summary").tap()  # More, opened on the table
    pay(live_server, game, 11)
    expect(page.locator("#screen")).to_contain_text("1,511", timeout=2000)
    expect(page.locator("#more")).to_have_attribute("open", "")
    page.locator(".strip a", has_text="Bob").tap()  # Bob's sheet: a sub-screen
    expect(page.locator("[data-as='player:p2']")).to_be_attached()
    page.wait_for_timeout(300)  # its stream reopened for the sheet
    seen = asked(phone)
    played(live_server, game).do(
        {"type": "adjust", "player": "p2", "amount": 222, "reason": "push"}
    )
    expect(page.locator("#screen")).to_contain_text("1,722", timeout=2000)
    expect(page.locator("[data-as='player:p2']")).to_be_attached()  # still on the sheet
    assert seen == []


def test_a_players_open_trade_form_is_left_as_it_is_by_a_pushed_change(
    live_server, new_api_game, phone
):
    game = new_api_game(["Ann", "Bob"])
    g = played(live_server, game)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))  # something to trade
    page = open_player(phone, game, 0)
    page.locator(LIVE).wait_for(state="attached", timeout=5000)
    page.get_by_role("link", name="Offer a trade").tap()
    page.locator("#give-cash").fill("70")
    page.locator("#give-cash").blur()
    expect(page.locator("#trade-summary")).to_contain_text("Ann gives 70 to Bob", timeout=2000)
    pay(live_server, game, 5)
    expect(page.locator("#my-cash")).to_have_text(f"{g.cash('p1'):,}", timeout=2000)
    expect(page.locator("#give-cash")).to_have_value("70")
    expect(page.locator("#trade-summary")).to_contain_text("Ann gives 70 to Bob")


def test_a_page_without_javascript_still_follows_the_game_by_reloading(
    live_server, new_api_game, browser
):
    game = new_api_game(["Ann", "Bob"])
    played(live_server, game).do({"type": "start", "first": "p1"})
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(game["players"][0]["join_url"])
    expect(page.locator("#my-cash")).to_have_text("1,500")
    pay(live_server, game, 64)
    expect(page.locator("#my-cash")).to_have_text("1,564", timeout=8000)  # reloads every 5 s
    context.close()


def test_a_change_pushed_to_each_page_looks_as_the_page_loaded_afresh(
    live_server, new_api_game, phone, browser
):
    game, g, big, pages = three_pages(live_server, new_api_game, phone, browser)
    g.roll("p1", 3, 6)  # Ann to Connecticut Avenue: its offer, her token, the events
    parts = {"banker": "#screen", "player": "#player-view, #table-view", "display": "#display"}
    pushed = {}
    for name, page in pages.items():
        expect(page.locator("[data-version]").first).to_have_attribute("data-version", "2")
        pushed[name] = [page.locator(p).inner_text() for p in parts[name].split(", ")]
        both_schemes(page, f"push-{name}-pushed", full_page=name != "display")
    for name, page in pages.items():
        page.reload()
        fresh = [page.locator(p).inner_text() for p in parts[name].split(", ")]
        assert fresh == pushed[name], name
        both_schemes(page, f"push-{name}-fresh", full_page=name != "display")
    big.close()


COUNT_HTMX_SWAPS = """() => {
    window.__htmxSwaps = 0;
    const swap = htmx.swap;
    htmx.swap = function () { window.__htmxSwaps += 1; return swap.apply(this, arguments); };
}"""


def test_after_the_first_change_each_page_swaps_only_the_parts_that_changed_and_stays_true(
    live_server, new_api_game, phone, browser
):
    game, g, big, pages = three_pages(live_server, new_api_game, phone, browser)
    # Bob's phone follows: the Banker's table has been drawn again for it (a whole view, at the
    # same version) before the changes below, which then come as parts.
    expect(pages["banker"].locator("#strip-p2")).to_have_class(re.compile("following"))
    g.roll("p1", 3, 6)  # Ann to Connecticut Avenue: its offer waits on the Banker's screen
    # Three changes: a page may take one of them whole (its view moved on by another way
    # meanwhile, seen now and then on the Banker's page just after a phone starts following);
    # the change after it comes as parts again.
    for amount, version in ((7, "3"), (25, "4"), (30, "5")):
        if version == "5":  # the parts are swapped by refresh.js itself, not by htmx's swap
            for page in pages.values():
                page.evaluate(COUNT_HTMX_SWAPS)
        pay(live_server, game, amount)  # Ann's cash: a figure on every page
        for page in pages.values():
            expect(page.locator("[data-version]").first).to_have_attribute("data-version", version)
    for name, page in pages.items():
        assert page.evaluate("document.documentElement.dataset.pushed") == "parts", name
        assert page.evaluate("window.__htmxSwaps") == 0, name
        both_schemes(page, f"push-{name}-parts", full_page=name != "display")
    expect(pages["player"].locator("#other-p1")).to_contain_text("1,562")
    # Ann's line on Bob's chart came alone, and as a line of the chart (SVG), not as HTML
    assert pages["player"].evaluate(
        "[...document.querySelectorAll('svg *')].every(e => e instanceof SVGElement)"
        " && document.getElementById('player-worth-p1') instanceof SVGGeometryElement"
    )
    # What each page holds after parts is what it would load afresh.
    views = {"banker": "#screen", "player": "#player-view, #table-view", "display": "#display"}
    for name, page in pages.items():
        pushed = [page.locator(v).inner_text() for v in views[name].split(", ")]
        fresh = page.context.new_page()
        fresh.goto(page.url)
        assert [fresh.locator(v).inner_text() for v in views[name].split(", ")] == pushed, name
        fresh.close()
    # The forms the parts left alone say the version the page now shows: the Banker's tap is
    # not refused as made on an older screen.
    banker = pages["banker"]
    assert banker.locator("input[name=expected_version]").first.input_value() == "5"
    banker.get_by_role("button", name="Buy for 120").click()
    expect(banker.locator("[data-version]").first).to_have_attribute("data-version", "6")
    expect(pages["player"].locator("#table-view")).to_contain_text("Connecticut Avenue")
    assert banker.locator(".conflict").count() == 0
    big.close()


def test_an_open_confirmation_stays_open_when_a_change_is_pushed(live_server, new_api_game, phone):
    game = new_api_game(["Ann", "Bob"])
    played(live_server, game).do({"type": "start", "first": "p1"})
    page = phone.new_page()
    page.goto(game["banker_url"])
    page.locator(LIVE).wait_for(state="attached", timeout=5000)
    page.locator("#more > summary").tap()
    page.get_by_role("link", name="Stop the game (unfinished)").tap()
    expect(page.locator("#stop-h")).to_be_visible()
    pay(live_server, game, 33)  # another phone meanwhile: the screen asks with its confirmation
    expect(page.locator("#screen")).to_contain_text("1,533", timeout=3000)
    expect(page.locator("#stop-h")).to_be_visible()


@pytest.fixture
def slow_taps(live_server):
    """A player's action answered 1.2 s after it was recorded, for this test."""
    app, inner = live_server.app, live_server.app.wsgi_app

    def late(environ, start_response):
        answer = inner(environ, start_response)
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") == "POST" and path.endswith("/act"):
            time.sleep(1.2)
        return answer

    app.wsgi_app = late
    yield
    app.wsgi_app = inner


def test_a_change_pushed_while_a_tap_is_in_flight_is_swapped_in_after_its_answer(
    live_server, new_api_game, phone, slow_taps
):
    g, bob = bob_at_an_auction(live_server, new_api_game, phone)
    seen = asked(phone)
    bob.get_by_role("button", name="10: bid 10").tap()  # answered 1.2 s later
    bob.wait_for_timeout(300)
    g.do(type="bid", player="p3", amount=20)  # pushed while Bob's tap is in flight: held
    bob.wait_for_timeout(300)
    expect(bob.locator("#high-bid")).not_to_contain_text("20")
    # Bob's answer (his bid of 10) is swapped in, then the newer view held meanwhile.
    expect(bob.locator("#high-bid")).to_contain_text("20 by Cat", timeout=3000)
    assert seen == []  # nothing asked: the page was told everything


@pytest.fixture
def slow_views(live_server):
    """Each view pushed 1.5 s after its change, for this test (the render thread sleeps)."""
    hub = live_server.app.extensions["banker.push"]
    render = hub.render

    def late(page):
        time.sleep(1.5)
        return render(page)

    hub.render = late
    yield
    hub.render = render


def test_the_money_of_a_change_is_on_every_page_before_its_view_is_rendered(
    live_server, new_api_game, phone, browser, slow_views
):
    """The figures come first (static/refresh.js sets each element's text); the view follows
    and is swapped in as ever; a page's version is the view's, not the figures'."""
    game, g, big, pages = three_pages(live_server, new_api_game, phone, browser)
    version = live_server.store.version(g.id)
    pay(live_server, game, 211)  # Ann: 1,711
    money = {"banker": "#strip-cash-p1", "player": "#other-cash-p1", "display": "#person-cash-p1"}
    for name, page in pages.items():
        expect(page.locator(money[name])).to_have_text("1,711", timeout=1000)
        # no view yet: the page still says the version it had
        assert page.locator("[data-version]").first.get_attribute("data-version") == str(version)
    for page in pages.values():
        expect(page.locator("[data-version]").first).to_have_attribute(
            "data-version", str(version + 1), timeout=5000)  # fmt: skip
    expect(pages["player"].locator("#table-view")).to_contain_text("211")  # the view's news
    for name, page in pages.items():
        expect(page.locator(money[name])).to_have_text("1,711")
    big.close()
