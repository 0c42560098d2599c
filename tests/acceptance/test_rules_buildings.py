"""Acceptance: docs/api.md, What the rules settle: buildings, building auctions, the shortage.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

from tests.game import Game

from .contract import (
    AUCTION,
    pick,
    shortage_game,
)


def test_build_evenly_hotel_and_sell_back(http):
    g = Game(http)
    g.start()
    g.deeds_by_rolls(
        ("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"), ("vermont-avenue", "p1")
    )
    g.refused(422, {"type": "build", "property": "vermont-avenue"})  # no set
    cash = g.cash("p1")
    s = g.do(type="build", property="mediterranean-avenue")["state"]
    assert s["properties"]["mediterranean-avenue"]["houses"] == 1 and s["bank"]["houses"] == 31
    assert s["players"][0]["cash"] == cash - 50
    g.refused(422, {"type": "build", "property": "mediterranean-avenue"})  # uneven
    g.refused(422, {"type": "mortgage", "property": "baltic-avenue"})  # buildings in the set
    g.refused(422, {"type": "trade", "from": "p1", "to": "p2",
               "give": {"cash": 0, "properties": ["baltic-avenue"], "jail_cards": []},
               "receive": {"cash": 10, "properties": [], "jail_cards": []},
               "unmortgage": []})  # fmt: skip
    for _ in range(3):
        g.do(type="build", property="baltic-avenue")
        g.do(type="build", property="mediterranean-avenue")
    g.do(type="build", property="baltic-avenue")
    s = g.state
    assert [s["properties"][p]["houses"] for p in ("mediterranean-avenue", "baltic-avenue")] == [
        4,
        4,
    ]
    assert s["bank"] == {"houses": 24, "hotels": 12, "free_parking": 0}
    s = g.do(type="build", property="mediterranean-avenue")["state"]
    assert pick(s["properties"]["mediterranean-avenue"], ("houses", "hotel")) == {
        "houses": 0,
        "hotel": True,
    }
    assert s["bank"] == {"houses": 28, "hotels": 11, "free_parking": 0}
    assert s["players"][0]["cash"] == cash - 9 * 50
    g.refused(422, {"type": "build", "property": "mediterranean-avenue"})  # hotel is the maximum
    g.refused(422, {"type": "sell_building", "property": "baltic-avenue"})  # uneven
    s = g.do(type="sell_building", property="mediterranean-avenue")["state"]
    assert pick(s["properties"]["mediterranean-avenue"], ("houses", "hotel")) == {
        "houses": 4,
        "hotel": False,
    }
    assert s["bank"] == {"houses": 24, "hotels": 12, "free_parking": 0}
    assert s["players"][0]["cash"] == cash - 9 * 50 + 25
    s = g.do(type="sell_building", property="baltic-avenue")["state"]
    assert s["properties"]["baltic-avenue"]["houses"] == 3 and s["bank"]["houses"] == 25
    assert s["players"][0]["cash"] == cash - 9 * 50 + 50
    # rent with 4 houses on Mediterranean
    g.pass_to("p2")
    g.land("p2", 1)
    assert [c["amount"] for c in g.pending["rent_claims"]] == [160]


def test_building_auction(http):
    g = Game(http)
    g.start()
    g.deeds_by_rolls(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    cash = g.cash("p1")
    s = g.do(type="building_auction", kind="house")["state"]
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "house",
        "high_bid": 0,
        "high_bidder": None,
    }
    g.refused(422, {"type": "bid", "player": "p2", "amount": 10})  # Bob has nowhere to build
    g.do(type="bid", player="p1", amount=12)
    g.refused(422, {"type": "close_auction", "property": "vermont-avenue"})
    s = g.do(type="close_auction", property="baltic-avenue")["state"]
    assert s["pending"]["auction"] is None
    assert s["properties"]["baltic-avenue"]["houses"] == 1
    assert s["bank"]["houses"] == 31 and s["players"][0]["cash"] == cash - 12


def test_hotel_shortage_ruling(http):
    g = shortage_game(http)
    cash = g.cash("p1")
    s = g.do(type="sell_building", property="mediterranean-avenue")["state"]
    med, bal = s["properties"]["mediterranean-avenue"], s["properties"]["baltic-avenue"]
    assert pick(med, ("houses", "hotel")) == {"houses": 0, "hotel": False}
    # Baltic's hotel is sold down to one house (the Bank's last): half of 50 + 3 x 50
    assert pick(bal, ("houses", "hotel")) == {"houses": 1, "hotel": False}
    assert s["bank"] == {"houses": 0, "hotels": 12, "free_parking": 0}
    assert s["players"][0]["cash"] == cash + (50 + 4 * 50) // 2 + (50 + 3 * 50) // 2


def test_hotel_shortage_ruling_other_hotel_goes_bare_without_houses(http):
    g = shortage_game(http)
    g.do(type="build", property="tennessee-avenue")  # the Bank's last house
    g.refused(422, {"type": "build", "property": "new-york-avenue"})  # none left
    cash = g.cash("p1")
    s = g.do(type="sell_building", property="baltic-avenue")["state"]
    for p in ("mediterranean-avenue", "baltic-avenue"):
        assert pick(s["properties"][p], ("houses", "hotel")) == {"houses": 0, "hotel": False}
    assert s["bank"] == {"houses": 0, "hotels": 12, "free_parking": 0}
    assert s["players"][0]["cash"] == cash + 125 + 125


def test_hotel_sale_refused_in_a_shortage_without_the_ruling(http):
    g = shortage_game(http, options={"hotel_shortage_ruling": False})
    g.refused(422, {"type": "sell_building", "property": "mediterranean-avenue"})


def test_hotel_sale_refused_in_a_shortage_classic(http):
    g = shortage_game(http, edition="classic")
    g.refused(422, {"type": "sell_building", "property": "mediterranean-avenue"})


def test_building_refusals(http):
    g = Game(http)
    g.start()
    g.deeds_by_rolls(
        ("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"), ("reading-railroad", "p1")
    )
    g.refused(422, {"type": "build", "property": "reading-railroad"})
    g.refused(422, {"type": "sell_building", "property": "baltic-avenue"})  # nothing to sell
    g.do(type="mortgage", property="baltic-avenue")
    g.refused(422, {"type": "build", "property": "mediterranean-avenue"})  # set has a mortgage
    g.do(type="unmortgage", property="baltic-avenue")
    g.adjust_to("p1", 49)
    g.refused(422, {"type": "build", "property": "mediterranean-avenue"})  # house costs 50
    g.do(type="mortgage", property="baltic-avenue")
    g.adjust_to("p1", 32)
    g.refused(422, {"type": "unmortgage", "property": "baltic-avenue"})  # costs 33


def test_hotel_shortage_ruling_three_street_set(http):
    g = shortage_game(http)
    g.do(type="build", property="oriental-avenue")  # hotel: 4 houses back
    g.do(type="build", property="tennessee-avenue")
    g.do(type="build", property="new-york-avenue")
    assert g.state["bank"] == {"houses": 3, "hotels": 9, "free_parking": 0}
    cash = g.cash("p1")
    s = g.do(type="sell_building", property="oriental-avenue")["state"]
    props = s["properties"]
    assert [pick(props[p], ("houses", "hotel")) for p in
            ("oriental-avenue", "vermont-avenue", "connecticut-avenue")] == [
        {"houses": 0, "hotel": False}, {"houses": 1, "hotel": False},
        {"houses": 1, "hotel": False},
    ]  # fmt: skip
    assert s["bank"] == {"houses": 3 + 6, "hotels": 10, "free_parking": 0}
    assert s["players"][0]["cash"] == cash + 125 + 75 + 75


def test_hotel_building_auction(http):
    g = Game(http)
    g.start()
    g.deeds_by_rolls(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    for _ in range(4):
        g.do(type="build", property="mediterranean-avenue")
        g.do(type="build", property="baltic-avenue")
    cash = g.cash("p1")
    s = g.do(type="building_auction", kind="hotel")["state"]
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "hotel",
        "high_bid": 0,
        "high_bidder": None,
    }
    g.refused(422, {"type": "bid", "player": "p2", "amount": 10})
    g.do(type="bid", player="p1", amount=10)
    s = g.do(type="close_auction", property="mediterranean-avenue")["state"]
    assert pick(s["properties"]["mediterranean-avenue"], ("houses", "hotel")) == {
        "houses": 0,
        "hotel": True,
    }
    assert s["bank"] == {"houses": 28, "hotels": 11, "free_parking": 0}
    assert s["players"][0]["cash"] == cash - 10


def test_building_auction_needs_a_building_in_the_bank(http):
    g = shortage_game(http)
    g.do(type="build", property="tennessee-avenue")
    g.refused(422, {"type": "building_auction", "kind": "house"})
    g.refused(400, {"type": "building_auction", "kind": "castle"})
