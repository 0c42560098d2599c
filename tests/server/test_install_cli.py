"""The command line as a new user meets it (and `banker games`): one version number,
help on every command, one clear sentence and exit 1 for what the user can fix, and the stored
games listed, relinked and removed."""

from __future__ import annotations

import re
import socket
import sqlite3
import tomllib
from pathlib import Path

import pytest

import banker
from banker.__main__ import parser
from banker.store import SCHEMA_VERSION, Store
from tests.server.test_player_serve import decode_terminal_qr
from tests.serving import refused, run_banker

REPO = Path(__file__).resolve().parents[2]
OLD = "2020-01-02T03:04:05.000Z"


def test_there_is_one_version_number_and_banker_version_prints_it(tmp_path):
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    result = run_banker("--version", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout == f"banker {banker.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", banker.__version__)


def test_every_command_and_option_has_help_text(tmp_path):
    commands = parser()._subparsers._group_actions[0]
    assert set(commands.choices) == {"serve", "backup", "games", "error-pages"}
    for name, sub in commands.choices.items():
        assert sub.description, name
        for action in sub._actions:
            assert action.help, (name, action.dest)
        result = run_banker(name, "--help", cwd=tmp_path)
        assert result.returncode == 0 and result.stdout.startswith(f"usage: banker {name}")
    assert all(a.help for a in commands._choices_actions)


def test_a_port_already_in_use_is_one_sentence(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_banker("serve", "--host", "127.0.0.1", "--port", str(port), "--db", "b.db",
                     cwd=tmp_path)  # fmt: skip
    assert refused(result, "serve") == (
        f"Port {port} is already in use on 127.0.0.1 (another banker serve?): stop it, or "
        "choose another port with --port."
    )


def test_a_database_folder_that_cannot_be_created_is_one_sentence(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    result = run_banker("serve", "--port", "0", "--db", "a-file/games/b.db", cwd=tmp_path)
    assert refused(result, "serve") == (
        "Cannot create the folder a-file/games for the database (Not a directory): choose "
        "another place with --db FILE."
    )


def test_a_database_path_that_is_a_folder_is_one_sentence(tmp_path):
    (tmp_path / "games").mkdir()
    result = run_banker("serve", "--port", "0", "--db", "games", cwd=tmp_path)
    assert refused(result, "serve") == (
        "games is a folder, not a database file: give --db a file name."
    )


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs a read-only /proc")
def test_a_database_that_cannot_be_written_is_one_sentence(tmp_path):
    result = run_banker("serve", "--port", "0", "--db", "/proc/banker.db", cwd=tmp_path)
    assert refused(result, "serve") == (
        "Cannot open or write the database /proc/banker.db as root (unable to open database "
        "file): check that it and its folder are writable by that user, or choose another file "
        "with --db FILE."
    )


def test_a_database_a_newer_release_wrote_is_refused_naming_both_releases_and_left_unchanged(
    tmp_path,
):
    db = tmp_path / "b.db"
    Store(db).close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("insert into releases values ('0.9.1', ?, '2027-01-01T00:00:00+00:00')",
                 [SCHEMA_VERSION + 1])  # fmt: skip
    conn.commit()
    conn.close()  # the last connection: everything is in the file itself now
    before = db.read_bytes()
    for command in (["serve", "--port", "0"], ["games"], ["backup", "copy.db"]):
        result = run_banker(*command, "--db", "b.db", cwd=tmp_path)
        assert refused(result, command[0]) == (
            f"The database b.db was written by banker 0.9.1 (schema version "
            f"{SCHEMA_VERSION + 1}), which this banker {banker.__version__} (schema version "
            f"{SCHEMA_VERSION}) cannot read: upgrade banker to use it, or serve a backup made "
            "before that upgrade; nothing in the file was changed."
        )
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("b.db")) == ["b.db"]


# -- banker games ----------------------------------------------------------------------------


def two_games(db: Path) -> tuple[dict, dict]:
    """A game in play, and a finished one whose last change was long ago."""
    store = Store(db)
    playing = store.create_game("g0009", ["Ann", "Bob"], None)
    store.execute(playing["game_id"], {"type": "start", "first": "p1"})
    store.close()
    store = Store(db, clock=lambda: OLD)
    over = store.create_game("g0009", ["Cat", "Dan"], None)
    for command in (
        {"type": "start", "first": "p1"},
        {"type": "adjust", "player": "p2", "amount": -1450, "reason": "a test"},
        {"type": "roll", "player": "p1", "dice": [1, 3]},
        {"type": "roll", "player": "p2", "dice": [1, 3]},  # Dan owes 200 with 50
        {"type": "bankrupt", "player": "p2"},
    ):
        store.execute(over["game_id"], command)
    assert store.state(over["game_id"])["status"] == "finished"
    store.close()
    return playing, over


def test_banker_games_lists_each_game_with_its_banker_link_and_its_qr_code(tmp_path):
    playing, over = two_games(tmp_path / "b.db")
    result = run_banker(
        "games", "--db", "b.db", "--public-url", "https://banker.example/", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    link = f"https://banker.example/games/{playing['game_id']}?token={playing['banker_token']}"
    old_link = f"https://banker.example/games/{over['game_id']}?token={over['banker_token']}"
    assert out[0].startswith(f"{playing['game_id']}  Ann, Bob  playing, version 1, last change 20")
    assert out[1] == f"  Banker: {link}"
    qr = [line for line in out[2:] if line and set(line) <= set("█▄▀ \xa0")]
    first = out.index(next(line for line in out[2:] if line.startswith(over["game_id"])))
    assert decode_terminal_qr(out[2:first]) == link
    assert out[first] == f"{over['game_id']}  Cat, Dan  finished, version 5, last change {OLD}"
    assert out[first + 1] == f"  Banker: {old_link}"
    assert qr and out[-1].startswith("2 games in b.db.")


def test_a_new_banker_link_replaces_the_old_one(tmp_path):
    playing, _ = two_games(tmp_path / "b.db")
    game_id, old = playing["game_id"], playing["banker_token"]
    # (port 9: nothing listens there, so the database itself is changed)
    result = run_banker("games", "--db", "b.db", "--port", "9", "--no-qr", "--new-link", game_id,
                 "--public-url", "http://192.0.2.1:8000", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = re.search(rf"http://192\.0\.2\.1:8000/games/{game_id}\?token=([\w-]+)", result.stdout)
    assert found and found.group(1) != old
    store = Store(tmp_path / "b.db")
    assert store.role(game_id, old) is None
    assert store.role(game_id, found.group(1)) == "banker"
    store.close()
    result = run_banker("games", "--db", "b.db", "--new-link", "nosuchgame", cwd=tmp_path)
    assert refused(result, "games") == (
        "There is no game 'nosuchgame' in b.db (`banker games` lists them)."
    )


def ids(db: Path) -> set[str]:
    store = Store(db)
    try:
        return {g["game_id"] for g in store.list_games()}
    finally:
        store.close()


def test_removing_games_asks_first_suggesting_a_backup(tmp_path):
    db = tmp_path / "b.db"
    playing, over = two_games(db)
    result = run_banker(
        "games", "--db", "b.db", "--remove", playing["game_id"], cwd=tmp_path, stdin="n\n"
    )
    assert "banker backup FILE" in result.stdout and "Nothing removed." in result.stdout
    assert ids(db) == {playing["game_id"], over["game_id"]}
    result = run_banker(
        "games", "--db", "b.db", "--remove", playing["game_id"], cwd=tmp_path, stdin="yes\n"
    )
    assert result.returncode == 0 and "Removed 1 game from b.db." in result.stdout
    assert ids(db) == {over["game_id"]}
    result = run_banker("games", "--db", "b.db", "--remove", "nosuchgame", "--yes", cwd=tmp_path)
    assert (
        refused(result, "games")
        == "There is no game 'nosuchgame' in b.db (`banker games` lists them)."
    )
    assert ids(db) == {over["game_id"]}


def test_finished_games_older_than_some_days_are_removed_and_the_rest_kept(tmp_path):
    db = tmp_path / "b.db"
    playing, over = two_games(db)
    result = run_banker(
        "games", "--db", "b.db", "--finished-older-than", "30", "--yes", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert f"  {over['game_id']}  Cat, Dan  finished" in result.stdout
    assert ids(db) == {playing["game_id"]}
    # The game in play is never removed this way, however old its last change.
    result = run_banker(
        "games", "--db", "b.db", "--finished-older-than", "0", "--yes", cwd=tmp_path
    )
    assert "No game to remove." in result.stdout
    assert ids(db) == {playing["game_id"]}


def test_a_new_banker_link_made_while_the_server_runs_stops_the_old_one_there_at_once(tmp_path):
    from tests.serving import Server, call

    db = tmp_path / "b.db"
    playing, _ = two_games(db)
    game_id, old = playing["game_id"], playing["banker_token"]
    server = Server(db, tmp_path / "serve.log")
    url = server.start()
    try:
        assert call(f"{url}/api/v1/games/{game_id}", token=old)[0] == 200
        port = url.rsplit(":", 1)[1]
        result = run_banker(
            "games", "--db", "b.db", "--port", port, "--no-qr", "--new-link", game_id, cwd=tmp_path
        )
        assert result.returncode == 0, result.stderr
        new = re.search(rf"/games/{game_id}\?token=([\w-]+)", result.stdout).group(1)
        status, _, body = call(f"{url}/api/v1/games/{game_id}", token=old)
        assert (status, body["error"]["code"]) == (403, "token_replaced")
        status, _, body = call(f"{url}/api/v1/games/{game_id}", token=new)
        assert status == 200 and body["version"] == 1
    finally:
        server.stop()
