"""Push in Chromium (issue 25): a change shows on the other open pages as it happens, a page
that was cut off catches up the moment it is back, and where push is blocked the page polls by
itself."""

from __future__ import annotations

import time

import pytest

from .conftest import played

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
