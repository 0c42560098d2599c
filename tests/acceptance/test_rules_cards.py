"""Acceptance: docs/api.md, What the rules settle: cards (moves, money, payments round the table).

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

import pytest

from tests.game import Game

from .contract import (
    BOARD_ORDER,
    CARD,
    CLAIM,
    DEEDS,
    DICE,
    INDEX,
    OFFER,
    PAYMENT,
    debt,
    pick,
)


def test_nearest_utility_card_asks_a_fresh_roll_times_ten(http):
    g = Game(http)
    g.start()
    g.land("p1", 28)
    g.do(type="buy")
    g.land("p2", 22)
    s = g.do(type="draw_card", deck="chance", card="advance-to-nearest-utility")["state"]
    assert s["players"][1]["position"] == 28 and s["players"][1]["cash"] == 1500
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 10,
    }
    s = g.do(type="rent_roll", dice=[2, 3])["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [50]


def test_next_railroad_card_double_rent_and_passing_go(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.land("p1", 15)
    g.do(type="buy")
    g.land("p2", 7)
    s = g.do(type="draw_card", deck="chance", card="advance-to-next-railroad")["state"]
    assert s["players"][1]["position"] == 15
    (claim,) = s["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2",
                                  "property": "pennsylvania-railroad", "amount": 50}  # fmt: skip
    g.do(type="claim_rent", claim=claim["id"])
    assert g.cashes() == {"p1": 1300 + 50, "p2": 1450, "p3": 1500}
    g.land("p3", 36)
    s = g.do(type="draw_card", deck="chance", card="advance-to-next-railroad")["state"]
    assert s["players"][2]["position"] == 5 and s["players"][2]["cash"] == 1700
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p3",
        "property": "reading-railroad",
        "price": 200,
    }


def test_go_back_three_spaces(http):
    g = Game(http)
    g.start()
    g.land("p1", 7)
    s = g.do(type="draw_card", deck="chance", card="go-back-three-spaces")["state"]
    assert s["players"][0]["position"] == 4 and s["players"][0]["cash"] == 1300  # Income Tax
    g.land("p2", 22)
    s = g.do(type="draw_card", deck="chance", card="go-back-three-spaces")["state"]
    assert s["players"][1]["position"] == 19
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p2",
        "property": "new-york-avenue",
        "price": 200,
    }


def test_pay_each_player_round_the_table_and_pending_payments(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"))
    g.start("p3")
    g.adjust_to("p3", 70)
    g.land("p3", 7)
    s = g.do(type="draw_card", deck="chance", card="chairperson-pay-each-player-50")["state"]
    # Cat's left: Dan, then Ann, then Bob
    assert [p["cash"] for p in s["players"]] == [1500, 1500, 20, 1550]
    assert debt(s) == {"debtor": "p3", "creditor": "p1", "amount": 50, "can_raise": 0}
    assert [pick(p, PAYMENT) for p in s["pending"]["payments"]] == [
        {"from": "p3", "to": "p2", "amount": 50}
    ]
    assert all("reason" in p for p in s["pending"]["payments"])
    g.adjust("p3", 200, "miscounted change")
    s = g.do(type="pay_debt")["state"]
    assert s["pending"]["debt"] is None and s["pending"]["payments"] == []
    assert [p["cash"] for p in s["players"]] == [1550, 1550, 120, 1550]


def test_pay_each_player_all_paid_at_once(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.land("p1", 7)
    s = g.do(type="draw_card", deck="chance", card="chairperson-pay-each-player-50")["state"]
    assert [p["cash"] for p in s["players"]] == [1400, 1550, 1550]
    assert s["pending"]["debt"] is None and s["pending"]["payments"] == []


def test_collect_from_each_player(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"))
    g.start()
    g.adjust_to("p2", 5)
    g.land("p1", 17)
    s = g.do(type="draw_card", deck="community_chest", card="collect-10-from-each-player")["state"]
    assert [p["cash"] for p in s["players"]] == [1500, 5, 1500, 1500]
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 10, "can_raise": 0}
    assert [pick(p, PAYMENT) for p in s["pending"]["payments"]] == [
        {"from": "p3", "to": "p1", "amount": 10},
        {"from": "p4", "to": "p1", "amount": 10},
    ]
    g.refused(422, {"type": "roll", "player": "p2", "dice": [1, 2]})  # debt pending
    g.adjust("p2", 20)
    s = g.do(type="pay_debt")["state"]
    assert [p["cash"] for p in s["players"]] == [1530, 15, 1490, 1490]
    assert s["pending"]["debt"] is None and s["pending"]["payments"] == []


@pytest.mark.parametrize(
    "start, deck, card, position, cash",
    [
        (36, "chance", "advance-to-illinois-avenue", 24, 1700),
        (7, "chance", "advance-to-illinois-avenue", 24, 1500),
        (22, "chance", "advance-to-st-charles-place", 11, 1700),
        (7, "chance", "advance-to-st-charles-place", 11, 1500),
        (36, "chance", "advance-to-boardwalk", 39, 1500),
        (7, "chance", "trip-to-reading-railroad", 5, 1700),
        (36, "chance", "advance-to-nearest-utility", 12, 1700),
        (22, "chance", "advance-to-nearest-utility", 28, 1500),
        (22, "chance", "advance-to-next-railroad", 25, 1500),
        (7, "chance", "bank-dividend-50", 7, 1550),
        (7, "chance", "speeding-fine-15", 7, 1485),
        (7, "chance", "building-loan-matures-150", 7, 1650),
        (33, "community_chest", "collect-200-storm-cleanup", 33, 1700),
        (33, "community_chest", "pay-100-car-wash", 33, 1400),
        (33, "community_chest", "pay-50-animal-shelter", 33, 1450),
        (33, "community_chest", "collect-25-bake-sale", 33, 1525),
        (33, "community_chest", "advance-to-go", 0, 1700),
    ],
)
def test_card_moves_and_money(http, start, deck, card, position, cash):
    g = Game(http)
    g.start()
    g.land("p1", start)
    s = g.do(type="draw_card", deck=deck, card=card)["state"]
    p = s["players"][0]
    assert (p["position"], p["cash"], p["in_jail"]) == (position, cash, False)
    if position in INDEX.values():
        prop = BOARD_ORDER[list(INDEX.values()).index(position)]
        assert pick(s["pending"]["offer"], OFFER) == {
            "player": "p1",
            "property": prop,
            "price": DEEDS[prop]["price"],
        }
    else:
        assert s["pending"]["offer"] is None


def test_go_to_jail_card_pays_no_go(http):
    g = Game(http)
    g.start()
    g.land("p1", 36)
    s = g.do(type="draw_card", deck="chance", card="go-to-jail")["state"]
    p = s["players"][0]
    assert (p["position"], p["cash"], p["in_jail"]) == (10, 1500, True)


def test_repairs_cards_count_houses_and_hotels(http):
    g = Game(http)
    g.start()
    g.deeds_by_rolls(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    for _ in range(4):
        g.do(type="build", property="mediterranean-avenue")
        g.do(type="build", property="baltic-avenue")
    g.do(type="build", property="mediterranean-avenue")  # hotel, Baltic 4 houses
    g.pass_to("p1")
    cash = g.cash("p1")
    g.land("p1", 7)
    s = g.do(type="draw_card", deck="chance", card="general-repairs")["state"]
    assert s["players"][0]["cash"] == cash - (4 * 25 + 100)
    g.pass_to("p1")
    g.land("p1", 17)
    s = g.do(type="draw_card", deck="community_chest", card="street-repairs")["state"]
    assert s["players"][0]["cash"] == cash - (4 * 25 + 100) - (4 * 40 + 115)


def test_nearest_utility_card_classic_asks_a_fresh_roll_times_ten(http):
    g = Game(http, edition="classic")
    g.start()
    g.land("p1", 12)
    g.do(type="buy")
    g.land("p2", 7)
    s = g.do(type="draw_card", deck="chance", card="advance-to-nearest-utility")["state"]
    assert s["players"][1]["position"] == 12
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 10,
    }
    s = g.do(type="rent_roll", dice=[1, 1])["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [20]


def test_cards_onto_mortgaged_or_own_deeds_ask_no_rent(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("electric-company", "p1"), ("pennsylvania-railroad", "p1"))
    g.do(type="mortgage", property="electric-company")
    g.pass_to("p2")
    g.land("p2", 7)
    s = g.do(type="draw_card", deck="chance", card="advance-to-nearest-utility")["state"]
    assert s["players"][1]["position"] == 12
    assert s["pending"]["dice"] is None and s["pending"]["rent_claims"] == []
    g.pass_to("p1")
    g.land("p1", 7)
    s = g.do(type="draw_card", deck="chance", card="advance-to-next-railroad")["state"]
    assert s["players"][0]["position"] == 15
    assert s["pending"]["rent_claims"] == [] and s["pending"]["offer"] is None


def test_next_railroad_card_doubles_the_owners_count_rent(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("reading-railroad", "p1"), ("b-and-o-railroad", "p1"), ("short-line", "p1"))
    g.pass_to("p2")
    g.land("p2", 22)
    s = g.do(type="draw_card", deck="chance", card="advance-to-next-railroad")["state"]
    assert s["players"][1]["position"] == 25
    assert [pick(c, CLAIM) for c in s["pending"]["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "b-and-o-railroad", "amount": 200}
    ]


def test_card_to_an_owned_street_asks_its_rent(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("park-place", "p1"), ("boardwalk", "p1"))
    g.pass_to("p2")
    g.land("p2", 36)
    s = g.do(type="draw_card", deck="chance", card="advance-to-boardwalk")["state"]
    assert [pick(c, CLAIM) for c in s["pending"]["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "boardwalk", "amount": 100}
    ]


def test_go_back_three_onto_community_chest_opens_another_card(http):
    g = Game(http)
    g.start()
    g.land("p1", 36)
    s = g.do(type="draw_card", deck="chance", card="go-back-three-spaces")["state"]
    assert s["players"][0]["position"] == 33
    assert pick(s["pending"]["card"], CARD) == {"player": "p1", "deck": "community_chest"}
    s = g.do(type="draw_card", deck="community_chest", card="collect-20-groceries")["state"]
    assert s["players"][0]["cash"] == 1520 and s["pending"]["card"] is None


def test_draw_card_without_a_card_pending_is_refused(http):
    g = Game(http)
    g.start()
    g.refused(422, {"type": "draw_card", "deck": "chance", "card": "advance-to-go"})
    g.refused(422, {"type": "rent_roll", "dice": [1, 2]})
    g.refused(422, {"type": "bid", "player": "p1", "amount": 10})
