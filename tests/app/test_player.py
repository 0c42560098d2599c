"""The players' phones: their own page, the cheap poll, claiming rent, the Join panel with QR
codes, new links for lost phones, and what a player's token may not do."""

from __future__ import annotations

import re

import pytest
import zxingcpp
from flask import render_template_string, template_rendered

from banker.store import PlayerNotFound
from banker.web import create_app

START = {"type": "start", "first": "p1"}
ROLL_TO_BALTIC = {"type": "roll", "player": "p1", "dice": [1, 2]}
PANEL = '<main>{% include "table/_join_panel.html" ignore missing %}</main>'
NO_STORE = "private, no-store"


def path_of(url: str) -> str:
    """The path of an absolute URL, for the test client."""
    return re.sub(r"^https?://[^/]+", "", url)


def text_of(html: str) -> str:
    """The visible text of a page, whitespace collapsed (good enough to read its sentences)."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def decode_qr_svg(svg: str) -> str:
    """Decode one of our inline SVG QR codes: rasterize its path of runs, read it with zxing."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    dark = [[False] * size for _ in range(size)]
    for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", svg):
        for i in range(int(w)):
            dark[int(y)][int(x) + i] = True
    scale = 6
    pixels = b"".join(
        b"".join((b"\x00" if d else b"\xff") * scale for d in row) * scale for row in dark
    )
    view = zxingcpp.ImageView(pixels, size * scale, size * scale, zxingcpp.ImageFormat.Lum)
    (barcode,) = zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormat.QRCode)
    return barcode.text


@pytest.fixture
def started(new_game):
    """Ann and Bob, started: Ann rolls first."""
    g = new_game(["Ann", "Bob"])
    g.do(START)
    return g


@pytest.fixture
def claim(started):
    """Ann owns Baltic Avenue and Bob just landed on it: claim c1, Ann may ask Bob for 4."""
    started.do(ROLL_TO_BALTIC)
    started.do({"type": "buy"})
    started.do({"type": "roll", "player": "p2", "dice": [1, 2]})
    return started


def join_path(g, player_id: str) -> str:
    return path_of(next(p["join_url"] for p in g.created["players"] if p["id"] == player_id))


def page(g, player_id: str, path: str = "") -> str:
    r = g.table.client.get(join_path(g, player_id) + path)
    assert r.status_code == 200
    assert r.headers["Cache-Control"] == NO_STORE
    return r.get_data(as_text=True)


def cash(g) -> dict:
    return {p["id"]: p["cash"] for p in g.state["players"]}


def claim_form(html: str) -> dict:
    """The fields of the (first) Claim form on a page."""
    return {
        "claim": re.search(r'name="claim" value="([^"]+)"', html).group(1),
        "key": re.search(r'name="key" value="([^"]+)"', html).group(1),
    }


# -- the player's page -------------------------------------------------------------------------


def test_a_players_page_shows_their_money_token_deeds_rent_net_worth_and_the_table(new_game):
    g = new_game(["Ann", "Bob", "Cy"])
    g.do(START)
    g.do(ROLL_TO_BALTIC)
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [2, 3]})  # Reading Railroad
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p3", "dice": [3, 4]})  # Chance
    g.do({"type": "draw_card", "deck": "chance", "card": "get-out-of-jail-free"})
    g.do({"type": "move", "player": "p1", "position": 39})
    g.do({"type": "roll", "player": "p1", "dice": [1, 1]})  # past GO to Mediterranean Avenue
    g.do({"type": "buy"})
    g.do({"type": "build", "property": "baltic-avenue"})
    assert cash(g) == {"p1": 1500 - 60 + 200 - 60 - 50, "p2": 1300, "p3": 1500}

    ann = text_of(page(g, "p1"))
    assert "Ann Cash 1,530 Your turn to roll." in ann  # doubles: Ann rolls again
    assert "Token Mediterranean Avenue" in ann
    assert "Net worth 1,675" in ann  # 1,530 cash, two deeds at 60, one house at half of 50
    assert "Your deeds Brown (full set) Mediterranean Avenue Rent 4 Build house 50" in ann
    assert "Baltic Avenue Rent 20 · 1 house Build house 50" in ann
    assert "Bob 1,300 On Reading Railroad. Reading Railroad" in ann
    assert "Cy 1,500 On Chance, holds 1 Get Out of Jail Free card." in ann
    assert (
        "Lately Ann built a house on Baltic Avenue for 50. Ann bought Mediterranean Avenue for 60."
        in ann
    )
    assert "Rent to ask for" not in ann

    cy = text_of(page(g, "p3"))
    assert "Cards Get Out of Jail Free (Chance)" in cy
    assert "Your deeds No deeds yet." in cy
    assert "Ann 1,530 On Mediterranean Avenue. Mediterranean Avenue Baltic Avenue (1 house)" in cy


def test_a_jailed_player_sees_it_with_the_rolls_used(started):
    started.do({"type": "roll", "player": "p1", "dice": [3, 4]})  # Chance
    started.do({"type": "draw_card", "deck": "chance", "card": "go-to-jail"})
    started.do({"type": "roll", "player": "p2", "dice": [1, 2]})
    started.do({"type": "buy"})
    started.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # a failed attempt at doubles
    assert "Token In Jail (1 of 3 rolls for doubles used)" in text_of(page(started, "p1"))
    assert "Ann 1,500 In Jail." in text_of(page(started, "p2"))


def test_other_players_cash_is_hidden_when_the_game_counts_money_privately(new_game):
    g = new_game(["Ann", "Bob"], options={"private_cash": True})
    g.do(START)
    g.do(ROLL_TO_BALTIC)
    g.do({"type": "buy"})
    bob = text_of(page(g, "p2"))
    assert "Bob Cash 1,500" in bob
    assert "1,440" not in bob
    assert "Ann On Baltic Avenue. Baltic Avenue" in bob
    assert "The others count their money privately in this game." in bob
    assert "Bob 1,500 On GO." in text_of(page(new_game(["Ann", "Bob"]), "p1"))


def test_the_page_before_the_start_and_after_the_end_says_so(new_game):
    g = new_game(["Ann", "Bob"])
    assert "The game has not started yet" in text_of(page(g, "p2"))
    g.do(START)
    g.do({"type": "adjust", "player": "p1", "amount": -1490, "reason": "Test"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 3]})  # Income Tax 200
    g.do({"type": "bankrupt", "player": "p1"})
    assert "The game is over: Bob won." in text_of(page(g, "p2"))


# -- live: the cheap poll ----------------------------------------------------------------------


def test_the_poll_answers_204_from_memory_while_nothing_changed(app, claim):
    path = join_path(claim, "p1")
    version = claim.state["version"]
    claim.table.client.get(path)  # the first look at a token reads SQLite once
    store = app.extensions["banker.store"]
    rendered = []

    def no_sqlite():
        raise AssertionError("an idle poll must not touch SQLite")

    template_rendered.connect(lambda sender, template, context, **kw: rendered.append(template))
    original, store.database.connection = store.database.connection, no_sqlite
    try:
        r = claim.table.client.get(f"{path}/version?v={version}")
    finally:
        store.database.connection = original
    assert (r.status_code, r.data, rendered) == (204, b"", [])
    assert r.headers["Cache-Control"] == NO_STORE


def test_the_poll_answers_the_fresh_fragment_with_the_new_version_after_a_command(claim):
    version = claim.state["version"]
    claim.do({"type": "claim_rent", "claim": "c1"})  # the Banker asks for Ann
    fragment = page(claim, "p1", f"/version?v={version}")
    assert fragment.startswith('<div id="player-view"')
    assert f'hx-get="{join_path(claim, "p1")}/version?v={version + 1}"' in fragment
    assert "Ann Cash 1,444" in text_of(fragment)
    assert "<html" not in fragment
    # A poll without a version, or with a bad one, gets the fragment too.
    assert page(claim, "p1", "/version?v=x").startswith('<div id="player-view"')


def test_the_page_follows_by_push_polls_every_700_ms_where_blocked_and_when_the_phone_wakes(
    claim,
):
    html = page(claim, "p2")
    assert 'hx-trigger="banker:live, visibilitychange from:document"' in html
    token = claim.tokens["p2"]
    assert f'<meta name="banker-push" content="/join/{token}/events" data-poll="700">' in html
    assert 'src="/static/refresh.js' in html
    assert 'src="/static/htmx-2.0.11.min.js"' in html
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in html


# -- claiming rent from the phone --------------------------------------------------------------


def test_the_owner_sees_the_claim_and_the_payer_does_not(claim):
    ann = page(claim, "p1")
    assert "Rent to ask for Ask Bob for 4 (Baltic Avenue)" in text_of(ann)
    assert claim_form(ann)["claim"] == "c1"
    bob = page(claim, "p2")
    assert "Ask" not in text_of(bob).replace("Ann may ask Bob", "")
    assert 'name="claim"' not in bob
    assert 'value="claim_rent"' not in bob


def test_a_claim_posted_from_another_sites_page_is_refused_and_changes_nothing(claim):
    form = claim_form(page(claim, "p1"))
    before = claim.state
    r = claim.table.client.post(
        join_path(claim, "p1") + "/claim", data=form, headers={"Origin": "http://evil.example"}
    )
    assert r.status_code == 403
    assert "another site" in r.get_data(as_text=True)
    assert claim.state == before


def test_the_owner_claims_rent_with_a_plain_form_and_a_double_tap_pays_once(claim):
    form = claim_form(page(claim, "p1"))
    r = claim.table.client.post(join_path(claim, "p1") + "/claim", data=form)
    assert (r.status_code, r.headers["Location"]) == (303, join_path(claim, "p1"))
    assert r.headers["Cache-Control"] == NO_STORE
    assert cash(claim) == {"p1": 1444, "p2": 1496}
    again = claim.table.client.post(join_path(claim, "p1") + "/claim", data=form)
    assert again.status_code == 303
    assert cash(claim) == {"p1": 1444, "p2": 1496}
    assert [e["text"] for e in claim.history()[-2:]] == [
        "Ann asked Bob for 4 rent on Baltic Avenue.",
        "Bob paid Ann 4 (rent on Baltic Avenue).",
    ]
    after = text_of(page(claim, "p1"))
    assert "Ann Cash 1,444" in after and "Rent to ask for" not in after


def test_a_claim_through_htmx_answers_the_fresh_fragment(claim):
    form = claim_form(page(claim, "p1"))
    r = claim.table.client.post(
        join_path(claim, "p1") + "/claim", data=form, headers={"HX-Request": "true"}
    )
    assert r.status_code == 200
    fragment = r.get_data(as_text=True)
    assert fragment.startswith('<div id="player-view"')
    assert "Ann Cash 1,444" in text_of(fragment)
    assert "Lately Bob paid Ann 4 (rent on Baltic Avenue)." in text_of(fragment)


def test_a_lapsed_claim_gets_the_cores_sentence_and_changes_nothing(claim):
    form = claim_form(page(claim, "p1"))
    claim.do({"type": "roll", "player": "p1", "dice": [2, 3]})  # the claim lapses
    before = claim.now()
    r = claim.table.client.post(join_path(claim, "p1") + "/claim", data=form)
    assert r.status_code == 422
    assert (
        "That rent claim is not open: it was paid or it lapsed when the next player rolled."
        in text_of(r.get_data(as_text=True))
    )
    assert claim.now() == before
    r = claim.table.client.post(
        join_path(claim, "p1") + "/claim", data=form, headers={"HX-Request": "true"}
    )
    assert r.status_code == 200
    assert "That rent claim is not open" in text_of(r.get_data(as_text=True))
    assert claim.now() == before


def test_a_player_cannot_claim_rent_owed_to_another_from_the_page(claim):
    before = claim.now()
    r = claim.table.client.post(
        join_path(claim, "p2") + "/claim", data={"claim": "c1", "key": "k" * 12}
    )
    assert r.status_code == 403
    assert "That rent is owed to another player: only they may ask for it." in text_of(
        r.get_data(as_text=True)
    )
    assert claim.now() == before


def test_a_claim_page_without_a_claim_field_changes_nothing(claim):
    before = claim.now()
    r = claim.table.client.post(join_path(claim, "p1") + "/claim", data={})
    assert r.status_code == 400
    assert claim.now() == before


# -- what a player's token may not do --------------------------------------------------------


BANKER_COMMANDS = [
    {"type": "start", "first": "p2"},
    {"type": "roll", "player": "p1", "dice": [1, 2]},
    {"type": "buy"},
    {"type": "auction"},
    {"type": "bid", "player": "p1", "amount": 10},
    {"type": "close_auction"},
    {"type": "draw_card", "deck": "chance", "card": "go-to-jail"},
    {"type": "rent_roll", "dice": [1, 2]},
    {"type": "pay_jail_fine", "player": "p1"},
    {"type": "use_jail_card", "player": "p1", "deck": "chance"},
    {"type": "build", "property": "baltic-avenue"},
    {"type": "sell_building", "property": "baltic-avenue"},
    {"type": "building_auction", "kind": "house"},
    {"type": "mortgage", "property": "baltic-avenue"},
    {"type": "unmortgage", "property": "baltic-avenue"},
    {
        "type": "trade",
        "from": "p1",
        "to": "p2",
        "give": {"cash": 0, "properties": ["baltic-avenue"], "jail_cards": []},
        "receive": {"cash": 1, "properties": [], "jail_cards": []},
        "unmortgage": [],
    },
    {"type": "pay_debt"},
    {"type": "bankrupt", "player": "p1"},
    {"type": "call_time"},
    {"type": "adjust", "player": "p2", "amount": 500, "reason": "I asked nicely"},
    {"type": "move", "player": "p2", "position": 39},
    {"type": "undo"},
    {"type": "claim_rent", "claim": "c1"},  # Ann's, not Bob's
]


@pytest.mark.parametrize("command", BANKER_COMMANDS, ids=lambda c: c["type"])
def test_a_player_token_cannot_perform_any_banker_command_through_the_api(claim, command):
    before = claim.now()
    r = claim.send(command, token=claim.tokens["p2"])
    assert r.status_code == 403
    assert r.get_json()["error"]["code"] == "banker_only"
    assert claim.now() == before


def test_a_player_token_opens_none_of_the_bankers_pages(panel_app, claim):
    before = claim.now()
    bob = claim.tokens["p2"]
    c = claim.table.client
    assert c.get(f"/games/{claim.id}?token={bob}").status_code == 403
    c.set_cookie(f"banker_{claim.id}", bob)
    assert c.get(f"/games/{claim.id}").status_code == 403
    r = c.post(f"/games/{claim.id}/act", data={"type": "adjust", "player": "p2", "amount": "500"})
    assert r.status_code == 403
    r = c.post(f"/games/{claim.id}/players/p1/new-link", data={"token": bob})
    assert r.status_code == 403
    assert "Only the Banker of this game may give a player a new link." in text_of(r.text)
    assert c.get(f"/games/{claim.id}/version?v=0&token={bob}").status_code == 403
    html = c.get(f"/test-panel/{claim.id}?token={bob}")
    assert html.status_code == 200 and "join-panel" not in html.text
    assert claim.now() == before
    assert claim.tokens["p1"] in page(claim, "p1")  # Ann's link still works


def test_a_player_token_cannot_read_another_game(claim, new_game):
    other = new_game(["Cy", "Di"])
    bob = claim.tokens["p2"]
    for path in ("", "/events"):
        r = claim.table.client.get(f"/api/v1/games/{other.id}{path}", headers=claim.auth(bob))
        assert r.status_code == 403, path
    before = other.now()
    r = claim.table.client.post(
        f"/api/v1/games/{other.id}/commands", json={"type": "undo"}, headers=claim.auth(bob)
    )
    assert r.status_code == 403
    assert claim.table.client.get(f"/games/{other.id}/version?v=0&token={bob}").status_code == 403
    assert other.now() == before
    # A join page shows its own game only, whatever else is there.
    text = text_of(page(claim, "p2"))
    assert claim.id in text and other.id not in text and "Cy" not in text


# -- link hygiene -----------------------------------------------------------------------------


def test_tokens_are_unguessable(new_game):
    g = new_game(["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    tokens = [g.banker_token, *g.tokens.values()]
    assert len(set(tokens)) == 7
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", t) for t in tokens)  # 192 random bits


def test_an_unknown_link_gets_a_clear_404_page(client):
    for path in ("/join/not-a-token", "/join/not-a-token/version?v=1"):
        r = client.get(path)
        assert r.status_code == 404
        assert r.mimetype == "text/html"
        assert r.headers["Cache-Control"] == NO_STORE
        assert "This link is not a player's link in any game here." in text_of(r.text)
    r = client.post("/join/not-a-token/claim", data={"claim": "c1"})
    assert r.status_code == 404


def test_a_new_link_replaces_the_old_one_which_is_refused_everywhere(app, db_path, claim):
    old = claim.tokens["p1"]
    old_path = join_path(claim, "p1")
    form = claim_form(page(claim, "p1"))
    banker_page = f"http://localhost/games/{claim.id}"
    r = claim.table.client.post(
        f"/games/{claim.id}/players/p1/new-link",
        data={"token": claim.banker_token},
        headers={"Referer": banker_page},
    )
    assert (r.status_code, r.headers["Location"]) == (303, banker_page)
    before = claim.now()

    r = claim.table.client.get(old_path)
    assert r.status_code == 403
    assert "This link no longer works: the Banker gave this player a new one." in text_of(r.text)
    r = claim.table.client.get(old_path + "/version?v=1")
    assert (r.status_code, r.headers["HX-Refresh"]) == (403, "true")  # the old phone reloads
    assert claim.table.client.post(old_path + "/claim", data=form).status_code == 403
    assert claim.send({"type": "claim_rent", "claim": "c1"}, token=old).status_code == 403
    api = claim.table.client.get(f"/api/v1/games/{claim.id}", headers=claim.auth(old))
    assert api.status_code == 403
    assert claim.now() == before

    store = app.extensions["banker.store"]
    new = next(p["token"] for p in store.players(claim.id) if p["id"] == "p1")
    assert new != old and store.role(claim.id, new) == "p1"
    assert store.role(claim.id, claim.tokens["p2"]) == "p2"  # Bob's link is untouched
    assert store.database.connection().execute(
        "select player_id, revoked from player_tokens where token = ?", [old]
    ).fetchall() == [("p1", 1)]
    assert "Ask Bob for 4 (Baltic Avenue)" in text_of(claim.table.client.get(f"/join/{new}").text)

    restarted = create_app({"TESTING": True, "DATABASE": str(db_path)})
    try:
        c = restarted.test_client()
        assert c.get(old_path).status_code == 403
        assert c.get(f"/join/{new}").status_code == 200
    finally:
        restarted.extensions["banker.store"].close()


def test_a_new_link_through_htmx_answers_the_join_panel_with_the_new_link(app, claim):
    r = claim.table.client.post(
        f"/games/{claim.id}/players/p2/new-link",
        data={"token": claim.banker_token},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200
    new = app.extensions["banker.store"].players(claim.id)[1]["token"]
    assert new != claim.tokens["p2"]
    assert r.text.startswith('<section id="join-panel"')
    assert f"http://localhost/join/{new}" in r.text
    assert claim.tokens["p2"] not in r.text


def test_a_new_link_for_no_such_player_or_game_is_refused(claim):
    r = claim.table.client.post(
        f"/games/{claim.id}/players/p9/new-link", data={"token": claim.banker_token}
    )
    assert r.status_code == 404
    assert "There is no player 'p9'" in text_of(r.text)
    r = claim.table.client.post("/games/nosuchgame/players/p1/new-link", data={"token": "x"})
    assert r.status_code == 404


def test_the_store_refuses_to_rotate_the_token_of_an_unknown_player(store):
    game_id = store.create_game("g0009", ["Ann", "Bob"], None)["game_id"]
    before = (
        store.database.connection().execute("select * from player_tokens order by token").fetchall()
    )
    with pytest.raises(PlayerNotFound):
        store.rotate_player_token(game_id, "p3")
    assert (
        store.database.connection().execute("select * from player_tokens order by token").fetchall()
        == before
    )


# -- the Join panel ----------------------------------------------------------------------------


@pytest.fixture
def panel_app(app):
    """The app with a bare page that includes the Join panel, as the Banker's table does."""

    @app.get("/test-panel/<game_id>")
    def test_panel(game_id):
        return render_template_string(PANEL, game_id=game_id)

    return app


def test_the_join_panel_has_a_qr_code_of_each_players_link(panel_app, new_game):
    g = new_game(["Ann", "Bob", "Cy"])
    r = g.table.client.get(f"/test-panel/{g.id}?token={g.banker_token}")
    html = r.text
    # Each code is an image the browser fetches when the panel opens.
    codes = re.findall(r'<img class="qr" src="([^"]+)"', html)
    svgs = [g.table.client.get(src.replace("&amp;", "&")).text for src in codes]
    links = re.findall(r'class="join-link" href="([^"]+)"', html)
    expected = [p["join_url"] for p in g.created["players"]]
    assert links == expected
    assert [decode_qr_svg(svg) for svg in svgs] == expected
    assert "Ann" in text_of(html) and "New link for Cy" in text_of(html)
    assert 'id="qr-path"' not in html  # no repeated element ids on one page


def test_the_join_panel_shows_nothing_without_the_banker_token(panel_app, new_game):
    g = new_game(["Ann", "Bob"])
    for query in ("", f"?token={g.tokens['p1']}", "?token=wrong"):
        html = g.table.client.get(f"/test-panel/{g.id}{query}").text
        assert "join-panel" not in html and "/join/" not in html
    assert (
        "join-panel"
        not in g.table.client.get(f"/test-panel/nosuchgame?token={g.banker_token}").text
    )


def test_with_the_bankers_cookie_the_panel_keeps_the_token_out_of_the_page(panel_app, new_game):
    g = new_game(["Ann", "Bob"])
    g.table.client.set_cookie(f"banker_{g.id}", g.banker_token)
    html = g.table.client.get(f"/test-panel/{g.id}").text
    assert 'id="join-panel"' in html and g.banker_token not in html
    r = g.table.client.post(f"/games/{g.id}/players/p2/new-link")  # the cookie is enough
    assert (r.status_code, r.headers["Location"]) == (303, f"/games/{g.id}")
    assert g.table.client.get(join_path(g, "p2")).status_code == 403
    with_token = g.table.client.get(f"/test-panel/{g.id}?token={g.banker_token}").text
    assert g.banker_token not in with_token  # the cookie came along: not needed in the forms


# -- links other phones can open ---------------------------------------------------------------


def test_links_are_built_on_the_public_url_when_set(db_path):
    app = create_app(
        {"TESTING": True, "DATABASE": str(db_path), "PUBLIC_URL": "https://bank.example/table"}
    )
    try:
        c = app.test_client()
        created = c.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
        assert created["banker_url"] == (
            f"https://bank.example/table/games/{created['game_id']}?token={created['banker_token']}"
        )
        for p in created["players"]:
            assert p["join_url"] == f"https://bank.example/table/join/{p['token']}"
        with app.test_request_context(f"/?token={created['banker_token']}"):
            html = render_template_string(PANEL, game_id=created["game_id"])
        assert f"https://bank.example/table/join/{created['players'][0]['token']}" in html
    finally:
        app.extensions["banker.store"].close()


def test_a_banker_browsing_on_localhost_gets_links_at_the_lan_address(db_path):
    app = create_app(
        {"TESTING": True, "DATABASE": str(db_path), "LAN_URL": "http://192.168.1.20:8000"}
    )
    try:
        c = app.test_client()
        local = c.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
        assert local["players"][0]["join_url"].startswith("http://192.168.1.20:8000/join/")
        by_lan = c.post(
            "/api/v1/games", json={"players": ["Ann", "Bob"]}, base_url="http://banker.lan:8000"
        ).get_json()
        assert by_lan["players"][0]["join_url"].startswith("http://banker.lan:8000/join/")
    finally:
        app.extensions["banker.store"].close()


# -- the Banker's version poll -----------------------------------------------------------------


def test_the_bankers_version_poll_answers_204_or_the_version(started):
    c, g = started.table.client, started
    assert c.get(f"/games/{g.id}/version?v=1&token={g.banker_token}").status_code == 204
    r = c.get(f"/games/{g.id}/version?v=0", headers=g.auth())
    assert (r.status_code, r.get_json()) == (200, {"version": 1})
    assert r.headers["Cache-Control"] == NO_STORE
    assert c.get(f"/games/{g.id}/version?v=1").status_code == 403
    assert c.get(f"/games/nosuchgame/version?v=1&token={g.banker_token}").status_code == 404
