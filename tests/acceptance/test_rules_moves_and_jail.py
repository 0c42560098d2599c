"""Acceptance: docs/api.md, What the rules settle: rolls, GO, doubles, taxes and jail.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

from tests.game import Game

from .contract import (
    CARD,
    CLAIM,
    OFFER,
    PENDING_EMPTY,
    debt,
    jail_ann,
    pick,
)


def test_passing_go_pays_200_once(http):
    g = Game(http)
    g.start()
    g.move("p1", 38)
    assert g.cash("p1") == 1500  # move pays nothing
    g.roll("p1", 1, 3)  # 38 -> 2 Community Chest, passing GO
    s = g.state
    assert s["players"][0]["position"] == 2 and s["players"][0]["cash"] == 1700
    assert pick(s["pending"]["card"], CARD) == {"player": "p1", "deck": "community_chest"}
    g.do(type="draw_card", deck="community_chest", card="advance-to-go")
    s = g.state
    assert s["players"][0]["position"] == 0 and s["players"][0]["cash"] == 1900


def test_doubles_keep_the_turn_and_third_doubles_jails(http):
    g = Game(http)
    g.start()
    s = g.roll("p1", 2, 2)["state"]  # Income Tax 200
    assert s["players"][0]["position"] == 4 and s["players"][0]["cash"] == 1300
    assert s["turn"]["player"] == "p1" and s["turn"]["doubles"] == 1
    s = g.roll("p1", 3, 3)["state"]  # Just Visiting
    assert s["players"][0]["position"] == 10 and not s["players"][0]["in_jail"]
    assert s["turn"]["player"] == "p1" and s["turn"]["doubles"] == 2
    s = g.roll("p1", 4, 4)["state"]  # third doubles: to Jail, no move by the roll
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, True, 1300)
    assert s["turn"]["player"] == "p2" and s["turn"]["doubles"] == 0


def test_go_to_jail_space(http):
    g = Game(http)
    g.start()
    g.move("p1", 27)
    s = g.roll("p1", 1, 2)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, True, 1500)
    assert s["turn"]["player"] == "p2"


def test_jail_attempts_and_the_third_failure_pays_and_moves(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.refused(422, {"type": "move", "player": "p1", "position": 5})  # jailed token
    for attempt in (1, 2):
        s = g.roll("p1", 1, 2)["state"]
        p = s["players"][0]
        assert (p["position"], p["in_jail"], p["jail_attempts"]) == (10, True, attempt)
        assert s["turn"]["player"] == "p2"
        g.pass_to("p1")
    s = g.roll("p1", 1, 2)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["jail_attempts"], p["cash"]) == (13, False, 0, 1450)
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p1",
        "property": "states-avenue",
        "price": 140,
    }
    assert s["turn"]["player"] == "p2"


def test_third_failure_without_the_fine_is_a_debt_then_the_move(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.roll("p1", 1, 2)
    g.pass_to("p1")
    g.roll("p1", 1, 2)
    g.pass_to("p1")
    g.adjust_to("p1", 30)
    s = g.roll("p1", 1, 2)["state"]
    assert debt(s) == {"debtor": "p1", "creditor": None, "amount": 50, "can_raise": 0}
    assert s["players"][0]["position"] == 10
    g.refused(422, {"type": "pay_debt"})
    g.adjust("p1", 100, "found a 100 bill under the board")
    s = g.do(type="pay_debt")["state"]
    p = s["players"][0]
    assert s["pending"]["debt"] is None
    assert (p["cash"], p["position"], p["in_jail"]) == (80, 13, False)
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p1",
        "property": "states-avenue",
        "price": 140,
    }


def test_doubles_free_from_jail_without_an_extra_roll(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    s = g.roll("p1", 2, 2)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["jail_attempts"], p["cash"]) == (14, False, 0, 1500)
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p1",
        "property": "virginia-avenue",
        "price": 160,
    }
    assert s["turn"]["player"] == "p2"


def test_pay_jail_fine_frees_before_the_roll(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.adjust_to("p1", 49)
    g.refused(422, {"type": "pay_jail_fine", "player": "p1"})  # needs 50 in cash
    g.adjust_to("p1", 1500)
    s = g.do(type="pay_jail_fine", player="p1")["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, False, 1450)
    assert s["turn"]["player"] == "p1"
    s = g.roll("p1", 1, 2)["state"]
    assert s["players"][0]["position"] == 13 and s["turn"]["player"] == "p2"


def test_jail_card_kept_used_and_not_drawable_while_held(http):
    g = Game(http)
    g.start()
    g.land("p1", 7)
    s = g.state
    assert pick(s["pending"]["card"], CARD) == {"player": "p1", "deck": "chance"}
    assert s["turn"]["player"] == "p2"  # passes even with the card open
    g.refused(422, {"type": "roll", "player": "p2", "dice": [1, 2]})  # card open
    g.refused((400, 422), type="draw_card", deck="community_chest", card="advance-to-go")
    s = g.do(type="draw_card", deck="chance", card="get-out-of-jail-free")["state"]
    assert s["players"][0]["jail_cards"] == ["chance"] and s["pending"]["card"] is None
    # Bob lands on Chance: Ann holds the only Chance jail card
    g.land("p2", 7)
    g.refused(422, {"type": "draw_card", "deck": "chance", "card": "get-out-of-jail-free"})
    g.do(type="draw_card", deck="chance", card="bank-dividend-50")
    assert g.cash("p2") == 1550
    jail_ann(g)
    s = g.do(type="use_jail_card", player="p1", deck="chance")["state"]
    p = s["players"][0]
    assert (p["in_jail"], p["jail_cards"], p["position"], p["cash"]) == (False, [], 10, 1500)
    g.roll("p1", 4, 6)
    # back in its deck: Bob may draw it now
    g.land("p2", 7)
    s = g.do(type="draw_card", deck="chance", card="get-out-of-jail-free")["state"]
    assert s["players"][1]["jail_cards"] == ["chance"]


def test_landing_exactly_on_go_pays_200_once(http):
    g = Game(http)
    g.start()
    g.move("p1", 35)
    s = g.roll("p1", 2, 3)["state"]
    assert s["players"][0]["position"] == 0 and s["players"][0]["cash"] == 1700


def test_luxury_tax_free_parking_just_visiting(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.move("p1", 35)
    s = g.roll("p1", 1, 2)["state"]
    assert s["players"][0]["position"] == 38 and s["players"][0]["cash"] == 1400
    g.move("p2", 16)
    s = g.roll("p2", 1, 3)["state"]  # Free Parking: nothing
    assert s["players"][1]["cash"] == 1500 and s["pending"] == {**s["pending"], **PENDING_EMPTY}
    s = g.roll("p3", 4, 6)["state"]  # Just Visiting
    assert s["players"][2]["in_jail"] is False and s["players"][2]["position"] == 10


def test_doubles_onto_go_to_jail_end_the_turn(http):
    g = Game(http)
    g.start()
    g.move("p1", 26)
    s = g.roll("p1", 2, 2)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, True, 1500)
    assert s["turn"]["player"] == "p2" and s["turn"]["doubles"] == 0


def test_go_to_jail_card_after_doubles_ends_the_turn(http):
    g = Game(http)
    g.start()
    g.move("p1", 3)
    s = g.roll("p1", 2, 2)["state"]
    assert s["turn"]["player"] == "p1"  # doubles: Ann rolls again once the card is settled
    s = g.do(type="draw_card", deck="chance", card="go-to-jail")["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, True, 1500)
    assert s["turn"]["player"] == "p2"
    g.refused(422, {"type": "roll", "player": "p1", "dice": [1, 2]})


def test_jail_fine_then_doubles_roll_again(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.do(type="pay_jail_fine", player="p1")
    s = g.roll("p1", 2, 2)["state"]
    assert s["players"][0]["position"] == 14 and s["turn"]["player"] == "p1"
    assert s["players"][0]["cash"] == 1450


def test_jail_third_attempt_doubles_is_free(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    for _ in range(2):
        g.roll("p1", 1, 2)
        g.pass_to("p1")
    s = g.roll("p1", 3, 3)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"], p["jail_attempts"]) == (16, False, 1500, 0)
    assert s["turn"]["player"] == "p2"


def test_jail_fine_and_card_only_at_the_start_of_the_jailed_players_turn(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.refused(422, {"type": "use_jail_card", "player": "p1", "deck": "chance"})  # no card
    g.roll("p1", 1, 2)  # attempt 1: Bob's turn now
    g.refused(422, {"type": "pay_jail_fine", "player": "p1"})
    g.refused(422, {"type": "pay_jail_fine", "player": "p2"})  # Bob is not in jail


def test_a_jailed_player_bids_and_builds(http):
    g = Game(http)
    g.start()
    g.deeds_by_rolls(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    g.pass_to("p1")
    jail_ann(g)
    g.roll("p1", 1, 2)  # attempt 1
    g.land("p2", 8)
    g.do(type="auction")
    g.do(type="bid", player="p1", amount=20)
    g.do(type="close_auction")
    g.do(type="build", property="baltic-avenue")
    s = g.state
    assert s["properties"]["vermont-avenue"]["owner"] == "p1"
    assert s["properties"]["baltic-avenue"]["houses"] == 1
    assert s["players"][0]["in_jail"] is True
    # and collects rent
    g.roll("p1", 1, 2)  # attempt 2
    g.move("p2", 4)
    (claim,) = g.roll("p2", 2, 2)["state"]["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {
        "owner": "p1",
        "payer": "p2",
        "property": "vermont-avenue",
        "amount": 6,
    }
    ann = g.cash("p1")
    g.do(token=g.tokens["p1"], type="claim_rent", claim=claim["id"])
    assert g.cash("p1") == ann + 6
