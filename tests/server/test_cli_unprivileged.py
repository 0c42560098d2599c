"""The host's mistakes that only an unprivileged user meets (root may read and write anything):
banker runs here as the user nobody (tests/server/unprivileged.py), each mistake answered by one
sentence naming the path, the user and what to do, with nothing changed."""

from __future__ import annotations

import os
import re

import pytest

from tests.databases import played
from tests.serving import Server, call, refused, run_banker

pytestmark = pytest.mark.slow
READ_ONLY = (
    "The database b.db is read-only for nobody (attempt to write a readonly database): make it "
    "and its folder writable by that user (chown or chmod), or choose another file with --db FILE."
)
OTHER_UID = 54321  # a user with no name and no rights, for "another user than the server's"


def owned_by(path, nobody, mode: int) -> None:
    os.chown(path, nobody.uid, nobody.gid)
    path.chmod(mode)


def test_a_database_folder_nobody_can_enter_is_one_sentence(nobody, shared_dir):
    private = shared_dir / "private"
    private.mkdir(mode=0o700)  # root's
    db = private / "games" / "b.db"
    result = run_banker("serve", "--port", "0", "--db", str(db), cwd=shared_dir,
                        runner=nobody.runner)  # fmt: skip
    assert refused(result, "serve") == (
        f"Cannot enter the folder {private} on the way to the database {db} (permission denied "
        "for nobody): let that user in, or choose another place with --db FILE."
    )
    assert list(private.iterdir()) == []


def test_an_existing_read_only_database_is_refused_at_start(nobody, shared_dir):
    owned_by(shared_dir, nobody, 0o755)
    db = shared_dir / "b.db"
    played(db, games=1)
    owned_by(db, nobody, 0o444)
    before = db.read_bytes()
    result = run_banker("serve", "--port", "0", "--db", "b.db", cwd=shared_dir,
                        runner=nobody.runner)  # fmt: skip
    assert refused(result, "serve") == READ_ONLY
    assert db.read_bytes() == before


def test_a_database_in_a_folder_nobody_may_not_write_is_refused_at_start(nobody, shared_dir):
    db = shared_dir / "b.db"
    played(db, games=1)
    owned_by(db, nobody, 0o644)  # the file is nobody's, its folder root's: no room for the WAL
    result = run_banker("serve", "--port", "0", "--db", "b.db", cwd=shared_dir,
                        runner=nobody.runner)  # fmt: skip
    assert refused(result, "serve") == READ_ONLY


def test_a_backup_into_a_folder_nobody_may_not_write_is_one_sentence(nobody, shared_dir):
    owned_by(shared_dir, nobody, 0o755)
    played(shared_dir / "b.db", games=1)
    for path in shared_dir.iterdir():
        owned_by(path, nobody, 0o644)
    (shared_dir / "locked").mkdir(mode=0o755)  # root's
    result = run_banker("backup", "locked/copy.db", "--db", "b.db", cwd=shared_dir,
                        runner=nobody.runner)  # fmt: skip
    assert refused(result, "backup") == (
        f"Cannot write the backup in {shared_dir}/locked as nobody: choose a FILE in a folder "
        "that user can write."
    )
    done = run_banker("backup", "copy.db", "--db", "b.db", cwd=shared_dir, runner=nobody.runner)
    assert done.stdout == "Backed up 1 game from b.db to copy.db.\n", done.stderr


def test_a_server_run_by_nobody_takes_root_s_new_link_and_refuses_another_user(nobody, shared_dir):
    owned_by(shared_dir, nobody, 0o755)
    db = shared_dir / "b.db"
    (game_id,) = played(db, games=1)
    owned_by(db, nobody, 0o644)
    server = Server(db, shared_dir / "serve.log", runner=nobody.runner)
    url = server.start()
    try:
        control = shared_dir / "b.db.control"
        assert (os.stat(control).st_uid, oct(os.stat(control).st_mode & 0o777)) == (
            nobody.uid, "0o600"
        )  # fmt: skip
        other = run_banker("games", "--db", "b.db", "--new-link", game_id, cwd=shared_dir,
                           runner=nobody.runner_as(OTHER_UID, OTHER_UID))  # fmt: skip
        assert refused(other, "games") == (
            f"A banker serve (process {server.proc.pid}) holds b.db but cannot be reached at "
            f"{control} (Permission denied): run this command as the user that runs it (or "
            "root), with the path it serves, or stop that server first. Nothing was changed."
        )
        result = run_banker(
            "games", "--db", "b.db", "--no-qr", "--new-link", game_id, cwd=shared_dir
        )  # fmt: skip (as root)
        assert result.returncode == 0, result.stderr
        token = re.search(r"\?token=([\w-]+)", result.stdout).group(1)
        status, _, state = call(f"{url}/api/v1/games/{game_id}", token=token)
        assert (status, state["version"]) == (200, 1)
    finally:
        server.stop()
