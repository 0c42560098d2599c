"""Jail: going in, getting out (fine, card, doubles, three attempts), and business as usual inside.

Named after the sentences of the G0009 guide ("Jail stops movement, not property business") and
the classic "Jail" section.
"""

from __future__ import annotations

import pytest

from .helpers import NO_PENDING, BadCommand, CoreGame, DomainError, pending, started

EDITIONS = ["g0009", "classic"]


def jailed(edition: str = "g0009", cash: int = 1500, attempts: int = 0, cards=()) -> CoreGame:
    """Ann in Jail at the start of her turn (Bob and Cat at Free Parking's doorstep)."""
    g = started(edition)
    g.place("p1", 10, in_jail=True, jail_attempts=attempts, cash=cash, jail_cards=list(cards))
    return g


def next_round(g: CoreGame) -> None:
    """Bob and Cat take a quiet turn each (to Free Parking and back), so it is Ann's turn again."""
    for pid in ("p2", "p3"):
        assert g.whose_turn == pid
        g.place(pid, 15)
        g.roll(pid, 1, 4)
    assert g.whose_turn == "p1"


def ann(g: CoreGame) -> tuple:
    p = g.player("p1")
    return p["position"], p["in_jail"], p["jail_attempts"], p["cash"]


# --- going in -----------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("how", ["space", "card", "doubles"])
def test_you_go_to_jail_on_go_to_jail_by_a_card_or_by_three_doubles_in_a_row(edition, how):
    """ "You go to Jail when you land on Go To Jail, draw a card that sends you there, or roll
    doubles three times in a row." (classic)"""
    g = started(edition)
    if how == "space":
        g.place("p1", 26)
        g.roll("p1", 1, 3)
    elif how == "card":
        g.place("p1", 14)
        g.roll("p1", 1, 2)
        g.draw("community_chest", "go-to-jail")
    else:
        g.roll("p1", 1, 1)  # Community Chest 2: its card first
        g.draw("community_chest", "collect-20-groceries")
        g.roll("p1", 2, 2)  # Oriental Avenue
        g.do(type="buy")
        g.roll("p1", 3, 3)
    position, in_jail, attempts, _ = ann(g)
    assert (position, in_jail, attempts) == (10, True, 0)
    assert g.whose_turn == "p2"


def test_when_sent_to_jail_do_not_collect_200_for_passing_go_on_that_move():
    """ "When sent to Jail, move directly to its In Jail area and end the turn. Do not collect 200
    for passing GO on that move." """
    g = started()
    g.place("p1", 33)
    g.roll("p1", 1, 2)  # Chance 36: the way to Jail runs past GO
    g.draw("chance", "go-to-jail")
    assert ann(g) == (10, True, 0, 1500)
    assert "passed_go" not in g.types()


# --- paying or using a card -------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_at_the_start_of_your_next_turn_pay_50_and_then_roll_and_move_normally(edition):
    """ "At the start of your next turn, either pay 50 and then roll and move normally" (G0009);
    "pay the Bank $50 and then roll and move as normal" (classic)"""
    g = jailed(edition)
    g.do(type="pay_jail_fine", player="p1")
    assert g.texts() == ["Ann paid the 50 fine and left Jail; now roll and move as normal."]
    assert ann(g) == (10, False, 0, 1450)
    assert g.whose_turn == "p1"
    g.roll("p1", 2, 3)
    assert g.texts()[:2] == ["Ann rolled 2 and 3.", "Ann landed on Pennsylvania Railroad."]
    assert ann(g) == (15, False, 0, 1450)
    assert g.whose_turn == "p2"


def test_after_paying_the_fine_doubles_are_a_normal_roll_with_another_turn():
    """ "pay 50 and then roll and move normally" -- normally includes the doubles' extra roll."""
    g = jailed()
    g.do(type="pay_jail_fine", player="p1")
    g.roll("p1", 5, 5)
    assert ann(g) == (20, False, 0, 1450)
    assert g.turn == {"player": "p1", "doubles": 1, "first": "p1", "roller": "Ann"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_or_use_a_get_out_of_jail_free_card_and_then_roll_and_move_normally(edition):
    """ "or use a Get Out of Jail Free card and then roll and move normally." (G0009); "use a Get
    Out of Jail Free card and then roll and move" (classic)"""
    g = jailed(edition, cards=["chance"])
    g.do(type="use_jail_card", player="p1", deck="chance")
    assert g.texts() == [
        "Ann used the Chance Get Out of Jail Free card (back to the bottom of its "
        "deck) and left Jail."
    ]
    assert ann(g) == (10, False, 0, 1500)
    assert g.player("p1")["jail_cards"] == []
    g.roll("p1", 1, 4)
    assert ann(g) == (15, False, 0, 1500)


def test_return_a_used_card_to_its_proper_deck():
    """ "Return a used card to its proper deck." -- the Chance card goes back to Chance only."""
    g = jailed(cards=["chance", "community_chest"])
    g.do(type="use_jail_card", player="p1", deck="community_chest")
    assert g.player("p1")["jail_cards"] == ["chance"]
    g.roll("p1", 3, 4)  # Community Chest 17
    g.draw("community_chest", "get-out-of-jail-free")
    assert g.player("p1")["jail_cards"] == ["chance", "community_chest"]


def test_a_card_must_be_held_to_be_used():
    """ "use a Get Out of Jail Free card" -- one the player holds, from a real deck."""
    g = jailed(cards=["chance"])
    assert (
        g.refused(DomainError, type="use_jail_card", player="p1", deck="community_chest").code
        == "no_jail_card"
    )
    g.refused(BadCommand, type="use_jail_card", player="p1", deck="jail")
    g.refused(BadCommand, type="use_jail_card", player="p1")
    g.refused(BadCommand, type="use_jail_card", deck="chance")


def test_paying_the_fine_is_for_a_jailed_player_at_the_start_of_their_own_turn():
    """ "At the start of your next turn, either pay 50 ..." -- not out of Jail, not in another's
    turn, not after the roll."""
    g = jailed()
    assert g.whose_turn == "p1"
    assert g.refused(DomainError, type="pay_jail_fine", player="p2").code == "not_in_jail"
    g.roll("p1", 1, 2)  # the jailed roll is the turn; it passes
    assert g.refused(DomainError, type="pay_jail_fine", player="p1").code == "not_your_turn"
    g.refused(DomainError, type="use_jail_card", player="p1", deck="chance")


def test_paying_the_fine_by_choice_needs_50_in_cash():
    """API: "Paying the fine by choice needs 50 in cash (else 422)." """
    g = jailed(cash=49)
    err = g.refused(DomainError, type="pay_jail_fine", player="p1")
    assert err.message == "Ann has only 49: the fine is 50."


# --- rolling for doubles ----------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_doubles_free_you_move_by_that_roll_resolve_the_destination_and_end_your_turn(edition):
    """ "Doubles free you; move by that roll, resolve the destination and end your turn without the
    usual extra roll." (G0009); "if you roll doubles, you move that many spaces, but you do not get
    an extra turn for those doubles." (classic)"""
    g = jailed(edition, attempts=1)
    g.roll("p1", 3, 3)
    assert g.texts() == [
        "Ann rolled 3 and 3 in Jail: doubles, out of Jail (no extra roll).",
        "Ann landed on St. James Place.",
        "Ann may buy St. James Place for 180 or put it up for auction.",
    ]
    assert ann(g) == (16, False, 0, 1500)
    assert g.pending == pending(offer={"player": "p1", "property": "st-james-place", "price": 180})
    assert g.turn == {"player": "p2", "doubles": 0, "first": "p1", "roller": "Bob"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_alternatively_try_rolling_doubles_instead_of_paying(edition):
    """ "Alternatively, try rolling doubles instead of paying." -- a miss stays in Jail and the
    turn passes."""
    g = jailed(edition)
    g.roll("p1", 1, 2)
    assert g.texts() == ["Ann rolled 1 and 2 in Jail: no doubles (attempt 1 of 3)."]
    assert ann(g) == (10, True, 1, 1500)
    assert g.whose_turn == "p2"
    assert g.pending == NO_PENDING


@pytest.mark.parametrize("edition", EDITIONS)
def test_you_may_try_on_up_to_three_jailed_turns_and_if_the_third_fails_pay_50_and_move(edition):
    """ "You may try on up to three jailed turns. If the third attempt fails, pay 50 and move using
    that third roll." (G0009); "If you still have not rolled doubles on your third turn, you must
    pay $50 and move using that last roll." (classic)"""
    g = jailed(edition)
    g.roll("p1", 1, 2)
    next_round(g)
    g.roll("p1", 4, 5)
    assert ann(g) == (10, True, 2, 1500)
    next_round(g)
    g.roll("p1", 1, 2)
    assert g.texts() == [
        "Ann rolled 1 and 2 in Jail: no doubles on the third attempt, so pays 50 and moves.",
        "Ann paid the Bank 50 (Jail fine).",
        "Ann landed on States Avenue.",
        "Ann may buy States Avenue for 140 or put it up for auction.",
    ]
    assert ann(g) == (13, False, 0, 1450)
    assert g.whose_turn == "p2"


def test_if_you_cannot_pay_the_third_attempts_fine_it_is_a_debt_and_the_move_follows_payment():
    """ "If you cannot pay, use the debt rules below." -- API: "After a third failed attempt the 50
    is charged first; if it cannot be paid it becomes the debt, and the move by that roll is made
    once it is paid." """
    g = jailed(cash=30, attempts=2)
    g.own("p1", "mediterranean-avenue")
    g.roll("p1", 2, 1)
    assert g.texts() == [
        "Ann rolled 2 and 1 in Jail: no doubles on the third attempt, so pays 50 and moves.",
        "Ann cannot pay 50 to the Bank (Jail fine) with 30 in cash: a debt until raised or "
        "bankrupt.",
    ]
    assert ann(g) == (10, True, 3, 30)
    assert g.pending == pending(
        debt={
            "debtor": "p1",
            "creditor": None,
            "amount": 50,
            "reason": "jail_fine",
            "can_raise": 30,
        }
    )
    assert g.refused(DomainError, type="roll", player="p2", dice=[1, 2]).code == "debt_pending"
    g.refused(DomainError, type="pay_debt")
    g.do(type="mortgage", property="mediterranean-avenue")
    g.do(type="pay_debt")
    assert g.texts() == [
        "Ann paid the Bank 50 (debt settled).",
        "Ann landed on States Avenue.",
        "Ann may buy States Avenue for 140 or put it up for auction.",
    ]
    assert ann(g) == (13, False, 0, 10)
    assert g.whose_turn == "p2"


def test_going_bankrupt_over_the_third_attempts_fine_cancels_the_move():
    """ "If those assets still cannot cover the debt, you are bankrupt and eliminated." """
    g = jailed(cash=30, attempts=2)
    g.roll("p1", 2, 1)
    g.do(type="bankrupt", player="p1")
    p1 = g.player("p1")
    assert p1["eliminated"] is True and p1["position"] == 10
    assert g.pending == NO_PENDING
    g.place("p2", 15)
    g.roll("p2", 1, 4)
    assert g.whose_turn == "p3"


def test_jail_attempts_belong_to_the_token_and_are_counted_across_turns():
    """ "You get up to three turns to try for doubles." (classic) -- the count survives the round
    and starts afresh on the next visit."""
    g = jailed()
    g.roll("p1", 1, 2)
    next_round(g)
    assert g.player("p1")["jail_attempts"] == 1
    g.roll("p1", 2, 2)  # out on doubles: the count is cleared
    assert ann(g)[:3] == (14, False, 0)


def test_a_jailed_roll_lapses_the_claims_of_others_like_any_roll():
    """ "pay rent when its owner asks before the next player rolls": a jail attempt is a roll."""
    g = started()
    g.own("p3", "vermont-avenue")
    g.setup(lambda s: s["players"][1].update(position=10, in_jail=True))
    g.roll("p1", 3, 5)
    assert len(g.claims) == 1
    g.roll("p2", 1, 2)  # Bob's attempt at doubles
    assert g.claims == []


# --- business as usual in Jail ----------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_you_may_still_collect_rent_while_jailed(edition):
    """ "You may still collect rent, bid in auctions, trade, mortgage and buy buildings while
    jailed." (G0009); "While you are in Jail, you may still collect rent" (classic)"""
    g = started(edition)
    g.place("p3", 10, in_jail=True)
    g.own("p3", "vermont-avenue")
    g.roll("p1", 3, 5)
    g.claim()
    assert g.cashes() == {"p1": 1494, "p2": 1500, "p3": 1506}


def test_you_may_still_bid_in_auctions_while_jailed():
    """ "You may still collect rent, bid in auctions, ... while jailed." """
    g = started()
    g.place("p3", 10, in_jail=True)
    g.roll("p1", 3, 5)
    g.do(type="auction")
    g.do(type="bid", player="p3", amount=60)
    g.do(type="close_auction")
    assert g.prop("vermont-avenue")["owner"] == "p3"
    assert g.cashes()["p3"] == 1440


def test_you_may_still_trade_mortgage_and_buy_buildings_while_jailed():
    """ "You may still ... trade, mortgage and buy buildings while jailed." (G0009); "buy and sell
    buildings, and trade. Being in Jail does not stop your business." (classic)"""
    g = started()
    g.place("p3", 10, in_jail=True)
    g.own("p3", "mediterranean-avenue", "baltic-avenue", "reading-railroad")
    g.do(type="build", property="baltic-avenue")
    g.do(type="sell_building", property="baltic-avenue")
    g.do(type="mortgage", property="reading-railroad")
    g.do(
        type="trade",
        **{"from": "p3", "to": "p1"},
        give={"properties": ["reading-railroad"]},
        receive={"cash": 100},
    )
    assert g.prop("reading-railroad")["owner"] == "p1"
    assert g.cashes()["p3"] == 1500 - 50 + 25 + 100 + 100
    assert g.player("p3")["in_jail"] is True
