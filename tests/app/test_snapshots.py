"""Pause and resume: the snapshot document, importing it (and refusing every damaged one with
nothing created), the pause page with its paper record and file, and Resume from file."""

from __future__ import annotations

import copy
import io
import json
import sqlite3
from datetime import date

import pytest

import banker
from banker import snapshot
from banker.web import create_app
from tests.game import Game
from tests.table_web import CREATED_FIELDS, FlaskTable

# Ann buys Baltic, Bob draws a Get Out of Jail Free card and buys Reading Railroad, Ann buys
# Mediterranean and builds three houses, Bob mortgages his railroad, goes to Jail and fails a
# first attempt at doubles. Ann rolls next.
SCRIPT = [
    {"type": "start", "first": "p1"},
    {"type": "roll", "player": "p1", "dice": [1, 2]},
    {"type": "buy"},
    {"type": "roll", "player": "p2", "dice": [1, 1]},
    {"type": "draw_card", "deck": "community_chest", "card": "get-out-of-jail-free"},
    {"type": "roll", "player": "p2", "dice": [1, 2]},
    {"type": "buy"},
    {"type": "move", "player": "p1", "position": 38},
    {"type": "roll", "player": "p1", "dice": [1, 2]},
    {"type": "buy"},
    {"type": "build", "property": "baltic-avenue"},
    {"type": "build", "property": "mediterranean-avenue"},
    {"type": "build", "property": "baltic-avenue"},
    {"type": "mortgage", "property": "reading-railroad"},
    {"type": "move", "player": "p2", "position": 25},
    {"type": "roll", "player": "p2", "dice": [2, 3]},
    {"type": "roll", "player": "p1", "dice": [2, 4]},
    {"type": "draw_card", "deck": "chance", "card": "bank-dividend-50"},
    {"type": "roll", "player": "p2", "dice": [1, 2]},
]


def games_in(db_path) -> int:
    with sqlite3.connect(db_path) as conn:
        return conn.execute("select count(*) from games").fetchone()[0]


def play_script(g: Game) -> Game:
    """The SCRIPT played through the API (with an expected_version on one command)."""
    for i, command in enumerate(SCRIPT):
        extra = {"expected_version": i} if i == 3 else {}
        g.do({**command, **extra})
    return g


@pytest.fixture
def played(new_game):
    """The SCRIPT played in the test's own app."""
    return play_script(new_game(["Ann", "Bob"]))


@pytest.fixture(scope="session")
def script_snapshot(tmp_path_factory) -> dict:
    """The SCRIPT's game as a snapshot document, played once for every test that only reads
    it (copy.deepcopy it before changing it)."""
    folder = tmp_path_factory.mktemp("script")
    app = create_app({"TESTING": True, "DATABASE": str(folder / "banker.db")})
    try:
        return get_snapshot(play_script(Game(FlaskTable(app.test_client()), ["Ann", "Bob"])))
    finally:
        app.extensions["banker.store"].close()


def get_snapshot(g, token=None):
    r = g.table.client.get(f"/api/v1/games/{g.id}/snapshot", headers=g.auth(token))
    assert r.status_code == 200, r.get_json()
    assert r.mimetype == "application/json"
    return r.get_json()


def import_snapshot(client, doc):
    return client.post("/api/v1/games/import", json=doc)


# -- the document -------------------------------------------------------------------------


def test_a_snapshot_holds_the_game_as_created_every_command_every_event_and_the_state(
    played, store
):
    doc = get_snapshot(played)
    assert list(doc) == [
        "format",
        "format_version",
        "banker_version",
        "exported_at",
        "game",
        "commands",
        "events",
        "state",
    ]
    assert (doc["format"], doc["format_version"]) == ("banker-snapshot", 2)
    assert doc["banker_version"] == banker.__version__
    assert doc["game"] == {
        "id": played.id,
        "edition": "g0009",
        "players": ["Ann", "Bob"],
        "options": None,
        "created_at": doc["game"]["created_at"],
    }
    # The commands as accepted (expected_version is not part of a command), in version order.
    assert [c["command"] for c in doc["commands"]] == SCRIPT
    assert [c["version"] for c in doc["commands"]] == list(range(1, len(SCRIPT) + 1))
    # The events as /events shows them, with the version that made each.
    assert [{k: e[k] for k in ("seq", "type", "text", "at", "undone")} for e in doc["events"]] == (
        played.history()
    )
    assert doc["events"][0]["version"] == 1 and doc["events"][-1]["version"] == len(SCRIPT)
    # The state is the internal one: the public fields and the core's bookkeeping for undo.
    assert doc["state"] == json.loads(json.dumps(store.state(played.id)))
    assert {k: v for k, v in doc["state"].items() if not k.startswith("_")} == played.state
    assert len(doc["state"]["_undo"]) == 1  # Bob's roll in Jail can still be undone


def test_only_the_banker_token_may_take_a_snapshot(played, client):
    url = f"/api/v1/games/{played.id}/snapshot"
    player = client.get(url, headers=played.auth(played.tokens["p1"]))
    assert player.status_code == 403
    assert player.get_json()["error"]["code"] == "banker_only"
    assert client.get(url).status_code == 401
    assert client.get(url, headers=played.auth("not-a-token")).status_code == 403
    assert client.get("/api/v1/games/nosuchgame/snapshot", headers=played.auth()).status_code == (
        404
    )


# -- importing ----------------------------------------------------------------------------


def test_an_imported_snapshot_is_a_new_game_in_exactly_that_state_with_fresh_tokens(
    played, client, store
):
    doc = get_snapshot(played)
    r = import_snapshot(client, doc)
    assert r.status_code == 201, r.get_json()
    created = r.get_json()
    assert list(created) == [*CREATED_FIELDS, "events"]
    assert created["events"] == []  # nothing to say: it resumed as it was saved
    new_id = created["game_id"]
    assert new_id != played.id
    assert created["banker_url"] == (
        f"http://localhost/games/{new_id}?token={created['banker_token']}"
    )
    assert [(p["id"], p["name"]) for p in created["players"]] == [("p1", "Ann"), ("p2", "Bob")]
    old_tokens = {played.banker_token, *played.tokens.values()}
    new_tokens = {created["banker_token"], *(p["token"] for p in created["players"])}
    assert not old_tokens & new_tokens and len(new_tokens) == 3
    for p in created["players"]:
        assert p["join_url"].startswith("http://localhost/join/")
        assert p["join_url"].endswith(p["token"])

    # The same state, version included; only the game id is the new one, inside too.
    expected = {**played.state, "game_id": new_id}
    assert created["state"] == expected
    r = client.get(f"/api/v1/games/{new_id}", headers={"Authorization": f"Bearer {p['token']}"})
    assert r.get_json() == expected
    internal = json.loads(json.dumps(store.state(played.id)))
    assert store.state(new_id) == {**internal, "game_id": new_id}  # undo's changes too
    # The history came along: /events is the same list, times and undone marks included.
    r = client.get(
        f"/api/v1/games/{new_id}/events", headers={"Authorization": f"Bearer {p['token']}"}
    )
    assert r.get_json() == played.history()
    assert store.commands(new_id) == SCRIPT
    # The old tokens mean nothing to the new game, and the old game is untouched.
    r = client.get(f"/api/v1/games/{new_id}", headers=played.auth())
    assert r.status_code == 403
    assert played.state["version"] == len(SCRIPT)


def test_play_and_undo_carry_on_in_an_imported_game_exactly_as_in_the_original(played, client):
    doc = get_snapshot(played)
    created = import_snapshot(client, doc).get_json()
    resumed = Game.of(played.table, created)

    def strip(answer):
        return {**answer, "state": {**answer["state"], "game_id": None}}

    # Undo reaches back to Bob's roll in Jail in both, with the same answer.
    for g in (played, resumed):
        answer = g.do({"type": "undo"})
        assert answer["events"][0]["text"] == (
            "Undid: Bob rolled 1 and 2 in Jail: no doubles (attempt 1 of 3)."
        )
        assert answer["state"]["players"][1]["jail_attempts"] == 0
    assert {**played.state, "game_id": None} == {**resumed.state, "game_id": None}
    # And play goes on the same way: Bob pays his fine, rolls and buys; Ann rolls.
    for command in (
        {"type": "pay_jail_fine", "player": "p2"},
        {"type": "roll", "player": "p2", "dice": [6, 5]},
        {"type": "buy"},
        {"type": "roll", "player": "p1", "dice": [3, 4]},
    ):
        assert strip(played.do(command)) == strip(resumed.do(command))
    assert resumed.state["version"] == len(SCRIPT) + 5
    # Undone events are marked in both histories; the resumed one continues the same seqs.
    assert resumed.history() == [
        {**e, "at": r["at"]} for e, r in zip(played.history(), resumed.history(), strict=True)
    ]
    assert [e["undone"] for e in resumed.history()].count(True) == 1


def test_a_snapshot_survives_deleting_the_database_and_resumes_on_a_fresh_server(tmp_path):
    db = tmp_path / "banker.db"
    first = create_app({"TESTING": True, "DATABASE": str(db)})
    client = first.test_client()
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cat"]}).get_json()
    auth = {"Authorization": f"Bearer {created['banker_token']}"}
    url = f"/api/v1/games/{created['game_id']}"
    for command in [
        {"type": "start", "first": "p2"},
        {"type": "roll", "player": "p2", "dice": [3, 3]},  # Bob: Oriental Avenue, doubles
        {"type": "auction"},
        {"type": "bid", "player": "p3", "amount": 80},
        {"type": "close_auction"},  # Cat pays 80 for it
        {"type": "roll", "player": "p2", "dice": [5, 6]},  # Bob: Community Chest
        {"type": "draw_card", "deck": "community_chest", "card": "collect-10-from-each-player"},
    ]:
        assert client.post(f"{url}/commands", json=command, headers=auth).status_code == 200
    before = client.get(url, headers=auth).get_json()
    events_before = client.get(f"{url}/events", headers=auth).get_json()
    file = client.get(f"/games/{created['game_id']}/snapshot.json?token={created['banker_token']}")
    assert file.status_code == 200
    saved = tmp_path / "pause.json"
    saved.write_bytes(file.data)
    first.extensions["banker.store"].close()
    for path in tmp_path.glob("banker.db*"):
        path.unlink()

    fresh = create_app({"TESTING": True, "DATABASE": str(db)})
    try:
        client = fresh.test_client()
        assert games_in(db) == 0
        r = client.post(
            "/api/v1/games/import", data=saved.read_bytes(), content_type="application/json"
        )
        assert r.status_code == 201, r.get_json()
        resumed = r.get_json()
        auth = {"Authorization": f"Bearer {resumed['banker_token']}"}
        url = f"/api/v1/games/{resumed['game_id']}"
        assert client.get(url, headers=auth).get_json() == {**before, "game_id": resumed["game_id"]}
        assert client.get(f"{url}/events", headers=auth).get_json() == events_before
        # Play continues: Cat buys Baltic Avenue, Ann lands on Cat's Oriental Avenue and pays.
        for command in [
            {"type": "roll", "player": "p3", "dice": [1, 2]},
            {"type": "buy"},
            {"type": "roll", "player": "p1", "dice": [2, 4]},
        ]:
            r = client.post(f"{url}/commands", json=command, headers=auth)
            assert r.status_code == 200, r.get_json()
        claim = r.get_json()["state"]["pending"]["rent_claims"][0]
        assert (claim["owner"], claim["payer"], claim["amount"]) == ("p3", "p1", 6)
        r = client.post(
            f"{url}/commands", json={"type": "claim_rent", "claim": claim["id"]}, headers=auth
        )
        state = r.get_json()["state"]
        assert state["version"] == before["version"] + 4
        assert [p["cash"] for p in state["players"]] == [1484, 1520, 1356]
        assert state["turn"]["player"] == "p2"
    finally:
        fresh.extensions["banker.store"].close()


def test_a_partnership_game_and_a_finished_game_resume_too(new_game, client):
    teams = new_game(["Ann", "Bob", "Cat", "Dan"], options={"teams": True})
    teams.do({"type": "start", "first": "p2"})
    teams.do({"type": "roll", "player": "p2", "dice": [4, 5]})
    doc = get_snapshot(teams)
    assert doc["game"]["players"] == ["Ann", "Bob", "Cat", "Dan"]
    assert doc["game"]["options"] == {"teams": True}
    created = import_snapshot(client, doc).get_json()
    assert [p["name"] for p in created["players"]] == ["Ann & Bob", "Cat & Dan"]
    assert created["state"] == {**teams.state, "game_id": created["game_id"]}

    over = new_game(["Ann", "Bob"])
    over.do({"type": "start", "first": "p1"})
    over.do({"type": "adjust", "player": "p2", "amount": -1450, "reason": "a test"})
    over.do({"type": "roll", "player": "p1", "dice": [1, 3]})  # Ann: Income Tax
    over.do({"type": "roll", "player": "p2", "dice": [1, 3]})  # Bob owes 200 with 50
    over.do({"type": "bankrupt", "player": "p2"})
    assert over.state["status"] == "finished"
    created = import_snapshot(client, get_snapshot(over)).get_json()
    resumed = Game.of(over.table, created)
    assert resumed.state == {**over.state, "game_id": resumed.id}
    assert resumed.send({"type": "undo"}).status_code == 422


def mutate(doc, path: str, value):
    """A deep copy of doc with the value at a dotted path (list indexes as numbers) replaced;
    value DELETE removes the key."""
    doc = copy.deepcopy(doc)
    *parents, last = [int(k) if k.lstrip("-").isdigit() else k for k in path.split(".")]
    target = doc
    for key in parents:
        target = target[key]
    if value is DELETE:
        del target[last]
    else:
        target[last] = value
    return doc


DELETE = object()
MALFORMED = [
    ("format", "banker-backup", "not_a_snapshot", 'its "format" is not "banker-snapshot"'),
    ("format_version", 0, "unsupported_format_version", "format_version is 0"),
    ("format_version", "1", "unsupported_format_version", "reads format_version 1 to 2"),
    ("banker_version", "latest", "bad_snapshot", "banker_version must name a release"),
    ("state", DELETE, "bad_snapshot", "lacks the field 'state'"),
    ("comment", "hi", "bad_snapshot", "unknown field 'comment'"),
    ("exported_at", "yesterday", "bad_snapshot", "exported_at must be a date and time"),
    ("game.players", "Ann, Bob", "bad_snapshot", "game.players must be a list of names"),
    ("game.players", ["Ann"], "bad_snapshot", "A game has 2 to 6 players"),
    ("game.edition", "monopoly", "bad_snapshot", "'edition' must be"),
    ("game.options", [], "bad_snapshot", "game.options must be an object or null"),
    ("game.id", "", "bad_snapshot", "game.id must have 1 to 64 characters"),
    ("commands", {}, "bad_snapshot", "commands must be a list"),
    ("commands.4.version", 7, "bad_snapshot", "commands[4].version must be 5"),
    ("commands.4.version", True, "bad_snapshot", "commands[4].version must be 5"),
    ("commands.2.at", "at noon", "bad_snapshot", "commands[2].at must be a date and time"),
    ("commands.2.command", "buy", "bad_snapshot", "commands[2].command must be a JSON object"),
    ("commands.2.by", "Ann", "bad_snapshot", "commands[2] has an unknown field 'by'"),
    ("events.0.undone", "no", "bad_snapshot", "events[0].undone must be true or false"),
    ("events.0.seq", -1, "bad_snapshot", "events[0].seq must be between 1 and"),
    ("events.0.seq", 1.0, "bad_snapshot", "events[0].seq must be a whole number"),
    ("events.3.version", 99, "bad_snapshot", "events[3].version must be between 1 and 19"),
    ("events.3.text", "", "bad_snapshot", "events[3].text must have 1 to"),
    ("state", [], "bad_snapshot", "state must be a JSON object"),
    ("state.version", 18, "bad_snapshot", "state.version must be 19"),
    ("state.game_id", "elsewhere", "bad_snapshot", "state.game_id must be the snapshot's game.id"),
]
NOT_REPRODUCED = [
    ("game.options", {"teams": True}, "game_refused", "exactly four names"),
    ("commands.1.command.player", "p2", "log_refused", "Command 2 of the log (roll) is refused"),
    ("commands.2.command", {"type": "sell"}, "log_refused", "Unknown command type 'sell'"),
    ("events.-1", DELETE, "log_mismatch", "The last event belongs to command 18, not to the last"),
    ("events.5.undone", True, "log_mismatch", "events[5].undone must be false"),
    ("state.players.0.cash", 1490, "state_mismatch", "state.players[0].cash (recorded 1490, "),
    ("state.players.0.cash", 1480.0, "state_mismatch", "state.players[0].cash (recorded a "),
    ("state.bank.houses", 32, "state_mismatch", "they differ at state.bank.houses"),
    ("state._undo", [], "state_mismatch", "state._undo (length 0, not 1)"),
    ("state.properties.boardwalk.owner", "p1", "state_mismatch", "properties.boardwalk.owner"),
    ("state.cheats", True, "state_mismatch", "they differ at state.cheats"),
]


@pytest.mark.parametrize(
    "path, value, status, code, words",
    [(p, v, 400, c, w) for p, v, c, w in MALFORMED]
    + [(p, v, 422, c, w) for p, v, c, w in NOT_REPRODUCED],
    ids=[f"{p}-{c}" for p, _, c, _ in MALFORMED + NOT_REPRODUCED],
)
def test_a_damaged_snapshot_is_refused_with_a_message_naming_the_problem_and_nothing_is_created(
    script_snapshot, client, db_path, path, value, status, code, words
):
    doc = copy.deepcopy(script_snapshot)
    assert len(doc["events"]) == 32  # what the messages above count on
    games = games_in(db_path)
    r = import_snapshot(client, mutate(doc, path, value))
    assert r.status_code == status, r.get_json()
    error = r.get_json()["error"]
    assert error["code"] == code
    assert words in error["message"], error["message"]
    assert error["message"].endswith(".")
    assert games_in(db_path) == games
    assert import_snapshot(client, doc).status_code == 201  # the undamaged one resumes


@pytest.mark.parametrize(
    "body, code",
    [
        (b"[1, 2]", "not_an_object"),
        (b'{"format": "banker-snapshot", "format_version": NaN}', "malformed_json"),
        (b"\xff\xfe not json", "malformed_json"),
        (b"[" * 100_000, "malformed_json"),
    ],
)
def test_a_body_that_is_not_a_snapshot_object_is_400(client, db_path, body, code):
    r = client.post("/api/v1/games/import", data=body, content_type="application/json")
    assert (r.status_code, r.get_json()["error"]["code"]) == (400, code)
    assert games_in(db_path) == 0


def test_a_snapshot_nested_deeper_than_any_game_is_refused_not_a_crash(played, client, db_path):
    text = json.dumps(get_snapshot(played))
    games = games_in(db_path)
    for depth in (65, 900):  # 900: deeper than Python could walk by recursion
        deep = text.replace('"state": {', '"state": {"deep": ' + "[" * depth + "]" * depth + ", ")
        r = client.post("/api/v1/games/import", data=deep, content_type="application/json")
        assert r.status_code == 400
        assert r.get_json()["error"] == {
            "code": "bad_snapshot",
            "message": "The snapshot nests deeper than 64 levels; a game never does.",
        }
    assert games_in(db_path) == games


def test_a_snapshot_over_5_mb_is_refused_before_it_is_parsed(played, client, db_path):
    doc = get_snapshot(played)
    games = games_in(db_path)
    big = json.dumps({**doc, "padding": "x" * snapshot.MAX_BYTES}).encode()
    r = client.post("/api/v1/games/import", data=big, content_type="application/json")
    assert r.status_code == 413
    assert r.get_json() == {
        "error": {
            "code": "snapshot_too_large",
            "message": "A snapshot file may be at most 5 MB; this one is larger.",
        }
    }
    assert games_in(db_path) == games
    # 5 MB is allowed: a snapshot padded with spaces up to exactly the limit resumes.
    text = json.dumps(doc).encode()
    exact = text[:-1] + b" " * (snapshot.MAX_BYTES - len(text)) + b"}"
    assert len(exact) == snapshot.MAX_BYTES
    r = client.post("/api/v1/games/import", data=exact, content_type="application/json")
    assert r.status_code == 201


# -- the pages ----------------------------------------------------------------------------


def test_the_pause_page_shows_the_paper_record_of_the_table(played, client):
    r = client.get(f"/games/{played.id}/pause?token={played.banker_token}")
    assert r.status_code == 200
    assert r.headers["Cache-Control"] == "no-store"
    html = r.get_data(as_text=True)
    record = html[html.index('id="paper-record"') :]
    text = " ".join(record.replace("\n", " ").split())
    for fact in [
        f"Game</dt><dd>{played.id}, after 19 recorded actions</dd>",
        "Rules</dt><dd>G0009 (current guide); hotel-shortage ruling</dd>",
        "Next to roll</dt><dd><bdi>Ann</bdi></dd>",
        "Bank</dt><dd>29 houses and 12 hotels left; 25 deeds unsold</dd>",
        '<li><bdi>Ann</bdi> <span class="mark">starts each round</span> '
        '<span class="mark">rolls next</span>',
        "<li><bdi>Bob</bdi></li>",
        # Ann: cash, token, no jail card, her deeds with their houses.
        "Cash</dt><dd>1,480</dd> <dt>Token</dt><dd>Chance (space 7)</dd>",
        "<li>Mediterranean Avenue: 1 house</li> <li>Baltic Avenue: 2 houses</li>",
        # Bob: in Jail with one attempt made, his card, his mortgaged railroad.
        "Cash</dt><dd>1,400</dd> <dt>Token</dt><dd>In Jail, 1 of 3 attempts at doubles made</dd>",
        "Jail cards</dt><dd>Community Chest Get Out of Jail Free</dd>",
        '<li>Reading Railroad <span class="mark">mortgaged</span></li>',
        "do not shuffle the decks",
    ]:
        assert fact in text, fact
    assert "Still open when paused" not in text
    # The file to download, named with the day and the players.
    name = f"banker-{date.today().isoformat()}-Ann-Bob.json"
    assert f'href="/games/{played.id}/snapshot.json?token={played.banker_token}"' in html
    assert f'download="{name}"' in html
    # It prints cleanly: the print rules live in the shared stylesheet (no inline <style>).
    with client.get("/static/site.css") as css:
        assert "@media print" in css.get_data(as_text=True)


def test_the_paper_record_lists_what_is_still_open_and_partners(new_game, client):
    g = new_game(["Ann", "Bob", "Cat", "Dan"], options={"teams": True})
    g.do({"type": "start", "first": "p2"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Cat & Dan: Baltic Avenue
    g.do({"type": "auction"})
    g.do({"type": "bid", "player": "p1", "amount": 30})
    html = client.get(f"/games/{g.id}/pause?token={g.banker_token}").get_data(as_text=True)
    text = " ".join(html.replace("\n", " ").split())
    assert "Rules</dt><dd>G0009 (current guide); two partnerships, hotel-shortage ruling" in text
    assert "<li><bdi>Ann &amp; Bob</bdi> (<bdi>Ann</bdi> and <bdi>Bob</bdi>) <span" in text
    assert "Next to roll</dt><dd><bdi>Ann (for Ann &amp; Bob)</bdi></dd>" in text
    assert "<li>The Banker is auctioning Baltic Avenue: high bid 30 by Ann &amp; Bob.</li>" in text


def test_the_paper_record_carries_the_free_parking_pot_under_the_jackpot_house_rule(
    new_game, client
):
    g = new_game(["Ann", "Bob"], options={"free_parking_jackpot": True})
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 3]})  # Income Tax: 200 into the pot
    assert g.state["bank"]["free_parking"] == 200
    html = client.get(f"/games/{g.id}/pause?token={g.banker_token}").get_data(as_text=True)
    text = " ".join(html.replace("\n", " ").split())
    assert (
        'Free Parking pot</dt><dd id="record-pot">200 in the middle of the board, for the next '
        "player to stop on Free Parking (house rule)</dd>"
    ) in text
    # Without the house rule there is no pot to note.
    plain = new_game(["Ann", "Bob"])
    html = client.get(f"/games/{plain.id}/pause?token={plain.banker_token}").get_data(as_text=True)
    assert "Free Parking pot" not in html


def test_the_pause_page_and_the_file_need_the_banker_token_or_cookie(played, client):
    for path in (f"/games/{played.id}/pause", f"/games/{played.id}/snapshot.json"):
        assert client.get(path).status_code == 403
        assert client.get(f"{path}?token={played.tokens['p1']}").status_code == 403
        assert client.get(path.replace(played.id, "nosuchgame")).status_code == 404
        client.set_cookie(f"banker_{played.id}", played.banker_token, path=f"/games/{played.id}")
        assert client.get(path).status_code == 200
        client.delete_cookie(f"banker_{played.id}", path=f"/games/{played.id}")


def test_the_snapshot_file_is_an_attachment_named_by_date_and_players_and_resumes(new_game, client):
    g = new_game(["Zoë", "Ann-Marie", "<b>"])
    g.do({"type": "start", "first": "p3"})
    r = client.get(f"/games/{g.id}/snapshot.json?token={g.banker_token}")
    assert r.status_code == 200 and r.mimetype == "application/json"
    name = f"banker-{date.today().isoformat()}-Zoe-AnnMarie-b.json"
    assert r.headers["Content-Disposition"] == f"attachment; filename={name}"
    doc = json.loads(r.data)
    assert doc["game"]["players"] == ["Zoë", "Ann-Marie", "<b>"]
    assert {**doc, "exported_at": None} == {**get_snapshot(g), "exported_at": None}
    r = client.post(
        "/resume", data={"snapshot": (io.BytesIO(r.data), name)}, content_type="multipart/form-data"
    )
    assert r.status_code == 303
    new_id = r.headers["Location"].split("/games/")[1].split("?")[0]
    assert new_id != g.id
    token = r.headers["Location"].split("?token=")[1]
    state = client.get(f"/api/v1/games/{new_id}", headers={"Authorization": f"Bearer {token}"})
    assert state.get_json() == {**g.state, "game_id": new_id}


B = "snapshotboundary"


def multipart(content: bytes) -> bytes:
    """A form with one file, encoded by hand: Werkzeug's test client leaves a big one's
    temporary file open."""
    head = (
        f'--{B}\r\nContent-Disposition: form-data; name="snapshot"; filename="big.json"\r\n'
        "Content-Type: application/json\r\n\r\n"
    )
    return head.encode() + content + f"\r\n--{B}--\r\n".encode()


def test_resume_from_file_shows_why_a_file_is_refused_and_creates_nothing(played, client, db_path):
    games = games_in(db_path)
    doc = get_snapshot(played)
    damaged = json.dumps(mutate(doc, "state.players.1.cash", 9999)).encode()
    cases = [
        (
            {"snapshot": (io.BytesIO(damaged), "pause.json")},
            422,
            "they differ at state.players[1].cash",
        ),
        ({"snapshot": (io.BytesIO(b"hello"), "pause.json")}, 400, "The file is not valid JSON"),
        ({}, 400, "Choose the snapshot file of the game to resume."),
        (multipart(b" " * (snapshot.MAX_BYTES + 1)), 413, "A snapshot file may be at most 5 MB"),
        (multipart(b" " * 2 * snapshot.MAX_BYTES), 413, "A snapshot file may be at most 5 MB"),
    ]
    for data, status, words in cases:
        if isinstance(data, bytes):
            r = client.post("/resume", data=data, content_type=f"multipart/form-data; boundary={B}")
        else:
            r = client.post("/resume", data=data, content_type="multipart/form-data")
        assert r.status_code == status
        html = r.get_data(as_text=True)
        assert 'id="error-resume"' in html and words in html
        assert 'enctype="multipart/form-data"' in html  # the form again, to try another file
    assert games_in(db_path) == games


def test_resume_from_file_refuses_a_post_from_another_site(played, client, db_path):
    games = games_in(db_path)
    data = json.dumps(get_snapshot(played)).encode()
    for header in ({"Origin": "http://evil.example"}, {"Referer": "http://evil.example/x"}):
        r = client.post(
            "/resume",
            data={"snapshot": (io.BytesIO(data), "pause.json")},
            content_type="multipart/form-data",
            headers=header,
        )
        assert r.status_code == 403
        assert "sent from another site" in r.get_data(as_text=True)
    assert games_in(db_path) == games
    r = client.post(
        "/resume",
        data={"snapshot": (io.BytesIO(data), "pause.json")},
        content_type="multipart/form-data",
        headers={"Origin": "http://localhost"},
    )
    assert r.status_code == 303
    assert games_in(db_path) == games + 1


def test_the_home_page_offers_resume_from_file_and_the_table_links_to_the_pause_page(
    played, client
):
    html = client.get("/").get_data(as_text=True)
    assert 'action="/resume"' in html and 'type="file" name="snapshot"' in html
    client.get(f"/games/{played.id}?token={played.banker_token}")  # the banker cookie
    html = client.get(f"/games/{played.id}").get_data(as_text=True)
    assert f'href="/games/{played.id}/pause"' in html
    assert client.get("/resume").status_code == 200
