"""What the game waits for, in sentences (`pending_in_words`), for every page to show."""

from __future__ import annotations

from banker.rules import pending_in_words

from .holdings_helpers import started, trade


def test_each_thing_pending_is_one_sentence_naming_players_deeds_and_amounts():
    g = started()
    g.own("p1", "vermont-avenue")
    g.roll("p1", 4, 6)
    g.roll("p2", 3, 5)  # Bob on Ann's Vermont Avenue: a claim
    g.roll("p3", 1, 2)  # Cat on Baltic Avenue, on offer; Bob's claim lapses
    g.own("p1", "oriental-avenue")
    g.do(**{**trade("p1", "p2", {"properties": ["oriental-avenue"]}, {"cash": 100}),
            "type": "propose_trade"})  # fmt: skip
    assert pending_in_words(g.state) == [
        "Cat may buy Baltic Avenue for 60 or put it up for auction.",
        "A trade offer: Ann gives Oriental Avenue to Bob for 100; Bob answers.",
    ]
    g.do(type="auction")
    g.do(type="bid", player="p2", amount=12)
    assert (
        pending_in_words(g.state)[0]
        == "The Banker is auctioning Baltic Avenue: high bid 12 by Bob."
    )


def test_the_deadlines_waiting_claims_and_a_stop_are_said_first():
    g = started(names=("Ann", "Bob", "Cy"), options={"deadline": True})
    g.own("p1", "vermont-avenue")
    g.roll("p1", 4, 6)
    g.do(type="call_time")
    assert pending_in_words(g.state) == [
        "Time is called: the round is being finished, then the game is scored."
    ]
    g.roll("p2", 4, 6)
    g.roll("p3", 3, 5)
    assert pending_in_words(g.state) == [
        "Final round over: waiting for rent claims.",
        "Ann may ask Cy for 6 rent on Vermont Avenue.",
    ]
    g.do(type="undo")
    g.do(type="stop")
    assert pending_in_words(g.state) == ["The game was stopped early: unfinished, no winner."]
