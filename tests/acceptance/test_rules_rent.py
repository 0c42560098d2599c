"""Acceptance: docs/api.md, What the rules settle: rent and rent claims.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

from tests.game import Game

from .contract import (
    CLAIM,
    DICE,
    OFFER,
    pick,
)


def test_claim_lapses_on_another_players_roll(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    g.roll("p2", 3, 5)
    (claim,) = g.pending["rent_claims"]
    g.roll("p3", 4, 6)
    assert g.pending["rent_claims"] == []
    g.refused(422, {"type": "claim_rent", "claim": claim["id"]})
    g.refused((403, 422), {"type": "claim_rent", "claim": claim["id"]}, token=g.tokens["p1"])
    assert g.cashes() == {"p1": 1400, "p2": 1500, "p3": 1500}


def test_claim_survives_the_payers_own_doubles_roll(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    g.move("p2", 4)
    g.roll("p2", 2, 2)  # Vermont Avenue, doubles
    (claim,) = g.pending["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2", "property": "vermont-avenue",
                                  "amount": 6}  # fmt: skip
    s = g.roll("p2", 1, 2)["state"]  # St. Charles Place: offer open, claim still open
    assert [c["id"] for c in s["pending"]["rent_claims"]] == [claim["id"]]
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p2",
        "property": "st-charles-place",
        "price": 140,
    }
    g.do(token=g.tokens["p1"], type="claim_rent", claim=claim["id"])  # claims do not block
    assert g.cashes() == {"p1": 1406, "p2": 1494, "p3": 1500}


def test_color_set_doubles_street_rent_and_railroad_counts(http):
    g = Game(http)
    g.start()
    g.deeds_by_rolls(
        ("mediterranean-avenue", "p1"),
        ("baltic-avenue", "p1"),
        ("reading-railroad", "p1"),
        ("pennsylvania-railroad", "p1"),
    )
    g.pass_to("p2")
    g.land("p2", 3)
    assert [pick(c, CLAIM) for c in g.pending["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "baltic-avenue", "amount": 8}
    ]
    g.pass_to("p2")
    g.land("p2", 5)
    assert [pick(c, CLAIM) for c in g.pending["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "reading-railroad", "amount": 50}
    ]


def test_utility_rent_by_rent_roll_g0009(http):
    g = Game(http)
    g.start()
    g.land("p1", 12)
    g.do(type="buy")
    s = g.land("p2", 12)["state"]
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 4,
    }
    assert s["pending"]["rent_claims"] == [] and s["turn"]["player"] == "p1"
    g.refused(422, {"type": "roll", "player": "p1", "dice": [4, 6]})  # rent roll pending
    s = g.do(type="rent_roll", dice=[3, 4])["state"]
    assert s["pending"]["dice"] is None
    (claim,) = s["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2", "property": "electric-company",
                                  "amount": 28}  # fmt: skip
    g.do(token=g.tokens["p1"], type="claim_rent", claim=claim["id"])
    assert g.cashes() == {"p1": 1350 + 28, "p2": 1500 - 28}
    # both utilities: x10
    g.land("p1", 28)
    g.do(type="buy")
    s = g.land("p2", 12, 3, 3)["state"]  # doubles roll moves; rent roll is a fresh one
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 10,
    }
    s = g.do(type="rent_roll", dice=[1, 2])["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [30]


def test_utility_rent_by_the_moving_roll_classic(http):
    g = Game(http, edition="classic")
    g.start()
    g.land("p1", 12)
    g.do(type="buy")
    s = g.land("p2", 12, 1, 2)["state"]
    assert s["pending"]["dice"] is None
    assert [pick(c, CLAIM) for c in s["pending"]["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "electric-company", "amount": 12}
    ]


def test_rent_with_mortgaged_members_of_the_group_g0009(http):
    g = Game(http)
    g.start()
    g.deeds_by_rolls(
        ("mediterranean-avenue", "p1"),
        ("baltic-avenue", "p1"),
        ("reading-railroad", "p1"),
        ("pennsylvania-railroad", "p1"),
        ("electric-company", "p1"),
        ("water-works", "p1"),
    )
    for prop in ("mediterranean-avenue", "reading-railroad", "electric-company"):
        g.do(type="mortgage", property=prop)
    g.pass_to("p2")
    s = g.land("p2", 3)["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [8]
    g.pass_to("p2")
    s = g.land("p2", 15)["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [50]
    g.pass_to("p2")
    s = g.land("p2", 28)["state"]
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 10,
    }
    g.do(type="rent_roll", dice=[6, 5])
    assert [c["amount"] for c in g.pending["rent_claims"]] == [110]
    g.pass_to("p2")
    s = g.land("p2", 1)["state"]  # mortgaged: no rent
    assert s["pending"]["rent_claims"] == [] and s["pending"]["dice"] is None


def test_no_rent_on_your_own_deed(http):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    g.roll("p2", 4, 6)
    g.move("p1", 4)
    s = g.roll("p1", 2, 2)["state"]
    assert s["pending"]["rent_claims"] == [] and s["pending"]["offer"] is None


def test_claim_ids_are_unique_even_after_undo(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    (first,) = g.roll("p2", 3, 5)["state"]["pending"]["rent_claims"]
    s = g.do(type="undo")["state"]
    assert s["pending"]["rent_claims"] == [] and s["players"][1]["position"] == 0
    (second,) = g.roll("p2", 3, 5)["state"]["pending"]["rent_claims"]
    assert isinstance(second["id"], str) and second["id"] != first["id"]
    g.do(type="claim_rent", claim=second["id"])
    assert g.cash("p2") == 1494
