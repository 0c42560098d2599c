"""A changing table with the Free Parking jackpot, in chromium: the Banker's phone (390x844,
touch), a player's phone and the big screen (1920x1080) follow one game. A tax feeds the pot
and a roll onto Free Parking collects it; a latecomer joins by scanning the code the Banker's
phone shows; a player is renamed; someone leaves (the confirmation, then the auction of their
deed). Screenshots light and dark of the Players section, the leave confirmation and the pot."""

from __future__ import annotations

import re

import pytest

from tests.app.test_player import decode_qr_svg

from .conftest import PHONE, axe_violations, both_schemes, layout_problems, played

expect = pytest.importorskip("playwright.sync_api").expect
WITHIN = 1500  # ms: every phone follows the game within a second or so


def phone_rules(page, name: str) -> None:
    assert layout_problems(page) == [], name
    assert axe_violations(page) == [], name


class Banker:
    """The Banker's page on a phone: taps that record a command wait for the new version."""

    def __init__(self, page, game, store):
        self.page, self.game, self.store = page, game, store

    def version(self) -> int:
        return self.store.state(self.game.id)["version"]

    def settled(self, version: int) -> None:
        expect(self.page.locator("#screen")).to_have_attribute("data-version", str(version))

    def roll(self, d1: int, d2: int) -> None:
        v = self.version() + 1
        self.page.get_by_role("button", name=f"First die {d1}", exact=True).tap()
        self.page.get_by_role("button", name=re.compile(f"^Second die {d2}:")).tap()
        self.settled(v)

    def tap(self, name, exact: bool = True) -> None:
        """Tap the (first) button of that name; wait for the command's answer."""
        v = self.version() + 1
        self.page.get_by_role("button", name=name, exact=exact).first.tap()
        self.settled(v)

    def more(self) -> None:
        if not self.page.locator("#more").evaluate("d => d.open"):
            self.page.locator("#more > summary").tap()


def test_a_jackpot_game_where_a_latecomer_joins_one_is_renamed_and_one_leaves(
    live_server, browser, phone, new_api_game
):
    created = new_api_game(["Ann", "Bob", "Cat"], options={"free_parking_jackpot": True})
    g = played(live_server, created)
    g.start("p1")
    page = phone.new_page()
    page.goto(created["banker_url"])
    banker = Banker(page, g, live_server.store)
    bob_phone = browser.new_context(**PHONE)
    bob = bob_phone.new_page()
    bob.goto(next(p["join_url"] for p in created["players"] if p["id"] == "p2"))
    tv = browser.new_context(viewport={"width": 1920, "height": 1080})
    display = tv.new_page()
    display.goto(created["display_url"])
    try:
        # A tax feeds the pot: every phone and the big screen say so.
        banker.roll(1, 3)  # Ann: Income Tax, 200 into the pot
        expect(page.locator("#pot")).to_contain_text("200")
        expect(bob.locator("#pot")).to_have_text("200", timeout=WITHIN)
        expect(display.locator("#display")).to_contain_text("Free Parking pot", timeout=WITHIN)
        expect(display.locator("#display")).to_contain_text("200")
        both_schemes(page, "changing-table-pot-banker")
        both_schemes(bob, "changing-table-pot-player")

        g.roll("p2", 4, 6)  # Bob: Just Visiting
        g.roll("p3", 4, 6)  # Cat: Just Visiting
        g.roll("p1", 2, 5)  # Ann: St. Charles Place
        g.do(type="buy")
        banker.settled(banker.version())
        banker.roll(4, 6)  # Bob: Free Parking, collects the pot
        assert g.state["bank"]["free_parking"] == 0 and g.cash("p2") == 1700
        expect(page.locator("#pot")).to_contain_text("0")
        expect(bob.locator("#pot")).to_have_text("0", timeout=WITHIN)
        expect(bob.locator("#my-cash")).to_have_text("1,700")
        expect(display.locator("#display")).to_contain_text(
            "Bob collected the Free Parking pot: 200.", timeout=WITHIN
        )

        # A latecomer: the Banker adds Dan; his code, shown at once, opens his own page.
        banker.more()
        page.get_by_label("Name", exact=True).fill("Dan")
        both_schemes(page, "changing-table-players-section")
        phone_rules(page, "the Players section")
        banker.tap("Add to the game")
        code = page.locator("#latecomer img.qr")
        expect(code).to_be_visible()
        both_schemes(page, "changing-table-latecomer-code")
        svg = page.request.get(live_server.url + code.get_attribute("src")).text()
        url = decode_qr_svg(svg)
        dan_phone = browser.new_context(**PHONE)
        try:
            dan = dan_phone.new_page()
            dan.goto(url)
            expect(dan.get_by_role("heading", level=1)).to_have_text("Dan")
            expect(dan.locator("#my-cash")).to_have_text("1,500")
        finally:
            dan_phone.close()
        expect(bob.locator("#other-p4")).to_contain_text("Dan", timeout=WITHIN)
        expect(display.locator("#person-p4")).to_contain_text("Dan", timeout=WITHIN)

        # Cat is renamed: everyone sees the new name.
        banker.more()
        page.locator("#rename-player").select_option("p3")
        page.get_by_label("New name").fill("B0b")
        page.get_by_role("button", name="Rename", exact=True).tap()  # refused: a look-alike
        expect(page.locator("#error-rename")).to_contain_text("'B0b' looks like 'Bob'")
        expect(page.get_by_label("New name")).to_have_value("B0b")  # kept, as typed
        expect(page.locator("#rename-player")).to_have_value("p3")
        # Typed as a person types: two taps on one spot within Chrome's double-tap window
        # (about 300 ms) are one double tap, and the second sends nothing.
        page.get_by_label("New name").fill("")
        page.get_by_label("New name").press_sequentially("Catherine", delay=60)
        banker.tap("Rename")
        expect(bob.locator("#other-p3")).to_contain_text("Catherine", timeout=WITHIN)
        expect(display.locator("#person-p3")).to_contain_text("Catherine", timeout=WITHIN)

        # Ann leaves: a confirmation of what goes back, then her deed's auction.
        banker.more()
        page.get_by_role("link", name="Ann leaves…").tap()
        box = page.locator("#leave-box")
        expect(box).to_contain_text("Ann leaves the game for good?")
        expect(box).to_contain_text("St. Charles Place")
        both_schemes(page, "changing-table-leave-confirmation")
        phone_rules(page, "the leave confirmation")
        banker.tap("Yes: Ann leaves")
        expect(page.locator("#screen")).to_contain_text("Auction: St. Charles Place")
        expect(bob.locator("#other-p1")).to_contain_text("Out of the game.", timeout=WITHIN)
        expect(display.locator("#person-p1")).to_contain_text("Out of the game", timeout=WITHIN)
        banker.tap(re.compile(r"Bob bids \d+$"), exact=False)
        banker.tap(re.compile(r"^Close: Bob wins for"), exact=False)
        assert g.state["properties"]["st-charles-place"]["owner"] == "p2"
    finally:
        bob_phone.close()
        tv.close()
