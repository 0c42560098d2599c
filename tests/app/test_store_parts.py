"""The store in parts: idle games' states leave memory and come back from
the database; the story keeps a state only before each round's first roll; a new store on the
same file takes up where the other left off, rounds included; the story's reads kept in memory
read what a fresh read does, undo included."""

from __future__ import annotations

import json

from banker import story as stories
from banker.rules import public_state
from banker.store import Store
from bench.bot import Bot

START = {"type": "start", "first": "p1"}


def played(store: Store, commands: int, names=("Ann", "Bob", "Cleo"), seed: int = 4) -> str:
    game_id = store.create_game("g0009", list(names), None)["game_id"]
    bot = Bot(seed)
    for _ in range(commands):
        store.execute(game_id, bot.next_command(store.state(game_id)))
    return game_id


def test_an_idle_games_state_leaves_memory_and_is_read_back_when_next_used(db_path):
    store = Store(db_path)
    store.games.KEEP_STATES = 1
    try:
        first = played(store, 40)
        second = played(store, 40, seed=5)
        assert store.games.get(first).forgotten  # forgotten: the second game was used since
        assert store.version(first) == 40  # versions stay in memory for the phones' polls
        assert store.state(first) == store.replayed_state(first)
        bot = Bot(4)
        answer = store.execute(first, bot.next_command(store.state(first)))
        assert answer.body["version"] == 41
        assert store.state(first) == store.replayed_state(first)
        assert store.state(second) == store.replayed_state(second)
    finally:
        store.close()


def stored_story_versions(store: Store, game_id: str) -> list[int]:
    rows = store.database.connection().query(
        "select version from commands where game_id = ? and response != '' order by version",
        [game_id],
    )
    return [r["version"] for r in rows]


def needed_versions(store: Store, game_id: str) -> list[int]:
    seats = [p["id"] for p in public_state(store.state(game_id))["players"]]
    return [v for v in stories.versions_needed(store.story_events(game_id), seats) if v > 0]


def test_the_story_keeps_a_state_only_before_each_rounds_first_roll(store):
    game_id = played(store, 300)
    rolls = sum(1 for c in store.commands(game_id) if c["type"] == "roll")
    kept = stored_story_versions(store, game_id)
    assert kept == needed_versions(store, game_id)
    assert 10 < len(kept) < rolls / 2
    kept_state = json.loads(
        store.database.connection()
        .execute(
            "select response from commands where game_id = ? and version = ?",
            [game_id, kept[3]],
        )
        .fetchone()[0]
    )
    assert set(kept_state["state"]) == {"players", "properties"}


def test_a_store_opened_again_keeps_what_each_later_round_needs(db_path):
    store = Store(db_path)
    game_id = played(store, 120)
    store.close()
    again = Store(db_path)
    try:
        bot = Bot(9)
        for _ in range(150):
            again.execute(game_id, bot.next_command(again.state(game_id)))
        kept = set(stored_story_versions(again, game_id))
        assert set(needed_versions(again, game_id)) <= kept
    finally:
        again.close()


def fresh_story_reads(store: Store, game_id: str, versions: list[int]) -> tuple:
    """story_events and states_at as a store that kept nothing reads them."""
    game = store.games.get(game_id)
    kept = game.story_events, game.story_states
    game.story_events, game.story_states = None, {}
    try:
        return store.story_events(game_id), store.states_at(game_id, versions)
    finally:
        game.story_events, game.story_states = kept


def test_the_storys_reads_kept_in_memory_are_what_a_fresh_read_gives_after_every_command(store):
    """Every change of a long game asked for its whole story again; the store now reads only
    what came since, or makes it from the command's own events (an undo, which marks earlier
    events undone, reads them all again)."""
    game_id = played(store, 20)
    bot, undos = Bot(11), 0
    seats = [p["id"] for p in public_state(store.state(game_id))["players"]]
    for i in range(160):
        if i % 9 == 4:
            command = {"type": "undo"}
        else:
            command = bot.next_command(store.state(game_id))
        try:
            store.execute(game_id, command)
        except Exception:  # an undo refused (nothing to take back): the game goes on
            continue
        undos += command["type"] == "undo"
        events = store.story_events(game_id)
        versions = stories.versions_needed(events, seats)
        kept = (events, store.states_at(game_id, versions))
        assert kept == fresh_story_reads(store, game_id, versions)
    assert undos >= 10
    assert any(e["type"] == "rolled" for e in store.story_events(game_id))


def test_a_forgotten_games_story_reads_are_forgotten_with_its_state(db_path):
    store = Store(db_path)
    store.games.KEEP_STATES = 1
    try:
        first = played(store, 30)
        store.story_events(first)
        assert store.games.get(first).story_events is not None
        played(store, 5, seed=6)
        game = store.games.get(first)
        assert game.forgotten and game.story_events is None and game.story_states == {}
    finally:
        store.close()


def test_a_game_followed_by_push_keeps_its_state_in_memory_whatever_else_is_used(db_path):
    """Every change of a game whose pages follow it live is rendered at once: its state stays in
    memory (Games.live) while the least recently used of the others leave it."""
    store = Store(db_path)
    store.games.KEEP_STATES = 1
    try:
        followed = played(store, 10)
        store.live(followed, 2)  # two pages follow it
        others = [played(store, 5, seed=s) for s in (6, 7, 8)]
        assert not store.games.get(followed).forgotten
        assert sum(store.games.get(g).forgotten for g in others) == 2  # one idle game kept
        store.live(followed, -2)  # its pages closed
        played(store, 5, seed=9)
        assert store.games.get(followed).forgotten
        assert store.state(followed) == store.replayed_state(followed)
    finally:
        store.close()


def test_the_latest_events_are_read_once_per_version_for_every_seat(db_path):
    """Every page following a change asks for the latest events: SQLite is asked once per
    version (kept beside the game's state), each seat told them as its own (a copy each); the
    next version's are made from the command's own events."""
    store = Store(db_path)
    try:
        gid = store.create_game("g0009", ["Ann", "Bob"], {"private_cash": True})["game_id"]
        store.execute(gid, START)
        store.execute(gid, {"type": "adjust", "player": "p1", "amount": 7, "reason": "x"})
        asked = []
        store.database.connection().conn.set_trace_callback(
            lambda sql: "from events" in sql and asked.append(sql)
        )
        ann, bob = store.recent_events(gid, 8, "p1"), store.recent_events(gid, 8, "p2")
        assert len(asked) == 1 and ann == bob and ann is not bob
        ann[0]["text"] = "changed by one page"
        assert store.recent_events(gid, 8, "banker")[0]["text"] == bob[0]["text"]
        store.execute(gid, {"type": "adjust", "player": "p2", "amount": 3, "reason": "x"})
        latest = store.recent_events(gid, 8, "p2")
        # The next version's are made from the command's own events: SQLite is not asked.
        assert len(asked) == 1
        assert latest[0]["text"] == "The Banker gave Bob 3 to correct a mistake: x."
        assert latest[1:] == bob
    finally:
        store.close()


def test_the_latest_events_made_from_a_commands_own_are_what_sqlite_reads(db_path):
    """After a command the store makes its latest events from those of the version before and
    the command's own, and moves the game's time span on (Reads.recorded): at every step of a
    long game, undo included, they are what a fresh read gives."""
    store = Store(db_path)
    try:
        gid = store.create_game("g0009", ["Ann", "Bob", "Cy"], {"private_cash": True})["game_id"]
        store.execute(gid, START)
        bot, made = Bot(12), 0
        for i in range(200):
            store.recent_events(gid, 8, "p1")  # as the pages drawn for a change ask
            store.recent_events(gid, 30, "banker")
            store.latest_events(gid, "p2")
            command = {"type": "undo"} if i % 11 == 5 else bot.next_command(store.state(gid))
            try:
                store.execute(gid, command)
            except Exception:  # an undo refused: the game goes on
                continue
            game = store.games.get(gid)
            span, game.span = store.time_span(gid), None  # kept, then read afresh
            assert span == store.time_span(gid)
            if game.reads is None or game.reads[0] != store.version(gid):
                continue  # an undo: read afresh when asked
            made += 1
            kept = dict(game.reads[1])
            game.reads = None
            for key, rows in kept.items():
                if key[0] == "recent":
                    store.recent_events(gid, key[1], "banker")
                else:
                    store.latest_events(gid, "banker")
                assert game.reads[1][key] == rows, (i, key)
        assert made > 150
    finally:
        store.close()
