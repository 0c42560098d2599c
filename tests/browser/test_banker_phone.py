"""A whole game recorded by taps on the Banker's phone (390x844, touch), in headless chromium.

The taps must produce exactly the commands a Banker means: at the end the game's command log is
compared with the list written here, so a double-applied or a mis-read tap would show.
"""

from __future__ import annotations

import re

import pytest

expect = pytest.importorskip("playwright.sync_api").expect


class Banker:
    """The Banker's phone: taps, and waits for the swapped screen at the expected version."""

    def __init__(self, page, live_server, check_screen):
        self.page, self.server, self.check = page, live_server, check_screen
        self.version = 0
        self.game_id = None

    def button(self, name: str, exact: bool = True):
        return self.page.get_by_role("button", name=name, exact=exact)

    def tap(self, name, *, changes: bool = True, exact: bool = True):
        """Tap a button (by its name, or a pattern); a change must bring the next version."""
        self.button(name, exact).tap()
        if changes:
            self.version += 1
        self.settled()

    def settled(self):
        screen = self.page.locator("#screen")
        expect(screen).to_have_attribute("data-version", str(self.version))
        # A tap within 0.3 s of an action's answer is taken for the second tap of a double
        # tap and ignored (static/pad.js): a person reads the new screen first, and so do we.
        self.page.wait_for_timeout(350)

    def roll(self, d1: int, d2: int):
        """The dice pad: two taps."""
        self.button(f"First die {d1}").tap()
        self.tap(f"Second die {d2}: record {d1} and {d2}")

    def said(self, text: str):
        expect(self.page.locator("#said")).to_have_text(text)

    def go(self, screen: str):
        """Open a screen from the top navigation and wait until it is shown."""
        nav = self.page.get_by_role("navigation", name="Screens")
        nav.get_by_role("link", name=screen, exact=True).tap()
        expect(nav.get_by_role("link", name=screen, exact=True)).to_have_attribute(
            "aria-current", "page"
        )
        self.settled()

    def state(self) -> dict:
        from banker.rules import public_state

        return public_state(self.server.store.state(self.game_id))

    def cash(self) -> dict:
        return {p["name"]: p["cash"] for p in self.state()["players"]}


def test_a_whole_game_is_recorded_by_taps_on_a_phone(live_server, phone, check_screen):
    page = phone.new_page()
    b = Banker(page, live_server, check_screen)

    # -- start: three names, the G0009 rules, then who won the opening roll -----------------
    page.goto(live_server.url + "/")
    check_screen(page, "01-home")
    for i, name in enumerate(["Ann", "Bob", "Cat"], 1):
        page.get_by_label(f"Player {i}", exact=False).fill(name)
    b.button("Start the game").tap()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    b.game_id = page.url.rsplit("/", 1)[1]
    b.settled()
    check_screen(page, "02-setup")
    b.tap("Ann starts")
    b.said("Ann won the opening roll and starts.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann’s turn")

    # -- a purchase ---------------------------------------------------------------------------
    b.roll(1, 2)
    b.said(
        "Ann rolled 1 and 2. Ann landed on Baltic Avenue. "
        "Ann may buy Baltic Avenue for 60 or put it up for auction."
    )
    check_screen(page, "03-offer")
    b.tap("Buy for 60")
    b.said("Ann bought Baltic Avenue for 60.")

    # -- doubles, a tax, a card -----------------------------------------------------------------
    b.roll(2, 2)
    b.said(
        "Bob rolled 2 and 2: doubles. Bob landed on Income Tax. Bob paid the Bank 200 (Income Tax)."
    )
    expect(page.locator(".turn-facts")).to_contain_text("Doubles this turn: 1")
    b.roll(1, 2)
    check_screen(page, "04-card")
    # Nobody holds a jail card: it is in the pile, so offered.
    jail_card = "GET OUT OF JAIL FREE. This card may be kept until needed, traded, or sold."
    expect(b.button(jail_card)).to_be_visible()
    b.tap("BANK PAYS YOU DIVIDEND OF $50.")
    b.said("Bob drew Chance: BANK PAYS YOU DIVIDEND OF $50. Bob collected 50 from the Bank (card).")

    # -- a claimed rent -------------------------------------------------------------------------
    b.roll(1, 2)
    expect(page.locator(".claims")).to_contain_text("Ann may ask Cat for 4 (Baltic Avenue)")
    check_screen(page, "05-claim")
    b.tap("Claim 4 from Cat")
    assert b.cash() == {"Ann": 1444, "Bob": 1350, "Cat": 1496}

    # -- an auction (doubles again: Ann rolls twice) ----------------------------------------------
    b.roll(3, 3)
    b.tap("Auction")
    check_screen(page, "06-auction")
    b.tap(re.compile(r"Bob bids 10$"))
    page.get_by_label("Cat’s bid").fill("50")
    b.tap("Bid the typed amount for Cat")
    expect(page.locator("#high-bid")).to_have_text("High bid 50 by Cat")
    b.tap(re.compile(r"Bob bids 60$"))
    b.tap("Close: Bob wins for 60")
    b.said(
        "Bob won Connecticut Avenue at auction for 60. "
        "Bob paid the Bank 60 (auction of Connecticut Avenue)."
    )
    b.roll(2, 3)
    b.tap("Buy for 160")

    # -- a rent not asked for lapses at the next player's roll -------------------------------------
    b.roll(3, 4)
    expect(page.locator(".claims")).to_contain_text("Ann may ask Bob for 12 (Virginia Avenue)")
    b.roll(1, 3)
    expect(page.locator(".claims")).to_have_count(0)
    expect(page.locator("#said")).to_contain_text(
        "Ann did not ask in time: the 12 rent on Virginia Avenue is no longer owed."
    )

    # -- jail by a card, then out by paying the fine at the start of the turn ----------------------
    b.tap("GO TO JAIL. GO DIRECTLY TO JAIL. DO NOT PASS GO. DO NOT COLLECT $200.")
    expect(page.locator(".strip")).to_contain_text("In Jail · tried 0")
    b.roll(4, 5)
    b.tap("Buy for 220")
    b.roll(2, 4)
    expect(page.get_by_role("heading", name="Cat is in Jail")).to_be_visible()
    check_screen(page, "07-jail")
    b.tap("Pay 50")
    b.roll(1, 2)
    b.tap("Buy for 140")
    b.roll(1, 3)
    b.tap("Auction")
    b.tap("Close: nobody bid")
    b.roll(6, 6)
    b.tap("Auction")
    b.tap("Close: nobody bid")
    b.roll(4, 5)
    b.said(
        "Bob rolled 4 and 5. Bob passed GO and collected 200. Bob landed on Mediterranean Avenue. "
        "Bob may buy Mediterranean Avenue for 60 or put it up for auction."
    )
    b.tap("Buy for 60")

    # -- a trade: Ann gets the brown set ---------------------------------------------------------
    b.go("Trade")
    page.locator("label", has_text="Indiana Avenue").tap()
    summary = page.locator("#trade-summary")
    expect(summary).to_have_text("Ann gives Indiana Avenue to Bob for nothing.")
    page.locator("label", has_text="Mediterranean Avenue").tap()
    expect(page.locator("#trade-summary")).to_have_text(
        "Ann gives Indiana Avenue to Bob for Mediterranean Avenue."
    )
    page.get_by_label("Cash from Bob", exact=False).fill("100")
    page.get_by_label("Cash from Bob", exact=False).press("Tab")
    expect(page.locator("#trade-summary")).to_have_text(
        "Ann gives Indiana Avenue to Bob for Mediterranean Avenue and 100."
    )
    check_screen(page, "08-trade")
    b.tap("Confirm trade")
    b.said("Ann traded Indiana Avenue to Bob for Mediterranean Avenue and 100.")
    expect(page).to_have_url(re.compile(rf"/games/{b.game_id}$"))

    # -- building evenly up to a hotel, on Ann's sheet ---------------------------------------------
    page.locator(".strip a", has_text="Ann").tap()
    b.settled()
    b.tap("Build house 50 on Mediterranean Avenue")
    build_med = b.button("Build house 50 on Mediterranean Avenue")
    expect(build_med).to_be_disabled()
    expect(page.locator("#deed-mediterranean-avenue")).to_contain_text(
        "Build evenly: Baltic Avenue has fewer houses."
    )
    for _ in range(3):
        b.tap("Build house 50 on Baltic Avenue")
        b.tap("Build house 50 on Mediterranean Avenue")
    b.tap("Build house 50 on Baltic Avenue")
    b.tap("Build hotel 50 on Baltic Avenue")
    b.said("Ann built a hotel on Baltic Avenue for 50, returning its four houses to the Bank.")
    check_screen(page, "09-sheet")
    assert b.state()["properties"]["baltic-avenue"] == {
        "owner": "p1",
        "mortgaged": False,
        "houses": 0,
        "hotel": True,
    }

    # -- a correction, then a debt settled by a mortgage ------------------------------------------
    b.go("History")
    adjust = page.locator(".correction-form")  # in view on History: player, amount, reason
    adjust.get_by_role("radio", name="Cat").check()
    adjust.get_by_label("Amount").fill("1296")
    adjust.get_by_label("Reason").fill("Cat paid for a deed twice")
    check_screen(page, "10-history")
    b.tap("Take to the Bank")
    b.said("The Banker took 1,296 from Cat to correct a mistake: Cat paid for a deed twice.")
    b.go("Table")
    b.roll(4, 5)
    b.tap("SPEEDING FINE. PAY $15.")
    expect(page.get_by_role("heading", name="Cat owes the Bank 15")).to_be_visible()
    expect(b.button("Declare Cat bankrupt")).to_have_count(0)  # 10 + 70 to raise covers 15
    check_screen(page, "11-debt")
    b.tap("Mortgage +70 on States Avenue")
    b.tap("Pay 15 to the Bank")
    b.said("Cat paid the Bank 15 (debt settled).")

    # -- Go to Jail; a bankruptcy ------------------------------------------------------------------
    b.roll(1, 2)
    expect(page.locator(".strip")).to_contain_text("In Jail · tried 0")
    b.go("History")
    adjust = page.locator(".correction-form")  # in view on History: player, amount, reason
    adjust.get_by_role("radio", name="Bob").check()
    adjust.get_by_label("Amount").fill("1100")
    adjust.get_by_label("Reason").fill("Bob's change was counted wrong")
    b.tap("Take to the Bank")
    b.go("Table")
    b.roll(1, 1)
    b.tap("Claim 450 from Bob")
    expect(page.get_by_role("heading", name="Bob owes Ann 450")).to_be_visible()
    expect(page.locator(".debt-facts")).to_have_text(
        "Cash 230 · could still raise 170 by selling buildings and mortgaging."
    )
    check_screen(page, "12-bankruptcy")
    page.get_by_role("link", name="Declare Bob bankrupt…").tap()  # asks first
    expect(page.locator(".confirm-box")).to_contain_text("Everything passes to Ann:")
    check_screen(page, "12b-bankruptcy-confirm")
    b.tap("Yes: Bob is bankrupt")
    expect(page.locator(".strip li.out")).to_contain_text("Bob")
    assert b.cash() == {"Ann": 1114, "Bob": 0, "Cat": 65}

    # -- a control the core would refuse says why; then undo -------------------------------------
    b.roll(2, 3)
    # The core would refuse it: the button is disabled, with the core's sentence under it.
    expect(b.button("Buy for 260")).to_be_disabled()
    expect(page.locator("#why-buy")).to_have_text(
        "Cat has 65 and Ventnor Avenue costs 260: raise the cash or put it up for auction."
    )
    check_screen(page, "13-refused")
    b.tap("Auction")
    b.tap(re.compile(r"Ann bids 10$"))
    b.tap("Close: Ann wins for 10")
    b.go("History")
    b.tap("Undo: Ann won Ventnor Avenue at auction for 10.")
    newest = page.locator(".turn-group").first  # the latest turn, on top; inside it in order
    expect(newest.locator(".events li").last).to_have_text(
        "Undid: Ann won Ventnor Avenue at auction for 10."
    )
    expect(newest.locator(".events del")).to_have_text(
        [
            "Ann won Ventnor Avenue at auction for 10.",
            "Ann paid the Bank 10 (auction of Ventnor Avenue).",
        ]
    )
    check_screen(page, "14-undo")
    b.go("Table")
    expect(page.locator("#high-bid")).to_have_text("High bid 10 by Ann")
    b.go("Board")
    check_screen(page, "15-board")

    # The taps recorded exactly these commands, each once.
    commands = live_server.store.commands(b.game_id)
    kinds = [c["type"] for c in commands]
    assert len(commands) == b.version
    assert kinds.count("roll") == 18 and kinds.count("build") == 9 and kinds[-1] == "undo"
    assert commands[:3] == [
        {"type": "start", "first": "p1"},
        {"type": "roll", "player": "p1", "dice": [1, 2]},
        {"type": "buy"},
    ]
    final = b.state()
    assert final["pending"]["auction"] == {
        "item": "ventnor-avenue",
        "high_bid": 10,
        "high_bidder": "p1",
    }
    assert [p["eliminated"] for p in final["players"]] == [False, True, False]
