"""No button that will be refused, in chromium: a control the rules would refuse is absent, or
disabled with the core's reason, on the Banker's phone and the players' (Build and Lift during
a debt, Mortgage after the deadline's cutoff, "Offer a trade" on an eliminated player's page and
once the game is over), and the debtor's own phone offers what settles the debt."""

from __future__ import annotations

import re

import pytest

from .conftest import both_schemes, played

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
    both_schemes(ann, "truth-out-no-offer")


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
    both_schemes(bob, "truth-over-no-offer")


def _seen_button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def test_build_and_lift_are_disabled_with_the_reason_during_a_debt(
    live_server, phone, new_api_game
):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(
        ("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"), ("reading-railroad", "p1")
    )
    g.do(type="mortgage", property="reading-railroad")
    g.pass_to("p2")
    g.adjust_to("p2", 10)
    g.land("p2", 4)  # Income Tax: Bob owes the Bank 200
    assert g.pending["debt"]["debtor"] == "p2"
    ann = _phone(phone, created, "p1")
    banker = phone.new_page()
    banker.goto(created["banker_url"])
    banker.goto(banker.url + "/players/p1")
    for page in (ann, banker):
        build = page.get_by_role("button", name="Build house 50 on Baltic Avenue")
        lift = page.get_by_role("button", name="Lift 110 on Reading Railroad")
        expect(build).to_be_disabled()
        expect(lift).to_be_disabled()
        expect(page.locator("#why-baltic-avenue-build")).to_contain_text("settle that debt first")
    both_schemes(ann, "truth-debt-build-lift-player")
    both_schemes(banker, "truth-debt-build-lift-banker")


def test_after_the_cutoff_only_the_debtor_may_raise_cash_and_their_phone_offers_how(
    live_server, phone, new_api_game
):
    created = new_api_game(["Ann", "Bob"], options={"deadline": True})
    g = played(live_server, created)
    g.start("p1")
    g.roll("p1", 2, 4)  # Ann: Oriental Avenue
    g.do(type="buy")
    g.roll("p2", 1, 2)  # Bob: Baltic Avenue
    g.do(type="buy")
    g.roll("p1", 1, 2)  # Ann: Connecticut Avenue
    g.do(type="buy")
    g.do(type="call_time")  # Bob's roll is the last of the final round
    g.adjust_to("p2", 2)
    g.roll("p2", 1, 2)  # Bob on Ann's Oriental Avenue: her claim outlives the round
    g.claim(token=created["players"][0]["token"])  # Bob cannot pay the 6: a debt
    assert g.pending["debt"]["debtor"] == "p2" and g.state["turn"]["player"] is None
    bob, ann = _phone(phone, created, "p2"), _phone(phone, created, "p1")
    # The debtor's own phone: what settles the debt.
    expect(bob.get_by_role("button", name="Mortgage +30 on Baltic Avenue").first).to_be_enabled()
    expect(bob.get_by_role("link", name="Offer a trade to raise the cash")).to_be_visible()
    # Another phone: nothing the cutoff forbids.
    mortgage = ann.get_by_role("button", name="Mortgage +50 on Oriental Avenue")
    expect(mortgage).to_be_disabled()
    expect(ann.locator("#why-oriental-avenue-mortgage")).to_contain_text("final round is over")
    both_schemes(bob, "truth-cutoff-debtor")
    both_schemes(ann, "truth-cutoff-other")


_LOOKS_PLAIN = """(name) => {
  const b = [...document.querySelectorAll('button')].find(b => b.textContent.trim() === name);
  const plain = document.createElement('button');
  document.body.append(plain);
  const same = ['backgroundColor', 'color'].every(
    k => getComputedStyle(b)[k] === getComputedStyle(plain)[k]);
  plain.remove();
  return same;
}"""


def test_a_disabled_go_ahead_button_looks_like_a_plain_one_in_light_and_dark(
    live_server, phone, new_api_game
):
    created = new_api_game(["Ann", "Bob"])
    g = played(live_server, created)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))
    ann = _phone(phone, created, "p1")
    ann.get_by_role("link", name="Offer a trade").tap()
    expect(ann.locator("#trade-why")).to_have_text(re.compile("exchanges nothing|hand over"))
    offer = _seen_button(ann, "Offer to Bob")
    expect(offer).to_be_disabled()
    for scheme in ("light", "dark"):
        ann.emulate_media(color_scheme=scheme)
        assert ann.evaluate(_LOOKS_PLAIN, "Offer to Bob"), scheme  # not the accent's green
    both_schemes(ann, "truth-disabled-offer")
