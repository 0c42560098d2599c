"""Mortgages: raising cash on a deed, lifting it, and what a mortgaged deed still counts for."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from .holdings_helpers import BadCommand, DomainError, debt, deed, pending, started

EDITIONS = ["g0009", "classic"]
# The checked figures (a copy of ../shared/reference/g0009.json ships with the package).
REFERENCE = json.loads((Path(__file__).parents[2] / "banker/rules/g0009.json").read_text())
DEEDS = {b["id"]: b for b in REFERENCE["board"] if "price" in b}
RAILROADS = ("reading-railroad", "pennsylvania-railroad", "b-and-o-railroad", "short-line")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("prop", ["mediterranean-avenue", "boardwalk", "park-place"])
def test_a_mortgage_pays_the_printed_mortgage_value_and_keeps_the_owner(edition, prop):
    """G0009: "Turn the deed facedown and collect its printed mortgage value from the Bank. A
    mortgage raises cash but does not transfer ownership." Classic: "turn its Title Deed card face
    down, and take the mortgage value printed on the card from the Bank." """
    g = started(edition)
    g.own("p2", prop)
    g.do(type="mortgage", property=prop)
    value = DEEDS[prop]["mortgage_value"]
    assert g.texts() == [f"Bob mortgaged {DEEDS[prop]['name']} for {value}."]
    assert g.cashes() == {"p1": 1500, "p2": 1500 + value, "p3": 1500}
    assert g.prop(prop) == deed("p2", mortgaged=True)
    assert g.pending == pending()


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("prop", ["reading-railroad", "electric-company"])
def test_a_railroad_or_utility_can_also_be_mortgaged(edition, prop):
    """G0009: "A railroad or utility can also be mortgaged." """
    g = started(edition)
    g.own("p1", prop)
    g.do(type="mortgage", property=prop)
    assert g.cashes()["p1"] == 1500 + DEEDS[prop]["mortgage_value"]
    assert g.prop(prop) == deed("p1", mortgaged=True)


@pytest.mark.parametrize("edition", EDITIONS)
def test_to_mortgage_a_street_first_sell_all_buildings_in_its_color_set(edition):
    """G0009: "To mortgage a street, first sell all buildings in that entire color set to the Bank
    at half cost." Classic: "You may also mortgage a property: sell all buildings on its color
    set first"."""
    g = started(edition)
    g.own("p1", "oriental-avenue", houses=1)
    g.own("p1", "vermont-avenue", "connecticut-avenue")
    for prop in ("oriental-avenue", "vermont-avenue"):
        e = g.refused(DomainError, type="mortgage", property=prop)
    assert e.message == (
        "Sell every building on the light blue streets before mortgaging Vermont Avenue."
    )
    g.do(type="sell_building", property="oriental-avenue")
    g.do(type="mortgage", property="vermont-avenue")
    assert g.cashes()["p1"] == 1500 + 25 + 50
    assert g.prop("vermont-avenue") == deed("p1", mortgaged=True)
    assert g.state["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_deed_cannot_be_mortgaged_twice_or_by_nobody(edition):
    """G0009: "collect its printed mortgage value" happens once, from the deed's owner."""
    g = started(edition)
    e = g.refused(DomainError, type="mortgage", property="boardwalk")
    assert e.message == "Nobody owns Boardwalk."
    g.own("p1", "boardwalk", mortgaged=True)
    e = g.refused(DomainError, type="mortgage", property="boardwalk")
    assert e.message == "Boardwalk is already mortgaged."
    g.refused(BadCommand, type="mortgage", property="old-kent-road")
    g.refused(BadCommand, type="mortgage")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_mortgage_may_be_taken_out_of_turn_and_in_jail(edition):
    """G0009: "You may still collect rent, bid in auctions, trade, mortgage and buy buildings
    while jailed." """
    g = started(edition)
    g.own("p3", "boardwalk")
    g.place("p3", 10, in_jail=True, jail_attempts=1)
    g.do(type="mortgage", property="boardwalk")
    assert g.prop("boardwalk") == deed("p3", mortgaged=True)
    assert g.cashes()["p3"] == 1700


@pytest.mark.parametrize("prop", sorted(DEEDS))
def test_g0009_lifting_a_mortgage_costs_the_unmortgage_value_printed_on_the_deed(prop):
    """G0009: "To lift a mortgage, pay the unmortgage cost printed on that deed and turn it
    faceup; do not guess the amount from memory." """
    g = started("g0009")
    g.own("p1", prop, mortgaged=True)
    g.do(type="unmortgage", property=prop)
    cost = DEEDS[prop]["unmortgage_value"]
    assert g.texts() == [f"Ann lifted the mortgage on {DEEDS[prop]['name']} for {cost}."]
    assert g.cashes()["p1"] == 1500 - cost
    assert g.prop(prop) == deed("p1")


@pytest.mark.parametrize("prop", sorted(DEEDS))
def test_classic_lifting_a_mortgage_costs_the_mortgage_value_plus_ten_percent(prop):
    """Classic: "To lift a mortgage later, pay the Bank the mortgage value plus 10%, and turn the
    card face up again." README: "same figures, rounded up"."""
    g = started("classic")
    g.own("p1", prop, mortgaged=True)
    g.do(type="unmortgage", property=prop)
    value = DEEDS[prop]["mortgage_value"]
    assert g.cashes()["p1"] == 1500 - value - math.ceil(value / 10)
    assert g.prop(prop) == deed("p1")


@pytest.mark.parametrize("edition", EDITIONS)
def test_lifting_a_mortgage_needs_the_cash(edition):
    """G0009: "To lift a mortgage, pay the unmortgage cost printed on that deed"; there are no
    negative balances."""
    g = started(edition)
    g.own("p1", "park-place", mortgaged=True)
    g.set_cash(p1=192)
    e = g.refused(DomainError, type="unmortgage", property="park-place")
    assert e.message == "Ann has 192; lifting Park Place costs 193."
    g.set_cash(p1=193)
    g.do(type="unmortgage", property="park-place")
    assert g.cashes()["p1"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_only_a_mortgaged_deed_can_be_lifted(edition):
    """G0009: "To lift a mortgage ... turn it faceup": a faceup deed has none."""
    g = started(edition)
    g.own("p1", "park-place")
    e = g.refused(DomainError, type="unmortgage", property="park-place")
    assert e.message == "Park Place is not mortgaged."
    g.refused(DomainError, type="unmortgage", property="boardwalk")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_mortgage_can_be_lifted_on_a_later_turn_out_of_turn(edition):
    """G0009: the owner may "leave it mortgaged and pay on a later turn"."""
    g = started(edition)
    g.own("p2", "boardwalk", mortgaged=True)
    g.roll("p1", 1, 2)  # Ann lands on Baltic Avenue: an offer is open, Bob is to roll
    g.do(type="unmortgage", property="boardwalk")
    assert g.prop("boardwalk") == deed("p2")
    assert g.cashes()["p2"] == 1500 - 220


# --- rent and mortgaged deeds -----------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_rent_is_collected_on_a_mortgaged_property(edition):
    """G0009: "No rent is collected on a mortgaged property." Classic: "A mortgaged property
    collects no rent." """
    g = started(edition)
    g.own("p2", "park-place", "boardwalk", mortgaged=True)
    g.place("p1", 34)
    g.roll("p1", 2, 3)
    assert g.texts()[-1] == "Boardwalk is mortgaged: no rent is due."
    assert g.pending == pending()
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 1500}


@pytest.mark.parametrize("edition", EDITIONS)
def test_unmortgaged_streets_in_a_complete_owned_set_still_collect_color_set_rent(edition):
    """G0009: "In this edition, unmortgaged streets in a complete owned set still collect their
    increased color-set rent even if another street in the set is mortgaged." """
    g = started(edition)
    g.own("p2", "park-place", mortgaged=True)
    g.own("p2", "boardwalk")
    g.place("p1", 34)
    g.roll("p1", 2, 3)
    assert g.pending == pending(
        rent_claims=[
            {"id": "c1", "owner": "p2", "payer": "p1", "property": "boardwalk", "amount": 100}
        ]
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_mortgaged_railroads_count_for_the_owners_other_railroads_rent(edition):
    """G0009: "use the increased ownership-count rent on unmortgaged railroads or utilities when
    others in that owned group are mortgaged." """
    g = started(edition)
    g.own("p2", *RAILROADS[1:], mortgaged=True)
    g.own("p2", "reading-railroad")
    g.roll("p1", 2, 3)
    assert g.pending == pending(
        rent_claims=[
            {
                "id": "c1",
                "owner": "p2",
                "payer": "p1",
                "property": "reading-railroad",
                "amount": 200,
            }
        ]
    )


def test_g0009_a_mortgaged_utility_counts_for_the_ten_times_rent_of_the_other():
    """G0009: "use the increased ownership-count rent on unmortgaged railroads or utilities when
    others in that owned group are mortgaged"; the payer rolls again for it."""
    g = started("g0009")
    g.own("p2", "water-works", mortgaged=True)
    g.own("p2", "electric-company")
    g.place("p1", 7)
    g.roll("p1", 2, 3)
    assert g.pending["dice"]["multiplier"] == 10
    g.do(type="rent_roll", dice=[1, 2])
    assert g.pending == pending(
        rent_claims=[
            {"id": "c1", "owner": "p2", "payer": "p1", "property": "electric-company", "amount": 30}
        ]
    )


def test_classic_a_mortgaged_utility_counts_for_the_ten_times_rent_of_the_other():
    """Classic: "4 times the roll if the owner has one utility, 10 times the roll if the owner has
    both"; the mortgaged one is still owned."""
    g = started("classic")
    g.own("p2", "water-works", mortgaged=True)
    g.own("p2", "electric-company")
    g.place("p1", 7)
    g.roll("p1", 2, 3)
    assert g.pending == pending(
        rent_claims=[
            {"id": "c1", "owner": "p2", "payer": "p1", "property": "electric-company", "amount": 50}
        ]
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_mortgage_raises_cash_toward_a_debt(edition):
    """G0009: "If you owe rent, a tax, a card payment or a Jail fee and lack cash, raise money by
    selling buildings back and mortgaging properties." """
    g = started(edition)
    g.own("p1", "boardwalk")
    g.set_cash(p1=100)
    g.roll("p1", 1, 3)  # Income Tax, 200
    assert g.pending == pending(debt=debt("p1", None, 200, "tax", 200))
    g.do(type="mortgage", property="boardwalk")
    assert g.pending == pending(debt=debt("p1", None, 200, "tax", 0))
    g.do(type="pay_debt")
    assert g.cashes()["p1"] == 100
    assert g.pending == pending()
