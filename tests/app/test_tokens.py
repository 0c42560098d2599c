"""New links by API (POST …/tokens) and the display's read-only token (docs/api.md, "New links")."""

from __future__ import annotations

import pytest

from banker.store import Store, UnknownSeat

ROLL_TO_BALTIC = {"type": "roll", "player": "p1", "dice": [1, 2]}


def display_token(g) -> str:
    return g.created["display_url"].rpartition("/")[2]


def new_link(g, seat, token=None, **kw):
    return g.table.client.post(
        f"/api/v1/games/{g.id}/tokens", headers=g.auth(token), json={"for": seat}, **kw
    )


def get_state(g, token):
    return g.table.client.get(f"/api/v1/games/{g.id}", headers=g.auth(token))


# -- the display's token ---------------------------------------------------------------------


def test_the_display_token_reads_the_state_and_the_events(game):
    token = display_token(game)
    r = get_state(game, token)
    assert r.status_code == 200
    assert r.get_json() == game.state
    r = game.table.client.get(f"/api/v1/games/{game.id}/events", headers=game.auth(token))
    assert r.status_code == 200 and r.get_json() == game.history()


def test_the_display_token_may_send_no_command_not_even_with_a_used_key(game):
    game.do(ROLL_TO_BALTIC, headers={"Idempotency-Key": "k1"})
    before = game.now()
    for command in ({"type": "buy"}, {"type": "claim_rent", "claim": "c1"}, ROLL_TO_BALTIC):
        r = game.send(command, token=display_token(game), headers={"Idempotency-Key": "k1"})
        assert r.status_code == 403
        assert r.get_json()["error"] == {
            "code": "banker_only",
            "message": "The display's token may only read the game; it cannot send anything.",
        }
    assert game.now() == before


def test_the_display_token_takes_no_snapshot_and_makes_no_link(game):
    token = display_token(game)
    r = game.table.client.get(f"/api/v1/games/{game.id}/snapshot", headers=game.auth(token))
    assert r.status_code == 403
    assert new_link(game, "p1", token).status_code == 403


def test_the_store_knows_each_tokens_role(store):
    created = store.create_game("g0009", ["Ann", "Bob"], None)
    game_id = created["game_id"]
    assert store.role(game_id, created["banker_token"]) == "banker"
    assert store.role(game_id, created["display_token"]) == "display"
    assert [store.role(game_id, p["token"]) for p in created["players"]] == ["p1", "p2"]
    assert store.role(game_id, "nobody") is None
    assert store.game_for_display_token(created["display_token"]) == game_id
    assert store.game_for_display_token(created["banker_token"]) is None
    assert store.game_for_display_token("nobody") is None


# -- POST …/tokens -----------------------------------------------------------------------------


def test_a_new_link_for_a_player_kills_the_old_one_everywhere(game):
    old = game.tokens["p2"]
    r = new_link(game, "p2")
    assert r.status_code == 201
    body = r.get_json()
    assert list(body) == ["for", "token", "url"]
    assert body["for"] == "p2" and body["token"] != old
    assert body["url"] == f"http://localhost/join/{body['token']}"
    # The old token: 403 on the API, the page and its poll (which says so in a sentence).
    r = get_state(game, old)
    assert r.status_code == 403
    assert r.get_json()["error"]["code"] == "token_replaced"
    assert game.send({"type": "pay_jail_fine", "player": "p2"}, token=old).status_code == 403
    for path in (f"/join/{old}", f"/join/{old}/version?v=0", f"/join/{old}/version?v=1"):
        r = game.table.client.get(path)
        assert r.status_code == 403
        assert "This link no longer works" in r.get_data(as_text=True)
    # The new one works at once.
    assert get_state(game, body["token"]).status_code == 200
    assert game.table.client.get(f"/join/{body['token']}").status_code == 200
    assert game.table.client.get(f"/join/{body['token']}/version?v=1").status_code == 204


def test_a_new_banker_link_moves_the_game_to_another_device(game):
    old = game.banker_token
    r = new_link(game, "banker")
    assert r.status_code == 201
    new = r.get_json()["token"]
    assert r.get_json()["url"] == f"http://localhost/games/{game.id}?token={new}"
    r = get_state(game, old)
    assert r.status_code == 403
    assert "new link" in r.get_json()["error"]["message"]
    adjust = {"type": "adjust", "player": "p1", "amount": 1, "reason": "x"}
    assert game.send(adjust, token=old).status_code == 403
    assert new_link(game, "p1", old).status_code == 403
    # The Banker's page with the old link or the old cookie says so; the poll reloads it.
    r = game.table.client.get(f"/games/{game.id}?token={old}")
    assert r.status_code == 403
    assert "This phone is no longer the Banker of this game" in r.get_data(as_text=True)
    game.table.client.set_cookie(f"banker_{game.id}", old)
    r = game.table.client.get(f"/games/{game.id}/poll?v=0")
    assert r.status_code == 403 and r.headers["HX-Refresh"] == "true"
    assert game.table.client.get(f"/games/{game.id}/version?v=1&token={old}").status_code == 403
    # The new token is the Banker now.
    game.banker_token = new
    assert game.state["version"] == 1
    game.table.client.delete_cookie(f"banker_{game.id}")  # the test's own cookie (path /)
    r = game.table.client.get(f"/games/{game.id}?token={new}")
    assert r.status_code == 303
    assert game.table.client.get(f"/games/{game.id}").status_code == 200


def test_a_new_display_link(game):
    old = display_token(game)
    r = new_link(game, "display")
    assert r.status_code == 201
    new = r.get_json()["token"]
    assert r.get_json()["url"] == f"http://localhost/display/{new}"
    assert get_state(game, old).status_code == 403
    assert get_state(game, new).status_code == 200


def test_only_the_banker_token_makes_new_links(game):
    before = game.now()
    for token in (game.tokens["p1"], display_token(game)):
        r = new_link(game, "p1", token)
        assert r.status_code == 403
        assert r.get_json()["error"]["code"] == "banker_only"
    assert game.table.client.post(
        f"/api/v1/games/{game.id}/tokens", json={"for": "p1"}
    ).status_code == (401)
    assert get_state(game, game.tokens["p1"]).status_code == 200  # not replaced
    assert game.now() == before


@pytest.mark.parametrize(
    "body, code",
    [
        ({"for": "p9"}, "unknown_seat"),
        ({"for": 1}, "wrong_type"),
        ({}, "missing_field"),
        ({"for": "p1", "why": "lost"}, "unknown_field"),
    ],
)
def test_a_new_link_for_no_such_seat_is_400_and_changes_nothing(game, body, code):
    r = game.table.client.post(f"/api/v1/games/{game.id}/tokens", headers=game.auth(), json=body)
    assert r.status_code == 400
    assert r.get_json()["error"]["code"] == code
    assert get_state(game, game.tokens["p1"]).status_code == 200


def test_a_new_link_in_no_such_game_is_404(game):
    r = game.table.client.post(
        "/api/v1/games/nosuch/tokens", headers=game.auth(), json={"for": "p1"}
    )
    assert r.status_code == 404


def test_new_tokens_outlive_a_restart_and_old_ones_stay_dead(db_path):
    store = Store(db_path)
    created = store.create_game("g0009", ["Ann", "Bob"], None)
    game_id = created["game_id"]
    banker, display = store.new_token(game_id, "banker"), store.new_token(game_id, "display")
    with pytest.raises(UnknownSeat):
        store.new_token(game_id, "p3")
    store.close()
    store = Store(db_path)
    assert store.role(game_id, banker) == "banker"
    assert store.role(game_id, display) == "display"
    assert store.role(game_id, created["banker_token"]) is None
    assert store.token_revoked(created["banker_token"]) == "banker"
    assert store.token_revoked(created["display_token"]) == "display"
    assert store.game_for_display_token(created["display_token"]) is None
    assert store.game_for_display_token(display) == game_id
    store.close()


def test_a_game_stored_before_displays_gets_a_display_token(db_path):
    store = Store(db_path)
    game_id = store.create_game("g0009", ["Ann", "Bob"], None)["game_id"]
    store.database.connection().execute("update games set display_token = null")
    store.database.connection().conn.commit()
    store.close()
    store = Store(db_path)  # the migration runs again on an existing database
    token = store.display_token(game_id)
    assert token and store.role(game_id, token) == "display"
    assert store.game_for_display_token(token) == game_id
    store.close()


def test_an_idle_display_poll_is_answered_204_until_its_token_is_replaced(game):
    token = display_token(game)
    r = game.table.client.get(f"/display/{token}/version?v=1")
    assert r.status_code == 204 and r.headers["Cache-Control"] == "private, no-store"
    assert game.table.client.get(f"/display/{token}/version?v=0").status_code != 204
    assert game.table.client.get(f"/display/{token}/version?v=%C2%B2").status_code != 204
    new_link(game, "display")
    assert game.table.client.get(f"/display/{token}/version?v=1").status_code != 204


def test_a_superscript_digit_in_a_players_poll_is_no_server_error(game):
    r = game.table.client.get(f"/join/{game.tokens['p1']}/version?v=%C2%B2")
    assert r.status_code == 200  # not a version: the fresh fragment


def test_a_replaced_token_shown_to_another_game_is_only_a_stranger_there(new_game):
    first, second = new_game(), new_game()
    old = first.tokens["p1"]
    new_link(first, "p1")
    assert get_state(first, old).get_json()["error"]["code"] == "token_replaced"
    assert get_state(second, old).get_json()["error"]["code"] == "token_not_allowed"
