"""What a stranger may cost, in process: bounded import, bounded storage, limits on new games,
every input has an answer, names that cannot fool the table, and no token in a log line."""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from banker import snapshot
from banker.rules import BadCommand
from banker.rules.names import normalised_names
from banker.web import create_app
from banker.web.common.limits import RedactTokens
from banker.web.common.link_shapes import redact
from bench.hostile import compact, crafted_snapshot, real_snapshot
from tests.game import Game
from tests.table_web import FlaskTable


def count(db_path, sql: str) -> int:
    with sqlite3.connect(db_path) as conn:
        return conn.execute(sql).fetchone()[0]


def new_game(client, names=("Ann", "Bob")) -> Game:
    r = client.post("/api/v1/games", json={"players": list(names)})
    assert r.status_code == 201, r.get_json()
    return Game.of(FlaskTable(client), r.get_json())


def refused(r, status: int, code: str) -> str:
    """The refusal's sentence, after checking its status and code."""
    assert r.status_code == status, r.get_data(as_text=True)[:300]
    error = r.get_json()["error"]
    assert error["code"] == code, error
    assert error["message"].endswith(".") and len(error["message"]) > 20
    return error["message"]


@pytest.fixture(scope="module")
def real_doc():
    return real_snapshot(events=5000)


# -- 1. bounded import ------------------------------------------------------------------------


@pytest.fixture
def applied(monkeypatch):
    """How many commands an import replays through the core (the expensive part)."""
    calls = []
    real = snapshot.rules.apply

    def counting(state, command, seat=None):
        calls.append(command)
        return real(state, command, seat)

    monkeypatch.setattr(snapshot.rules, "apply", counting)
    return calls


# Speed is the benchmark's (bench.hostile prints the seconds); a test shows the work not done.
def test_the_crafted_snapshot_of_the_issue_is_refused_with_a_422_before_any_replay(
    client, db_path, applied
):
    doc = crafted_snapshot(moves=48_000)
    data = compact(doc)
    assert 4_000_000 < len(data) <= snapshot.MAX_BYTES  # about 5 MB, under the size limit
    games = count(db_path, "select count(*) from games")
    applied.clear()  # making the file replayed its real commands
    r = client.post("/api/v1/games/import", data=data, headers={"Content-Type": "application/json"})
    message = refused(r, 422, "snapshot_too_long")
    assert "48,010 commands" in message and "at most 12,000" in message
    assert applied == []
    assert count(db_path, "select count(*) from games") == games


def test_a_log_whose_events_do_not_match_its_commands_is_refused_before_any_replay(client, applied):
    doc = crafted_snapshot(moves=5_000)  # under the command limit, but no events
    applied.clear()
    r = client.post("/api/v1/games/import", json=doc)
    assert applied == []
    assert "every command makes at least one event" in refused(r, 422, "log_mismatch")


def test_a_forged_command_in_a_long_log_is_refused_by_the_state_it_replays_to(client, real_doc):
    doc = json.loads(json.dumps(real_doc))
    commands = doc["commands"]
    last_bid = next(
        c
        for c, after in zip(commands[40:], commands[41:], strict=False)
        if c["command"]["type"] == "bid" and after["command"]["type"] == "close_auction"
    )
    last_bid["command"]["amount"] += 1  # a dollar more paid for a deed: the recorded state says not
    message = refused(client.post("/api/v1/games/import", json=doc), 422, "state_mismatch")
    assert "The file was changed or damaged after it was saved" in message


def test_a_replay_over_its_cpu_budget_is_refused_and_stores_nothing(
    client, db_path, real_doc, monkeypatch
):
    monkeypatch.setattr(snapshot, "MAX_REPLAY_SECONDS", 0.05)
    games = count(db_path, "select count(*) from games")
    message = refused(
        client.post("/api/v1/games/import", json=real_doc), 422, "snapshot_too_costly"
    )
    assert "took more than 0.05 seconds" in message
    assert count(db_path, "select count(*) from games") == games


def test_a_real_5000_event_snapshot_still_imports_and_stores_no_answers(client, db_path, real_doc):
    assert len(real_doc["events"]) >= 5000
    r = client.post("/api/v1/games/import", json=real_doc)
    assert r.status_code == 201, r.get_json()
    game_id = r.get_json()["game_id"]
    commands = count(db_path, f"select count(*) from commands where game_id = '{game_id}'")
    assert commands == len(real_doc["commands"])
    # No answer is stored: only, before each roll, the players and deeds the story reads.
    where = f"from commands where game_id = '{game_id}' and response != ''"
    assert count(db_path, f"select count(*) {where} and json_extract(response, '$.events')") == 0
    rolls = sum(c["command"]["type"] == "roll" for c in real_doc["commands"][1:])
    assert count(db_path, f"select count(*) {where}") == rolls


# -- 2. bounded storage -----------------------------------------------------------------------


def test_answers_are_kept_only_for_keyed_commands_and_only_the_latest_few(client, db_path, store):
    store.remembered_answers = 3
    g = new_game(client)
    g.do({"type": "start", "first": "p1"})  # no key: no answer kept
    for i in range(5):
        g.do({"type": "adjust", "player": "p1", "amount": 1, "reason": "x"},
             headers={"Idempotency-Key": f"k{i}"})  # fmt: skip
    rows = sqlite3.connect(db_path).execute(
        "select version, idempotency_key, response != '' from commands where game_id = ? "
        "order by version",
        [g.id],
    )
    assert list(rows) == [
        (1, None, 0),
        (2, None, 0),
        (3, None, 0),
        (4, "k2", 1),
        (5, "k3", 1),
        (6, "k4", 1),
    ]
    # A kept key still repeats its answer; the Banker's game goes on.
    again = g.send({"type": "adjust", "player": "p1", "amount": 1, "reason": "x"},
                   headers={"Idempotency-Key": "k4"})  # fmt: skip
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert g.state["version"] == 6


@pytest.fixture
def limited(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "limited.db"),
            "LIMIT_LOOPBACK": True,
            "CREATES_PER_MINUTE": 3,
        }
    )
    yield app
    app.extensions["banker.store"].close()


def test_a_client_making_games_too_fast_gets_429_with_retry_after_while_others_go_on(limited):
    client = limited.test_client()
    first = new_game(client)
    new_game(client)
    client.post("/api/v1/games/import", json={"format": "banker-snapshot"})  # counts too
    r = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
    message = refused(r, 429, "too_many_games")
    assert "3 games in the last minute" in message
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    page = client.post("/games", data={"name": ["Ann", "Bob"]})  # the home page's form
    assert page.status_code == 429 and "in the last minute" in page.get_data(as_text=True)
    # Another address may still create; the Banker's game goes on.
    other = limited.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert other.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).status_code == 201
    assert first.do({"type": "start", "first": "p1"})["version"] == 1


def test_the_ceilings_on_games_and_database_size_refuse_new_games_while_games_go_on(app, client):
    g = new_game(client)
    app.config["MAX_GAMES"] = 1
    message = refused(client.post("/api/v1/games", json={"players": ["A", "B"]}), 503,
                      "server_full")  # fmt: skip
    assert "1 games, its ceiling" in message
    assert g.do({"type": "start", "first": "p1"})["version"] == 1
    app.config["MAX_GAMES"] = 100
    app.config["MAX_DB_BYTES"] = 1
    refused(client.post("/api/v1/games", json={"players": ["A", "B"]}), 507, "disk_full")
    assert g.do({"type": "roll", "player": "p1", "dice": [1, 2]})["version"] == 2


def test_the_home_page_shows_only_the_games_this_browser_knows(client, app):
    mine, theirs = new_game(client, ("Ann", "Bob")), new_game(client, ("Zed", "Yan"))
    client.set_cookie("banker_games", mine.id)
    html = client.get("/").get_data(as_text=True)
    assert mine.id in html and theirs.id not in html and "Zed" not in html
    assert "other game" not in html


# -- 5. every input has an answer -------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b'{"players": ["Ann", "B\\ud800ob"]}',
        b'{"players": ["Ann", "Bob"], "options": {"\\udfff": true}}',
    ],
)
def test_a_lone_surrogate_in_a_new_game_is_400_with_a_sentence(client, db_path, body):
    r = client.post("/api/v1/games", data=body, headers={"Content-Type": "application/json"})
    assert "not valid Unicode" in refused(r, 400, "bad_text")


def test_a_lone_surrogate_in_a_reason_is_400_and_changes_nothing(client):
    g = new_game(client)
    g.do({"type": "start", "first": "p1"})
    body = b'{"type": "adjust", "player": "p1", "amount": 5, "reason": "oops \\udc00"}'
    r = g.send(raw=body, headers={"Content-Type": "application/json"})
    refused(r, 400, "bad_text")
    assert g.state["version"] == 1


def test_a_lone_surrogate_in_an_imported_log_is_a_400_not_a_500(client, db_path, real_doc):
    doc = json.loads(json.dumps(real_doc))
    doc["game"]["players"][0] = "An\ud800n"
    data = json.dumps(doc).encode()  # ensure_ascii: the surrogate travels as \\ud800
    r = client.post("/api/v1/games/import", data=data,
                    headers={"Content-Type": "application/json"})  # fmt: skip
    assert r.status_code == 400 and "surrogate" in r.get_json()["error"]["message"]


@pytest.mark.parametrize("value", ["²", "¹²", "9" * 4300, "1e3"])
def test_odd_digits_in_every_query_and_form_field_answer_a_sentence_never_500(client, value):
    g = new_game(client)
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    token = g.tokens["p2"]
    for url in (
        f"/join/{token}/version?v={value}",
        f"/join/{token}?v={value}",
        f"/games/{g.id}/poll?v={value}&token={g.banker_token}",
        f"/games/{g.id}/trade?token={g.banker_token}&from=p1&to=p2&give_cash={value}",
    ):
        r = client.get(url)
        assert r.status_code < 500, url
    client.set_cookie(f"banker_{g.id}", g.banker_token, path=f"/games/{g.id}")
    forms = [
        {"type": "trade", "from": "p1", "to": "p2", "give_properties": "baltic-avenue",
         "receive_cash": "1", "expected_version": value},
        {"type": "trade", "from": "p1", "to": "p2", "give_properties": "baltic-avenue",
         "receive_cash": value},
        {"type": "trade", "from": "p1", "to": "p2", "give_cash": value, "receive_cash": "1"},
        {"type": "adjust", "player": "p1", "amount": value, "reason": "x"},
    ]  # fmt: skip
    for form in forms:
        r = client.post(f"/games/{g.id}/act", data=form, headers={"HX-Request": "true"})
        assert r.status_code in (400, 409, 422), (form, r.status_code)
    assert g.state["version"] == 2
    for digits, code in ((4300, "wrong_type"), (5000, "malformed_json")):
        body = b'{"type": "roll", "player": "p2", "dice": [1, 2], "expected_version": ' + (
            b"9" * digits + b"}"
        )
        r = g.send(raw=body, headers={"Content-Type": "application/json"})
        refused(r, 400, code)
        body = b'{"type": "adjust", "player": "p1", "reason": "x", "amount": -' + (
            b"9" * digits + b"}"
        )
        r = g.send(raw=body, headers={"Content-Type": "application/json"})
        assert r.status_code in (400, 422) and r.get_json()["error"]["message"]
    assert g.state["version"] == 2


def test_no_token_reaches_a_log_line():
    assert redact("GET /join/abcDEF123_-/version?v=2") == "GET /join/…/version?v=2"
    assert redact("/games/k3mpq8xz/poll?token=s3cr3t&v=1") == "/games/k3mpq8xz/poll?token=…&v=1"
    assert redact("Authorization: Bearer s3cr3t") == "Authorization: Bearer …"
    assert redact("/display/s3cr3t") == "/display/…"
    record = logging.LogRecord("waitress", logging.ERROR, __file__, 1,
                               "Exception while serving %s", ("/join/s3cr3t/version",),
                               None)  # fmt: skip
    try:
        raise ValueError("bad /join/s3cr3t")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    RedactTokens().filter(record)
    assert "s3cr3t" not in logging.Formatter().format(record)


# -- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "names, words",
    [
        (["Ann", "Аnn"], "look alike ('Ann' and 'Аnn')"),  # Cyrillic А
        (["Ann", "ΑΝΝ"], "look alike"),  # Greek capitals
        (["Zoë", "Zoe"], "look alike"),
        (["Al", "A1"], "look alike"),
        (["Ann", "ann"], "the same name"),
    ],
)
def test_two_names_that_look_alike_are_refused_as_duplicates(client, db_path, names, words):
    r = client.post("/api/v1/games", json={"players": names})
    assert words in refused(r, 400, "duplicate_name")
    assert count(db_path, "select count(*) from games") == 0


@pytest.mark.parametrize(
    "name",
    ["Bob\u202e", "\u200bBob", "Bo\u0000b", "Bo\tb", "B\u2028ob", "B\ue000ob", "Bo" + "\u0301" * 5],
)
def test_names_with_invisible_control_or_bidi_characters_are_refused_with_a_sentence(client, name):
    r = client.post("/api/v1/games", json={"players": ["Ann", name]})
    assert "type it" in refused(r, 400, "bad_name")


def test_names_are_kept_normalised_nfc_and_trimmed():
    assert normalised_names(["  Zoe\u0301  ", "Bob  Lee"]) == ["Zoé", "Bob Lee"]
    with pytest.raises(BadCommand):
        normalised_names(["Zoé", "Zoe\u0301"])  # the same name, composed two ways


def test_the_story_still_reads_each_rounds_start_after_answers_are_forgotten(app, client, store):
    store.remembered_answers = 2
    g = new_game(client, ("Ann", "Bob"))
    plays = [
        ({"type": "start", "first": "p1"}, None),
        ({"type": "roll", "player": "p1", "dice": [1, 2]}, "a"),  # Baltic
        ({"type": "buy"}, "b"),
        ({"type": "roll", "player": "p2", "dice": [4, 6]}, None),  # Just Visiting
        ({"type": "adjust", "player": "p2", "amount": 7, "reason": "x"}, "c"),
        ({"type": "roll", "player": "p1", "dice": [1, 3]}, "d"),
        ({"type": "adjust", "player": "p1", "amount": 1, "reason": "x"}, "e"),
        ({"type": "adjust", "player": "p1", "amount": 1, "reason": "x"}, "f"),
    ]
    for command, key in plays:
        g.do(command, headers={"Idempotency-Key": key} if key else {})
    store = app.extensions["banker.store"]
    states = store.states_at(g.id, [1, 3, 5])  # just before each roll
    assert sorted(states) == [1, 3, 5]
    assert states[3]["players"] == [{"id": "p1", "cash": 1440}, {"id": "p2", "cash": 1500}]
    assert states[3]["properties"] == {
        "baltic-avenue": {"owner": "p1", "mortgaged": False, "houses": 0, "hotel": False}
    }
    assert states[5]["players"][1]["cash"] == 1507
