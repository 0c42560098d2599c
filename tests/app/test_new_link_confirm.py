"""'New link for Ann' asks first, without JS too: a confirmation step saying the old link stops
working at once; only its Yes changes anything."""

from __future__ import annotations

import re

from tests.app.test_pages import Banker, find_button
from tests.app.test_player import join_path, text_of

CONFIRM_SENTENCE = (
    "Give Ann a new link? Ann’s old link stops working at once : the phone that has it no "
    "longer sees the game and can do nothing in it."
)


def test_new_link_on_the_join_panel_opens_a_confirmation_instead_of_a_js_dialog(client, game):
    html = Banker(client, game).page()
    panel = html[html.index('id="join-panel"') :]
    assert "hx-confirm" not in panel
    form = re.search(r'<form method="get"\s+action="([^"]+)"', panel).group(1)
    assert form == f"/games/{game.id}/players/p1/new-link"


def test_the_new_link_confirmation_says_the_old_link_stops_at_once_and_changes_nothing(game):
    old_path = join_path(game, "p1")
    before = game.now()
    r = game.table.client.get(f"/games/{game.id}/players/p1/new-link?token={game.banker_token}")
    assert r.status_code == 200
    assert "<html" in r.text  # a whole page without JS
    assert CONFIRM_SENTENCE in text_of(r.text)
    assert "Yes: a new link for Ann" in r.text and "Cancel: keep Ann’s link" in r.text
    assert game.now() == before
    assert game.table.client.get(old_path).status_code == 200  # the old link still works


def test_yes_on_the_new_link_confirmation_replaces_the_link_and_leads_back_to_the_table(game):
    old_path = join_path(game, "p1")
    confirm = f"http://localhost/games/{game.id}/players/p1/new-link?token={game.banker_token}"
    page = game.table.client.get(confirm).text
    action = re.search(r'<form method="post"\s+action="([^"]+)"', page).group(1)
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    r = game.table.client.post(action, data={"token": token}, headers={"Referer": confirm})
    assert r.status_code == 303
    assert r.headers["Location"] == f"/games/{game.id}?token={game.banker_token}"
    assert game.table.client.get(old_path).status_code == 403
    assert game.table.client.get(join_path(game, "p2")).status_code == 200  # Bob's link untouched


def test_the_new_link_confirmation_comes_as_a_fragment_in_place_of_the_join_panel(game):
    r = game.table.client.get(
        f"/games/{game.id}/players/p2/new-link?token={game.banker_token}",
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200
    assert "<html" not in r.text
    assert r.text.lstrip().startswith('<section id="join-panel"')
    assert 'hx-post="/games/' in r.text and 'hx-target="#join-panel"' in r.text
    assert "Give Bob a new link?" in text_of(r.text)


def test_only_the_banker_may_open_the_new_link_confirmation(game):
    base = f"/games/{game.id}/players/p1/new-link"
    for query in ("", f"?token={game.tokens['p2']}", "?token=wrong"):
        r = game.table.client.get(base + query)
        assert r.status_code == 403
        assert "Only the Banker of this game may give a player a new link." in text_of(r.text)
    r = game.table.client.get(f"/games/{game.id}/players/p9/new-link?token={game.banker_token}")
    assert (r.status_code, "There is no such player in this game.") == (
        404,
        re.search(r'id="message"[^>]*>([^<]+)<', r.text).group(1),
    )
    assert game.table.client.get("/games/nosuch/players/p1/new-link").status_code == 404


def test_the_bankers_phone_without_js_confirms_a_new_link_with_its_cookie(client, game):
    banker = Banker(client, game)
    form, _ = find_button(banker.page(), "New link for Ann")
    assert (form["method"], form["fields"]) == ("get", [])  # the cookie says who asks
    page = client.get(form["action"]).text
    assert CONFIRM_SENTENCE in text_of(page)
    yes, _ = find_button(page, "Yes: a new link for Ann")
    r = client.post(yes["action"], data=dict(yes["fields"]))
    assert (r.status_code, r.headers["Location"]) == (303, f"/games/{game.id}")
    assert client.get(join_path(game, "p1")).status_code == 403


def test_the_tables_live_refresh_leaves_the_join_codes_to_the_page_that_keeps_them(client, game):
    """The Join panel is kept by the page (hx-preserve) through every live refresh of the table:
    the poll's (and so the push's) screen does not draw it again; the page, a screen reached
    from another (htmx) and an answer to a tap still do."""
    banker = Banker(client, game)
    page = banker.page()
    assert 'id="join-panel"' in page and 'id="join-details"' in page
    version = game.now()[0]["version"]
    cookie = {"HX-Request": "true"}
    live = client.get(
        f"/games/{game.id}/poll?v={version - 1}&screen=table&f=-&token={game.banker_token}",
        headers=cookie,
    )
    assert live.status_code == 200
    assert 'id="join-details" hx-preserve="true"' in live.text
    assert 'id="join-panel"' not in live.text and "New link for Ann" not in live.text
    screen = client.get(f"/games/{game.id}", headers=cookie)  # the cookie Banker.page set
    assert 'id="join-panel"' in screen.text and "New link for Ann" in screen.text
