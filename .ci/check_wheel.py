"""Serve banker from an installed wheel and check what a new user would meet first.

    python .ci/check_wheel.py --venv VENV --static REPO/static

Runs VENV/bin/banker (which must import banker from VENV, not from a checkout), checks
`banker --version`, starts `banker serve` on a free loopback port over a new database and
asks for `/`, a game's page (through its banker_url), a player's page (its join_url), the web
app manifest and every file of the repository's static/ folder: each must answer 200.
Standard library only; exit status 0 when all is well, else 1 with what failed.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path


def get(opener, url: str, failures: list[str], data: bytes | None = None) -> bytes:
    headers = {"Content-Type": "application/json"} if data else {}
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with opener.open(request, timeout=10) as answer:
            body = answer.read()
            if answer.status not in (200, 201):
                failures.append(f"{url}: {answer.status}")
            return body
    except urllib.error.HTTPError as e:
        failures.append(f"{url}: {e.code}")
    except OSError as e:
        failures.append(f"{url}: {e}")
    return b""


def start(banker: Path, db: Path, log: Path) -> tuple[subprocess.Popen, str]:
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [str(banker), "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=db.parent,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.search(r"Open (http://127\.0\.0\.1:\d+)/", log.read_text())
        if found:
            return proc, found.group(1)
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.terminate()
    sys.exit(f"check_wheel: banker serve did not start:\n{log.read_text()}")


def check(venv: Path, static: Path) -> list[str]:
    failures: list[str] = []
    banker = venv / "bin" / "banker"
    python = venv / "bin" / "python"
    where = subprocess.run(
        [str(python), "-c", "import banker; print(banker.__file__, banker.__version__)"],
        capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(),
    ).stdout.split()  # fmt: skip
    if not where[0].startswith(str(venv)):
        failures.append(f"banker is imported from {where[0]}, not from the venv")
    version = subprocess.run([str(banker), "--version"], capture_output=True, text=True)
    if version.stdout.strip() != f"banker {where[1]}":
        failures.append(f"banker --version says {version.stdout!r}")
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start(banker, Path(tmp) / "banker.db", Path(tmp) / "serve.log")
        try:
            opener = urllib.request.build_opener(
                urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
            )
            home = get(opener, url + "/", failures)
            if b"<form" not in home:
                failures.append("/ shows no form to create a game")
            body = json.dumps({"players": ["Ann", "Bob"]}).encode()
            created = json.loads(get(opener, url + "/api/v1/games", failures, body) or b"{}")
            if created:
                table = get(opener, created["banker_url"], failures)  # 303 to the game's page
                if b'id="screen"' not in table:
                    failures.append("the game's page is not the table screen")
                player = get(opener, created["players"][0]["join_url"], failures)
                if b"Ann" not in player:
                    failures.append("the player's page does not name Ann")
                links = set(re.findall(rb'(?:href|src)="(/[^"]+)"', table + player + home))
                for link in sorted(links):
                    if link.startswith((b"/static/", b"/manifest", b"/favicon")):
                        get(opener, url + link.decode().replace("&amp;", "&"), failures)
            for path in sorted(p for p in static.rglob("*") if p.is_file()):
                get(opener, f"{url}/static/{path.relative_to(static).as_posix()}", failures)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return failures


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--venv", type=Path, required=True, help="the venv the wheel is installed in")
    p.add_argument("--static", type=Path, required=True, help="the repository's static/ folder")
    args = p.parse_args()
    failures = check(args.venv.resolve(), args.static.resolve())
    for failure in failures:
        print(f"check_wheel: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)
    count = sum(1 for p in args.static.rglob("*") if p.is_file())
    print(
        f"check_wheel: the wheel serves /, a game's page, a player's page and {count} static files"
    )


if __name__ == "__main__":
    main()
