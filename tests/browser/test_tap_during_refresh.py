"""A tap made while the Banker's screen is refreshing is applied exactly once, at the first tap,
and nothing is aborted (htmx logs an aborted request as a console error): no tap is lost.

The server here answers every poll 1.2 s late, so each tap below is made with a poll in flight.
The pages poll here because their push stream is blocked (static/refresh.js falls back to polling
every 0.7 s): a refresh told by push is the same request, held back by the same refresh.js.
"""

from __future__ import annotations

import time

import pytest

from .conftest import new_page_game, played

expect = pytest.importorskip("playwright.sync_api").expect


def polling(context) -> None:
    """Hold the context's push streams back (as a buffering proxy would: nothing ever comes
    through): its pages poll instead."""
    context.route(
        "**/events?*",
        lambda route: route.fulfill(status=200, content_type="text/event-stream", body=": \n\n"),
    )


@pytest.fixture
def slow_polls(live_server):
    """Every poll (the Banker's screen, a player's page) answered 1.2 s late, for this test."""
    app, inner = live_server.app, live_server.app.wsgi_app

    def late(environ, start_response):
        answer = inner(environ, start_response)
        path = environ.get("PATH_INFO", "")
        if path.endswith("/poll") or (path.startswith("/join/") and path.endswith("/version")):
            time.sleep(1.2)
        return answer

    app.wsgi_app = late
    yield
    app.wsgi_app = inner


def test_a_tap_while_a_refresh_is_in_flight_is_applied_once_without_console_errors(
    live_server, phone, slow_polls
):
    errors: list[str] = []
    polling(phone)
    page = phone.new_page()
    page.on("console", lambda m: m.type in ("error", "warning") and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    polls: list[str] = []
    page.on("request", lambda r: "/poll" in r.url and polls.append(r.url))
    game_id = new_page_game(page, live_server)
    screen = page.locator("#screen")

    def one_tap(name: str, version: int | None = None):
        seen = len(polls)
        while len(polls) == seen:  # wait until a poll has just left: it is in flight now
            page.wait_for_timeout(50)
        page.wait_for_timeout(100)
        page.get_by_role("button", name=name).tap()
        if version is not None:
            expect(screen).to_have_attribute("data-version", str(version), timeout=8000)
        page.wait_for_timeout(400)  # pad.js: a tap within 0.3 s of an answer is a double tap

    one_tap("Ann starts", 1)
    one_tap("First die 1")
    expect(page.locator("#pad legend")).to_contain_text("first die: 1", timeout=8000)
    one_tap("Second die 2: record 1 and 2", 2)
    one_tap("Buy for 60", 3)
    page.wait_for_timeout(2500)  # the late polls in flight come back: nothing more happens
    state = live_server.store.state(game_id)
    assert state["version"] == 3
    assert [p["cash"] for p in state["players"]] == [1440, 1500]
    assert state["properties"]["baltic-avenue"]["owner"] == "p1"
    expect(screen).to_have_attribute("data-version", "3")
    assert errors == []


def command(live_server, created: dict, body: dict) -> None:
    played(live_server, created).do(body)


def test_a_players_tap_while_their_page_refreshes_is_applied_once_without_console_errors(
    live_server, phone, new_api_game, slow_polls
):
    created = new_api_game(["Ann", "Bob"])
    for body in (
        {"type": "start", "first": "p1"},
        {"type": "roll", "player": "p1", "dice": [1, 2]},
        {"type": "buy"},
        {"type": "roll", "player": "p2", "dice": [1, 2]},  # Bob on Ann's Baltic Avenue
    ):
        command(live_server, created, body)
    errors: list[str] = []
    polling(phone)
    page = phone.new_page()
    page.on("console", lambda m: m.type in ("error", "warning") and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    polls: list[str] = []
    page.on(
        "request",
        lambda r: "/version?" in r.url and polls.append(r.url),
    )
    page.goto(created["players"][0]["join_url"])
    seen = len(polls)
    while len(polls) == seen:  # a poll has just left: it is in flight now
        page.wait_for_timeout(50)
    page.wait_for_timeout(100)
    page.get_by_role("button", name="Ask Bob for 4 (Baltic Avenue)").tap()
    expect(page.locator("#my-cash")).to_have_text("1,444", timeout=8000)
    page.wait_for_timeout(2500)  # the late polls in flight come back: nothing more happens
    state = live_server.store.state(created["game_id"])
    assert [p["cash"] for p in state["players"]] == [1444, 1496]
    assert errors == []
