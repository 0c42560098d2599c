"""No button that will be refused, in chromium: a control the rules would refuse is absent, or
disabled with the core's reason, on the Banker's phone and the players' (Build and Lift during
a debt, Mortgage after the deadline's cutoff, "Offer a trade" on an eliminated player's page and
once the game is over), and the debtor's own phone offers what settles the debt."""

from __future__ import annotations

import pytest

from .conftest import played, screenshot

expect = pytest.importorskip("playwright.sync_api").expect


def _phone(phone, created, pid):
    page = phone.new_page()
    page.goto(next(p["join_url"] for p in created["players"] if p["id"] == pid))
    return page


def test_offer_a_trade_leaves_a_players_page_once_they_are_out(live_server, phone, new_api_game):
    created = new_api_game(["Ann", "Bob", "Cat"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("oriental-avenue", "p2"))  # something to trade
    g.pass_to("p1")
    ann = _phone(phone, created, "p1")
    expect(ann.get_by_role("link", name="Offer a trade")).to_be_visible()
    g.adjust_to("p1", 10)
    g.land("p1", 4)  # Income Tax: Ann cannot pay
    g.do(type="bankrupt", player="p1")
    expect(ann.locator("p.out")).to_have_text("You are out of the game.", timeout=3000)
    expect(ann.get_by_role("link", name="Offer a trade")).to_have_count(0)
    screenshot(ann, "buttons-out-no-offer")


def test_offer_a_trade_leaves_every_phone_once_the_game_is_over(live_server, phone, new_api_game):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("oriental-avenue", "p2"))  # something to trade
    g.pass_to("p1")
    bob = _phone(phone, created, "p2")
    expect(bob.get_by_role("link", name="Offer a trade")).to_be_visible()
    g.adjust_to("p1", 10)
    g.land("p1", 4)
    g.do(type="bankrupt", player="p1")  # Bob wins
    expect(bob.locator("#standings")).to_be_visible(timeout=3000)
    expect(bob.get_by_role("link", name="Offer a trade")).to_have_count(0)
