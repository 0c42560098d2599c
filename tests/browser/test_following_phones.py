"""The Banker's table shows, within a poll or two, which players' phones follow the game."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import screenshot


def test_the_bankers_row_shows_a_phone_that_opened_its_page(live_server, browser, new_api_game):
    created = new_api_game(["Ann", "Bob", "Cat"])
    banker = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    table = banker.new_page()
    table.goto(created["banker_url"])
    rows = table.locator(".strip li")
    expect(rows).to_have_count(3)
    expect(table.locator(".strip li.following")).to_have_count(0)
    ann = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    ann_page = ann.new_page()
    ann_page.goto(created["players"][0]["join_url"])
    # The table's poll (every 2 s) brings the mark without any command being recorded.
    expect(rows.nth(0)).to_have_class(re.compile(r"\bfollowing\b"), timeout=8000)
    expect(rows.nth(0)).to_contain_text("(phone following)")
    expect(table.locator(".strip li.following")).to_have_count(1)
    screenshot(table, "following-light")
    table.emulate_media(color_scheme="dark")
    screenshot(table, "following-dark")
    # Ann's phone closes her page: within seconds her row no longer says so.
    ann.close()
    expect(table.locator(".strip li.following")).to_have_count(0, timeout=12000)
    banker.close()
