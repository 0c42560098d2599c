"""The words on the phones, in chromium: the Bank's count of buildings and who could place them
said as a person says them, a refusal on a player's own phone said to them, the Join panel
saying what a player's page lets them do, History filing each action under its turn, and the
end of a game on every phone: the standings, and the story one 40-px tap away."""

from __future__ import annotations

import re

import pytest

from .conftest import both_schemes, played, screenshot

expect = pytest.importorskip("playwright.sync_api").expect

LIGHT_BLUE = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")
PINK = ("st-charles-place", "states-avenue", "virginia-avenue")
ORANGE = ("st-james-place", "tennessee-avenue", "new-york-avenue")


def _banker(phone, created, path=""):
    page = phone.new_page()
    page.goto(created["banker_url"])
    if path:
        page.goto(page.url + path)
    return page


def _build_evenly(g, streets, houses):
    """`houses` houses on `streets` (one color set each, owned), built evenly."""
    built = 0
    while built < houses:
        for prop in streets:
            if built == houses:
                return
            g.do(type="build", property=prop)
            built += 1


def test_the_bank_counts_its_buildings_and_lists_who_could_place_them(
    live_server, phone, new_api_game
):
    created = new_api_game(["Ann", "Bob", "Cat"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(
        *[(d, "p1") for d in LIGHT_BLUE + PINK + ORANGE],
        ("mediterranean-avenue", "p2"), ("baltic-avenue", "p2"),
        ("park-place", "p3"), ("boardwalk", "p3"),
    )  # fmt: skip
    g.adjust("p1", 5000)
    _build_evenly(g, LIGHT_BLUE + PINK + ORANGE, 31)
    page = _banker(phone, created)
    expect(page.locator(".turn-facts")).to_contain_text("Bank: 1 house, 12 hotels")
    page.get_by_text("More", exact=True).tap()
    expect(page.locator("#more")).to_contain_text("The Bank has 1 house; Ann, Bob and Cat could")
    both_schemes(page, "truth-words-bank-1-house")


def test_a_refusal_on_a_players_own_phone_is_said_to_them(live_server, phone, new_api_game):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("oriental-avenue", "p2"))
    bob = phone.new_page()
    bob.goto(created["players"][1]["join_url"])
    expect(bob.locator("#deed-oriental-avenue .why").first).to_have_text(
        "You must own every light blue street to build; Vermont Avenue and Connecticut Avenue "
        "are not yours."
    )
    both_schemes(bob, "truth-words-said-to-bob")


@pytest.mark.parametrize("players_act", [True, False])
def test_the_join_panel_says_what_a_players_page_lets_them_do(
    live_server, phone, new_api_game, players_act
):
    created = new_api_game(["Ann", "Bob"], options={"players_act": players_act})
    page = _banker(phone, created)
    page.get_by_text("Players’ phones: codes to join").tap()
    said = " ".join(page.locator("#join-panel > p").first.text_content().split())
    if players_act:
        assert "buy or decline what they land on, bid, leave Jail, build" in said
        assert "offer and answer trades" in said
    else:
        assert "lets them ask for the rent owed to them; everything else is done" in said


def test_history_files_the_jail_fine_under_the_turn_it_belongs_to(live_server, phone, new_api_game):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    g.roll("p1", 1, 3)  # Ann: Income Tax
    g.land("p2", 30)  # Bob goes to Jail
    g.roll("p1", 1, 2)  # Ann: Oriental Avenue… (from 4 to 7: Chance)
    g.draw("chance", "advance-to-go")
    g.do(type="pay_jail_fine", player="p2")
    g.roll("p2", 2, 3)
    page = _banker(phone, created, "/history")
    group = page.locator("section.turn-group", has_text="Bob paid the 50 fine")
    expect(group.locator("h3")).to_have_text(re.compile(r"^Bob rolled 2 and 3"))
    anns = page.locator("section.turn-group", has_text="Ann rolled 1 and 2")
    expect(anns).not_to_contain_text("Bob paid the 50 fine")
    both_schemes(page, "truth-history-fine-under-bobs-turn")


def _deadline_game(live_server, new_api_game):
    """Ann and Bob, the deadline called and scored: Ann 1,440 + Baltic Avenue, Bob 1,500."""
    created = new_api_game(["Ann", "Bob"], options={"deadline": True})
    g = played(live_server, created)
    g.start("p1")
    g.roll("p1", 1, 2)
    g.do(type="call_time")
    g.do(type="buy")
    g.roll("p2", 4, 6)
    assert g.state["status"] == "finished"
    return created, g


def test_the_end_on_the_bankers_phone_shows_the_scores_and_a_40px_link_to_the_story(
    live_server, browser, new_api_game
):
    created, _ = _deadline_game(live_server, new_api_game)
    for scheme in ("light", "dark"):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
            color_scheme=scheme,
        )  # fmt: skip
        try:
            page = _banker(context, created)
            table = page.locator("#standings")
            expect(table).to_contain_text("Scores at the agreed deadline")
            expect(table.locator("#standing-p2")).to_contain_text("1,500")
            expect(table.locator("#standing-p1")).to_contain_text("1,500")  # 1,440 + 60
            link = page.locator("#story-link")
            expect(link).to_be_visible()
            assert link.bounding_box()["height"] >= 40
            screenshot(page, f"truth-end-banker-{scheme}")
        finally:
            context.close()


def test_the_end_on_a_players_phone_shows_the_standings_and_a_40px_link_to_the_story(
    live_server, browser, new_api_game
):
    created, _ = _deadline_game(live_server, new_api_game)
    for scheme in ("light", "dark"):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
            color_scheme=scheme,
        )  # fmt: skip
        try:
            bob = context.new_page()
            bob.goto(created["players"][1]["join_url"])
            table = bob.locator("#standings")
            expect(table).to_contain_text("Scores at the agreed deadline")
            expect(table.locator("#standing-p2")).to_contain_text("1,500")
            link = bob.locator("#story-link")
            expect(link).to_be_visible()
            assert link.bounding_box()["height"] >= 40
            link.tap()
            expect(bob.locator("#outcome")).to_contain_text("Scored at the agreed deadline")
            bob.go_back()
            screenshot(bob, f"truth-end-player-{scheme}")
        finally:
            context.close()


def test_a_win_by_bankruptcy_shows_the_standings_on_every_phone(live_server, phone, new_api_game):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    g.adjust_to("p1", 10)
    g.land("p1", 4)  # Income Tax: Ann cannot pay
    g.do(type="bankrupt", player="p1")
    banker = _banker(phone, created)
    expect(banker.locator("#standings #standing-p2")).to_contain_text("(won)")
    expect(banker.locator("#standings #standing-p1")).to_contain_text("Out: bankrupt to the Bank")
    ann = phone.new_page()
    ann.goto(created["players"][0]["join_url"])
    expect(ann.locator("#standings #standing-p2")).to_contain_text("(won)")
    expect(ann.locator("#standings #standing-p1")).to_contain_text("Out: bankrupt to the Bank")
    expect(ann.locator("#story-link")).to_be_visible()
    both_schemes(ann, "truth-end-won-player")
    both_schemes(banker, "truth-end-won-banker")


def test_the_final_round_is_said_on_every_screen_and_no_roll_is_promised_that_will_not_come(
    live_server, browser, new_api_game
):
    created = new_api_game(["Ann", "Bob"], options={"deadline": True})
    g = played(live_server, created)
    g.start("p1")
    g.roll("p1", 1, 2)  # Ann on Baltic Avenue: hers to buy
    g.do(type="call_time")
    g.do(type="buy")
    g.roll("p2", 2, 4)  # Bob on Oriental Avenue: the last roll of the final round
    assert g.state["turn"]["player"] == "p1" and g.pending["offer"]  # Bob's last decision
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    screen = browser.new_context(viewport={"width": 1920, "height": 1080})  # the big screen
    try:
        banker = _banker(context, created)
        phones = [context.new_page() for _ in created["players"]]
        for page, p in zip(phones, created["players"], strict=True):
            page.goto(p["join_url"])
        big = screen.new_page()
        big.goto(created["display_url"])
        for page in [banker, *phones]:
            expect(page.locator("#phase")).to_contain_text("Time is called")
        expect(big.locator("#final-round")).to_contain_text("Time is called")
        # Nobody rolls again: no screen says so.
        for page in [banker, *phones, big]:
            text = page.locator("body").inner_text()
            assert "Ann rolls" not in text and "Then Ann" not in text, text
            assert "rolls next" not in text, text
        both_schemes(banker, "truth-final-round-banker")
        both_schemes(phones[1], "truth-final-round-player")
        both_schemes(big, "truth-final-round-display")
    finally:
        context.close()
        screen.close()


def test_with_private_cash_a_players_phone_states_no_one_elses_cash(
    live_server, phone, new_api_game
):
    created = new_api_game(["Ann", "Bob", "Cat"], options={"private_cash": True})
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))  # something for Bob to ask Ann for
    bob = phone.new_page()
    bob.goto(created["players"][1]["join_url"])
    bob.get_by_role("link", name="Offer a trade").tap()
    expect(bob.locator("#trade-to")).to_have_value("p1")
    bob.locator("#receive-baltic-avenue").check()
    bob.locator("#receive-cash").tap()
    bob.locator("#receive-cash").press_sequentially("2000")
    # More than Ann has, but no sentence tells Bob so: the offer may ask any cash (checked when
    # Ann accepts), so that trying cannot find out her cash.
    expect(bob.locator("#trade-summary")).to_contain_text("2,000", timeout=1000)
    expect(bob.locator("#trade-send button.primary")).to_be_enabled()
    expect(bob.locator("#trade-why")).to_have_count(0)
    both_schemes(bob, "truth-private-refusal")
    bob.get_by_role("link", name="Cancel").tap()
    g.pass_to("p1")
    g.adjust_to("p1", 150)
    g.land("p1", 4)  # Income Tax, 200: Ann cannot pay
    lately = bob.locator("section.events")
    expect(lately).to_contain_text("Ann cannot pay 200 to the Bank", timeout=3000)
    expect(lately).to_contain_text("from their cash: a debt until raised or bankrupt.")
    for private in ("150", "1440", "1,440"):  # Ann's cash now and after Baltic Avenue
        expect(bob.locator("#table-view")).not_to_contain_text(private)
    both_schemes(bob, "truth-private-lately")
