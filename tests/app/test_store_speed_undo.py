"""Undo keeps what each command changed, not whole states: the row keeps each undo entry with
the version of its state and its changes. Rows written by earlier bankers (entries with whole
states, or with their version only, re-derived from `undo_base` and the stored commands) are
still undone. Undo must take the game back exactly as before, whether the state stayed in
memory, was forgotten (idle game) or read back after a restart."""

from __future__ import annotations

import json
import random

import pytest

from banker import rules
from banker.store import Store
from banker.store.log import state_text
from bench.bot import Bot

NAMES = ["Ann", "Bob", "Cleo"]


def reference_game(game_id: str) -> dict:
    return rules.new_game(game_id, "g0009", NAMES, None)


def next_command(rng: random.Random, bot: Bot, state: dict) -> dict:
    """The bot's command, or an undo (often several in a row) when one is possible."""
    if rules.undo_refusal(state) is None and rng.random() < 0.3:
        return {"type": "undo"}
    return bot.next_command(rules.public_state(state))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_restores_the_exact_states_across_restarts_and_forgotten_states(tmp_path, seed):
    """The store's state after every command, undos included, is the core's own, while the
    store is restarted or forgets the game's state at random moments."""
    rng = random.Random(seed)
    db = tmp_path / "b.db"
    store = Store(db)
    other = None
    try:
        game_id = store.create_game("g0009", NAMES, None)["game_id"]
        reference, bot = reference_game(game_id), Bot(seed)
        for _ in range(250):
            command = next_command(rng, bot, reference)
            reference, events = rules.apply(reference, command)
            answer = store.execute(game_id, command)
            assert answer.body["events"] == [
                {"seq": e["seq"], "type": e["type"], "text": e["text"]} for e in events
            ]
            assert answer.body["state"] == rules.public_state(reference)
            roll = rng.random()
            if roll < 0.1:  # a restart: the state is read back from its row
                store.close()
                store = Store(db)
            elif roll < 0.2:  # another game used since: this one's state leaves memory
                store.games.KEEP_STATES = 1
                other = other or store.create_game("g0009", NAMES, None)["game_id"]
                store.state(other)
            if rng.random() < 0.2:
                assert store.state(game_id) == reference
        assert store.state(game_id) == reference
        assert store.replayed_state(game_id) == reference
    finally:
        store.close()


def test_undo_after_a_restart_takes_back_every_command_to_the_latest_roll(tmp_path):
    db = tmp_path / "b.db"
    store = Store(db)
    try:
        game_id = store.create_game("g0009", NAMES, None)["game_id"]
        commands = [
            {"type": "start", "first": "p1"},
            {"type": "roll", "player": "p1", "dice": [1, 2]},  # Baltic Avenue
            {"type": "buy"},
            {"type": "adjust", "player": "p2", "amount": 50, "reason": "a correction"},
            {"type": "adjust", "player": "p3", "amount": -20, "reason": "another"},
        ]
        states = [store.state(game_id)]
        for c in commands:
            store.execute(game_id, c)
            states.append(store.state(game_id))
        store.close()
        store = Store(db)
        # Each undo gives back the state before its command (only the version and the
        # counters of ids move on), down to the state before the roll; then nothing more.
        for before in reversed(states[1:-1]):
            assert store.state(game_id)["_undo"]  # something left to undo
            answer = store.execute(game_id, {"type": "undo"})
            now = store.state(game_id)
            keep = ("version", "_seq", "_undo")
            assert {k: v for k, v in now.items() if k not in keep} == {
                k: v for k, v in before.items() if k not in keep
            }
            assert answer.body["state"] == rules.public_state(now)
            store.close()
            store = Store(db)
        with pytest.raises(rules.DomainError) as refused:
            store.execute(game_id, {"type": "undo"})
        assert refused.value.code == "nothing_to_undo"
    finally:
        store.close()


def test_the_row_keeps_undo_entries_as_changes_not_states(tmp_path):
    store = Store(tmp_path / "b.db")
    try:
        game_id = store.create_game("g0009", NAMES, None)["game_id"]
        store.execute(game_id, {"type": "start", "first": "p1"})
        store.execute(game_id, {"type": "roll", "player": "p1", "dice": [1, 2]})
        sizes = []
        for amount in range(1, 6):
            c = {"type": "adjust", "player": "p2", "amount": amount, "reason": "a correction"}
            store.execute(game_id, c)
            (row,) = (
                store.database.connection().execute("select state, undo_base from games").fetchall()
            )
            sizes.append(len(row[0]))
            stored = json.loads(row[0])
            assert [e["version"] for e in stored["_undo"]] == list(range(1, 2 + amount))
            assert all(set(e) == {"version", "changes", "events", "text"} for e in stored["_undo"])
            assert stored["_undo"][-1]["changes"] == [[["players", 1, "cash"], 1500 + sum(
                range(1, amount))]]  # fmt: skip
            assert row[1] is None  # nothing to re-derive: no base state is written
        # Each entry adds its version, changes, event numbers and sentence, not a state.
        assert all(0 < b - a < 200 for a, b in zip(sizes, sizes[1:], strict=False))
    finally:
        store.close()


def _ann_bought_vermont(store: Store) -> str:
    """A new game in which Ann rolled 1 and 2 and bought Vermont Avenue: its id."""
    game_id = store.create_game("g0009", NAMES, None)["game_id"]
    for c in COMMANDS:
        store.execute(game_id, c)
    return game_id


COMMANDS = (
    {"type": "start", "first": "p1"},
    {"type": "roll", "player": "p1", "dice": [1, 2]},
    {"type": "buy"},
)


def _earlier_row(store: Store, game_id: str, whole: bool) -> dict:
    """The game's state as an earlier banker kept it: each undo entry with the whole state
    before its command (`whole`), or only its version (then `undo_base` holds the state before
    the roll, as that banker wrote it)."""
    state = store.state(game_id)
    states = [rules.replay(game_id, "g0009", NAMES, None, COMMANDS[:v]) for v in range(4)]
    entries = []
    for e in state["_undo"]:
        before = {k: v for k, v in states[e["version"]].items() if k != "_undo"}
        entry = {"events": e["events"], "text": e["text"]}
        entries.append({"state": before, **entry} if whole else {"version": e["version"], **entry})
    with store.database.transaction() as tx:
        tx.execute(
            "update games set state = ?, undo_base = ? where id = ?",
            [json.dumps({**state, "_undo": entries}), json.dumps(states[1]), game_id],
        )
    return {**state, "_undo": entries}


def test_a_row_written_with_undo_states_inside_is_still_undone_exactly(tmp_path):
    """A database from before schema 2: undo entries carry their states."""
    db = tmp_path / "b.db"
    store = Store(db)
    try:
        game_id = _ann_bought_vermont(store)
        full = _earlier_row(store, game_id, whole=True)
        store.close()
        store = Store(db)
        adjust = {"type": "adjust", "player": "p2", "amount": 5, "reason": "a correction"}
        store.execute(game_id, adjust)
        expected = rules.apply(full, adjust)[0]
        assert store.state(game_id) == expected
        store.close()
        store = Store(db)
        for _ in range(3):
            answer = store.execute(game_id, {"type": "undo"})
            expected = rules.apply(expected, {"type": "undo"})[0]
            assert answer.body["state"] == rules.public_state(expected)
            assert store.state(game_id) == expected
        assert state_text(store.state(game_id)) == state_text(expected)
    finally:
        store.close()


def test_a_row_with_versions_only_is_re_derived_and_undone_exactly(tmp_path):
    """A database of schema 2: undo entries by their version, `undo_base` the state before the
    roll; the entries' changes are re-derived from the stored commands."""
    db = tmp_path / "b.db"
    store = Store(db)
    try:
        game_id = _ann_bought_vermont(store)
        expected = store.state(game_id)
        _earlier_row(store, game_id, whole=False)
        store.close()
        store = Store(db)
        assert store.state(game_id) == expected
        answer = store.execute(game_id, {"type": "undo"})
        assert answer.body["state"] == rules.public_state(
            rules.apply(expected, {"type": "undo"})[0]
        )
    finally:
        store.close()


def test_undo_still_works_when_the_rules_changed_since_the_commands_were_recorded(tmp_path):
    """A newer banker whose rules give another state for the same commands: the stored state
    stands, and undo takes back what the replay says the command changed."""
    db = tmp_path / "b.db"
    store = Store(db)
    try:
        game_id = _ann_bought_vermont(store)
        before_buy = rules.public_state(rules.replay(game_id, "g0009", NAMES, None, COMMANDS[:2]))
        row = _earlier_row(store, game_id, whole=False)
        with store.database.transaction() as tx:  # as if the old rules had paid Bob 1 more
            row["players"][1]["cash"] += 1
            tx.execute("update games set state = ?", [json.dumps(row)])
        store.close()
        store = Store(db)
        assert store.state(game_id)["players"][1]["cash"] == row["players"][1]["cash"]
        answer = store.execute(game_id, {"type": "undo"})
        players = [{**p, "cash": p["cash"] + (p["id"] == "p2")} for p in before_buy["players"]]
        assert answer.body["state"] == {**before_buy, "players": players, "version": 4}
    finally:
        store.close()
