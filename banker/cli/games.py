"""`banker games`: list the stored games with their Banker links, give one a new Banker link,
remove games.

While a `banker serve` holds the database (its lock on the file), a new link or a removal goes
through that server's control socket (banker/control.py), so that it takes effect there at
once; when that server cannot be reached, nothing is changed and the command says why. The
links printed use the running server's URL (its --public-url) unless --public-url is given."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime, timedelta

from banker import settings
from banker.cli import Fatal, check_port, database_file, guarded, lan_address, public_url


def base_url(args: argparse.Namespace, server: dict | None) -> str:
    """Where the links point: --public-url, else the running server's URL, else this machine's
    LAN address and --port."""
    if args.public_url:
        return args.public_url
    if server and server.get("url"):
        return server["url"]
    host = lan_address()
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{args.port}"


def banker_link(base: str, game_id: str, token: str) -> str:
    return f"{base}/games/{game_id}?token={token}"


def games(args: argparse.Namespace) -> None:
    """List the stored games; or give a seat of one a new link; or remove some."""
    from banker.net.serving import server_of
    from banker.store import Store

    db = str(args.db)
    check_port(args.port)
    if args.player is not None and not args.new_link:
        raise Fatal("--player goes with --new-link GAME: it says whose new link it is.")
    database_file(db, must_exist=True)  # never made here: a mistyped path is said so
    pid = server_of(db)  # asked before this process opens the file with SQLite
    # A running server is asked who it is before the file is opened: through a hard link (a
    # path it does not serve) SQLite would read and write a WAL of its own.
    server = None if pid is None else through_server(db, pid, {"op": "hello"})
    store = guarded(db, lambda: Store(db))
    try:
        if args.new_link:
            new_link(store, args, server)
        elif args.remove or args.finished_older_than is not None:
            remove(store, args, server)
        else:
            list_games(store, args, server)
    finally:
        store.close()


def through_server(db: str, pid: int, request: dict) -> dict:
    """Send `request` to the running server's control socket; its answer, or Fatal."""
    from banker.control import Unreachable, ask, control_path

    try:
        answer = ask(db, request)
    except Unreachable as e:
        raise Fatal(
            f"A banker serve (process {pid or 'unknown'}) holds {db} but cannot be reached at "
            f"{control_path(db)} ({e}): run this command as the user that runs it (or root), "
            "with the path it serves, or stop that server first. Nothing was changed."
        ) from None
    if not answer.get("ok"):
        raise Fatal(str(answer.get("error") or "The server refused, and said nothing more."))
    return answer


def list_games(store, args: argparse.Namespace, server: dict | None) -> None:
    from banker.web.common.qr import print_qr

    found = store.list_games()
    if not found:
        print(f"No games in {args.db}.")
        return
    base = base_url(args, server)
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


def new_link(store, args: argparse.Namespace, server: dict | None) -> None:
    """Replace a game's Banker token, or (--player) a player's: through the running server
    when there is one (so that it forgets the old token at once), else in the database."""
    from banker.store import GameNotFound
    from banker.web.common.qr import print_qr

    game_id = args.new_link
    try:
        players = store.players(game_id)
    except GameNotFound:
        raise Fatal(
            f"There is no game {game_id!r} in {args.db} (`banker games` lists them)."
        ) from None
    seat, whose = "banker", "New Banker link"
    if args.player is not None:
        player = seat_of(players, args.player)
        if player is None:
            names = ", ".join(f"{p['name']} ({p['id']})" for p in players)
            raise Fatal(
                f"Game {game_id} has no player {args.player!r}: give --player one of {names}."
            )
        seat, whose = player["id"], f"New link for {player['name']} ({player['id']})"
    if server is not None:
        request = {"op": "new_link", "game": game_id, "seat": seat}
        token = through_server(args.db, server["pid"], request)["token"]
    else:
        token = store.new_token(game_id, seat)
    base = base_url(args, server)
    link = banker_link(base, game_id, token) if seat == "banker" else f"{base}/join/{token}"
    print(f"{whose} for game {game_id} (the old one no longer works):")
    print(f"  {link}")
    if not args.no_qr:
        print_qr(link, sys.stdout)


def seat_of(players: list[dict], given: str) -> dict | None:
    """The player `given` names: their id (p2), else their name, in any case."""
    wanted = given.strip().casefold()
    for key in ("id", "name"):
        for p in players:
            if p[key].casefold() == wanted:
                return p
    return None


def chosen_games(store, args: argparse.Namespace) -> list[dict]:
    """The games named by --remove, and the finished ones older than --finished-older-than."""
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
    return chosen


def remove(store, args: argparse.Namespace, server: dict | None) -> None:
    """Remove the games named, or finished ones older than DAYS, after a prompt."""
    chosen = chosen_games(store, args)
    if not chosen:
        print("No game to remove.")
        return
    for g in chosen:
        print(f"  {g['game_id']}  {', '.join(g['names'])}  {g['status']}, last change {g['at']}")
    count = f"{len(chosen)} game{'s' if len(chosen) != 1 else ''}"
    if not args.yes:
        print(f"Remove {count} for good? A copy first is wise: `banker backup FILE`.")
        try:
            answer = input("Type yes to remove them: ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing removed.")
            return
    ids = [g["game_id"] for g in chosen]
    if server is not None:
        through_server(args.db, server["pid"], {"op": "remove", "games": ids})
    else:
        for game_id in ids:
            store.remove_game(game_id)
    print(f"Removed {count} from {args.db}.")


def _when(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return datetime.max.replace(tzinfo=UTC)


def games_parser(commands) -> None:
    g = commands.add_parser(
        "games",
        help="list the stored games with their Banker links; new links; remove old games",
        description="List the games in the database: id, players, status, version and last "
        "change, each with its Banker link and a QR code of it. With --new-link GAME, give "
        "that game a new Banker link, or with --player NAME a player's (the old one stops "
        "working). With --remove or "
        "--finished-older-than, remove games for good after a prompt. While banker serve runs "
        "on the database, both go through it (run them as the user that runs it).",
    )
    g.add_argument(
        "--db",
        default=None,
        help=f"the games database (default: $BANKER_DB, else {settings.default_database()})",
    )
    g.add_argument(
        "--public-url",
        type=public_url,
        default=None,
        help="the URL banker serve is reached at, for the links (default: the running "
        "server's own, else this machine's address on the local network and --port)",
    )
    g.add_argument(
        "--port",
        type=int,
        default=8000,
        help="the port banker serve listens on, for the links when it is not running "
        "(default: 8000)",
    )
    g.add_argument("--no-qr", action="store_true", help="print the links without QR codes")
    actions = g.add_mutually_exclusive_group()
    actions.add_argument(
        "--new-link",
        metavar="GAME",
        help="give game GAME a new Banker link (or, with --player, a player's); the old link "
        "stops working",
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
    g.add_argument(
        "--player",
        metavar="NAME",
        default=None,
        help="with --new-link: the player (their name, or id such as p2) who needs a new link, "
        "their phone lost",
    )
    g.add_argument("--yes", action="store_true", help="remove without asking")
    g.set_defaults(run=games, command="games")
