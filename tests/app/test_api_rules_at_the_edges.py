"""The rules at the edges, through the API and the players' own tokens: the deadline's cutoff
holds for everyone but the debtor, a claim asked while a debt is pending, an offer never
changes under its recipient, at most 5 offers open per player (docs/api.md, "What the rules
settle"; G0009: "Do not sell, trade or unmortgage after the cutoff")."""

from __future__ import annotations

import pytest

THREE = ["Ann", "Bob", "Cy"]


def cashes(g) -> dict:
    return {p["id"]: p["cash"] for p in g.state["players"]}


def propose(frm, to, give=None, receive=None) -> dict:
    side = {"cash": 0, "properties": [], "jail_cards": []}
    return {
        "type": "propose_trade",
        "from": frm,
        "to": to,
        "give": {**side, **(give or {})},
        "receive": {**side, **(receive or {})},
    }


@pytest.fixture
def cutoff(new_game):
    """Deadline game: Ann owns Vermont Avenue, Bob Reading Railroad, Cy Baltic and Mediterranean
    Avenues. Cy, with 3 in cash, lands on Vermont Avenue as the final round ends and Ann asks
    her 6 from her own phone: Cy owes Ann 6."""
    g = new_game(THREE, options={"deadline": True})
    g.start("p1")
    g.deeds_by_rolls(
        ("vermont-avenue", "p1"),
        ("reading-railroad", "p2"),
        ("baltic-avenue", "p3"),
        ("mediterranean-avenue", "p3"),
    )
    g.do({"type": "call_time"})
    g.pass_to("p3")
    g.adjust_to("p3", 3)
    g.land("p3", 8)  # Vermont Avenue: the turn would pass back to Ann, the round is over
    g.claim(token=g.tokens["p1"])
    assert g.pending["debt"]["debtor"] == "p3" and g.pending["final_round"] is True
    return g


def test_after_the_cutoff_others_may_not_sell_mortgage_or_trade_while_a_debtor_settles(cutoff):
    """Bob mortgaged Reading Railroad, Ann offered Bob 250 for it and the Banker recorded that
    trade: each would move points of the final score. Each is 422 `final_round_over`."""
    g = cutoff
    g.refused(
        422, {"type": "mortgage", "property": "reading-railroad"}, token=g.tokens["p2"],
        code="final_round_over",
    )  # fmt: skip
    rr = propose("p1", "p2", give={"cash": 250}, receive={"properties": ["reading-railroad"]})
    g.refused(422, rr, token=g.tokens["p1"], code="final_round_over")
    g.refused(422, {**rr, "type": "trade"}, code="final_round_over")
    g.refused(422, {"type": "mortgage", "property": "reading-railroad"}, code="final_round_over")


def test_the_debtor_raises_cash_from_their_own_phone_after_the_cutoff(cutoff):
    """docs/api.md: a deal "only with the debtor as one of its two sides, sent by the Banker or
    by either side's own token"."""
    g = cutoff
    cy, bob = g.tokens["p3"], g.tokens["p2"]
    medi = propose("p3", "p2", give={"properties": ["mediterranean-avenue"]}, receive={"cash": 40})
    g.do(medi, token=cy)
    g.do({"type": "accept_trade", "offer": g.pending["trade_offers"][0]["id"]}, token=bob)
    g.do({"type": "mortgage", "property": "baltic-avenue"}, token=cy)
    state = g.do({"type": "pay_debt"}, token=cy)["state"]
    assert state["status"] == "finished"
    assert state["properties"]["mediterranean-avenue"]["owner"] == "p2"
    assert cashes(g)["p3"] == 3 + 40 + 30 - 6


def test_a_claim_asked_while_a_debt_is_pending_is_paid_at_once_when_the_cash_covers_it(new_game):
    """G0009: "pay rent when its owner asks before the next player rolls". Ann rolls doubles onto
    Bob's Pennsylvania Avenue, then onto Luxury Tax with 50 in cash; Bob asks from his phone."""
    g = new_game(THREE)
    g.start("p1")
    g.deeds_by_rolls(("pennsylvania-avenue", "p2"))
    g.pass_to("p1")
    g.adjust_to("p1", 50)
    g.land("p1", 34, 1, 1)  # Pennsylvania Avenue: Bob may ask 28
    g.roll("p1", 2, 2)  # Luxury Tax: Ann owes the Bank 100
    assert g.pending["debt"]["debtor"] == "p1"
    answer = g.claim(token=g.tokens["p2"])
    assert [e["text"] for e in answer["events"]] == [
        "Bob asked Ann for 28 rent on Pennsylvania Avenue.",
        "Ann paid Bob 28 (rent on Pennsylvania Avenue).",
    ]
    assert cashes(g)["p1"] == 22
    assert g.pending["debt"]["amount"] == 100


def test_a_claim_the_cash_does_not_cover_is_422_debt_pending_and_stays_open(new_game):
    g = new_game(THREE)
    g.start("p1")
    g.deeds_by_rolls(("pennsylvania-avenue", "p2"))
    g.pass_to("p1")
    g.adjust_to("p1", 20)
    g.land("p1", 34, 1, 1)
    g.roll("p1", 2, 2)
    (claim,) = g.claims
    said = g.refused(
        422, {"type": "claim_rent", "claim": claim["id"]}, token=g.tokens["p2"],
        code="debt_pending",
    )  # fmt: skip
    assert "the claim stays open until that debt is settled" in said.message
    g.do({"type": "bankrupt", "player": "p1"})
    assert g.claims == []
    texts = [e["text"] for e in g.history()]
    assert texts[-1] == "The 28 rent on Pennsylvania Avenue lapses: Ann is out of the game."


@pytest.mark.parametrize(
    ("edition", "names", "options"),
    [
        ("g0009", ["Ann", "Bob"], None),
        ("classic", ["Ann", "Bob"], None),
        ("g0009", ["Ann", "Bob", "Cy", "Di"], {"teams": True}),
    ],
)
def test_an_offer_is_withdrawn_when_its_deed_is_mortgaged_and_cannot_then_be_accepted(
    new_game, edition, names, options
):
    """Ann offered Baltic Avenue for 100, then mortgaged it: Bob must not pay 100 for a
    mortgaged deed while Ann keeps the 30, nor, in classic, 10% besides."""
    g = new_game(names, edition, options)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))
    ann, bob = g.tokens["p1"], g.tokens["p2"]
    g.do(
        propose("p1", "p2", give={"properties": ["baltic-avenue"]}, receive={"cash": 100}),
        token=ann,
    )
    before = cashes(g)
    answer = g.do({"type": "mortgage", "property": "baltic-avenue"}, token=ann)
    first, second = (p["name"] for p in g.state["players"][:2])
    withdrawn = f"The offer of {first} to {second} is off: Baltic Avenue was mortgaged."
    assert [e["text"] for e in answer["events"]][-1] == withdrawn
    assert g.history(token=bob)[-1]["text"] == withdrawn
    assert g.pending["trade_offers"] == []
    g.refused(422, {"type": "accept_trade", "offer": "o1"}, token=bob, code="no_such_offer")
    assert cashes(g) == {**before, "p1": before["p1"] + 30}


def test_at_most_five_offers_open_per_player(new_game):
    g = new_game(THREE)
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))
    ann = g.tokens["p1"]
    for cash in range(100, 105):
        g.do(
            propose("p1", "p2", give={"properties": ["baltic-avenue"]}, receive={"cash": cash}),
            token=ann,
        )  # noqa: E501
    sixth = propose("p1", "p3", give={"properties": ["baltic-avenue"]}, receive={"cash": 99})
    g.refused(422, sixth, token=ann, code="too_many_offers")
    g.refused(422, sixth, code="too_many_offers")  # the Banker's too: a rule, not a permission
    assert len(g.pending["trade_offers"]) == 5
