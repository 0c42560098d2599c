"""What a host meets keeping banker running (docs/hosting.md): the start line says what the
database holds (or that it is new), a refused start leaves no file behind, a full disk is said
in words (at the start, while serving: in the server's log, and for a backup: the backup's
disk), backups are the owner's alone and rotate with --keep, Ctrl+C during a backup is a
sentence, a player who lost their phone gets a new link, and the QR code stays out of
systemd's journal. Each runs the real `banker` command."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import stat
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from banker.store import Store
from tests.databases import played
from tests.serving import (
    BANKER,
    REPO,
    call,
    free_port,
    process_env,
    refused,
    request,
    run_banker,
    serving,
)


@contextmanager
def small_disk(folder: Path, size: str = "1m") -> Iterator[Path]:
    """A tmpfs of `size` mounted at `folder` (skipped where this process may not mount one)."""
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                             capture_output=True, text=True)  # fmt: skip
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small disk here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(disk: Path) -> Path:
    """Fill `disk` to its last byte with one file; that file (remove it to free the disk)."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            for _ in range(100_000):  # bounded: far more than any test disk holds
                f.write(b"\0" * 4096)
        except OSError:
            pass
    return filler


# -- the start -------------------------------------------------------------------------------


def test_serve_says_how_many_games_the_database_holds(tmp_path):
    played(tmp_path / "b.db", games=2)
    with serving(tmp_path / "b.db") as server:
        first = server.output().splitlines()[0]
    assert first == f"Banker is running on database {tmp_path / 'b.db'} (2 games)."
    hosting = (REPO / "docs" / "hosting.md").read_text()
    assert "Banker is running on database /home/ann/games/banker.db (12 games).\n" in hosting


def test_serve_on_a_new_file_says_it_created_a_new_database_there(tmp_path):
    with serving(tmp_path / "new.db") as server:
        first = server.output().splitlines()[0]
        assert first == (
            f"Banker created a new database at {tmp_path / 'new.db'}: no games yet (if your "
            "games are in another file, stop with Ctrl+C and give its path with --db)."
        )
    with serving(tmp_path / "new.db") as server:  # the second time it is not new
        first = server.output().splitlines()[0]
    assert first == f"Banker is running on database {tmp_path / 'new.db'} (no games yet)."


def test_a_start_refused_for_a_port_in_use_leaves_no_file_behind(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_banker("serve", "--host", "127.0.0.1", "--port", str(port), "--db",
                            "games/b.db", "--access-log", "access.log", cwd=tmp_path)  # fmt: skip
    assert refused(result, "serve").startswith(f"Port {port} is already in use on 127.0.0.1")
    assert list(tmp_path.iterdir()) == []  # no database, no folder, no log


def test_a_full_disk_at_the_start_is_one_sentence_and_leaves_no_empty_database(tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        fill(disk)
        result = run_banker("serve", "--port", "0", "--db", "disk/b.db", cwd=tmp_path)
        assert refused(result, "serve") == (
            "The disk holding the database disk/b.db is full (database or disk is full): free "
            "some space on it, or choose another place with --db FILE."
        )
        assert sorted(p.name for p in disk.iterdir()) == ["filler"]


def test_a_full_disk_while_serving_is_said_once_in_the_servers_log(tmp_path):
    bonus = {"type": "adjust", "player": "p1", "amount": 100, "reason": "Bonus"}
    with small_disk(tmp_path / "disk", "4m") as disk, serving(disk / "b.db") as server:
        made = request(f"{server.url}/api/v1/games", "POST", {"players": ["Ann", "Bob"]})
        game, token = made.get_json()["game_id"], made.get_json()["banker_token"]
        url = f"{server.url}/api/v1/games/{game}/commands"
        assert call(url, "POST", {"type": "start", "first": "p1"}, token)[0] == 200
        filler = fill(disk)
        statuses = [call(url, "POST", bonus, token)[0] for _ in range(30)]
        assert statuses[-5:] == [507] * 5  # (the first may still fit in the file's free room)
        said = [line for line in server.output().splitlines() if "is full" in line]
        assert said == [
            f"ERROR banker.store: The disk holding the database {disk / 'b.db'} is full: commands "
            "are refused (507 disk_full) and nothing is recorded until some space is freed on it."
        ]  # one line, not one per refusal
        filler.unlink()
        status, _, body = call(url, "POST", bonus, token)
        assert status == 200 and body["state"]["players"][0]["cash"] == 1500 + 100 * (
            statuses.count(200) + 1
        )


def test_the_qr_code_is_not_written_to_systemds_journal(tmp_path):
    """Under systemd, $JOURNAL_STREAM names the journal's stream (device:inode of standard
    output): the QR code, 30 lines of blocks, is left out there; the URL line stays."""
    out = tmp_path / "journal"
    out.touch()
    st = out.stat()
    env = process_env({"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
    with open(out, "w") as journal:
        proc = subprocess.Popen([*BANKER, "serve", "--host", "127.0.0.1", "--port", "0", "--db",
                                 str(tmp_path / "b.db")], stdout=journal,
                                stderr=subprocess.STDOUT, env=env)  # fmt: skip
        try:
            deadline = time.monotonic() + 30
            while "Banker's phone" not in out.read_text() and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=10)
    lines = out.read_text().splitlines()
    assert lines[0].startswith("Banker created a new database at")
    assert re.fullmatch(r"Open http://127\.0\.0\.1:\d+/ on the Banker's phone \(Ctrl\+C stops\)\.",
                        lines[1])  # fmt: skip
    assert not any("▀" in line or "█" in line for line in lines)


# -- backups ---------------------------------------------------------------------------------


def test_a_backup_is_readable_and_writable_by_its_owner_only(tmp_path):
    played(tmp_path / "b.db", games=1)
    old = tmp_path / "copy.db"
    old.write_text("last week's")
    old.chmod(0o644)
    result = subprocess.run(["sh", "-c", f"umask 022 && exec {' '.join(BANKER)} backup copy.db "
                             "--db b.db"], cwd=tmp_path, env=process_env(), capture_output=True,
                            text=True)  # fmt: skip
    assert result.stdout == "Backed up 1 game from b.db to copy.db.\n", result.stderr
    assert stat.S_IMODE(old.stat().st_mode) == 0o600


def games_in(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("select count(*) from games").fetchone()[0]
    finally:
        conn.close()


def test_backup_keep_n_keeps_the_n_latest_copies(tmp_path):
    db = tmp_path / "b.db"
    store = Store(db)
    outputs = []
    for _ in range(4):  # a game more before each backup: each copy tells which one it is
        store.create_game("g0009", ["Ann", "Bob"], None)
        result = run_banker("backup", "nightly.db", "--keep", "3", "--db", "b.db", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout)
    store.close()
    assert outputs[0] == "Backed up 1 game from b.db to nightly.db.\n"
    assert outputs[3] == (
        "Backed up 4 games from b.db to nightly.db (and 2 earlier, nightly.db.1 the newest).\n"
    )
    copies = {p.name: games_in(p) for p in tmp_path.glob("nightly.db*")}
    assert copies == {"nightly.db": 4, "nightly.db.1": 3, "nightly.db.2": 2}
    assert all(stat.S_IMODE((tmp_path / n).stat().st_mode) == 0o600 for n in copies)
    # A smaller --keep later removes the copies beyond it.
    assert run_banker("backup", "nightly.db", "--keep", "1", "--db", "b.db",
                      cwd=tmp_path).returncode == 0  # fmt: skip
    assert sorted(p.name for p in tmp_path.glob("nightly.db*")) == ["nightly.db"]
    result = run_banker("backup", "nightly.db", "--keep", "0", "--db", "b.db", cwd=tmp_path)
    assert refused(result, "backup") == (
        "--keep 0 is not a number of backups to keep: give one from 1 to 1000 (FILE and the "
        "copies before it)."
    )


def test_a_backup_onto_a_full_disk_blames_the_backups_disk_and_writes_nothing(tmp_path):
    played(tmp_path / "b.db", games=1)
    with small_disk(tmp_path / "disk") as disk:
        fill(disk)
        result = run_banker("backup", "disk/copy.db", "--db", "b.db", cwd=tmp_path)
        assert refused(result, "backup") == (
            f"There is no room for the backup in {disk} (database or disk is full): free some "
            "space on its disk, or choose a FILE on another one; nothing was written."
        )
        assert sorted(p.name for p in disk.iterdir()) == ["filler"]


def _interruptible() -> None:
    """(In the child, before it runs.) SIGINT as a foreground command has it: the default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_during_a_backup_is_a_sentence_and_writes_nothing(tmp_path):
    db = tmp_path / "b.db"
    played(db, games=1)
    holder = sqlite3.connect(db)  # an exclusive lock: the backup waits for it (up to 10 s)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        # Ctrl+C as a terminal sends it to a command in the foreground: a test run started in
        # the background (a CI job, `nohup … &`) hands its children SIGINT ignored, and Python
        # then never hears it (the test failed so, at exit 1 once the lock's wait ended).
        proc = subprocess.Popen([*BANKER, "backup", "copy.db", "--db", "b.db"], cwd=tmp_path,
                                env=process_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=_interruptible)  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(  # it has the database open: waiting
            os.path.realpath(f"/proc/{proc.pid}/fd/{fd}") == str(db)
            for fd in os.listdir(f"/proc/{proc.pid}/fd")
        ):
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        interrupted = time.monotonic()
        out, err = proc.communicate(timeout=30)
        heard = time.monotonic() - interrupted
    finally:
        holder.rollback()
        holder.close()
    # Heard at once, not when SQLite's own wait for the lock (10 s) ends: the backup waits in
    # short steps (backups._patiently); inside SQLite's wait the lock's error could win (exit 1).
    assert proc.returncode == 130 and heard < 5, (proc.returncode, heard, err)
    assert err.strip() == (
        "banker backup: Stopped by Ctrl+C before the copy was complete: nothing was written."
    )
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db"]


# -- a player's new link ---------------------------------------------------------------------


def test_a_player_who_lost_their_phone_gets_a_new_link_and_the_old_one_answers_403(tmp_path):
    store = Store(tmp_path / "b.db")
    game = store.create_game("g0009", ["Ann", "Bob"], None)
    store.close()
    gid, ann = game["game_id"], game["players"][0]["token"]
    bob = game["players"][1]["token"]
    public = ("--public-url", "https://banker.example")
    with serving(tmp_path / "b.db", *public, port=free_port()) as server:
        assert call(f"{server.url}/api/v1/games/{gid}", token=ann)[0] == 200
        result = run_banker("games", "--db", "b.db", "--no-qr", "--new-link", gid, "--player",
                            "ann", cwd=tmp_path)  # fmt: skip
        assert result.returncode == 0, result.stderr
        new = re.fullmatch(
            rf"New link for Ann \(p1\) for game {gid} \(the old one no longer works\):\n"
            r"  https://banker\.example/join/([\w-]+)\n",
            result.stdout,
        ).group(1)
        status, _, body = call(f"{server.url}/api/v1/games/{gid}", token=ann)
        assert (status, body["error"]["code"]) == (403, "token_replaced")
        assert call(f"{server.url}/api/v1/games/{gid}", token=new)[0] == 200
        assert request(f"{server.url}/join/{new}").status_code == 200
        assert call(f"{server.url}/api/v1/games/{gid}", token=bob)[0] == 200  # Bob's is kept
        assert "A new player p1's link for game" in server.output()
    # With no server running, by id, in the database itself.
    result = run_banker("games", "--db", "b.db", "--no-qr", "--new-link", gid, "--player", "p2",
                        cwd=tmp_path)  # fmt: skip
    assert result.stdout.startswith(f"New link for Bob (p2) for game {gid}")
    store = Store(tmp_path / "b.db")
    assert store.role(gid, bob) is None
    store.close()
    result = run_banker("games", "--db", "b.db", "--new-link", gid, "--player", "Cat",
                        cwd=tmp_path)  # fmt: skip
    assert refused(result, "games") == (
        f"Game {gid} has no player 'Cat': give --player one of Ann (p1), Bob (p2)."
    )
    result = run_banker("games", "--db", "b.db", "--player", "Ann", cwd=tmp_path)
    assert refused(result, "games") == (
        "--player goes with --new-link GAME: it says whose new link it is."
    )
