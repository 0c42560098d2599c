"""The `banker` command line: `banker serve` runs the Banker's server, `banker backup` copies
its database, `banker games` lists, relinks and removes the stored games.

Whatever goes wrong that the user can fix (a port in use, a database that cannot be created or
written, or one from a newer banker) ends with one sentence on stderr and exit status 1."""

from __future__ import annotations

import argparse
import errno
import logging
import socket
import sqlite3
import sys
import urllib.parse
from datetime import UTC, datetime, timedelta
from pathlib import Path

from banker import __version__
from banker.store import StoreError, default_database_path


class Fatal(Exception):
    """A problem the user can fix, told in one sentence (no traceback)."""


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


def open_store(db: str):
    """The Store of `db`, or Fatal with the reason it cannot be used."""
    from banker.store import Store

    return _guarded(db, lambda: Store(db))


def _guarded(db: str, make):
    """make(), turning the database's problems into one sentence."""
    path = Path(db)
    if path.is_dir():
        raise Fatal(f"{db} is a folder, not a database file: give --db a file name.")
    try:
        return make()
    except StoreError as e:  # a newer banker's database
        raise Fatal(e.message) from None
    except OSError as e:  # the folder cannot be created
        raise Fatal(
            f"Cannot create the folder {path.parent} for the database "
            f"({e.strerror or e}): choose another place with --db FILE."
        ) from None
    except sqlite3.Error as e:
        raise Fatal(
            f"Cannot open or write the database {db} ({e}): check that it and its folder "
            "are writable, or choose another file with --db FILE."
        ) from None


def listen(app, host: str, port: int, threads: int):
    """banker's server (banker.serving: uvicorn, push, the connection limits) bound to
    host:port with `threads` worker threads for the app, or Fatal saying why it cannot be."""
    from banker.serving import create_server

    try:
        return create_server(app, host=host, port=port, threads=threads)
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
        raise Fatal(f"Cannot listen on {host}:{port} ({e.strerror or e}).") from None


def serve(args: argparse.Namespace) -> None:
    """Run the web app (banker.serving) and print the URL to open."""
    from banker.serving import AlreadyServed, hold_database
    from banker.web import create_app
    from banker.web.qr import print_qr

    config = {"DATABASE": str(args.db), "PUBLIC_URL": args.public_url}
    app = _guarded(str(args.db), lambda: create_app(config))
    try:  # held until this process ends (issue 12)
        _guarded(str(args.db), lambda: hold_database(args.db))
    except AlreadyServed as e:
        raise Fatal(str(e)) from None
    server = listen(app, args.host, args.port, args.threads)
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
    from banker.store import backup as backup_database

    try:
        games = backup_database(args.db, args.file)
    except (OSError, ValueError, sqlite3.Error) as e:
        raise Fatal(f"{e}") from None
    print(f"Backed up {games} game{'s' if games != 1 else ''} from {args.db} to {args.file}.")


# -- banker games ---------------------------------------------------------------------------


def base_url(args: argparse.Namespace) -> str:
    """Where the links point: --public-url, else this machine's LAN address and --port."""
    if args.public_url:
        return args.public_url
    host = lan_address()
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{args.port}"


def banker_link(base: str, game_id: str, token: str) -> str:
    return f"{base}/games/{game_id}?token={token}"


def games(args: argparse.Namespace) -> None:
    """List the stored games; or give one a new Banker link; or remove some."""
    store = open_store(str(args.db))
    try:
        if args.new_link:
            new_link(store, args)
        elif args.remove or args.finished_older_than is not None:
            remove(store, args)
        else:
            list_games(store, args)
    finally:
        store.close()


def list_games(store, args: argparse.Namespace) -> None:
    from banker.web.qr import print_qr

    found = store.list_games()
    if not found:
        print(f"No games in {args.db}.")
        return
    base = base_url(args)
    for g in found:
        link = banker_link(base, g["game_id"], store.banker_token(g["game_id"]))
        print(
            f"{g['game_id']}  {', '.join(g['names'])}  {g['status']}, version {g['version']}, "
            f"last change {g['at'] or 'never'}"
        )
        print(f"  Banker: {link}")
        if not args.no_qr:
            print_qr(link, sys.stdout)
    print(
        f"{len(found)} game{'s' if len(found) != 1 else ''} in {args.db}. Anyone with a Banker "
        "link runs that game: `banker games --new-link GAME` replaces a lost one."
    )


def new_link(store, args: argparse.Namespace) -> None:
    """Replace a game's Banker token: through the running server when there is one (so that
    it forgets the old token at once), else in the database."""
    from banker.store import GameNotFound
    from banker.web.qr import print_qr

    game_id = args.new_link
    try:
        old = store.banker_token(game_id)
    except GameNotFound:
        raise Fatal(
            f"There is no game {game_id!r} in {args.db} (`banker games` lists them)."
        ) from None
    token = _new_link_via_server(args, game_id, old) or store.new_token(game_id, "banker")
    link = banker_link(base_url(args), game_id, token)
    print(f"New Banker link for game {game_id} (the old one no longer works):")
    print(f"  {link}")
    if not args.no_qr:
        print_qr(link, sys.stdout)


def _new_link_via_server(args: argparse.Namespace, game_id: str, old: str) -> str | None:
    """Ask a `banker serve` on this machine's --port for the new token; None if none answers."""
    import http.client
    import json

    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=3)
    try:
        conn.request(
            "POST",
            f"/api/v1/games/{game_id}/tokens",
            body=json.dumps({"for": "banker"}),
            headers={"Authorization": f"Bearer {old}", "Content-Type": "application/json"},
        )
        response = conn.getresponse()
        body = response.read()
        if response.status == 201:
            return json.loads(body)["token"]
    except (OSError, http.client.HTTPException, ValueError, KeyError):
        pass
    finally:
        conn.close()
    return None


def remove(store, args: argparse.Namespace) -> None:
    """Remove the games named, or finished ones older than DAYS, after a prompt."""
    known = {g["game_id"]: g for g in store.list_games()}
    chosen = []
    for game_id in args.remove or []:
        if game_id not in known:
            raise Fatal(f"There is no game {game_id!r} in {args.db} (`banker games` lists them).")
        chosen.append(known[game_id])
    if args.finished_older_than is not None:
        if args.finished_older_than < 0:
            raise Fatal("--finished-older-than needs a number of days, 0 or more.")
        cutoff = datetime.now(UTC) - timedelta(days=args.finished_older_than)
        for g in known.values():
            if g["status"] in ("finished", "unfinished") and _when(g["at"]) < cutoff:
                if g not in chosen:
                    chosen.append(g)
    if not chosen:
        print("No game to remove.")
        return
    for g in chosen:
        print(f"  {g['game_id']}  {', '.join(g['names'])}  {g['status']}, last change {g['at']}")
    count = f"{len(chosen)} game{'s' if len(chosen) != 1 else ''}"
    if not args.yes:
        print(
            f"Remove {count} for good? A copy first is wise: `banker backup FILE`. "
            "Stop `banker serve` on this database first, too.",
        )
        try:
            answer = input("Type yes to remove them: ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing removed.")
            return
    for g in chosen:
        store.remove_game(g["game_id"])
    print(f"Removed {count} from {args.db}.")


def _when(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return datetime.max.replace(tzinfo=UTC)


def parser() -> argparse.ArgumentParser:
    """The command line's arguments, with their help."""
    p = argparse.ArgumentParser(
        prog="banker",
        description="The digital Banker for a real, physical game of Monopoly (US G0009).",
    )
    p.add_argument("--version", action="version", version=f"banker {__version__}")
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
        "--threads",
        type=int,
        default=8,
        help="worker threads running the app's requests; the pages' push streams need none "
        "(default: 8)",
    )
    s.add_argument(
        "--public-url",
        type=public_url,
        default=None,
        help="the URL the phones reach this server at, when not this machine's own address "
        "(a reverse proxy, a host name): the printed URL and the players' links use it",
    )
    s.set_defaults(run=serve, command="serve")
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
    b.set_defaults(run=backup, command="backup")
    games_parser(commands)
    return p


def games_parser(commands) -> None:
    g = commands.add_parser(
        "games",
        help="list the stored games with their Banker links; new links; remove old games",
        description="List the games in the database: id, players, status, version and last "
        "change, each with its Banker link and a QR code of it. With --new-link GAME, give "
        "that game a new Banker link (the old one stops working). With --remove or "
        "--finished-older-than, remove games for good after a prompt.",
    )
    g.add_argument(
        "--db",
        default=None,
        help=f"the games database (default: $BANKER_DB, else {default_database_path()})",
    )
    g.add_argument(
        "--public-url",
        type=public_url,
        default=None,
        help="the URL banker serve is reached at, for the links (default: this machine's "
        "address on the local network and --port)",
    )
    g.add_argument(
        "--port", type=int, default=8000, help="the port banker serve listens on (default: 8000)"
    )
    g.add_argument("--no-qr", action="store_true", help="print the links without QR codes")
    actions = g.add_mutually_exclusive_group()
    actions.add_argument(
        "--new-link",
        metavar="GAME",
        help="give game GAME a new Banker link; the old link stops working",
    )
    actions.add_argument(
        "--remove", metavar="ID", nargs="+", help="remove these games (after a prompt)"
    )
    g.add_argument(
        "--finished-older-than",
        metavar="DAYS",
        type=int,
        default=None,
        help="remove the finished games whose last change is older than DAYS days (after a prompt)",
    )
    g.add_argument("--yes", action="store_true", help="remove without asking")
    g.set_defaults(run=games, command="games")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `banker` console script."""
    args = parser().parse_args(argv)
    if not hasattr(args, "run"):
        parser().print_help()
        return 2
    if getattr(args, "db", "") is None:
        args.db = default_database_path()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        args.run(args)
    except Fatal as e:
        print(f"banker {args.command}: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `banker games | head`: the reader has all it wanted
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
