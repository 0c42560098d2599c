"""Trades between players: cash, deeds and Get Out of Jail Free cards, and received mortgages."""

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


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_deal_may_exchange_cash_property_and_jail_cards_both_ways(edition):
    """G0009: "You may negotiate purchases, sales or exchanges of property and Get Out of Jail
    Free cards at any time. Deals may exchange cash, other property and those cards, at an agreed
    price". Classic: "Players may buy, sell, or swap property with each other at any time, for
    money, other property, or Get Out of Jail Free cards"."""
    g = started(edition)
    g.own("p1", "boardwalk", "reading-railroad")
    g.own("p2", "park-place")
    jail_cards(g, "p1", "chance")
    jail_cards(g, "p2", "community_chest")
    g.do(
        **trade(
            "p1",
            "p2",
            give={"cash": 100, "properties": ["boardwalk"], "jail_cards": ["chance"]},
            receive={"properties": ["park-place"], "jail_cards": ["community_chest"]},
        )
    )
    assert g.texts() == [
        "Ann traded Boardwalk, the Chance Get Out of Jail Free card and 100 to "
        "Bob for Park Place and the Community Chest Get Out of Jail Free card."
    ]
    assert g.cashes() == {"p1": 1400, "p2": 1600, "p3": 1500}
    assert g.prop("boardwalk") == deed("p2")
    assert g.prop("park-place") == deed("p1")
    assert g.prop("reading-railroad") == deed("p1")
    assert g.player("p1")["jail_cards"] == ["community_chest"]
    assert g.player("p2")["jail_cards"] == ["chance"]
    assert g.pending == pending()


@pytest.mark.parametrize("edition", EDITIONS)
def test_cash_may_come_from_the_other_side_of_the_deal(edition):
    """G0009: "Deals may exchange cash, other property and those cards, at an agreed price"."""
    g = started(edition)
    g.own("p1", "boardwalk")
    g.do(**trade("p1", "p2", give={"properties": ["boardwalk"]}, receive={"cash": 450}))
    assert g.cashes() == {"p1": 1950, "p2": 1050, "p3": 1500}
    assert g.prop("boardwalk") == deed("p2")


@pytest.mark.parametrize("edition", EDITIONS)
def test_you_may_buy_a_get_out_of_jail_free_card_from_another_player(edition):
    """G0009: "You may buy that card from another player." """
    g = started(edition)
    jail_cards(g, "p2", "chance")
    g.place("p1", 10, in_jail=True)
    g.do(**trade("p1", "p2", give={"cash": 30}, receive={"jail_cards": ["chance"]}))
    assert g.cashes() == {"p1": 1470, "p2": 1530, "p3": 1500}
    assert g.player("p1")["jail_cards"] == ["chance"]
    assert g.player("p2")["jail_cards"] == []
    g.do(type="use_jail_card", player="p1", deck="chance")
    assert g.player("p1")["in_jail"] is False


@pytest.mark.parametrize("edition", EDITIONS)
def test_trades_happen_at_any_time_out_of_turn_and_in_jail(edition):
    """G0009: "You may negotiate purchases, sales or exchanges ... at any time." and "You may
    still collect rent, bid in auctions, trade, mortgage and buy buildings while jailed." """
    g = started(edition)
    g.own("p3", "boardwalk")
    g.place("p3", 10, in_jail=True, jail_attempts=2)
    g.roll("p1", 1, 2)  # an offer is open for Ann; Bob is to roll
    g.do(**trade("p3", "p2", give={"properties": ["boardwalk"]}, receive={"cash": 1}))
    assert g.prop("boardwalk") == deed("p2")
    assert g.pending == pending(offer={"player": "p1", "property": "baltic-avenue", "price": 60})


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_agreed_cash_and_deeds_are_handed_over_together_or_not_at_all(edition):
    """G0009: "Keep the exchange explicit and hand over the agreed cash and deeds together." One
    part that cannot be handed over stops the whole deal."""
    g = started(edition)
    g.own("p1", "boardwalk")
    g.own("p2", "park-place")
    e = g.refused(
        DomainError,
        **trade(
            "p1",
            "p2",
            give={"cash": 10, "properties": ["boardwalk"]},
            receive={"properties": ["park-place", "short-line"]},
        ),
    )
    assert e.message == "Bob does not own Short Line."


@pytest.mark.parametrize("edition", EDITIONS)
def test_you_cannot_hand_over_what_you_do_not_have(edition):
    """G0009: "hand over the agreed cash and deeds together": a player gives only deeds, cards and
    cash they hold; the game uses no negative balances."""
    g = started(edition)
    g.own("p1", "boardwalk")
    g.own("p2", "park-place")
    jail_cards(g, "p2", "chance")
    g.set_cash(p1=300, p2=200)
    e = g.refused(
        DomainError, **trade("p1", "p2", give={"properties": ["park-place"]}, receive={"cash": 50})
    )
    assert e.message == "Ann does not own Park Place."
    e = g.refused(
        DomainError, **trade("p1", "p2", give={"cash": 301}, receive={"properties": ["park-place"]})
    )
    assert e.message == "Ann has only 300 in cash."
    e = g.refused(
        DomainError, **trade("p1", "p2", give={"properties": ["boardwalk"]}, receive={"cash": 201})
    )
    assert e.message == "Bob has only 200 in cash."
    e = g.refused(
        DomainError,
        **trade(
            "p1", "p2", give={"jail_cards": ["chance"]}, receive={"properties": ["park-place"]}
        ),
    )
    assert e.message == "Ann holds no Chance Get Out of Jail Free card."
    e = g.refused(
        DomainError,
        **trade(
            "p1",
            "p2",
            give={"properties": ["boardwalk"]},
            receive={"jail_cards": ["community_chest"]},
        ),
    )
    assert e.message == "Bob holds no Community Chest Get Out of Jail Free card."
    g.do(**trade("p1", "p2", give={"cash": 300}, receive={"properties": ["park-place"]}))
    assert g.cashes() == {"p1": 0, "p2": 500, "p3": 1500}


@pytest.mark.parametrize("edition", EDITIONS)
def test_before_trading_a_street_sell_every_building_in_its_color_set(edition):
    """G0009: "Before trading a street, sell every building in its color set back to the Bank."
    Classic: "Before a street can be traded, all houses and hotels on its whole color set must be
    sold back to the Bank first." """
    g = started(edition)
    g.own("p1", "park-place", houses=1)
    g.own("p1", "boardwalk")
    g.own("p1", "short-line")
    g.own("p2", *("pacific-avenue", "north-carolina-avenue", "pennsylvania-avenue"), hotel=True)
    e = g.refused(
        DomainError, **trade("p1", "p2", give={"properties": ["boardwalk"]}, receive={"cash": 500})
    )
    assert e.message == ("Sell every building on the dark blue streets before trading Boardwalk.")
    e = g.refused(
        DomainError,
        **trade("p1", "p2", give={"cash": 500}, receive={"properties": ["pacific-avenue"]}),
    )
    assert e.message == ("Sell every building on the green streets before trading Pacific Avenue.")
    # A railroad is in no color set: a built set elsewhere does not stop it.
    g.do(**trade("p1", "p2", give={"properties": ["short-line"]}, receive={"cash": 150}))
    assert g.prop("short-line") == deed("p2")
    g.do(type="sell_building", property="park-place")
    g.do(**trade("p1", "p2", give={"properties": ["boardwalk"]}, receive={"cash": 500}))
    assert g.prop("boardwalk") == deed("p2")
    assert g.prop("park-place") == deed("p1")


@pytest.mark.parametrize("edition", EDITIONS)
def test_buildings_cannot_be_traded_or_sold_directly_to_another_player(edition):
    """G0009: "Buildings cannot be traded or sold directly to another player." A trade has no
    place for buildings."""
    g = started(edition)
    g.own("p1", "park-place", "boardwalk", houses=2)
    e = g.refused(BadCommand, **trade("p1", "p2", give={"houses": 2}, receive={"cash": 100}))
    assert e.message == "'give' has an unknown field 'houses'."


@pytest.mark.parametrize("edition", EDITIONS)
def test_do_not_lend_money_cash_alone_is_no_deal(edition):
    """G0009: "Do not lend money or promise immunity from rent." and "The game does not use
    negative balances or loans from other players to keep someone in." A deal hands over a deed
    or a card."""
    g = started(edition)
    e = g.refused(DomainError, **trade("p1", "p2", give={"cash": 200}))
    assert e.message == (
        "A trade must hand over a deed or a Get Out of Jail Free card: cash alone "
        "would be a loan or a gift, which the rules do not allow."
    )
    g.refused(DomainError, **trade("p1", "p2", give={"cash": 200}, receive={"cash": 100}))
    e = g.refused(DomainError, **trade("p1", "p2"))
    assert e.message == "The trade exchanges nothing."


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trade_is_between_two_players_still_in_the_game(edition):
    """G0009: "eliminated players stop playing"; a deal needs two sides."""
    g = started(edition)
    g.own("p1", "boardwalk")
    g.setup(lambda s: s["players"][2].update(eliminated=True))
    e = g.refused(DomainError, **trade("p1", "p3", give={"properties": ["boardwalk"]}))
    assert e.message == "Cat is out of the game."
    e = g.refused(DomainError, **trade("p1", "p1", give={"properties": ["boardwalk"]}))
    assert e.message == "A player cannot trade with themselves."
    g.refused(BadCommand, **trade("p1", "p9", give={"properties": ["boardwalk"]}))


@pytest.mark.parametrize(
    "command",
    [
        {"give": {"cash": -5, "properties": ["boardwalk"]}},
        {"give": {"cash": "100", "properties": ["boardwalk"]}},
        {"give": {"properties": ["boardwalk", "boardwalk"]}},
        {"give": {"properties": "boardwalk"}},
        {"give": {"properties": ["the-strand"]}},
        {"give": {"jail_cards": ["joker"]}},
        {"give": ["boardwalk"]},
        {"give": {"properties": ["boardwalk"]}, "unmortgage": "boardwalk"},
    ],
)
def test_a_malformed_trade_is_refused_as_malformed(command):
    """API: "HTTP 400 (malformed: wrong type, unknown field value, missing field)"."""
    g = started()
    g.own("p1", "boardwalk")
    g.refused(BadCommand, **{"type": "trade", "from": "p1", "to": "p2", **command})
    g.refused(BadCommand, **{"type": "trade", "to": "p2", "give": {"cash": 1}})


# --- received mortgaged deeds -----------------------------------------------------------------


def test_g0009_a_received_mortgaged_deed_may_stay_mortgaged_with_no_transfer_fee():
    """G0009: "You may trade a mortgaged deed at an agreed price, telling the recipient it is
    mortgaged. G0009 lets its new owner either pay the printed unmortgage cost immediately or
    leave it mortgaged and pay on a later turn. This leaflet does not charge an immediate
    transfer-interest fee for leaving it mortgaged." """
    g = started("g0009")
    g.own("p1", "boardwalk", mortgaged=True)
    g.do(**trade("p1", "p2", give={"properties": ["boardwalk"]}, receive={"cash": 50}))
    assert g.types() == ["traded"]
    assert g.cashes() == {"p1": 1550, "p2": 1450, "p3": 1500}
    assert g.prop("boardwalk") == deed("p2", mortgaged=True)
    g.do(type="unmortgage", property="boardwalk")
    assert g.cashes()["p2"] == 1450 - 220


def test_g0009_the_new_owner_may_pay_the_printed_unmortgage_cost_immediately():
    """G0009: "G0009 lets its new owner either pay the printed unmortgage cost immediately"."""
    g = started("g0009")
    g.own("p1", "boardwalk", "park-place", mortgaged=True)
    g.do(
        **trade(
            "p1",
            "p2",
            give={"properties": ["boardwalk", "park-place"]},
            receive={"cash": 50},
            unmortgage=["park-place"],
        )
    )
    assert g.texts()[1:] == ["Bob lifted the mortgage on Park Place for 193."]
    assert g.cashes() == {"p1": 1550, "p2": 1500 - 50 - 193, "p3": 1500}
    assert g.prop("park-place") == deed("p2")
    assert g.prop("boardwalk") == deed("p2", mortgaged=True)


def test_g0009_lifting_a_received_mortgage_now_needs_the_cash_after_the_deal():
    """G0009: "pay the printed unmortgage cost immediately"; the deal stands or falls whole."""
    g = started("g0009")
    g.own("p1", "boardwalk", mortgaged=True)
    g.set_cash(p2=269)
    e = g.refused(
        DomainError,
        **trade(
            "p1",
            "p2",
            give={"properties": ["boardwalk"]},
            receive={"cash": 50},
            unmortgage=["boardwalk"],
        ),
    )
    assert e.message == (
        "Bob would have 219 after the trade but needs 220 for the received mortgages."
    )


def test_classic_the_new_owner_may_pay_off_the_mortgage_right_away_at_mortgage_plus_ten_percent():
    """Classic: "A mortgaged property can be traded. The new owner must either pay off the
    mortgage right away, or pay the Bank 10% of the mortgage value now and keep the mortgage." """
    g = started("classic")
    g.own("p1", "electric-company", mortgaged=True)
    g.do(
        **trade(
            "p1",
            "p2",
            give={"properties": ["electric-company"]},
            receive={"cash": 10},
            unmortgage=["electric-company"],
        )
    )
    assert g.cashes() == {"p1": 1510, "p2": 1500 - 10 - 83, "p3": 1500}
    assert g.prop("electric-company") == deed("p2")


def test_classic_keeping_a_received_mortgage_costs_ten_percent_of_the_mortgage_value_now():
    """Classic: "The new owner must either pay off the mortgage right away, or pay the Bank 10% of
    the mortgage value now and keep the mortgage." README: "(and pay mortgage + 10% again when
    lifting later)"."""
    g = started("classic")
    g.own("p2", "park-place", "electric-company", mortgaged=True)
    g.own("p1", "boardwalk")
    g.do(
        **trade(
            "p1",
            "p2",
            give={"properties": ["boardwalk"]},
            receive={"properties": ["park-place", "electric-company"]},
        )
    )
    # 10% of 175 is 17.50 and of 75 is 7.50: rounded up, 18 + 8.
    assert g.texts()[1:] == [
        "Ann paid the Bank 26 (10% interest to keep Park Place and Electric Company mortgaged)."
    ]
    assert g.cashes() == {"p1": 1474, "p2": 1500, "p3": 1500}
    assert g.prop("park-place") == deed("p1", mortgaged=True)
    assert g.prop("electric-company") == deed("p1", mortgaged=True)
    g.do(type="unmortgage", property="park-place")
    assert g.cashes()["p1"] == 1474 - 193


def test_classic_the_ten_percent_must_be_there_or_the_deal_cannot_be_made():
    """Classic: "pay the Bank 10% of the mortgage value now"; the deal stands or falls whole."""
    g = started("classic")
    g.own("p1", "boardwalk", mortgaged=True)
    g.set_cash(p2=19)
    e = g.refused(
        DomainError, **trade("p1", "p2", give={"properties": ["boardwalk"]}, receive={"cash": 0})
    )
    assert e.message == (
        "Bob would have 19 after the trade but needs 20 for the received mortgages."
    )
    g.set_cash(p2=20)
    g.do(**trade("p1", "p2", give={"properties": ["boardwalk"]}))
    assert g.cashes()["p2"] == 0
    assert g.pending == pending()


@pytest.mark.parametrize("edition", EDITIONS)
def test_only_mortgaged_deeds_changing_hands_can_be_lifted_in_a_trade(edition):
    """API: "`unmortgage`: received mortgaged deeds lifted at once"."""
    g = started(edition)
    g.own("p1", "boardwalk", mortgaged=True)
    g.own("p1", "park-place")
    g.own("p2", "short-line", mortgaged=True)
    e = g.refused(
        DomainError,
        **trade("p1", "p2", give={"properties": ["park-place"]}, unmortgage=["park-place"]),
    )
    assert e.message == (
        "Only mortgaged deeds changing hands in this trade can be lifted; Park Place is not one."
    )
    g.refused(
        DomainError,
        **trade("p1", "p2", give={"properties": ["park-place"]}, unmortgage=["short-line"]),
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trade_may_raise_cash_toward_a_debt(edition):
    """G0009: "You can also negotiate a legal property trade, but nobody must rescue you." """
    g = started(edition)
    g.own("p1", "boardwalk")
    g.set_cash(p1=150)
    g.roll("p1", 1, 3)
    assert g.pending == pending(debt=debt("p1", None, 200, "tax", 200))
    g.do(**trade("p1", "p3", give={"properties": ["boardwalk"]}, receive={"cash": 400}))
    assert g.pending == pending(debt=debt("p1", None, 200, "tax", 0))
    g.do(type="pay_debt")
    assert g.cashes() == {"p1": 350, "p2": 1500, "p3": 1100}
    assert g.pending == pending()


def test_a_trade_leaves_the_banks_buildings_alone():
    """G0009: "Buildings cannot be traded or sold directly to another player." """
    g = started()
    g.own("p1", "boardwalk")
    bank(g, houses=7, hotels=3)
    g.do(**trade("p1", "p2", give={"properties": ["boardwalk"]}, receive={"cash": 1}))
    assert g.state["bank"] == {"houses": 7, "hotels": 3, "free_parking": 0}
