"""Chance and Community Chest: all 32 cards, drawn as the table draws them.

The table tells the Banker which card came up (`draw_card`); the core does what it says. Tests
are named after the card text or the rule sentence they check.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import NO_PENDING, BadCommand, CoreGame, DomainError, pending, started

EDITIONS = ["g0009", "classic"]
# The printed card texts (tests/data/README.md names their source).
REFERENCE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "g0009.json").read_text("utf-8")
)
CHANCE, CHEST = (7, 22, 36), (2, 17, 33)
ALL_CARDS = [
    (deck, c["id"]) for deck in ("chance", "community_chest") for c in REFERENCE["cards"][deck]
]


def on_card(g: CoreGame, pid: str, space: int, doubles: bool = False) -> None:
    """Bring pid's token onto a Chance or Community Chest space by a roll (3, or 1+1)."""
    if doubles:
        g.place(pid, space - 2)
        g.roll(pid, 1, 1)
    else:
        g.place(pid, space - 3)
        g.roll(pid, 1, 2)
    deck = "chance" if space in CHANCE else "community_chest"
    assert g.pending == pending(card={"player": pid, "deck": deck})


def card_text(deck: str, card: str) -> str:
    return next(c["text"] for c in REFERENCE["cards"][deck] if c["id"] == card)


@pytest.mark.parametrize("deck,card", ALL_CARDS)
def test_draw_the_top_matching_card_and_do_what_it_says(deck, card):
    """ "On Chance or Community Chest, draw the top matching card, do what it says and return it to
    the bottom after resolving it." -- every one of the 32 cards (30 texts) is drawn and read."""
    g = started()
    on_card(g, "p1", 7 if deck == "chance" else 2)
    g.draw(deck, card)
    name = "Chance" if deck == "chance" else "Community Chest"
    assert g.texts()[0] == f"Ann drew {name}: {card_text(deck, card)}"
    assert g.pending["card"] is None  # read and resolved: back to the bottom of its pile


def test_the_drawn_card_is_announced_exactly():
    """ "draw the top matching card, do what it says" -- the event names the drawer and the card."""
    g = started()
    on_card(g, "p1", 7)
    g.draw("chance", "speeding-fine-15")
    assert g.texts() == ["Ann drew Chance: SPEEDING FINE. PAY $15.", "Ann paid the Bank 15 (card)."]
    assert g.cashes() == {"p1": 1485, "p2": 1500, "p3": 1500}
    assert g.pending == NO_PENDING


@pytest.mark.parametrize(
    "deck,card,change",
    [
        ("chance", "bank-dividend-50", 50),
        ("chance", "building-loan-matures-150", 150),
        ("chance", "speeding-fine-15", -15),
        ("community_chest", "collect-200-storm-cleanup", 200),
        ("community_chest", "collect-50-walking-path", 50),
        ("community_chest", "collect-100-school-playground", 100),
        ("community_chest", "collect-20-groceries", 20),
        ("community_chest", "collect-100-elderly-neighbor", 100),
        ("community_chest", "collect-25-bake-sale", 25),
        ("community_chest", "collect-10-blood-drive", 10),
        ("community_chest", "collect-100-childrens-hospital", 100),
        ("community_chest", "pay-50-bake-sale-cookies", -50),
        ("community_chest", "pay-100-car-wash", -100),
        ("community_chest", "pay-50-animal-shelter", -50),
    ],
)
def test_a_card_that_collects_or_pays_moves_exactly_its_amount(deck, card, change):
    """ "do what it says" -- collect from or pay the Bank the printed amount."""
    g = started()
    on_card(g, "p1", 7 if deck == "chance" else 17)
    g.draw(deck, card)
    assert g.cashes() == {"p1": 1500 + change, "p2": 1500, "p3": 1500}
    assert g.position("p1") == (7 if deck == "chance" else 17)
    assert g.pending == NO_PENDING


def test_a_card_payment_you_cannot_make_becomes_a_debt_to_the_bank():
    """ "If you owe rent, a tax, a card payment or a Jail fee and lack cash, raise money" """
    g = started()
    g.set_cash(p1=60)
    on_card(g, "p1", 17)
    g.draw("community_chest", "pay-100-car-wash")
    assert g.pending == pending(
        debt={"debtor": "p1", "creditor": None, "amount": 100, "reason": "card", "can_raise": 0}
    )
    assert g.cashes()["p1"] == 60


# --- movement cards ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "deck,card,start,target,cash",
    [
        ("chance", "advance-to-go", 7, 0, 1700),
        ("chance", "advance-to-go", 22, 0, 1700),
        ("chance", "advance-to-go", 36, 0, 1700),
        ("community_chest", "advance-to-go", 17, 0, 1700),
        ("chance", "advance-to-boardwalk", 7, 39, 1500),
        ("chance", "advance-to-boardwalk", 36, 39, 1500),
        ("chance", "advance-to-illinois-avenue", 7, 24, 1500),
        ("chance", "advance-to-illinois-avenue", 22, 24, 1500),
        ("chance", "advance-to-illinois-avenue", 36, 24, 1700),
        ("chance", "advance-to-st-charles-place", 7, 11, 1500),
        ("chance", "advance-to-st-charles-place", 22, 11, 1700),
        ("chance", "advance-to-st-charles-place", 36, 11, 1700),
        ("chance", "trip-to-reading-railroad", 7, 5, 1700),
        ("chance", "trip-to-reading-railroad", 22, 5, 1700),
        ("chance", "trip-to-reading-railroad", 36, 5, 1700),
    ],
)
def test_advance_to_a_space_and_if_you_pass_go_collect_200(deck, card, start, target, cash):
    """ "ADVANCE TO ILLINOIS AVENUE. IF YOU PASS GO, COLLECT $200." and the other "advance to"
    cards: forward to the space, 200 once when passing or landing on GO, then resolve it."""
    g = started()
    on_card(g, "p1", start)
    g.draw(deck, card)
    assert g.position("p1") == target
    assert g.cashes()["p1"] == cash
    assert [e["type"] for e in g.events].count("passed_go") == (1 if cash == 1700 else 0)
    if target == 0:
        assert g.pending == NO_PENDING
    else:
        deed = {
            39: "boardwalk",
            24: "illinois-avenue",
            11: "st-charles-place",
            5: "reading-railroad",
        }[target]
        assert g.pending["offer"]["property"] == deed


def test_advance_to_go_collect_200_once():
    """ "ADVANCE TO GO. COLLECT $200." -- and landing on GO does not pay a second time."""
    g = started()
    on_card(g, "p1", 22)
    g.draw("chance", "advance-to-go")
    assert g.texts() == [
        "Ann drew Chance: ADVANCE TO GO. COLLECT $200.",
        "Ann landed on GO and collected 200.",
    ]
    assert g.cashes()["p1"] == 1700


def test_advancing_onto_an_owned_street_opens_its_normal_rent():
    """ "ADVANCE TO ILLINOIS AVENUE." -- an owned street charges its usual rent (here the set)."""
    g = started()
    g.own("p2", "kentucky-avenue", "indiana-avenue", "illinois-avenue")
    on_card(g, "p1", 7)
    g.draw("chance", "advance-to-illinois-avenue")
    assert g.claims == [
        {"id": "c1", "owner": "p2", "payer": "p1", "property": "illinois-avenue", "amount": 40}
    ]


@pytest.mark.parametrize(
    "start,target,deed,cash",
    [
        (7, 15, "pennsylvania-railroad", 1500),
        (22, 25, "b-and-o-railroad", 1500),
        (36, 5, "reading-railroad", 1700),
    ],
)
def test_advance_to_the_next_railroad_and_if_unowned_you_may_buy_it(start, target, deed, cash):
    """ "ADVANCE TO THE NEXT RAILROAD. If UNOWNED, you may buy it from the Bank. ... IF YOU PASS GO,
    COLLECT $200." """
    g = started()
    on_card(g, "p1", start)
    g.draw("chance", "advance-to-next-railroad")
    assert g.position("p1") == target
    assert g.cashes()["p1"] == cash
    assert g.pending == pending(offer={"player": "p1", "property": deed, "price": 200})


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("owned,amount", [(1, 50), (2, 100), (4, 400)])
def test_if_the_next_railroad_is_owned_pay_the_owner_twice_the_rent(edition, owned, amount):
    """ "If OWNED, pay the owner twice the rent to which they are otherwise entitled." -- "Follow a
    movement card's specific rent instructions instead when it changes the calculation." """
    g = started(edition)
    railroads = ["b-and-o-railroad", "reading-railroad", "pennsylvania-railroad", "short-line"]
    g.own("p2", *railroads[:owned])
    on_card(g, "p1", 22)
    g.draw("chance", "advance-to-next-railroad")
    assert g.claims == [
        {"id": "c1", "owner": "p2", "payer": "p1", "property": "b-and-o-railroad", "amount": amount}
    ]
    g.claim()
    assert g.cashes() == {"p1": 1500 - amount, "p2": 1500 + amount, "p3": 1500}


def test_the_next_railroad_card_asks_no_rent_on_a_mortgaged_or_own_railroad():
    """ "No rent is collected on a mortgaged property." -- twice nothing is nothing."""
    g = started()
    g.own("p2", "b-and-o-railroad", mortgaged=True)
    on_card(g, "p1", 22)
    g.draw("chance", "advance-to-next-railroad")
    assert g.pending == NO_PENDING
    g2 = started()
    g2.own("p1", "b-and-o-railroad")
    on_card(g2, "p1", 22)
    g2.draw("chance", "advance-to-next-railroad")
    assert g2.pending == NO_PENDING


@pytest.mark.parametrize(
    "start,target,deed,cash",
    [
        (7, 12, "electric-company", 1500),
        (22, 28, "water-works", 1500),
        (36, 12, "electric-company", 1700),
    ],
)
def test_advance_to_the_nearest_utility_and_if_unowned_you_may_buy_it(start, target, deed, cash):
    """ "ADVANCE TO THE NEAREST UTILITY. If UNOWNED, you may buy it from the Bank. ... IF YOU PASS
    GO, COLLECT $200." """
    g = started()
    on_card(g, "p1", start)
    g.draw("chance", "advance-to-nearest-utility")
    assert g.position("p1") == target
    assert g.cashes()["p1"] == cash
    assert g.pending == pending(offer={"player": "p1", "property": deed, "price": 150})


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("both", [False, True])
def test_if_the_nearest_utility_is_owned_roll_the_dice_and_pay_the_owner_10_times_your_roll(
    edition, both
):
    """ "If OWNED, roll the dice, and pay the owner 10 times your roll." -- even when the owner has
    one utility, and in the classic edition too (the card says to roll)."""
    g = started(edition)
    g.own("p2", "water-works", *(["electric-company"] if both else []))
    on_card(g, "p1", 22)
    g.draw("chance", "advance-to-nearest-utility")
    assert g.pending == pending(
        dice={"player": "p1", "reason": "utility_rent", "multiplier": 10, "property": "water-works"}
    )
    g.do(type="rent_roll", dice=[3, 4])
    assert g.texts()[0] == "Ann rolled 3 and 4 for the rent on Water Works: 10 x 7 = 70."
    assert g.claims == [
        {"id": "c1", "owner": "p2", "payer": "p1", "property": "water-works", "amount": 70}
    ]


def test_go_back_three_spaces_from_chance_7_lands_on_income_tax():
    """ "GO BACK THREE SPACES." -- from the first Chance onto Income Tax, which is paid."""
    g = started()
    on_card(g, "p1", 7)
    g.draw("chance", "go-back-three-spaces")
    assert g.position("p1") == 4
    assert g.texts()[1:] == ["Ann landed on Income Tax.", "Ann paid the Bank 200 (Income Tax)."]
    assert g.cashes()["p1"] == 1300
    assert g.pending == NO_PENDING


def test_go_back_three_spaces_from_chance_22_lands_on_new_york_avenue():
    """ "GO BACK THREE SPACES." -- the landing is resolved: an unowned street is offered."""
    g = started()
    on_card(g, "p1", 22)
    g.draw("chance", "go-back-three-spaces")
    assert g.position("p1") == 19
    assert g.pending == pending(offer={"player": "p1", "property": "new-york-avenue", "price": 200})


def test_go_back_three_spaces_from_chance_36_lands_on_community_chest_and_a_new_card_is_pending():
    """ "GO BACK THREE SPACES." -- from the last Chance onto Community Chest 33: draw again."""
    g = started()
    on_card(g, "p1", 36)
    g.draw("chance", "go-back-three-spaces")
    assert g.position("p1") == 33
    assert g.pending == pending(card={"player": "p1", "deck": "community_chest"})
    g.refused(DomainError, type="draw_card", deck="chance", card="bank-dividend-50")
    g.draw("community_chest", "collect-200-storm-cleanup")
    assert g.cashes()["p1"] == 1700
    assert g.pending == NO_PENDING


def test_going_back_three_spaces_onto_an_owned_street_opens_its_rent():
    """ "GO BACK THREE SPACES." then "On someone else's unmortgaged property, pay rent" """
    g = started()
    g.own("p3", "new-york-avenue")
    on_card(g, "p1", 22)
    g.draw("chance", "go-back-three-spaces")
    assert g.claims == [
        {"id": "c1", "owner": "p3", "payer": "p1", "property": "new-york-avenue", "amount": 16}
    ]


@pytest.mark.parametrize("deck,space", [("chance", 36), ("community_chest", 33), ("chance", 7)])
def test_a_go_to_jail_card_sends_you_to_jail_without_200_for_passing_go(deck, space):
    """ "GO TO JAIL. GO DIRECTLY TO JAIL. DO NOT PASS GO. DO NOT COLLECT $200." -- "You go to Jail
    when you ... draw a card that sends you there" (classic); "Do not collect 200 for passing GO
    on that move." (G0009)"""
    g = started()
    on_card(g, "p1", space)
    g.draw(deck, "go-to-jail")
    p1 = g.player("p1")
    assert (p1["position"], p1["in_jail"], p1["jail_attempts"], p1["cash"]) == (10, True, 0, 1500)
    no_go = " (no 200 for passing GO)" if space > 10 else ""
    assert g.texts()[-1] == f"Ann drew Go to Jail and went to Jail{no_go}."


def test_a_go_to_jail_card_drawn_before_jail_does_not_mention_go_which_was_not_passed():
    """From Chance at 7 the way on to Jail never crosses GO: "(no 200 for passing GO)" would
    answer a question nobody asked."""
    g = started()
    on_card(g, "p1", 7)
    g.draw("chance", "go-to-jail")
    assert g.texts() == [
        "Ann drew Chance: GO TO JAIL. GO DIRECTLY TO JAIL. DO NOT PASS GO. DO NOT COLLECT $200.",
        "Ann drew Go to Jail and went to Jail.",
    ]


def test_a_go_to_jail_card_ends_the_turn_even_after_doubles():
    """ "Any instruction sending you to Jail ends your turn, even if you had rolled doubles." """
    g = started()
    on_card(g, "p1", 7, doubles=True)
    assert g.whose_turn == "p1"
    g.draw("chance", "go-to-jail")
    assert g.turn == {"player": "p2", "doubles": 0, "first": "p1", "roller": "Bob"}
    g.refused(DomainError, type="roll", player="p1", dice=[1, 2])


# --- repairs ----------------------------------------------------------------------------------


def with_buildings(g: CoreGame) -> None:
    """Ann: light blues with 2 houses each, Park Place and Boardwalk with a hotel; Bob has houses
    too (they are not Ann's to repair)."""
    g.own("p1", "oriental-avenue", "vermont-avenue", "connecticut-avenue", houses=2)
    g.own("p1", "park-place", "boardwalk", hotel=True)
    g.own("p2", "st-james-place", "tennessee-avenue", "new-york-avenue", houses=4)


@pytest.mark.parametrize(
    "deck,card,space,amount",
    [
        ("chance", "general-repairs", 7, 6 * 25 + 2 * 100),
        ("community_chest", "street-repairs", 17, 6 * 40 + 2 * 115),
    ],
)
def test_repairs_pay_per_house_and_per_hotel(deck, card, space, amount):
    """ "MAKE GENERAL REPAIRS ON ALL YOUR PROPERTY: FOR EACH HOUSE, PAY $25. FOR EACH HOTEL, PAY
    $100." and "FOR EACH HOUSE YOU OWN, PAY $40. FOR EACH HOTEL YOU OWN, PAY $115." """
    g = started()
    with_buildings(g)
    on_card(g, "p1", space)
    g.draw(deck, card)
    assert g.texts()[1] == f"Ann paid the Bank {amount} (repairs: 6 houses, 2 hotels)."
    assert g.cashes() == {"p1": 1500 - amount, "p2": 1500, "p3": 1500}
    assert g.pending == NO_PENDING


def test_repairs_with_no_buildings_cost_nothing():
    """ "FOR EACH HOUSE, PAY $25. FOR EACH HOTEL, PAY $100." -- none, nothing."""
    g = started()
    g.own("p1", "vermont-avenue")
    on_card(g, "p1", 7)
    g.draw("chance", "general-repairs")
    assert g.texts()[1] == "Ann has no buildings: the repairs cost nothing."
    assert g.cashes()["p1"] == 1500


def test_repairs_you_cannot_pay_become_a_debt_to_the_bank():
    """ "If you owe ... a card payment ... and lack cash, raise money by selling buildings back and
    mortgaging properties." """
    g = started()
    with_buildings(g)
    g.set_cash(p1=100)
    on_card(g, "p1", 7)
    g.draw("chance", "general-repairs")
    # can_raise: light blue houses 3 x 50, hotels 2 x 500, mortgages 50 + 50 + 60 + 175 + 200
    assert g.pending == pending(
        debt={"debtor": "p1", "creditor": None, "amount": 350, "reason": "card", "can_raise": 1685}
    )


# --- paying and collecting from each player ---------------------------------------------------


def four_players(drawer: str = "p2") -> CoreGame:
    return started(names=("Ann", "Bob", "Cat", "Dan"), first=drawer)


def test_pay_each_player_50_goes_round_the_table_from_the_drawers_left():
    """ "YOU HAVE BEEN ELECTED CHAIRPERSON OF THE BOARD. PAY EACH PLAYER $50." -- API: "they are
    made one at a time in seating order" from the drawer's left."""
    g = four_players("p2")
    on_card(g, "p2", 7)
    g.draw("chance", "chairperson-pay-each-player-50")
    assert g.texts()[1:] == [
        "Bob paid Cat 50 (card).",
        "Bob paid Dan 50 (card).",
        "Bob paid Ann 50 (card).",
    ]
    assert g.cashes() == {"p1": 1550, "p2": 1350, "p3": 1550, "p4": 1550}
    assert g.pending == NO_PENDING


def test_the_first_payment_to_each_player_that_cannot_be_made_is_the_debt_and_the_rest_wait():
    """API: "the first that cannot be paid becomes the pending debt; the rest follow once it is
    settled." and "Payments still to make after a pending debt wait in `pending.payments`." """
    g = four_players("p2")
    g.own("p2", "reading-railroad")
    g.set_cash(p2=60)
    on_card(g, "p2", 7)
    g.draw("chance", "chairperson-pay-each-player-50")
    assert g.cashes() == {"p1": 1500, "p2": 10, "p3": 1550, "p4": 1500}
    assert g.pending == pending(
        debt={"debtor": "p2", "creditor": "p4", "amount": 50, "reason": "card", "can_raise": 100},
        payments=[{"from": "p2", "to": "p1", "amount": 50, "reason": "card"}],
    )
    g.refused(DomainError, type="roll", player="p3", dice=[1, 2])
    g.refused(DomainError, type="pay_debt")
    g.do(type="mortgage", property="reading-railroad")
    g.do(type="pay_debt")
    assert g.cashes() == {"p1": 1550, "p2": 10, "p3": 1550, "p4": 1550}
    assert g.pending == NO_PENDING
    g.roll("p3", 1, 2)


def test_pay_each_player_skips_players_out_of_the_game():
    """ "eliminated players stop playing." -- they are paid nothing."""
    g = four_players("p2")
    g.setup(lambda s: s["players"][3].update(eliminated=True))
    on_card(g, "p2", 7)
    g.draw("chance", "chairperson-pay-each-player-50")
    assert g.cashes() == {"p1": 1550, "p2": 1400, "p3": 1550, "p4": 1500}


def test_collect_10_from_each_player_one_at_a_time_from_the_drawers_left():
    """ "You organize a block party so people on your street can get to know each other. COLLECT
    $10 FROM EACH PLAYER." -- API: "one at a time in seating order" from the drawer's left."""
    g = four_players("p2")
    on_card(g, "p2", 17)
    g.draw("community_chest", "collect-10-from-each-player")
    assert g.texts()[1:] == [
        "Cat paid Bob 10 (card).",
        "Dan paid Bob 10 (card).",
        "Ann paid Bob 10 (card).",
    ]
    assert g.cashes() == {"p1": 1490, "p2": 1530, "p3": 1490, "p4": 1490}


def test_a_player_who_cannot_pay_the_drawer_10_owes_it_and_the_others_wait_their_turn():
    """API: "the first that cannot be paid becomes the pending debt; the rest follow once it is
    settled." """
    g = four_players("p2")
    g.set_cash(p3=5)
    on_card(g, "p2", 17)
    g.draw("community_chest", "collect-10-from-each-player")
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 5, "p4": 1500}
    assert g.pending == pending(
        debt={"debtor": "p3", "creditor": "p2", "amount": 10, "reason": "card", "can_raise": 0},
        payments=[
            {"from": "p4", "to": "p2", "amount": 10, "reason": "card"},
            {"from": "p1", "to": "p2", "amount": 10, "reason": "card"},
        ],
    )
    g.do(type="adjust", player="p3", amount=20, reason="Cat was short-changed at the start")
    g.do(type="pay_debt")
    assert g.texts() == [
        "Cat paid Bob 10 (debt settled).",
        "Dan paid Bob 10 (card).",
        "Ann paid Bob 10 (card).",
    ]
    assert g.cashes() == {"p1": 1490, "p2": 1530, "p3": 15, "p4": 1490}
    assert g.pending == NO_PENDING


# --- Get Out of Jail Free ---------------------------------------------------------------------


@pytest.mark.parametrize("deck,space", [("chance", 7), ("community_chest", 2)])
def test_keep_a_get_out_of_jail_free_card_until_used_or_traded(deck, space):
    """ "Keep a Get Out of Jail Free card until used or traded" (G0009); "A Get Out of Jail Free
    card is the one card you may keep until you use it or sell it." (classic)"""
    g = started()
    on_card(g, "p1", space)
    g.draw(deck, "get-out-of-jail-free")
    name = "Chance" if deck == "chance" else "Community Chest"
    assert g.texts()[1] == (
        f"Ann keeps the {name} Get Out of Jail Free card until it is used or traded."
    )
    assert g.player("p1")["jail_cards"] == [deck]
    assert g.pending == NO_PENDING


def test_a_deck_whose_get_out_of_jail_free_card_is_held_cannot_produce_it():
    """ "Keep a Get Out of Jail Free card until used or traded" -- meanwhile it is not in the
    pile."""
    g = started()
    on_card(g, "p1", 7)
    g.draw("chance", "get-out-of-jail-free")
    on_card(g, "p2", 22)
    err = g.refused(DomainError, type="draw_card", deck="chance", card="get-out-of-jail-free")
    assert err.code == "card_held"
    g.draw("chance", "bank-dividend-50")
    on_card(g, "p3", 17)
    g.draw("community_chest", "get-out-of-jail-free")  # the other deck's card is its own
    assert [p["jail_cards"] for p in g.state["players"]] == [["chance"], [], ["community_chest"]]


def test_you_may_buy_that_card_from_another_player_and_use_it():
    """ "You may buy that card from another player." (G0009); "Players may buy, sell, or swap ...
    Get Out of Jail Free cards" (classic)"""
    g = started()
    on_card(g, "p1", 7)
    g.draw("chance", "get-out-of-jail-free")
    g.do(
        type="trade",
        **{"from": "p1", "to": "p2"},
        give={"jail_cards": ["chance"]},
        receive={"cash": 30},
    )
    assert [p["jail_cards"] for p in g.state["players"]] == [[], ["chance"], []]
    assert g.cashes() == {"p1": 1530, "p2": 1470, "p3": 1500}
    on_card(g, "p2", 22)
    g.refused(DomainError, type="draw_card", deck="chance", card="get-out-of-jail-free")
    g.draw("chance", "go-to-jail")
    for pid in ("p3", "p1"):
        g.place(pid, 15)
        g.roll(pid, 1, 4)
    g.do(type="use_jail_card", player="p2", deck="chance")
    assert g.player("p2")["in_jail"] is False
    assert g.player("p2")["jail_cards"] == []


def test_when_used_return_it_to_its_original_decks_bottom():
    """ "when used, return it to its original deck's bottom." -- that deck can produce it again."""
    g = started(names=("Ann", "Bob"))
    on_card(g, "p1", 17)
    g.draw("community_chest", "get-out-of-jail-free")
    g.place("p2", 15)
    g.roll("p2", 1, 4)
    g.place("p1", 25)
    g.roll("p1", 2, 3)  # Go to Jail
    g.place("p2", 15)
    g.roll("p2", 1, 4)
    g.do(type="use_jail_card", player="p1", deck="community_chest")
    assert g.texts() == [
        "Ann used the Community Chest Get Out of Jail Free card (back to the "
        "bottom of its deck) and left Jail."
    ]
    on_card(g, "p1", 17)
    g.draw("community_chest", "get-out-of-jail-free")
    assert g.player("p1")["jail_cards"] == ["community_chest"]


# --- drawing refusals -------------------------------------------------------------------------


def test_draw_from_the_pile_the_token_landed_on():
    """ "On Chance or Community Chest, draw the top matching card" -- the matching pile only."""
    g = started()
    g.refused(DomainError, type="draw_card", deck="chance", card="bank-dividend-50")
    on_card(g, "p1", 7)
    err = g.refused(
        DomainError, type="draw_card", deck="community_chest", card="collect-20-groceries"
    )
    assert err.code == "wrong_deck"
    g.refused(BadCommand, type="draw_card", deck="chance", card="collect-20-groceries")
    g.refused(BadCommand, type="draw_card", deck="chance", card="ADVANCE-TO-GO")
    g.refused(BadCommand, type="draw_card", deck="chance", card=None)
    g.refused(BadCommand, type="draw_card", deck="chance")
    g.refused(BadCommand, type="draw_card", card="advance-to-go")
    g.refused(BadCommand, type="draw_card", deck=["chance"], card="advance-to-go")


def test_a_player_bankrupt_over_the_birthday_money_pays_what_they_have_and_the_rest_still_pay():
    """ "Against another player, pass the available payment proceeds ... to that creditor." -- then
    the card's other payments follow in seating order."""
    g = four_players("p2")
    g.set_cash(p3=5)
    on_card(g, "p2", 17)
    g.draw("community_chest", "collect-10-from-each-player")
    g.do(type="bankrupt", player="p3")
    assert g.player("p3")["eliminated"] is True
    assert g.cashes() == {"p1": 1490, "p2": 1525, "p3": 0, "p4": 1490}
    assert g.pending == NO_PENDING
    assert g.whose_turn == "p4"  # Bob's roll passed the turn to Cat, who is out


def test_a_drawer_bankrupt_over_the_chairperson_card_pays_no_one_after_the_creditor():
    """ "If those assets still cannot cover the debt, you are bankrupt and eliminated." -- the
    payments still waiting for the eliminated drawer are dropped."""
    g = four_players("p2")
    g.set_cash(p2=60)
    on_card(g, "p2", 7)
    g.draw("chance", "chairperson-pay-each-player-50")
    g.do(type="bankrupt", player="p2")
    assert g.cashes() == {"p1": 1500, "p2": 0, "p3": 1550, "p4": 1510}
    assert g.pending == NO_PENDING
    assert g.whose_turn == "p3"
