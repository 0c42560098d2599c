"""A database an earlier release left (tests/data/releases/*/games.db.gz), served by this
release's `banker serve`: every page of every game answers at once (no command needed first),
the API reads the same game, and every Idempotency-Key whose answer that release remembered is
honoured: the answer replayed, nothing applied twice."""

from __future__ import annotations

import sqlite3

import pytest

from tests.releases import FOLDERS, answer_sha256, database, game_pages
from tests.serving import call, request, serving


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_an_earlier_releases_database_serves_every_page_at_once_and_honours_its_keys(
    tmp_path, folder
):
    db = tmp_path / "games.db"
    games = database(folder, db)
    with serving(db) as server:
        for game in games:
            gid, banker, players = game["game_id"], game["banker_token"], game["player_tokens"]
            # The API reads the game where that release left it, before any command.
            status, _, state = call(f"{server.url}/api/v1/games/{gid}", token=banker)
            assert (status, state["version"]) == (200, game["version"])
            display = _display_token(db, gid)
            cookies: dict = {}
            for page, token in game_pages(gid, banker, players, display):
                reply = _opened(server.url, page, token, cookies)
                assert reply.status_code == 200, (page, reply.data[:300])
            # Each remembered key: the first answer again, nothing applied twice.
            for kept in game["keyed"]:
                status, _, body = call(
                    f"{server.url}/api/v1/games/{gid}/commands",
                    "POST",
                    kept["command"],
                    token=banker,
                    headers={"Idempotency-Key": kept["key"]},
                )
                assert status == 200, body
                assert (body["version"], [e["text"] for e in body["events"]]) == (
                    kept["version"],
                    kept["events"],
                )
                assert answer_sha256(body) == kept["answer_sha256"]
            status, _, after = call(f"{server.url}/api/v1/games/{gid}", token=banker)
            assert after["version"] == game["version"]
            _, _, events = call(f"{server.url}/api/v1/games/{gid}/events", token=banker)
            said = {e["text"] for e in events}
            assert all(text in said for kept in game["keyed"] for text in kept["events"])


def _opened(url: str, page: str, token: str | None, cookies: dict):
    """A page opened as a browser opens it from the Banker's link: the link's `?token=` answers
    with a cookie and a redirect to the page itself; the game's other pages send that cookie."""
    if token is None:
        return request(url + page)
    if token not in cookies:
        reply = request(f"{url}{page}?token={token}")
        assert reply.status_code == 303, reply.data[:300]
        cookies[token] = reply.header("Set-Cookie").split(";")[0]
    return request(url + page, headers={"Cookie": cookies[token]})


def _display_token(db, game_id: str) -> str | None:
    """The game's display token (a game of a release before displays gets one when loaded)."""
    conn = sqlite3.connect(db)
    try:
        row = conn.execute("select display_token from games where id = ?", [game_id]).fetchone()
    finally:
        conn.close()
    return row[0] if row else None
