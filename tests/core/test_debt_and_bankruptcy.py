"""Debts, raising cash, bankruptcy to a player or to the Bank, elimination and the last survivor."""

from __future__ import annotations

import pytest

from .holdings_helpers import (
    BadCommand,
    DomainError,
    bank,
    debt,
    deed,
    jail_cards,
    pending,
    started,
    trade,
)

EDITIONS = ["g0009", "classic"]
ORANGE = ("st-james-place", "tennessee-avenue", "new-york-avenue")  # houses 100
LIGHT_BLUE = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")  # houses 50


def taxed(edition="g0009", cash=100, names=("Ann", "Bob", "Cat")):
    """Ann, with `cash`, lands on Income Tax (200): a debt to the Bank unless she has it."""
    g = started(edition, names=names)
    g.set_cash(p1=cash)
    return g


def land_on_income_tax(g):
    g.roll("p1", 1, 3)


# --- debts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_money_owed_without_the_cash_becomes_the_pending_debt(edition):
    """G0009: "If you owe rent, a tax, a card payment or a Jail fee and lack cash, raise money by
    selling buildings back and mortgaging properties." API: "otherwise it becomes
    `pending.debt`"."""
    g = taxed(edition)
    g.own("p1", *LIGHT_BLUE, houses=1)
    land_on_income_tax(g)
    # Three houses at 25 and three mortgages (50, 50, 60): 235 could still be raised.
    assert g.pending == pending(debt=debt("p1", None, 200, "tax", 235))
    assert g.cashes()["p1"] == 100
    assert (
        "Ann cannot pay 200 to the Bank (Income Tax) with 100 in cash: a debt until raised or "
        "bankrupt." in g.texts()
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_pay_the_debt_once_selling_and_mortgaging_have_raised_the_cash(edition):
    """G0009: "Pay the debt if you can." API: "the debtor raises cash (sell buildings, mortgage,
    trade) and then `pay_debt`"."""
    g = taxed(edition)
    g.own("p1", *LIGHT_BLUE, houses=1)
    land_on_income_tax(g)
    e = g.refused(DomainError, type="pay_debt")
    assert e.message == (
        "Ann has 100 of the 200 owed: raise more by selling buildings, mortgaging or trading."
    )
    for prop in LIGHT_BLUE:
        g.do(type="sell_building", property=prop)
    assert g.pending == pending(debt=debt("p1", None, 200, "tax", 160))
    assert g.cashes()["p1"] == 175
    g.refused(DomainError, type="pay_debt")
    g.do(type="mortgage", property="connecticut-avenue")
    assert g.pending == pending(debt=debt("p1", None, 200, "tax", 100))
    g.do(type="pay_debt")
    assert g.texts() == ["Ann paid the Bank 200 (debt settled)."]
    assert g.cashes() == {"p1": 35, "p2": 1500, "p3": 1500}
    assert g.pending == pending()
    assert g.state["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_rent_debt_is_paid_to_the_owner(edition):
    """G0009: "Pay the owner ... pay rent when its owner asks"; owed and unpaid, it waits as the
    debt to that owner."""
    g = started(edition)
    g.own("p2", "park-place", "boardwalk", houses=1)
    g.own("p1", "short-line")
    g.set_cash(p1=150)
    g.place("p1", 34)
    g.roll("p1", 2, 3)
    g.claim()
    assert g.pending == pending(debt=debt("p1", "p2", 200, "rent", 100))
    g.do(type="mortgage", property="short-line")
    g.do(type="pay_debt")
    assert g.cashes() == {"p1": 50, "p2": 1700, "p3": 1500}
    assert g.pending == pending()


def test_there_is_no_debt_to_pay_when_nobody_owes():
    """API: "`pay_debt` — the debtor now has the cash and pays the pending debt"."""
    g = started()
    e = g.refused(DomainError, type="pay_debt")
    assert e.message == "Nobody owes a debt right now."


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_table_settles_a_debt_before_the_next_roll(edition):
    """API: "While an offer, auction, card, rent roll or debt is pending, a `roll` is refused
    (422): the table settles it first." G0009: "The game does not use negative balances"."""
    g = taxed(edition)
    g.own("p1", "boardwalk")
    land_on_income_tax(g)
    g.refused(DomainError, type="roll", player="p2", dice=[1, 2])
    g.refused(DomainError, type="build", property="boardwalk")
    assert all(p["cash"] >= 0 for p in g.state["players"])


# --- bankruptcy refused -----------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_bankruptcy_while_selling_and_mortgaging_could_still_cover_the_debt(edition):
    """G0009: "If those assets still cannot cover the debt, you are bankrupt and eliminated."
    Classic: "If you still cannot pay, you are bankrupt and out of the game." """
    g = taxed(edition)
    g.own("p1", *LIGHT_BLUE, houses=1)
    land_on_income_tax(g)
    e = g.refused(DomainError, type="bankrupt", player="p1")
    assert e.message == (
        "Ann can still raise 235 by selling buildings and mortgaging, enough "
        "for the 200 owed: not bankrupt."
    )


def test_only_the_debtor_can_go_bankrupt():
    """G0009: "If those assets still cannot cover the debt, you are bankrupt": no debt, no
    bankruptcy."""
    g = taxed(cash=0)
    e = g.refused(DomainError, type="bankrupt", player="p1")
    assert e.message == "Ann owes no pending debt, so cannot go bankrupt."
    land_on_income_tax(g)
    e = g.refused(DomainError, type="bankrupt", player="p2")
    assert e.message == "Bob owes no pending debt, so cannot go bankrupt."
    g.refused(BadCommand, type="bankrupt", player="p7")
    g.refused(BadCommand, type="bankrupt")


def test_a_hotel_the_bank_cannot_take_back_raises_no_cash():
    """Classic: "Sell hotels and houses back to the Bank for half of what they cost. Hotels come
    off first"; a hotel comes back as four houses, so with fewer in the Bank (and no house ruling
    in classic) it cannot be sold, and its set cannot be mortgaged: that is no cash to raise."""
    g = taxed("classic", cash=0)
    g.own("p1", "park-place", "boardwalk", hotel=True)
    g.own("p1", "short-line")
    bank(g, houses=3)
    land_on_income_tax(g)
    assert g.pending == pending(debt=debt("p1", None, 200, "tax", 100))
    g.refused(DomainError, type="sell_building", property="boardwalk")
    g.do(type="bankrupt", player="p1")
    assert g.player("p1")["eliminated"] is True
    assert g.state["bank"] == {"houses": 3, "hotels": 12, "free_parking": 0}


def test_houses_sold_first_can_give_the_bank_what_a_hotel_needs_to_come_back():
    """Classic: "Sell hotels and houses back to the Bank for half of what they cost." Houses sold
    elsewhere refill the Bank, and then the hotel can come back as four houses."""
    g = taxed("classic", cash=0)
    g.own("p1", "park-place", hotel=True)
    g.own("p1", "boardwalk", houses=4)
    g.own("p1", "short-line")
    g.own("p1", "oriental-avenue", "vermont-avenue", "connecticut-avenue", houses=1)
    bank(g, houses=1)
    land_on_income_tax(g)
    # 3 x 25 and 3 light blue mortgages (160); then the hotel (100) and eight houses (800), and
    # the dark blue mortgages (375).
    assert g.pending["debt"]["can_raise"] == 75 + 160 + 900 + 375 + 100
    # With two hotels the four houses the first one takes leave the second stuck.
    g.own("p1", "boardwalk", hotel=True)
    bank(g, houses=1)
    g.setup(lambda s: s["pending"]["debt"].update(can_raise=0))
    g.do(type="mortgage", property="short-line")
    assert g.pending["debt"]["can_raise"] == 75 + 160 + 100


# --- bankruptcy to a player -------------------------------------------------------------------


def rent_game(edition, names=("Ann", "Bob", "Cat")):
    """Bob has hotels on the dark blues; Ann (100 in cash, some buildings, a Chance card) lands on
    Boardwalk and Bob asks for 2,000."""
    g = started(edition, names=names)
    g.own("p2", "park-place", "boardwalk", hotel=True)
    g.own("p1", "st-james-place", "tennessee-avenue", houses=1)
    g.own("p1", "new-york-avenue", houses=2)
    g.own("p1", "reading-railroad", mortgaged=True)
    g.own("p1", "electric-company")
    jail_cards(g, "p1", "chance")
    g.set_cash(p1=100)
    g.place("p1", 34)
    g.roll("p1", 2, 3)
    g.claim()
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_rent_debt_that_selling_and_mortgaging_cannot_cover_allows_bankruptcy(edition):
    """G0009: "If those assets still cannot cover the debt, you are bankrupt and eliminated." """
    g = rent_game(edition)
    # Four houses at 50, mortgages 90 + 90 + 100 + 75: 555, and 100 in cash, against 2,000.
    assert g.pending == pending(debt=debt("p1", "p2", 2000, "rent", 555))


def test_g0009_bankrupt_to_a_player_buildings_are_sold_and_everything_passes_mortgaged():
    """G0009: "Against another player, pass the available payment proceeds, all your remaining
    mortgaged properties and any Get Out of Jail Free cards to that creditor. The recipient may
    unmortgage now or on a later turn under this edition's rule." API: "the core itself sells the
    debtor's remaining buildings to the Bank at half price and mortgages their remaining deeds
    (the proceeds are part of what passes on)"."""
    g = rent_game("g0009")
    g.do(type="bankrupt", player="p1")
    assert g.texts() == [
        "Ann is bankrupt and out of the game: Bob receives 655, the Get Out of Jail Free "
        "cards and 5 deeds, all mortgaged: Reading Railroad, Electric Company, St. James "
        "Place, Tennessee Avenue and New York Avenue."
    ]
    assert g.cashes() == {"p1": 0, "p2": 1500 + 100 + 200 + 355, "p3": 1500}
    for prop in (
        "st-james-place",
        "tennessee-avenue",
        "new-york-avenue",
        "reading-railroad",
        "electric-company",
    ):
        assert g.prop(prop) == deed("p2", mortgaged=True)
    assert g.player("p1") == {
        "id": "p1",
        "name": "Ann",
        "members": ["Ann"],
        "cash": 0,
        "position": 39,
        "in_jail": False,
        "jail_attempts": 0,
        "jail_cards": [],
        "eliminated": True,
    }
    assert g.player("p2")["jail_cards"] == ["chance"]
    assert g.state["bank"] == {"houses": 32, "hotels": 10, "free_parking": 0}
    assert g.pending == pending()
    assert g.state["status"] == "playing"
    assert g.whose_turn == "p2"


def test_g0009_the_creditor_may_lift_received_mortgages_at_once_at_the_printed_cost():
    """G0009: "The recipient may unmortgage now or on a later turn under this edition's rule."
    API: "the command may carry `"unmortgage": [ids]` for deeds the creditor lifts at once"."""
    g = rent_game("g0009")
    g.do(type="bankrupt", player="p1", unmortgage=["new-york-avenue", "reading-railroad"])
    assert g.texts()[1:] == [
        "Bob lifted the mortgage on Reading Railroad for 110.",
        "Bob lifted the mortgage on New York Avenue for 110.",
    ]
    assert g.cashes()["p2"] == 1500 + 655 - 220
    assert g.prop("new-york-avenue") == deed("p2")
    assert g.prop("reading-railroad") == deed("p2")
    assert g.prop("tennessee-avenue") == deed("p2", mortgaged=True)


def test_classic_bankrupt_to_a_player_the_creditor_pays_ten_percent_on_the_mortgages_kept():
    """Classic: "If you owe another player, that player gets your Get Out of Jail Free cards and
    your mortgaged properties." and "The new owner must either pay off the mortgage right away, or
    pay the Bank 10% of the mortgage value now and keep the mortgage." """
    g = rent_game("classic")
    g.do(type="bankrupt", player="p1", unmortgage=["new-york-avenue"])
    # Lifting New York Avenue: 100 + 10. Keeping the rest: 10 + 8 + 9 + 9.
    assert g.texts()[1:] == [
        "Bob lifted the mortgage on New York Avenue for 110.",
        "Bob paid the Bank 36 (10% interest to keep Reading Railroad, Electric Company, St. James "
        "Place and Tennessee Avenue mortgaged).",
    ]
    assert g.cashes() == {"p1": 0, "p2": 1500 + 655 - 110 - 36, "p3": 1500}
    assert g.prop("new-york-avenue") == deed("p2")
    assert g.prop("electric-company") == deed("p2", mortgaged=True)
    assert g.pending == pending()


def test_the_creditor_can_lift_at_once_only_what_the_cash_covers():
    """G0009: "The recipient may unmortgage now or on a later turn": now, only with the cash."""
    g = started("g0009")
    g.own("p1", "reading-railroad", "short-line", mortgaged=True)
    g.set_cash(p1=0, p2=100)
    g.setup(lambda s: s["pending"].update(debt=debt("p1", "p2", 500, "rent", 0)))
    e = g.refused(
        DomainError, type="bankrupt", player="p1", unmortgage=["reading-railroad", "short-line"]
    )
    assert e.message == "Bob cannot afford 220 to lift those mortgages now."
    e = g.refused(DomainError, type="bankrupt", player="p1", unmortgage=["boardwalk"])
    assert e.message == "Boardwalk is not among Ann's deeds."
    g.do(type="bankrupt", player="p1")
    assert g.cashes() == {"p1": 0, "p2": 100, "p3": 1500}
    assert g.prop("reading-railroad") == deed("p2", mortgaged=True)


def test_classic_a_ten_percent_the_creditor_cannot_pay_becomes_their_debt():
    """API: "in classic the rest cost the creditor 10% now (a debt if unpaid)"."""
    g = started("classic")
    g.own("p1", "reading-railroad", "short-line", mortgaged=True)
    g.set_cash(p1=0, p2=5)
    g.setup(lambda s: s["pending"].update(debt=debt("p1", "p2", 50, "rent", 0)))
    g.do(type="bankrupt", player="p1")
    assert g.pending == pending(debt=debt("p2", None, 20, "mortgage_interest", 0))
    assert g.cashes() == {"p1": 0, "p2": 5, "p3": 1500}
    assert g.prop("short-line") == deed("p2", mortgaged=True)


# --- bankruptcy to the Bank -------------------------------------------------------------------


def bank_bankruptcy(edition="g0009"):
    g = taxed(edition, cash=0)
    g.own("p1", "mediterranean-avenue", "baltic-avenue", houses=1)
    g.own("p1", "reading-railroad", mortgaged=True)
    jail_cards(g, "p1", "chance", "community_chest")
    land_on_income_tax(g)
    # Two houses at 25 and two mortgages at 30: 110 against 200.
    assert g.pending == pending(debt=debt("p1", None, 200, "tax", 110))
    g.do(type="bankrupt", player="p1")
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_bankrupt_to_the_bank_the_deeds_return_unmortgaged_and_are_auctioned_in_board_order(
    edition,
):
    """G0009: "Against the Bank, return your properties; their mortgages are canceled and the
    Banker immediately auctions those deeds. Return any Get Out of Jail Free cards to the bottom
    of the correct decks." Classic: "If you owe the Bank, your properties go back to the Bank and
    are auctioned off at once." """
    g = bank_bankruptcy(edition)
    assert g.texts() == [
        "Ann is bankrupt to the Bank and out of the game: 110 in cash goes to the Bank; the deeds "
        "return unmortgaged and are auctioned; jail cards go back to their decks.",
        "Returned to the Bank: the Banker auctions Mediterranean Avenue; bids open at 10.",
    ]
    assert g.pending == pending(
        auction={"item": "mediterranean-avenue", "high_bid": 0, "high_bidder": None},
        auction_queue=["baltic-avenue", "reading-railroad"],
    )
    for prop in ("mediterranean-avenue", "baltic-avenue", "reading-railroad"):
        assert g.prop(prop) == deed()
    assert g.cashes() == {"p1": 0, "p2": 1500, "p3": 1500}
    assert g.player("p1")["jail_cards"] == []
    assert g.state["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}
    g.refused(DomainError, type="roll", player="p2", dice=[1, 2])
    g.do(type="bid", player="p3", amount=10)
    g.do(type="close_auction")
    assert g.prop("mediterranean-avenue") == deed("p3")
    assert g.pending == pending(
        auction={"item": "baltic-avenue", "high_bid": 0, "high_bidder": None},
        auction_queue=["reading-railroad"],
    )
    g.do(type="close_auction")  # nobody bids: Baltic stays in the Bank
    assert g.prop("baltic-avenue") == deed()
    assert g.pending == pending(
        auction={"item": "reading-railroad", "high_bid": 0, "high_bidder": None}
    )
    g.do(type="bid", player="p2", amount=150)
    g.do(type="close_auction")
    assert g.prop("reading-railroad") == deed("p2")
    assert g.cashes() == {"p1": 0, "p2": 1350, "p3": 1490}
    assert g.pending == pending()


def test_the_jail_cards_of_a_player_bankrupt_to_the_bank_are_back_in_their_decks():
    """G0009: "Return any Get Out of Jail Free cards to the bottom of the correct decks." """
    g = bank_bankruptcy()
    for _ in range(3):
        g.do(type="close_auction")
    g.roll("p2", 3, 4)  # Chance
    g.draw("chance", "get-out-of-jail-free")
    assert g.player("p2")["jail_cards"] == ["chance"]


def test_deeds_returned_to_the_bank_need_no_lifting():
    """G0009: "Against the Bank, return your properties; their mortgages are canceled"."""
    g = taxed(cash=0)
    g.own("p1", "reading-railroad", mortgaged=True)
    land_on_income_tax(g)
    e = g.refused(DomainError, type="bankrupt", player="p1", unmortgage=["reading-railroad"])
    assert e.message == "Deeds returned to the Bank come back unmortgaged anyway."


# --- after elimination ------------------------------------------------------------------------


def test_an_eliminated_player_is_skipped_in_turn_order():
    """G0009: "Before starting, explain that ... eliminated players stop playing." """
    g = bank_bankruptcy()
    for _ in range(3):
        g.do(type="close_auction")
    assert g.whose_turn == "p2"
    g.roll("p2", 1, 2)
    g.do(type="auction")
    g.do(type="close_auction")
    assert g.whose_turn == "p3"
    g.roll("p3", 1, 2)
    g.do(type="auction")
    g.do(type="close_auction")
    assert g.whose_turn == "p2"
    e = g.refused(DomainError, type="roll", player="p1", dice=[1, 2])
    assert e.message == "Ann is out of the game."
    g.do(type="building_auction", kind="house")
    g.refused(DomainError, type="bid", player="p1", amount=10)


def test_an_eliminated_player_is_never_owed_rent_and_owes_none():
    """G0009: "eliminated players stop playing": their open rent claims and card payments go with
    them."""
    g = started()
    g.own("p1", "short-line", mortgaged=True)
    g.own("p3", "reading-railroad")
    g.set_cash(p1=0)
    g.setup(
        lambda s: s["pending"].update(
            debt=debt("p1", "p2", 50, "card", 0),
            payments=[{"from": "p3", "to": "p1", "amount": 50, "reason": "card"}],
            rent_claims=[
                {"id": "c1", "owner": "p1", "payer": "p2", "property": "short-line", "amount": 25},
                {
                    "id": "c2",
                    "owner": "p3",
                    "payer": "p1",
                    "property": "reading-railroad",
                    "amount": 25,
                },
            ],
        )
    )
    g.do(type="bankrupt", player="p1")
    assert g.pending == pending()
    assert g.cashes() == {"p1": 0, "p2": 1500, "p3": 1500}
    assert g.prop("short-line") == deed("p2", mortgaged=True)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_last_player_remaining_wins(edition):
    """G0009: "The others continue until only one player remains; that person wins." Classic:
    "The game ends when only one player is left with money. That player wins." """
    g = rent_game(edition, names=("Ann", "Bob"))
    g.do(type="bankrupt", player="p1")
    assert g.state["status"] == "finished"
    assert g.state["winners"] == ["p2"]
    assert g.state["scores"] is None
    assert g.texts()[-1] == "Bob is the last player standing and wins."
    assert g.pending == pending()
    assert g.turn["player"] is None
    g.refused(DomainError, type="roll", player="p2", dice=[1, 2])
    g.refused(DomainError, type="mortgage", property="boardwalk")
    g.refused(DomainError, type="undo")


def test_a_chain_of_bankruptcies_leaves_one_winner():
    """Classic: "Players drop out one by one as they go bankrupt. The game ends when only one
    player is left with money." """
    g = started("classic")
    g.own("p1", "reading-railroad", "short-line", mortgaged=True)
    g.set_cash(p1=0, p2=5)
    g.setup(lambda s: s["pending"].update(debt=debt("p1", "p2", 50, "rent", 0)))
    g.do(type="bankrupt", player="p1")
    g.do(type="bankrupt", player="p2")
    assert g.state["status"] == "finished"
    assert g.state["winners"] == ["p3"]
    assert [p["eliminated"] for p in g.state["players"]] == [True, True, False]
    assert g.cashes() == {"p1": 0, "p2": 0, "p3": 1500}
    assert g.pending == pending()
    assert g.prop("short-line") == deed()


# --- a rent claim asked while a debt is pending ----------------------------------------------


def doubles_onto_rent_then_tax(edition="g0009", cash=50):
    """Ann, with `cash`, rolls doubles onto Bob's Pennsylvania Avenue (28 rent), then onto
    Luxury Tax (100): a debt to the Bank, Bob's claim still open (no roll can come)."""
    g = started(edition)
    g.own("p2", "pennsylvania-avenue")
    g.own("p1", "boardwalk")
    g.set_cash(p1=cash)
    g.place("p1", 32)
    g.roll("p1", 1, 1)  # Pennsylvania Avenue: Bob may ask 28
    g.roll("p1", 2, 2)  # Luxury Tax: 100
    assert g.pending["debt"] == debt("p1", None, 100, "tax", 200)
    assert [c["id"] for c in g.claims] == ["c1"]
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_pay_rent_when_its_owner_asks_before_the_next_player_rolls_even_while_a_debt_waits(
    edition,
):
    """G0009: "pay rent when its owner asks before the next player rolls". docs/api.md: a claim
    asked while a debt is pending "is paid at once if the payer's cash covers it (a debt pending
    stays as it was, whoever owes it)"."""
    g = doubles_onto_rent_then_tax(edition)
    g.claim("c1")
    assert g.texts() == [
        "Bob asked Ann for 28 rent on Pennsylvania Avenue.",
        "Ann paid Bob 28 (rent on Pennsylvania Avenue).",
    ]
    assert g.cashes() == {"p1": 22, "p2": 1528, "p3": 1500}
    assert g.pending == pending(debt=debt("p1", None, 100, "tax", 200))


def test_a_claim_the_cash_does_not_cover_waits_open_until_the_debt_is_settled():
    """docs/api.md: "if the cash does not cover it, it is 422 `debt_pending` and the claim stays
    open until that debt is settled"."""
    g = doubles_onto_rent_then_tax(cash=20)
    e = g.refused(DomainError, type="claim_rent", claim="c1")
    assert (e.code, e.message) == (
        "debt_pending",
        "Ann owes the Bank 100 and Ann's cash does not cover the 28 rent: the claim stays open "
        "until that debt is settled.",
    )
    g.do(type="mortgage", property="boardwalk")  # 220
    g.do(type="pay_debt")  # 120
    assert g.claims == [
        {"id": "c1", "owner": "p2", "payer": "p1", "property": "pennsylvania-avenue", "amount": 28}
    ]
    g.claim("c1")
    assert g.cashes() == {"p1": 92, "p2": 1528, "p3": 1500}


def test_a_claim_whose_payer_is_eliminated_lapses():
    """docs/api.md: "A claim whose payer is eliminated lapses"."""
    g = doubles_onto_rent_then_tax(cash=20)
    g.own(None, "boardwalk")
    g.do(type="bankrupt", player="p1")
    assert g.texts() == [
        "Ann is bankrupt to the Bank and out of the game: 20 in cash goes to the Bank; the deeds "
        "return unmortgaged and are auctioned; jail cards go back to their decks.",
        "The 28 rent on Pennsylvania Avenue lapses: Ann is out of the game.",
    ]
    assert g.claims == []


# --- every command during another player's debt ------------------------------------------------


def cat_in_debt():
    """Cat owes the Bank 100 (Luxury Tax, 20 in cash) on her turn; Ann owns the light blues
    with a house each and Reading Railroad; Bob owns a mortgaged Short Line and the Chance Get
    Out of Jail Free card; Bob's claim on Cat's landing is open."""
    g = started(options={"deadline": True})
    g.own("p1", *LIGHT_BLUE, houses=1)
    g.own("p1", "reading-railroad")
    g.own("p2", "short-line", mortgaged=True)
    g.own("p2", "pennsylvania-avenue")
    jail_cards(g, "p2", "chance")
    g.roll("p1", 4, 6)
    g.roll("p2", 4, 6)
    g.set_cash(p3=20)
    g.place("p3", 32)
    g.roll("p3", 1, 1)  # Pennsylvania Avenue, Bob's: 28
    g.roll("p3", 2, 2)  # Luxury Tax
    assert g.pending["debt"] == debt("p3", None, 100, "tax", 0)
    return g


ANN_SELLS = {"give": {"properties": ["reading-railroad"]}, "receive": {"cash": 200}}
DURING_ANOTHERS_DEBT = [
    # the table's own steps wait for the debt
    ({"type": "roll", "player": "p3", "dice": [1, 2]}, "debt_pending"),
    ({"type": "buy"}, "debt_pending"),
    ({"type": "auction"}, "debt_pending"),
    ({"type": "bid", "player": "p1", "amount": 10}, "debt_pending"),
    ({"type": "close_auction"}, "debt_pending"),
    ({"type": "building_auction", "kind": "house"}, "debt_pending"),
    ({"type": "draw_card", "deck": "chance", "card": "advance-to-go"}, "debt_pending"),
    ({"type": "rent_roll", "dice": [1, 2]}, "debt_pending"),
    ({"type": "pay_jail_fine", "player": "p3"}, "debt_pending"),
    ({"type": "use_jail_card", "player": "p3", "deck": "chance"}, "debt_pending"),
    ({"type": "score_game"}, "not_waiting_for_claims"),
    # spending on buildings and mortgages waits too, for everyone
    ({"type": "build", "property": "vermont-avenue"}, "debt_pending"),
    ({"type": "unmortgage", "property": "short-line"}, "debt_pending"),
    # a claim the payer's cash does not cover waits
    ({"type": "claim_rent", "claim": "c1"}, "debt_pending"),
    ({"type": "bankrupt", "player": "p1"}, "no_debt"),
    ({"type": "pay_debt"}, "insufficient_cash"),
    # raising cash, trading and the Banker's corrections go on, whoever does them
    ({"type": "sell_building", "property": "vermont-avenue"}, None),
    ({"type": "mortgage", "property": "reading-railroad"}, None),
    (trade("p1", "p2", **ANN_SELLS), None),
    ({**trade("p1", "p2", **ANN_SELLS), "type": "propose_trade"}, None),
    ({"type": "call_time"}, None),
    ({"type": "adjust", "player": "p1", "amount": 5, "reason": "miscounted change"}, None),
    ({"type": "move", "player": "p1", "position": 3}, None),
    ({"type": "undo"}, None),
    ({"type": "stop"}, None),
    ({"type": "bankrupt", "player": "p3"}, None),
]


@pytest.mark.parametrize(("command", "code"), DURING_ANOTHERS_DEBT)
def test_what_each_command_does_while_another_player_owes_a_debt(command, code):
    """docs/rules-decisions.md, "A pending debt": the table settles a debt before anything of
    the turn goes on ("Let an auction or trade finish before the next roll"; "Pay the debt if
    you can"), and nobody spends on buildings or lifted mortgages meanwhile; selling, mortgaging
    and trading (anyone's: "nobody must rescue you", but anyone may deal) and the Banker's
    corrections are accepted."""
    g = cat_in_debt()
    if code is None:
        g.do(**command)
    else:
        assert g.refused(DomainError, **command).code == code


def test_offers_made_during_a_debt_are_answered_during_it():
    g = cat_in_debt()
    g.do(**{**trade("p1", "p2", **ANN_SELLS), "type": "propose_trade"})
    g.do(type="accept_trade", offer="o1")
    assert g.prop("reading-railroad") == deed("p2")
    g.do(**{**trade("p2", "p1", give={"jail_cards": ["chance"]}), "type": "propose_trade"})
    g.do(type="decline_trade", offer="o2")
    assert g.pending["debt"] == debt("p3", None, 100, "tax", 0)
