"""Acceptance: docs/api.md, Conventions: errors, versions, expected_version, Idempotency-Key,
tokens.

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

import pytest

from tests.game import Game, error_of

from .contract import (
    API,
)


def test_version_rises_by_one_per_accepted_command_and_not_on_refusal(http):
    g = Game(http)
    assert g.state["version"] == 0
    g.refused(422, {"type": "roll", "player": "p1", "dice": [1, 2]})  # before start
    assert g.state["version"] == 0
    assert g.start()["version"] == 1
    assert g.roll("p1", 3, 5)["version"] == 2  # several events, one command
    g.refused(422, {"type": "roll", "player": "p2", "dice": [1, 2]})  # offer open
    assert g.do(type="buy")["version"] == 3
    assert g.do(type="undo")["version"] == 4
    assert g.state["version"] == 4


@pytest.mark.parametrize(
    "command",
    [
        {"type": "teleport"},
        {"player": "p1", "dice": [1, 2]},
        {"type": "roll", "player": "p1"},
        {"type": "roll", "player": "p1", "dice": "12"},
        {"type": "roll", "player": "p1", "dice": [1, "2"]},
        {"type": "roll", "player": "p9", "dice": [1, 2]},
        {"type": "adjust", "player": "p1", "amount": 10},
        {"type": "adjust", "player": "p1", "amount": "10", "reason": "x"},
        {"type": "draw_card", "deck": "tarot", "card": "advance-to-go"},
        {"type": "mortgage", "property": "park-lane"},
        {"type": "bid", "player": "p1"},
        {"type": "move", "player": "p1", "position": "GO"},
        {"type": "roll", "player": "p1", "dice": [1, 2], "expected_version": "one"},
    ],
    ids=["unknown-type", "no-type", "missing-dice", "dice-string", "die-string", "unknown-player",
         "adjust-no-reason", "adjust-amount-string", "unknown-deck", "unknown-property",
         "bid-no-amount", "position-string", "expected-version-string"],
)  # fmt: skip
def test_malformed_commands_are_400_and_change_nothing(http, command):
    g = Game(http)
    g.start()
    g.refused(400, command)


@pytest.mark.parametrize("raw", ["not json", "[1, 2]", '"roll"', "{"])
def test_unparseable_bodies_are_400(http, raw):
    g = Game(http)
    g.start()
    g.refused(400, None, raw=raw)


def test_rules_refusals_are_422_and_change_nothing(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.refused(422, {"type": "undo"})  # nothing to undo
    g.start()
    g.refused(422, {"type": "start", "first": "p2"})  # already started
    g.refused(422, {"type": "roll", "player": "p2", "dice": [1, 2]})  # not Bob's turn
    g.refused(422, {"type": "buy"})  # no offer
    g.refused(422, {"type": "close_auction"})  # no auction
    g.refused(422, {"type": "mortgage", "property": "boardwalk"})  # not owned
    g.refused(422, {"type": "build", "property": "boardwalk"})
    g.refused(422, {"type": "pay_jail_fine", "player": "p1"})  # not in jail
    g.refused(422, {"type": "call_time"})  # no deadline variation
    g.refused(422, {"type": "pay_debt"})  # no debt
    g.refused(422, {"type": "undo"})  # only start so far: undo reaches back to the latest roll
    g.refused(422, {"type": "adjust", "player": "p1", "amount": -1501, "reason": "typo"})
    g.roll("p1", 3, 5)
    g.refused(422, {"type": "roll", "player": "p2", "dice": [1, 2]})  # offer open
    g.refused((400, 422), {"type": "claim_rent", "claim": "nope"})


def test_tokens_401_403_404(http):
    g = Game(http)
    other = Game(http)
    g.start()
    before = g.state
    # missing token
    for method, path in (("GET", ""), ("GET", "/events"), ("GET", "/snapshot")):
        status, body, _ = http.request(method, f"{API}/games/{g.id}{path}")
        assert status == 401, (path, status)
        error_of(body)
    status, body, _ = http.request(
        "POST", f"{API}/games/{g.id}/commands", {"type": "roll", "player": "p1", "dice": [1, 2]}
    )
    assert status == 401
    error_of(body)
    # a wrong token, another game's tokens
    for token in ("not-a-token", other.banker_token, other.tokens["p1"]):
        status, body, _ = http.request("GET", f"{API}/games/{g.id}", token=token)
        assert status in (401, 403), (token, status)
        error_of(body)
        g.refused((401, 403), {"type": "roll", "player": "p1", "dice": [1, 2]}, token=token)
    # a player token may not command
    g.refused(403, {"type": "roll", "player": "p1", "dice": [1, 2]}, token=g.tokens["p1"])
    g.refused(403, {"type": "adjust", "player": "p1", "amount": 5, "reason": "gift"},
              token=g.tokens["p1"])  # fmt: skip
    g.refused(403, {"type": "undo"}, token=g.tokens["p2"])
    assert g.state == before
    # no such game
    for path in ("", "/events", "/snapshot"):
        status, body, _ = http.request("GET", f"{API}/games/nosuchgame{path}", token=g.banker_token)
        assert status == 404, (path, status)
        error_of(body)
    status, body, _ = http.request(
        "POST", f"{API}/games/nosuchgame/commands", {"type": "undo"}, token=g.banker_token
    )
    assert status == 404
    error_of(body)


def test_expected_version_stale_is_409(http):
    g = Game(http)
    g.start()
    g.refused(409, {"type": "roll", "player": "p1", "dice": [1, 2], "expected_version": 0})
    g.refused(409, {"type": "roll", "player": "p1", "dice": [1, 2], "expected_version": 2})
    a = g.do(type="roll", player="p1", dice=[1, 2], expected_version=1)
    assert a["version"] == 2


def test_idempotency_key_replays_the_first_answer(http):
    g = Game(http)
    other = Game(http)
    first = g.do(headers={"Idempotency-Key": "k-start"}, type="start", first="p1")
    events = g.history()
    r = g.send({"type": "start", "first": "p1"}, headers={"Idempotency-Key": "k-start"})
    assert r.status_code == 200 and r.get_json() == first
    assert g.state["version"] == 1 and g.history() == events
    roll = g.do(headers={"Idempotency-Key": "k-roll"}, type="roll", player="p1", dice=[4, 6])
    r = g.send(
        {"type": "roll", "player": "p1", "dice": [4, 6]}, headers={"Idempotency-Key": "k-roll"}
    )
    assert r.status_code == 200 and r.get_json() == roll
    assert g.state["version"] == 2 and g.player("p1")["position"] == 10
    # scoped to one game: the same key in another game applies there
    a = other.do(headers={"Idempotency-Key": "k-start"}, type="start", first="p2")
    assert a["state"]["turn"]["first"] == "p2"
    # refusals are not remembered
    g.refused(422, {"type": "buy"}, headers={"Idempotency-Key": "k-later"})
    b = g.do(headers={"Idempotency-Key": "k-later"}, type="roll", player="p2", dice=[4, 6])
    assert b["version"] == 3


def test_idempotent_replay_after_later_commands_returns_the_old_answer(http):
    g = Game(http)
    g.start()
    first = g.do(headers={"Idempotency-Key": "roll-1"}, type="roll", player="p1", dice=[3, 5])
    g.do(type="buy")
    g.roll("p2", 4, 6)
    now = g.state
    r = g.send({"type": "roll", "player": "p1", "dice": [3, 5]},
               headers={"Idempotency-Key": "roll-1"})  # fmt: skip
    assert r.status_code == 200 and r.get_json() == first
    assert g.state == now


def test_concurrent_commands_with_one_expected_version_apply_once(http):
    import threading

    g = Game(http)
    g.start()
    statuses = []

    def send(i):
        r = g.send(
            {"type": "adjust", "player": "p1", "amount": 1, "reason": f"r{i}",
             "expected_version": 1}
        )  # fmt: skip
        statuses.append(r.status_code)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 7
    s = g.state
    assert s["version"] == 2 and s["players"][0]["cash"] == 1501


def test_concurrent_repeats_of_one_idempotency_key_apply_once(http):
    import threading

    g = Game(http)
    g.start()
    answers = []

    def send():
        r = g.send(
            {"type": "adjust", "player": "p1", "amount": 1, "reason": "tip"},
            headers={"Idempotency-Key": "tip-1"},
        )
        answers.append((r.status_code, r.get_json()))

    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(status == 200 for status, _ in answers), answers
    assert all(body == answers[0][1] for _, body in answers)
    s = g.state
    assert s["version"] == 2 and s["players"][0]["cash"] == 1501
