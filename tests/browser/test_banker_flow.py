"""The Banker's flow on the Banker's phone (390x844, touch): each screen right at the moment
that matters.

Each test sets the table up through the JSON API (as other phones would), then taps as the
Banker does and checks what the screen says and what the game recorded.
"""

from __future__ import annotations

import re

import pytest

from .conftest import played

expect = pytest.importorskip("playwright.sync_api").expect


class Table:
    """One game through the API, and the Banker's page of it on a phone."""

    def __init__(self, live_server, created: dict, page):
        self.server, self.created, self.page = live_server, created, page
        self.game = played(live_server, created)
        self.id, self.tokens = self.game.id, self.game.tokens

    def do(self, command: dict, token: str | None = None) -> dict:
        """A command through the JSON API (as another phone would send it); its answer."""
        return self.game.do(command, token=token)

    def state(self) -> dict:
        from banker.rules import public_state

        return public_state(self.server.store.state(self.id))

    def open(self) -> None:
        self.page.goto(self.created["banker_url"])
        self.settled()

    def settled(self, version: int | None = None) -> None:
        v = self.state()["version"] if version is None else version
        expect(self.page.locator("#screen")).to_have_attribute("data-version", str(v))
        self.page.wait_for_timeout(350)  # a person reads the new screen before the next tap

    def tap(self, name, exact: bool = True) -> None:
        """Tap a button that records one command; wait for the answer."""
        v = self.state()["version"] + 1
        self.button(name, exact).tap()
        self.settled(v)

    def button(self, name, exact: bool = True):
        return self.page.get_by_role("button", name=name, exact=exact)

    def heading(self):
        return self.page.get_by_role("heading", level=1)


@pytest.fixture
def table(live_server, phone, new_api_game):
    def make(names=("Ann", "Bob"), **body) -> Table:
        t = Table(live_server, new_api_game(names, **body), phone.new_page())
        return t

    return make


def test_a_trade_confirmed_while_the_summary_refresh_is_in_flight_is_made_and_stays_made(table):
    t = table()
    t.do({"type": "start", "first": "p1"})
    t.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    t.do({"type": "buy"})  # Ann owns Baltic Avenue
    t.page.goto(t.created["banker_url"])
    t.page.goto(f"{t.server.url}/games/{t.id}/trade")
    t.page.get_by_label("Baltic Avenue").tap()
    expect(t.page.locator("#trade-summary")).to_contain_text("Ann gives Baltic Avenue to Bob")
    # The Confirm reaches the server late: the summary refresh the cash field starts on being
    # left is answered first. It must not put the old form back, nor swallow the trade's answer.
    t.page.route(re.compile(r".*/act$"), lambda route: None)  # held
    t.page.locator("#receive-cash").fill("500")
    t.button("Confirm trade").tap()
    t.page.wait_for_timeout(1000)  # the refresh, if still going, has long been answered
    t.page.unroute(re.compile(r".*/act$"))  # the Confirm goes on
    expect(t.page.locator("#said")).to_contain_text("Ann traded")
    expect(t.heading()).to_have_text("Bob’s turn")
    t.page.wait_for_timeout(800)
    expect(t.heading()).to_have_text("Bob’s turn")
    expect(t.page.locator("#trade-summary")).to_have_count(0)
    state = t.state()
    assert state["properties"]["baltic-avenue"]["owner"] == "p2"
    assert [p["cash"] for p in state["players"]] == [1440 + 500, 1500 - 500]
    assert [c["type"] for c in t.server.store.commands(t.id)].count("trade") == 1


def test_a_half_entered_roll_survives_a_claim_made_from_another_phone(table, check_screen):
    t = table()
    t.do({"type": "start", "first": "p1"})
    t.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    t.do({"type": "buy"})
    t.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob on Ann's Baltic Avenue
    t.open()
    t.button("First die 3").tap()
    expect(t.page.locator("#pad legend")).to_contain_text("Second die first die: 3")
    claim = t.state()["pending"]["rent_claims"][0]["id"]
    version = t.state()["version"]
    t.do({"type": "claim_rent", "claim": claim}, token=t.tokens["p1"])  # Ann's own phone
    t.settled(version + 1)  # the live refresh has come
    expect(t.page.locator("#said")).to_contain_text("Bob paid Ann 4")
    expect(t.page.locator("#pad legend")).to_contain_text("Second die first die: 3")
    check_screen(t.page, "flow-pad-kept")
    t.button("Second die 4: record 3 and 4").tap()
    t.settled(version + 2)
    assert t.server.store.commands(t.id)[-1] == {"type": "roll", "player": "p1", "dice": [3, 4]}


def test_a_double_tap_on_the_second_die_records_one_roll_and_leaves_the_next_pad_clean(table):
    t = table()
    t.do({"type": "start", "first": "p1"})
    t.open()
    t.button("First die 1").tap()
    second = t.button("Second die 3: record 1 and 3")  # Ann: Income Tax, paid at once
    box = second.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    t.page.touchscreen.tap(x, y)
    # The answer is back and the next pad in place; the second tap of the double tap lands.
    t.page.wait_for_function(
        "() => document.querySelector('#screen').dataset.version === '2'", polling="raf"
    )
    t.page.touchscreen.tap(x, y)
    t.settled(2)
    t.page.wait_for_timeout(600)
    expect(t.page.locator("#pad legend")).to_have_text("First die")
    rolls = [c for c in t.server.store.commands(t.id) if c["type"] == "roll"]
    assert rolls == [{"type": "roll", "player": "p1", "dice": [1, 3]}]
    # And while the answer is still on its way, the second tap is dropped.
    held = []
    t.page.route(re.compile(r".*/act$"), lambda route: held.append(route))
    t.page.wait_for_timeout(400)
    t.button("First die 1").tap()
    t.button("Second die 3: record 1 and 3").tap()
    t.button("Second die 3: record 1 and 3").tap(force=True)
    t.page.wait_for_timeout(300)
    assert len(held) == 1  # the second tap sent nothing
    t.page.unroute(re.compile(r".*/act$"))  # lets the held request go on
    t.settled(3)
    rolls = [c for c in t.server.store.commands(t.id) if c["type"] == "roll"]
    assert len(rolls) == 2 and rolls[-1]["dice"] == [1, 3]


def test_the_heading_names_who_must_act_during_an_offer_and_a_card(table, check_screen):
    t = table(("Ann", "Bob", "Cat"))
    t.do({"type": "start", "first": "p1"})
    t.do({"type": "roll", "player": "p1", "dice": [1, 4]})  # Ann: Reading Railroad
    t.open()
    expect(t.heading()).to_have_text("Ann decides: buy Reading Railroad or auction it")
    expect(t.page.locator(".next-roll")).to_have_text("Then Bob rolls.")
    expect(t.page.locator(".strip li.acting")).to_have_count(1)
    expect(t.page.locator(".strip li.acting")).to_contain_text("Ann")
    check_screen(t.page, "flow-heading-offer")
    t.tap("Buy for 200")
    expect(t.heading()).to_have_text("Bob’s turn")
    t.button("First die 1").tap()
    t.tap("Second die 1: record 1 and 1")  # Bob: Community Chest (doubles)
    expect(t.heading()).to_have_text("Bob draws a Community Chest card")
    expect(t.page.locator(".next-roll")).to_have_text("Then Bob rolls again.")
    expect(t.page.locator(".strip li.acting")).to_contain_text("Bob")


def test_every_community_chest_card_reads_differently_story_first(table, check_screen):
    t = table()
    t.do({"type": "start", "first": "p1"})
    t.do({"type": "roll", "player": "p1", "dice": [1, 1]})  # Community Chest
    t.open()
    cards = t.page.locator("button.card-choice")
    expect(cards).to_have_count(16)
    labels = [" ".join(x.split()) for x in cards.all_inner_texts()]
    assert len(set(labels)) == 16
    assert labels.count("COLLECT $100.") == 0
    hospital = t.button(re.compile(r"^You spend the day playing games with kids"))
    expect(hospital.locator(".card-do")).to_have_text("COLLECT $100.")
    legends = t.page.locator("fieldset.card-group legend").all_inner_texts()
    assert legends == ["Move", "Collect", "Pay", "Jail"]
    check_screen(t.page, "flow-card-community-chest")
    v = t.state()["version"]
    hospital.tap()
    t.settled(v + 1)
    assert t.state()["players"][0]["cash"] == 1600


def test_an_actions_sentence_shows_once_where_it_was_made(table):
    t = table()
    t.do({"type": "start", "first": "p1"})
    t.open()
    t.button("First die 1").tap()
    t.tap("Second die 2: record 1 and 2")
    t.tap("Buy for 60")
    expect(t.page.locator("#said")).to_have_text("Ann bought Baltic Avenue for 60.")
    t.page.get_by_role("link", name=re.compile("^Ann")).first.tap()
    expect(t.page.get_by_role("heading", level=1)).to_have_text("Ann")
    expect(t.page.locator("#said")).to_have_text("")
    nav = t.page.get_by_role("navigation", name="Screens")
    nav.get_by_role("link", name="Trade", exact=True).tap()
    expect(t.page.get_by_role("heading", level=1)).to_have_text("Trade")
    expect(t.page.locator("#said")).to_have_text("")
    nav.get_by_role("link", name="Table", exact=True).tap()
    expect(t.heading()).to_have_text("Bob’s turn")
    expect(t.page.locator("#said")).to_have_text("")


def test_history_is_grouped_by_turn_newest_first_with_undo_on_top(table, check_screen):
    t = table()
    t.do({"type": "start", "first": "p1"})
    t.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    t.do({"type": "buy"})
    t.do({"type": "adjust", "player": "p2", "amount": 20, "reason": "miscounted change"})
    t.do({"type": "roll", "player": "p2", "dice": [2, 3]})
    t.do({"type": "auction"})
    t.open()
    t.page.get_by_role("navigation", name="Screens").get_by_role("link", name="History").tap()
    expect(t.page.get_by_role("heading", level=1)).to_have_text("History")
    groups = t.page.locator(".turn-group h3")
    expect(groups).to_have_text(
        ["Bob rolled 2 and 3", "Ann rolled 1 and 2", "Ann won the opening roll and starts"]
    )
    first = t.page.locator(".turn-group").first
    expect(first).to_contain_text("Bob landed on Reading Railroad.")
    ann = t.page.locator(".turn-group").nth(1)
    expect(ann.locator("li.correction")).to_contain_text("Correction")
    expect(ann.locator("li.correction")).to_contain_text("miscounted change")
    undo = t.button(re.compile("^Undo: "))
    top = t.page.locator(".turn-group").first.bounding_box()["y"]
    assert undo.bounding_box()["y"] < top
    check_screen(t.page, "flow-history")


def test_quick_raises_never_exceed_the_bidders_cash(table, check_screen):
    t = table(("Ann", "Bob", "Cat"))
    t.do({"type": "start", "first": "p1"})
    t.do({"type": "adjust", "player": "p2", "amount": -1463, "reason": "test"})  # Bob: 37
    t.do({"type": "adjust", "player": "p3", "amount": -1480, "reason": "test"})  # Cat: 20
    t.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    t.do({"type": "auction"})
    t.do({"type": "bid", "player": "p1", "amount": 30})
    t.open()
    bob = t.page.locator(".bidder").nth(1)
    expect(bob).to_contain_text("Bob · has 37")
    expect(bob.locator("button[name=raise]:not([value=typed])")).to_have_count(1)
    expect(bob.get_by_role("button", name=re.compile(r"^\+1 ?: Bob bids 31$"))).to_be_visible()
    cat = t.page.locator(".bidder").nth(2)
    expect(cat).to_contain_text("Cat has only 20 in cash and cannot bid 31.")  # the core's
    expect(cat.locator("button")).to_have_count(0)
    check_screen(t.page, "flow-auction-cash")


def _bob_owes_ann_more_than_he_can_raise(t: Table) -> None:
    t.do({"type": "start", "first": "p2"})
    t.do({"type": "move", "player": "p2", "position": 38, "reason": "set up"})
    t.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob: Mediterranean Avenue
    t.do({"type": "buy"})
    t.do({"type": "move", "player": "p1", "position": 36, "reason": "set up"})
    t.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Ann: Boardwalk
    t.do({"type": "buy"})
    t.do({"type": "move", "player": "p2", "position": 36, "reason": "set up"})
    bob = t.state()["players"][1]["cash"]
    t.do({"type": "adjust", "player": "p2", "amount": 10 - bob, "reason": "set up"})
    t.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob on Boardwalk: 50 rent
    claim = t.state()["pending"]["rent_claims"][0]["id"]
    t.do({"type": "claim_rent", "claim": claim})


def test_bankruptcy_is_confirmed_first_saying_what_passes_to_whom(table, check_screen):
    t = table()
    _bob_owes_ann_more_than_he_can_raise(t)
    t.open()
    expect(t.heading()).to_have_text("Bob must pay 50 to Ann")
    before = t.state()
    t.page.get_by_role("link", name="Declare Bob bankrupt…").tap()
    box = t.page.locator(".confirm-box")
    expect(box.get_by_role("heading")).to_have_text("Declare Bob bankrupt?")
    expect(box).to_contain_text("Everything passes to Ann:")
    expect(box).to_contain_text("40 in cash (10 now, and the mortgage values of the deeds")
    expect(box).to_contain_text("Mediterranean Avenue, mortgaged first (+30 in the cash above)")
    check_screen(t.page, "flow-bankrupt-confirm")
    assert t.state() == before  # nothing happened yet
    t.page.wait_for_timeout(1000)  # a live refresh keeps the confirmation open
    expect(box).to_be_visible()
    t.button("Yes: Bob is bankrupt").tap()
    expect(t.heading()).to_have_text("Game over")
    state = t.state()
    assert state["players"][1]["eliminated"] is True
    assert state["players"][0]["cash"] == 1500 - 400 + 40
    assert state["properties"]["mediterranean-avenue"] == {
        "owner": "p1",
        "mortgaged": True,
        "houses": 0,
        "hotel": False,
    }


def test_the_banker_moves_to_a_second_device_that_has_no_cookie(table, browser, check_screen):
    from banker.store import Store

    from .conftest import PHONE

    if not hasattr(Store, "new_token"):
        pytest.skip("Store.new_token (helper players) is not merged yet")
    t = table()
    t.do({"type": "start", "first": "p1"})
    t.open()
    t.page.get_by_text("More", exact=True).tap()
    t.page.get_by_role("link", name="Use this game on another device").tap()
    expect(t.page.locator(".confirm-box")).to_contain_text("This phone stops being the Banker")
    t.button("Make the new Banker link").tap()
    link = t.page.locator("a.banker-link")
    expect(link).to_be_visible()
    check_screen(t.page, "flow-banker-moved")
    url = link.get_attribute("href")
    other = browser.new_context(**PHONE)
    try:
        page = other.new_page()
        page.goto(url)
        expect(page.get_by_role("heading", level=1)).to_have_text("Ann’s turn")
        page.get_by_role("button", name="First die 1").tap()
        page.get_by_role("button", name="Second die 2: record 1 and 2").tap()
        expect(page.locator("#screen")).to_have_attribute("data-version", "2")
    finally:
        other.close()
    t.page.goto(f"{t.server.url}/games/{t.id}")
    expect(t.page.locator("main")).to_contain_text("no longer the Banker of this game")
