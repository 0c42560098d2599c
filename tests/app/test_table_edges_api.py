"""The changing table's last edges through the API (Flask's test client): `leave` waits until
nothing is pending, an offer may ask any cash with `private_cash`, and the silent points settled
(docs/api.md). Each test named as the sentence it checks; exact cash throughout."""

from __future__ import annotations

import pytest

SIDE = {"cash": 0, "properties": [], "jail_cards": []}


def display_token(g) -> str:
    return g.created["display_url"].rpartition("/")[2]


def ask(g, asked: int) -> dict:
    """Ann (p1) offers Baltic Avenue to Bob (p2) for `asked` in cash."""
    return {
        "type": "propose_trade",
        "from": "p1",
        "to": "p2",
        "give": {**SIDE, "properties": ["baltic-avenue"]},
        "receive": {**SIDE, "cash": asked},
        "unmortgage": [],
    }


# --- leave ----------------------------------------------------------------------------------


def test_leave_is_refused_while_anothers_rent_roll_is_pending_and_bob_is_paid_afterwards(
    new_game,
):
    g = new_game(["Ann", "Bob", "Cat"])
    g.start("p1")
    g.deeds_by_rolls(("electric-company", "p2"))  # Ann declines, Bob wins it at 10
    g.pass_to("p1")
    g.land("p1", 12)  # Ann on Bob's Electric Company: she rolls again for the rent
    r = g.refused(422, type="leave", player="p2", code="rent_roll_pending")
    assert r.message == (
        "Ann must roll for the utility rent: the table settles that before Bob leaves."
    )
    g.do(type="rent_roll", dice=[3, 4])
    g.claim(token=g.tokens["p2"])
    assert g.cashes() == {"p1": 1472, "p2": 1518, "p3": 1500}
    g.do(type="leave", player="p2")
    assert g.prop("electric-company")["owner"] is None
    assert g.pending["auction"]["item"] == "electric-company"


def test_leave_is_refused_while_anothers_card_is_pending(new_game):
    g = new_game(["Ann", "Bob", "Cat"])
    g.start("p1")
    g.land("p1", 7)
    r = g.refused(422, type="leave", player="p3", code="card_pending")
    assert r.message == "Ann must draw a Chance card: the table settles that before Cat leaves."


def test_leave_in_setup_the_player_just_leaves_the_table_and_start_needs_two(new_game, client):
    g = new_game(["Ann", "Bob"])
    bob = g.tokens["p2"]
    g.do(type="leave", player="p2")
    assert g.texts() == ["Bob left the table before the game started."]
    assert [p["id"] for p in g.state["players"]] == ["p1"]
    g.refused(422, type="start", first="p1", code="too_few_players")
    page = client.get(f"/join/{bob}")  # Bob's link no longer opens a seat (the store's rule)
    assert page.status_code == 404
    banker = client.get(
        g.created["banker_url"].replace("http://localhost", ""), follow_redirects=True
    )
    assert banker.status_code == 200 and ">Bob<" not in banker.text
    screen = client.get(g.created["display_url"].replace("http://localhost", ""))
    assert screen.status_code == 200 and "person-p2" not in screen.text
    g.do(type="add_player", name="Cat")
    assert [p["id"] for p in g.state["players"]] == ["p1", "p3"]
    g.start("p3")
    assert g.state["status"] == "playing"


# --- private cash ---------------------------------------------------------------------------


def test_private_cash_no_offer_lets_a_player_find_anothers_cash_by_trying(new_game):
    g = new_game(["Ann", "Bob", "Cat"], options={"private_cash": True})
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))
    ann, bob = g.tokens["p1"], g.tokens["p2"]
    assert g.cash("p2") == 1500
    for asked in (1499, 1501):
        answer = g.do(ask(g, asked), token=ann)
        assert [e["type"] for e in answer["events"]] == ["trade_offered"]
    first, second = (o["id"] for o in g.pending["trade_offers"])
    r = g.refused(422, type="accept_trade", offer=second, token=bob, code="insufficient_cash")
    assert r.message == "Bob has only 1,500 in cash."  # his own cash, told to him
    assert [o["id"] for o in g.pending["trade_offers"]] == [first, second]  # the offer kept
    g.do(type="accept_trade", offer=first, token=bob)
    assert (g.cash("p1"), g.cash("p2")) == (1440 + 1499, 1)
    assert g.prop("baltic-avenue")["owner"] == "p2"


def test_private_cash_the_proposers_own_cash_is_checked(new_game):
    g = new_game(["Ann", "Bob"], options={"private_cash": True})
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p2"))
    command = {
        "type": "propose_trade",
        "from": "p1",
        "to": "p2",
        "give": {**SIDE, "cash": 1501},
        "receive": {**SIDE, "properties": ["baltic-avenue"]},
        "unmortgage": [],
    }
    r = g.refused(422, command, token=g.tokens["p1"], code="insufficient_cash")
    assert r.message == "Ann has only 1,500 in cash."


def test_private_cash_a_bankrupts_cash_handed_over_is_public(new_game):
    g = new_game(["Ann", "Bob", "Cat"], options={"private_cash": True})
    g.start("p1")
    g.move("p1", 1)
    g.adjust_to("p1", 120)
    g.roll("p1", 1, 2)  # Income Tax, 200: a debt
    answer = g.do(type="bankrupt", player="p1")
    bankrupt = [e["text"] for e in answer["events"] if e["type"] == "bankrupt"]
    cat = [e["text"] for e in g.history(token=g.tokens["p3"]) if e["type"] == "bankrupt"]
    assert bankrupt == cat
    assert cat[0].startswith("Ann is bankrupt to the Bank and out of the game: 120 in cash")


# --- silent points settled ------------------------------------------------------------------


def test_the_bankers_token_may_decline_any_open_offer(new_game):
    g = new_game(["Ann", "Bob"])
    g.start("p1")
    g.deeds_by_rolls(("baltic-avenue", "p1"))
    g.do(ask(g, 10), token=g.tokens["p1"])
    (offer,) = g.pending["trade_offers"]
    g.do(type="decline_trade", offer=offer["id"])  # the Banker's token
    assert g.pending["trade_offers"] == []


def test_a_retry_with_the_same_key_and_a_now_stale_expected_version_replays_the_first_answer(
    new_game,
):
    g = new_game(["Ann", "Bob"])
    g.start("p1")
    command = {"type": "roll", "player": "p1", "dice": [1, 2], "expected_version": g.version}
    headers = {"Idempotency-Key": "roll-once"}
    first = g.do(command, headers=headers)
    again = g.send(command, headers=headers)  # the answer was lost; the phone sends it again
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first
    assert g.version == first["version"]
    g.refused(409, command, headers={"Idempotency-Key": "another"})  # a new key: stale


@pytest.mark.parametrize("seat", ["player", "display"])
def test_a_player_token_or_the_display_may_not_export_a_snapshot(new_game, seat):
    g = new_game(["Ann", "Bob"])
    token = g.tokens["p1"] if seat == "player" else display_token(g)
    reply = g.get("/snapshot", token=token)
    assert reply.status_code == 403
    assert reply.get_json()["error"]["code"] == "banker_only"
    assert g.get("/snapshot").status_code == 200


@pytest.mark.parametrize("look_alike", ["Bօb", "Aɴɴ", "Ꭺnn"])
def test_armenian_cherokee_and_small_capital_look_alikes_are_duplicate_names(
    new_game, client, look_alike
):
    g = new_game(["Ann", "Bob"])
    g.refused(422, type="add_player", name=look_alike, code="duplicate_name")
    g.refused(422, type="rename_player", player="p1", name="ʙᴏʙ", code="duplicate_name")
    made = client.post(
        "/api/v1/games", json={"edition": "g0009", "players": ["Ann", "Bob", look_alike]}
    )
    assert made.status_code == 400
    assert made.get_json()["error"]["code"] == "duplicate_name"


def test_leave_in_setup_the_game_pauses_and_resumes_without_them(new_game, client):
    g = new_game(["Ann", "Bob", "Cat"])
    g.do(type="leave", player="p2")
    g.do(type="add_player", name="Dan")
    g.start("p3")
    g.roll("p3", 1, 2)  # Cat on Baltic Avenue
    doc = g.read("/snapshot")
    resumed = client.post("/api/v1/games/import", json=doc)
    assert resumed.status_code == 201
    state = resumed.get_json()["state"]
    assert [(p["id"], p["name"]) for p in state["players"]] == [
        ("p1", "Ann"),
        ("p3", "Cat"),
        ("p4", "Dan"),
    ]
    assert state["pending"]["offer"] == {"player": "p3", "property": "baltic-avenue", "price": 60}
    banker = g.created["banker_url"].replace("http://localhost", "")
    client.get(banker)  # the Banker's cookie
    pause = client.get(f"/games/{g.id}/pause")
    assert pause.status_code == 200 and "Dan" in pause.text
