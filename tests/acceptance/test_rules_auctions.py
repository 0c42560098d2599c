"""Acceptance: docs/api.md, What the rules settle: the offer, buying and auctions.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

from tests.game import Game

from .contract import (
    AUCTION,
    OFFER,
    pick,
)


def test_roll_buy_and_turn_passing_with_an_offer_open(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    a = g.roll("p1", 3, 5)
    s = a["state"]
    assert s["players"][0]["position"] == 8
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p1",
        "property": "vermont-avenue",
        "price": 100,
    }
    assert s["turn"]["player"] == "p2" and s["turn"]["roller"] == "Bob"
    assert s["turn"]["first"] == "p1"
    b = g.do(type="buy")
    s = b["state"]
    assert s["pending"]["offer"] is None
    assert s["properties"]["vermont-avenue"] == {**s["properties"]["vermont-avenue"],
                                                 "owner": "p1", "mortgaged": False}  # fmt: skip
    assert [p["cash"] for p in s["players"]] == [1500 - 100, 1500, 1500]


def test_auction_bids_and_close(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    a = g.do(type="auction")
    assert a["state"]["pending"]["offer"] is None
    assert pick(a["state"]["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    g.refused(422, {"type": "roll", "player": "p2", "dice": [1, 2]})  # auction open
    g.refused(422, {"type": "bid", "player": "p2", "amount": 9})  # opens at 10
    g.refused(422, {"type": "bid", "player": "p2", "amount": 1501})  # more than Bob's cash
    g.do(type="bid", player="p2", amount=40)
    g.refused(422, {"type": "bid", "player": "p3", "amount": 40})  # not a raise
    b = g.do(type="bid", player="p1", amount=50)  # the decliner may bid
    assert pick(b["state"]["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 50,
        "high_bidder": "p1",
    }
    c = g.do(type="close_auction")
    s = c["state"]
    assert s["pending"]["auction"] is None
    assert s["properties"]["vermont-avenue"]["owner"] == "p1"
    assert [p["cash"] for p in s["players"]] == [1450, 1500, 1500]
    g.roll("p2", 4, 6)  # the table goes on


def test_auction_without_bids_leaves_the_deed_in_the_bank(http):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="auction")
    s = g.do(type="close_auction")["state"]
    assert s["pending"]["auction"] is None and s["properties"]["vermont-avenue"]["owner"] is None
    assert [p["cash"] for p in s["players"]] == [1500, 1500]


def test_auction_all_variation_opens_the_auction_at_once(http):
    g = Game(http, options={"auction_all": True})
    g.start()
    s = g.roll("p1", 3, 5)["state"]
    assert s["pending"]["offer"] is None
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    g.refused(422, {"type": "buy"})


def test_a_bidder_may_raise_their_own_bid(http):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="auction")
    g.do(type="bid", player="p2", amount=10)
    s = g.do(type="bid", player="p2", amount=11)["state"]
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 11,
        "high_bidder": "p2",
    }
    s = g.do(type="close_auction")["state"]
    assert [p["cash"] for p in s["players"]] == [1500, 1489]


def test_buying_needs_the_cash(http):
    g = Game(http)
    g.start()
    g.adjust_to("p1", 99)
    g.roll("p1", 3, 5)
    g.refused(422, {"type": "buy"})
    g.do(type="auction")
    g.do(type="bid", player="p1", amount=99)
    g.refused(422, {"type": "bid", "player": "p1", "amount": 100})
    s = g.do(type="close_auction")["state"]
    assert s["players"][0]["cash"] == 0 and s["properties"]["vermont-avenue"]["owner"] == "p1"
