"""Two phones at once: clients in threads against the real server never corrupt a game. Each
command sees the state its predecessor left, stale expected_versions answer 409, and an
Idempotency-Key retried after a lost answer gets the first answer back."""

from __future__ import annotations

import json
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest

from banker import rules
from banker.store import Store
from tests.game import Game
from tests.serving import Server, call
from tests.table_web import HttpTable


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("concurrency")
    server = Server(folder / "games.db", folder / "server.log")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def game(server):
    """A started game of Ann, Bob and Cat on the real server: (commands URL, token, game id)."""
    g = Game(HttpTable(server.url), ["Ann", "Bob", "Cat"])
    g.start("p1")
    return f"{server.url}/api/v1/games/{g.id}", g.banker_token, g.id


def together(*jobs):
    """Run the jobs in threads released at the same moment; their results in order."""
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)
    errors = []

    def run(i, job):
        try:
            barrier.wait(timeout=10)
            results[i] = job()
        except BaseException as e:  # surfaced below, in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    return results


def adjust(amount: int, reason: str, **extra) -> dict:
    return {"type": "adjust", "player": "p2", "amount": amount, "reason": reason, **extra}


def test_two_clients_commanding_one_game_at_once_each_see_the_state_the_previous_command_left(
    game, server
):
    url, token, game_id = game
    amounts = {"A": 7, "B": -3}
    rounds = 40

    def client(name: str):
        answers = []
        for i in range(rounds):
            status, _, body = call(
                f"{url}/commands", "POST", adjust(amounts[name], f"{name}{i}"), token
            )
            assert status == 200, body
            answers.append((name, body))
        return answers

    answers = [a for result in together(lambda: client("A"), lambda: client("B")) for a in result]
    by_version = {body["version"]: (name, body) for name, body in answers}
    order = "".join(by_version[v][0] for v in sorted(by_version))
    # They really ran at the same time: the two clients' commands are interleaved.
    assert sum(a != b for a, b in zip(order, order[1:], strict=False)) >= 10, order
    # Every command got its own version: 2 .. 81 after the start, none twice, none skipped.
    assert sorted(by_version) == list(range(2, 2 + 2 * rounds))
    # Each answer's state is its predecessor's plus that one command: Bob's cash is the running
    # sum of the corrections in version order, and the events follow the same order.
    cash = 1500
    for version in sorted(by_version):
        name, body = by_version[version]
        cash += amounts[name]
        assert body["state"]["players"][1]["cash"] == cash
        assert body["state"]["version"] == version
        assert [e["seq"] for e in body["events"]] == [version]
    assert cash == 1500 + rounds * (7 - 3)

    status, _, state = call(url, token=token)
    assert status == 200 and state == by_version[2 * rounds + 1][1]["state"]
    status, _, events = call(f"{url}/events", token=token)
    assert [e["seq"] for e in events] == list(range(1, 2 * rounds + 2))
    reasons = [e["text"].rsplit(": ", 1)[1].rstrip(".") for e in events[1:]]
    assert reasons == [
        by_version[v][1]["events"][0]["text"].rsplit(": ", 1)[1].rstrip(".")
        for v in sorted(by_version)
    ]
    # What the server stored replays to exactly the state it serves.
    store = Store(server.db)
    try:
        commands = store.commands(game_id)
        replayed = rules.replay(game_id, "g0009", ["Ann", "Bob", "Cat"], None, commands)
        assert rules.public_state(json.loads(json.dumps(replayed))) == state
    finally:
        store.close()


def test_of_two_commands_sent_at_once_with_the_same_expected_version_one_wins_the_other_gets_409(
    game,
):
    url, token, _ = game
    rounds = 15
    for i in range(rounds):
        version = 1 + i

        def send(name, version=version):
            return call(
                f"{url}/commands",
                "POST",
                adjust(5, f"{name}{version}", expected_version=version),
                token,
            )

        results = together(lambda: send("A"), lambda: send("B"))
        statuses = sorted(status for status, _, _ in results)
        assert statuses == [200, 409], results
        won = next(body for status, _, body in results if status == 200)
        lost = next(body for status, _, body in results if status == 409)
        assert won["version"] == version + 1
        assert lost == {
            "error": {
                "code": "version_conflict",
                "message": f"The game is at version {version + 1}, not {version}; "
                "reload it and try again.",
            }
        }
    status, _, state = call(url, token=token)
    # Exactly one correction per round went through.
    assert (state["version"], state["players"][1]["cash"]) == (1 + rounds, 1500 + 5 * rounds)


def send_and_hang_up(url: str, token: str, command: dict, key: str) -> None:
    """Send a command and close the connection without reading the answer (a lost answer)."""
    parts = urlsplit(url)
    body = json.dumps(command).encode()
    request = (
        f"POST {parts.path}/commands HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        f"Authorization: Bearer {token}\r\nIdempotency-Key: {key}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as s:
        s.sendall(request + body)
        s.shutdown(socket.SHUT_WR)


def test_a_command_retried_with_its_idempotency_key_after_a_lost_answer_gets_the_first_answer(
    game,
):
    url, token, _ = game
    roll = {"type": "roll", "player": "p1", "dice": [1, 2]}
    send_and_hang_up(url, token, roll, "roll-1")
    deadline = time.monotonic() + 10
    while call(url, token=token)[2]["version"] == 1:  # the server applies it all the same
        assert time.monotonic() < deadline
        time.sleep(0.01)

    status, headers, first = call(
        f"{url}/commands", "POST", roll, token, {"Idempotency-Key": "roll-1"}
    )
    assert status == 200 and headers["Idempotent-Replayed"] == "true"
    assert first["version"] == 2
    assert [e["text"] for e in first["events"]] == [
        "Ann rolled 1 and 2.",
        "Ann landed on Baltic Avenue.",
        "Ann may buy Baltic Avenue for 60 or put it up for auction.",
    ]
    # Retried again, even after the game moved on, it is still that first answer, word for word.
    call(f"{url}/commands", "POST", {"type": "buy"}, token)
    status, headers, again = call(
        f"{url}/commands", "POST", roll, token, {"Idempotency-Key": "roll-1"}
    )
    assert (status, headers["Idempotent-Replayed"], again) == (200, "true", first)
    status, _, state = call(url, token=token)
    assert state["version"] == 3 and state["players"][0]["position"] == 3
    assert state["players"][0]["cash"] == 1440  # rolled once, bought once


def test_the_same_idempotency_key_sent_by_two_clients_at_once_is_applied_once(game):
    url, token, _ = game
    command = adjust(100, "found under the board")

    def send():
        return call(f"{url}/commands", "POST", command, token, {"Idempotency-Key": "same"})

    results = together(send, send, send)
    assert [status for status, _, _ in results] == [200, 200, 200]
    bodies = [body for _, _, body in results]
    assert bodies[0] == bodies[1] == bodies[2]
    assert sorted(h.get("Idempotent-Replayed", "no") for _, h, _ in results) == [
        "no",
        "true",
        "true",
    ]
    status, _, state = call(url, token=token)
    assert (state["version"], state["players"][1]["cash"]) == (2, 1600)
