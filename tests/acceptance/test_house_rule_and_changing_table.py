"""Acceptance: docs/api.md, "House rule: the Free Parking jackpot" and "A changing table",
against a real `banker serve`.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

from tests.game import Game, refusal_of

from .contract import API


def test_jackpot_a_tax_feeds_the_pot_and_a_roll_onto_free_parking_collects_it(http):
    g = Game(http, ("Ann", "Bob"), "classic", {"free_parking_jackpot": True})
    assert g.state["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}
    g.start()
    g.land("p1", 4)  # Income Tax, 200
    assert g.state["bank"]["free_parking"] == 200 and g.cash("p1") == 1300
    g.land("p2", 20)  # Free Parking, by a roll
    assert g.state["bank"]["free_parking"] == 0 and g.cash("p2") == 1700
    assert any("200" in t for t in g.texts())
    g.do(type="undo")  # undo takes the collection back
    assert g.state["bank"]["free_parking"] == 200 and g.cash("p2") == 1500
    g.move("p2", 20)  # a move correction collects nothing
    assert g.state["bank"]["free_parking"] == 200 and g.cash("p2") == 1500


def test_jackpot_off_by_default_the_pot_stays_0(http):
    g = Game(http, ("Ann", "Bob"))
    assert g.state["options"]["free_parking_jackpot"] is False
    g.start()
    g.land("p1", 4)
    g.land("p2", 20)
    assert g.state["bank"]["free_parking"] == 0 and g.cashes() == {"p1": 1300, "p2": 1500}


def test_a_latecomer_joins_with_a_link_from_new_links_and_reads_the_game(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.do(type="add_player", name="Dan")
    dan = g.player("p4")
    assert (dan["name"], dan["cash"], dan["position"]) == ("Dan", 1500, 0)
    r = http.reply("POST", f"{API}/games/{g.id}/tokens", {"for": "p4"}, g.banker_token)
    assert r.status_code == 201
    token = r.get_json()["token"]
    assert g.read(token=token)["players"][3]["name"] == "Dan"
    g.refused(403, type="add_player", name="Eve", token=token, code="banker_only")


def test_rename_keeps_ids_and_tokens_and_a_taken_name_or_look_alike_is_refused(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.do(type="rename_player", player="p2", name="Robert")
    assert g.read(token=g.tokens["p2"])["players"][1]["name"] == "Robert"
    assert any("Bob" in t and "Robert" in t for t in g.texts())
    g.refused(422, type="rename_player", player="p1", name="cat", code="duplicate_name")
    g.refused(422, type="add_player", name="R0bert", code="duplicate_name")
    g.refused(400, type="rename_player", player="p1", name=12)


def test_a_7th_player_and_partnerships_are_refused(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))
    g.start()
    g.refused(422, type="add_player", name="Gus")
    t = Game(http, ("Ann", "Bob", "Cat", "Dan"), options={"teams": True})
    t.start()
    t.refused(422, type="add_player", name="Gus")
    t.refused(422, type="leave", player="p1")


def test_leave_returns_everything_to_the_bank_and_refuses_a_debtor_or_the_high_bidder(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.deeds_by_rolls(("vermont-avenue", "p2"))
    g.land(g.whose_turn, 6)  # Oriental Avenue, declined
    g.do(type="auction")
    g.do(type="bid", player="p3", amount=30)
    g.refused(422, type="leave", player="p3")  # holds the high bid
    g.do(type="close_auction")
    g.do(type="leave", player="p2")
    s = g.state
    assert s["players"][1]["eliminated"] and s["players"][1]["cash"] == 0
    assert s["properties"]["vermont-avenue"]["owner"] is None
    assert s["pending"]["auction"]["item"] == "vermont-avenue"  # auctioned
    g.do(type="close_auction")
    g.pass_to("p3")
    g.move("p3", 1)
    g.adjust_to("p3", 50)
    g.roll("p3", 1, 2)  # Income Tax, 200: a debt
    g.refused(422, type="leave", player="p3")  # a player in debt goes bankrupt instead


def test_unknown_player_ids_and_wrong_types_are_400(http):
    g = Game(http, ("Ann", "Bob"))
    g.start()
    for command in (
        {"type": "leave", "player": "p3"},
        {"type": "rename_player", "player": "p9", "name": "Zed"},
        {"type": "add_player", "name": 42},
        {"type": "add_player"},
    ):
        g.refused(400, command)
    r = http.reply("POST", f"{API}/games/{g.id}/tokens", {"for": "p3"}, g.banker_token)
    refusal_of(r, 400)
