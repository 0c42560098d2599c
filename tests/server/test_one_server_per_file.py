"""One `banker serve` per database file, whatever path reaches it: a second server given a hard
link or a symlink to the file refuses to start (each would keep its own WAL and its own copy of
a game), naming the first; once the first has stopped, any path serves."""

from __future__ import annotations

import os

import pytest

from tests.serving import Server, call, run_banker

pytestmark = pytest.mark.slow


def second_serve(db, cwd):
    return run_banker(
        "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db), cwd=cwd, timeout=30
    )


def test_a_hard_link_or_a_symlink_to_a_served_database_does_not_start_a_second_server(tmp_path):
    db = tmp_path / "banker.db"
    server = Server(db, tmp_path / "serve.log")
    url = server.start()
    try:
        status, _, game = call(f"{url}/api/v1/games", "POST", {"players": ["Ann", "Bob"]})
        assert status == 201
        (tmp_path / "elsewhere").mkdir()
        hard = tmp_path / "elsewhere" / "games.db"
        os.link(db, hard)
        soft = tmp_path / "link.db"
        soft.symlink_to(db)
        for path in (hard, soft, db):
            second = second_serve(path, tmp_path)
            assert second.returncode == 1, second
            assert second.stderr == (
                f"banker serve: Another banker serve (process {server.proc.pid}) is already "
                f"serving {path}: two servers on one database would each keep their own copy "
                "of a game. Stop that one first (Ctrl+C in its window), or serve another file "
                "with --db. `banker backup` works while it runs.\n"
            )
        assert not (tmp_path / "elsewhere" / "games.db-wal").exists()  # no WAL of its own
        token = game["banker_token"]
        status, _, state = call(f"{url}/api/v1/games/{game['game_id']}", token=token)
        assert (status, state["version"]) == (200, 0)
    finally:
        server.stop()
    # Stopped (SIGTERM, as systemctl stop does), it folded its WAL into the file and removed its
    # control socket; then the hard link serves the same games.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("banker.db")) == [
        "banker.db"
    ]
    again = Server(hard, tmp_path / "again.log")
    url = again.start()
    try:
        status, _, state = call(f"{url}/api/v1/games/{game['game_id']}", token=token)
        assert (status, state["version"]) == (200, 0)
    finally:
        again.stop()
