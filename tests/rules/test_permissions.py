"""Who may send which command (docs/api.md, "Who may send it"), on hand-made states: pure checks."""

from __future__ import annotations

import copy

import pytest

from banker.rules import new_game
from banker.rules.permissions import BANKER_ONLY, NOT_PLAYERS_ACT, player_refusal, view_for


def _state(**options) -> dict:
    state = new_game("g1", "g0009", ["Ann", "Bob", "Cat"], options or None)
    state = copy.deepcopy(state)
    state["status"] = "playing"
    state["pending"].setdefault("trade_offers", [])
    return state


def _with(state: dict, **pending) -> dict:
    state = copy.deepcopy(state)
    state["pending"].update(pending)
    return state


def test_every_banker_command_is_refused_to_a_player_with_a_sentence():
    state = _state()
    for kind in BANKER_ONLY:
        refusal = player_refusal(state, "p1", {"type": kind, "player": "p1"})
        assert refusal and refusal.endswith("."), kind


def test_an_unknown_or_missing_type_is_refused_to_a_player():
    state = _state()
    for command in ({"type": "fly"}, {}, {"type": 3}, ["roll"]):
        assert player_refusal(state, "p1", command)


def test_a_player_may_answer_only_their_own_offer():
    state = _with(_state(), offer={"player": "p1", "property": "vermont-avenue", "price": 100})
    for kind in ("buy", "auction"):
        assert player_refusal(state, "p1", {"type": kind}) is None
        assert player_refusal(state, "p2", {"type": kind}) == (
            "That offer is another player's: only they (or the Banker) may answer it."
        )


def test_with_no_offer_open_a_player_may_not_buy_or_auction():
    for kind in ("buy", "auction"):
        assert player_refusal(_state(), "p2", {"type": kind}) == (
            "No property is on offer to you: there is nothing for you to buy or decline."
        )


@pytest.mark.parametrize("kind", ["bid", "pay_jail_fine", "use_jail_card"])
def test_a_player_acts_only_for_themselves(kind):
    state = _state()
    assert player_refusal(state, "p1", {"type": kind, "player": "p1"}) is None
    assert player_refusal(state, "p1", {"type": kind, "player": "p2"})
    # Missing, wrong-typed or unknown: malformed, the rules' 400.
    for named in (None, 2, "p9"):
        command = {"type": kind} if named is None else {"type": kind, "player": named}
        assert player_refusal(state, "p1", command) is None


@pytest.mark.parametrize("kind", ["build", "sell_building", "mortgage", "unmortgage"])
def test_a_player_builds_sells_and_mortgages_only_their_own_deeds(kind):
    state = _state()
    state["properties"]["boardwalk"]["owner"] = "p1"
    state["properties"]["park-place"]["owner"] = "p2"
    assert player_refusal(state, "p1", {"type": kind, "property": "boardwalk"}) is None
    assert player_refusal(state, "p1", {"type": kind, "property": "park-place"}) == (
        "That deed is not yours: you may build, sell, mortgage and lift only your own."
    )
    assert player_refusal(state, "p1", {"type": kind, "property": "baltic-avenue"})  # the Bank's
    for deed in ("nowhere", 7, ["boardwalk"]):
        assert player_refusal(state, "p1", {"type": kind, "property": deed}) is None
    assert player_refusal(state, "p1", {"type": kind}) is None


def test_a_player_pays_only_their_own_debt():
    debt = {"debtor": "p2", "creditor": None, "amount": 200, "reason": "tax", "can_raise": 0}
    state = _with(_state(), debt=debt)
    assert player_refusal(state, "p2", {"type": "pay_debt"}) is None
    assert player_refusal(state, "p1", {"type": "pay_debt"})
    assert player_refusal(_state(), "p1", {"type": "pay_debt"}) == (
        "You owe nothing now: there is no debt for you to pay."
    )


def test_a_player_claims_only_their_own_rent_and_a_closed_claim_is_the_rules():
    claim = {"id": "c1", "owner": "p1", "payer": "p2", "property": "vermont-avenue", "amount": 6}
    state = _with(_state(), rent_claims=[claim])
    assert player_refusal(state, "p1", {"type": "claim_rent", "claim": "c1"}) is None
    assert player_refusal(state, "p3", {"type": "claim_rent", "claim": "c1"})
    assert player_refusal(state, "p3", {"type": "claim_rent", "claim": "c9"}) is None


def test_trade_offers_are_proposed_from_oneself_and_answered_by_their_sides():
    offer = {"id": "o1", "from": "p1", "to": "p2", "give": {}, "receive": {}, "unmortgage": []}
    state = _with(_state(), trade_offers=[offer])
    assert player_refusal(state, "p1", {"type": "propose_trade", "from": "p1"}) is None
    assert player_refusal(state, "p1", {"type": "propose_trade", "from": "p2"})
    assert player_refusal(state, "p1", {"type": "propose_trade"}) is None
    assert player_refusal(state, "p2", {"type": "accept_trade", "offer": "o1"}) is None
    assert player_refusal(state, "p1", {"type": "accept_trade", "offer": "o1"})
    assert player_refusal(state, "p3", {"type": "accept_trade", "offer": "o1"})
    assert player_refusal(state, "p1", {"type": "decline_trade", "offer": "o1"}) is None
    assert player_refusal(state, "p2", {"type": "decline_trade", "offer": "o1"}) is None
    assert player_refusal(state, "p3", {"type": "decline_trade", "offer": "o1"})
    # Not open (or never issued): the rules' 422, for anyone.
    assert player_refusal(state, "p3", {"type": "accept_trade", "offer": "o9"}) is None


def test_without_players_act_a_player_may_only_claim_rent():
    state = _state()
    state["options"]["players_act"] = False  # the core's option (helper `rules`)
    state["properties"]["boardwalk"]["owner"] = "p1"
    assert player_refusal(state, "p1", {"type": "mortgage", "property": "boardwalk"}) == (
        NOT_PLAYERS_ACT
    )
    assert player_refusal(state, "p1", {"type": "bid", "player": "p1", "amount": 5})
    assert player_refusal(state, "p1", {"type": "claim_rent", "claim": "c1"}) is None


def test_private_cash_hides_others_cash_from_players_and_the_display():
    state = _state(private_cash=True)
    state["players"][1]["cash"] = 1234
    assert [p["cash"] for p in view_for(state, "banker")["players"]] == [1500, 1234, 1500]
    assert [p["cash"] for p in view_for(state, "p2")["players"]] == [None, 1234, None]
    assert [p["cash"] for p in view_for(state, "display")["players"]] == [None, None, None]
    assert state["players"][0]["cash"] == 1500  # the state itself is untouched


def test_without_private_cash_everyone_sees_all_cash():
    state = _state()
    assert view_for(state, "display") == view_for(state, "banker")
    assert [p["cash"] for p in view_for(state, "p1")["players"]] == [1500, 1500, 1500]
