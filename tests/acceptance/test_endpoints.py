"""Acceptance: docs/api.md, Endpoints: creating a game, a created game, the state, a
command's answer.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

import re

import pytest

from tests.game import Game, error_of
from tests.serving import serving
from tests.table_web import HttpTable

from .contract import (
    API,
    DEEDS,
    PENDING_EMPTY,
    pick,
)


def test_create_answers_201_with_every_named_field(http):
    status, created, ctype = http.request(
        "POST", f"{API}/games", {"edition": "g0009", "players": ["Ann", "Bob", "Cat"]}
    )
    assert status == 201 and "json" in ctype
    assert set(created) >= {"game_id", "banker_token", "banker_url", "players", "state"}
    assert isinstance(created["game_id"], str) and created["game_id"]
    assert created["banker_token"] in created["banker_url"]
    assert [p["name"] for p in created["players"]] == ["Ann", "Bob", "Cat"]
    ids = [p["id"] for p in created["players"]]
    assert len(set(ids)) == 3
    tokens = {created["banker_token"]} | {p["token"] for p in created["players"]}
    assert len(tokens) == 4
    for p in created["players"]:
        assert set(p) >= {"id", "name", "token", "join_url"}
        assert p["token"] in p["join_url"]
    s = created["state"]
    assert s["game_id"] == created["game_id"]
    assert s["version"] == 0 and s["edition"] == "g0009" and s["status"] == "setup"
    assert s["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}
    assert isinstance(s["options"], dict)
    assert [p["id"] for p in s["players"]] == ids
    for p, name in zip(s["players"], ["Ann", "Bob", "Cat"], strict=True):
        assert pick(p, ("name", "members", "cash", "position", "in_jail", "jail_attempts",
                        "jail_cards", "eliminated")) == {
            "name": name, "members": [name], "cash": 1500, "position": 0, "in_jail": False,
            "jail_attempts": 0, "jail_cards": [], "eliminated": False,
        }  # fmt: skip
    assert set(s["properties"]) == set(DEEDS) and len(s["properties"]) == 28
    for deed in s["properties"].values():
        assert pick(deed, ("owner", "mortgaged", "houses", "hotel")) == {
            "owner": None,
            "mortgaged": False,
            "houses": 0,
            "hotel": False,
        }
    assert s["turn"]["player"] is None
    assert set(s["turn"]) >= {"player", "doubles", "first", "roller"}
    assert {k: s["pending"][k] for k in PENDING_EMPTY} == PENDING_EMPTY
    assert s["winners"] == [] and s["scores"] is None
    # GET gives the same state; the pages the URLs name open.
    status, got, _ = http.request("GET", f"{API}/games/{created['game_id']}",
                                  token=created["banker_token"])  # fmt: skip
    assert status == 200 and got == s
    for url in [created["banker_url"]] + [p["join_url"] for p in created["players"]]:
        path = re.sub(r"^https?://[^/]+", "", url)
        status, _, _ = http.request("GET", path)
        assert status in (200, 302, 303), (url, status)  # a page, or its redirect


@pytest.mark.parametrize(
    "body",
    [
        {"edition": "g0009", "players": ["Ann"]},
        {"edition": "g0009", "players": ["A", "B", "C", "D", "E", "F", "G"]},
        {"edition": "g0009", "players": ["Ann", ""]},
        {"edition": "g0009", "players": ["Ann", "x" * 31]},
        {"edition": "monopoly-junior", "players": ["Ann", "Bob"]},
        {"players": ["Ann", "Bob"], "edition": 9},
        {"edition": "g0009", "players": "Ann,Bob"},
        {"edition": "g0009"},
    ],
    ids=["1-player", "7-players", "empty-name", "31-char-name", "unknown-edition", "edition-int",
         "players-string", "players-missing"],
)  # fmt: skip
def test_create_refuses_malformed_bodies_with_400(http, body):
    status, answer, _ = http.request("POST", f"{API}/games", body)
    assert status == 400, (status, answer)
    error_of(answer)


def test_create_accepts_the_limits(http):
    for names in (["Ann", "Bob"], ["A", "B", "C", "D", "E", "F"], ["x" * 30, "Bob"]):
        status, answer, _ = http.request(
            "POST", f"{API}/games", {"edition": "classic", "players": names}
        )
        assert status == 201, (names, answer)
        assert [p["name"] for p in answer["state"]["players"]] == names


@pytest.mark.parametrize(
    "options",
    [{"auction_all": True}, {"deadline": True}, {"teams": True}, {"hotel_shortage_ruling": True}],
)
def test_variations_with_classic_are_refused(http, options):
    names = ["Ann", "Bob", "Cat", "Dan"]
    status, answer, _ = http.request(
        "POST", f"{API}/games", {"edition": "classic", "players": names, "options": options}
    )
    assert status in (400, 422), (status, answer)
    error_of(answer)
    # the same options with g0009 are fine
    status, answer, _ = http.request(
        "POST", f"{API}/games", {"edition": "g0009", "players": names, "options": options}
    )
    assert status == 201, answer


def test_teams_need_exactly_four_names(http):
    status, answer, _ = http.request(
        "POST", f"{API}/games",
        {"edition": "g0009", "players": ["Ann", "Bob", "Cat"], "options": {"teams": True}},
    )  # fmt: skip
    assert status in (400, 422), answer
    error_of(answer)


def test_command_answer_and_events_shape_oldest_first(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    a = g.start("p2")
    assert a["version"] == 1
    assert a["state"]["status"] == "playing"
    assert pick(a["state"]["turn"], ("player", "doubles", "first", "roller")) == {
        "player": "p2",
        "doubles": 0,
        "first": "p2",
        "roller": "Bob",
    }
    b = g.roll("p2", 3, 5)
    assert b["state"] == g.state
    evs = g.history()
    assert isinstance(evs, list) and len(evs) == len(a["events"]) + len(b["events"])
    for e in evs:
        assert set(e) >= {"seq", "type", "text", "at"}
        assert isinstance(e["at"], str) and e["at"]
    seqs = [e["seq"] for e in evs]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert [(e["type"], e["text"]) for e in evs] == [
        (e["type"], e["text"]) for e in a["events"] + b["events"]
    ]
    # The event text names the players, the deeds as printed and the amounts.
    c = g.do(type="buy")
    assert any("Bob" in e["text"] and "Vermont Avenue" in e["text"] and "100" in e["text"]
               for e in c["events"]), c["events"]  # fmt: skip


def test_six_players_in_seating_order(http):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    g = Game(http, names)
    ids = [p["id"] for p in g.created["players"]]
    g.start(ids[4])
    order = []
    for _ in range(6):
        x = g.whose_turn
        order.append(x)
        g.move(x, 0)
        g.roll(x, 4, 6)
    assert order == ids[4:] + ids[:4]
    assert g.state["turn"]["roller"] == "Eve"


def test_create_and_import_need_no_token_and_ignore_a_stray_one(http):
    status, created, _ = http.request(
        "POST", f"{API}/games", {"edition": "g0009", "players": ["Ann", "Bob"]}, token="stray"
    )
    assert status == 201, created


def test_state_echoes_the_options(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"),
             options={"deadline": True, "auction_all": True, "teams": True})  # fmt: skip
    opts = g.state["options"]
    assert pick(opts, ("deadline", "auction_all", "teams", "hotel_shortage_ruling")) == {
        "deadline": True,
        "auction_all": True,
        "teams": True,
        "hotel_shortage_ruling": True,
    }
    opts = Game(http, edition="classic").state["options"]
    assert pick(opts, ("deadline", "auction_all", "teams")) == {
        "deadline": False,
        "auction_all": False,
        "teams": False,
    }


def test_serve_defaults_banker_db_and_a_url_for_the_phone(tmp_path):
    """`banker serve` without --host/--db: BANKER_DB sets the file; the URL printed is one a
    phone can open (not 0.0.0.0)."""
    db = tmp_path / "env.db"
    with serving(db, defaults=True, env={"BANKER_DB": str(db)}) as running:
        found = re.search(r"(https?)://([^/:\s]+):(\d+)/", running.output())
        assert found.group(2) != "0.0.0.0", running.output()
        http = HttpTable(f"http://127.0.0.1:{found.group(3)}")
        status, created, _ = http.request(
            "POST", f"{API}/games", {"edition": "g0009", "players": ["Ann", "Bob"]}
        )
        assert status == 201
        assert db.exists()
