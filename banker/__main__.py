"""The `banker` command line: `banker serve` runs the Banker's server, `banker backup` copies
its database, `banker games` lists, relinks and removes the stored games.

Whatever goes wrong that the user can fix (an argument out of range, a port in use, a database
that cannot be reached, written or read, another program's file, a damaged one, one from a newer
banker) ends with one sentence on stderr naming the path or value and what to do, and exit
status 1 (banker/cli: `Fatal`)."""

from __future__ import annotations

import argparse
import errno
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
    """banker's server (banker.serving: uvicorn, push, the connection limits) bound to
    values.host and .port, or Fatal saying why it cannot be."""
    from banker.serving import create_server

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
    from banker.serving import AlreadyServed, hold_database

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
    from banker.control import Channel
    from banker.serving import keep_private
    from banker.web import create_app
    from banker.web.common.qr import print_qr

    values = serve_settings(args)
    db = values.db
    existed = database_file(db, must_exist=False).exists()
    keep_private(db)
    if existed:  # locked before SQLite opens it: a hard link must not get a WAL of its own
        hold(db)
    config = {"DATABASE": db, "PUBLIC_URL": values.public_url, "SETTINGS": values}
    app = guarded(db, lambda: create_app(config))
    if not existed:
        hold(db)  # held until this process ends
    store = app.extensions["banker.store"]
    guarded(db, store.check_writable)
    if values.access_log:
        access_log(app, values.access_log)
    server = listen(app, values)
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
    # The home page, where the Banker creates the game; its Join panel then has the players' links.
    print(f"Banker is running on database {db}", flush=True)
    print(f"Open {base}/ on the Banker's phone (Ctrl+C stops).", flush=True)
    print_qr(f"{base}/", sys.stdout)
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
    """Write a consistent copy of the database to FILE, even while the server runs."""
    from banker.store import backup as backup_database

    db = str(args.db)
    database_file(db, must_exist=True)
    target = Path(args.file)
    if target.is_dir():
        raise Fatal(
            f"{args.file} is a folder: give the backup a file name, for example "
            f"{target / 'banker-backup.db'}."
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
    games = guarded(db, lambda: backup_database(db, args.file))
    print(f"Backed up {games} game{'s' if games != 1 else ''} from {db} to {args.file}.")


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
        "backup: safe while `banker serve` is running). An existing FILE is replaced only once "
        "the copy is complete. To restore, stop the server and start it with --db FILE (or "
        "copy FILE over the database).",
    )
    b.add_argument("file", metavar="FILE", help="where to write the copy")
    b.add_argument(
        "--db",
        default=None,
        help=f"the database to copy (default: $BANKER_DB, else {settings.default_database()})",
    )
    b.set_defaults(run=backup, command="backup")
    games_parser(commands)
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
    except BrokenPipeError:  # `banker games | head`: the reader has all it wanted
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
