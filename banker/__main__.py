"""The `banker` command line: `banker serve` runs the Banker's server, `banker backup` copies
its database."""

from __future__ import annotations

import argparse
import logging
import socket
import sys
import urllib.parse

from banker.store import default_database_path


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
    """A --public-url: http(s)://host[:port][/path], kept without its trailing slash."""
    parts = urllib.parse.urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an http:// or https:// URL with a host (and no ?query or #fragment)"
        )
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def serve(args: argparse.Namespace) -> None:
    """Run the web app under waitress and print the URL to open."""
    from banker.serving import AlreadyServed, create_server, hold_database
    from banker.web import create_app
    from banker.web.qr import print_qr

    try:
        hold_database(args.db)  # held until this process ends (issue 12)
    except AlreadyServed as e:
        raise SystemExit(f"banker serve: {e}") from None
    app = create_app({"DATABASE": str(args.db), "PUBLIC_URL": args.public_url})
    server = create_server(app, host=args.host, port=args.port, threads=args.threads)
    everywhere = args.host in ("0.0.0.0", "", "::")
    host = lan_address() if everywhere else args.host
    host = f"[{host}]" if ":" in host else host
    port = server.effective_port
    if everywhere:
        # Links shown to a Banker browsing on this machine itself (localhost) use this instead.
        app.config["LAN_URL"] = f"http://{host}:{port}"
    # The home page, where the Banker creates the game; its Join panel then has the players' links.
    url = f"{args.public_url}/" if args.public_url else f"http://{host}:{port}/"
    print(f"Banker is running on database {args.db}", flush=True)
    print(f"Open {url} on the Banker's phone (Ctrl+C stops).", flush=True)
    print_qr(url, sys.stdout)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def backup(args: argparse.Namespace) -> None:
    """Write a consistent copy of the database to FILE, even while the server runs."""
    import sqlite3

    from banker.store import backup as backup_database

    try:
        games = backup_database(args.db, args.file)
    except (OSError, ValueError, sqlite3.Error) as e:
        raise SystemExit(f"banker backup: {e}") from None
    print(f"Backed up {games} game{'s' if games != 1 else ''} from {args.db} to {args.file}.")


def parser() -> argparse.ArgumentParser:
    """The command line's arguments, with their help."""
    p = argparse.ArgumentParser(
        prog="banker",
        description="The digital Banker for a real, physical game of Monopoly (US G0009).",
    )
    commands = p.add_subparsers(title="commands", metavar="COMMAND")
    s = commands.add_parser(
        "serve",
        help="run the Banker's server on this machine",
        description="Run the Banker's server (the pages and the JSON API under /api/v1) and "
        "print the URL to open on the Banker's phone.",
    )
    s.add_argument("--host", default="0.0.0.0", help="address to listen on (default: 0.0.0.0)")
    s.add_argument(
        "--port",
        type=int,
        default=8000,
        help="port to listen on; 0 picks a free one (default: 8000)",
    )
    s.add_argument(
        "--db",
        default=None,
        help=f"the SQLite file of the games (default: $BANKER_DB, else {default_database_path()})",
    )
    s.add_argument(
        "--threads", type=int, default=8, help="worker threads serving requests (default: 8)"
    )
    s.add_argument(
        "--public-url",
        type=public_url,
        default=None,
        help="the URL the phones reach this server at, when not this machine's own address "
        "(a reverse proxy, a host name): the printed URL and the players' links use it",
    )
    s.set_defaults(run=serve)
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
        help=f"the database to copy (default: $BANKER_DB, else {default_database_path()})",
    )
    b.set_defaults(run=backup)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `banker` console script."""
    args = parser().parse_args(argv)
    if not hasattr(args, "run"):
        parser().print_help()
        return 2
    if getattr(args, "db", "") is None:
        args.db = default_database_path()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
