"""Building and selling houses and hotels: both rule texts, sentence by sentence.

G0009 is the guide (000_…), classic the plain-words rules (001_…). Where the editions agree a
test runs on both; the hotel-shortage ruling is where they differ.
"""

from __future__ import annotations

import pytest

from .holdings_helpers import BadCommand, DomainError, bank, deed, pending, started

EDITIONS = ["g0009", "classic"]
DARK_BLUE = ("park-place", "boardwalk")  # house and hotel 200 each
GREEN = ("pacific-avenue", "north-carolina-avenue", "pennsylvania-avenue")  # 200 each
LIGHT_BLUE = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")  # 50 each


def dark_blue_game(edition="g0009", options=None, **levels):
    """Ann (p1) owns Park Place and Boardwalk; Ann is to roll."""
    g = started(edition, options=options)
    g.own("p1", *DARK_BLUE)
    return g


# --- buying buildings -------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_once_you_own_every_street_in_a_color_set_you_buy_houses_at_the_deeds_house_price(edition):
    """G0009: "Once you own every street in a color set and none of that set is mortgaged, you
    can buy houses from the Bank at the deed's house price."
    Classic: "To build, pay the house price printed on the Title Deed card and put a house on the
    street." """
    g = dark_blue_game(edition)
    g.do(type="build", property="boardwalk")
    assert g.texts() == ["Ann built a house on Boardwalk for 200."]
    assert g.cashes() == {"p1": 1300, "p2": 1500, "p3": 1500}
    assert g.state["bank"] == {"houses": 31, "hotels": 12, "free_parking": 0}
    assert g.prop("boardwalk") == deed("p1", houses=1)
    assert g.prop("park-place") == deed("p1")
    assert g.pending == pending()


@pytest.mark.parametrize("edition", EDITIONS)
def test_you_cannot_build_without_every_street_in_the_color_set(edition):
    """Classic: "Can I build houses before I own the whole color set? No. You need every street in
    the set first." G0009: "Once you own every street in a color set ... you can buy houses"."""
    g = started(edition)
    g.own("p1", "boardwalk")
    e = g.refused(DomainError, type="build", property="boardwalk")
    assert e.message == ("Ann must own every dark blue street to build; Park Place is not theirs.")
    g.own("p2", "park-place")  # a set split between two players is no set
    g.refused(DomainError, type="build", property="boardwalk")
    g.refused(DomainError, type="build", property="park-place")
    g.own("p1", "oriental-avenue")
    e = g.refused(DomainError, type="build", property="oriental-avenue")
    assert e.message == (
        "Ann must own every light blue street to build; Vermont Avenue and "
        "Connecticut Avenue are not theirs."
    )


def test_nobody_builds_on_a_street_nobody_owns():
    """G0009: "you can buy houses from the Bank" only once "you own every street in a color
    set"; a deed still in the Bank has no owner to build."""
    g = started()
    e = g.refused(DomainError, type="build", property="boardwalk")
    assert e.message == "Nobody owns Boardwalk."


@pytest.mark.parametrize("edition", EDITIONS)
def test_buildings_cannot_be_bought_anywhere_in_a_color_set_while_any_street_in_it_is_mortgaged(
    edition,
):
    """G0009: "Buildings cannot be bought anywhere in a color set while any street in it is
    mortgaged." Classic: "You cannot build on a set if any street in that set is mortgaged." """
    g = started(edition)
    g.own("p1", "park-place", mortgaged=True)
    g.own("p1", "boardwalk")
    e = g.refused(DomainError, type="build", property="boardwalk")
    assert e.message == (
        "Park Place is mortgaged: no building on a color set with a mortgaged street."
    )
    g.refused(DomainError, type="build", property="park-place")


@pytest.mark.parametrize("edition", EDITIONS)
def test_houses_can_be_bought_even_outside_your_turn(edition):
    """G0009: "you can buy houses from the Bank at the deed's house price, even outside your
    turn." """
    g = started(edition)
    g.own("p2", *LIGHT_BLUE)
    assert g.whose_turn == "p1"
    g.do(type="build", property="vermont-avenue")
    assert g.texts() == ["Bob built a house on Vermont Avenue for 50."]
    assert g.cashes() == {"p1": 1500, "p2": 1450, "p3": 1500}
    assert g.prop("vermont-avenue") == deed("p2", houses=1)
    assert g.whose_turn == "p1"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_jailed_player_may_still_buy_and_sell_buildings(edition):
    """G0009: "You may still collect rent, bid in auctions, trade, mortgage and buy buildings
    while jailed." Classic: "While you are in Jail, you may still collect rent, bid at auctions,
    buy and sell buildings, and trade." """
    g = started(edition)
    g.own("p1", *DARK_BLUE)
    g.place("p1", 10, in_jail=True)
    g.do(type="build", property="boardwalk")
    assert g.prop("boardwalk") == deed("p1", houses=1)
    g.do(type="sell_building", property="boardwalk")
    assert g.prop("boardwalk") == deed("p1")
    assert g.cashes()["p1"] == 1500 - 200 + 100
    assert g.player("p1")["in_jail"] is True


@pytest.mark.parametrize("edition", EDITIONS)
def test_building_needs_the_cash_for_it(edition):
    """G0009: "buy houses from the Bank at the deed's house price"; a hotel "by paying its hotel
    price". The game uses no negative balances, so the cash must be there."""
    g = dark_blue_game(edition)
    g.set_cash(p1=199)
    e = g.refused(DomainError, type="build", property="boardwalk")
    assert e.message == "Ann has 199; a house on Boardwalk costs 200."
    g.set_cash(p1=200)
    g.do(type="build", property="boardwalk")
    assert g.cashes()["p1"] == 0
    assert g.prop("boardwalk") == deed("p1", houses=1)


@pytest.mark.parametrize("edition", EDITIONS)
def test_build_evenly_one_house_on_every_street_before_a_second_on_any(edition):
    """G0009: "Build evenly: put one on every street before putting a second on any, and continue
    that pattern up to four houses per street." Classic: "you must put one house on every street
    in the set before any street gets a second house." """
    g = started(edition)
    g.own("p1", *GREEN)
    g.do(type="build", property="pacific-avenue")
    e = g.refused(DomainError, type="build", property="pacific-avenue")
    assert e.message == "Build evenly: North Carolina Avenue has fewer houses."
    g.do(type="build", property="pennsylvania-avenue")
    g.refused(DomainError, type="build", property="pennsylvania-avenue")
    g.do(type="build", property="north-carolina-avenue")
    g.do(type="build", property="north-carolina-avenue")
    assert [g.prop(p) for p in GREEN] == [
        deed("p1", houses=1),
        deed("p1", houses=2),
        deed("p1", houses=1),
    ]
    assert g.cashes()["p1"] == 1500 - 4 * 200
    assert g.state["bank"] == {"houses": 28, "hotels": 12, "free_parking": 0}


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_street_holds_at_most_four_houses_then_its_next_building_is_a_hotel(edition):
    """Classic: "A street can hold at most 4 houses." G0009: "continue that pattern up to four
    houses per street." The fifth purchase on a street is its hotel."""
    g = dark_blue_game(edition)
    g.set_cash(p1=2000)
    for _ in range(4):
        for prop in DARK_BLUE:
            g.do(type="build", property=prop)
    assert [g.prop(p) for p in DARK_BLUE] == [deed("p1", houses=4)] * 2
    assert g.state["bank"] == {"houses": 24, "hotels": 12, "free_parking": 0}
    g.do(type="build", property="boardwalk")
    assert g.texts() == [
        "Ann built a hotel on Boardwalk for 200, returning its four houses to the Bank."
    ]
    assert g.prop("boardwalk") == deed("p1", hotel=True)
    assert g.state["bank"] == {"houses": 28, "hotels": 11, "free_parking": 0}
    assert g.cashes()["p1"] == 2000 - 9 * 200


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_hotel_costs_its_hotel_price_and_the_streets_four_houses_go_back_to_the_bank(edition):
    """G0009: "With four houses on every street in the set, you may upgrade a street to one hotel
    by paying its hotel price and returning that street's four houses." Classic: "When a street
    has 4 houses, you may trade them in for a hotel: pay the hotel price on the card, give the 4
    houses back to the Bank, and put one hotel on the street." """
    g = started(edition)
    g.own("p1", *LIGHT_BLUE, houses=4)
    assert g.state["bank"] == {"houses": 20, "hotels": 12, "free_parking": 0}
    g.do(type="build", property="connecticut-avenue")
    assert g.prop("connecticut-avenue") == deed("p1", hotel=True)
    assert g.prop("oriental-avenue") == deed("p1", houses=4)
    assert g.state["bank"] == {"houses": 24, "hotels": 11, "free_parking": 0}
    assert g.cashes()["p1"] == 1450


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_hotel_needs_four_houses_on_every_street_of_the_set(edition):
    """G0009: "With four houses on every street in the set, you may upgrade a street to one
    hotel"."""
    g = started(edition)
    g.own("p1", "oriental-avenue", "vermont-avenue", houses=4)
    g.own("p1", "connecticut-avenue", houses=3)
    e = g.refused(DomainError, type="build", property="vermont-avenue")
    assert e.message == "Build evenly: Connecticut Avenue has fewer houses."


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_hotel_is_the_maximum_do_not_add_houses_to_it(edition):
    """G0009: "A hotel is the maximum; do not add houses to it." Classic: "One hotel per street is
    the limit." """
    g = started(edition)
    g.own("p1", *DARK_BLUE, hotel=True)
    e = g.refused(DomainError, type="build", property="boardwalk")
    assert e.message == "Boardwalk has a hotel, the most a street can hold."


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_hotel_counts_as_five_houses_when_building_evenly(edition):
    """G0009: "Build evenly ... With four houses on every street in the set, you may upgrade a
    street to one hotel": the other streets may still take their hotels after one has it."""
    g = started(edition)
    g.own("p1", "oriental-avenue", hotel=True)
    g.own("p1", "vermont-avenue", "connecticut-avenue", houses=4)
    g.do(type="build", property="vermont-avenue")
    g.do(type="build", property="connecticut-avenue")
    assert [g.prop(p) for p in LIGHT_BLUE] == [deed("p1", hotel=True)] * 3
    assert g.state["bank"] == {"houses": 32, "hotels": 9, "free_parking": 0}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(
    "prop", ["reading-railroad", "short-line", "electric-company", "water-works"]
)
def test_railroads_and_utilities_do_not_take_buildings(edition, prop):
    """G0009: "Railroads and utilities do not take buildings." """
    g = started(edition)
    g.own(
        "p1",
        "reading-railroad",
        "pennsylvania-railroad",
        "b-and-o-railroad",
        "short-line",
        "electric-company",
        "water-works",
    )
    e = g.refused(DomainError, type="build", property=prop)
    assert e.message.endswith("railroads and utilities take no buildings.")
    e = g.refused(DomainError, type="sell_building", property=prop)


def test_building_names_a_known_property():
    """A malformed command is refused as such (400), not as a rule."""
    g = dark_blue_game()
    g.refused(BadCommand, type="build", property="baker-street")
    g.refused(BadCommand, type="build")
    g.refused(BadCommand, type="build", property=39)


# --- the physical supply ----------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_with_no_houses_left_you_must_wait_until_some_return(edition):
    """G0009: "With no buildings left, you must wait until some return: do not use substitutes,
    buy directly from another player or skip straight to a hotel." """
    g = dark_blue_game(edition)
    bank(g, houses=0)
    e = g.refused(DomainError, type="build", property="boardwalk")
    assert e.message == "The Bank has no houses left: wait until some come back."
    g.own("p2", *LIGHT_BLUE, houses=1)  # Bob's houses come back
    bank(g, houses=0)
    g.do(type="sell_building", property="vermont-avenue")
    assert g.state["bank"] == {"houses": 1, "hotels": 12, "free_parking": 0}
    g.do(type="build", property="boardwalk")
    assert g.prop("boardwalk") == deed("p1", houses=1)
    assert g.state["bank"] == {"houses": 0, "hotels": 12, "free_parking": 0}


@pytest.mark.parametrize("edition", EDITIONS)
def test_with_no_houses_left_a_street_cannot_skip_straight_to_a_hotel(edition):
    """G0009: "do not ... skip straight to a hotel." """
    g = dark_blue_game(edition)
    bank(g, houses=0, hotels=12)
    g.refused(DomainError, type="build", property="boardwalk")
    g.own("p1", *DARK_BLUE, houses=3)
    bank(g, houses=0, hotels=12)
    e = g.refused(DomainError, type="build", property="park-place")
    assert e.message == "The Bank has no houses left: wait until some come back."


@pytest.mark.parametrize("edition", EDITIONS)
def test_with_no_hotels_left_four_houses_stay_four_houses(edition):
    """G0009: "With no buildings left, you must wait until some return"."""
    g = started(edition)
    g.own("p1", *DARK_BLUE, houses=4)
    bank(g, hotels=0)
    e = g.refused(DomainError, type="build", property="boardwalk")
    assert e.message == "The Bank has no hotels left: wait until some come back."


@pytest.mark.parametrize("edition", EDITIONS)
def test_several_players_wanting_the_last_house_make_the_banker_auction_it(edition):
    """G0009: "If several players want the last house or hotel, the Banker auctions it, opening
    at 10 with raises of at least 1". Classic: "If the Bank runs out and two players want the last
    one, the Banker auctions it." """
    g = dark_blue_game(edition)
    g.own("p2", *LIGHT_BLUE)
    bank(g, houses=1)
    g.do(type="building_auction", kind="house")
    assert g.pending == pending(auction={"item": "house", "high_bid": 0, "high_bidder": None})
    assert g.texts() == [
        "Several players want the Bank's last houses: the Banker auctions one "
        "house; bids open at 10."
    ]
    g.refused(DomainError, type="bid", player="p2", amount=9)
    g.do(type="bid", player="p2", amount=10)
    g.refused(DomainError, type="bid", player="p1", amount=10)
    g.do(type="bid", player="p1", amount=11)
    assert g.pending == pending(auction={"item": "house", "high_bid": 11, "high_bidder": "p1"})


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_winner_of_a_building_auction_pays_the_bid_to_the_bank_and_places_it_legally(edition):
    """G0009: "only an otherwise legal building purchase can be completed. The payment goes to the
    Bank." README: "the winning bid is the price paid for that building, and the winner must place
    it at once on a street where that purchase is legal." """
    g = dark_blue_game(edition)
    g.own("p2", *LIGHT_BLUE)
    bank(g, houses=1)
    g.do(type="building_auction", kind="house")
    g.do(type="bid", player="p2", amount=10)
    g.do(type="bid", player="p1", amount=260)
    g.refused(BadCommand, type="close_auction")
    e = g.refused(DomainError, type="close_auction", property="vermont-avenue")
    assert e.message == (
        "Vermont Avenue is not Ann's: the house must go on one of the winner's streets."
    )
    g.do(type="close_auction", property="park-place")
    assert g.texts() == ["Ann won the house at auction for 260 and placed it on Park Place."]
    assert g.cashes() == {"p1": 1240, "p2": 1500, "p3": 1500}
    assert g.prop("park-place") == deed("p1", houses=1)
    assert g.state["bank"] == {"houses": 0, "hotels": 12, "free_parking": 0}
    assert g.pending == pending()


def test_the_auctioned_house_must_go_where_building_evenly_allows():
    """G0009: "only an otherwise legal building purchase can be completed." """
    g = dark_blue_game()
    g.own("p1", "boardwalk", houses=1)
    g.own("p2", *LIGHT_BLUE)
    bank(g, houses=1)
    g.do(type="building_auction", kind="house")
    g.do(type="bid", player="p1", amount=10)
    e = g.refused(DomainError, type="close_auction", property="boardwalk")
    assert e.message == "Build evenly: Park Place has fewer houses."
    g.do(type="close_auction", property="park-place")
    assert [g.prop(p) for p in DARK_BLUE] == [deed("p1", houses=1)] * 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_bid_for_a_building_is_refused_from_a_player_who_could_not_place_it(edition):
    """G0009: "only an otherwise legal building purchase can be completed." API: "a bid is refused
    from a player who could not legally place that building anywhere"."""
    g = dark_blue_game(edition)
    g.own("p2", "vermont-avenue")  # no whole set
    g.own("p3", *GREEN, houses=3)  # ready for houses, not for a hotel
    bank(g, houses=1, hotels=1)
    g.do(type="building_auction", kind="house")
    e = g.refused(DomainError, type="bid", player="p2", amount=10)
    assert e.message == ("Bob has no street where a house could legally go, so cannot bid for it.")
    g.do(type="bid", player="p3", amount=10)
    g.do(type="close_auction", property="pacific-avenue")
    assert g.prop("pacific-avenue") == deed("p3", houses=4)
    g.do(type="building_auction", kind="hotel")
    e = g.refused(DomainError, type="bid", player="p3", amount=20)
    assert e.message == ("Cat has no street where a hotel could legally go, so cannot bid for it.")
    g.refused(DomainError, type="bid", player="p1", amount=20)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_last_hotel_can_be_auctioned_and_takes_back_the_four_houses(edition):
    """G0009: "If several players want the last house or hotel, the Banker auctions it"; a hotel
    is placed "returning that street's four houses"."""
    g = started(edition)
    g.own("p1", *DARK_BLUE, houses=4)
    g.own("p2", *LIGHT_BLUE, houses=4)
    bank(g, hotels=1)
    g.do(type="building_auction", kind="hotel")
    assert g.pending == pending(auction={"item": "hotel", "high_bid": 0, "high_bidder": None})
    g.do(type="bid", player="p1", amount=40)
    g.do(type="bid", player="p2", amount=41)
    g.refused(DomainError, type="close_auction", property="boardwalk")
    g.do(type="close_auction", property="oriental-avenue")
    assert g.cashes() == {"p1": 1500, "p2": 1459, "p3": 1500}
    assert g.prop("oriental-avenue") == deed("p2", hotel=True)
    assert g.state["bank"] == {"houses": 32 - 8 - 12 + 4, "hotels": 0, "free_parking": 0}
    assert g.pending == pending()


def test_a_building_auction_nobody_bids_in_leaves_the_building_in_the_bank():
    """G0009 auctions: "If nobody bids, nothing is paid"."""
    g = dark_blue_game()
    bank(g, houses=1)
    g.do(type="building_auction", kind="house")
    g.do(type="close_auction")
    assert g.texts() == ["Nobody bid: the house stays in the Bank."]
    assert g.state["bank"] == {"houses": 1, "hotels": 12, "free_parking": 0}
    assert g.cashes()["p1"] == 1500
    assert g.pending == pending()


def test_a_building_auction_needs_a_building_of_that_kind_in_the_bank():
    """API: "`building_auction` is allowed while the Bank has at least one building of that
    kind"."""
    g = dark_blue_game()
    bank(g, houses=0, hotels=0)
    e = g.refused(DomainError, type="building_auction", kind="house")
    assert e.message == "The Bank has no houses left to auction."
    g.refused(DomainError, type="building_auction", kind="hotel")
    g.refused(BadCommand, type="building_auction", kind="castle")
    g.refused(BadCommand, type="building_auction")


def test_nobody_builds_the_auctioned_building_past_the_auction():
    """G0009: "If several players want the last house or hotel, the Banker auctions it": while
    it is on the block, nobody buys it directly or changes the supply under the auction."""
    g = dark_blue_game()
    g.own("p2", *LIGHT_BLUE)
    bank(g, houses=1)
    g.do(type="building_auction", kind="house")
    g.do(type="bid", player="p2", amount=10)
    e = g.refused(DomainError, type="build", property="boardwalk")
    assert e.message == "The Banker is auctioning a house: close that auction first."
    g.do(type="close_auction", property="vermont-avenue")
    assert g.prop("vermont-avenue") == deed("p2", houses=1)


# --- selling buildings ------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_house_sells_back_for_half_its_purchase_cost(edition):
    """G0009: "Sell houses back for half their purchase cost". Classic: "Sell hotels and houses
    back to the Bank for half of what they cost." """
    g = started(edition)
    g.own("p1", *LIGHT_BLUE, houses=1)
    g.do(type="sell_building", property="vermont-avenue")
    assert g.texts() == ["Ann sold a house on Vermont Avenue back to the Bank for 25."]
    assert g.cashes()["p1"] == 1525
    assert g.prop("vermont-avenue") == deed("p1")
    assert g.state["bank"] == {"houses": 30, "hotels": 12, "free_parking": 0}


@pytest.mark.parametrize("edition", EDITIONS)
def test_houses_are_removed_evenly_across_their_color_set(edition):
    """G0009: "Sell houses back for half their purchase cost, removing them evenly across their
    color set." Classic: "houses must come off evenly across the set, the same way they went
    on." """
    g = started(edition)
    g.own("p1", "oriental-avenue", houses=2)
    g.own("p1", "vermont-avenue", "connecticut-avenue", houses=1)
    e = g.refused(DomainError, type="sell_building", property="vermont-avenue")
    assert e.message == "Sell evenly: Oriental Avenue has more buildings."
    g.do(type="sell_building", property="oriental-avenue")
    g.do(type="sell_building", property="connecticut-avenue")
    assert [g.prop(p) for p in LIGHT_BLUE] == [
        deed("p1", houses=1),
        deed("p1", houses=1),
        deed("p1"),
    ]
    assert g.cashes()["p1"] == 1550


@pytest.mark.parametrize("edition", EDITIONS)
def test_hotels_come_off_first(edition):
    """Classic: "Hotels come off first, and houses must come off evenly across the set"."""
    g = started(edition)
    g.own("p1", "park-place", houses=4)
    g.own("p1", "boardwalk", hotel=True)
    e = g.refused(DomainError, type="sell_building", property="park-place")
    assert e.message == "Sell evenly: Boardwalk has more buildings."


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_hotel_sells_for_half_and_comes_back_as_four_houses(edition):
    """G0009: "Sell a hotel back for half its cost and exchange it immediately for four houses as
    the leaflet instructs." """
    g = started(edition)
    g.own("p1", *DARK_BLUE, hotel=True)
    assert g.state["bank"] == {"houses": 32, "hotels": 10, "free_parking": 0}
    g.do(type="sell_building", property="boardwalk")
    assert g.texts() == [
        "Ann sold the hotel (it comes back as four houses) on Boardwalk back to the Bank for 100."
    ]
    assert g.cashes()["p1"] == 1600
    assert g.prop("boardwalk") == deed("p1", houses=4)
    assert g.state["bank"] == {"houses": 28, "hotels": 11, "free_parking": 0}


@pytest.mark.parametrize("edition", EDITIONS)
def test_there_is_nothing_to_sell_on_a_bare_street(edition):
    """Classic: "Houses and hotels sell back to the Bank for half price"; a bare street has
    none."""
    g = started(edition)
    g.own("p1", *DARK_BLUE)
    e = g.refused(DomainError, type="sell_building", property="boardwalk")
    assert e.message == "There are no buildings on Boardwalk."


@pytest.mark.parametrize("edition", EDITIONS)
def test_you_can_sell_a_house_whenever_you_want(edition):
    """Classic: "Can I sell a house whenever I want? Yes. Houses and hotels sell back to the Bank
    for half price, at any time"."""
    g = started(edition)
    g.own("p2", *DARK_BLUE, houses=1)
    g.roll("p1", 3, 4)  # Ann lands on Chance: a card is pending, and it is Bob's roll
    g.do(type="sell_building", property="park-place")
    assert g.cashes()["p2"] == 1600
    assert g.pending == pending(card={"player": "p1", "deck": "chance"})


# --- the hotel shortage -----------------------------------------------------------------------


def test_with_fewer_than_four_houses_in_the_bank_the_hotel_development_goes_back_and_the_street_is_bare():  # noqa: E501
    """G0009 house ruling: "sell the entire hotel development back for half the paid
    hotel-and-four-house cost and leave the street bare, removing other buildings as necessary to
    retain even development." API: "the set's other streets are sold down to at most one house
    each at half price"."""
    g = started("g0009")
    g.own("p1", *DARK_BLUE, hotel=True)
    bank(g, houses=3)
    g.do(type="sell_building", property="boardwalk")
    # Boardwalk: (200 + 4 x 200) / 2 = 500. Park Place: hotel to one house, (200 + 3 x 200) / 2.
    assert g.cashes()["p1"] == 1500 + 500 + 400
    assert g.prop("boardwalk") == deed("p1")
    assert g.prop("park-place") == deed("p1", houses=1)
    assert g.state["bank"] == {"houses": 2, "hotels": 12, "free_parking": 0}
    assert g.texts() == [
        "Ann sold the whole hotel development on Boardwalk back to the Bank "
        "(the Bank lacked four houses; the dark blue set sold down evenly) for "
        "900."
    ]


def test_under_the_hotel_shortage_ruling_houses_elsewhere_in_the_set_are_sold_down_to_one():
    """API: "the set's other streets are sold down to at most one house each at half price (a
    hotel counting as five houses)"."""
    g = started("g0009")
    g.own("p1", "pacific-avenue", hotel=True)
    g.own("p1", "north-carolina-avenue", houses=4)
    g.own("p1", "pennsylvania-avenue", hotel=True)
    bank(g, houses=0)
    g.do(type="sell_building", property="pacific-avenue")
    # Pacific 500; North Carolina 3 houses 300; Pennsylvania hotel to one house 400.
    assert g.cashes()["p1"] == 1500 + 500 + 300 + 400
    assert [g.prop(p) for p in GREEN] == [deed("p1"), deed("p1", houses=1), deed("p1", houses=1)]
    assert g.state["bank"] == {"houses": 3 - 1, "hotels": 12, "free_parking": 0}


def test_under_the_hotel_shortage_ruling_a_hotel_that_would_need_houses_the_bank_lacks_goes_bare():
    """API: "a hotel that would need houses the Bank lacks goes bare too"."""
    g = started("g0009")
    g.own("p1", *DARK_BLUE, hotel=True)
    g.own("p1", "vermont-avenue", houses=0)
    bank(g, houses=0)
    g.do(type="sell_building", property="park-place")
    assert g.cashes()["p1"] == 1500 + 500 + 500
    assert [g.prop(p) for p in DARK_BLUE] == [deed("p1"), deed("p1")]
    assert g.state["bank"] == {"houses": 0, "hotels": 12, "free_parking": 0}


def test_under_the_hotel_shortage_ruling_bare_and_one_house_streets_stay_as_they_are():
    """API: "sold down to at most one house each": streets already at one house or none keep
    them."""
    g = started("g0009")
    g.own("p1", "oriental-avenue", hotel=True)
    g.own("p1", "vermont-avenue", "connecticut-avenue", houses=4)
    bank(g, houses=2)
    g.do(type="sell_building", property="oriental-avenue")
    assert g.cashes()["p1"] == 1500 + (50 + 200) // 2 + 2 * 3 * 25
    assert [g.prop(p) for p in LIGHT_BLUE] == [
        deed("p1"),
        deed("p1", houses=1),
        deed("p1", houses=1),
    ]
    assert g.state["bank"] == {"houses": 8, "hotels": 12, "free_parking": 0}


def test_with_four_houses_in_the_bank_the_ordinary_hotel_sale_applies_even_under_the_ruling():
    """G0009: "Sell a hotel back for half its cost and exchange it immediately for four houses";
    the ruling is only for "when fewer than four houses are in the Bank"."""
    g = started("g0009")
    g.own("p1", *DARK_BLUE, hotel=True)
    bank(g, houses=4)
    g.do(type="sell_building", property="boardwalk")
    assert g.cashes()["p1"] == 1600
    assert g.prop("boardwalk") == deed("p1", houses=4)
    assert g.state["bank"] == {"houses": 0, "hotels": 11, "free_parking": 0}


@pytest.mark.parametrize(
    "edition,options", [("g0009", {"hotel_shortage_ruling": False}), ("classic", None)]
)
def test_without_the_ruling_a_hotel_cannot_be_sold_while_the_bank_lacks_four_houses(
    edition, options
):
    """README: "with the option off, refused"; classic: "refused". The hotel must "exchange it
    immediately for four houses", and the Bank has not got them."""
    g = started(edition, options=options)
    g.own("p1", *DARK_BLUE, hotel=True)
    bank(g, houses=3)
    e = g.refused(DomainError, type="sell_building", property="boardwalk")
    assert e.message == (
        "The Bank has only 3 houses: a hotel sold comes back as four houses, so "
        "it cannot be sold now."
    )


def test_the_hotel_shortage_ruling_is_not_offered_with_classic():
    """API: "Hotel-shortage ruling (g0009 only; a request for it with classic is refused)"."""
    from banker.rules import new_game

    with pytest.raises(DomainError) as e:
        new_game("g1", "classic", ["Ann", "Bob"], {"hotel_shortage_ruling": True})
    assert type(e.value) is DomainError
    assert new_game("g1", "classic", ["Ann", "Bob"])["options"]["hotel_shortage_ruling"] is False
    assert new_game("g1", "g0009", ["Ann", "Bob"])["options"]["hotel_shortage_ruling"] is True


def test_an_auctioned_building_the_winner_can_no_longer_place_stays_in_the_bank():
    """G0009: "only an otherwise legal building purchase can be completed." When, by the close,
    the winner has no street that could legally take it (here the Bank's last houses went back
    into a hotel sold meanwhile, or the winner mortgaged their set), no sale is made."""
    g = dark_blue_game()
    g.own("p2", *LIGHT_BLUE)
    g.own("p3", "pacific-avenue", "north-carolina-avenue", "pennsylvania-avenue", hotel=True)
    bank(g, houses=4)
    g.do(type="building_auction", kind="house")
    g.do(type="bid", player="p2", amount=30)
    g.do(type="sell_building", property="pacific-avenue")  # the hotel takes the four houses
    assert g.state["bank"] == {"houses": 0, "hotels": 10, "free_parking": 0}
    g.do(type="close_auction", property="vermont-avenue")
    assert g.texts() == [
        "Bob can no longer legally place the house or pay 30 for it: no sale, "
        "the house stays in the Bank."
    ]
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 1600}
    assert g.prop("vermont-avenue") == deed("p2")
    assert g.pending == pending()

    g = dark_blue_game()
    bank(g, houses=1)
    g.do(type="building_auction", kind="house")
    g.do(type="bid", player="p1", amount=10)
    g.do(type="mortgage", property="park-place")
    g.do(type="close_auction")
    assert g.state["bank"] == {"houses": 1, "hotels": 12, "free_parking": 0}
    assert [g.prop(p) for p in DARK_BLUE] == [deed("p1", mortgaged=True), deed("p1")]
    assert g.cashes()["p1"] == 1500 + 175
