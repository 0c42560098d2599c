"""A long game at a table of phones, in chromium: at least 60 turns with fixed dice across the
Banker's phone, three players' phones (Ann, Bob, Cat; Dan plays on the Banker's phone) and the
big screen, with private cash and an agreed deadline. It covers typed bids, trade offers
declined, withdrawn and accepted, debts, a bankruptcy to a player and one to the Bank, pause
and resume, and the deadline's end. After every tap, every screen is checked (the checks are
tests/browser/phones.py's; how the game is played by taps is tests/browser/table_play.py's)."""

from __future__ import annotations

import time

import pytest

from .phones import Phones
from .table_play import Play

expect = pytest.importorskip("playwright.sync_api").expect

PHONES = ("p1", "p2", "p3")


def a_typed_bid_while_another_raises(play: Play, phones: Phones) -> None:
    """Ann lets Baltic Avenue go to auction; Bob types his bid while Cat raises on her phone:
    his field keeps what he typed, and once his bid is accepted it is empty."""
    play.roll(to=3)
    phones.player("p1").tap("Auction")
    bob = phones.player("p2")
    bob.type_into("bid-amount", "1")
    phones.player("p3").tap("10: bid 10")  # every screen checked: Bob's "1" is still there
    bob.page.locator("#bid-amount").press_sequentially("5")
    bob.sent("bid-amount")
    bob.tap("Bid")
    expect(bob.page.locator("#bid-amount")).to_have_value("")
    assert play.state["pending"]["auction"]["high_bid"] == 15
    play.close()
    play.settle()


def offers_declined_withdrawn_and_accepted(play: Play, phones: Phones) -> None:
    """From Ann's phone: an offer Bob declines (her phone says so at the top), one she
    withdraws, one Cat accepts."""
    deed = next(d for d, st in play.state["properties"].items() if st["owner"] == "p1")
    play.offer_trade("p1", "p2", [deed], 400)
    play.answer_offer("p2", "Decline")
    expect(phones.player("p1").page.locator("#news")).to_have_text("Bob declined your offer.")
    play.offer_trade("p1", "p2", [deed], 300)
    play.answer_offer("p1", "Withdraw")
    play.offer_trade("p1", "p3", [deed], 50)
    play.answer_offer("p3", "Accept")
    expect(phones.player("p1").page.locator("#news")).to_have_text("Cat accepted your offer.")
    assert play.state["properties"][deed]["owner"] == "p3"


def a_debt_raised_by_mortgaging(play: Play, pid: str) -> None:
    """`pid`, short of cash (the Banker's correction), lands on Income Tax: they mortgage from
    their phone and pay."""
    for _ in range(12):
        play.until_turn_of(pid)
        if play.reachable(pid, lambda i: i == 4) is not None:
            break
        play.turn()
    play.correct_cash(pid, 60)
    assert play.player(pid)["cash"] + play.can_raise(pid) >= 200
    play.lands_on(pid, 4)
    assert not play.state["pending"]["debt"]


def a_bankruptcy(play: Play, pid: str, wanted) -> None:
    """`pid`, their deeds mortgaged (from their phone) and next to no cash left (the Banker's
    correction), rolls onto a space `wanted` accepts and cannot pay: the Banker declares them
    bankrupt."""
    for _ in range(12):
        play.until_turn_of(pid)
        target = play.reachable(pid, wanted, past_go=False)
        if target is not None:
            for d, st in play.state["properties"].items():  # what they have, mortgaged first
                if st["owner"] == pid and not st["mortgaged"]:
                    play.mortgage(pid, d)
            play.correct_cash(pid, 5)
            play.turn(to=target)
            said = [e["text"] for e in play.phones.live_server.store.recent_events(
                play.phones.game_id, 8)]  # fmt: skip
            assert play.player(pid)["eliminated"], (play.player(pid), said)
            return
        play.turn()
    raise AssertionError(f"{pid} never reached a space to go bankrupt on")


def test_a_long_game_at_a_table_of_phones(live_server, browser, new_api_game, tmp_path):
    created = new_api_game(
        ["Ann", "Bob", "Cat", "Dan"], options={"private_cash": True, "deadline": True}
    )
    phones = Phones(live_server, browser, created, phones=PHONES)
    play = Play(phones)
    start = time.monotonic()
    try:
        phones.banker.tap("Ann starts")
        a_typed_bid_while_another_raises(play, phones)
        for _ in range(10):
            play.turn()
        play.lands_on("p2", 30)  # Bob goes to Jail; he pays his way out from his phone next turn
        play.until_turn_of("p1")
        play.turn(dice=(2, 2))  # doubles: Ann rolls again
        play.turn()
        offers_declined_withdrawn_and_accepted(play, phones)
        for _ in range(4):
            play.turn()
        a_debt_raised_by_mortgaging(play, "p2")
        play.pause_and_resume(tmp_path)
        for _ in range(4):
            play.turn()
        owners = {"p1", "p2", "p3"}
        a_bankruptcy(play, "p4", play.rent_over(5, owners))  # Dan: all he has goes to the owner
        a_bankruptcy(play, "p3", lambda i: i in (4, 38))  # Cat, to the Bank: a tax
        while play.rolls < 60:
            play.turn()
        play.until_turn_of("p1")
        play.call_time()
        while play.state["status"] == "playing":
            play.turn()
        assert play.rolls >= 60 and play.state["status"] == "finished"
        for seat in phones.seats.values():
            if seat.kind != "display":
                expect(seat.page.locator("#standings")).to_be_visible()
    finally:
        elapsed = time.monotonic() - start
        checked = f"{phones.actions} actions checked on every screen"
        spent = ", ".join(f"{k} {v:.0f} s" for k, v in phones.timings.items())
        print(f"\n{play.rolls} rolls, {checked}, {elapsed:.0f} s ({spent})")
        phones.close()
