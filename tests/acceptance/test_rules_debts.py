"""Acceptance: docs/api.md, What the rules settle: debts and bankruptcy.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

import pytest

from tests.game import Game

from .contract import (
    AUCTION,
    CLAIM,
    debt,
    pick,
)


def test_debt_can_raise_mortgage_then_pay(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("vermont-avenue", "p2"))
    g.pass_to("p2")
    g.adjust_to("p2", 150)
    s = g.land("p2", 4)["state"]  # Income Tax 200: 150 cash + 50 mortgage can cover it
    assert debt(s) == {"debtor": "p2", "creditor": None, "amount": 200, "can_raise": 50}
    assert s["players"][1]["cash"] == 150
    g.refused(422, {"type": "pay_debt"})
    g.refused(422, {"type": "bankrupt", "player": "p2"})  # it can be raised
    g.refused(422, {"type": "roll", "player": "p3", "dice": [4, 6]})
    g.do(type="mortgage", property="vermont-avenue")
    assert g.cash("p2") == 200
    s = g.do(type="pay_debt")["state"]
    assert s["pending"]["debt"] is None and s["players"][1]["cash"] == 0


def test_tax_debt_that_cannot_be_raised_bankrupt_to_the_bank(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("b-and-o-railroad", "p2"), ("vermont-avenue", "p2"), ("states-avenue", "p2"))
    g.pass_to("p2")
    g.do(type="mortgage", property="states-avenue")
    g.adjust_to("p2", 10)
    s = g.land("p2", 4)["state"]  # 10 + 50 + 100 < 200
    assert debt(s) == {"debtor": "p2", "creditor": None, "amount": 200, "can_raise": 150}
    others = {p: c for p, c in g.cashes().items() if p != "p2"}
    s = g.do(type="bankrupt", player="p2")["state"]
    bob = s["players"][1]
    assert bob["eliminated"] and bob["cash"] == 0 and bob["jail_cards"] == []
    for prop in ("b-and-o-railroad", "vermont-avenue", "states-avenue"):
        assert pick(s["properties"][prop], ("owner", "mortgaged")) == {
            "owner": None,
            "mortgaged": False,
        }
    assert s["pending"]["debt"] is None
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    assert s["pending"]["auction_queue"] == ["states-avenue", "b-and-o-railroad"]
    assert {p: c for p, c in g.cashes().items() if p != "p2"} == others
    g.refused((400, 422), {"type": "bid", "player": "p2", "amount": 10})  # eliminated
    g.do(type="bid", player="p1", amount=10)
    s = g.do(type="close_auction")["state"]
    assert s["properties"]["vermont-avenue"]["owner"] == "p1"
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "states-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    assert s["pending"]["auction_queue"] == ["b-and-o-railroad"]
    s = g.do(type="close_auction")["state"]
    assert s["pending"]["auction"]["item"] == "b-and-o-railroad"
    assert s["pending"]["auction_queue"] == []
    s = g.do(type="close_auction")["state"]
    assert s["pending"]["auction"] is None
    assert s["properties"]["states-avenue"]["owner"] is None


@pytest.mark.parametrize("edition, fee", [("g0009", 0), ("classic", 10 + 9)])
def test_bankrupt_to_a_player(http, edition, fee):
    g = Game(http, ("Ann", "Bob", "Cat"), edition=edition)
    g.start()
    g.deeds_by_rolls(
        ("park-place", "p1"),
        ("boardwalk", "p1"),
        ("reading-railroad", "p2"),
        ("short-line", "p2"),
        ("tennessee-avenue", "p2"),
    )
    g.do(type="build", property="park-place")
    g.do(type="build", property="boardwalk")
    g.do(type="mortgage", property="reading-railroad")
    g.pass_to("p2")
    g.land("p2", 7)
    g.do(type="draw_card", deck="chance", card="get-out-of-jail-free")
    g.pass_to("p2")
    g.adjust_to("p2", 10)
    s = g.land("p2", 39)["state"]
    (claim,) = s["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2", "property": "boardwalk",
                                  "amount": 200}  # fmt: skip
    ann = g.cash("p1")
    s = g.do(token=g.tokens["p1"], type="claim_rent", claim=claim["id"])["state"]
    # 10 cash + Short Line 100 + Tennessee 90 = 200: enough
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 200, "can_raise": 190}
    g.refused(422, {"type": "bankrupt", "player": "p2"})
    g.do(type="mortgage", property="tennessee-avenue")
    g.adjust("p2", -90, "Bob had counted Tennessee's mortgage twice")
    s = g.state
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 200, "can_raise": 100}
    s = g.do(type="bankrupt", player="p2", unmortgage=["short-line"])["state"]
    bob, ann_now = s["players"][1], s["players"][0]
    assert bob["eliminated"] and bob["cash"] == 0 and bob["jail_cards"] == []
    assert ann_now["jail_cards"] == ["chance"]
    # core mortgages Short Line (+100): 110 passes; Ann lifts Short Line (110) at once;
    # classic: the two deeds kept mortgaged cost her 10% of their mortgage values now
    # (Reading 10, Tennessee 9).
    assert ann_now["cash"] == ann + 110 - 110 - fee
    assert s["pending"]["debt"] is None
    props = s["properties"]
    assert pick(props["short-line"], ("owner", "mortgaged")) == {"owner": "p1", "mortgaged": False}
    assert pick(props["reading-railroad"], ("owner", "mortgaged")) == {
        "owner": "p1",
        "mortgaged": True,
    }
    assert pick(props["tennessee-avenue"], ("owner", "mortgaged")) == {
        "owner": "p1",
        "mortgaged": True,
    }
    assert s["status"] == "playing"


def test_last_survivor_wins(http):
    g = Game(http)
    g.start()
    g.deeds_by_rolls(("boardwalk", "p1"))
    g.pass_to("p2")
    g.adjust_to("p2", 10)
    (claim,) = g.land("p2", 39)["state"]["pending"]["rent_claims"]
    g.do(type="claim_rent", claim=claim["id"])
    s = g.do(type="bankrupt", player="p2")["state"]
    assert s["status"] == "finished" and s["winners"] == ["p1"]
    g.refused(422, {"type": "roll", "player": "p1", "dice": [1, 2]})


def test_bankrupt_sells_buildings_and_mortgages_for_the_creditor(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(
        ("park-place", "p1"),
        ("boardwalk", "p1"),
        ("mediterranean-avenue", "p2"),
        ("baltic-avenue", "p2"),
    )
    for prop in ("park-place", "boardwalk", "mediterranean-avenue", "baltic-avenue"):
        g.do(type="build", property=prop)
    assert g.state["bank"]["houses"] == 28
    g.pass_to("p2")
    g.adjust_to("p2", 10)
    (claim,) = g.land("p2", 39)["state"]["pending"]["rent_claims"]
    ann = g.cash("p1")
    s = g.do(type="claim_rent", claim=claim["id"])["state"]
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 200, "can_raise": 25 * 2 + 60}
    s = g.do(type="bankrupt", player="p2")["state"]
    assert s["players"][0]["cash"] == ann + 10 + 50 + 60
    assert s["bank"]["houses"] == 30
    for prop in ("mediterranean-avenue", "baltic-avenue"):
        assert pick(s["properties"][prop], ("owner", "mortgaged", "houses", "hotel")) == {
            "owner": "p1",
            "mortgaged": True,
            "houses": 0,
            "hotel": False,
        }


def test_bankrupt_to_the_bank_returns_jail_cards_to_their_deck(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.pass_to("p2")
    g.land("p2", 7)
    g.do(type="draw_card", deck="chance", card="get-out-of-jail-free")
    g.pass_to("p2")
    g.adjust_to("p2", 10)
    s = g.land("p2", 4)["state"]
    assert debt(s) == {"debtor": "p2", "creditor": None, "amount": 200, "can_raise": 0}
    g.refused((400, 422), {"type": "bankrupt", "player": "p1"})  # not the debtor
    s = g.do(type="bankrupt", player="p2")["state"]
    assert s["players"][1]["jail_cards"] == [] and s["players"][1]["eliminated"]
    assert s["turn"]["player"] == "p3"
    g.pass_to("p1")
    g.land("p1", 7)
    s = g.do(type="draw_card", deck="chance", card="get-out-of-jail-free")["state"]
    assert s["players"][0]["jail_cards"] == ["chance"]
    # an eliminated player's turn is skipped
    assert s["turn"]["player"] == "p3"
    s = g.roll("p3", 4, 6)["state"]
    assert s["turn"]["player"] == "p1"


def test_bankrupt_without_a_debt_is_refused(http):
    g = Game(http)
    g.start()
    g.refused(422, {"type": "bankrupt", "player": "p1"})


def test_payments_after_a_settled_debt_can_make_a_new_debt(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"))
    g.start("p3")
    g.adjust_to("p3", 70)
    g.land("p3", 7)
    g.do(type="draw_card", deck="chance", card="chairperson-pay-each-player-50")
    g.adjust("p3", 60)  # 80: pays Ann, then cannot pay Bob
    s = g.do(type="pay_debt")["state"]
    assert [p["cash"] for p in s["players"]] == [1550, 1500, 30, 1550]
    assert debt(s) == {"debtor": "p3", "creditor": "p2", "amount": 50, "can_raise": 0}
    assert s["pending"]["payments"] == []
    s = g.do(type="bankrupt", player="p3")["state"]
    assert [p["cash"] for p in s["players"]] == [1550, 1530, 0, 1550]
    assert s["players"][2]["eliminated"] and s["pending"]["debt"] is None


def test_classic_bankruptcy_fee_the_creditor_cannot_pay_is_a_debt(http):
    g = Game(http, ("Ann", "Bob", "Cat"), edition="classic")
    g.start()
    g.deeds_by_rolls(("boardwalk", "p1"), ("reading-railroad", "p2"))
    g.do(type="mortgage", property="reading-railroad")
    g.pass_to("p2")
    g.adjust_to("p1", 0)
    g.adjust_to("p2", 5)
    (claim,) = g.land("p2", 39)["state"]["pending"]["rent_claims"]
    assert claim["amount"] == 50
    s = g.do(type="claim_rent", claim=claim["id"])["state"]
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 50, "can_raise": 0}
    s = g.do(type="bankrupt", player="p2")["state"]
    assert pick(s["properties"]["reading-railroad"], ("owner", "mortgaged")) == {
        "owner": "p1",
        "mortgaged": True,
    }
    assert s["players"][0]["cash"] == 5
    assert debt(s) == {"debtor": "p1", "creditor": None, "amount": 10, "can_raise": 200}
    g.do(type="mortgage", property="boardwalk")
    s = g.do(type="pay_debt")["state"]
    assert s["players"][0]["cash"] == 195 and s["pending"]["debt"] is None


def test_bankrupt_to_the_bank_sells_buildings_and_auctions_bare_deeds(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("mediterranean-avenue", "p2"), ("baltic-avenue", "p2"))
    g.do(type="build", property="mediterranean-avenue")
    g.do(type="build", property="baltic-avenue")
    g.pass_to("p2")
    g.adjust_to("p2", 0)
    s = g.land("p2", 4)["state"]
    assert debt(s) == {"debtor": "p2", "creditor": None, "amount": 200, "can_raise": 25 * 2 + 60}
    s = g.do(type="bankrupt", player="p2")["state"]
    assert s["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}
    for prop in ("mediterranean-avenue", "baltic-avenue"):
        assert pick(s["properties"][prop], ("owner", "mortgaged", "houses", "hotel")) == {
            "owner": None,
            "mortgaged": False,
            "houses": 0,
            "hotel": False,
        }
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "mediterranean-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    assert s["pending"]["auction_queue"] == ["baltic-avenue"]
