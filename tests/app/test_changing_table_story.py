"""The story of a game whose table changed: a latecomer appears mid-game, a renamed player is
shown under the new name, one who left is out (banker/story.py through the store)."""

from __future__ import annotations

from banker.web.common import story_cache


def quiet_round(store, game_id: str, pids) -> None:
    """Each player in turn rolls from GO to Just Visiting: nothing changes hands."""
    for pid in pids:
        store.execute(game_id, {"type": "move", "player": pid, "position": 0})
        store.execute(game_id, {"type": "roll", "player": pid, "dice": [4, 6]})


def test_the_story_of_a_changing_table(store, client):
    created = store.create_game("g0009", ["Ann", "Bob", "Cat"], {"free_parking_jackpot": True})
    game_id = created["game_id"]
    store.execute(game_id, {"type": "start", "first": "p1"})
    quiet_round(store, game_id, ["p1", "p2", "p3"])
    store.execute(game_id, {"type": "add_player", "name": "Dan"})
    quiet_round(store, game_id, ["p1", "p2", "p3", "p4"])
    store.execute(game_id, {"type": "rename_player", "player": "p2", "name": "Robert"})
    store.execute(game_id, {"type": "leave", "player": "p3"})
    quiet_round(store, game_id, ["p1", "p2", "p4"])

    story = story_cache.compute(store, game_id)
    assert [(p["id"], p["name"], p["eliminated"], p["left"]) for p in story["players"]] == [
        ("p1", "Ann", False, False),
        ("p2", "Robert", False, False),
        ("p3", "Cat", True, True),
        ("p4", "Dan", False, False),
    ]
    assert [r["label"] for r in story["rounds"]] == ["Start", "Round 1", "Round 2", "Now"]
    dan = [r["worth"]["p4"]["total"] for r in story["rounds"]]
    cat = [r["worth"]["p3"]["total"] for r in story["rounds"]]
    assert dan == [0, 1500, 1500, 1500]  # worth nothing before joining
    assert cat == [1500, 1500, 0, 0]  # left before round 3
    assert story["joined"] == {"p4": 1}
    assert [s["id"] for s in story["standings"]][-1] == "p3"  # those out go last

    # The story page draws it (the Banker's cookie comes with the banker link).
    client.get(f"/games/{game_id}?token={created['banker_token']}")
    page = client.get(f"/games/{game_id}/story")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Robert" in text and "Dan" in text
