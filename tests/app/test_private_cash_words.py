"""private_cash in words (docs/api.md, `private_cash`): no sentence a player's token or the
display receives — an event's `text` in a command's answer or in GET …/events, a refusal's
`message`, a page — states another player's cash in hand. The Banker and the player whose cash
it is hear the figure; amounts that change hands stay public."""

from __future__ import annotations

import pytest

THREE = ["Ann", "Bob", "Cat"]
ANN_SHORT = (
    "Ann cannot pay 200 to the Bank (Income Tax) with 150 in cash: a debt until raised or bankrupt."  # noqa: E501
)
ANN_SHORT_UNSAID = (
    "Ann cannot pay 200 to the Bank (Income Tax) from their cash: a debt until raised or bankrupt."
)


def display_token(g) -> str:
    return g.created["display_url"].rpartition("/")[2]


@pytest.fixture
def taxed(new_game):
    """Ann, with 150 in cash, lands on Income Tax: a debt of 200 to the Bank."""
    g = new_game(THREE, options={"private_cash": True})
    g.start("p1")
    g.adjust_to("p1", 150)
    g.roll("p1", 1, 3)
    assert g.pending["debt"]["debtor"] == "p1"
    return g


def texts(g, token) -> list[str]:
    return [e["text"] for e in g.read("/events", token)]


def test_the_events_say_anothers_cash_only_to_the_banker_and_that_player(taxed):
    g = taxed
    assert ANN_SHORT in texts(g, g.banker_token)
    assert ANN_SHORT in texts(g, g.tokens["p1"])
    for token in (g.tokens["p2"], g.tokens["p3"], display_token(g)):
        said = texts(g, token)
        assert ANN_SHORT_UNSAID in said and ANN_SHORT not in said
        assert not any("150" in t for t in said), said
    # Everything else reads the same, amounts that change hands included.
    banker, bob = texts(g, g.banker_token), texts(g, g.tokens["p2"])
    assert [b for b in banker if b != ANN_SHORT] == [b for b in bob if b != ANN_SHORT_UNSAID]


def test_without_private_cash_everyone_hears_the_figure(new_game):
    g = new_game(THREE)
    g.start("p1")
    g.adjust_to("p1", 150)
    g.roll("p1", 1, 3)
    assert ANN_SHORT in texts(g, g.tokens["p2"])
    assert ANN_SHORT in texts(g, display_token(g))


def test_a_command_answer_to_a_player_words_the_others_cash_without_the_figure(new_game):
    """Bob asks his rent from his phone; Ann lacks it: his answer says she cannot pay, not how
    much she has. The same answer replayed for his Idempotency-Key says it the same way."""
    g = new_game(THREE, options={"private_cash": True})
    g.start("p1")
    g.deeds_by_rolls(("vermont-avenue", "p2"))
    g.pass_to("p1")
    g.adjust_to("p1", 3)
    g.land("p1", 8)
    (claim,) = g.claims
    bob = g.tokens["p2"]
    command = {"type": "claim_rent", "claim": claim["id"]}
    answer = g.do(command, token=bob, headers={"Idempotency-Key": "claim-1"})
    said = [e["text"] for e in answer["events"]]
    assert said == [
        "Bob asked Ann for 6 rent on Vermont Avenue.",
        "Ann cannot pay 6 to Bob (rent on Vermont Avenue) from their cash: a debt until raised "
        "or bankrupt.",
    ]
    again = g.send(command, token=bob, headers={"Idempotency-Key": "claim-1"})
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == answer
    assert "with 3 in cash" in texts(g, g.banker_token)[-1]


def test_a_refusal_to_a_player_does_not_state_anothers_cash(new_game):
    """ "Ann has only 1477 in cash" must not reach Bob: he hears that Ann lacks the cash."""
    g = new_game(THREE, options={"private_cash": True})
    g.start("p1")
    g.deeds_by_rolls(("vermont-avenue", "p2"))
    offer = {
        "type": "propose_trade",
        "from": "p1",
        "to": "p2",
        "give": {"cash": 1400},
        "receive": {"properties": ["vermont-avenue"]},
    }
    g.do(offer, token=g.tokens["p1"])
    g.adjust_to("p1", 1377)
    accept = {"type": "accept_trade", "offer": g.pending["trade_offers"][0]["id"]}
    bob = g.refused(422, accept, token=g.tokens["p2"], code="insufficient_cash")
    assert bob.message == "Ann does not have the 1,400 in cash this trade hands over."
    banker = g.refused(422, accept, code="insufficient_cash")
    assert banker.message == "Ann has only 1,377 in cash."


def test_pages_of_other_players_and_the_display_do_not_state_anothers_cash(taxed, client):
    g = taxed
    bob = client.get(f"/join/{g.tokens['p2']}").get_data(as_text=True)
    ann = client.get(f"/join/{g.tokens['p1']}").get_data(as_text=True)
    board = client.get(f"/display/{display_token(g)}").get_data(as_text=True)
    assert "with 150 in cash" in ann
    for page in (bob, board):
        assert "with 150 in cash" not in page
        assert "from their cash" in page
