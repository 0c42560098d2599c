"""The fixtures earlier releases made (tests/data/releases/<release>-<commit>/: snapshots, a
database left with unfinished games, its manifest), read for the tests of upgrades: tests/app
imports the snapshots, tests/server serves the databases. bench/release_fixtures.py made them
(see each folder's README.md); the tests never run it."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

RELEASES = Path(__file__).parent / "data" / "releases"
FOLDERS = sorted(p for p in RELEASES.iterdir() if p.is_dir())
SNAPSHOTS = sorted(RELEASES.glob("*/snapshots/*.json.gz"))


def snapshot(path: Path) -> dict:
    """A fixture snapshot as its release exported it."""
    return json.loads(gzip.decompress(path.read_bytes()))


def database(folder: Path, target: Path) -> list[dict]:
    """The folder's database, written to `target`; its manifest: for each game, {"name",
    "game_id", "banker_token", "player_tokens": {id: token}, "version", "keyed": [{"key",
    "command", "version", "events", "answer_sha256"}]}."""
    target.write_bytes(gzip.decompress((folder / "games.db.gz").read_bytes()))
    return json.loads((folder / "manifest.json").read_text())


def answer_sha256(body: dict) -> str:
    """The fingerprint the manifest keeps of a keyed command's answer."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def label(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.name.removesuffix('.json.gz')}"


def game_pages(game_id: str, banker: str, players: dict, display: str | None) -> list[tuple]:
    """Every page of a game (its Banker's, each player's, the big screen's): (path, the Banker's
    token its link carries (`?token=`, which the page keeps in a cookie), or None when the
    token is in the path)."""
    pages = [
        (f"/games/{game_id}{page}", banker)
        for page in ("", "/board", "/history", "/pad", "/pause", "/story", "/trade", "/version",
                     "/poll", "/snapshot.json")
    ]  # fmt: skip
    pages += [(f"/games/{game_id}/players/{pid}", banker) for pid in players]
    for token in players.values():
        pages += [(f"/join/{token}{page}", None) for page in ("", "/story", "/trade", "/version")]
    if display:
        pages += [(f"/display/{display}{page}", None) for page in ("", "/story", "/version")]
    return pages
