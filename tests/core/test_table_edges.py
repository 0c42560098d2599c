"""The changing table's last edges through the rules core (docs/api.md, `leave` *(new)*,
`private_cash` *(new)*, "Silent points settled"): each test named as the sentence it checks."""

from __future__ import annotations

import pytest

from banker.rules import BadCommand, DomainError, actions, text_for
from tests.core.helpers import started
from tests.table_core import CoreGame

EDITIONS = ["g0009", "classic"]
SIDE = {"cash": 0, "properties": [], "jail_cards": []}


# --- leave: refused while anything at all is pending for anyone ------------------------------
# The three cases of issue 34, each first a leave that sold or charged what no longer existed.


def test_leave_is_refused_while_anothers_rent_roll_is_pending_bobs_electric_company():
    g = started()
    g.own("p2", "electric-company")
    g.land("p1", 12)  # Ann on Bob's Electric Company: she rolls again for the rent
    e = g.refused(DomainError, type="leave", player="p2")
    assert (e.code, e.message) == (
        "rent_roll_pending",
        "Ann must roll for the utility rent: the table settles that before Bob leaves.",
    )
    g.do(type="rent_roll", dice=[3, 4])  # 7 x 4 = 28, owed to Bob (not to the Bank)
    assert [(c["owner"], c["payer"], c["amount"]) for c in g.claims] == [("p2", "p1", 28)]
    g.claim()
    assert g.cashes() == {"p1": 1472, "p2": 1528, "p3": 1500}
    g.do(type="leave", player="p2")  # now nothing waits
    assert g.player("p2")["eliminated"] is True
    assert g.prop("electric-company")["owner"] is None


def test_leave_is_refused_while_anothers_card_is_pending_the_nearest_railroad():
    g = started()
    g.own("p2", "reading-railroad")
    g.land("p1", 36)  # Ann on Chance: her card waits
    e = g.refused(DomainError, type="leave", player="p2")
    assert (e.code, e.message) == (
        "card_pending",
        "Ann must draw a Chance card: the table settles that before Bob leaves.",
    )
    g.draw("chance", "advance-to-next-railroad")  # past GO to Bob's Reading Railroad
    assert g.pending["offer"] is None and g.pending["auction_queue"] == []
    (claim,) = g.claims
    assert (claim["owner"], claim["property"], claim["amount"]) == ("p2", "reading-railroad", 50)
    g.claim()
    assert g.cashes() == {"p1": 1650, "p2": 1550, "p3": 1500}


def test_leave_is_refused_while_a_jailed_players_move_waits_for_her_fine():
    g = started()
    g.own("p2", "virginia-avenue")
    g.place("p1", 10, in_jail=True, jail_attempts=2, cash=20)
    g.roll("p1", 1, 3)  # third failed attempt: the 50 is a debt; her move to 14 waits for it
    e = g.refused(DomainError, type="leave", player="p2")
    assert (e.code, e.message) == (
        "debt_pending",
        "Ann owes the Bank 50 and Ann's move waits for it: the table settles that before Bob "
        "leaves.",
    )
    g.adjust("p1", 100)
    g.do(type="pay_debt")  # she pays and moves onto Bob's Virginia Avenue: rent to Bob, no sale
    assert g.position("p1") == 14 and g.pending["offer"] is None
    (claim,) = g.claims
    assert (claim["owner"], claim["amount"]) == ("p2", 12)


@pytest.mark.parametrize(
    ("arrange", "code", "said"),
    [
        ("offer", "offer_pending", "Ann may buy Oriental Avenue or put it up for auction"),
        ("auction", "auction_pending", "The auction of Oriental Avenue is open"),
        ("queue", "auction_pending", "Baltic Avenue still waits to be auctioned"),
        ("building_auction", "auction_pending", "The auction of one house is open"),
        ("debt", "debt_pending", "Ann owes the Bank 200"),
    ],
)  # fmt: skip
def test_leave_is_refused_while_anything_at_all_is_pending_for_anyone_the_sentence_naming_it(
    arrange, code, said
):
    g = started(names=("Ann", "Bob", "Cat", "Dan"))
    if arrange == "offer":
        g.land("p1", 6)
    elif arrange == "auction":
        g.land("p1", 6)
        g.do(type="auction")
    elif arrange == "queue":
        g.setup(lambda s: s["pending"].update(auction_queue=["baltic-avenue"]))
    elif arrange == "building_auction":
        g.own("p2", "baltic-avenue", "mediterranean-avenue")
        g.setup(lambda s: s["bank"].update(houses=1))
        g.do(type="building_auction", kind="house")
    else:
        g.place("p1", 1, cash=100)
        g.roll("p1", 1, 2)  # Income Tax
    e = g.refused(DomainError, type="leave", player="p4")  # Dan has no part in any of it
    assert (e.code, e.message) == (code, f"{said}: the table settles that before Dan leaves.")


def test_leave_is_refused_while_the_final_rounds_claims_wait():
    g = started(names=("Ann", "Bob", "Cat"), options={"deadline": True})
    g.own("p1", "boardwalk")
    g.land("p1", 10)
    g.do(type="call_time")
    g.land("p2", 10)
    g.land("p3", 39)  # Cat owes Ann rent; the turn would pass back to Ann: the round is over
    assert g.turn["player"] is None and len(g.claims) == 1
    e = g.refused(DomainError, type="leave", player="p2")
    assert (e.code, e.message) == (
        "final_round_over",
        "The final round is over: only the open rent claims (and any debt they create) are "
        "settled now, or the Banker scores the game.",
    )


def test_leave_rent_claims_owed_to_or_by_the_leaver_lapse_the_others_stay():
    g = started(names=("Ann", "Bob", "Cat", "Dan"))
    g.own("p2", "oriental-avenue")
    g.own("p4", "vermont-avenue")
    g.land("p1", 6, 2, 2)  # doubles onto Bob's Oriental Avenue: Ann owes Bob 6
    g.land("p1", 8, 1, 1)  # doubles again onto Dan's Vermont Avenue: Ann owes Dan 6
    assert [(c["owner"], c["payer"]) for c in g.claims] == [("p2", "p1"), ("p4", "p1")]
    g.do(type="leave", player="p2")
    assert [(c["owner"], c["payer"]) for c in g.claims] == [("p4", "p1")]
    assert "The 6 rent on Oriental Avenue lapses: Bob is out of the game." in g.texts()
    g.claim()
    assert g.cashes() == {"p1": 1494, "p2": 0, "p3": 1500, "p4": 1506}


def test_leave_while_trade_offers_are_open_the_leavers_lapse():
    g = started()
    g.own("p2", "baltic-avenue")
    g.own("p3", "boardwalk")
    g.do(
        type="propose_trade",
        **{"from": "p1", "to": "p2"},
        give={**SIDE, "cash": 100},
        receive={**SIDE, "properties": ["baltic-avenue"]},
    )
    g.do(type="leave", player="p2")
    assert g.pending["trade_offers"] == []
    assert "The offer is off, Bob being out of the game" in " ".join(g.texts())


# --- leave in setup ----------------------------------------------------------------------------


def test_leave_in_setup_the_player_just_leaves_the_table_and_their_id_is_never_reused():
    g = CoreGame(("Ann", "Bob", "Cat"))
    g.do(type="leave", player="p2")
    assert g.texts() == ["Bob left the table before the game started."]
    assert [p["id"] for p in g.state["players"]] == ["p1", "p3"]
    assert g.state["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}
    g.do(type="add_player", name="Dan")
    assert [p["id"] for p in g.state["players"]] == ["p1", "p3", "p4"]
    g.do(type="add_player", name="Bob")  # the name is free again: Bob is not at the table
    assert g.player("p5")["name"] == "Bob"
    assert g.refused(BadCommand, type="leave", player="p2").code == "unknown_player"


def test_start_needs_two_players():
    g = CoreGame(("Ann", "Bob"))
    g.do(type="leave", player="p2")
    e = g.refused(DomainError, type="start", first="p1")
    assert (e.code, e.message) == (
        "too_few_players",
        "A game needs two players to start; only Ann is at the table: seat a latecomer first.",
    )
    e = g.refused(DomainError, type="leave", player="p1")
    assert e.code == "last_at_table"
    g.do(type="add_player", name="Cat")
    g.start("p3")
    assert g.turn["player"] == "p3"


# --- the cash a leaver or a bankrupt hands over is public ----------------------------------------


@pytest.mark.parametrize("private", [False, True])
def test_leave_the_cash_a_leaver_hands_over_is_said_with_its_figure(private):
    g = started(options={"private_cash": private})
    g.own("p2", "park-place", "boardwalk", houses=1)
    g.do(type="leave", player="p2")
    (left,) = [e for e in g.events if e["type"] == "left"]
    assert "cash_of" not in left
    assert left["text"] == (
        "Bob left the game for good: 1,700 in cash returns to the Bank (200 of it for their "
        "buildings, sold back at half price); Park Place and Boardwalk return to the Bank "
        "unmortgaged, to be auctioned one after another."
    )
    assert text_for(g.state, "p1", left) == left["text"]


def test_bankrupt_the_cash_a_bankrupt_hands_over_is_said_with_its_figure_private_cash_or_not():
    g = started(options={"private_cash": True})
    g.own("p2", "boardwalk", houses=4)
    g.place("p1", 36, cash=300)
    g.roll("p1", 1, 2)  # Boardwalk with 4 houses: 1,700
    g.claim()
    g.do(type="bankrupt", player="p1")
    (out,) = [e for e in g.events if e["type"] == "bankrupt"]
    assert out["text"] == "Ann is bankrupt and out of the game: Bob receives 300."
    assert text_for(g.state, "p3", out) == out["text"]


# --- private cash: an offer may ask any cash ------------------------------------------------------


def offer(g, give_cash=0, receive_cash=0, give=(), receive=(), unmortgage=()):
    return {
        "type": "propose_trade",
        "from": "p1",
        "to": "p2",
        "give": {**SIDE, "cash": give_cash, "properties": list(give)},
        "receive": {**SIDE, "cash": receive_cash, "properties": list(receive)},
        "unmortgage": list(unmortgage),
    }


@pytest.mark.parametrize("edition", EDITIONS)
def test_private_cash_propose_trade_does_not_check_the_cash_the_other_side_gives(edition):
    g = started(edition, options={"private_cash": True})
    g.own("p1", "baltic-avenue")
    g.set_cash(p2=1500)
    for asked in (1499, 1501, 99999):  # no answer tells Ann Bob's cash
        g.do(offer(g, give=["baltic-avenue"], receive_cash=asked))
        assert g.events[0]["type"] == "trade_offered"
    assert len(g.pending["trade_offers"]) == 3


def test_private_cash_propose_trade_does_not_check_the_lifts_the_other_side_would_pay():
    g = started("classic", options={"private_cash": True})
    g.own("p1", "boardwalk", mortgaged=True)  # lift 220, or the 10% fee 20, in classic
    g.set_cash(p2=10)
    g.do(offer(g, give=["boardwalk"], unmortgage=["boardwalk"]))
    g.do(offer(g, give=["boardwalk"]))  # classic's 10% Bob could not pay either
    assert len(g.pending["trade_offers"]) == 2


def test_private_cash_propose_trade_checks_the_proposers_own_cash():
    g = started(options={"private_cash": True})
    g.own("p2", "baltic-avenue")
    g.set_cash(p1=100)
    e = g.refused(DomainError, offer(g, give_cash=101, receive=["baltic-avenue"]))
    assert (e.code, e.message) == ("insufficient_cash", "Ann has only 100 in cash.")


def test_without_private_cash_propose_trade_checks_both_sides_as_trade_would():
    g = started()
    g.own("p1", "baltic-avenue")
    g.set_cash(p2=1500)
    e = g.refused(DomainError, offer(g, give=["baltic-avenue"], receive_cash=1501))
    assert e.message == "Bob has only 1,500 in cash."


def test_private_cash_accept_trade_checks_the_cash_and_tells_the_one_accepting_offer_kept():
    g = started(options={"private_cash": True})
    g.own("p1", "baltic-avenue")
    g.set_cash(p2=1500)
    g.do(offer(g, give=["baltic-avenue"], receive_cash=1501))
    g.refused(DomainError, type="accept_trade", offer="o1")
    e = g.table.send(g, {"type": "accept_trade", "offer": "o1"}).refusal
    assert e.code == "insufficient_cash"
    assert text_for(g.state, "p2", e) == "Bob has only 1,500 in cash."  # his own, to him
    assert text_for(g.state, "p1", e) == (
        "Bob does not have the 1,501 in cash this trade hands over."
    )
    assert [o["id"] for o in g.pending["trade_offers"]] == ["o1"]
    told = actions(g.state, "p2", ["accept_trade"])["accept_trade"]
    assert told["why"] == "Bob has only 1,500 in cash."
    g.set_cash(p2=1501)
    g.do(type="accept_trade", offer="o1")
    assert (g.cash("p1"), g.cash("p2")) == (3001, 0)
    assert g.prop("baltic-avenue")["owner"] == "p2"


# --- silent points settled -----------------------------------------------------------------------


def test_draw_card_is_refused_while_an_auction_is_open_the_auction_finishes_first():
    g = started()
    g.land("p1", 7)  # Chance
    g.setup(
        lambda s: s["pending"].update(
            auction={"item": "boardwalk", "high_bid": 0, "high_bidder": None},
            auction_queue=["park-place"],
        )
    )
    e = g.refused(DomainError, type="draw_card", deck="chance", card="bank-dividend-50")
    assert (e.code, e.message) == (
        "auction_pending",
        "The auction of Boardwalk comes first: close it before the card is drawn.",
    )
    g.do(type="close_auction")  # no bid: Boardwalk stays with the Bank; Park Place opens
    e = g.refused(DomainError, type="draw_card", deck="chance", card="bank-dividend-50")
    assert e.message == "The auction of Park Place comes first: close it before the card is drawn."
    g.do(type="close_auction")
    g.draw("chance", "bank-dividend-50")
    assert g.cash("p1") == 1550


def test_the_banker_may_decline_any_open_offer_at_any_time_the_final_round_included():
    g = started(names=("Ann", "Bob"), options={"deadline": True})
    g.own("p1", "boardwalk")
    g.own("p2", "baltic-avenue")
    g.land("p1", 10)
    g.do(type="call_time")
    g.land("p2", 39)  # Bob owes Ann rent on Boardwalk; the final round is over, the claim waits
    assert g.turn["player"] is None
    g.set_cash(p2=10)
    g.claim()  # Bob cannot pay the 50: a debt; he may offer deals to raise it
    assert g.pending["debt"]["debtor"] == "p2"
    for asked in (40, 60):
        g.do(
            type="propose_trade",
            **{"from": "p2", "to": "p1"},
            give={**SIDE, "properties": ["baltic-avenue"]},
            receive={**SIDE, "cash": asked},
        )
    g.do(type="decline_trade", offer="o1")
    assert g.texts() == ["Ann declined Bob's offer: Bob gives Baltic Avenue to Ann for 40."]
    g.do(type="decline_trade", offer="o2")
    assert g.pending["trade_offers"] == [] and g.pending["debt"]["amount"] == 50


@pytest.mark.parametrize(
    ("look_alike", "of"), [("Bօb", "Bob"), ("Aɴɴ", "Ann"), ("Ꭺnn", "Ann"), ("ʙᴏʙ", "Bob")]
)
def test_armenian_cherokee_and_small_capital_look_alikes_count_as_look_alikes(look_alike, of):
    g = started(names=("Ann", "Bob", "Cat"))
    e = g.refused(DomainError, type="add_player", name=look_alike)
    assert (e.code, e.message) == (
        "duplicate_name",
        f"{look_alike!r} looks like {of!r}, another player's name: choose a name the table can "
        "tell apart.",
    )
    e = g.refused(DomainError, type="rename_player", player="p3", name=look_alike)
    assert e.code == "duplicate_name"
    with pytest.raises(BadCommand) as made:
        CoreGame(("Ann", "Bob", look_alike))
    assert made.value.code == "duplicate_name"
