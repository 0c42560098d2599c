"""Mistakes at the table: undo back to the latest roll, the Banker's correction, moving a token.

G0009 house suggestion: "if a mistake is noticed before the next roll, correct the payment or
movement from the agreed rules. Once later turns have changed the position, pause and agree a fair
correction rather than inventing an official retroactive penalty. The missed-rent deadline still
applies."
"""

from __future__ import annotations

import copy

import pytest

from banker.rules import public_state

from .helpers import NO_PENDING, BadCommand, CoreGame, DomainError, started


def same_game(a: dict, b: dict) -> bool:
    """Equal as the table sees it, the version aside."""
    a, b = public_state(a), public_state(b)
    return {**a, "version": 0} == {**b, "version": 0}


# --- undo -------------------------------------------------------------------------------------


def test_undo_takes_back_the_latest_command_and_names_it():
    """API: "The undo is itself an event ("Undid: Ann bought Vermont Avenue for 100.")" """
    g = started()
    g.roll("p1", 3, 5)
    after_roll = copy.deepcopy(g.state)
    g.do(type="buy")
    bought = g.events[0]["seq"]
    g.do(type="undo")
    assert g.texts() == ["Undid: Ann bought Vermont Avenue for 100."]
    assert g.events[0]["type"] == "undone"
    assert g.events[0]["undid"] == [bought]
    assert g.events[0]["seq"] == bought + 1
    assert g.state["version"] == after_roll["version"] + 2
    assert same_game(g.state, after_roll)
    assert g.prop("vermont-avenue")["owner"] is None
    assert g.cashes()["p1"] == 1500


def test_undo_reaches_back_to_the_latest_roll_that_roll_included_and_no_further():
    """API: "undo reaches back to the latest roll, that roll included, and no further" """
    g = started()
    g.place("p1", 15)
    g.roll("p1", 1, 4)
    before_bobs_roll = copy.deepcopy(g.state)
    g.roll("p2", 3, 5)
    g.do(type="auction")
    g.do(type="bid", player="p3", amount=50)
    g.do(type="close_auction")
    assert g.cashes()["p3"] == 1450
    roll_events = None
    for expected in (
        "Undid: Cat won Vermont Avenue at auction for 50.",
        "Undid: Cat bid 50.",
        "Undid: Bob declined to buy: the Banker auctions Vermont Avenue; bids open at 10.",
        "Undid: Bob rolled 3 and 5.",
    ):
        g.do(type="undo")
        assert g.texts() == [expected]
        roll_events = g.events[0]["undid"]
    assert len(roll_events) == 3  # rolled, landed, offer
    assert same_game(g.state, before_bobs_roll)
    assert g.whose_turn == "p2" and g.position("p2") == 0
    err = g.refused(DomainError, type="undo")
    assert err.code == "nothing_to_undo"


def test_undo_of_a_roll_is_named_by_the_roll_even_when_it_lapsed_a_claim():
    """ "Undid: ..." names the command taken back -- the roll, not the claim it made lapse. Undo
    takes the roll back whole (API), so the lapsed claim is open again: undo is for a roll recorded
    by mistake, and the Banker does not use it to get round "The missed-rent deadline still
    applies." """
    g = started()
    g.own("p2", "vermont-avenue")
    g.roll("p1", 3, 5)
    claim = g.claims[0]
    g.place("p2", 15)
    g.roll("p2", 1, 4)
    assert g.claims == []
    g.do(type="undo")
    assert g.texts() == ["Undid: Bob rolled 1 and 4."]
    assert g.claims == [claim]
    g.refused(DomainError, type="undo")
    g.claim()
    assert g.cashes()["p2"] == 1506


def test_nothing_can_be_undone_before_the_first_roll():
    """API: "the undo history is cleared at each roll" -- and there is none before the first."""
    g = CoreGame()
    g.refused(DomainError, type="undo")
    g.start("p1")
    g.refused(DomainError, type="undo")


def test_undone_event_numbers_are_never_reused():
    """API: "undone events stay in `/events` marked "undone": true." -- so new events take new
    numbers."""
    g = started()
    g.roll("p1", 3, 5)
    roll_seqs = [e["seq"] for e in g.events]
    g.do(type="undo")
    undo_seq = g.events[0]["seq"]
    assert g.events[0]["undid"] == roll_seqs
    g.roll("p1", 1, 2)
    assert min(e["seq"] for e in g.events) == undo_seq + 1


def test_claim_ids_are_unique_within_the_game_even_across_an_undo():
    """API: "Claim ids are strings, unique within the game." """
    g = started()
    g.own("p2", "vermont-avenue")
    g.roll("p1", 3, 5)
    assert [c["id"] for c in g.claims] == ["c1"]
    g.do(type="undo")
    assert g.claims == []
    g.roll("p1", 3, 5)
    assert [c["id"] for c in g.claims] == ["c2"]
    g.refused(DomainError, type="claim_rent", claim="c1")


def test_undo_rises_the_version_like_any_command():
    """API: "`version` ... rises by exactly 1 for each accepted command, `undo` included" """
    g = started()
    g.roll("p1", 3, 5)
    v = g.state["version"]
    g.do(type="undo")
    assert g.state["version"] == v + 1
    g.roll("p1", 3, 5)
    assert g.state["version"] == v + 2


def test_undo_takes_back_a_rolls_jail_and_its_doubles_count():
    """ "On the third doubles roll, go directly to Jail" -- undone, Ann rolls her third again."""
    g = started()
    g.roll("p1", 5, 5)
    g.roll("p1", 5, 5)
    before = copy.deepcopy(g.state)
    g.roll("p1", 6, 6)
    g.do(type="undo")
    assert same_game(g.state, before)
    assert g.turn == {"player": "p1", "doubles": 2, "first": "p1", "roller": "Ann"}
    assert g.player("p1")["in_jail"] is False


def test_corrections_after_a_roll_can_be_undone_too():
    """ "correct the payment or movement" -- a correction is a command like any other."""
    g = started()
    g.place("p1", 15)
    g.roll("p1", 1, 4)
    g.do(type="adjust", player="p1", amount=200, reason="missed GO salary")
    g.do(type="move", player="p1", position=21)
    g.do(type="undo")
    assert g.position("p1") == 20
    g.do(type="undo")
    assert g.cashes()["p1"] == 1500


# --- adjust -----------------------------------------------------------------------------------


def test_the_banker_corrects_a_payment_with_a_reason():
    """ "if a mistake is noticed before the next roll, correct the payment" """
    g = started()
    g.do(type="adjust", player="p2", amount=200, reason="missed GO salary")
    assert g.texts() == ["The Banker gave Bob 200 to correct a mistake: missed GO salary."]
    assert g.cashes() == {"p1": 1500, "p2": 1700, "p3": 1500}
    g.do(type="adjust", player="p2", amount=-1700, reason="  counted twice  ")
    assert g.texts() == ["The Banker took 1,700 from Bob to correct a mistake: counted twice."]
    assert g.cashes()["p2"] == 0
    assert g.pending == NO_PENDING


def test_a_correction_cannot_make_cash_negative():
    """API: "`adjust` may not make cash negative." -- "The game does not use negative balances" """
    g = started()
    err = g.refused(DomainError, type="adjust", player="p1", amount=-1501, reason="oops")
    assert err.code == "negative_cash"


@pytest.mark.parametrize(
    "command",
    [
        {"player": "p1", "amount": 10},
        {"player": "p1", "amount": 10, "reason": ""},
        {"player": "p1", "amount": 10, "reason": "   "},
        {"player": "p1", "amount": 10, "reason": 5},
        {"player": "p1", "amount": 0, "reason": "nothing"},
        {"player": "p1", "amount": "10", "reason": "x"},
        {"player": "p1", "amount": True, "reason": "x"},
        {"player": "p1", "amount": 1.5, "reason": "x"},
        {"player": "p1", "reason": "x"},
        {"player": "p9", "amount": 10, "reason": "x"},
        {"amount": 10, "reason": "x"},
    ],
)
def test_a_correction_needs_a_player_a_whole_amount_and_a_reason(command):
    """ "pause and agree a fair correction" -- the Banker says what and why."""
    g = started()
    g.refused(BadCommand, type="adjust", **command)


def test_corrections_wait_for_the_game_to_start():
    g = CoreGame()
    g.refused(DomainError, type="adjust", player="p1", amount=10, reason="x")
    g.refused(DomainError, type="move", player="p1", position=5)


# --- move -------------------------------------------------------------------------------------


def test_move_puts_a_token_where_it_really_stands_without_go_money():
    """ "correct the ... movement" -- API: "`move`: put a token where it really stands (no GO
    money, nothing resolved)" """
    g = started()
    g.place("p1", 35)
    g.do(type="move", player="p1", position=5)
    assert g.texts() == [
        "The Banker put Ann's token on Reading Railroad (no GO money, nothing resolved)."
    ]
    assert g.position("p1") == 5
    assert g.cashes()["p1"] == 1500
    assert g.pending == NO_PENDING
    assert g.whose_turn == "p1"


@pytest.mark.parametrize("position", [30, 7, 4, 8, 0])
def test_move_resolves_nothing_where_the_token_is_put(position):
    """API: "no GO money, nothing resolved" -- Go to Jail, a card, a tax, an owned street, GO."""
    g = started()
    g.own("p2", "vermont-avenue")
    g.place("p1", 20)
    g.do(type="move", player="p1", position=position)
    assert g.player("p1")["in_jail"] is False
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 1500}
    assert g.pending == NO_PENDING


def test_move_is_refused_for_a_jailed_token():
    """API: "`move` never changes jail state and is refused for a jailed token" """
    g = started()
    g.place("p2", 10, in_jail=True)
    err = g.refused(DomainError, type="move", player="p2", position=11)
    assert err.code == "in_jail"


def test_moving_a_token_onto_the_jail_corner_leaves_it_just_visiting():
    """API: "`move` never changes jail state" """
    g = started()
    g.do(type="move", player="p1", position=10)
    assert (g.position("p1"), g.player("p1")["in_jail"]) == (10, False)


@pytest.mark.parametrize("position", [-1, 40, "5", True, 5.0, None, [5]])
def test_move_needs_a_space_from_0_to_39(position):
    g = started()
    g.refused(BadCommand, type="move", player="p1", position=position)


def test_move_needs_a_known_player():
    g = started()
    g.refused(BadCommand, type="move", player="p7", position=3)
    g.refused(BadCommand, type="move", position=3)
