"""What the table saw at its last edges (issue 34), each looked at on the screen where it was
seen, in chromium: the big screen's headline in words and its newest event whole; players out
of the game shown one way on every screen, with the reason; the Banker's player list showing
where each token stands whole; no console error (the CSP, htmx's out-of-band swaps) when an
offer is sent from a phone; every control at least 40 px tall; and what the Banker's screen says
of a leave while business is pending. Screenshots light and dark in screenshots/."""

from __future__ import annotations

import pytest

from .conftest import PHONE, SCREENSHOTS, both_schemes, played
from .phones import Phones
from .table_play import Play

expect = pytest.importorskip("playwright.sync_api").expect

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
SIDE = {"cash": 0, "properties": [], "jail_cards": []}
MIN_CONTROL = 40  # CSS px: the least height of anything a thumb taps

# Every control on the page that a person can see, with its height (a checkbox or radio inside a
# label: the label's, which is what the thumb taps).
_CONTROLS = """
() => {
  const out = [];
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  for (const el of document.querySelectorAll(controls)) {
    if (!el.checkVisibility({visibilityProperty: true}) || el.closest('.sr-only')) continue;
    let box = el.getBoundingClientRect();
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) {
      box = el.closest('label').getBoundingClientRect();
    }
    const name = (el.innerText || el.value || el.name || el.tagName).trim().slice(0, 50);
    out.push([name, Math.round(box.height * 10) / 10]);
  }
  return out;
}
"""

# Whether an element's text is drawn whole: not clipped by it or by any ancestor that hides
# what overflows it.
_WHOLE = """
(el) => {
  const b = el.getBoundingClientRect();
  if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) return false;
  for (let a = el.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflow === 'visible' && s.overflowX === 'visible' && s.overflowY === 'visible') {
      continue;
    }
    const c = a.getBoundingClientRect();
    if (b.top < c.top - .5 || b.bottom > c.bottom + .5 || b.left < c.left - .5
        || b.right > c.right + .5) return false;
  }
  return true;
}
"""


def shoot(page, name: str) -> None:
    """Screenshots light and dark of what the screen shows, the caret left as it is (hiding it
    would add a style the pages' CSP refuses, logged as a console error the table's checks
    count)."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(100)
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{scheme}.png"), caret="initial")
    page.emulate_media(color_scheme="light")


def short_controls(page) -> list:
    return [c for c in page.evaluate(_CONTROLS) if c[1] < MIN_CONTROL]


def open_all_details(page) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")


def console_errors(context) -> list[str]:
    """Every console error and uncaught exception of the context's pages, as they come."""
    errors: list[str] = []

    def watch(page):
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))

    context.on("page", watch)
    return errors


def test_the_big_screen_says_a_trade_offer_in_words_and_its_newest_event_whole(
    live_server, browser, new_api_game
):
    created = new_api_game(["Ann", "Bob", "Cat"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"), ("oriental-avenue", "p2"))
    offer = {
        "type": "propose_trade",
        "from": "p1",
        "to": "p2",
        "give": {**SIDE, "cash": 150, "properties": ["baltic-avenue"]},
        "receive": {**SIDE, "properties": ["oriental-avenue"]},
        "unmortgage": [],
    }
    g.do(offer, token=g.tokens["p1"])
    said = g.texts()[0]
    for size, viewport in (
        ("laptop", LAPTOP),
        ("tv", {"viewport": {"width": 1920, "height": 1080}}),
    ):
        context = browser.new_context(**viewport)
        try:
            screen = context.new_page()
            screen.goto(created["display_url"])
            expect(screen.locator("#act")).to_have_text(
                "A trade offer: Ann gives Baltic Avenue and 150 to Bob for Oriental Avenue; Bob "
                "answers."
            )
            newest = screen.locator("#newest")
            expect(newest).to_have_text(said)
            assert said.endswith("Bob may accept or decline.")
            assert newest.evaluate(_WHOLE), f"{size}: the newest event is cut"
            both_schemes(screen, f"edges-display-offer-{size}", full_page=False)
        finally:
            context.close()


def finished_with_two_out(new_api_game, live_server):
    """Ann, Bob and Cat with private cash: Cat leaves, Bob goes bankrupt to the Bank; Ann wins."""
    created = new_api_game(["Ann", "Bob", "Cat"], options={"private_cash": True})
    g = played(live_server, created)
    g.start("p1")
    g.do(type="leave", player="p3")
    g.land("p1", 10)
    g.adjust_to("p2", 20)
    g.land("p2", 4)  # Income Tax, 200: Bob cannot pay
    g.do(type="bankrupt", player="p2")
    assert g.state["winners"] == ["p1"]
    return created


OUT = {"p2": "Out: bankrupt to the Bank", "p3": "Out: left the game"}


def test_players_out_of_the_game_are_shown_one_way_on_every_screen_with_the_reason(
    live_server, browser, phone, new_api_game
):
    created = finished_with_two_out(new_api_game, live_server)
    seats = {
        "banker": created["banker_url"],
        "ann": created["players"][0]["join_url"],
        "bob": created["players"][1]["join_url"],
    }
    for who, url in seats.items():
        page = phone.new_page()
        page.goto(url)
        for pid, words in OUT.items():
            expect(page.locator(f"#standings #standing-{pid} td")).to_have_text(words)
        both_schemes(page, f"edges-out-{who}")
        page.close()
    context = browser.new_context(**LAPTOP)
    try:
        screen = context.new_page()
        screen.goto(created["display_url"])
        for pid, words in OUT.items():
            expect(screen.locator(f"#standings #standing-{pid} .total")).to_have_text(words)
        both_schemes(screen, "edges-out-display", full_page=False)
    finally:
        context.close()


def test_the_bankers_player_list_shows_where_each_token_stands_whole(
    live_server, phone, new_api_game
):
    created = new_api_game(["Ann", "Bob", "Cat", "Dan"])
    g = played(live_server, created)
    g.start("p1")
    for pid, position in (("p1", 6), ("p2", 34), ("p3", 17), ("p4", 37)):
        g.move(pid, position)
    page = phone.new_page()
    page.goto(created["banker_url"])
    wheres = page.locator(".strip .where")
    expect(wheres).to_have_text(
        ["Oriental Avenue", "Pennsylvania Avenue", "Community Chest", "Park Place"]
    )
    for i in range(4):
        assert wheres.nth(i).evaluate(_WHOLE), wheres.nth(i).text_content()
    both_schemes(page, "edges-banker-strip")


def test_sending_an_offer_from_a_phone_logs_no_error_and_every_control_is_40px_tall(
    live_server, browser, new_api_game
):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))
    context = browser.new_context(**PHONE)
    errors = console_errors(context)
    try:
        ann = context.new_page()
        ann.goto(created["players"][0]["join_url"])
        ann.get_by_role("link", name="Offer a trade").tap()
        ann.locator("#give-baltic-avenue").check()
        ann.locator("#receive-cash").tap()
        ann.locator("#receive-cash").press_sequentially("120")
        expect(ann.locator("#trade-summary")).to_contain_text("for 120")
        # The form's redraw asked for just before the offer is sent, answered only after the
        # offer's own answer has closed the form (as a slow answer on the table's Wi-Fi is).
        held = []
        ann.route("**/trade?*", lambda route: held.append(route))
        ann.locator("#receive-cash").dispatch_event("change")
        ann.get_by_role("button", name="Offer to Bob").tap()
        expect(ann.locator("#compose h2")).to_have_count(0)
        assert len(g.pending["trade_offers"]) == 1
        assert held, "the redraw was asked for"
        for route in held:
            route.continue_()
        ann.unroute("**/trade?*")
        ann.wait_for_timeout(600)  # any late answer to the form's redraw arrives meanwhile
        assert short_controls(ann) == []
        banker = context.new_page()
        banker.goto(created["banker_url"])
        open_all_details(banker)
        assert short_controls(banker) == []
        both_schemes(banker, "edges-banker-controls")
        for tab in ("Board", "Trade", "History"):
            banker.get_by_role("link", name=tab, exact=True).first.tap()
            banker.wait_for_load_state()
            open_all_details(banker)
            assert short_controls(banker) == [], tab
        screen = context.new_page()
        screen.goto(created["display_url"])
        screen.wait_for_load_state()
        assert errors == []
    finally:
        context.close()


def test_a_leave_while_a_card_is_pending_is_refused_on_the_bankers_screen_naming_what_waits(
    live_server, phone, new_api_game
):
    created = new_api_game(["Ann", "Bob", "Cat"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("reading-railroad", "p2"))
    g.pass_to("p1")
    g.land("p1", 36)  # Chance: Ann's card waits
    page = phone.new_page()
    page.goto(created["banker_url"])
    page.locator("#more > summary").tap()
    why = page.locator("#leave-why-p2")
    expect(why).to_have_text(
        "Ann must draw a Chance card: the table settles that before Bob leaves."
    )
    expect(page.get_by_role("button", name="Bob leaves…")).to_be_disabled()
    why.scroll_into_view_if_needed()
    both_schemes(page, "edges-leave-waits", full_page=False)
    g.draw("chance", "advance-to-next-railroad")  # to Bob's Reading Railroad: rent to Bob
    g.claim(token=g.tokens["p2"])
    assert g.cashes() == {"p1": 1500 + 200 - 50, "p2": 1500 - 10 + 50, "p3": 1500}
    page.reload()
    expect(page.locator("#leave-why-p2")).to_have_count(0)


def test_a_table_of_phones_around_a_leave_with_business_pending(live_server, browser, new_api_game):
    """Ann's Chance card waits: on the Banker's phone Bob's leave is refused with what waits;
    the card drawn, Bob leaves and his deed is auctioned. Every screen (the Banker's, the three
    phones, the big screen) is checked after every tap (tests/browser/phones.py)."""
    created = new_api_game(["Ann", "Bob", "Cat"])
    phones = Phones(live_server, browser, created, phones=("p1", "p2", "p3"))
    play = Play(phones)
    try:
        phones.banker.tap("Ann starts")
        play.roll(to=3)  # Ann on Baltic Avenue: she lets it go; Bob wins it
        phones.player("p1").tap("Auction")
        phones.player("p2").tap("10: bid 10")
        play.close()
        play.settle()
        play.until_turn_of("p1")
        play.roll(to=7)  # Chance: Ann's card waits
        assert phones.state["pending"]["card"] == {"player": "p1", "deck": "chance"}
        banker = phones.banker.page
        phones.banker.press(banker.locator("#more > summary"))
        why = banker.locator("#leave-why-p2")
        expect(why).to_have_text(
            "Ann must draw a Chance card: the table settles that before Bob leaves."
        )
        expect(banker.get_by_role("button", name="Bob leaves…")).to_be_disabled()
        why.scroll_into_view_if_needed()
        shoot(banker, "edges-table-leave-waits")
        play.draw()
        play.settle()
        assert not any(phones.state["pending"][k] for k in ("card", "offer", "auction", "debt"))
        if banker.locator("#more[open]").count() == 0:
            phones.banker.press(banker.locator("#more > summary"))
        phones.banker.press(banker.get_by_role("link", name="Bob leaves…"))
        phones.banker.tap("Yes: Bob leaves")
        state = phones.state
        assert state["players"][1]["eliminated"] is True
        assert state["pending"]["auction"]["item"] == "baltic-avenue"
        expect(phones.player("p2").page.locator("#player-view")).to_contain_text(
            "You are out of the game."
        )
        play.close()
        assert phones.state["properties"]["baltic-avenue"]["owner"] is None
    finally:
        phones.close()
