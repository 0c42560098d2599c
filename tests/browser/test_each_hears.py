"""Each person hears what happened to them, in chromium: the proposer's phone says at the top,
within a second, that Bob declined (or accepted) the offer, or that it is off and why; the
phone's message banner sits in the page and never covers what scrolls under it."""

from __future__ import annotations

import pytest

from .conftest import both_schemes, played, screenshot

expect = pytest.importorskip("playwright.sync_api").expect


def _offer(g, token, frm="p1", to="p2", cash=50):
    """Ann offers Bob Baltic Avenue (bought by a roll first) for `cash`: the offer's id."""
    if g.prop("baltic-avenue")["owner"] != frm:
        g.deeds_by_rolls(("baltic-avenue", frm))
    nothing = {"cash": 0, "properties": [], "jail_cards": []}
    g.do(
        type="propose_trade",
        **{"from": frm, "to": to},
        give={**nothing, "properties": ["baltic-avenue"]},
        receive={**nothing, "cash": cash},
        unmortgage=[],
        token=token,
    )
    return g.pending["trade_offers"][-1]["id"]


# The page is scrolled down and has stopped moving (the same place two frames apart).
STILL = """() => new Promise(done => {
    const y = window.scrollY;
    requestAnimationFrame(() => requestAnimationFrame(() => done(y > 0 && window.scrollY === y)));
})"""


@pytest.mark.parametrize(
    ("answer", "said"),
    [("decline_trade", "Bob declined your offer."), ("accept_trade", "Bob accepted your offer.")],
)
def test_the_proposers_phone_says_at_the_top_within_a_second_what_bob_answered(
    live_server, phone, new_api_game, answer, said
):
    created = new_api_game(["Ann", "Bob", "Cat"])
    g = played(live_server, created)
    g.start("p1")
    ann_token, bob_token = created["players"][0]["token"], created["players"][1]["token"]
    offer = _offer(g, ann_token)
    ann = phone.new_page()
    ann.goto(created["players"][0]["join_url"])
    ann.mouse.wheel(0, 2000)  # she is reading the others, further down
    ann.wait_for_function(STILL)  # scrolled, and still (the wheel scrolls after it returns)
    g.do(type=answer, offer=offer, token=bob_token)
    news = ann.locator("#news")
    expect(news).to_have_text(said, timeout=1000)
    expect(news).to_be_in_viewport()  # brought into view: she was further down
    box = news.bounding_box()
    assert box["y"] < ann.locator("#player-view").bounding_box()["y"]  # above everything
    both_schemes(ann, f"truth-news-{answer.split('_')[0]}", full_page=False)


def test_the_proposer_is_told_when_their_offer_is_off_because_bob_is_out(
    live_server, phone, new_api_game
):
    created = new_api_game(["Ann", "Bob", "Cat"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))
    g.adjust_to("p2", 10)
    g.land("p2", 4)  # Income Tax, 200: Bob cannot pay
    _offer(g, created["players"][0]["token"], cash=5)  # Ann offers him a deal meanwhile
    ann = phone.new_page()
    ann.goto(created["players"][0]["join_url"])
    g.do(type="bankrupt", player="p2")
    expect(ann.locator("#news")).to_have_text(
        "Your offer to Bob is off: Bob is out of the game.", timeout=1000
    )
    both_schemes(ann, "truth-news-off-bob-out", full_page=False)


def test_the_players_message_banner_never_covers_what_scrolls_under_it(
    live_server, browser, new_api_game
):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"), ("oriental-avenue", "p2"))
    for scheme in ("light", "dark"):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
            color_scheme=scheme,
        )  # fmt: skip
        try:
            ann = context.new_page()
            ann.goto(created["players"][0]["join_url"])
            ann.get_by_role("button", name="Mortgage +30 on Baltic Avenue").tap()
            expect(ann.locator("#said")).to_contain_text("mortgaged Baltic Avenue")
            ann.mouse.wheel(0, 600)
            ann.wait_for_timeout(100)
            on_top = ann.evaluate(
                "() => !!document.elementFromPoint(195, 20).closest('#said, #news')"
            )
            assert not on_top  # the banner scrolled away with the page
            screenshot(ann, f"truth-banner-scrolled-{scheme}", full_page=False)
            g.do(type="unmortgage", property="baltic-avenue")
        finally:
            context.close()
