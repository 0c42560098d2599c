"""What a hostile visitor costs the server (issue 12), measured in process.

    python -m bench.hostile        # from the repository root

- the crafted snapshot of the issue (a few real commands, then about 58,000 `move`s and an empty
  event list, about 5 MB): seconds until it is refused;
- the worst snapshot an attacker can send that passes every cheap check: a valid game of the
  most commands an import accepts, with the longest runs of commands between rolls (each keeps
  a copy of the state for undo): CPU seconds and peak memory of its import;
- a real 5,000-event snapshot: seconds to import;
- bytes stored per command on a long game;
- games created per minute from one address.

Its last rows are bench.hostile_serve's and bench.hostile_edge's (issue 33's attacks at the
edge: slow bodies, a long game's costly answers, answers nobody reads, floods of the home page,
bad Host headers, unreadable X-Forwarded-For, loops of new links and imports,
`Expect: 100-continue`, the database's file modes), each through a real server.

The snapshot makers are shared with tests/app/test_hostile_import.py and
tests/server/test_hostile_serve.py.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from banker import snapshot  # noqa: E402
from banker.rules import public_state  # noqa: E402
from banker.store import Store  # noqa: E402
from bench.bot import Bot  # noqa: E402
from tests.serving import call, request, serving  # noqa: E402

NAMES = ["Ann", "Bob", "Cat", "Dan"]
# The corrections after each roll in the worst snapshot: an import has no limit of its own on a
# run between two rolls (205 raises of 1 in one auction are a real game's); the file's size and
# the replay's CPU budget bound it.
RUN_WITHOUT_ROLL = 1_000


def played_store(
    db: Path, events: int, seed: int = 1, keyed: bool = False
) -> tuple[Store, str, int]:
    """A store holding one game played by the bot until `events` events: (store, id, commands).
    `keyed`: every command carries an Idempotency-Key (as the Banker's pages send them)."""
    store = Store(db)
    game_id = store.create_game("g0009", NAMES, None)["game_id"]
    bot, made, commands = Bot(seed), 0, 0
    while made < events:
        command = bot.next_command(public_state(store.state(game_id)))
        key = f"k{commands}" if keyed else None
        answer = store.execute(game_id, command, idempotency_key=key)
        made += len(answer.body["events"])
        commands += 1
    return store, game_id, commands


def real_snapshot(events: int = 5000, seed: int = 1) -> dict:
    """The snapshot document of a real game of `events` events (the bot plays it)."""
    with tempfile.TemporaryDirectory() as tmp:
        store, game_id, _ = played_store(Path(tmp) / "real.db", events, seed)
        doc = store.snapshot(game_id)
        store.close()
    return doc


def crafted_snapshot(moves: int = 58_000) -> dict:
    """The issue's attack: a real start, then `moves` moves and an empty event list (~5 MB)."""
    doc = real_snapshot(events=20)
    commands = doc["commands"]
    at = commands[-1]["at"]
    player = public_state(doc["state"])["turn"]["player"] or "p1"
    for i in range(moves):
        command = {"type": "move", "player": player, "position": i % 40}
        commands.append({"version": len(commands) + 1, "at": at, "command": command})
    doc["events"] = []
    doc["state"]["version"] = len(commands)
    return doc


def worst_snapshot(limit: int = snapshot.MAX_BYTES) -> dict:
    """The costliest snapshot that passes the cheap checks: a valid game of as many commands as
    fit in `limit` bytes (at most MAX_COMMANDS), each roll followed by a long run of
    corrections (RUN_WITHOUT_ROLL; each keeps its changes for undo)."""
    from banker import rules

    at = "2026-12-01T00:00:00.000Z"
    state = rules.new_game("worst000", "g0009", NAMES, None)
    commands, events, size, run = [], [], 2000, 0
    bot = Bot(3)

    def send(command: dict) -> None:
        nonlocal state, size
        state, made = rules.apply(state, command)
        commands.append({"version": len(commands) + 1, "at": at, "command": command})
        for e in made:
            events.append(
                {"seq": e["seq"], "version": len(commands), "type": e["type"],
                 "text": e["text"], "at": at, "undone": False}
            )  # fmt: skip
        size += len(json.dumps(commands[-1])) + sum(
            len(json.dumps(e)) for e in events[-len(made) :]
        )

    while len(commands) < snapshot.MAX_COMMANDS and size < limit - 40_000:
        command = bot.next_command(public_state(state))
        run = 0 if command["type"] == "roll" else run + 1
        send(command)
        player = public_state(state)["turn"]["player"]
        if command["type"] != "roll" or state["pending"]["debt"] or player is None:
            continue
        while run < RUN_WITHOUT_ROLL and size < limit - 40_000:
            if len(commands) >= snapshot.MAX_COMMANDS:
                break
            amount = 1 if run % 2 == 0 else -1
            send({"type": "adjust", "player": player, "amount": amount, "reason": "x"})
            run += 1
    return snapshot.build("worst000", "g0009", NAMES, None, at, commands, events, state, at)


def compact(doc: dict) -> bytes:
    """A document as an attacker sends it: JSON without spaces (the most commands per byte)."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()


def import_cost(doc: dict) -> dict:
    """Import `doc` into a fresh store: status, wall and CPU seconds, peak Python memory."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "import.db")
        data = compact(doc)

        def once() -> tuple[int, str]:
            try:
                store.import_snapshot(snapshot.parse(data))
                return 201, "imported"
            except Exception as e:  # SnapshotRefused
                return getattr(e, "status", 500), str(e)

        t0, c0 = time.perf_counter(), time.thread_time()
        status, message = once()
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
        tracemalloc.start()  # a second time, for its peak memory (tracing slows it down)
        once()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        store.close()
        size = os.path.getsize(Path(tmp) / "import.db")
    return {
        "status": status,
        "message": message,
        "bytes": len(data),
        "wall": wall,
        "cpu": cpu,
        "peak_mb": peak / 1e6,
        "db_bytes": size,
    }


def bytes_per_command(events: int = 5000, keyed: bool = False) -> tuple[float, int]:
    """Database bytes per stored command of a long game, after a VACUUM: (bytes per command,
    commands). `keyed`: every command sent with an Idempotency-Key."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "long.db"
        store, _, commands = played_store(db, events, keyed=keyed)
        empty_db = Path(tmp) / "empty.db"
        Store(empty_db).close()
        store.database.connection().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.database.connection().execute("VACUUM")
        store.close()
        size = os.path.getsize(db) - os.path.getsize(empty_db)
    return size / commands, commands


def creates_per_minute(tries: int = 100) -> tuple[int, int]:
    """Of `tries` games created back to back from one address through the app: (201s, 429s)."""
    from banker.web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "c.db"), "LIMIT_LOOPBACK": True})
        client = app.test_client()
        statuses = [
            client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).status_code
            for _ in range(tries)
        ]
        app.extensions["banker.store"].close()
    return statuses.count(201), statuses.count(429)


def _banker_command_ms(url: str, game: str, token: str) -> float:
    """Wall milliseconds of one Banker's command on a fresh connection (it must be accepted)."""
    t0 = time.perf_counter()
    status, _, answer = call(
        f"{url}/api/v1/games/{game}/commands",
        "POST",
        {"type": "adjust", "player": "p1", "amount": 1, "reason": "check"},
        token,
        timeout=30,
    )
    assert status == 200, answer
    return (time.perf_counter() - t0) * 1000


def banker_under_attack() -> dict:
    """The Banker's commands on a real server (`banker serve`) while it is attacked, as
    tests/server/test_hostile_serve.py attacks it: 150 slowloris sockets trickling a header byte
    each a second, then 8 costly snapshot imports at once.
    {"slow": [ms], "imports": [ms], "statuses"}."""
    import socket

    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "banker.db") as server:
        status, _, created = call(f"{server.url}/api/v1/games", "POST", {"players": ["Ann", "Bob"]})
        game, token = created["game_id"], created["banker_token"]
        call(
            f"{server.url}/api/v1/games/{game}/commands",
            "POST",
            {"type": "start", "first": "p1"},
            token,
        )
        port = int(server.url.rsplit(":", 1)[1])
        sockets = [socket.create_connection(("127.0.0.1", port), timeout=2) for _ in range(150)]
        for sock in sockets:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        slow = []
        for _ in range(20):
            for sock in sockets:
                try:
                    sock.sendall(b"X")
                except OSError:
                    pass
            slow.append(_banker_command_ms(server.url, game, token))
            time.sleep(0.05)
        for sock in sockets:
            sock.close()
        docs = [
            compact(worst_snapshot() if i % 2 else crafted_snapshot(moves=48_000)) for i in range(8)
        ]
        statuses: list[int] = []

        def attack(data: bytes) -> None:
            statuses.append(
                request(
                    f"{server.url}/api/v1/games/import", "POST", raw=data, timeout=60
                ).status_code
            )

        attackers = [threading.Thread(target=attack, args=(d,)) for d in docs]
        for t in attackers:
            t.start()
        imports = []
        while any(t.is_alive() for t in attackers) and len(imports) < 40:
            imports.append(_banker_command_ms(server.url, game, token))
            time.sleep(0.05)
        for t in attackers:
            t.join(60)
    return {"slow": slow, "imports": imports, "statuses": statuses}


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    return f"max {xs[-1]:.0f} ms (p50 {xs[len(xs) // 2]:.0f} ms, {len(xs)} commands)"


def rows() -> list[tuple[str, str, str]]:
    """The bench table's rows: (measurement, budget, figure)."""
    out = []
    crafted = import_cost(crafted_snapshot(moves=48_000))
    out.append(
        (
            f"crafted snapshot of issue 12 ({crafted['bytes'] / 1e6:.1f} MB), refused",
            "<= 0.2 s, 422",
            f"{crafted['cpu']:.3f} s CPU ({crafted['wall']:.3f} s wall), {crafted['status']}, "
            f"peak {crafted['peak_mb']:.0f} MB",
        )
    )
    worst = import_cost(worst_snapshot())
    out.append(
        (
            f"worst accepted snapshot ({worst['bytes'] / 1e6:.1f} MB, "
            f"{snapshot.MAX_COMMANDS:,} commands)",
            f"<= {snapshot.MAX_REPLAY_SECONDS:g} s CPU",
            f"{worst['cpu']:.2f} s CPU ({worst['wall']:.2f} s wall), peak "
            f"{worst['peak_mb']:.0f} MB, {worst['status']}, "
            f"database +{worst['db_bytes'] / 2e6:.1f} MB",
        )
    )
    real = import_cost(real_snapshot())
    out.append(
        (
            f"real 5,000-event snapshot ({real['bytes'] / 1e6:.1f} MB)",
            "imports",
            f"{real['wall']:.2f} s, {real['status']}, database +{real['db_bytes'] / 2e6:.1f} MB",
        )
    )
    per, commands = bytes_per_command()
    out.append((f"bytes stored per command, no keys ({commands:,})", "", f"{per:,.0f} B"))
    per, commands = bytes_per_command(keyed=True)
    out.append((f"bytes stored per command, all keyed ({commands:,})", "", f"{per:,.0f} B"))
    attacked = banker_under_attack()
    out.append(
        (
            "Banker's command beside 150 slowloris sockets",
            "<= 1 s",
            _ms(attacked["slow"]),
        )
    )
    codes = ", ".join(
        f"{attacked['statuses'].count(c)}x {c}" for c in sorted(set(attacked["statuses"]))
    )
    out.append(
        (
            "Banker's command during 8 costly imports at once",
            "<= 1 s",
            f"{_ms(attacked['imports'])}; imports {codes}",
        )
    )
    created, refused = creates_per_minute()
    out.append(("games created per minute, one address", "30", f"{created} ({refused} got 429)"))
    # Through a real server: the serving half of issue 22, and the edge of issue 33.
    from bench import hostile_edge, hostile_serve

    return out + hostile_serve.rows() + hostile_edge.rows()


def main() -> int:
    table = rows()
    width = max(len(r[0]) for r in table)
    for name, budget, figure in table:
        print(f"{name:<{width}}  {budget:<16}  {figure}")
    print(f"(peak resident size of this process: {peak_rss_mb():.0f} MB)")
    return 0


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    threading.stack_size(0)
    sys.exit(main())
