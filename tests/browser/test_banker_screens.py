"""Every Banker screen at 390x844, light and dark: a screenshot each (screenshots/banker-*.png,
looked at by a person) and the phone rules (no sideways scroll, thumb-sized controls, 16 px
text, no serious axe finding) checked on each."""

from __future__ import annotations

import pytest

from .test_banker_flow import Table, _bob_owes_ann_more_than_he_can_raise

expect = pytest.importorskip("playwright.sync_api").expect


def _screens(t: Table, shoot) -> None:
    page, base = t.page, f"{t.server.url}/games/{t.id}"
    page.goto(t.server.url + "/")
    shoot("home")
    t.open()
    shoot("setup")
    t.do({"type": "start", "first": "p1"})
    t.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Ann: Baltic Avenue
    page.goto(base)
    shoot("offer")
    t.do({"type": "buy"})
    t.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob on Baltic: a claim
    page.goto(base)
    page.get_by_role("button", name="First die 4").tap()
    shoot("claim-and-pad")
    t.do({"type": "roll", "player": "p3", "dice": [2, 3]})  # Cat: Reading Railroad
    t.do({"type": "auction"})
    t.do({"type": "bid", "player": "p1", "amount": 30})
    page.goto(base)
    shoot("auction")
    t.do({"type": "close_auction"})
    t.do({"type": "roll", "player": "p1", "dice": [2, 2]})  # Ann: 7 Chance, doubles
    page.goto(base)
    shoot("card-chance")
    t.do({"type": "draw_card", "deck": "chance", "card": "go-to-jail"})
    page.goto(base)
    shoot("jail-next")
    page.goto(base + "/players/p1")
    shoot("sheet")
    page.goto(base + "/trade?from=p1&to=p2&give_properties=baltic-avenue&receive_cash=100")
    shoot("trade")
    page.goto(base + "/history")
    shoot("history")
    page.goto(base + "/board")
    shoot("board")
    page.goto(base + "?confirm=stop")
    shoot("stop-confirm")
    page.goto(base + "?confirm=move")
    shoot("move-confirm")
    page.goto(base)
    page.get_by_text("More", exact=True).tap()
    shoot("more")
    page.goto(t.server.url + "/")
    expect(page.locator(".games")).to_contain_text("Banker · Ann, Bob, Cat")
    shoot("home-with-games")


def _endings(live_server, new_api_game, page, shoot) -> None:
    """A trade offer from a phone, the deadline's waiting claims, a stopped game, a move."""
    t = Table(live_server, new_api_game(["Ann", "Bob"], options={"deadline": True}), page)
    t.do({"type": "start", "first": "p1"})
    t.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    t.do({"type": "buy"})
    side = {"cash": 0, "properties": ["baltic-avenue"], "jail_cards": []}
    cash = {"cash": 100, "properties": [], "jail_cards": []}
    offer = {"type": "propose_trade", "from": "p1", "to": "p2", "give": side, "receive": cash}
    t.do({**offer, "unmortgage": []}, token=t.tokens["p1"])
    t.open()
    shoot("trade-offer")
    t.do({"type": "decline_trade", "offer": t.state()["pending"]["trade_offers"][0]["id"]})
    t.do({"type": "call_time"})
    t.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # the final round ends on a claim
    t.open()
    shoot("final-claims")
    t = Table(live_server, new_api_game(["Ann", "Bob"]), page)
    t.do({"type": "start", "first": "p1"})
    t.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    t.do({"type": "buy"})
    t.do({"type": "stop"})
    t.open()
    shoot("unfinished")
    t.page.goto(f"{t.server.url}/games/{t.id}?confirm=move")
    t.page.get_by_role("button", name="Make the new Banker link").tap()
    expect(t.page.locator("a.banker-link")).to_be_visible()
    shoot("moved")
    t.page.goto(f"{t.server.url}/games/{t.id}")
    shoot("moved-old-phone")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_banker_screen_on_a_phone(live_server, browser, new_api_game, check_screen, scheme):
    from .conftest import PHONE

    context = browser.new_context(**PHONE, color_scheme=scheme)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        t = Table(live_server, new_api_game(["Ann", "Bob", "Cat"]), page)

        def shoot(name: str) -> None:
            check_screen(page, f"banker-{scheme}-{name}")

        _screens(t, shoot)
        debt = Table(live_server, new_api_game(["Ann", "Bob"]), page)
        _bob_owes_ann_more_than_he_can_raise(debt)
        debt.open()
        shoot("debt")
        page.get_by_role("link", name="Declare Bob bankrupt…").tap()
        expect(page.locator(".confirm-box")).to_be_visible()
        shoot("bankrupt-confirm")
        page.get_by_role("button", name="Yes: Bob is bankrupt").tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Game over")
        shoot("finished")
        _endings(live_server, new_api_game, page, shoot)
    finally:
        context.close()
