"""The JSON API as docs/api.md describes it: every endpoint, every kind of refusal, and the
promise that after any error the game is exactly as before."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.web import create_app
from tests.game import refusal_of
from tests.table_web import CREATED_FIELDS

ROLL_TO_BALTIC = {"type": "roll", "player": "p1", "dice": [1, 2]}


def assert_refused(response, status: int, code: str | None = None) -> dict:
    """The contract's error body with that status, exactly: a snake_case code and a sentence."""
    said = refusal_of(response, status, code)
    assert response.mimetype == "application/json"
    error = response.get_json()["error"]
    assert set(error) == {"code", "message"}
    assert len(said.message) > 10 and said.message.endswith("."), said.message
    return error


# -- creating a game ---------------------------------------------------------------------------


def test_creating_a_game_answers_201_with_tokens_urls_and_the_state_at_version_0(client):
    r = client.post("/api/v1/games", json={"edition": "g0009", "players": ["Ann", "Bob"]})
    assert r.status_code == 201
    body = r.get_json()
    assert list(body) == CREATED_FIELDS
    game_id, banker_token = body["game_id"], body["banker_token"]
    assert body["banker_url"] == f"http://localhost/games/{game_id}?token={banker_token}"
    display_token = body["display_url"].rpartition("/")[2]
    assert body["display_url"] == f"http://localhost/display/{display_token}"
    assert display_token not in (banker_token, *[p["token"] for p in body["players"]])
    assert [(p["id"], p["name"]) for p in body["players"]] == [("p1", "Ann"), ("p2", "Bob")]
    for p in body["players"]:
        assert p["join_url"] == f"http://localhost/join/{p['token']}"
    state = body["state"]
    assert (state["game_id"], state["version"], state["status"]) == (game_id, 0, "setup")
    assert state["edition"] == "g0009"
    assert state["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}
    assert len(state["properties"]) == 28
    assert not any(key.startswith("_") for key in state)
    assert r.headers["Location"] == f"http://localhost/api/v1/games/{game_id}"


def test_tokens_are_long_random_and_all_different(new_game):
    games = [new_game(["Ann", "Bob", "Cy"]) for _ in range(3)]
    tokens = [g.banker_token for g in games] + [t for g in games for t in g.tokens.values()]
    assert len(set(tokens)) == len(tokens) == 12
    # token_urlsafe(24): 24 random bytes, 192 bits, in 32 URL-safe characters
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", t) for t in tokens)
    assert len({g.id for g in games}) == 3


def test_the_edition_defaults_to_g0009(client):
    r = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
    assert r.status_code == 201
    assert r.get_json()["state"]["edition"] == "g0009"


def test_urls_are_built_from_the_host_the_request_came_to(client):
    r = client.post(
        "/api/v1/games", json={"players": ["Ann", "Bob"]}, base_url="http://192.168.1.20:8000"
    )
    body = r.get_json()
    assert body["banker_url"].startswith("http://192.168.1.20:8000/games/")
    assert body["players"][0]["join_url"].startswith("http://192.168.1.20:8000/join/")


def test_partnerships_have_one_player_entry_and_one_token_each(new_game):
    g = new_game(["Ann", "Bob", "Cy", "Di"], options={"teams": True})
    assert [(p["id"], p["name"]) for p in g.created["players"]] == [
        ("p1", "Ann & Bob"),
        ("p2", "Cy & Di"),
    ]
    assert [p["members"] for p in g.created["state"]["players"]] == [["Ann", "Bob"], ["Cy", "Di"]]
    for token in g.tokens.values():
        r = g.table.client.get(f"/api/v1/games/{g.id}", headers=g.auth(token))
        assert r.status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (["Ann", "Bob"], 400, "not_an_object"),
        ({"edition": "g0009"}, 400, "missing_field"),
        ({"players": ["Ann", "Bob"], "colour": "red"}, 400, "unknown_field"),
        ({"players": "Ann, Bob"}, 400, "wrong_type"),
        ({"players": ["Ann"]}, 400, "out_of_range"),
        ({"players": ["Ann", "Bob"], "edition": "monopoly-junior"}, 400, "unknown_edition"),
        ({"players": ["Ann", "Bob"], "options": {"teams": True}}, 422, "teams_need_four"),
        (
            {"players": ["Ann", "Bob"], "edition": "classic", "options": {"deadline": True}},
            422,
            "not_in_edition",
        ),
    ],
)
def test_a_bad_new_game_is_refused_and_nothing_is_created(client, store, body, status, code):
    r = client.post("/api/v1/games", json=body)
    assert_refused(r, status, code)
    assert store.database.connection().execute("select count(*) from games").fetchone() == (0,)


def test_a_new_game_body_that_is_not_json_is_refused_with_400(client):
    r = client.post("/api/v1/games", data="{players: Ann", content_type="application/json")
    assert_refused(r, 400, "malformed_json")


# -- reading a game ----------------------------------------------------------------------------


def test_the_banker_and_every_player_read_the_same_state(new_game):
    g = new_game(["Ann", "Bob", "Cy"])
    states = [
        g.table.client.get(f"/api/v1/games/{g.id}", headers=g.auth(t)).get_json()
        for t in [g.banker_token, *g.tokens.values()]
    ]
    assert states[0] == g.created["state"]
    assert all(s == states[0] for s in states)


def test_players_may_read_the_events_too(game):
    r = game.table.client.get(
        f"/api/v1/games/{game.id}/events", headers=game.auth(game.tokens["p2"])
    )
    assert r.status_code == 200
    assert [e["type"] for e in r.get_json()] == ["started"]


# -- commands ----------------------------------------------------------------------------------


def test_a_command_answers_its_version_its_events_and_the_new_state(game):
    answer = game.do(ROLL_TO_BALTIC)
    assert list(answer) == ["version", "events", "state"]
    assert answer["version"] == 2 == answer["state"]["version"]
    assert [e["type"] for e in answer["events"]] == ["rolled", "landed", "offer"]
    assert answer["events"][0]["text"] == "Ann rolled 1 and 2."
    assert answer["state"]["pending"]["offer"] == {
        "player": "p1",
        "property": "baltic-avenue",
        "price": 60,
    }
    assert answer["state"] == game.state


def test_versions_rise_by_one_for_each_accepted_command_undo_included(game):
    assert game.state["version"] == 1
    assert game.do(ROLL_TO_BALTIC)["version"] == 2
    assert game.do({"type": "buy"})["version"] == 3
    assert game.do({"type": "undo"})["version"] == 4
    assert game.state["version"] == 4


def test_events_are_listed_oldest_first_with_seq_text_time_and_undone(game):
    game.do(ROLL_TO_BALTIC)
    game.do({"type": "buy"})
    events = game.history()
    assert [e["seq"] for e in events] == [1, 2, 3, 4, 5]
    assert [e["type"] for e in events] == ["started", "rolled", "landed", "offer", "bought"]
    assert events[-1]["text"] == "Ann bought Baltic Avenue for 60."
    for e in events:
        assert set(e) == {"seq", "type", "text", "at", "undone"}
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", e["at"])
        assert e["undone"] is False


def test_an_undo_is_an_event_and_marks_the_events_it_took_back(game):
    game.do(ROLL_TO_BALTIC)
    before_buy = game.state
    game.do({"type": "buy"})
    answer = game.do({"type": "undo"})
    assert answer["events"] == [
        {"seq": 6, "type": "undone", "text": "Undid: Ann bought Baltic Avenue for 60."}
    ]
    assert {**answer["state"], "version": 0} == {**before_buy, "version": 0}
    events = game.history()
    assert [(e["seq"], e["type"], e["undone"]) for e in events[-2:]] == [
        (5, "bought", True),
        (6, "undone", False),
    ]
    assert not any(e["undone"] for e in events[:-2])


# -- refusals: each leaves the game exactly as it was -----------------------------------------


def _no_token(game):
    return game.table.client.post(f"/api/v1/games/{game.id}/commands", json=ROLL_TO_BALTIC)


def _not_bearer(game):
    return game.table.client.post(
        f"/api/v1/games/{game.id}/commands",
        json=ROLL_TO_BALTIC,
        headers={"Authorization": f"Basic {game.banker_token}"},
    )


REFUSALS = {
    "malformed JSON": (
        lambda g: g.send(raw='{"type": "roll",'),
        400,
        "malformed_json",
    ),
    "JSON nested too deep to parse": (
        lambda g: g.send(raw="[" * 100_000),
        400,
        "malformed_json",
    ),
    "a body that is not UTF-8": (
        lambda g: g.send(raw=b'{"type": "\xff"}'),
        400,
        "malformed_json",
    ),
    "a body that is not an object": (lambda g: g.send([ROLL_TO_BALTIC]), 400, "not_an_object"),
    "a command without a type": (lambda g: g.send({"player": "p1"}), 400, "unknown_command"),
    "an unknown command type": (lambda g: g.send({"type": "teleport"}), 400, "unknown_command"),
    "dice of the wrong type": (
        lambda g: g.send({**ROLL_TO_BALTIC, "dice": "1 and 2"}),
        400,
        "wrong_type",
    ),
    "an unknown player id": (
        lambda g: g.send({**ROLL_TO_BALTIC, "player": "p9"}),
        400,
        "unknown_player",
    ),
    "out-of-range dice": (
        lambda g: g.send({**ROLL_TO_BALTIC, "dice": [0, 7]}),
        400,
        "out_of_range",
    ),
    "a roll out of turn": (
        lambda g: g.send({**ROLL_TO_BALTIC, "player": "p2"}),
        422,
        "not_your_turn",
    ),
    "buying with nothing on offer": (lambda g: g.send({"type": "buy"}), 422, "no_offer"),
    "no token": (_no_token, 401, "token_missing"),
    "a token that is not a bearer token": (_not_bearer, 401, "token_missing"),
    "a wrong token": (lambda g: g.send(ROLL_TO_BALTIC, token="x" * 32), 403, "token_not_allowed"),
    "a player token sending a banker command": (
        lambda g: g.send(ROLL_TO_BALTIC, token=g.tokens["p1"]),
        403,
        "banker_only",
    ),
    "a stale expected_version": (
        lambda g: g.send({**ROLL_TO_BALTIC, "expected_version": 0}),
        409,
        "version_conflict",
    ),
    "an expected_version that is not a whole number": (
        lambda g: g.send({**ROLL_TO_BALTIC, "expected_version": "1"}),
        400,
        "wrong_type",
    ),
    "an expected_version of true": (
        lambda g: g.send({**ROLL_TO_BALTIC, "expected_version": True}),
        400,
        "wrong_type",
    ),
    "an empty Idempotency-Key": (
        lambda g: g.send(ROLL_TO_BALTIC, headers={"Idempotency-Key": ""}),
        400,
        "bad_idempotency_key",
    ),
}


@pytest.mark.parametrize("refusal", REFUSALS, ids=list(REFUSALS))
def test_a_refused_command_answers_its_status_and_a_sentence_and_changes_nothing(game, refusal):
    send, status, code = REFUSALS[refusal]
    before = game.now()
    assert_refused(send(game), status, code)
    assert game.now() == before


def test_a_stale_expected_version_is_refused_with_409_and_changes_nothing(game):
    before = game.now()
    error = assert_refused(game.send({**ROLL_TO_BALTIC, "expected_version": 7}), 409)
    assert error["message"] == "The game is at version 1, not 7; reload it and try again."
    assert game.now() == before


def test_a_current_expected_version_is_accepted(game):
    assert game.do({**ROLL_TO_BALTIC, "expected_version": 1})["version"] == 2


def test_a_token_of_another_game_is_refused_with_403(game, new_game):
    other = new_game()
    r = game.table.client.get(f"/api/v1/games/{game.id}", headers=other.auth())
    assert_refused(r, 403, "token_not_allowed")
    r = game.table.client.get(
        f"/api/v1/games/{game.id}/events", headers=other.auth(other.tokens["p1"])
    )
    assert_refused(r, 403, "token_not_allowed")


def test_a_token_with_characters_no_token_has_is_refused_with_403(client, game):
    r = client.get(f"/api/v1/games/{game.id}", headers={"Authorization": "Bearer caf\u00e9"})
    assert_refused(r, 403, "token_not_allowed")
    assert client.get(f"/games/{game.id}?token=caf%C3%A9").status_code == 403


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", ""), ("get", "/events"), ("post", "/commands")],
)
def test_an_unknown_game_is_404_whatever_the_token(client, game, method, path):
    for headers in [{}, game.auth()]:
        r = getattr(client, method)(f"/api/v1/games/nosuchgame{path}", headers=headers, json={})
        assert_refused(r, 404, "game_not_found")


@pytest.mark.parametrize("path", ["", "/events"])
def test_reading_a_game_needs_a_token(game, path):
    r = game.table.client.get(f"/api/v1/games/{game.id}{path}")
    assert_refused(r, 401, "token_missing")
    assert r.headers["WWW-Authenticate"] == "Bearer"


# -- rent claims by players --------------------------------------------------------------------


@pytest.fixture
def claim(game):
    """Ann owns Baltic Avenue and Bob just landed on it: claim c1, Ann may ask Bob for 4."""
    game.do(ROLL_TO_BALTIC)
    game.do({"type": "buy"})
    answer = game.do({"type": "roll", "player": "p2", "dice": [1, 2]})
    claims = answer["state"]["pending"]["rent_claims"]
    assert claims == [
        {"id": "c1", "owner": "p1", "payer": "p2", "property": "baltic-avenue", "amount": 4}
    ]
    return claims[0]


def test_a_player_may_claim_rent_owed_to_that_player(game, claim):
    answer = game.do({"type": "claim_rent", "claim": "c1"}, token=game.tokens["p1"])
    cash = {p["id"]: p["cash"] for p in answer["state"]["players"]}
    assert cash == {"p1": 1500 - 60 + 4, "p2": 1500 - 4}
    assert answer["state"]["pending"]["rent_claims"] == []


@pytest.mark.parametrize(
    "command",
    [
        {"type": "claim_rent", "claim": "c1"},  # owed to Ann, not to Bob
        {"type": "adjust", "player": "p2", "amount": 100, "reason": "Bonus"},
        {"type": "undo"},
    ],
)
def test_a_player_may_do_nothing_else_and_is_refused_with_403(game, claim, command):
    before = game.now()
    assert_refused(game.send(command, token=game.tokens["p2"]), 403, "banker_only")
    assert game.now() == before


@pytest.mark.parametrize(
    ("command", "status", "code"),
    [
        ({"type": "claim_rent", "claim": "c99"}, 422, "no_such_claim"),
        ({"type": "claim_rent"}, 400, "missing_field"),
    ],
)
def test_a_players_claim_that_is_not_open_is_refused_by_the_rules_not_the_token(
    game, claim, command, status, code
):
    """The token may claim rent; a claim no longer open (or none named) is the core's refusal."""
    before = game.now()
    assert_refused(game.send(command, token=game.tokens["p1"]), status, code)
    assert game.now() == before


def test_the_banker_may_claim_rent_for_a_player(game, claim):
    answer = game.do({"type": "claim_rent", "claim": "c1"})
    assert answer["state"]["pending"]["rent_claims"] == []


# -- Idempotency-Key ---------------------------------------------------------------------------


def test_a_repeated_idempotency_key_returns_the_first_answer_and_applies_nothing(game):
    key = {"Idempotency-Key": "roll-1"}
    first = game.send(ROLL_TO_BALTIC, headers=key)
    assert first.status_code == 200
    after_first = game.now()
    again = game.send(ROLL_TO_BALTIC, headers=key)
    assert again.status_code == 200
    assert again.data == first.data
    assert again.headers["Idempotent-Replayed"] == "true"
    assert game.now() == after_first
    # A different command under the same key is refused as such, and nothing is applied.
    game.refused(422, {"type": "buy", "expected_version": 99}, headers=key,
                 code="idempotency_key_reused")  # fmt: skip
    assert game.now() == after_first


def test_idempotency_keys_are_scoped_to_one_game(game, new_game):
    other = new_game()
    other.do({"type": "start", "first": "p2"})
    key = {"Idempotency-Key": "same-key"}
    game.do(ROLL_TO_BALTIC, headers=key)
    answer = other.do({"type": "roll", "player": "p2", "dice": [2, 3]}, headers=key)
    assert answer["version"] == 2
    assert answer["state"]["players"][1]["position"] == 5


def test_a_refused_command_does_not_use_up_its_idempotency_key(game):
    key = {"Idempotency-Key": "k"}
    assert_refused(game.send({"type": "buy"}, headers=key), 422)
    assert game.do(ROLL_TO_BALTIC, headers=key)["version"] == 2


def test_a_player_repeating_a_rent_claim_gets_the_first_answer(game, claim):
    key = {"Idempotency-Key": "claim-c1"}
    ann = game.tokens["p1"]
    first = game.send({"type": "claim_rent", "claim": "c1"}, token=ann, headers=key)
    assert first.status_code == 200
    again = game.send({"type": "claim_rent", "claim": "c1"}, token=ann, headers=key)
    assert again.data == first.data


# -- Flask's own errors under /api/ ------------------------------------------------------------


def test_an_unknown_api_path_is_a_json_404(client):
    assert_refused(client.get("/api/v1/nothing-here"), 404, "not_found")


def test_a_wrong_method_is_a_json_405(client, game):
    r = client.delete(f"/api/v1/games/{game.id}", headers=game.auth())
    assert_refused(r, 405, "method_not_allowed")
    assert "GET" in r.headers["Allow"]


def test_a_body_over_one_megabyte_is_a_json_413_and_changes_nothing(game):
    before = game.now()
    big = '{"type": "roll", "pad": "' + "x" * (1024 * 1024) + '"}'
    r = game.send(raw=big)
    assert_refused(r, 413, "body_too_large")
    assert game.now() == before


def test_pages_outside_the_api_keep_html_errors(client):
    r = client.get("/no-such-page")
    assert r.status_code == 404
    assert r.mimetype == "text/html"


# -- pages behind the URLs ---------------------------------------------------------------------


def test_the_banker_url_opens_a_page_naming_the_game_and_its_players(client, new_game):
    g = new_game(["Ann", "Bob"])
    r = client.get(g.created["banker_url"], follow_redirects=True)  # token -> cookie -> clean URL
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert g.id in page and "Ann" in page and "Bob" in page


def test_the_banker_page_needs_the_banker_token(client, new_game):
    g = new_game()
    assert client.get(f"/games/{g.id}").status_code == 403
    assert client.get(f"/games/{g.id}?token={g.tokens['p1']}").status_code == 403
    assert client.get(f"/games/nosuchgame?token={g.banker_token}").status_code == 404


def test_a_join_url_opens_a_page_naming_the_game_and_the_player(client, new_game):
    g = new_game(["Ann", "Bob"])
    r = client.get(g.created["players"][1]["join_url"])
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert g.id in page and "<h1>Bob</h1>" in page
    assert client.get("/join/not-a-token").status_code == 404


def test_the_home_page_says_what_banker_is(client):
    r = client.get("/")
    assert r.status_code == 200
    assert "Banker" in r.get_data(as_text=True)


def test_an_unexpected_server_error_under_the_api_is_a_json_500(db_path):
    app = create_app({"DATABASE": str(db_path)})  # not TESTING: errors are answered, not raised

    @app.get("/api/v1/boom")
    def boom():
        raise RuntimeError("a bug")

    try:
        assert_refused(app.test_client().get("/api/v1/boom"), 500, "internal_error")
    finally:
        app.extensions["banker.store"].close()


# -- any command at all: an answer from the contract, and a refusal changes nothing -----------

COMMAND_TYPES = [
    "start", "roll", "buy", "auction", "bid", "close_auction", "draw_card", "rent_roll",
    "claim_rent", "pay_jail_fine", "use_jail_card", "build", "sell_building",
    "building_auction", "mortgage", "unmortgage", "trade", "pay_debt", "bankrupt",
    "call_time", "adjust", "move", "undo", "teleport",
]  # fmt: skip
ANY_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 45)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["p1", "p2", "p3", "baltic-avenue", "boardwalk", "c1", "chance", "house"])
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["cash", "properties", "jail_cards", "x"]), inner)
    ),
    max_leaves=6,
)
ANY_COMMAND = st.fixed_dictionaries(
    {"type": st.sampled_from(COMMAND_TYPES)},
    optional={
        field: ANY_JSON
        for field in [
            "first", "player", "dice", "amount", "property", "deck", "card", "claim", "kind",
            "from", "to", "give", "receive", "unmortgage", "reason", "position",
            "expected_version",
        ]
    },
)  # fmt: skip


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(opening=st.sampled_from([[], [ROLL_TO_BALTIC], [ROLL_TO_BALTIC, {"type": "auction"}]]),
       command=ANY_COMMAND)  # fmt: skip
def test_any_command_gets_a_contract_answer_and_a_refusal_changes_nothing(
    new_game, opening, command
):
    g = new_game(["Ann", "Bob"])
    g.do({"type": "start", "first": "p1"})
    for c in opening:
        g.do(c)
    before = g.now()
    r = g.send(command)
    if r.status_code == 200:
        assert r.get_json()["version"] == before[0]["version"] + 1
    else:
        assert_refused(r, r.status_code)
        assert r.status_code in (400, 409, 422)
        assert g.now() == before
