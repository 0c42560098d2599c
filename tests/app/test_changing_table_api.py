"""A changing table through the API (Flask test client): `rename_player`, `add_player` and
`leave`, the latecomer's link and token, undo, and the refusals of docs/api.md ("A changing
table"), in both editions."""

from __future__ import annotations

import re

import pytest

EDITIONS = ["g0009", "classic"]
SIDE = {"cash": 0, "properties": [], "jail_cards": []}


def path_of(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def new_link(g, seat: str, token=None):
    return g.table.client.post(
        f"/api/v1/games/{g.id}/tokens", headers=g.auth(token), json={"for": seat}
    )


@pytest.fixture(params=EDITIONS)
def three(new_game, request):
    """Ann, Bob and Cat, started: Ann rolls first."""
    g = new_game(["Ann", "Bob", "Cat"], request.param)
    g.start("p1")
    return g


# --- rename_player ---------------------------------------------------------------------------


def test_rename_player_the_event_says_both_names_ids_and_tokens_do_not_change(three):
    bob = three.tokens["p2"]
    three.do(type="rename_player", player="p2", name="Robert")
    assert three.texts() == ["Bob is now called Robert."]
    seen = three.read(token=bob)  # Bob's token still works, as Robert's
    assert [(p["id"], p["name"]) for p in seen["players"]] == [
        ("p1", "Ann"),
        ("p2", "Robert"),
        ("p3", "Cat"),
    ]


def test_rename_player_a_name_taken_or_a_look_alike_is_refused(three):
    three.refused(422, type="rename_player", player="p1", name="bob", code="duplicate_name")
    three.refused(422, type="rename_player", player="p1", name="B0b", code="duplicate_name")
    three.refused(422, type="rename_player", player="p1", name="Ann", code="same_name")


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"player": "p1", "name": 5}, "wrong_type"),
        ({"player": "p1", "name": "A" * 31}, "out_of_range"),
        ({"player": "p1", "name": "A\u202eB"}, "bad_name"),
        ({"player": "p7", "name": "Zed"}, "unknown_player"),
        ({"player": "p1"}, "missing_field"),
    ],
)
def test_rename_player_malformed_is_400(three, fields, code):
    three.refused(400, type="rename_player", code=code, **fields)


def test_rename_player_is_the_bankers_only(three):
    p1 = three.tokens["p1"]
    r = three.refused(403, type="rename_player", player="p1", name="Annie", token=p1)
    assert r.code == "banker_only"


# --- add_player ------------------------------------------------------------------------------


def test_add_player_the_latecomer_joins_with_a_link_from_new_links(three):
    three.do(type="add_player", name="Dan")
    dan = three.player("p4")
    assert (dan["name"], dan["cash"], dan["position"], dan["eliminated"]) == ("Dan", 1500, 0, False)
    assert [p["id"] for p in three.state["players"]] == ["p1", "p2", "p3", "p4"]
    r = new_link(three, "p4")
    assert r.status_code == 201
    link = r.get_json()
    assert link["for"] == "p4" and link["url"].endswith(link["token"])
    # Dan's token reads the game and sends Dan's own commands.
    assert three.read(token=link["token"])["players"][3]["name"] == "Dan"
    three.land("p1", 6)  # Oriental Avenue, declined: the auction is open to everyone
    three.do(type="auction")
    three.do(type="bid", player="p4", amount=50, token=link["token"])
    assert three.pending["auction"]["high_bidder"] == "p4"
    three.refused(403, type="bid", player="p1", amount=60, token=link["token"], code="banker_only")
    # Their own page opens.
    page = three.table.client.get(path_of(link["url"]), follow_redirects=True)
    assert page.status_code == 200 and "Dan" in page.get_data(as_text=True)


def test_add_player_the_bankers_page_lists_the_latecomer(three):
    three.do(type="add_player", name="Dan")
    page = three.table.client.get(path_of(three.created["banker_url"]), follow_redirects=True)
    assert page.status_code == 200
    assert "Dan" in page.get_data(as_text=True)


def test_add_player_a_7th_player_is_refused(new_game):
    g = new_game(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"])
    g.start("p1")
    r = g.refused(422, type="add_player", name="Gus", code="table_full")
    assert r.message == "The game already has 6 players, the most it can seat."


def test_add_player_with_partnerships_is_refused(new_game):
    g = new_game(["Ann", "Bob", "Cat", "Dan"], options={"teams": True})
    g.refused(422, type="add_player", name="Eve", code="not_with_teams")


def test_add_player_a_name_taken_or_a_look_alike_is_refused(three):
    three.refused(422, type="add_player", name="CAT", code="duplicate_name")
    three.refused(422, type="add_player", name="Сat", code="duplicate_name")  # Cyrillic С
    three.refused(400, type="add_player", name={"first": "Dan"}, code="wrong_type")
    three.refused(400, type="add_player", code="missing_field")


def test_add_player_is_the_bankers_only(three):
    three.refused(403, type="add_player", name="Dan", token=three.tokens["p2"], code="banker_only")


def test_add_player_undone_its_token_opens_nothing_and_its_id_is_not_given_again(three):
    three.roll("p1", 4, 6)
    three.do(type="add_player", name="Dan")
    token = new_link(three, "p4").get_json()["token"]
    assert three.get(token=token).status_code == 200
    three.do(type="undo")
    r = three.get(token=token)
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "token_not_allowed"
    assert new_link(three, "p4").status_code == 400  # no such seat any more
    three.do(type="add_player", name="Dan")
    assert three.state["players"][-1]["id"] == "p5"
    assert new_link(three, "p5").status_code == 201


# --- leave -----------------------------------------------------------------------------------


def test_leave_as_a_bankruptcy_to_the_bank(three):
    three.deeds_by_rolls(("oriental-avenue", "p1"), ("vermont-avenue", "p2"))
    three.do(type="leave", player="p2")
    bob = three.player("p2")
    assert (bob["eliminated"], bob["cash"]) == (True, 0)
    assert three.prop("vermont-avenue")["owner"] is None
    assert three.pending["auction"]["item"] == "vermont-avenue"
    assert three.texts()[0] == (
        "Bob left the game for good: 1,400 in cash returns to the Bank; Vermont Avenue returns "
        "to the Bank unmortgaged, to be auctioned."
    )


def test_leave_if_it_was_their_turn_the_turn_passes(three):
    three.do(type="leave", player="p1")
    assert three.turn["player"] == "p2"


def test_leave_while_owing_a_debt_is_refused(three):
    three.move("p1", 1)
    three.adjust_to("p1", 100)
    three.roll("p1", 1, 2)  # Income Tax, 200: a debt
    r = three.refused(422, type="leave", player="p1", code="debt_pending")
    assert r.message.endswith("a player in debt pays it or goes bankrupt, rather than leaving.")


def test_leave_while_holding_the_high_bid_is_refused(three):
    three.land("p1", 6)
    three.do(type="auction")
    three.do(type="bid", player="p3", amount=30)
    three.refused(422, type="leave", player="p3", code="high_bidder")


def test_leave_with_partnerships_is_refused(new_game):
    g = new_game(["Ann", "Bob", "Cat", "Dan"], options={"teams": True})
    g.start("p1")
    g.refused(422, type="leave", player="p2", code="not_with_teams")


def test_leave_unknown_ids_and_wrong_types_are_400(three):
    three.refused(400, type="leave", player="p4", code="unknown_player")
    three.refused(400, type="leave", player=["p1"], code="wrong_type")
    three.refused(400, type="leave", code="missing_field")


def test_leave_is_the_bankers_only_even_for_oneself(three):
    three.refused(403, type="leave", player="p1", token=three.tokens["p1"], code="banker_only")


def test_leave_if_one_player_is_then_left_they_win(new_game):
    g = new_game(["Ann", "Bob"], "classic")
    g.start("p1")
    g.deeds_by_rolls(("oriental-avenue", "p2"))
    g.do(type="leave", player="p2")
    state = g.state
    assert (state["status"], state["winners"]) == ("finished", ["p1"])
    assert state["properties"]["oriental-avenue"]["owner"] is None
    assert state["pending"]["auction"] is None


def test_the_games_list_names_the_players_as_they_are_now(store):
    game_id = store.create_game("g0009", ["Ann", "Bob", "Cat"], None)["game_id"]
    store.execute(game_id, {"type": "rename_player", "player": "p2", "name": "Robert"})
    store.execute(game_id, {"type": "add_player", "name": "Dan"})
    (listed,) = store.list_games()
    assert listed["names"] == ["Ann", "Robert", "Cat", "Dan"]
    assert store.known_games([game_id]) == [listed]
