"""Nothing typed is lost, in chromium, on the Banker's phone and a player's: a bid accepted
leaves its field empty (the next one is not "1530"), a refused form keeps every choice and
value, a live update never replaces a field someone is typing in, and a trade's summary follows
the amount as it is typed."""

from __future__ import annotations

import pytest

from .conftest import both_schemes, played

expect = pytest.importorskip("playwright.sync_api").expect


def _auction(live_server, new_api_game, names=("Ann", "Bob", "Cat")):
    """A game whose Baltic Avenue is up for auction (Ann declined it)."""
    created = new_api_game(list(names))
    g = played(live_server, created)
    g.start("p1")
    g.roll("p1", 1, 2)
    g.do(type="auction")
    return created, g


def _banker(phone, created):
    page = phone.new_page()
    page.goto(created["banker_url"])
    return page


def test_after_a_typed_bid_is_accepted_its_field_is_empty_and_the_next_bid_is_typed_alone(
    live_server, phone, new_api_game
):
    created, g = _auction(live_server, new_api_game)
    bob = phone.new_page()
    bob.goto(created["players"][1]["join_url"])
    field = bob.locator("#bid-amount")
    field.fill("15")
    bob.get_by_role("button", name="Bid", exact=True).tap()
    expect(bob.locator("#high-bid")).to_contain_text("15", timeout=5000)
    expect(bob.locator("#bid-amount")).to_have_value("")
    g.do(type="bid", player="p3", amount=20)  # Cat outbids him; his page follows
    expect(bob.locator("#high-bid")).to_contain_text("20", timeout=5000)
    bob.locator("#bid-amount").press_sequentially("30")
    bob.get_by_role("button", name="Bid", exact=True).tap()
    expect(bob.locator("#high-bid")).to_contain_text("30", timeout=5000)
    assert g.pending["auction"]["high_bid"] == 30  # not 1530
    both_schemes(bob, "truth-bid-empty-player")


def test_a_refused_correction_keeps_the_player_and_the_amount(live_server, phone, new_api_game):
    created = new_api_game(["Ann", "Bob", "Cat"])
    played(live_server, created).start("p1")
    page = _banker(phone, created)
    page.get_by_role("link", name="History").tap()
    form = page.locator(".correction-form")
    form.get_by_role("radio", name="Bob").check()
    form.get_by_label("Amount").fill("40")
    form.get_by_role("button", name="Take to the Bank").tap()  # no reason given
    expect(page.locator("#error-adjust")).to_have_text("Give a reason for the correction.")
    expect(form.get_by_role("radio", name="Bob")).to_be_checked()
    expect(form.get_by_label("Amount")).to_have_value("40")
    both_schemes(page, "truth-correction-refused-kept")
    form.get_by_label("Reason").fill("paid twice")
    page.wait_for_timeout(350)  # pad.js: a tap on the same spot within 0.3 s is a double tap
    form.get_by_role("button", name="Take to the Bank").tap()
    expect(page.locator("#said")).to_contain_text("took 40 from Bob")
    assert played(live_server, created).cash("p2") == 1460


def test_a_live_update_never_replaces_the_bid_the_banker_is_typing(
    live_server, phone, new_api_game
):
    created, g = _auction(live_server, new_api_game)
    page = _banker(phone, created)
    field = page.locator("#amount-p3")
    field.tap()
    field.press_sequentially("12")
    g.do(type="bid", player="p2", amount=10)  # Bob bids on his phone meanwhile
    expect(page.locator("#high-bid")).to_contain_text("10 by Bob", timeout=5000)
    field.press_sequentially("5")  # still typing: the same field, focused, with all of it
    expect(page.locator("#amount-p3")).to_have_value("125")
    assert page.evaluate("document.activeElement.id") == "amount-p3"
    page.get_by_role("button", name="Bid the typed amount for Cat").tap()
    expect(page.locator("#high-bid")).to_contain_text("125 by Cat", timeout=5000)
    expect(page.locator("#amount-p3")).to_have_value("")
    both_schemes(page, "truth-bid-empty-banker")


def test_a_live_update_never_replaces_a_correction_being_typed(live_server, phone, new_api_game):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    page = _banker(phone, created)
    page.get_by_role("link", name="History").tap()
    form = page.locator(".correction-form")
    form.get_by_role("radio", name="Bob").check()
    form.get_by_label("Amount").fill("40")
    form.get_by_label("Reason").tap()
    form.get_by_label("Reason").press_sequentially("paid")
    g.roll("p1", 1, 2)  # another phone moves the game on: the History redraws
    expect(page.locator("#screen")).to_have_attribute("data-version", "2", timeout=5000)
    form.get_by_label("Reason").press_sequentially(" twice")
    expect(form.get_by_role("radio", name="Bob")).to_be_checked()
    expect(form.get_by_label("Amount")).to_have_value("40")
    expect(form.get_by_label("Reason")).to_have_value("paid twice")


@pytest.mark.parametrize("seat", ["banker", "player"])
def test_a_trades_summary_follows_the_cash_as_it_is_typed(live_server, phone, new_api_game, seat):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))  # something to trade
    if seat == "banker":
        page = _banker(phone, created)
        page.get_by_role("link", name="Trade").tap()
    else:
        page = phone.new_page()
        page.goto(created["players"][0]["join_url"])
        page.get_by_role("link", name="Offer a trade").tap()
    field = page.locator("#give-cash")
    field.tap()
    field.press_sequentially("50")  # no blur, no Enter: still typing
    expect(page.locator("#trade-summary")).to_have_text(
        "Ann gives 50 to Bob for nothing.", timeout=600
    )
    expect(field).to_be_focused()
    field.press_sequentially("0")
    expect(page.locator("#trade-summary")).to_have_text(
        "Ann gives 500 to Bob for nothing.", timeout=600
    )
    expect(page.locator("#give-cash")).to_have_value("500")
    both_schemes(page, f"truth-trade-summary-{seat}")
