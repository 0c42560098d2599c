"""Each player row on the Banker's page shows whether that phone follows the game now."""

from __future__ import annotations

import re
import time


def strip_rows(g) -> dict:
    """{player name: the row's classes} on the Banker's table page."""
    r = g.table.client.get(f"/games/{g.id}?token={g.banker_token}", follow_redirects=True)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    strip = html[html.index('<ol class="strip">') :]
    strip = strip[: strip.index("</ol>")]
    rows = re.findall(
        r'<li id="strip-\w+" class="([^"]*)">.*?<span class="name">([^<]+)', strip, re.S
    )
    return {name: set(classes.split()) for classes, name in rows}


def test_a_phone_that_polls_is_following_and_one_that_stopped_is_not(game, store, monkeypatch):
    assert store.following(game.id) == set()
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    # Ann's page polls: an idle poll (204 before Flask) and one with news (Flask's route).
    assert game.table.client.get(f"/join/{game.tokens['p1']}/version?v=1").status_code == 204
    assert store.following(game.id) == {"p1"}
    now[0] += 3
    assert game.table.client.get(f"/join/{game.tokens['p2']}/version?v=0").status_code == 200
    assert store.following(game.id) == {"p1", "p2"}
    now[0] += 2.5  # Ann's phone last polled 5.5 s ago
    assert store.following(game.id) == {"p2"}
    rows = strip_rows(game)
    assert "following" in rows["Bob"] and "following" not in rows["Ann"]


def test_a_replaced_or_unknown_token_follows_nothing(game, store):
    old = game.tokens["p1"]
    store.new_token(game.id, "p1")
    assert game.table.client.get(f"/join/{old}/version?v=1").status_code == 403
    assert game.table.client.get("/join/nobody/version?v=1").status_code == 404
    assert store.following(game.id) == set()
