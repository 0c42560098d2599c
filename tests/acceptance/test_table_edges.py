"""Acceptance: docs/api.md, `leave` *(new)*, `private_cash` *(new)* and "Silent points settled",
against a real `banker serve`.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

from tests.game import Game, refusal_of

from .contract import API, trade


def test_leave_is_refused_while_anything_is_pending_for_anyone_then_allowed(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("electric-company", "p2"))  # Ann declines; Bob wins it at 10
    g.pass_to("p1")
    g.land("p1", 12)  # Ann on Bob's utility: she rolls again for the rent
    g.refused(422, type="leave", player="p2")  # her rent roll waits
    g.refused(422, type="leave", player="p3")  # for anyone
    g.do(type="rent_roll", dice=[3, 4])  # 7 x 4 = 28 to Bob, never to the Bank
    g.claim()
    assert g.cashes() == {"p1": 1500 - 28, "p2": 1500 - 10 + 28, "p3": 1500}
    g.land("p2", 7)  # Bob on Chance: his card waits
    g.refused(422, type="leave", player="p3")
    g.draw("chance", "bank-dividend-50")
    g.do(type="leave", player="p3")
    assert g.player("p3")["eliminated"] is True


def test_leave_in_setup_just_leaves_the_table_and_start_needs_two_players(http):
    g = Game(http, ("Ann", "Bob"))
    g.do(type="leave", player="p2")
    assert [p["id"] for p in g.state["players"]] == ["p1"]
    g.refused(422, type="start", first="p1")
    g.do(type="add_player", name="Cat")
    assert [p["id"] for p in g.state["players"]] == ["p1", "p3"]  # ids are never reused
    g.start("p1")
    assert g.state["status"] == "playing"


def test_private_cash_an_offer_may_ask_any_cash_checked_at_accept_trade(http):
    g = Game(http, ("Ann", "Bob"), options={"private_cash": True})
    g.start()
    g.deeds_by_rolls(("baltic-avenue", "p1"))
    ann, bob = g.tokens["p1"], g.tokens["p2"]
    for asked in (1499, 1501):  # both are offers: no answer tells Ann Bob's cash
        deal = trade("p1", "p2", give={"properties": ["baltic-avenue"]}, receive={"cash": asked})
        g.do({**deal, "type": "propose_trade"}, token=ann)
    low, high = (o["id"] for o in g.pending["trade_offers"])
    r = g.refused(422, {"type": "accept_trade", "offer": high}, token=bob)
    assert r.code == "insufficient_cash"
    assert "1,500" in r.message  # Bob's own cash, told to Bob
    assert len(g.pending["trade_offers"]) == 2  # the offer kept
    g.do({"type": "accept_trade", "offer": low}, token=bob)
    assert g.cashes() == {"p1": 1500 - 60 + 1499, "p2": 1}


def test_a_bankrupts_cash_handed_over_is_public_with_private_cash(http):
    g = Game(http, ("Ann", "Bob", "Cat"), options={"private_cash": True})
    g.start()
    g.move("p1", 1)
    g.adjust_to("p1", 120)
    g.roll("p1", 1, 2)  # Income Tax, 200: a debt
    g.do(type="bankrupt", player="p1")
    said = [e["text"] for e in g.history(token=g.tokens["p3"]) if e["type"] == "bankrupt"]
    assert len(said) == 1 and "120" in said[0]


def test_the_bankers_token_may_decline_any_open_offer(http):
    g = Game(http, ("Ann", "Bob"))
    g.start()
    g.deeds_by_rolls(("baltic-avenue", "p1"))
    offer = trade("p1", "p2", give={"properties": ["baltic-avenue"]}, receive={"cash": 10})
    g.do({**offer, "type": "propose_trade"}, token=g.tokens["p1"])
    g.do(type="decline_trade", offer=g.pending["trade_offers"][0]["id"])  # the Banker's token
    assert g.pending["trade_offers"] == []


def test_a_retry_with_the_same_key_and_a_stale_expected_version_replays(http):
    g = Game(http, ("Ann", "Bob"))
    g.start()
    command = {"type": "roll", "player": "p1", "dice": [1, 2], "expected_version": g.version}
    first = g.do(command, headers={"Idempotency-Key": "k1"})
    again = g.send(command, headers={"Idempotency-Key": "k1"})
    assert (again.status_code, again.get_json()) == (200, first)
    g.refused(409, command, headers={"Idempotency-Key": "k2"})


def test_no_snapshot_for_a_player_token_or_the_display(http):
    g = Game(http, ("Ann", "Bob"))
    display = g.created["display_url"].rpartition("/")[2]
    for token in (g.tokens["p1"], display):
        refusal_of(g.get("/snapshot", token=token), 403, "banker_only")
    assert g.get("/snapshot").status_code == 200


def test_armenian_cherokee_and_small_capital_look_alikes_are_look_alikes(http):
    g = Game(http, ("Ann", "Bob"))
    for name in ("Bօb", "Aɴɴ", "Ꭺnn"):
        g.refused(422, type="add_player", name=name, code="duplicate_name")
        g.refused(422, type="rename_player", player="p2", name="Aɴɴ", code="duplicate_name")
        r = http.reply(
            "POST", f"{API}/games", {"edition": "g0009", "players": ["Ann", "Bob", name]}
        )
        refusal_of(r, 400, "duplicate_name")
