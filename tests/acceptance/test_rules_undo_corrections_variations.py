"""Acceptance: docs/api.md, What the rules settle: undo, corrections and the variations
(partnerships, deadline).

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

from tests.game import Game

from .contract import (
    OFFER,
    pick,
)


def test_undo_reaches_back_to_the_latest_roll_and_no_further(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 4, 6)
    g.roll("p2", 3, 5)
    buy = g.do(type="buy")
    before_buy = g.state
    a = g.do(type="undo")
    s = a["state"]
    assert s["version"] == 5
    assert s["players"][1]["cash"] == 1500 and s["properties"]["vermont-avenue"]["owner"] is None
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p2",
        "property": "vermont-avenue",
        "price": 100,
    }
    assert any(e["text"].startswith("Undid: ") for e in a["events"]), a["events"]
    evs = g.history()
    buy_texts = {e["text"] for e in buy["events"]}
    for e in evs:
        if e["text"] in buy_texts:
            assert e.get("undone") is True, e
    assert evs[-1]["text"].startswith("Undid: ")
    s = g.do(type="undo")["state"]  # the roll itself
    assert s["players"][1]["position"] == 0 and s["turn"]["player"] == "p2"
    assert s["pending"]["offer"] is None
    g.refused(422, {"type": "undo"})  # Ann's roll is beyond reach
    assert g.state["players"][0]["position"] == 10
    assert before_buy["version"] == 4


def test_undo_history_is_cleared_at_each_roll(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    g.roll("p2", 4, 6)
    s = g.do(type="undo")["state"]
    assert s["players"][1]["position"] == 0 and s["turn"]["player"] == "p2"
    g.refused(422, {"type": "undo"})  # Ann's buy is before the undone roll
    assert g.prop("vermont-avenue")["owner"] == "p1"


def test_adjust_and_move(http):
    g = Game(http)
    g.start()
    s = g.adjust("p2", 125, "Bob was short-changed")["state"]
    assert s["players"][1]["cash"] == 1625
    s = g.adjust("p2", -1625, "Bob paid the rest")["state"]
    assert s["players"][1]["cash"] == 0
    g.refused(422, {"type": "adjust", "player": "p2", "amount": -1, "reason": "more"})
    g.refused((400, 422), {"type": "adjust", "player": "p2", "amount": 5, "reason": ""})
    s = g.move("p1", 39)["state"]
    assert s["players"][0]["position"] == 39 and s["players"][0]["cash"] == 1500
    assert s["pending"]["offer"] is None  # nothing resolved
    s = g.move("p1", 5)["state"]  # no GO money passing round
    assert s["players"][0]["position"] == 5 and s["players"][0]["cash"] == 1500
    s = g.move("p1", 30)["state"]  # the Go To Jail space is not resolved either
    assert s["players"][0]["in_jail"] is False and s["players"][0]["position"] == 30
    g.refused((400, 422), {"type": "move", "player": "p1", "position": 40})


def test_partnerships(http):
    g = Game(http, ["Ann", "Bob", "Cat", "Dan"], options={"teams": True})
    created = g.created
    assert len(created["players"]) == 2
    assert [p["name"] for p in created["players"]] == ["Ann & Bob", "Cat & Dan"]
    s = created["state"]
    assert [(p["name"], p["members"], p["cash"]) for p in s["players"]] == [
        ("Ann & Bob", ["Ann", "Bob"], 1500),
        ("Cat & Dan", ["Cat", "Dan"], 1500),
    ]
    t1, t2 = (p["id"] for p in s["players"])
    s = g.do(type="start", first=t1)["state"]
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Ann"}
    s = g.roll(t1, 2, 2)["state"]  # doubles: same partnership, same roller
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Ann"}
    s = g.roll(t1, 3, 3)["state"]  # 4 -> 10
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Ann"}
    s = g.roll(t1, 4, 6)["state"]  # 10 -> 20
    assert pick(s["turn"], ("player", "roller")) == {"player": t2, "roller": "Cat"}
    s = g.roll(t2, 4, 6)["state"]
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Bob"}
    s = g.roll(t1, 4, 6)["state"]  # 20 -> 30: Go To Jail
    assert pick(s["turn"], ("player", "roller")) == {"player": t2, "roller": "Dan"}
    assert s["players"][0]["in_jail"]
    s = g.roll(t2, 4, 6)["state"]
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Ann"}
    # one shared token reads the game
    assert g.read(token=g.tokens[t1])["players"][0]["members"] == ["Ann", "Bob"]


def test_deadline_finishes_the_round_then_refuses_everything(http):
    g = Game(http, ("Ann", "Bob", "Cat"), options={"deadline": True})
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")  # Ann 1400 + Vermont 100
    s = g.do(type="call_time")["state"]
    assert s["pending"]["final_round"] is True and s["status"] == "playing"
    g.roll("p2", 1, 3)  # Income Tax: Bob 1300
    s = g.roll("p3", 3, 5)["state"]  # Vermont: claim open, nothing else pending
    # API (changed 2026-12-01): claims open when the final round ends stay claimable.
    assert s["status"] == "playing" and s["turn"]["player"] is None
    assert s["pending"]["final_round"] is True
    (claim,) = s["pending"]["rent_claims"]
    s = g.do(type="claim_rent", claim=claim["id"])["state"]
    assert s["status"] == "finished"
    assert s["pending"]["rent_claims"] == []
    assert s["scores"] == {"p1": 1506, "p2": 1300, "p3": 1494}
    assert s["winners"] == ["p1"]
    for command in (
        {"type": "roll", "player": "p1", "dice": [1, 2]},
        {"type": "adjust", "player": "p1", "amount": 5, "reason": "late"},
        {"type": "mortgage", "property": "vermont-avenue"},
        {"type": "move", "player": "p1", "position": 3},
        {"type": "undo"},
    ):
        g.refused(422, command)


def test_deadline_waits_for_the_pending_offer(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.deeds_by_rolls(("st-charles-place", "p1"), ("states-avenue", "p1"), ("virginia-avenue", "p1"))
    g.pass_to("p1")
    g.do(type="build", property="st-charles-place")
    g.move("p1", 0)
    g.roll("p1", 4, 6)
    g.do(type="call_time")
    s = g.roll("p2", 3, 5)["state"]  # Bob: 10 -> 18 Tennessee, offer open
    assert s["status"] == "playing" and s["pending"]["offer"] is not None
    s = g.do(type="buy")["state"]
    assert s["status"] == "finished"
    ann = s["players"][0]["cash"]
    # streets at printed prices, the house at half its cost
    assert s["scores"] == {"p1": ann + 140 + 140 + 160 + 50, "p2": 1500 - 180 + 180}


def test_time_called_at_the_start_of_a_round_ends_at_once(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    g.do(type="mortgage", property="vermont-avenue")
    g.roll("p2", 4, 6)
    s = g.do(type="call_time")["state"]
    assert s["status"] == "finished"
    assert s["scores"] == {"p1": 1450 + 50, "p2": 1500}
    assert sorted(s["winners"]) == ["p1", "p2"]


def test_undone_roll_events_are_marked(http):
    g = Game(http)
    g.start()
    rolled = g.roll("p1", 3, 5)
    g.do(type="undo")
    texts = {e["text"] for e in rolled["events"]}
    evs = g.history()
    marked = [e for e in evs if e["text"] in texts]
    assert marked and all(e.get("undone") is True for e in marked)
    assert evs[0].get("undone", False) is False  # the start stays
    assert evs[-1]["text"].startswith("Undid: ") and evs[-1].get("undone", False) is False


def test_deadline_lets_the_last_doubles_sequence_finish(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.roll("p1", 4, 6)
    g.do(type="call_time")
    s = g.roll("p2", 2, 2)["state"]  # Income Tax, doubles: Bob rolls on
    assert s["status"] == "playing" and s["turn"]["player"] == "p2"
    s = g.roll("p2", 3, 3)["state"]
    assert s["status"] == "playing"
    s = g.roll("p2", 4, 6)["state"]
    assert s["status"] == "finished"
    assert s["scores"] == {"p1": 1500, "p2": 1300} and s["winners"] == ["p1"]


def test_deadline_scores_a_hotel_with_its_four_houses(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.deeds_by_rolls(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    for _ in range(4):
        g.do(type="build", property="mediterranean-avenue")
        g.do(type="build", property="baltic-avenue")
    g.do(type="build", property="mediterranean-avenue")
    g.pass_to("p1")
    ann, bob = g.cash("p1"), g.cash("p2")
    s = g.do(type="call_time")["state"]
    assert s["status"] == "finished"
    assert s["scores"] == {"p1": ann + 60 + 60 + (50 + 4 * 50) // 2 + 4 * 50 // 2, "p2": bob}


def test_deadline_when_the_first_player_is_eliminated(http):
    g = Game(http, ("Ann", "Bob", "Cat"), options={"deadline": True})
    g.start()
    g.adjust_to("p1", 10)
    g.roll("p1", 1, 3)  # Income Tax: a debt Ann cannot raise
    g.do(type="bankrupt", player="p1")
    g.roll("p2", 1, 3)  # Bob 1300
    s = g.do(type="call_time")["state"]
    assert s["status"] == "playing"
    s = g.roll("p3", 4, 6)["state"]  # the turn would pass back to Bob, who now begins rounds
    assert s["status"] == "finished"
    assert s["scores"]["p2"] == 1300 and s["scores"]["p3"] == 1500
    assert s["winners"] == ["p3"]


def test_undoing_a_roll_reopens_the_claims_it_lapsed(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    (claim,) = g.roll("p2", 3, 5)["state"]["pending"]["rent_claims"]
    assert g.roll("p3", 4, 6)["state"]["pending"]["rent_claims"] == []
    s = g.do(type="undo")["state"]
    assert s["pending"]["rent_claims"] == [claim]
    assert s["turn"]["player"] == "p3"


def test_time_called_during_the_first_players_doubles_waits_for_the_round(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.roll("p1", 2, 2)  # Income Tax, doubles: Ann's turn goes on
    s = g.do(type="call_time")["state"]
    assert s["status"] == "playing" and s["pending"]["final_round"] is True
    g.refused(422, {"type": "call_time"})  # called already
    g.roll("p1", 3, 3)
    s = g.roll("p1", 4, 6)["state"]
    assert s["status"] == "playing" and s["turn"]["player"] == "p2"
    s = g.roll("p2", 4, 6)["state"]
    assert s["status"] == "finished"
    assert s["scores"] == {"p1": 1300, "p2": 1500} and s["winners"] == ["p2"]
