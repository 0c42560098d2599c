"""Every snapshot an earlier release exported (tests/data/releases) resumes on this one exactly
as recorded, and the game plays on: the compatibility promise, tested on the releases' own
files (CHANGELOG.md; docs/api.md, Snapshots)."""

from __future__ import annotations

import random

import pytest

from banker import rules
from banker.rules.state import taken_back
from banker.snapshot import compare
from tests.plays import a_plausible_command
from tests.releases import SNAPSHOTS, label, snapshot

# One file of each release in the quick run (a bankruptcy to the Bank and its auction, the
# longest run of raises, a leave where the release had it); the whole set with the slow tests.
QUICK = ("bank_bankruptcy-0012-after_script", "long_auction-0213-raises_205", "after_leave")


def marked(path):
    quick = any(name in path.name for name in QUICK)
    return pytest.param(path, id=label(path), marks=() if quick else pytest.mark.slow)


def without_id(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "game_id"}


def play_on(client, game_id: str, token: str, state: dict, seed: int) -> int:
    """Send plausible commands until five are accepted (or sixty tried); how many were."""
    rng, accepted = random.Random(seed), 0
    for _ in range(60):
        command = a_plausible_command(state, rng)
        r = client.post(
            f"/api/v1/games/{game_id}/commands",
            json=command,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code in (200, 422), (command, r.get_json())
        if r.status_code == 200:
            state, accepted = r.get_json()["state"], accepted + 1
            if accepted == 5 or state["status"] != "playing":
                break
    return accepted


@pytest.mark.parametrize("path", [marked(p) for p in SNAPSHOTS])
def test_an_earlier_releases_snapshot_resumes_exactly_as_recorded_and_plays_on(client, store, path):
    doc = snapshot(path)
    r = client.post("/api/v1/games/import", json=doc)
    assert r.status_code == 201, r.get_json()
    created = r.get_json()
    game_id, token = created["game_id"], created["banker_token"]
    recorded = rules.upgrade(doc["state"])
    # Cash, tokens, jail, cards, owners, buildings, mortgages, the Bank, pending, turn, status.
    assert without_id(created["state"]) == without_id(rules.public_state(recorded))
    # Undo reaches back to the very states the recorded undo history does.
    internal = store.state(game_id)
    assert compare.difference({**recorded, "game_id": game_id}, internal) is None
    assert internal["_seq"] == len(doc["events"])
    # The history is the recorded one, in its own words.
    history = client.get(
        f"/api/v1/games/{game_id}/events", headers={"Authorization": f"Bearer {token}"}
    ).get_json()
    assert [(e["seq"], e["type"], e["text"], e["at"]) for e in history] == [
        (e["seq"], e["type"], e["text"], e["at"]) for e in doc["events"]
    ]
    # An undo right away takes the table back exactly as the recorded history says.
    if recorded["_undo"] and rules.undo_refusal(recorded) is None:
        r = client.post(
            f"/api/v1/games/{game_id}/commands",
            json={"type": "undo"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.get_json()
        before = taken_back(recorded, recorded["_undo"][-1]["changes"])
        undone = r.get_json()["state"]
        assert undone["version"] == recorded["version"] + 1  # an undo is a command too
        assert without_id({**undone, "version": 0}) == without_id(
            {**rules.public_state(before), "version": 0}
        )
        assert r.get_json()["events"][0]["type"] == "undone"
    if created["state"]["status"] == "playing":
        state = client.get(
            f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
        ).get_json()
        assert play_on(client, game_id, token, state, seed=len(doc["commands"])) >= 1
