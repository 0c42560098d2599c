"""The rules of the contract's 2026-12-01 changes, through the API: malformed is 400 whatever the
state, claims that outlive the agreed deadline's final round, `score_game`, `stop`, no rent on a
mortgaged deed, trade offers, and snapshots holding all of them."""

from __future__ import annotations

import pytest

from banker.rules import replay

THREE = ["Ann", "Bob", "Cy"]


def cashes(state: dict) -> dict:
    return {p["id"]: p["cash"] for p in state["players"]}


def claim(cid, owner, payer, prop, amount) -> dict:
    return {"id": cid, "owner": owner, "payer": payer, "property": prop, "amount": amount}


# --- malformed is 400 whatever the state --------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        {"type": "build", "property": "the-moon"},
        {"type": "trade", "from": "p1", "to": "p2", "give": {"cash": "lots"}},
        {"type": "roll", "player": "p1", "dice": [7, 1]},
        {"type": "propose_trade", "from": "p1"},
        {"type": "accept_trade", "offer": 1},
        {"type": "adjust", "player": "p9", "amount": 5, "reason": "x"},
        {"type": "move", "player": "p1", "position": -1},
        {"type": "draw_card", "deck": "chance", "card": "free-parking-jackpot"},
    ],
)
def test_a_malformed_command_during_setup_is_400_not_the_rules_422(new_game, command):
    g = new_game(THREE)
    g.refused(400, command)


# --- the agreed deadline ------------------------------------------------------------------


def deadline_game(new_game, buy_roll, ann_at=0):
    """Ann buys what her roll reaches, time is called, Bob has his turn: Cy rolls last."""
    g = new_game(THREE, options={"deadline": True})
    g.do({"type": "start", "first": "p1"})
    if ann_at:
        g.do({"type": "move", "player": "p1", "position": ann_at})
    g.do({"type": "roll", "player": "p1", "dice": buy_roll})
    g.do({"type": "buy"})
    g.do({"type": "call_time"})
    g.do({"type": "roll", "player": "p2", "dice": [4, 6]})  # Just Visiting
    return g


def assert_waiting(state: dict, *claims: dict) -> None:
    assert state["status"] == "playing"
    assert state["turn"]["player"] is None
    assert state["pending"]["final_round"] is True
    assert state["pending"]["rent_claims"] == list(claims)
    assert state["winners"] == [] and state["scores"] is None


def test_claims_open_when_the_final_round_ends_stay_claimable_a_street(new_game):
    g = deadline_game(new_game, [3, 5])  # Vermont Avenue
    state = g.do({"type": "roll", "player": "p3", "dice": [3, 5]})["state"]
    assert_waiting(state, claim("c1", "p1", "p3", "vermont-avenue", 6))
    g.refused(422, {"type": "roll", "player": "p1", "dice": [1, 2]}, code="final_round_over")
    state = g.do({"type": "claim_rent", "claim": "c1"})["state"]
    assert state["status"] == "finished"
    assert cashes(state) == {"p1": 1406, "p2": 1500, "p3": 1494}
    assert state["scores"] == {"p1": 1506, "p2": 1500, "p3": 1494}
    assert state["winners"] == ["p1"]  # Ann's win alone, not a three-way tie
    assert state["pending"]["final_round"] is False and state["pending"]["rent_claims"] == []


def test_claims_open_when_the_final_round_ends_stay_claimable_a_railroad(new_game):
    g = deadline_game(new_game, [2, 3])  # Reading Railroad
    state = g.do({"type": "roll", "player": "p3", "dice": [2, 3]})["state"]
    assert_waiting(state, claim("c1", "p1", "p3", "reading-railroad", 25))
    state = g.do({"type": "claim_rent", "claim": "c1"})["state"]
    assert state["scores"] == {"p1": 1325 + 200, "p2": 1500, "p3": 1475}
    assert state["winners"] == ["p1"]


def test_claims_open_when_the_final_round_ends_stay_claimable_a_utility_and_its_rent_roll(
    new_game,
):
    g = deadline_game(new_game, [1, 2], ann_at=9)  # Electric Company
    g.do({"type": "move", "player": "p3", "position": 2})
    state = g.do({"type": "roll", "player": "p3", "dice": [4, 6]})["state"]
    assert state["status"] == "playing" and state["turn"]["player"] == "p1"
    assert state["pending"]["dice"] == {
        "player": "p3",
        "reason": "utility_rent",
        "multiplier": 4,
        "property": "electric-company",
    }
    state = g.do({"type": "rent_roll", "dice": [3, 4]})["state"]
    assert_waiting(state, claim("c1", "p1", "p3", "electric-company", 28))
    state = g.do({"type": "claim_rent", "claim": "c1"})["state"]
    assert cashes(state) == {"p1": 1378, "p2": 1500, "p3": 1472}
    assert state["scores"] == {"p1": 1378 + 150, "p2": 1500, "p3": 1472}


def test_a_claim_that_creates_a_debt_in_the_final_round_is_settled_before_the_score(new_game):
    g = deadline_game(new_game, [3, 5])
    g.do({"type": "adjust", "player": "p3", "amount": -1497, "reason": "test: Cy is short"})
    g.do({"type": "roll", "player": "p3", "dice": [3, 5]})
    state = g.do({"type": "claim_rent", "claim": "c1"})["state"]
    assert state["status"] == "playing" and state["turn"]["player"] is None
    assert state["pending"]["debt"] == {
        "debtor": "p3",
        "creditor": "p1",
        "amount": 6,
        "reason": "rent",
        "can_raise": 0,
    }
    g.refused(422, {"type": "score_game"}, code="debt_pending")
    state = g.do({"type": "bankrupt", "player": "p3"})["state"]
    assert state["status"] == "finished"
    assert cashes(state) == {"p1": 1403, "p2": 1500, "p3": 0}
    assert state["scores"] == {"p1": 1503, "p2": 1500}
    assert state["winners"] == ["p1"]


def test_score_game_with_claims_open_scores_now_and_they_lapse(new_game):
    g = deadline_game(new_game, [3, 5])
    g.refused(422, {"type": "score_game"}, code="not_waiting_for_claims")
    g.do({"type": "roll", "player": "p3", "dice": [3, 5]})
    answer = g.do({"type": "score_game"})
    state = answer["state"]
    assert state["status"] == "finished"
    assert state["pending"]["rent_claims"] == [] and state["turn"]["player"] is None
    assert state["scores"] == {"p1": 1500, "p2": 1500, "p3": 1500}
    assert state["winners"] == ["p1", "p2", "p3"]
    assert [e["text"] for e in answer["events"]] == [
        "The Banker scores the game now.",
        "The 6 rent on Vermont Avenue lapses: the game is over.",
        "The round is over and the game is scored: Ann 1,500; Bob 1,500; Cy 1,500. Ann, Bob and "
        "Cy share the win.",
    ]
    g.refused(422, {"type": "score_game"}, code="game_finished")


# --- stop --------------------------------------------------------------------------------


AFTER_STOP = [
    {"type": "roll", "player": "p2", "dice": [1, 2]},
    {"type": "buy"},
    {"type": "claim_rent", "claim": "c1"},
    {"type": "mortgage", "property": "vermont-avenue"},
    {"type": "adjust", "player": "p1", "amount": 5, "reason": "late"},
    {"type": "move", "player": "p1", "position": 3},
    {"type": "call_time"},
    {"type": "score_game"},
    {"type": "stop"},
    {"type": "propose_trade", "from": "p1", "to": "p2",
     "give": {"properties": ["vermont-avenue"]}, "receive": {"cash": 10}},
]  # fmt: skip


def test_stop_records_an_unfinished_game_and_every_command_but_undo_is_refused(game):
    game.do({"type": "roll", "player": "p1", "dice": [3, 5]})
    game.do({"type": "buy"})
    before = game.state
    state = game.do({"type": "stop"})["state"]
    assert state["status"] == "unfinished"
    assert state["winners"] == [] and state["scores"] is None
    assert state["turn"]["player"] is None
    assert cashes(state) == {"p1": 1400, "p2": 1500}
    assert state["properties"]["vermont-avenue"]["owner"] == "p1"
    for command in AFTER_STOP:
        game.refused(422, command, code="game_stopped")
    state = game.do({"type": "undo"})["state"]
    assert {**state, "version": 0} == {**before, "version": 0}
    assert state["version"] == before["version"] + 2


def test_undo_takes_the_stop_back_even_before_the_first_roll(game):
    game.do({"type": "stop"})
    state = game.do({"type": "undo"})["state"]
    assert state["status"] == "playing" and state["turn"]["player"] == "p1"
    game.refused(422, {"type": "undo"}, code="nothing_to_undo")


# --- no rent on a mortgaged deed ------------------------------------------------------------


def test_claim_rent_is_refused_when_the_deed_is_mortgaged_at_the_moment_of_asking(game):
    game.do({"type": "roll", "player": "p1", "dice": [3, 5]})
    game.do({"type": "buy"})
    game.do({"type": "roll", "player": "p2", "dice": [3, 5]})  # Vermont Avenue, Ann's
    game.do({"type": "mortgage", "property": "vermont-avenue"})
    error = game.refused(422, {"type": "claim_rent", "claim": "c1"}, code="mortgaged")
    assert "No rent is collected on a mortgaged property." in error.message
    assert cashes(game.state) == {"p1": 1450, "p2": 1500}
    game.do({"type": "unmortgage", "property": "vermont-avenue"})  # 55
    state = game.do({"type": "claim_rent", "claim": "c1"})["state"]
    assert cashes(state) == {"p1": 1401, "p2": 1494}  # the amount fixed at landing


# --- trade offers ----------------------------------------------------------------------------


VERMONT_FOR_150 = {
    "from": "p1",
    "to": "p2",
    "give": {"cash": 0, "properties": ["vermont-avenue"], "jail_cards": []},
    "receive": {"cash": 150, "properties": [], "jail_cards": []},
    "unmortgage": [],
}


@pytest.fixture
def vermont(game):
    game.do({"type": "roll", "player": "p1", "dice": [3, 5]})
    game.do({"type": "buy"})
    return game


def test_a_trade_offer_is_proposed_and_accepted_as_trade(vermont):
    state = vermont.do({"type": "propose_trade", **VERMONT_FOR_150})["state"]
    assert state["pending"]["trade_offers"] == [{"id": "o1", **VERMONT_FOR_150}]
    assert cashes(state) == {"p1": 1400, "p2": 1500}
    error = vermont.refused(422, {"type": "roll", "player": "p2", "dice": [1, 2]})
    assert error.code == "trade_offer_pending"
    assert error.message.startswith("Let an auction or trade finish before the next roll")
    answer = vermont.do({"type": "accept_trade", "offer": "o1"}, token=vermont.tokens["p2"])
    assert [e["text"] for e in answer["events"]] == [
        "Bob accepted Ann's offer.",
        "Ann traded Vermont Avenue to Bob for 150.",
    ]
    state = answer["state"]
    assert state["pending"]["trade_offers"] == []
    assert cashes(state) == {"p1": 1550, "p2": 1350}
    assert state["properties"]["vermont-avenue"]["owner"] == "p2"
    vermont.do({"type": "roll", "player": "p2", "dice": [1, 2]})


def test_a_trade_offer_declined_or_withdrawn_is_removed(vermont):
    vermont.do({"type": "propose_trade", **VERMONT_FOR_150})
    vermont.do({"type": "propose_trade", **VERMONT_FOR_150, "receive": {"cash": 120}})
    no = {"type": "decline_trade", "offer": "o1"}
    state = vermont.do(no, token=vermont.tokens["p2"])["state"]  # Bob says no from his phone
    assert [o["id"] for o in state["pending"]["trade_offers"]] == ["o2"]
    withdraw = {"type": "decline_trade", "offer": "o2"}
    state = vermont.do(withdraw, token=vermont.tokens["p1"])["state"]  # Ann withdraws it
    assert state["pending"]["trade_offers"] == []
    assert cashes(state) == {"p1": 1400, "p2": 1500}
    vermont.refused(422, {"type": "accept_trade", "offer": "o2"}, code="no_such_offer")
    vermont.refused(422, {"type": "decline_trade", "offer": "o7"}, code="no_such_offer")


def test_a_trade_offer_no_longer_possible_is_refused_and_kept(vermont):
    vermont.do({"type": "propose_trade", **VERMONT_FOR_150})
    vermont.do({"type": "adjust", "player": "p2", "amount": -1400, "reason": "test: Bob is short"})
    error = vermont.refused(422, {"type": "accept_trade", "offer": "o1"}, code="insufficient_cash")
    assert error.message == "Bob has only 100 in cash."
    assert vermont.state["pending"]["trade_offers"] == [{"id": "o1", **VERMONT_FOR_150}]


def test_a_trade_offer_that_trade_would_refuse_is_refused(vermont):
    bad = {**VERMONT_FOR_150, "give": {"properties": ["boardwalk"]}}
    error = vermont.refused(422, {"type": "propose_trade", **bad}, code="not_owner")
    assert error.message == "Ann does not own Boardwalk."


def test_a_trade_offer_is_dropped_when_a_side_is_eliminated(new_game):
    g = new_game(THREE)
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [3, 5]})
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [4, 6]})
    g.do({"type": "roll", "player": "p3", "dice": [3, 5]})  # Vermont Avenue: claim c1
    to_cy = {**VERMONT_FOR_150, "to": "p3"}
    g.do({"type": "propose_trade", **to_cy, "receive": {"cash": 1}})
    g.do({"type": "propose_trade", **VERMONT_FOR_150})
    g.do({"type": "adjust", "player": "p3", "amount": -1500, "reason": "test: Cy is broke"})
    g.do({"type": "claim_rent", "claim": "c1"})
    state = g.do({"type": "bankrupt", "player": "p3"})["state"]
    assert [o["id"] for o in state["pending"]["trade_offers"]] == ["o2"]


# --- snapshots --------------------------------------------------------------------------------


def resume(g) -> dict:
    r = g.table.client.get(f"/api/v1/games/{g.id}/snapshot", headers=g.auth())
    assert r.status_code == 200
    doc = r.get_json()
    r = g.table.client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_a_paused_game_with_an_open_offer_or_stopped_resumes_exactly(vermont, client):
    vermont.do({"type": "propose_trade", **VERMONT_FOR_150})
    created = resume(vermont)
    assert created["state"]["pending"]["trade_offers"] == [{"id": "o1", **VERMONT_FOR_150}]
    vermont.do({"type": "stop"})
    created = resume(vermont)
    assert created["state"]["status"] == "unfinished"
    r = client.post(
        f"/api/v1/games/{created['game_id']}/commands",
        json={"type": "undo"},
        headers={"Authorization": f"Bearer {created['banker_token']}"},
    )
    assert r.status_code == 200 and r.get_json()["state"]["status"] == "playing"


def test_a_snapshot_saved_before_trade_offers_still_resumes(vermont):
    r = vermont.table.client.get(f"/api/v1/games/{vermont.id}/snapshot", headers=vermont.auth())
    doc = r.get_json()

    def as_before(state):
        state["pending"].pop("trade_offers")
        state["options"].pop("players_act")
        state.pop("_offers")

    # Such a snapshot's undo entries held the whole state before their command.
    game = doc["game"]
    commands = [c["command"] for c in doc["commands"]]
    for entry in doc["state"]["_undo"]:
        v = entry.pop("version")
        before = replay(game["id"], game["edition"], game["players"], game["options"], commands[:v])
        entry.pop("changes")
        entry["state"] = {k: x for k, x in before.items() if k != "_undo"}
        as_before(entry["state"])
    as_before(doc["state"])
    r = vermont.table.client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 201, r.get_json()
    state = r.get_json()["state"]
    assert state["pending"]["trade_offers"] == [] and state["options"]["players_act"] is True


def test_a_snapshot_whose_trade_offer_or_status_was_changed_is_refused(vermont):
    vermont.do({"type": "propose_trade", **VERMONT_FOR_150})
    r = vermont.table.client.get(f"/api/v1/games/{vermont.id}/snapshot", headers=vermont.auth())
    doc = r.get_json()
    doc["state"]["pending"]["trade_offers"][0]["receive"]["cash"] = 1
    r = vermont.table.client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 422
    assert r.get_json()["error"]["code"] == "state_mismatch"
    assert "state.pending.trade_offers[0].receive.cash" in r.get_json()["error"]["message"]
    doc = vermont.table.client.get(f"/api/v1/games/{vermont.id}/snapshot", headers=vermont.auth())
    doc = doc.get_json()
    doc["state"]["status"] = "unfinished"
    r = vermont.table.client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "state_mismatch"
