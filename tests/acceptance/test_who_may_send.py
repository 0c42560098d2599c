"""Acceptance: docs/api.md, Commands: who may send it (players' and partners' tokens).

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

from tests.game import Game

from .contract import (
    CLAIM,
    pick,
)


def test_player_token_reads_and_claims_its_rent_only(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    ann, bob, cat = (g.tokens[p] for p in ("p1", "p2", "p3"))
    g.roll("p1", 3, 5)
    g.do(type="buy")
    g.roll("p2", 3, 5)  # Bob lands on Ann's Vermont Avenue
    # reading: same shape as the banker's
    assert g.read(token=cat) == g.state
    assert [e["seq"] for e in g.history(token=cat)] == [e["seq"] for e in g.history()]
    (claim,) = g.pending["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2", "property": "vermont-avenue",
                                  "amount": 6}  # fmt: skip
    assert isinstance(claim["id"], str)
    # other players may not claim it, nor command anything
    g.refused(403, {"type": "claim_rent", "claim": claim["id"]}, token=cat)
    g.refused(403, {"type": "claim_rent", "claim": claim["id"]}, token=bob)
    g.refused(403, {"type": "roll", "player": "p3", "dice": [4, 6]}, token=cat)
    g.refused(403, {"type": "buy"}, token=ann)
    a = g.do(token=ann, type="claim_rent", claim=claim["id"])
    assert a["state"]["pending"]["rent_claims"] == []
    assert g.cashes() == {"p1": 1406, "p2": 1494, "p3": 1500}


def test_partnership_token_claims_its_rent(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"), options={"teams": True})
    t1, t2 = g.tokens
    g.do(type="start", first=t1)
    g.roll(t1, 3, 5)
    g.do(type="buy")
    (claim,) = g.roll(t2, 3, 5)["state"]["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": t1, "payer": t2, "property": "vermont-avenue",
                                  "amount": 6}  # fmt: skip
    g.refused(403, {"type": "claim_rent", "claim": claim["id"]}, token=g.tokens[t2])
    g.do(token=g.tokens[t1], type="claim_rent", claim=claim["id"])
    assert g.cashes() == {t1: 1406, t2: 1494}


def test_owner_token_on_its_lapsed_or_paid_claim_is_422_not_403(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.do(type="buy")
    (lapsed,) = g.roll("p2", 3, 5)["state"]["pending"]["rent_claims"]
    g.roll("p3", 4, 6)
    g.refused(422, {"type": "claim_rent", "claim": lapsed["id"]}, token=g.tokens["p1"])
    g.move("p1", 0)
    g.roll("p1", 4, 6)
    g.move("p2", 4)
    (paid,) = g.roll("p2", 2, 2)["state"]["pending"]["rent_claims"]
    g.do(token=g.tokens["p1"], type="claim_rent", claim=paid["id"])
    g.refused(422, {"type": "claim_rent", "claim": paid["id"]}, token=g.tokens["p1"])
