"""A host's bad setting stops `banker serve` with one sentence naming it as typed, exit 1,
before anything listens or any file is made; a good one is used (banker.settings)."""

from __future__ import annotations

import os
import socket
import stat

import pytest

from tests.serving import free_port, refused, run_banker, serving

BAD = {
    "BANKER_PER_ADDRESS": ("abc", "BANKER_PER_ADDRESS=abc is not a whole number: give one from 1 "
                           "to 1,000,000 (the default is 256)."),
    "BANKER_LOCAL_NETWORKS": ("garbage", "BANKER_LOCAL_NETWORKS=garbage names 'garbage', which is "
                              "not a network: give networks such as 127.0.0.0/8,::1/128 (the "
                              "default), separated by commas."),
    "BANKER_CONNECTIONS": ("0", "BANKER_CONNECTIONS=0 is out of range: give one from 16 to "
                           "1,000,000 (the default is 10,000)."),
    "BANKER_IDLE_SECONDS": ("-1", "BANKER_IDLE_SECONDS=-1 is out of range: give one from 1 to "
                            "3600 seconds (the default is 5 seconds)."),
    "BANKER_MAX_BODY": ("0", "BANKER_MAX_BODY=0 is out of range: give one from 1,048,576 to "
                        "268,435,456 (the default is 6,291,456)."),
    "BANKER_LIMIT_LOOPBACK": ("maybe", "BANKER_LIMIT_LOOPBACK=maybe is neither on nor off: give 1 "
                              "(on) or 0 (off; the default)."),
    "BANKER_DB": ("~nosuchuser/b.db", "BANKER_DB=~nosuchuser/b.db starts with ~nosuchuser, a user "
                  "this machine does not know: give the file's whole path (~/ is your own home "
                  "folder)."),
}  # fmt: skip


def serve_refused(tmp_path, env: dict, *args: str) -> str:
    port = free_port()
    db = tmp_path / "b.db"
    where = [] if "BANKER_DB" in env else ["--db", str(db)]
    result = run_banker("serve", "--host", "127.0.0.1", "--port", str(port), *where, *args,
                        env=env, cwd=tmp_path, timeout=30)  # fmt: skip
    said = refused(result, "serve")
    assert not db.exists() and list(tmp_path.iterdir()) == []  # no file made
    with pytest.raises(OSError):  # nothing listens
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    return said


@pytest.mark.parametrize("variable", sorted(BAD))
def test_a_bad_setting_is_one_sentence_naming_the_variable_as_typed_and_exit_1(tmp_path, variable):
    value, sentence = BAD[variable]
    assert serve_refused(tmp_path, {variable: value}) == sentence


@pytest.mark.parametrize(
    "url, why",
    [
        ("http://bank.example:99999", "has a port that is not from 1 to 65535"),
        ("http://bank example.org", "holds a space"),
        ("https://ann:secret@bank.example", "carries a user name or password (before @)"),
    ],
)
def test_a_public_url_the_phones_cannot_open_is_refused_as_typed(tmp_path, url, why):
    said = serve_refused(tmp_path, {}, "--public-url", url)
    assert said.startswith(f"--public-url {url} {why}: give an http:// or https:// URL")
    said = serve_refused(tmp_path, {"BANKER_PUBLIC_URL": url})
    assert said.startswith(f"BANKER_PUBLIC_URL={url} {why}: ")


def test_an_option_given_wins_over_its_variable_and_is_named_when_bad(tmp_path):
    said = serve_refused(tmp_path, {"BANKER_THREADS": "4"}, "--threads", "0")
    assert said == ("--threads 0 is not a number of worker threads: give one from 1 to 256 (the "
                    "default is 8).")  # fmt: skip
    said = serve_refused(tmp_path, {"BANKER_THREADS": "many"})
    assert said.startswith("BANKER_THREADS=many is not a number of worker threads: ")


def test_a_db_under_the_home_folder_is_found_there_and_private(tmp_path):
    home = tmp_path / "home"
    (home / "games").mkdir(parents=True)
    env = {"HOME": str(home), "BANKER_DB": "~/games/banker.db"}
    with serving(tmp_path / "unused.db", "--host", "127.0.0.1", defaults=True, env=env):
        files = sorted(p.name for p in (home / "games").iterdir())
        assert {"banker.db", "banker.db-wal", "banker.db-shm"} <= set(files)
        for name in ("banker.db", "banker.db-wal", "banker.db-shm"):
            mode = stat.S_IMODE(os.stat(home / "games" / name).st_mode)
            assert mode == 0o600, (name, oct(mode))


def test_a_database_made_readable_by_others_is_private_again_at_the_next_start(tmp_path):
    db = tmp_path / "b.db"
    with serving(db):
        pass
    os.chmod(db, 0o644)
    with serving(db):
        for path in (db, db.with_name("b.db-wal"), db.with_name("b.db-shm")):
            if path.exists():
                assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path
