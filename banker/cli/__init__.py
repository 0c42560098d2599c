"""What the `banker` commands share: the one-sentence refusal (`Fatal`), the checks of a
database path given with --db, the database's problems said in words, and the addresses.

Whatever goes wrong that the user can fix ends with one sentence on stderr naming the path or
value and what to do, and exit status 1 (banker/__main__.py)."""

from __future__ import annotations

import argparse
import errno
import os
import pwd
import socket
import sqlite3
from pathlib import Path

from banker import settings
from banker.store import StoreError
from banker.store.errors import is_disk_full


class Fatal(Exception):
    """A problem the user can fix, told in one sentence (no traceback)."""


def user() -> str:
    """The name of the user this command runs as (the one a permission is missing for)."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"


def lan_address() -> str:
    """This machine's address on the local network, as the phones on it see it (else its name)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            # Connecting a UDP socket sends nothing; it only picks the outgoing interface.
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
        except OSError:
            address = ""
    if not address or address.startswith("127.") or address == "0.0.0.0":
        # No route out: the machine's name is the best guess a phone might resolve.
        return socket.gethostname() or "127.0.0.1"
    return address


def public_url(text: str) -> str:
    """A --public-url as argparse's type: http(s)://host[:port][/path], kept without its
    trailing slash (banker.settings checks it, for `banker serve` too)."""
    try:
        return settings.public_url(text.strip())
    except settings.BadValue as e:
        raise argparse.ArgumentTypeError(f"{text!r} {e}") from None


def check_port(port: int, free: bool = False) -> None:
    """A --port from 1 to 65535 (0 too, for a free one, where `free`)."""
    if not (0 if free else 1) <= port <= 65535:
        either = ", or 0 for a free one" if free else ""
        raise Fatal(f"--port {port} is not a port: give a number from 1 to 65535{either}.")


def _closed_folder(path: Path) -> Path:
    """The first folder on the way to `path` that this user cannot enter."""
    for folder in reversed(path.absolute().parents):
        if not os.access(folder, os.X_OK):
            return folder
    return path.absolute().parent


def database_file(db: str, must_exist: bool) -> Path:
    """The --db path, when it can be a database file: Fatal for a folder, a folder on the way
    that this user cannot enter, or (`must_exist`) no file there."""
    path = Path(db)
    try:
        is_folder, exists = path.is_dir(), path.exists()
    except PermissionError:
        raise Fatal(
            f"Cannot enter the folder {_closed_folder(path)} on the way to the database {db} "
            f"(permission denied for {user()}): let that user in, or choose another place with "
            "--db FILE."
        ) from None
    if is_folder:
        raise Fatal(f"{db} is a folder, not a database file: give --db a file name.")
    if must_exist and not exists:
        raise Fatal(
            f"There is no database at {db}: check the path given to --db (or $BANKER_DB); "
            "`banker serve` creates it when it first starts."
        )
    return path


def disk_full(db: str, reason: str) -> str:
    """The sentence of a database that cannot be written for want of room."""
    return (
        f"The disk holding the database {db} is full ({reason}): free some space on it, or "
        "choose another place with --db FILE."
    )


def guarded(db: str, make):
    """make(), turning the database's problems into one sentence."""
    try:
        return make()
    except StoreError as e:  # not banker's, damaged, from a newer banker
        raise Fatal(e.message) from None
    except PermissionError as e:
        raise Fatal(
            f"Cannot use the database {db} as {user()} ({e.strerror}): make it and its folder "
            "readable and writable by that user, or choose another place with --db FILE."
        ) from None
    except OSError as e:  # the folder cannot be created
        if e.errno == errno.ENOSPC:
            raise Fatal(disk_full(db, e.strerror)) from None
        raise Fatal(
            f"Cannot create the folder {Path(db).parent} for the database "
            f"({e.strerror or e}): choose another place with --db FILE."
        ) from None
    except sqlite3.Error as e:
        if is_disk_full(e):
            raise Fatal(disk_full(db, str(e))) from None
        if getattr(e, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
            raise Fatal(
                f"The database {db} is read-only for {user()} ({e}): make it and its folder "
                "writable by that user (chown or chmod), or choose another file with --db FILE."
            ) from None
        raise Fatal(
            f"Cannot open or write the database {db} as {user()} ({e}): check that it and its "
            "folder are writable by that user, or choose another file with --db FILE."
        ) from None
