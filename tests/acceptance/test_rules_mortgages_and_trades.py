"""Acceptance: docs/api.md, What the rules settle: mortgages and trades.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

import pytest

from tests.game import Game

from .contract import (
    pick,
    trade,
)


@pytest.mark.parametrize("edition", ["g0009", "classic"])
def test_mortgage_and_unmortgage_costs(http, edition):
    g = Game(http, edition=edition)
    g.start()
    g.deeds_by_rolls(("electric-company", "p1"), ("park-place", "p1"), ("vermont-avenue", "p1"))
    cash = g.cash("p1")
    for prop, value, lift in (("electric-company", 75, 83), ("park-place", 175, 193),
                              ("vermont-avenue", 50, 55)):  # fmt: skip
        s = g.do(type="mortgage", property=prop)["state"]
        assert s["properties"][prop]["mortgaged"] is True
        assert s["players"][0]["cash"] == cash + value
        g.refused(422, {"type": "mortgage", "property": prop})
        s = g.do(type="unmortgage", property=prop)["state"]
        assert s["properties"][prop]["mortgaged"] is False
        assert s["players"][0]["cash"] == cash + value - lift
        cash = cash + value - lift
    # no rent on a mortgaged deed
    g.do(type="mortgage", property="vermont-avenue")
    g.pass_to("p2")
    s = g.land("p2", 8)["state"]
    assert s["pending"]["rent_claims"] == []


@pytest.mark.parametrize(
    "edition, prop, lift, expected_bob",
    [
        ("g0009", "vermont-avenue", False, 1500 - 100),
        ("g0009", "vermont-avenue", True, 1500 - 100 - 55),
        ("classic", "vermont-avenue", False, 1500 - 100 - 5),
        ("classic", "electric-company", False, 1500 - 100 - 8),
        ("classic", "vermont-avenue", True, 1500 - 100 - 55),
    ],
)
def test_trade_mortgaged_deed(http, edition, prop, lift, expected_bob):
    g = Game(http, ("Ann", "Bob", "Cat"), edition=edition)
    g.start()
    g.deeds_by_rolls((prop, "p1"))
    g.do(type="mortgage", property=prop)
    ann = g.cash("p1")
    g.adjust_to("p2", 1500)
    s = g.do(**trade("p1", "p2", give={"properties": [prop]}, receive={"cash": 100},
                      unmortgage=[prop] if lift else []))["state"]  # fmt: skip
    assert pick(s["properties"][prop], ("owner", "mortgaged")) == {
        "owner": "p2",
        "mortgaged": not lift,
    }
    assert s["players"][0]["cash"] == ann + 100
    assert s["players"][1]["cash"] == expected_bob


def test_trade_deeds_cash_and_jail_cards(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("vermont-avenue", "p1"), ("reading-railroad", "p2"))
    g.pass_to("p1")
    g.land("p1", 7)
    g.do(type="draw_card", deck="chance", card="get-out-of-jail-free")
    before = g.cashes()
    deal = trade(
        "p1", "p2",
        give={"properties": ["vermont-avenue"], "jail_cards": ["chance"]},
        receive={"cash": 30, "properties": ["reading-railroad"]},
    )  # fmt: skip
    s = g.do(**deal)["state"]
    assert s["properties"]["vermont-avenue"]["owner"] == "p2"
    assert s["properties"]["reading-railroad"]["owner"] == "p1"
    assert s["players"][0]["jail_cards"] == [] and s["players"][1]["jail_cards"] == ["chance"]
    assert s["players"][0]["cash"] == before["p1"] + 30
    assert s["players"][1]["cash"] == before["p2"] - 30
    # not owned any more / more cash than held
    g.refused(422, trade("p1", "p2", give={"properties": ["vermont-avenue"]}))
    g.refused(422, trade("p1", "p3", give={"properties": ["reading-railroad"]},
                    receive={"cash": 1501}))  # fmt: skip


def test_trade_refusals(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("vermont-avenue", "p1"))
    g.refused(422, trade("p1", "p2", give={"cash": 10}))  # cash alone: a gift
    g.refused(422, trade("p1", "p2", give={"jail_cards": ["chance"]}, receive={"cash": 5}))
    g.refused((400, 422), trade("p1", "p1", give={"properties": ["vermont-avenue"]}))
    g.refused(422, trade("p2", "p1", receive={"properties": ["vermont-avenue"]},
                    give={"cash": 1501}))  # fmt: skip


def test_trade_unmortgage_must_name_a_received_mortgaged_deed(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("vermont-avenue", "p1"), ("oriental-avenue", "p1"))
    g.do(type="mortgage", property="oriental-avenue")
    g.refused((400, 422), trade("p1", "p2", give={"properties": ["vermont-avenue"]},
                    receive={"cash": 10}, unmortgage=["vermont-avenue"]))  # fmt: skip
    g.refused((400, 422), trade("p1", "p2", give={"properties": ["vermont-avenue"]},
                    receive={"cash": 10}, unmortgage=["oriental-avenue"]))  # fmt: skip
    # the receiver lifts at once: 55 for Oriental Avenue
    bob = g.cash("p2")
    s = g.do(**trade("p2", "p1", receive={"properties": ["oriental-avenue"]},
                      give={"cash": 20}, unmortgage=["oriental-avenue"]))["state"]  # fmt: skip
    assert pick(s["properties"]["oriental-avenue"], ("owner", "mortgaged")) == {
        "owner": "p2",
        "mortgaged": False,
    }
    assert s["players"][1]["cash"] == bob - 20 - 55
