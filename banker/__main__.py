"""The `banker` command line: `banker serve` runs the Banker's server, `banker backup` copies
its database, `banker games` lists, relinks and removes the stored games.

Whatever goes wrong that the user can fix (an argument out of range, a port in use, a database
that cannot be reached, written or read, another program's file, a damaged one, one from a newer
banker) ends with one sentence on stderr naming the path or value and what to do, and exit
status 1 (banker/cli: `Fatal`)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import glob
import io
import logging
import os
import signal
import socket
import sys
from pathlib import Path

from banker import __version__, settings
from banker.cli import (
    Fatal,
    database_file,
    guarded,
    lan_address,
    user,
)
from banker.cli.error_pages import error_pages_parser
from banker.cli.games import games_parser
from banker.store import default_database_path


def serve_settings(args: argparse.Namespace) -> settings.Settings:
    """Every setting of `banker serve` (banker.settings: its flags, else $BANKER_… variables,
    else the defaults), checked once before anything listens: Fatal naming the value as it
    was given and what to give instead."""
    flags = {s.name: getattr(args, s.name, None) for s in settings.SETTINGS if s.flag}
    try:
        values = settings.read(os.environ, flags)
    except settings.SettingError as e:
        raise Fatal(str(e)) from None
    try:
        socket.getaddrinfo(values.host, values.port, type=socket.SOCK_STREAM,
                           flags=socket.AI_PASSIVE)  # fmt: skip
    except (socket.gaierror, UnicodeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise Fatal(
            f"--host {values.host} is not an address of this machine ({reason}): give one of "
            "its addresses, 0.0.0.0 for all of them, or 127.0.0.1 for this machine only."
        ) from None
    return values


def listen(app, values: settings.Settings):
    """banker's server (banker.net.serving: uvicorn, push, the connection limits) bound to
    values.host and .port, or Fatal saying why it cannot be."""
    from banker.net.serving import create_server

    host, port = values.host, values.port
    try:
        return create_server(app, values)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise Fatal(
                f"Port {port} is already in use on {host} (another banker serve?): stop it, "
                "or choose another port with --port."
            ) from None
        if e.errno == errno.EACCES:
            raise Fatal(
                f"Not allowed to listen on port {port}: ports below 1024 need privileges; "
                "choose another with --port."
            ) from None
        if e.errno == errno.EADDRNOTAVAIL:
            raise Fatal(
                f"--host {host} is not an address of this machine ({e.strerror}): give one of "
                "its addresses, 0.0.0.0 for all of them, or 127.0.0.1 for this machine only."
            ) from None
        raise Fatal(f"Cannot listen on {host}:{port} ({e.strerror or e}).") from None


def hold(db: str) -> None:
    """Take the database's lock for this process, or Fatal naming the server that has it."""
    from banker.net.serving import AlreadyServed, hold_database

    try:
        guarded(db, lambda: hold_database(db))
    except AlreadyServed as e:
        raise Fatal(
            f"Another banker serve (process {e.pid or 'unknown'}) is already serving {db}: two "
            "servers on one database would each keep their own copy of a game. Stop that one "
            "first (Ctrl+C in its window), or serve another file with --db. `banker backup` "
            "works while it runs."
        ) from None


def access_log(app, where: str) -> None:
    """Write a line per request to `where` ("-": standard output), tokens left out."""
    from banker.accesslog import AccessLog

    try:
        out = sys.stdout if where == "-" else open(where, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
    except OSError as e:
        raise Fatal(
            f"Cannot write the access log {where} as {user()} ({e.strerror or e}): choose "
            "another file with --access-log."
        ) from None
    app.wsgi_app = AccessLog(app.wsgi_app, out)


def serve(args: argparse.Namespace) -> None:
    """Run the web app and print the URL to open."""
    from banker.net.serving import keep_private

    values = serve_settings(args)
    db = values.db
    existed = database_file(db, must_exist=False).exists()
    keep_private(db)
    made = NewFiles(db) if not existed else None
    try:
        started = start(values, db, existed)
    except BaseException:
        if made is not None:  # a refused start leaves nothing behind it made
            made.remove()
        raise
    run(*started)


class NewFiles:
    """What `banker serve` creates for a new database (the file, SQLite's -wal and -shm, the
    folders on the way), so that a start refused after it leaves none of them behind."""

    def __init__(self, db: str):
        path = Path(db).absolute()
        self.files = [Path(f"{path}{suffix}") for suffix in ("", "-wal", "-shm", ".control")]
        self.folders = [f for f in path.parents if not f.exists()]  # deepest first

    def remove(self) -> None:
        for f in self.files:
            with contextlib.suppress(OSError):
                f.unlink()
        for folder in self.folders:
            with contextlib.suppress(OSError):
                folder.rmdir()


def start(values, db: str, existed: bool):
    """Open the database, bind the port and say so; what `run` needs. Fatal, having made
    nothing that lasts, when one of them cannot be."""
    from banker.control import Channel
    from banker.web import create_app
    from banker.web.common.qr import print_qr

    if existed:  # locked before SQLite opens it: a hard link must not get a WAL of its own
        hold(db)
    config = {"DATABASE": db, "PUBLIC_URL": values.public_url, "SETTINGS": values}
    app = guarded(db, lambda: create_app(config))
    store = app.extensions["banker.store"]
    try:
        if not existed:
            hold(db)  # held until this process ends
        guarded(db, store.check_writable)
        server = listen(app, values)
        if values.access_log:  # opened once the port is ours: a refused start makes no file
            access_log(app, values.access_log)
    except BaseException:
        store.close()
        raise
    everywhere = values.host in ("0.0.0.0", "", "::")
    host = lan_address() if everywhere else values.host
    host = f"[{host}]" if ":" in host else host
    port = server.effective_port
    if everywhere:
        # Links shown to a Banker browsing on this machine itself (localhost) use this instead.
        app.config["LAN_URL"] = f"http://{host}:{port}"
    base = values.public_url or f"http://{host}:{port}"
    channel = Channel(store, db, base)
    try:
        channel.open()
    except OSError as e:
        logging.getLogger("banker").warning(
            "No control socket beside %s (%s): `banker games --new-link` and --remove will "
            "refuse while this server runs.", db, e.strerror or e
        )  # fmt: skip
    print(start_line(db, existed, store.game_count()), flush=True)
    # The home page, where the Banker creates the game; its Join panel then has the players' links.
    # The link and its QR code in one write: whoever reads the output once the link is there
    # (a test measuring what the server logs from then on) has the whole start.
    said = io.StringIO()
    print(f"Open {base}/ on the Banker's phone (Ctrl+C stops).", file=said)
    if not to_the_journal(sys.stdout):
        print_qr(f"{base}/", said)
    sys.stdout.write(said.getvalue())
    sys.stdout.flush()
    return server, channel, store


def start_line(db: str, existed: bool, games: int) -> str:
    """The first line `banker serve` prints: the database and how many games it holds, or
    that it is new (a forgotten --db after moving the file shows here)."""
    if not existed:
        return (
            f"Banker created a new database at {Path(db).absolute()}: no games yet (if your "
            "games are in another file, stop with Ctrl+C and give its path with --db)."
        )
    held = f"{games} game{'s' if games != 1 else ''}" if games else "no games yet"
    return f"Banker is running on database {db} ({held})."


def to_the_journal(stream) -> bool:
    """Whether `stream` is systemd's journal (it says so in $JOURNAL_STREAM, "device:inode"):
    the QR code, drawn for a terminal, would be 30 lines of block characters in the log."""
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return os.environ.get("JOURNAL_STREAM", "") == f"{st.st_dev}:{st.st_ino}"


def run(server, channel, store) -> None:
    """Serve until Ctrl+C or SIGTERM, then close everything (the database folded into its file)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # systemctl stop: clean up as Ctrl+C
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        channel.close()
        store.close()  # the last connection folds the WAL back into the file


def backup(args: argparse.Namespace) -> None:
    """Write a consistent copy of the database to FILE (0600), even while the server runs;
    with --keep N, the N-1 copies before it kept as FILE.1 (the newest) to FILE.N-1."""
    from banker.store import DiskFull
    from banker.store import backup as backup_database

    db = str(args.db)
    database_file(db, must_exist=True)
    target = Path(args.file)
    if target.is_dir():
        raise Fatal(
            f"{args.file} is a folder: give the backup a file name, for example "
            f"{target / 'banker-backup.db'}."
        )
    if args.keep is not None and not 1 <= args.keep <= MAX_KEEP:
        raise Fatal(
            f"--keep {args.keep} is not a number of backups to keep: give one from 1 to "
            f"{MAX_KEEP} (FILE and the copies before it)."
        )
    folder = target.absolute().parent
    if not folder.is_dir():
        raise Fatal(
            f"The folder {folder} for the backup does not exist: create it, or choose another FILE."
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Fatal(
            f"Cannot write the backup in {folder} as {user()}: choose a FILE in a folder that "
            "user can write."
        )
    if target.exists() and target.resolve() == Path(db).resolve():
        raise Fatal(f"The backup {args.file} is the database itself: give another file name.")
    rotating = args.keep is not None and args.keep > 1
    written = target.with_name(f".{target.name}.{os.getpid()}.new") if rotating else target

    def copy() -> int:
        try:
            return backup_database(db, written)
        except DiskFull as e:  # the copy's disk, not the database's
            raise Fatal(
                f"There is no room for the backup in {folder} ({e.message}): free some space "
                "on its disk, or choose a FILE on another one; nothing was written."
            ) from None

    games = guarded(db, copy)
    if rotating:
        rotate(target, args.keep)
        os.replace(written, target)
    elif args.keep == 1:
        rotate(target, 1)
    kept = ""
    if rotating:
        before = sum(target.with_name(f"{target.name}.{n}").exists() for n in range(1, args.keep))
        kept = f" (and {before} earlier, {args.file}.1 the newest)" if before else ""
    print(f"Backed up {games} game{'s' if games != 1 else ''} from {db} to {args.file}{kept}.")


MAX_KEEP = 1000


def rotate(target: Path, keep: int) -> None:
    """Make room for a new `target` among `keep` backups: target.K-1 goes, each target.N
    becomes target.N+1, target becomes target.1 (copies beyond `keep` from an earlier, larger
    --keep are removed too)."""
    for old in target.parent.glob(f"{glob.escape(target.name)}.*"):
        suffix = old.name[len(target.name) + 1 :]
        if suffix.isdigit() and int(suffix) >= keep - 1 and int(suffix) <= MAX_KEEP:
            old.unlink(missing_ok=True)
    for n in range(keep - 2, 0, -1):
        older = target.with_name(f"{target.name}.{n}")
        if older.exists():
            os.replace(older, target.with_name(f"{target.name}.{n + 1}"))
    if keep > 1 and target.exists():
        os.replace(target, target.with_name(f"{target.name}.1"))


def parser() -> argparse.ArgumentParser:
    """The command line's arguments, with their help."""
    p = argparse.ArgumentParser(
        prog="banker",
        description="The digital Banker for a real, physical game of Monopoly (US G0009).",
    )
    p.add_argument("--version", action="version", version=f"banker {__version__}")
    commands = p.add_subparsers(title="commands", metavar="COMMAND")
    serve_parser(commands)
    b = commands.add_parser(
        "backup",
        help="copy the games database to a file, safely while the server runs",
        description="Write a consistent copy of the games database to FILE (SQLite's online "
        "backup: safe while `banker serve` is running), readable by this user only (it holds "
        "every game's links). An existing FILE is replaced only once the copy is complete. "
        "To restore, stop the server and start it with --db FILE (or "
        "copy FILE over the database).",
    )
    b.add_argument("file", metavar="FILE", help="where to write the copy")
    b.add_argument(
        "--db",
        default=None,
        help=f"the database to copy (default: $BANKER_DB, else {settings.default_database()})",
    )
    b.add_argument(
        "--keep",
        metavar="N",
        type=int,
        default=None,
        help="keep N backups in all: the one before this becomes FILE.1, the one before that "
        "FILE.2…, and the oldest beyond N goes (default: FILE is replaced)",
    )
    b.set_defaults(
        run=backup,
        command="backup",
        interrupted="Stopped by Ctrl+C before the copy was complete: nothing was written.",
    )
    games_parser(commands)
    error_pages_parser(commands)
    return p


def serve_parser(commands) -> None:
    s = commands.add_parser(
        "serve",
        help="run the Banker's server on this machine",
        description="Run the Banker's server (the pages and the JSON API under /api/v1) and "
        "print the URL to open on the Banker's phone.",
    )
    # Its options are declared in banker.settings (each also a $BANKER_… variable), read and
    # checked there (serve_settings): a bad one is one sentence, not argparse's usage.
    for option in settings.SETTINGS:
        if option.flag:
            default = option.default if option.name != "db" else settings.default_database()
            s.add_argument(
                option.flag,
                dest=option.name,
                default=None,
                metavar="FILE" if option.kind == "path" or option.name == "access_log" else None,
                help=f"{option.help} (default: ${option.env}, else {default or 'none'})",
            )
    s.set_defaults(run=serve, command="serve")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `banker` console script."""
    args = parser().parse_args(argv)
    if not hasattr(args, "run"):
        parser().print_help()
        return 2
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        if getattr(args, "db", "") is None and args.command != "serve":  # serve: its settings
            args.db = default_database_path()
        args.run(args)
    except (Fatal, settings.SettingError) as e:
        print(f"banker {args.command}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl+C: a sentence, not a traceback
        said = getattr(args, "interrupted", "Stopped by Ctrl+C.")
        print(f"\nbanker {args.command}: {said}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `banker games | head`: the reader has all it wanted
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
