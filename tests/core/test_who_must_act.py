"""What is pending and who must act (`rules.to_act`): one answer for every page. The guide:
"Let an auction or trade finish before the next roll"; the agreed deadline: "At that time finish
the current round ... then stop" — no sentence promises a roll that will not come, and the final
round is said until the game is scored."""

from __future__ import annotations

from banker.rules import pending_in_words, to_act
from tests.table_core import CoreGame


def started(names=("Ann", "Bob", "Cy"), options=None) -> CoreGame:
    g = CoreGame(names, options=options)
    g.start("p1")
    return g


def now(g) -> tuple[str, list, str]:
    said = to_act(g.state)
    return said["now"]["kind"], said["who"], said["sentence"]


def test_the_roller_acts_when_nothing_is_pending():
    g = started()
    assert now(g) == ("roll", ["p1"], "Ann rolls next.")
    assert to_act(g.state)["pending"] == []
    assert to_act(g.state)["then"]["banker"] is True  # the Banker records the dice


def test_the_one_offered_a_deed_acts_then_the_bidders_while_the_banker_holds_the_hammer():
    g = started()
    g.roll("p1", 1, 2)  # Baltic Avenue
    assert now(g) == ("offer", ["p1"], "Ann may buy Baltic Avenue for 60 or put it up for auction.")
    g.do(type="auction")
    kind, who, sentence = now(g)
    assert (kind, who) == ("auction", ["p1", "p2", "p3"])
    assert sentence == "The Banker is auctioning Baltic Avenue: no bid yet (bids open at 10)."
    assert to_act(g.state)["then"]["sentence"] == "Bob rolls next."


def test_a_building_auctions_bidders_are_those_who_could_place_it():
    g = started()
    g.own("p2", "oriental-avenue", "vermont-avenue", "connecticut-avenue")
    g.do(type="building_auction", kind="house")
    assert now(g)[:2] == ("auction", ["p2"])


def test_the_debtor_acts_before_anything_else():
    g = started()
    g.set_cash(p1=20)
    g.own("p2", "reading-railroad")
    g.own("p3", "oriental-avenue")
    g.roll("p1", 1, 3)  # Income Tax: Ann owes the Bank 200
    g.do(
        type="propose_trade", **{"from": "p3", "to": "p2"},
        give={"properties": ["oriental-avenue"]},
    )  # fmt: skip
    said = to_act(g.state)
    assert [i["kind"] for i in said["pending"]] == ["debt", "trade_offer"]
    assert now(g) == (
        "debt",
        ["p1"],
        "Ann owes the Bank 200: raise the cash and pay it, or go bankrupt.",
    )
    assert said["pending"][1]["who"] == ["p2"] and said["pending"][1]["offer"] == "o1"


def test_the_card_drawer_and_the_utility_roller_act_and_the_banker_records_it():
    g = started()
    g.roll("p1", 3, 4)  # Chance
    assert now(g) == ("card", ["p1"], "Ann draws a Chance card.")
    assert to_act(g.state)["now"]["banker"] is True
    g.own("p3", "electric-company")
    g.draw("chance", "advance-to-nearest-utility")
    assert now(g)[:2] == ("dice", ["p1"])


def test_a_rent_claim_may_be_asked_but_never_holds_the_roll():
    g = started()
    g.own("p1", "vermont-avenue")
    g.roll("p1", 4, 6)
    g.roll("p2", 3, 5)  # Vermont Avenue, Ann's
    said = to_act(g.state)
    assert [(i["kind"], i["who"], i["claim"]) for i in said["pending"]] == [("claim", ["p1"], "c1")]
    assert now(g) == ("roll", ["p3"], "Cy rolls next.")


def test_a_jailed_roller_hears_their_choices():
    g = started()
    g.roll("p1", 3, 4)
    g.draw("chance", "go-to-jail")
    g.roll("p2", 4, 6)
    g.roll("p3", 4, 6)
    assert now(g) == (
        "roll", ["p1"], "Ann rolls next, in Jail: pay 50, use a card or try for doubles."
    )  # fmt: skip


def test_partners_the_roller_is_named():
    g = CoreGame(("Ann", "Bob", "Cat", "Dan"), options={"teams": True})
    g.start("p2")
    assert now(g) == ("roll", ["p2"], "Cat rolls next.")


# --- the agreed deadline: the final round is said until scored, no roll promised -----------


def deadline(g_names=("Ann", "Bob", "Cy")):
    g = started(g_names, {"deadline": True})
    g.roll("p1", 4, 6)
    g.do(type="call_time")
    return g


FINAL_ROUND = "Time is called: the round is being finished, then the game is scored."


def test_during_the_last_decision_no_sentence_promises_a_roll_that_will_not_come():
    """Cy, the last to roll in the final round, lands on Baltic Avenue: the turn has passed back
    to Ann, but nobody rolls again."""
    g = deadline()
    g.roll("p2", 4, 6)
    g.roll("p3", 1, 2)  # Baltic Avenue: Cy decides; then the round is over
    said = to_act(g.state)
    assert said["phase_sentence"] == FINAL_ROUND
    assert said["now"]["kind"] == "offer"
    assert said["then"] == {
        "kind": "round_end",
        "who": [],
        "banker": True,
        "sentence": "Then the final round is over and the game is scored.",
    }
    everything = [said["sentence"], said["then"]["sentence"], *pending_in_words(g.state)]
    assert not any("rolls" in s for s in everything), everything
    assert pending_in_words(g.state)[0] == FINAL_ROUND


def test_the_final_round_is_said_until_the_game_is_scored():
    g = deadline()
    assert to_act(g.state)["phase_sentence"] == FINAL_ROUND
    assert now(g) == ("roll", ["p2"], "Bob rolls next.")
    g.own("p1", "vermont-avenue")
    g.roll("p2", 4, 6)
    g.roll("p3", 3, 5)  # Vermont Avenue, Ann's: the round is over, the claim waits
    said = to_act(g.state)
    assert said["phase"] == "claims_wait"
    assert said["then"] is None
    assert (said["now"]["kind"], said["who"]) == ("claim", ["p1"])
    assert said["sentence"] == "Final round over: waiting for rent claims."
    g.claim("c1")
    said = to_act(g.state)
    assert (said["phase"], said["now"], said["who"]) == ("finished", None, [])
    assert said["sentence"] == "The game is over."


def test_before_the_start_and_after_a_stop_nobody_acts_and_the_phase_says_why():
    g = CoreGame()
    said = to_act(g.state)
    assert (said["now"], said["who"]) == (None, [])
    assert said["sentence"] == "The game has not started: record who won the opening roll."
    g.start("p1")
    g.do(type="stop")
    assert to_act(g.state)["sentence"] == "The game was stopped early: unfinished, no winner."
