"""Every snapshot a server exports imports on that same server, whatever the game: random games
(long runs of raises of 1 between two rolls and leavers included) exported to a file, imported,
are the same game (every state Undo reaches, the history), and played on identically."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker import rules
from banker import snapshot as snapshots
from banker.store import Store
from tests.plays import a_plausible_command

SETTINGS = dict(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
GAMES = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 10**6),
        "players": st.integers(2, 5),
        "commands": st.integers(1, 160),
        "raises": st.sampled_from([0, 0, 30, 230]),  # one auction run of raises of 1
        "leave_at": st.one_of(st.none(), st.integers(5, 120)),
        "options": st.sampled_from(
            [None, {"private_cash": True}, {"free_parking_jackpot": True}, {"auction_all": True}]
        ),
    }
)
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def run(store: Store, game_id: str, command: dict) -> bool:
    """Whether the store accepted the command (a refusal changes nothing)."""
    try:
        store.execute(game_id, command)
    except rules.Refusal:
        return False
    return True


def play(store: Store, spec: dict) -> str:
    game_id = store.create_game("g0009", NAMES[: spec["players"]], spec["options"])["game_id"]
    rng, raised = random.Random(spec["seed"]), 0
    run(store, game_id, {"type": "start", "first": "p1"})
    for i in range(spec["commands"] * 3):
        if store.version(game_id) > spec["commands"]:
            break
        state = rules.public_state(store.state(game_id))
        if state["status"] != "playing":
            break
        auction = state["pending"]["auction"]
        alive = [p["id"] for p in state["players"] if not p["eliminated"]]
        if auction and raised < spec["raises"] and len(alive) > 1:
            raised += 1  # the run between two rolls a lively table may bid
            bidder = alive[raised % 2]
            run(store, game_id, {"type": "bid", "player": bidder,
                                 "amount": max(auction["high_bid"] + 1, 10)})  # fmt: skip
            continue
        if spec["leave_at"] == i and len(alive) > 2:
            run(store, game_id, {"type": "leave", "player": alive[-1]})
        run(store, game_id, a_plausible_command(state, rng))
    return game_id


def same_game(store: Store, old: str, new: str) -> None:
    a, b = store.state(old), store.state(new)
    assert snapshots.compare.difference({**a, "game_id": new}, b) is None
    assert {**rules.public_state(a), "game_id": new} == rules.public_state(b)
    assert a["_undo"] == b["_undo"]  # undo's very entries, words and all
    told = [[(e["seq"], e["type"], e["text"], e["undone"]) for e in store.events(g)]
            for g in (old, new)]  # fmt: skip
    assert told[0] == told[1]


def export_import_play_on(tmp_path, spec: dict) -> None:
    store = Store(tmp_path / f"g{spec['seed']}.db")
    try:
        old = play(store, spec)
        data = snapshots.dumps(store.snapshot(old))  # the file, as the Pause page offers it
        new = store.import_snapshot(snapshots.parse(data))
        assert new["events"] == []
        same_game(store, old, new["game_id"])
        # Played on identically: the same commands, accepted or refused alike.
        rng = random.Random(spec["seed"] + 1)
        for _ in range(25):
            state = rules.public_state(store.state(old))
            if state["status"] != "playing":
                break
            command = a_plausible_command(state, rng)
            assert run(store, old, command) == run(store, new["game_id"], command), command
        same_game(store, old, new["game_id"])
    finally:
        store.close()


@settings(max_examples=12, **SETTINGS)
@given(spec=GAMES)
def test_every_exported_snapshot_imports_as_the_same_game_and_plays_on_identically(
    tmp_path_factory, spec
):
    export_import_play_on(tmp_path_factory.mktemp("roundtrip"), spec)


@pytest.mark.slow
@settings(max_examples=60, **SETTINGS)
@given(spec=GAMES)
def test_every_exported_snapshot_imports_as_the_same_game_and_plays_on_identically_many(
    tmp_path_factory, spec
):
    export_import_play_on(tmp_path_factory.mktemp("roundtrip"), spec)


def test_a_leavers_deed_bid_up_for_210_commands_between_two_rolls_exports_and_imports(tmp_path):
    store = Store(tmp_path / "leave.db")
    try:
        gid = store.create_game("g0009", ["Ann", "Bob", "Cat"], None)["game_id"]
        run(store, gid, {"type": "start", "first": "p1"})
        assert run(store, gid, {"type": "roll", "player": "p1", "dice": [1, 2]})
        assert run(store, gid, {"type": "buy"})
        assert run(store, gid, {"type": "leave", "player": "p1"})  # Baltic to auction
        version = store.version(gid)
        for i in range(210):
            high = rules.public_state(store.state(gid))["pending"]["auction"]["high_bid"]
            who = ("p2", "p3")[i % 2]
            assert run(store, gid, {"type": "bid", "player": who, "amount": max(high + 1, 10)})
        assert store.version(gid) - version == 210  # 210 commands since the latest roll
        doc = snapshots.parse(snapshots.dumps(store.snapshot(gid)))
        new = store.import_snapshot(doc)
        same_game(store, gid, new["game_id"])
    finally:
        store.close()
