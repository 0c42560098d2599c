"""`banker error-pages DIR`: the pages a reverse proxy shows while `banker serve` does not
answer (stopped, restarting, killed), in banker's look: unavailable.html for the pages,
unavailable.json for the API (its error body), and the site.css the page uses. The proxy serves
them itself (docs/hosting.md, "When banker is down"; docs/scaling.md for several processes)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

from banker.cli import Fatal, user

URL_PATH = "/banker-errors"  # where the proxy serves DIR (its `location`)
MESSAGE = (
    "The Banker's server is not answering just now, so nothing was done; every move made "
    "before is kept. Try again in a minute: if it goes on, the host will find why in the "
    "server's log."
)
API_ERROR = {
    "error": {
        "code": "server_unavailable",
        "message": "The server holding this game is not answering just now, so nothing was "
        "done: try again in a minute.",
    }
}


def error_pages(args: argparse.Namespace) -> None:
    """Write the proxy's pages into DIR (made if missing), readable by every user (the proxy's
    own user serves them)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    from banker.web.app import folder

    target = Path(args.dir)
    try:
        target.mkdir(parents=True, exist_ok=True)
        page = Environment(
            loader=FileSystemLoader(folder("templates")), autoescape=select_autoescape()
        ).get_template("proxy/unavailable.html")
        (target / "unavailable.html").write_text(
            page.render(path=URL_PATH, message=MESSAGE) + "\n", encoding="utf-8"
        )
        (target / "unavailable.json").write_text(json.dumps(API_ERROR) + "\n", encoding="utf-8")
        shutil.copyfile(folder("static") / "site.css", target / "site.css")
        for name in ("unavailable.html", "unavailable.json", "site.css"):
            os.chmod(target / name, 0o644)
    except OSError as e:
        raise Fatal(
            f"Cannot write the error pages in {target} as {user()} ({e.strerror or e}): choose "
            "a folder that user can write (as root: /var/www/banker-errors)."
        ) from None
    print(
        f"Wrote unavailable.html, unavailable.json and site.css in {target}: serve that folder "
        f"at {URL_PATH}/ from the proxy (docs/hosting.md, When banker is down)."
    )


def error_pages_parser(commands) -> None:
    e = commands.add_parser(
        "error-pages",
        help="write the pages a reverse proxy shows while banker serve does not answer",
        description="Write unavailable.html (in banker's look), unavailable.json (the API's "
        f"error body) and site.css into DIR, for a reverse proxy to serve at {URL_PATH}/ when "
        "banker serve does not answer (stopped, restarting). docs/hosting.md gives nginx's lines.",
    )
    e.add_argument("dir", metavar="DIR", help="the folder to write them in (made if missing)")
    e.set_defaults(run=error_pages, command="error-pages")
