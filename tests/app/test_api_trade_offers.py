"""Trade offers from the players' own phones (docs/api.md, "Who may send it"): propose from oneself,
accept as its `to`, decline or withdraw as either side; the Banker may answer for either."""

from __future__ import annotations

import pytest

from banker.rules import BadCommand, apply, new_game

ROLL_TO_BALTIC = {"type": "roll", "player": "p1", "dice": [1, 2]}


def _core_has_trade_offers() -> bool:
    state = new_game("g", "g0009", ["Ann", "Bob"])
    try:
        apply(state, {"type": "decline_trade", "offer": "o1"})
    except BadCommand as e:
        return e.code != "unknown_command"
    except Exception:
        return True
    return True


pytestmark = pytest.mark.skipif(
    not _core_has_trade_offers(), reason="the core's trade offers (helper rules) are not merged"
)


def deal(**changes) -> dict:
    """Ann offers Bob Baltic Avenue for 50."""
    return {
        "type": "propose_trade",
        "from": "p1",
        "to": "p2",
        "give": {"cash": 0, "properties": ["baltic-avenue"], "jail_cards": []},
        "receive": {"cash": 50, "properties": [], "jail_cards": []},
        "unmortgage": [],
        **changes,
    }


@pytest.fixture
def owned(new_game):
    """Ann, Bob and Cat; Ann owns Baltic Avenue; Bob's turn to roll."""
    g = new_game(["Ann", "Bob", "Cat"])
    g.do({"type": "start", "first": "p1"})
    g.do(ROLL_TO_BALTIC)
    g.do({"type": "buy"})
    return g


def refused_403(g, command, token):
    g.refused(403, command, token=token, code="banker_only")


def offers(g) -> list[dict]:
    return g.state["pending"]["trade_offers"]


def test_a_player_proposes_only_from_themselves(owned):
    refused_403(owned, deal(), owned.tokens["p2"])
    refused_403(owned, deal(), owned.tokens["p3"])
    answer = owned.do(deal(), token=owned.tokens["p1"])
    (offer,) = answer["state"]["pending"]["trade_offers"]
    assert isinstance(offer["id"], str)
    assert (offer["from"], offer["to"]) == ("p1", "p2")
    assert offer["give"]["properties"] == ["baltic-avenue"]
    assert offer["receive"]["cash"] == 50


def test_only_the_offers_to_accepts_it_and_it_is_carried_out_as_a_trade(owned):
    owned.do(deal(), token=owned.tokens["p1"])
    (offer,) = offers(owned)
    accept = {"type": "accept_trade", "offer": offer["id"]}
    refused_403(owned, accept, owned.tokens["p1"])
    refused_403(owned, accept, owned.tokens["p3"])
    owned.do(accept, token=owned.tokens["p2"])
    state = owned.state
    assert state["properties"]["baltic-avenue"]["owner"] == "p2"
    cash = {p["id"]: p["cash"] for p in state["players"]}
    assert cash == {"p1": 1500 - 60 + 50, "p2": 1500 - 50, "p3": 1500}
    assert state["pending"]["trade_offers"] == []
    # No longer open: the rules' 422, for its side as for the Banker.
    r = owned.send(accept, token=owned.tokens["p2"])
    assert r.status_code == 422


def test_either_side_declines_or_withdraws_and_no_one_else(owned):
    owned.do(deal(), token=owned.tokens["p1"])
    owned.do(
        deal(receive={"cash": 70, "properties": [], "jail_cards": []}), token=owned.tokens["p1"]
    )
    first, second = offers(owned)
    refused_403(owned, {"type": "decline_trade", "offer": first["id"]}, owned.tokens["p3"])
    owned.do({"type": "decline_trade", "offer": first["id"]}, token=owned.tokens["p2"])
    assert [e["text"] for e in owned.events] == [
        "Bob declined Ann's offer: Ann gives Baltic Avenue to Bob for 50."
    ]
    owned.do({"type": "decline_trade", "offer": second["id"]}, token=owned.tokens["p1"])
    assert [e["text"] for e in owned.events] == [
        "Ann withdrew their offer to Bob: Ann gives Baltic Avenue to Bob for 70."
    ]
    assert offers(owned) == []
    assert owned.state["properties"]["baltic-avenue"]["owner"] == "p1"


def test_the_banker_may_answer_an_offer_for_either_side(owned):
    owned.do(deal(), token=owned.tokens["p1"])
    (offer,) = offers(owned)
    owned.do({"type": "accept_trade", "offer": offer["id"]})
    assert owned.state["properties"]["baltic-avenue"]["owner"] == "p2"


def test_an_offer_no_longer_possible_is_the_rules_422_and_stays_open(owned):
    owned.do(deal(), token=owned.tokens["p1"])
    (offer,) = offers(owned)
    owned.do({"type": "adjust", "player": "p2", "amount": -1460, "reason": "bench"})
    r = owned.send({"type": "accept_trade", "offer": offer["id"]}, token=owned.tokens["p2"])
    assert r.status_code == 422
    assert offers(owned) == [offer]


def test_a_proposal_trade_would_refuse_is_the_rules_422(owned):
    bad = deal(give={"cash": 0, "properties": ["boardwalk"], "jail_cards": []})
    r = owned.send(bad, token=owned.tokens["p1"])
    assert r.status_code == 422
    assert offers(owned) == []


def test_a_snapshot_resumes_an_offer_withdrawn_and_one_declined_in_their_own_words(owned):
    """A snapshot does not say who sent a command: its replay finds the words it recorded."""
    owned.do(deal(), token=owned.tokens["p1"])
    owned.do(deal(), token=owned.tokens["p1"])
    first, second = offers(owned)
    owned.do({"type": "decline_trade", "offer": first["id"]}, token=owned.tokens["p1"])
    owned.do({"type": "decline_trade", "offer": second["id"]}, token=owned.tokens["p2"])
    client = owned.table.client
    doc = client.get(f"/api/v1/games/{owned.id}/snapshot", headers=owned.auth()).get_json()
    r = client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 201, r.get_json()
    resumed = r.get_json()
    history = client.get(
        f"/api/v1/games/{resumed['game_id']}/events",
        headers={"Authorization": f"Bearer {resumed['banker_token']}"},
    ).get_json()
    texts = [e["text"] for e in history]
    deal_said = "Ann gives Baltic Avenue to Bob for 50."
    assert texts[-2:] == [
        f"Ann withdrew their offer to Bob: {deal_said}",
        f"Bob declined Ann's offer: {deal_said}",
    ]
