"""The guide's three house variations: auction every first purchase, an agreed deadline, and two
partnerships. They belong to g0009 only."""

from __future__ import annotations

import pytest

from banker.rules import new_game

from .holdings_helpers import BadCommand, DomainError, deed, jail_cards, pending, started, trade

TEAMS = ("Ann", "Bob", "Cat", "Dan")


@pytest.mark.parametrize("option", ["auction_all", "deadline", "teams"])
def test_the_variations_are_offered_with_g0009_only(option):
    """README: "variations (agreed deadline, auction every first purchase, two partnerships) —
    g0009: available; classic: not offered". G0009: "Agree on one edition and any selected
    variation before money is dealt." """
    with pytest.raises(DomainError) as e:
        new_game("g1", "classic", list(TEAMS), {option: True})
    assert type(e.value) is DomainError
    assert e.value.message == (
        f"The classic edition offers no house variations or "
        f"hotel-shortage ruling ({option}); they belong to g0009."
    )
    assert new_game("g1", "g0009", list(TEAMS), {option: True})["options"][option] is True


def test_an_unknown_option_is_malformed():
    """API: "Options, all optional: auction_all, deadline, teams, hotel_shortage_ruling"."""
    with pytest.raises(BadCommand):
        new_game("g1", "g0009", ["Ann", "Bob"], {"double_go_money": True})
    with pytest.raises(BadCommand):
        new_game("g1", "g0009", ["Ann", "Bob"], {"deadline": "yes"})


def decline(g):
    """The offered property is declined and nobody bids for it."""
    g.do(type="auction")
    g.do(type="close_auction")


# --- auction every first purchase -------------------------------------------------------------


def test_auction_all_the_banker_immediately_auctions_an_unowned_property_landed_on():
    """G0009 variation: "When anyone lands on an unowned street, railroad or utility, remove their
    right to buy it directly at the printed price. Instead the Banker immediately runs the
    standard open auction: opening bid 10, raises of at least 1, all players including the landing
    player eligible, highest bidder pays the Bank." """
    g = started(options={"auction_all": True})
    g.roll("p1", 1, 2)
    assert g.pending == pending(
        auction={"item": "baltic-avenue", "high_bid": 0, "high_bidder": None}
    )
    assert g.texts()[-1] == (
        "Every first purchase is auctioned: the Banker auctions Baltic Avenue; bids open at 10."
    )
    e = g.refused(DomainError, type="buy")
    assert e.message == (
        "In the auction-every-purchase variation nobody buys directly; the property is auctioned."
    )
    g.refused(DomainError, type="auction")
    g.refused(DomainError, type="bid", player="p1", amount=9)
    g.do(type="bid", player="p1", amount=10)
    g.do(type="bid", player="p2", amount=11)
    g.refused(DomainError, type="bid", player="p3", amount=11)
    g.do(type="bid", player="p1", amount=12)
    g.do(type="close_auction")
    assert g.prop("baltic-avenue") == deed("p1")
    assert g.cashes() == {"p1": 1488, "p2": 1500, "p3": 1500}
    assert g.pending == pending()


def test_auction_all_if_nobody_bids_the_deed_remains_unowned():
    """G0009 variation: "If nobody bids, the deed remains unowned." """
    g = started(options={"auction_all": True})
    g.roll("p1", 2, 3)
    g.do(type="close_auction")
    assert g.prop("reading-railroad") == deed()
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 1500}
    assert g.pending == pending()


def test_auction_all_leaves_rent_trades_mortgages_and_building_unchanged():
    """G0009 variation: "Existing-property rent, trades, mortgage and building rules are
    unchanged, as is the sole-survivor finish." """
    g = started(options={"auction_all": True})
    g.own("p2", "mediterranean-avenue", "baltic-avenue")
    g.roll("p1", 1, 2)
    assert g.pending == pending(
        rent_claims=[
            {"id": "c1", "owner": "p2", "payer": "p1", "property": "baltic-avenue", "amount": 8}
        ]
    )
    g.claim()
    g.do(type="build", property="baltic-avenue")
    assert g.prop("baltic-avenue") == deed("p2", houses=1)
    assert g.cashes() == {"p1": 1492, "p2": 1508 - 50, "p3": 1500}


# --- an agreed deadline -----------------------------------------------------------------------


def test_time_can_only_be_called_in_a_game_with_the_agreed_deadline():
    """G0009 variation: "Before setup choose a stopping time"; without that choice the game has
    "a single survivor"."""
    g = started()
    e = g.refused(DomainError, type="call_time")
    assert e.message == "This game was not set up with the agreed-deadline variation."
    g = started(options={"deadline": True})
    g.roll("p1", 1, 2)
    g.do(type="call_time")
    assert g.pending == pending(
        offer={"player": "p1", "property": "baltic-avenue", "price": 60}, final_round=True
    )
    e = g.refused(DomainError, type="call_time")
    assert e.message == "Time has already been called."


def test_after_time_is_called_the_current_round_finishes_doubles_included_then_the_game_stops():
    """G0009 variation: "At that time finish the current round so each surviving player has had
    the same number of turns, including any doubles sequence, then stop." API: "after `call_time`
    play continues under unchanged rules until the turn would pass back to `turn.first` with
    nothing pending but rent claims"."""
    g = started(options={"deadline": True})
    g.own("p1", "connecticut-avenue")
    g.roll("p1", 1, 2)
    decline(g)
    g.roll("p2", 5, 6)  # Bob: St. Charles Place, on offer
    g.do(type="call_time")
    assert g.state["status"] == "playing"
    decline(g)
    g.roll("p3", 2, 2)  # Cat: Income Tax, and doubles
    assert g.state["status"] == "playing"
    assert g.whose_turn == "p3"
    g.roll("p3", 2, 3)  # Cat: Connecticut Avenue, Ann's; the turn passes back to Ann
    # The round is over; Ann's claim outlives it (API: claims open then do not lapse).
    assert g.state["status"] == "playing"
    assert g.turn["player"] is None
    assert g.pending == pending(
        rent_claims=[
            {
                "id": "c1",
                "owner": "p1",
                "payer": "p3",
                "property": "connecticut-avenue",
                "amount": 8,
            }
        ],
        final_round=True,
    )
    g.claim()
    assert g.state["status"] == "finished"
    assert g.state["scores"] == {"p1": 1508 + 120, "p2": 1500, "p3": 1292}
    assert g.state["winners"] == ["p1"]
    assert g.turn["player"] is None
    assert g.pending == pending()
    assert g.cashes() == {"p1": 1508, "p2": 1500, "p3": 1292}
    assert g.texts()[-1] == (
        "The round is over and the game is scored: Ann 1,628; Bob 1,500; Cat 1,292. Ann wins."
    )


def test_when_time_is_called_as_a_round_ends_the_game_stops_at_once():
    """G0009 variation: "At that time finish the current round ... then stop": when the next roll
    would begin a new round, the round is already finished."""
    g = started(options={"deadline": True})
    g.do(type="call_time")
    assert g.state["status"] == "finished"
    assert g.state["scores"] == {"p1": 1500, "p2": 1500, "p3": 1500}


def test_the_deadline_score_values_cash_deeds_and_half_the_buildings_and_equal_totals_share():
    """G0009 variation: "value each survivor's cash, unmortgaged properties at their printed
    purchase prices, mortgaged properties at their printed mortgage values, and buildings at half
    their purchase costs (a hotel includes its four replaced houses). Get Out of Jail Free cards
    count zero. ... Highest total wins; equal totals share the win." """
    g = started(options={"deadline": True})
    g.own("p1", "park-place", "boardwalk", hotel=True)
    g.own("p1", "reading-railroad", mortgaged=True)
    jail_cards(g, "p1", "chance")
    g.own("p2", "oriental-avenue", "vermont-avenue", "connecticut-avenue", houses=2)
    # Ann: 750 in deeds, 2 x (200 + 4 x 200) / 2 in hotels, 100 mortgaged: 1,850 besides cash.
    # Bob: 320 in deeds and 6 x 25 in houses: 470 besides cash.
    g.set_cash(p1=1000, p2=2380, p3=2000)
    g.do(type="call_time")
    assert g.state["scores"] == {"p1": 2850, "p2": 2850, "p3": 2000}
    assert g.state["winners"] == ["p1", "p2"]
    assert g.texts()[-1] == (
        "The round is over and the game is scored: Ann 2,850; Bob 2,850; "
        "Cat 2,000. Ann and Bob share the win."
    )


def test_after_the_cutoff_nothing_is_sold_traded_or_unmortgaged():
    """G0009 variation: "Do not sell, trade or unmortgage after the cutoff." API: "every further
    command is refused"."""
    g = started(options={"deadline": True})
    g.own("p1", "park-place", "boardwalk", houses=1)
    g.own("p2", "short-line", mortgaged=True)
    g.do(type="call_time")
    assert g.state["status"] == "finished"
    for command in (
        {"type": "sell_building", "property": "boardwalk"},
        {"type": "unmortgage", "property": "short-line"},
        {"type": "mortgage", "property": "boardwalk"},
        trade("p1", "p2", give={"cash": 10}, receive={"properties": ["short-line"]}),
        {"type": "roll", "player": "p1", "dice": [1, 2]},
        {"type": "build", "property": "park-place"},
        {"type": "call_time"},
        {"type": "undo"},
    ):
        e = g.refused(DomainError, **command)
        assert e.message == "The game is over; nothing more can be recorded."


def test_with_the_deadline_a_sole_survivor_still_wins_earlier():
    """G0009 variation: "A normal sole-survivor win ends earlier." """
    g = started(names=("Ann", "Bob"), options={"deadline": True})
    g.own("p1", "short-line", mortgaged=True)
    g.set_cash(p1=0)
    g.roll("p1", 1, 3)  # Income Tax
    g.do(type="call_time")
    g.do(type="bankrupt", player="p1")
    assert g.state["status"] == "finished"
    assert g.state["winners"] == ["p2"]
    assert g.state["scores"] is None


# --- two partnerships -------------------------------------------------------------------------


def test_each_partnership_is_one_player_sharing_one_token_and_one_cash_supply_of_1500():
    """G0009 variation: "Make two pairs before setup. Each pair is one player for rules purposes:
    share one token, one cash supply of 1,500 and all deeds and buildings." API: "the first two
    are one partnership, the last two the other"."""
    s = new_game("g1", "g0009", list(TEAMS), {"teams": True})
    assert s["players"] == [
        {
            "id": "p1",
            "name": "Ann & Bob",
            "members": ["Ann", "Bob"],
            "cash": 1500,
            "position": 0,
            "in_jail": False,
            "jail_attempts": 0,
            "jail_cards": [],
            "eliminated": False,
        },
        {
            "id": "p2",
            "name": "Cat & Dan",
            "members": ["Cat", "Dan"],
            "cash": 1500,
            "position": 0,
            "in_jail": False,
            "jail_attempts": 0,
            "jail_cards": [],
            "eliminated": False,
        },
    ]


@pytest.mark.parametrize("names", [TEAMS[:3], TEAMS + ("Eve",), TEAMS[:2]])
def test_the_partnerships_are_for_exactly_four_players(names):
    """G0009 variation: "House team game for exactly four adults"."""
    with pytest.raises(DomainError) as e:
        new_game("g1", "g0009", list(names), {"teams": True})
    assert e.value.message == "The partnerships variation needs exactly four names: two pairs."


def test_partnerships_alternate_turns_and_partners_alternate_who_rolls():
    """G0009 variation: "The two partnerships alternate turns; within each pair alternate who rolls
    and moves each time that partnership's turn begins. ... Doubles keep the same partnership's
    turn sequence". API: "`turn.roller` names the partner who rolls next"."""
    g = started(names=TEAMS, options={"teams": True})
    assert g.turn == {"player": "p1", "doubles": 0, "first": "p1", "roller": "Ann"}
    g.roll("p1", 2, 2)  # Income Tax, doubles: Ann rolls again
    assert g.turn == {"player": "p1", "doubles": 1, "first": "p1", "roller": "Ann"}
    g.roll("p1", 1, 1)  # Oriental Avenue, doubles again
    decline(g)
    assert g.turn == {"player": "p1", "doubles": 2, "first": "p1", "roller": "Ann"}
    g.roll("p1", 1, 2)  # Connecticut Avenue
    decline(g)
    assert g.turn == {"player": "p2", "doubles": 0, "first": "p1", "roller": "Cat"}
    g.roll("p2", 1, 2)  # Baltic Avenue
    decline(g)
    assert g.turn == {"player": "p1", "doubles": 0, "first": "p1", "roller": "Bob"}
    g.roll("p1", 1, 2)  # Electric Company
    decline(g)
    assert g.turn["roller"] == "Dan"
    g.roll("p2", 1, 2)  # Oriental Avenue
    decline(g)
    assert g.turn["roller"] == "Ann"


def test_jail_attempts_belong_to_the_partnerships_shared_token():
    """G0009 variation: "Jail attempts belong to its shared token." """
    g = started(names=TEAMS, options={"teams": True})
    g.place("p1", 10, in_jail=True)
    g.roll("p1", 1, 2)  # Ann tries
    g.roll("p2", 1, 2)
    decline(g)
    g.roll("p1", 1, 2)  # Bob tries: the second attempt of the same token
    assert g.player("p1")["jail_attempts"] == 2
    assert g.turn["roller"] == "Dan"


def test_partnerships_bid_trade_and_pay_rent_with_their_shared_funds():
    """G0009 variation: "Auctions are between partnerships using their shared funds." and "a deal
    with the other partnership requires both pairs to agree." """
    g = started(names=TEAMS, options={"teams": True})
    g.roll("p1", 1, 2)
    g.do(type="auction")
    g.do(type="bid", player="p2", amount=10)
    g.do(type="bid", player="p1", amount=20)
    g.do(type="close_auction")
    assert g.prop("baltic-avenue") == deed("p1")
    g.do(**trade("p1", "p2", give={"properties": ["baltic-avenue"]}, receive={"cash": 90}))
    assert g.cashes() == {"p1": 1500 - 20 + 90, "p2": 1410}
    assert g.prop("baltic-avenue") == deed("p2")


def test_elimination_removes_a_whole_partnership_and_the_other_partnership_wins():
    """G0009 variation: "Elimination removes a whole partnership; the other partnership wins." """
    g = started(names=TEAMS, options={"teams": True})
    g.set_cash(p1=100)
    g.roll("p1", 1, 3)  # Income Tax, 200
    g.do(type="bankrupt", player="p1")
    assert g.state["status"] == "finished"
    assert g.state["winners"] == ["p2"]
    assert g.player("p1")["eliminated"] is True
    assert g.texts()[-1] == "Cat & Dan is the last player standing and wins."
