"""The story of a game: its chart data equals what the stored events and states say."""

from __future__ import annotations

import pytest

from banker import rules
from banker import story as stories
from banker.rules.holdings import score
from banker.web.common import story_cache
from banker.web.common.charts import worth_chart
from bench.bot import Bot


def play(store, names=("Ann", "Bob", "Cleo"), options=None, commands=300, seed=4) -> str:
    """A game played by the benchmark's bot through the store; its id."""
    game_id = store.create_game("g0009", list(names), options or {})["game_id"]
    bot = Bot(seed)
    for _ in range(commands):
        store.execute(game_id, bot.next_command(store.state(game_id)))
    return game_id


def replayed_round_ends(store, game_id: str) -> list[dict]:
    """The state just before each round's first roll, by replaying the command log.

    Independent of banker.story: a round begins when the player who started rolls after
    someone else did (nobody is eliminated in the bot's games).
    """
    row = (
        store.database.connection()
        .execute("select edition, names, options from games where id = ?", [game_id])
        .fetchone()
    )
    import json

    state = rules.new_game(game_id, row[0], json.loads(row[1]), json.loads(row[2]))
    ends, last_roller, first = [], None, None
    for command in store.commands(game_id):
        after, events = rules.apply(state, command)
        for e in events:
            if e["type"] == "started":
                first = e["player"]
            if e["type"] == "rolled":
                if e["player"] == first and last_roller != first:
                    ends.append(state)
                last_roller = e["player"]
        state = after
    return ends + [state]


def test_net_worth_by_round_is_each_players_score_at_each_rounds_end(store):
    game_id = play(store)
    story = story_cache.compute(store, game_id)
    ends = replayed_round_ends(store, game_id)
    assert len(story["rounds"]) == len(ends) > 10
    for point, state in zip(story["rounds"], ends, strict=True):
        for p in state["players"]:
            w = point["worth"][p["id"]]
            assert w["total"] == score(state, p["id"])
            assert w["cash"] == p["cash"]
            assert w["cash"] + w["deeds"] + w["buildings"] == w["total"]
    assert story["rounds"][0]["label"] == "Start"
    assert {w["total"] for w in story["rounds"][0]["worth"].values()} == {1500}
    assert story["rounds"][-1]["label"] == "Now"
    assert story["rounds_played"] == len(ends) - 1


def test_rent_per_deed_set_and_player_adds_up_to_the_rent_paid_in_the_events(store):
    game_id = play(store)
    story = story_cache.compute(store, game_id)
    events = [e for e in store.events(game_id) if not e["undone"]]
    # Each rent asked for names its amount and deed; it is paid at once or, after a debt, by
    # pay_debt (the bot always settles; a debt still open at the end is left out).
    asked = [
        e["text"].split(" for ", 1)[1].rstrip(".").split(" rent on ")
        for e in events
        if e["type"] == "rent_asked"
    ]
    debt = store.state(game_id)["pending"]["debt"]
    if debt and debt["reason"] == "rent":
        asked.pop()
    by_deed: dict[str, int] = {}
    for amount, deed in asked:
        by_deed[deed] = by_deed.get(deed, 0) + int(amount)
    total = sum(d["amount"] for d in story["rent_by_deed"])
    assert total == sum(by_deed.values()) > 0
    assert total == sum(g["amount"] for g in story["rent_by_group"])
    assert total == sum(story["rent_paid"].values()) == sum(story["rent_received"].values())
    assert {d["name"]: d["amount"] for d in story["rent_by_deed"]} == by_deed
    assert story["best_deed"]["amount"] == max(by_deed.values())
    assert story["biggest_rent"]["amount"] == max(int(a) for a, _ in asked)


def test_a_rent_paid_after_a_debt_counts_for_its_deed(new_game, store):
    g = new_game(["Ann", "Bob"])
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Baltic Avenue
    g.do({"type": "buy"})
    g.do({"type": "adjust", "player": "p2", "amount": -1496, "reason": "test"})  # Bob has 4
    g.do({"type": "move", "player": "p2", "position": 1})
    g.do({"type": "roll", "player": "p2", "dice": [1, 1]})  # doubles: Baltic, rent 4
    claim = g.state["pending"]["rent_claims"][0]["id"]
    g.do({"type": "adjust", "player": "p2", "amount": -2, "reason": "test"})  # Bob has 2
    g.do({"type": "claim_rent", "claim": claim})  # a debt of 4
    g.do({"type": "adjust", "player": "p2", "amount": 10, "reason": "test"})
    g.do({"type": "pay_debt"})
    story = story_cache.compute(store, g.id)
    assert [(d["id"], d["amount"], d["times"]) for d in story["rent_by_deed"]] == [
        ("baltic-avenue", 4, 1)
    ]
    assert story["rent_paid"] == {"p1": 0, "p2": 4}


@pytest.mark.parametrize("viewer", ["display", "p2"])
def test_private_cash_hides_the_others_cash_and_net_worth_in_the_story(store, viewer):
    game_id = play(store, options={"private_cash": True}, commands=120)
    whole = story_cache.compute(store, game_id)
    shown = stories.for_viewer(whole, viewer)
    for r, full in zip(shown["rounds"], whole["rounds"], strict=True):
        for pid, w in r["worth"].items():
            if pid == viewer:
                assert w == full["worth"][pid]
            else:
                assert w["cash"] is None and w["total"] is None
                assert (w["deeds"], w["buildings"]) == (
                    full["worth"][pid]["deeds"],
                    full["worth"][pid]["buildings"],
                )
    for s in shown["standings"]:
        assert (s["worth"]["cash"] is None) == (s["id"] != viewer)
    chart = worth_chart(shown)
    assert chart["measure"] == "holdings"
    last = whole["rounds"][-1]["worth"]
    assert {s["id"]: s["values"][-1] for s in chart["series"]} == {
        pid: w["deeds"] + w["buildings"] for pid, w in last.items()
    }


def test_the_banker_sees_everyones_cash_even_with_private_cash(store):
    game_id = play(store, options={"private_cash": True}, commands=60)
    shown = stories.for_viewer(story_cache.compute(store, game_id), "banker")
    assert all(w["cash"] is not None for r in shown["rounds"] for w in r["worth"].values())
    assert shown["cash_hidden"] is False


def test_without_private_cash_everyone_sees_every_cash(store):
    game_id = play(store, commands=60)
    shown = stories.for_viewer(story_cache.compute(store, game_id), "display")
    assert all(w["cash"] is not None for r in shown["rounds"] for w in r["worth"].values())


def test_a_game_not_started_has_one_point_and_no_rent(store):
    game_id = store.create_game("g0009", ["Ann", "Bob"], {})["game_id"]
    story = story_cache.compute(store, game_id)
    assert [r["label"] for r in story["rounds"]] == ["Start"]
    assert story["rent_by_deed"] == [] and story["biggest_rent"] is None
    assert story["turns"] == 0 and story["rounds_played"] == 0


def test_turns_count_a_doubles_reroll_as_the_same_turn():
    events = [
        {"type": "started", "player": "p1", "seq": 1, "version": 1},
        {"type": "rolled", "player": "p1", "dice": [3, 3], "seq": 2, "version": 2},
        {"type": "rolled", "player": "p1", "dice": [1, 2], "seq": 3, "version": 3},
        {"type": "rolled", "player": "p2", "dice": [1, 2], "seq": 4, "version": 4},
        {"type": "rolled", "player": "p1", "dice": [2, 2], "seq": 5, "version": 5},
    ]
    assert stories._turns(events) == 3
    assert stories.versions_needed(events, ["p1", "p2"]) == [1, 4]


def test_a_storys_played_rounds_kept_between_changes_give_the_story_computed_whole(tmp_path):
    """story.build and story.rounds keep each played round's figures for the game (`points`),
    so that a change computes its "Now" alone: after every command of a long game with undos,
    a latecomer seated and taken back, and private cash, the story made with the kept figures is
    the one computed whole, and `rounds` is that story's chart part."""
    from banker.rules import public_state
    from banker.store import Store

    for n, options in enumerate((None, {"private_cash": True})):
        store = Store(tmp_path / f"s{n}.db")
        try:
            game_id = play(store, options=options, commands=30, seed=9)
            bot, points, compared = Bot(12), {}, 0
            for i in range(220):
                if i % 13 == 6:
                    command = {"type": "undo"}
                elif i in (40, 90):
                    command = {"type": "add_player", "name": f"Zed{i}"}
                else:
                    command = bot.next_command(store.state(game_id))
                try:
                    store.execute(game_id, command)
                except Exception:  # refused (nothing to undo…): the game goes on
                    continue
                state = public_state(store.state(game_id))
                if state["status"] != "playing":
                    break
                events = store.story_events(game_id)
                seats = [p["id"] for p in state["players"]]
                states = store.states_at(game_id, stories.versions_needed(events, seats))
                whole = stories.build(events, states, state)
                assert stories.build(events, states, state, points=points) == whole
                part = stories.rounds(events, states, state, points)
                assert part == {k: whole[k] for k in part}
                compared += 1
            assert compared > 150 and points, compared
        finally:
            store.close()
