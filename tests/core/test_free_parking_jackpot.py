"""The Free Parking jackpot, a house rule in neither rule text (option free_parking_jackpot),
through the rules core, in both editions. Named after the sentences of docs/api.md ("House rule:
the Free Parking jackpot"); the rule texts themselves say "Free Parking does nothing"."""

from __future__ import annotations

import pytest

from banker.rules import new_game
from tests.table_core import CoreGame

EDITIONS = ["g0009", "classic"]
FREE_PARKING = 20


def jackpot(edition: str, names=("Ann", "Bob", "Cat"), on: bool = True) -> CoreGame:
    """Ann, Bob and Cat, started (Ann rolls first), the house rule on (or off)."""
    g = CoreGame(names, edition, {"free_parking_jackpot": on})
    g.start("p1")
    return g


def pot(g: CoreGame) -> int:
    return g.state["bank"]["free_parking"]


def fill_the_pot(g: CoreGame, amount: int) -> None:
    g.setup(lambda s: s["bank"].update(free_parking=amount))


# --- the option ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_free_parking_jackpot_is_off_by_default_in_either_edition(edition):
    s = new_game("g1", edition, ["Ann", "Bob"], None)
    assert s["options"]["free_parking_jackpot"] is False
    assert s["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}
    on = new_game("g1", edition, ["Ann", "Bob"], {"free_parking_jackpot": True})
    assert on["options"]["free_parking_jackpot"] is True  # a house rule, not a g0009 variation


# --- what feeds the pot ----------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("space", "tax"), [(4, 200), (38, 100)])
def test_money_a_player_pays_to_the_bank_for_a_tax_space_goes_into_the_pot(edition, space, tax):
    g = jackpot(edition)
    g.land("p1", space)
    assert g.cash("p1") == 1500 - tax
    assert pot(g) == tax
    assert g.events[-1]["text"].endswith(f"into the Free Parking pot, now {tax}.")
    g.land("p2", 4)
    assert pot(g) == tax + 200


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(
    ("deck", "space", "card", "amount"),
    [
        ("chance", 7, "speeding-fine-15", 15),
        ("community_chest", 2, "pay-50-bake-sale-cookies", 50),
        ("community_chest", 17, "pay-100-car-wash", 100),
    ],
)
def test_money_a_player_pays_to_the_bank_for_a_card_goes_into_the_pot(
    edition, deck, space, card, amount
):
    g = jackpot(edition)
    g.land("p1", space)
    before = g.cash("p1")  # 1,700 after passing GO on the way to space 2
    g.draw(deck, card)
    assert (g.cash("p1"), pot(g)) == (before - amount, amount)
    assert g.texts()[-1] == f"Ann paid {amount} (card) into the Free Parking pot, now {amount}."


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(
    ("deck", "space", "card", "amount"),
    [
        ("chance", 7, "general-repairs", 3 * 25 + 2 * 100),
        ("community_chest", 2, "street-repairs", 3 * 40 + 2 * 115),
    ],
)
def test_street_or_general_repairs_go_into_the_pot(edition, deck, space, card, amount):
    g = jackpot(edition)
    g.own("p1", "st-james-place", "tennessee-avenue", houses=0, hotel=True)
    g.own("p1", "new-york-avenue", houses=3)
    g.land("p1", space)
    before = g.cash("p1")
    g.draw(deck, card)
    assert (g.cash("p1"), pot(g)) == (before - amount, amount)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_50_to_leave_jail_goes_into_the_pot(edition):
    g = jackpot(edition)
    g.place("p1", 10, in_jail=True)
    g.do(type="pay_jail_fine", player="p1")
    assert (g.cash("p1"), pot(g)) == (1450, 50)
    assert g.texts() == [
        "Ann paid the 50 fine (into the Free Parking pot, now 50) and left Jail; now roll and "
        "move as normal."
    ]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_50_charged_after_a_third_failed_attempt_goes_into_the_pot(edition):
    g = jackpot(edition)
    g.place("p1", 10, in_jail=True, jail_attempts=2)
    g.roll("p1", 1, 2)  # no doubles on the third attempt: pays 50, moves to 13
    assert (g.cash("p1"), pot(g), g.position("p1")) == (1450, 50, 13)


@pytest.mark.parametrize("edition", EDITIONS)
def test_money_for_the_pot_that_was_first_a_debt_goes_into_the_pot_once_paid(edition):
    g = jackpot(edition)
    g.place("p1", 1, cash=180)
    g.own("p1", "baltic-avenue")
    g.roll("p1", 1, 2)  # Income Tax, 200: a debt
    assert pot(g) == 0
    assert g.pending["debt"]["creditor"] is None
    g.do(type="mortgage", property="baltic-avenue")
    assert pot(g) == 0
    g.do(type="pay_debt")
    assert (g.cash("p1"), pot(g)) == (180 + 30 - 200, 200)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_jail_fine_first_a_debt_goes_into_the_pot_once_paid_and_the_move_follows(edition):
    g = jackpot(edition)
    g.place("p1", 10, in_jail=True, jail_attempts=2, cash=20)
    g.own("p1", "baltic-avenue")
    g.roll("p1", 4, 6)  # the third failed attempt: 50 owed, then the move onto Free Parking
    assert pot(g) == 0 and g.pending["debt"]["amount"] == 50
    g.do(type="mortgage", property="baltic-avenue")
    g.do(type="pay_debt")
    # The fine went into the pot, then Ann's roll brought her to rest on Free Parking.
    assert (g.position("p1"), pot(g), g.cash("p1")) == (FREE_PARKING, 0, 20 + 30)


# --- collecting ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_token_coming_to_rest_on_free_parking_by_a_roll_collects_the_whole_pot(edition):
    g = jackpot(edition)
    g.land("p1", 4)  # Income Tax: 200 into the pot
    g.land("p2", 38)  # Luxury Tax: 100 more
    g.land("p3", FREE_PARKING)
    assert pot(g) == 0
    assert g.cashes() == {"p1": 1300, "p2": 1400, "p3": 1800}
    assert g.texts()[-2:] == [
        "Cat landed on Free Parking.",
        "Cat collected the Free Parking pot: 300.",
    ]
    assert g.events[-1]["type"] == "free_parking"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_roll_out_of_jail_by_doubles_onto_free_parking_collects_the_pot(edition):
    g = jackpot(edition)
    fill_the_pot(g, 75)
    g.place("p1", 10, in_jail=True)
    g.roll("p1", 5, 5)
    assert (g.position("p1"), g.cash("p1"), pot(g)) == (FREE_PARKING, 1575, 0)


@pytest.mark.parametrize("edition", EDITIONS)
def test_with_an_empty_pot_nothing_is_collected(edition):
    g = jackpot(edition)
    g.land("p1", FREE_PARKING)
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 1500}
    assert pot(g) == 0
    assert g.texts()[-1] == "The Free Parking pot is empty: nothing to collect."


@pytest.mark.parametrize("edition", EDITIONS)
def test_passing_free_parking_collects_nothing(edition):
    g = jackpot(edition)
    fill_the_pot(g, 200)
    g.place("p1", 18)
    g.roll("p1", 2, 3)  # 18 -> 23, over Free Parking
    assert (g.cash("p1"), pot(g)) == (1500, 200)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_move_correction_collects_nothing(edition):
    g = jackpot(edition)
    fill_the_pot(g, 200)
    g.move("p1", FREE_PARKING)
    assert (g.cash("p1"), pot(g)) == (1500, 200)
    assert g.types() == ["token_moved"]


# --- nothing else feeds the pot -------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_prices_and_auctions_do_not_feed_the_pot(edition):
    g = jackpot(edition)
    g.land("p1", 6)  # Oriental Avenue, 100
    g.do(type="buy")
    g.land("p2", 8)  # Vermont Avenue
    g.do(type="auction")
    g.do(type="bid", player="p3", amount=40)
    g.do(type="close_auction")
    assert pot(g) == 0
    assert g.cashes() == {"p1": 1400, "p2": 1500, "p3": 1460}


@pytest.mark.parametrize("edition", EDITIONS)
def test_buildings_mortgages_and_their_interest_do_not_feed_the_pot(edition):
    g = jackpot(edition)
    g.own("p1", "mediterranean-avenue", "baltic-avenue")
    g.do(type="build", property="mediterranean-avenue")
    g.do(type="sell_building", property="mediterranean-avenue")
    g.do(type="mortgage", property="baltic-avenue")
    g.do(type="unmortgage", property="baltic-avenue")  # the 10% interest is the Bank's
    g.own("p2", "reading-railroad", mortgaged=True)
    side = {"cash": 0, "properties": [], "jail_cards": []}
    g.do(
        type="trade",
        **{"from": "p2", "to": "p1"},
        give={**side, "properties": ["reading-railroad"]},
        receive={**side, "cash": 10},
    )  # classic: Ann pays 10 interest to keep it mortgaged
    assert pot(g) == 0
    interest = 10 if edition == "classic" else 0
    assert g.cash("p1") == 1500 - 50 + 25 + 30 - 33 - 10 - interest


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_bankruptcy_to_the_bank_does_not_feed_the_pot(edition):
    g = jackpot(edition)
    g.place("p1", 1, cash=100)
    g.roll("p1", 1, 2)  # Income Tax, 200: a debt Ann cannot raise
    g.do(type="bankrupt", player="p1")
    assert pot(g) == 0
    assert g.player("p1")["eliminated"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_rent_and_payments_between_players_do_not_feed_the_pot(edition):
    g = jackpot(edition)
    g.own("p2", "oriental-avenue")
    g.land("p1", 6)
    g.claim()
    g.land("p2", 7)
    g.draw("chance", "chairperson-pay-each-player-50")
    assert pot(g) == 0
    assert g.cashes() == {"p1": 1500 - 6 + 50, "p2": 1500 + 6 - 100, "p3": 1550}


# --- undo and the option off ----------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_undo_takes_a_payment_in_back(edition):
    g = jackpot(edition)
    g.land("p1", 4)
    assert pot(g) == 200
    g.do(type="undo")
    assert (g.cash("p1"), pot(g), g.position("p1")) == (1500, 0, 1)


@pytest.mark.parametrize("edition", EDITIONS)
def test_undo_takes_a_collection_back(edition):
    g = jackpot(edition)
    fill_the_pot(g, 350)
    g.land("p1", FREE_PARKING)
    assert (g.cash("p1"), pot(g)) == (1850, 0)
    g.do(type="undo")
    assert (g.cash("p1"), pot(g)) == (1500, 350)


@pytest.mark.parametrize("edition", EDITIONS)
def test_without_the_option_bank_free_parking_stays_0(edition):
    g = jackpot(edition, on=False)
    g.land("p1", 4)
    g.place("p2", 10, in_jail=True)
    g.do(type="pay_jail_fine", player="p2")
    g.roll("p2", 4, 6)  # out of Jail, onto Free Parking
    assert pot(g) == 0
    assert g.cashes() == {"p1": 1300, "p2": 1450, "p3": 1500}
    assert g.texts()[-1] == "Bob landed on Free Parking."
    assert "Ann paid the Bank 200 (Income Tax)." in [e["text"] for e in g.history()]
