"""The whole table plays, in chromium: the Banker's phone and three players' phones (390x844,
touch). Two players bid from their own phones and the Banker closes the auction; a player buys
their own offer; a trade proposed on one phone is accepted on another; a player builds a house
and mortgages a deed. After every change each of the four pages shows it within a second.
Screenshots of the player's page in its states, light and dark, go to screenshots/."""

from __future__ import annotations

import time

import pytest

from .conftest import PHONE, axe_violations, layout_problems, screenshot

expect = pytest.importorskip("playwright.sync_api").expect

WITHIN_S = 1.0


class Table:
    """Four phones on one game: "banker" and one page per player name."""

    def __init__(self, live_server, game_id: str, pages: dict):
        self.server, self.game_id, self.pages = live_server, game_id, pages

    def version(self) -> int:
        return self.server.store.version(self.game_id)

    def state(self) -> dict:
        from banker.rules import public_state

        return public_state(self.server.store.state(self.game_id))

    def cash(self) -> dict:
        return {p["name"]: p["cash"] for p in self.state()["players"]}

    def everyone_sees(self, version: int) -> float:
        """Seconds until every page shows the game at `version`; at most WITHIN_S."""
        start = time.monotonic()
        for name, page in self.pages.items():
            selector = "#screen" if name == "banker" else "#player-view"
            left = WITHIN_S - (time.monotonic() - start)
            assert left > 0, f"{name}'s page was late"
            page.wait_for_function(
                "([sel, v]) => Number(document.querySelector(sel)?.dataset.version) >= v",
                arg=[selector, version],
                timeout=left * 1000,
                polling=50,
            )
        took = time.monotonic() - start
        assert took < WITHIN_S
        return took

    def act(self, who: str, button: str, exact: bool = True) -> int:
        """`who` taps a button; the game moves on by one version, shown everywhere in 1 s."""
        before = self.version()
        # A tap landing while the Banker's screen is being swapped can be lost there (the
        # Banker's page's own behaviour): the Banker taps again. A player's tap must work.
        for _ in range(3 if who == "banker" else 1):
            try:
                self.pages[who].get_by_role("button", name=button, exact=exact).tap()
            except Exception:
                screenshot(self.pages[who], f"player-failed-{who}")
                raise
            deadline = time.monotonic() + (2 if who == "banker" else 5)
            while self.version() == before and time.monotonic() < deadline:
                time.sleep(0.02)
            if self.version() != before:
                break
        if self.version() == before:
            screenshot(self.pages[who], f"player-failed-{who}")
            raise AssertionError(f"{who}'s {button!r} changed nothing")
        assert self.version() == before + 1
        self.everyone_sees(before + 1)
        return before + 1

    def roll(self, d1: int, d2: int) -> None:
        """The Banker's dice pad: two taps."""
        time.sleep(0.35)  # the pad ignores a tap on a die within 300 ms of the last (pad.js)
        self.pages["banker"].get_by_role("button", name=f"First die {d1}").tap()
        time.sleep(0.35)
        self.act("banker", f"Second die {d2}: record {d1} and {d2}")

    def api(self, command: dict) -> None:
        """A Banker's command the test does not look at (through the same Store)."""
        before = self.version()
        self.server.store.execute(self.game_id, command)
        self.everyone_sees(before + 1)


def shoot(page, name: str) -> None:
    """Screenshots in both schemes, and the phone rules checked on each."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        screenshot(page, f"player-{name}-{scheme}")
        assert layout_problems(page) == [], name
    assert axe_violations(page) == [], name
    page.emulate_media(color_scheme="light")


def test_the_whole_table_plays_from_four_phones(live_server, browser, new_api_game):
    created = new_api_game(["Ann", "Bob", "Cy"])
    contexts = [browser.new_context(**PHONE, bypass_csp=True) for _ in range(4)]  # axe is injected
    try:
        for c in contexts:
            c.set_default_timeout(10_000)
        pages = {"banker": contexts[0].new_page()}
        pages["banker"].goto(created["banker_url"])
        for context, p in zip(contexts[1:], created["players"], strict=True):
            pages[p["name"]] = context.new_page()
            pages[p["name"]].goto(p["join_url"])
        t = Table(live_server, created["game_id"], pages)
        ann, bob, cy = pages["Ann"], pages["Bob"], pages["Cy"]
        for page in pages.values():  # each page is live (its push stream open) before timing
            page.locator("html[data-push]").wait_for(state="attached")
        t.everyone_sees(0)
        shoot(ann, "01-before-start")

        t.act("banker", "Ann starts")
        t.roll(1, 2)  # Ann on Baltic Avenue: her offer shows on her phone only
        expect(ann.locator("#offer")).to_contain_text("Baltic Avenue")
        assert bob.locator("#offer").count() == 0
        shoot(ann, "02-offer")

        # -- an auction: Ann declines on her phone, Bob and Cy bid on theirs ----------------
        t.act("Ann", "Auction")
        expect(pages["banker"].locator("#screen")).to_contain_text("Auction")
        t.act("Bob", "10: bid 10")
        expect(cy.locator("#high-bid")).to_have_text("High bid 10 by Bob")
        t.act("Cy", "+10: bid 20")
        expect(bob.locator("#high-bid")).to_have_text("High bid 20 by Cy")
        bob.locator("#bid-amount").fill("25")
        shoot(bob, "03-auction-typed")
        t.act("Bob", "Bid")
        for who, name in (("Bob", "you"), ("Ann", "Bob"), ("Cy", "Bob")):
            expect(pages[who].locator("#high-bid")).to_have_text(f"High bid 25 by {name}")
        shoot(cy, "04-auction-outbid")
        t.act("banker", "Close: Bob wins for 25")
        assert t.cash() == {"Ann": 1500, "Bob": 1475, "Cy": 1500}
        expect(ann.locator("#other-p2 .other-cash")).to_have_text("1,475")
        expect(bob.locator("#my-cash")).to_have_text("1,475")

        # -- a player buys their own offer ---------------------------------------------------
        t.roll(2, 3)  # Bob on Reading Railroad
        t.act("Bob", "Buy for 200")
        expect(bob.locator("#my-cash")).to_have_text("1,275")
        expect(bob.locator("#said")).to_have_text("Bob bought Reading Railroad for 200.")
        assert ann.locator("#said").text_content().strip() == ""  # only on the phone that acted

        # Cy lands on Bob's Baltic Avenue: Bob asks from his phone.
        t.roll(1, 2)
        shoot(bob, "05-claim")
        t.act("Bob", "Ask Cy for 4 (Baltic Avenue)")
        assert t.cash() == {"Ann": 1500, "Bob": 1279, "Cy": 1496}

        t.api({"type": "move", "player": "p1", "position": 39})
        t.roll(1, 1)  # Ann past GO to Mediterranean Avenue (doubles: she rolls again)
        t.act("Ann", "Buy for 60")
        assert t.cash()["Ann"] == 1640

        # -- a trade proposed on Ann's phone, accepted on Bob's --------------------------------
        ann.get_by_role("link", name="Offer a trade").tap()
        ann.get_by_label("With").select_option(label="Bob")  # fetched fresh: her new deed too
        expect(ann.locator("#give-mediterranean-avenue")).to_be_visible()
        ann.locator("label", has=ann.locator("#receive-baltic-avenue")).tap()
        ann.locator("#give-cash").fill("100")
        ann.locator("#give-cash").press("Tab")
        expect(ann.locator("#trade-summary")).to_have_text(
            "Ann gives 100 to Bob for Baltic Avenue."
        )
        shoot(ann, "06-compose")
        t.act("Ann", "Offer to Bob")
        expect(bob.locator("#trade-offers .incoming")).to_contain_text(
            "Ann gives 100 to Bob for Baltic Avenue."
        )
        expect(ann.locator("#trade-offers .outgoing")).to_contain_text("Waiting for their answer.")
        shoot(bob, "07-incoming-offer")
        t.act("Bob", "Accept", exact=False)
        assert t.cash() == {"Ann": 1540, "Bob": 1379, "Cy": 1496}
        assert t.state()["properties"]["baltic-avenue"]["owner"] == "p1"

        # -- Ann builds a house and mortgages a deed -------------------------------------------
        t.act("Ann", "Build house 50 on Baltic Avenue")
        expect(cy.locator("#other-p1")).to_contain_text("Baltic Avenue (1 house)")
        t.roll(2, 3)  # Ann on Oriental Avenue
        t.act("Ann", "Buy for 100")
        t.act("Ann", "Mortgage +50 on Oriental Avenue")
        assert t.cash() == {"Ann": 1440, "Bob": 1379, "Cy": 1496}
        props = t.state()["properties"]
        assert props["baltic-avenue"]["houses"] == 1
        assert props["oriental-avenue"]["mortgaged"] is True
        expect(bob.locator("#other-p1")).to_contain_text("Oriental Avenue (mortgaged)")
        shoot(ann, "08-deeds")
    finally:
        for c in contexts:
            c.close()
