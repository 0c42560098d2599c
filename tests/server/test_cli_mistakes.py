"""A host's mistakes on the command line, each answered by one sentence naming the path or
value and what to do, exit status 1, no traceback, and nothing created or changed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from banker.store import Store
from tests.databases import damage_part_way, foreign, played
from tests.serving import refused, run_banker


def serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return run_banker("serve", "--db", "b.db", *args, cwd=tmp_path, timeout=30)


HOST = (
    "--host nosuchhost.invalid is not an address of this machine ({}): give one of its "
    "addresses, 0.0.0.0 for all of them, or 127.0.0.1 for this machine only."
)


def test_a_host_that_is_no_address_is_one_sentence(tmp_path):
    said = refused(serve(tmp_path, "--host", "nosuchhost.invalid", "--port", "0"), "serve")
    assert said.startswith("--host nosuchhost.invalid is not an address of this machine (")
    assert said.endswith(HOST.partition("{}")[2])
    assert not (tmp_path / "b.db").exists()  # refused before the database is made


def test_an_address_of_another_machine_is_one_sentence(tmp_path):
    said = refused(serve(tmp_path, "--host", "192.0.2.1", "--port", "0"), "serve")
    assert said == (
        "--host 192.0.2.1 is not an address of this machine (Cannot assign requested address): "
        "give one of its addresses, 0.0.0.0 for all of them, or 127.0.0.1 for this machine only."
    )


@pytest.mark.parametrize("port", ["-1", "65536", "70000"])
def test_a_port_out_of_range_is_one_sentence(tmp_path, port):
    assert refused(serve(tmp_path, "--port", port), "serve") == (
        f"--port {port} is not a port: give a number from 1 to 65535, or 0 for a free one."
    )
    assert not (tmp_path / "b.db").exists()


@pytest.mark.parametrize("threads", ["0", "-3", "100000"])
def test_a_number_of_threads_out_of_range_is_one_sentence(tmp_path, threads):
    assert refused(serve(tmp_path, "--port", "0", "--threads", threads), "serve") == (
        f"--threads {threads} is not a number of worker threads: give one from 1 to 256 (the "
        "default is 8)."
    )


def test_an_access_log_that_cannot_be_written_is_one_sentence(tmp_path):
    said = refused(serve(tmp_path, "--port", "0", "--access-log", "no/such/folder/x.log"), "serve")
    assert said == (
        "Cannot write the access log no/such/folder/x.log as root (No such file or directory): "
        "choose another file with --access-log."
    )


DAMAGED = (
    "The database b.db is damaged ({}): restore your latest backup over it (`banker backup` "
    "makes them), or save what can be saved with `sqlite3 b.db '.recover' | sqlite3 "
    "recovered.db` and serve that with --db."
)


@pytest.mark.parametrize(
    "command",
    [["serve", "--port", "0"], ["games"], ["games", "--remove", "x", "--yes"], ["backup", "c.db"]],
)
def test_a_database_damaged_part_way_is_refused_by_every_command(tmp_path, command):
    played(tmp_path / "b.db")
    damage_part_way(tmp_path / "b.db")
    before = (tmp_path / "b.db").read_bytes()
    said = refused(run_banker(*command, "--db", "b.db", cwd=tmp_path), command[0])
    head, _, tail = DAMAGED.partition("{}")
    assert said.startswith(head) and said.endswith(tail), said
    assert (tmp_path / "b.db").read_bytes() == before
    assert not (tmp_path / "c.db").exists()


@pytest.mark.parametrize("with_games", [True, False])
@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["games"], ["backup", "c.db"]])
def test_another_programs_database_is_refused_and_left_alone(tmp_path, command, with_games):
    before = foreign(tmp_path / "b.db", with_games)
    said = refused(run_banker(*command, "--db", "b.db", cwd=tmp_path), command[0])
    tables = "games, notes" if with_games else "notes"
    assert said == (
        f"b.db is another program's SQLite database (its tables are {tables}), so banker leaves "
        "it alone: give --db the file of your games, or a new file name to start afresh."
    )
    assert (tmp_path / "b.db").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db"]


def test_a_file_that_is_not_sqlite_is_refused_by_serve(tmp_path):
    (tmp_path / "b.db").write_text("my notes\n")
    assert refused(serve(tmp_path, "--port", "0"), "serve") == (
        "b.db is not a SQLite database, so banker leaves it alone: give --db the file of your "
        "games, or a new file name to start afresh."
    )
    assert (tmp_path / "b.db").read_text() == "my notes\n"


@pytest.mark.parametrize("command", [["games"], ["games", "--new-link", "x"], ["backup", "c.db"]])
def test_a_mistyped_database_path_is_said_and_no_file_is_made(tmp_path, command):
    played(tmp_path / "b.db", games=1)
    said = refused(run_banker(*command, "--db", "bb.db", cwd=tmp_path), command[0])
    assert said == (
        "There is no database at bb.db: check the path given to --db (or $BANKER_DB); "
        "`banker serve` creates it when it first starts."
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db"]


@pytest.mark.parametrize("command", [["games"], ["backup", "c.db"]])
def test_a_database_path_that_is_a_folder_is_one_sentence(tmp_path, command):
    (tmp_path / "games").mkdir()
    assert refused(run_banker(*command, "--db", "games", cwd=tmp_path), command[0]) == (
        "games is a folder, not a database file: give --db a file name."
    )


def test_banker_backup_says_what_is_wrong_with_the_file_it_is_given(tmp_path):
    played(tmp_path / "b.db", games=1)
    (tmp_path / "backups").mkdir()

    def backup(file: str) -> str:
        return refused(run_banker("backup", file, "--db", "b.db", cwd=tmp_path), "backup")

    assert backup("backups") == (
        "backups is a folder: give the backup a file name, for example backups/banker-backup.db."
    )
    assert backup("nowhere/b.db") == (
        f"The folder {tmp_path}/nowhere for the backup does not exist: create it, or choose "
        "another FILE."
    )
    assert backup("b.db") == "The backup b.db is the database itself: give another file name."
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db", "backups"]
    assert list((tmp_path / "backups").iterdir()) == []
    done = run_banker("backup", "backups/monday.db", "--db", "b.db", cwd=tmp_path)
    assert done.stdout == "Backed up 1 game from b.db to backups/monday.db.\n"
    store = Store(tmp_path / "backups" / "monday.db")
    assert len(store.list_games()) == 1
    store.close()


@pytest.mark.parametrize("port", ["0", "-1", "70000"])
def test_banker_games_port_out_of_range_is_one_sentence(tmp_path, port):
    played(tmp_path / "b.db", games=1)
    result = run_banker("games", "--db", "b.db", "--port", port, cwd=tmp_path)
    assert refused(result, "games") == (
        f"--port {port} is not a port: give a number from 1 to 65535."
    )
