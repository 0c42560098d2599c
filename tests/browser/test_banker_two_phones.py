"""Two Banker phones on one game, in the dark scheme: a deadline game from the Start form,
a utility's rent roll on the pad, live refresh of the other phone, time called, the scores."""

from __future__ import annotations

import re

import pytest

from .test_banker_phone import Banker

expect = pytest.importorskip("playwright.sync_api").expect


def test_a_deadline_game_on_two_phones_in_the_dark(live_server, browser, check_screen):
    from .conftest import PHONE

    phone_a = browser.new_context(**PHONE, color_scheme="dark")
    phone_b = browser.new_context(**PHONE, color_scheme="dark")
    try:
        a = Banker(phone_a.new_page(), live_server, check_screen)
        page = a.page
        page.goto(live_server.url + "/")
        page.get_by_label("Player 1", exact=False).fill("Ann")
        page.get_by_label("Player 2", exact=False).fill("Bob")
        page.get_by_text("Agreed deadline").tap()
        a.button("Start the game").tap()
        page.wait_for_url(re.compile(r"/games/\w+$"))
        a.game_id = page.url.rsplit("/", 1)[1]
        assert a.state()["options"]["deadline"] is True
        a.tap("Ann starts")
        a.roll(6, 6)
        a.tap("Buy for 150")
        a.roll(1, 2)
        a.tap("Auction")
        a.tap("Close: nobody bid")

        # Bob lands on Ann's utility: the pad asks for the rent roll (4 x the dice in G0009).
        a.roll(6, 6)
        expect(page.locator("#pad h2")).to_have_text(
            "Bob rolls for the rent on Electric Company (4 × the dice)"
        )
        check_screen(page, "20-dark-rent-roll")
        a.roll(2, 3)
        a.said(
            "Bob rolled 2 and 3 for the rent on Electric Company: 4 x 5 = 20. "
            "Ann may ask Bob for 20 rent on Electric Company before the next player rolls."
        )

        # The second phone opens its Banker link; what it records shows on the first by itself.
        b = Banker(phone_b.new_page(), live_server, check_screen)
        b.game_id, b.version = a.game_id, a.version
        token = live_server.store.banker_token(a.game_id)
        b.page.goto(f"{live_server.url}/games/{a.game_id}?token={token}")
        b.tap("Claim 20 from Bob")
        a.version = b.version
        expect(page.locator("#screen")).to_have_attribute(
            "data-version", str(a.version), timeout=6000
        )
        expect(page.locator(".strip")).to_contain_text("1,370")  # 1,500 - 150 + 20

        # Time is called; the round ends when the turn would pass back to Ann.
        page.get_by_text("More", exact=True).tap()
        a.tap("Call time")
        a.roll(3, 5)  # Bob rolled doubles, so rolls again: Free Parking
        expect(page.get_by_role("heading", level=1)).to_have_text("Game over")
        expect(page.locator(".winner")).to_have_text("Ann wins")
        check_screen(page, "21-dark-the-end")
        state = a.state()
        assert state["status"] == "finished" and state["winners"] == ["p1"]
        assert state["scores"] == {"p1": 1520, "p2": 1480}
    finally:
        phone_a.close()
        phone_b.close()
