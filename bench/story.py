"""How long the story of a long game takes on the server (issue 16): 100 ms for 10,000 events.

    python -m bench.story [--events 10000] [--runs 5]

Plays a game with the benchmark's bot straight through the Store until it has that many events,
then times, with nothing cached: the story's derivation (banker.story through the Store's reads)
and the whole story page rendered by Flask (charts and tables included).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bot import Bot  # noqa: E402


def long_game(store, events: int, seed: int = 7) -> str:
    """A 4-player game played by the bot until it has at least `events` events; its id."""
    game_id = store.create_game("g0009", ["Ann", "Bob", "Cleo", "Dave"], {})["game_id"]
    bot = Bot(seed)
    seq = 0
    while seq < events:
        answer = store.execute(game_id, bot.next_command(store.state(game_id)))
        if answer.body["events"]:
            seq = answer.body["events"][-1]["seq"]
    return game_id


def measure_story(events: int = 10_000, runs: int = 5) -> dict:
    """{"events", "rounds", "derive": [s], "page": [s], "page_bytes"} for a fresh long game."""
    from banker.web import create_app
    from banker.web.common import story_cache

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "story.db")})
        store = app.extensions["banker.store"]
        game_id = long_game(store, events)
        token = store.display_token(game_id)
        client = app.test_client()
        derive, page, cpu, size, rounds = [], [], [], 0, 0
        with app.app_context():
            for _ in range(runs):
                t0 = time.perf_counter()
                story = story_cache.compute(store, game_id)
                derive.append(time.perf_counter() - t0)
                rounds = story["rounds_played"]
        for _ in range(runs):
            app.extensions.pop("banker.stories", None)  # nothing cached
            t0, c0 = time.perf_counter(), time.process_time()
            r = client.get(f"/display/{token}/story")
            page.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            assert r.status_code == 200
            size = len(r.data)
        n = len(store.events(game_id))
        store.close()
    return {
        "events": n,
        "rounds": rounds,
        "derive": derive,
        "page": page,
        "cpu": cpu,
        "page_bytes": size,
    }


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


def rows(result: dict) -> list[tuple[str, str, str]]:
    """Table rows for bench.run: (measurement, budget, figure)."""
    d, p = result["derive"], result["page"]
    n = f"{result['events']:,}"
    return [
        (
            f"story of a {n}-event game, derived",
            "",
            f"{ms(statistics.median(d))} (min {ms(min(d))}, max {ms(max(d))}; "
            f"{result['rounds']} rounds)",
        ),
        (
            f"story page of a {n}-event game, rendered",
            "<= 100 ms",
            f"{ms(statistics.median(p))} (min {ms(min(p))}, max {ms(max(p))}; "
            f"{result['page_bytes'] / 1024:.0f} KB)",
        ),
        (
            "  its CPU time (unaffected by other load)",
            "",
            f"{ms(statistics.median(result['cpu']))} (min {ms(min(result['cpu']))})",
        ),
    ]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    for name, budget, figure in rows(measure_story(args.events, args.runs)):
        print(f"{name:<46}  {budget:<10}  {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
