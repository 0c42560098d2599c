"""`banker games --new-link` and `--remove` while `banker serve` holds the database: they act
through the server's control socket, so the server takes the new link and forgets a removed
game at once; when that server cannot be reached they change nothing and say why. The links
printed use the server's own URL (its --public-url)."""

from __future__ import annotations

import os
import re
import stat

import pytest

from tests.databases import played
from tests.serving import Server, call, free_port, refused, run_banker

pytestmark = pytest.mark.slow
PUBLIC = "https://banker.example.com/monopoly"


@pytest.fixture
def server(tmp_path):
    db = tmp_path / "b.db"
    played(db, games=2)
    running = Server(db, tmp_path / "serve.log", "--public-url", PUBLIC, port=free_port())
    running.start()
    yield running
    running.stop()


def banker_token(url: str, game_id: str, token: str) -> int:
    return call(f"{url}/api/v1/games/{game_id}", token=token)[0]


def listed(tmp_path) -> list[tuple[str, str]]:
    """(game id, Banker token) of each game `banker games` lists, checking the links' base."""
    result = run_banker("games", "--db", "b.db", "--no-qr", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    links = re.findall(r"Banker: (\S+)/games/(\w+)\?token=([\w-]+)", result.stdout)
    assert links and {base for base, _, _ in links} == {PUBLIC}
    return [(game_id, token) for _, game_id, token in links]


def test_a_new_banker_link_goes_through_the_server_and_uses_its_public_url(server, tmp_path):
    (game_id, old), _ = listed(tmp_path)
    assert banker_token(server.url, game_id, old) == 200
    result = run_banker("games", "--db", "b.db", "--no-qr", "--new-link", game_id, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    new = re.fullmatch(
        rf"New Banker link for game {game_id} \(the old one no longer works\):\n"
        rf"  {re.escape(PUBLIC)}/games/{game_id}\?token=([\w-]+)\n",
        result.stdout,
    ).group(1)
    status, _, body = call(f"{server.url}/api/v1/games/{game_id}", token=old)
    assert (status, body["error"]["code"]) == (403, "token_replaced")
    assert banker_token(server.url, game_id, new) == 200
    assert (game_id, new) in listed(tmp_path)
    assert "A new Banker link for game" in server.output()


def test_removing_a_game_goes_through_the_server_which_forgets_it_at_once(server, tmp_path):
    (gone, token), (kept, kept_token) = listed(tmp_path)
    assert banker_token(server.url, gone, token) == 200  # the server holds it in memory
    result = run_banker("games", "--db", "b.db", "--remove", gone, "--yes", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Removed 1 game from b.db." in result.stdout
    status, _, body = call(f"{server.url}/api/v1/games/{gone}", token=token)
    assert (status, body["error"]["code"]) == (404, "game_not_found")
    command = {"type": "adjust", "player": "p1", "amount": 5, "reason": "a test"}
    status, _, body = call(f"{server.url}/api/v1/games/{gone}/commands", "POST", command, token)
    assert status == 404  # not a 500 (FOREIGN KEY constraint failed)
    assert banker_token(server.url, kept, kept_token) == 200
    assert [g for g, _ in listed(tmp_path)] == [kept]


def test_a_server_that_cannot_be_reached_is_said_and_nothing_changes(server, tmp_path):
    (game_id, old), _ = listed(tmp_path)
    control = f"{os.path.realpath(server.db)}.control"
    assert stat.S_ISSOCK(os.stat(control).st_mode)
    assert stat.S_IMODE(os.stat(control).st_mode) == 0o600  # only its user (and root)
    os.unlink(control)
    for command in (["--new-link", game_id], ["--remove", game_id, "--yes"], []):
        result = run_banker("games", "--db", "b.db", "--no-qr", *command, cwd=tmp_path)
        assert refused(result, "games") == (
            f"A banker serve (process {server.proc.pid}) holds b.db but cannot be reached at "
            f"{control} (No such file or directory): run this command as the user that runs it "
            "(or root), with the path it serves, or stop that server first. Nothing was changed."
        )
    assert banker_token(server.url, game_id, old) == 200
    server.stop()
    assert (game_id, old) in listed_without_server(tmp_path)


def listed_without_server(tmp_path) -> list[tuple[str, str]]:
    result = run_banker("games", "--db", "b.db", "--no-qr", cwd=tmp_path)
    return re.findall(r"/games/(\w+)\?token=([\w-]+)", result.stdout)


def test_through_a_hard_link_the_server_is_not_reached_and_the_file_not_opened(server, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    hard = tmp_path / "elsewhere" / "games.db"
    os.link(server.db, hard)
    result = run_banker("games", "--db", str(hard), "--no-qr", cwd=tmp_path)
    said = refused(result, "games")
    assert said.startswith(f"A banker serve (process {server.proc.pid}) holds {hard} but cannot")
    assert sorted(p.name for p in (tmp_path / "elsewhere").iterdir()) == ["games.db"]  # no WAL


def test_with_no_server_running_the_database_itself_is_changed(tmp_path):
    played(tmp_path / "b.db", games=1)
    server = Server(tmp_path / "b.db", tmp_path / "serve.log")
    server.start()
    server.kill()  # its row in the database stays; its lock went with it
    ((game_id, old),) = listed_without_server(tmp_path)
    result = run_banker("games", "--db", "b.db", "--no-qr", "--new-link", game_id, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    new = re.search(r"\?token=([\w-]+)", result.stdout).group(1)
    assert new != old
