"""Only what changed travels (issue 35): between two versions of a game, each audience's pushed
view is sent as the parts of it that changed (banker/net/parts.py), and a page that swaps those
parts into the view it had holds exactly the new view (static/refresh.js does on the document
what `parts.apply` does on strings: the tests hold the one to the other in the browser)."""

from __future__ import annotations

import random
import re

import pytest
from werkzeug.test import EnvironBuilder

from banker.net import parts
from banker.net.push import Page
from banker.web.common import pushed
from tests.plays import accepted_changes

OOB = ' hx-swap-oob="true"'


def _audiences(client, store, options=None):
    """A started game of four and its six pages' push requests (as banker.net.push asks)."""
    made = client.post(
        "/api/v1/games", json={"players": ["Ann", "Bob", "Cat", "Dan"], **(options or {})}
    ).get_json()
    gid, token = made["game_id"], made["banker_token"]
    store.execute(gid, {"type": "start", "first": "p1"})

    def environ(path, cookie=None):
        headers = {"Host": "localhost", **({"Cookie": cookie} if cookie else {})}
        return EnvironBuilder(path=path, headers=headers).get_environ()

    display = made["display_url"].rsplit("/", 1)[1]
    pages = [("games", gid, "table", environ(f"/games/{gid}/events", f"banker_{gid}={token}"))]
    pages += [("join", p["token"], "view", environ(f"/join/{p['token']}/events"))
              for p in made["players"]]  # fmt: skip
    pages.append(("display", display, "screen", environ(f"/display/{display}/events")))
    return gid, pages


def _views(app, pages, version):
    return [
        pushed.render(app, Page(kind, key, view, version - 1, False, environ))
        for kind, key, view, environ in pages
    ]


def _same(held: str, view: str, version: int) -> bool:
    """The page holds the view: the same text, forms' fresh keys aside (the page keeps the
    keys it has, none of them sent), out-of-band marks aside (htmx takes them off)."""
    return _bare(held, version) == _bare(view, version) and _keys_masked_only(held, view)


def _bare(html: str, version: int) -> str:
    return re.sub(r' hx-swap-oob="[^"]*"', "", parts.masked(html, version)).strip()


def _keys_masked_only(held: str, view: str) -> bool:
    # what masking hides beyond the version is forms' keys: the same number of them
    key = re.compile(r'name="key" value="[^"]*"')
    return len(key.findall(held)) == len(key.findall(view))


@pytest.mark.parametrize("options", [None, {"options": {"private_cash": True}}])
def test_the_parts_that_changed_swapped_into_the_view_a_page_had_make_the_new_view(
    app, client, store, options
):
    gid, pages = _audiences(client, store, options)
    before = None
    sent = whole = 0
    for _ in accepted_changes(store, gid, random.Random(35), 120):
        version = store.version(gid)
        views = _views(app, pages, version)
        assert all(views), "every audience's view is rendered"
        if before is not None:
            was, old_views = before
            for old, new in zip(old_views, views, strict=True):
                found = parts.changed(parts.Drawn(old, was), parts.Drawn(new, version))
                # read by walking the view before it: the same parts, the same changes
                before_it = parts.Drawn(old, was)
                walked = parts.Drawn(new, version, after=before_it)
                assert walked.tree == parts.Drawn(new, version).tree
                assert parts.changed(before_it, walked) == found
                if found is None:  # the view's own text changed: the page swaps it whole
                    whole += 1
                    continue
                sent += 1
                assert all(' id="' in p for p in re.findall(r"<[a-z][^>]*hx-swap-oob[^>]*>", found))
                assert _same(parts.apply(old, found, was, version), new, version)
                assert len(found) <= len(new) + len(OOB)
        before = (version, views)
    # Most changes travel as parts on every page; a whole view only when its frame changed.
    assert sent > 4 * whole, (sent, whole)


def _sent_ids(app, client, store, command: dict) -> list[list[str]]:
    """The ids of the parts each of the six audiences is sent for `command` (the Banker, Ann,
    Bob, Cat, Dan, the big screen), in a started game whose players' pages follow it; each
    audience's parts swapped into its view make its new view."""
    gid, pages = _audiences(client, store)
    store.execute(gid, {"type": "adjust", "player": "p1", "amount": 1, "reason": "set up"})
    was = store.version(gid)
    _views(app, pages, was)  # the players' pages follow the game from now on
    old = _views(app, pages, was)
    store.execute(gid, command)
    now = store.version(gid)
    ids = []
    for a, b in zip(old, _views(app, pages, now), strict=True):
        found = parts.changed(parts.Drawn(a, was), parts.Drawn(b, now))
        assert found is not None
        ids.append(re.findall(r'<\w+ hx-swap-oob="true"[^>]*? id="([^"]+)"', found))
        assert _same(parts.apply(a, found, was, now), b, now)
    return ids


def test_a_change_of_one_players_cash_sends_only_the_figures_that_show_it(app, client, store):
    prize = {"type": "adjust", "player": "p1", "amount": 123, "reason": "a prize"}
    ids = _sent_ids(app, client, store, prize)
    banker, ann, bob, cat, dan, display = ids
    # The figure itself, not the line that holds it (a line carries a link htmx must set up
    # again, and more to lay out): Ann's cash in the Banker's list of players...
    assert banker == ["strip-cash-p1"]
    assert ann[:2] == ["my-cash", "my-net-worth"] and "other-cash-p1" not in ann
    assert bob[0] == cat[0] == dan[0] == "other-cash-p1"  # ...in the others' pages...
    # the chart: Ann's line and the table's rows, not the whole chart
    assert {"lately", "version", "player-worth-p1", "player-worth-rows"} <= set(ann) & set(bob)
    assert "player-worth" not in set(ann) | set(bob)
    assert display == ["newest", "events", "person-cash-p1"]  # ...and on the big screen


def test_a_token_put_where_it_stands_sends_its_place_not_the_players_line(app, client, store):
    moved = {"type": "move", "player": "p2", "position": 5, "reason": "knocked"}
    ids = _sent_ids(app, client, store, moved)
    banker, ann, bob, cat, dan, display = ids
    assert "strip-where-p2" in banker and "strip-p2" not in banker
    for seen in (ann, cat, dan):
        assert "other-at-p2" in seen and "other-p2" not in seen
    assert "other-at-p2" not in bob  # Bob's own page says where he is in his own words
    assert "person-where-p2" in display and "person-p2" not in display


def test_a_part_whose_own_text_changed_is_sent_whole_and_a_view_whose_frame_did_whole():
    old = '<div id="v" data-version="4"><p id="a">1</p><p id="b">2</p></div>'
    new = '<div id="v" data-version="5"><p id="a">1</p></div>'  # a part went
    assert parts.changed(parts.Drawn(old, 4), parts.Drawn(new, 5)) == (
        '<div hx-swap-oob="true" id="v" data-version="5"><p id="a">1</p></div>'
    )
    framed = '<div id="v" data-version="5" class="over"><p id="a">1</p><p id="b">2</p></div>'
    assert parts.changed(parts.Drawn(old, 4), parts.Drawn(framed, 5)).startswith(
        '<div hx-swap-oob="true" id="v" data-version="5" class="over">'
    )
    # the view's own frame (what lies between its elements) changed: the page swaps it whole
    said = old + '<p id="said" hx-swap-oob="true">Bought.</p>'
    assert parts.changed(parts.Drawn(old, 4), parts.Drawn(said, 5)) is None


def test_what_changes_with_every_version_is_not_a_change_the_page_is_sent():
    old = (
        '<div id="v" data-version="9" hx-get="/join/t/version?v=9"><p id="a">1</p>'
        '<form><input type="hidden" name="key" value="abc"><input name="seen" value="9" '
        'type="hidden"></form></div>'
    )
    new = old.replace('"9"', '"10"').replace("v=9", "v=10").replace('"abc"', '"xyz"')
    new = new.replace('name="seen" value="9"', 'name="seen" value="10"')
    assert parts.changed(parts.Drawn(old, 9), parts.Drawn(new, 10)) == ""
    moved = new.replace('<p id="a">1</p>', '<p id="a">2</p>')
    assert parts.changed(parts.Drawn(old, 9), parts.Drawn(moved, 10)) == (
        '<p hx-swap-oob="true" id="a">2</p>'
    )
    # a figure equal to the version elsewhere is a change like any other
    figure = old.replace('<p id="a">1</p>', '<p id="a">9</p>')
    again = new.replace('<p id="a">1</p>', '<p id="a">10</p>')
    assert parts.changed(parts.Drawn(figure, 9), parts.Drawn(again, 10)) == (
        '<p hx-swap-oob="true" id="a">10</p>'
    )


def test_tags_that_do_not_nest_send_the_view_whole():
    old = '<div id="v"><p id="a">1</p></div>'
    broken = '<div id="v"><p id="a">2</div></p>'
    assert parts.changed(parts.Drawn(old, 1), parts.Drawn(broken, 2)) is None


@pytest.mark.parametrize(
    "old, new",
    [
        ('<div id="v"><p id="a">1</p><p id="b">2</p></div>', '<div id="v"><p id="a">1</p></div>'),
        ('<div id="v"><p id="a">1</p></div>', '<div id="v"><p id="b">1</p></div>'),
        ('<div id="v"><p id="a">1</p></div>', '<div id="v"><p id="a">1</p><p id="b">2</p></div>'),
        ('<div id="v"><p id="a">1</p></div>', '<div id="v" class="x"><p id="a">1</p></div>'),
        ('<div id="v"><p id="a">1</p></div>', '<div id="v"><p id="a">2</p></div>x'),
        ('<div id="v"><p id="a">1</p></div>', '<div id="v"><p id="a">2</div></p>'),
        ('<div id="v"><p id="a">1</p></div>', '<div id="v"><p id="a"><b id="c">2</b></p></div>'),
        (
            '<div id="v"><ul id="l"><li id="i1">a</li><li id="i2">b</li></ul><p id="n">3</p></div>',
            '<div id="v"><ul id="l"><li id="i1">a</li><li id="i2">c</li></ul><p id="n">4</p></div>',
        ),
        (
            '<div id="v"><div id="w"><div><div id="x">1</div></div></div></div>',
            '<div id="v"><div id="w"><div><div id="x">2</div></div></div></div>',
        ),
        ('<div id="v"><p id="a">1</p></div><p id="s">x</p>', '<div id="v"><p id="a">2</p></div>'),
        (
            '<div id="v"><input id="t"><p id="a">1</p></div>',
            '<div id="v"><input id="t"><p id="a">22</p></div>',
        ),
    ],
)
def test_parts_found_by_walking_the_view_before_are_the_parts_read_afresh(old, new):
    """parts.Drawn(..., after=): walking the view before (the text between its parts compared
    as strings, only a changed part read tag by tag) finds the very parts and changes that
    reading every tag of the new view does, whatever came, went or did not nest."""
    before = parts.Drawn(old, 1)
    walked = parts.Drawn(new, 2, after=before)
    afresh = parts.Drawn(new, 2)
    assert walked.tree == afresh.tree
    assert parts.changed(before, walked) == parts.changed(parts.Drawn(old, 1), afresh)


def test_a_pushed_view_is_the_very_answer_of_the_pages_own_poll(app, client, store):
    """pushed.render goes through Flask's request but not its response layers: what it gives
    is the body the page's own poll is answered (each asked one after the other: a player's
    poll marks the phone as following, which the Banker's table shows)."""
    gid, pages = _audiences(client, store)
    store.execute(gid, {"type": "adjust", "player": "p2", "amount": 40, "reason": "test"})
    version = store.version(gid)
    for kind, key, view, environ in pages:
        page = Page(kind, key, view, version - 1, False, environ)
        html = pushed.render(app, page)
        path, query = pushed.request_of(page)
        cookie = environ.get("HTTP_COOKIE")
        if cookie:  # the Banker's pages' cookie (the test client sends its own jar's only)
            client.set_cookie(*cookie.split("=", 1))
        polled = client.get(f"{path}?{query}", headers={"HX-Request": "true"})
        assert polled.status_code == 200
        assert html is not None
        assert _same(html, polled.get_data(as_text=True), version), kind


def test_a_pushed_view_behind_a_public_url_links_to_that_url(tmp_path):
    """--public-url with a path: the pushed view's links are under it, as the poll's are."""
    from banker.web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.db"),
                      "PUBLIC_URL": "https://example.org/banker"})  # fmt: skip
    try:
        client = app.test_client()
        gid, pages = _audiences(client, app.extensions["banker.store"])
        kind, key, view, environ = pages[1]  # a player's page
        html = pushed.render(app, Page(kind, key, view, 0, False, environ))
        assert f'hx-get="/banker/join/{key}/version?v=' in html
        assert f'href="/banker/join/{key}"' in html
    finally:
        app.extensions["banker.store"].close()


def test_a_pushed_view_that_cannot_be_drawn_is_none_and_only_a_fault_is_logged(
    app, client, store, caplog
):
    """A page whose link no longer works (a replaced token) is told nothing to swap (it then
    asks, and is answered the refusal): nothing logged. A fault in a view is logged as Flask
    logs a request's, and the page asks too."""
    gid, pages = _audiences(client, store)
    kind, key, view, environ = pages[1]
    unknown = Page(kind, "no-such-token-at-all-000000000000", view, 0, False, environ)
    with caplog.at_level("ERROR"):
        assert pushed.render(app, unknown) is None
    assert not caplog.records
    broken = Page("display", pages[-1][1], "screen", 0, False, pages[-1][3])
    from banker.web.display import screen

    def fault(*args, **kwargs):
        raise RuntimeError("a fault in the view")

    original = screen.render_template
    screen.render_template = fault
    try:
        with caplog.at_level("ERROR"):
            assert pushed.render(app, broken) is None
    finally:
        screen.render_template = original
    assert [r.getMessage().partition("\n")[0] for r in caplog.records] == [
        "Exception on /display/…/version [GET]"
    ]
    assert "RuntimeError: a fault in the view" in caplog.text


# -- the money first (the `figures` event, sent before the views are rendered) ------------------

CASH_ELEMENT = re.compile(r'id="((?:my|strip|other|person)-cash(?:-p\d+)?)"[^>]*>([^<]*)<')


@pytest.mark.parametrize("options", [None, {"options": {"private_cash": True}}])
def test_the_money_sent_first_is_what_each_pages_view_shows_and_only_what_its_seat_may_see(
    app, client, store, options
):
    """pushed.figures gives each audience exactly the cash elements its view has, with their
    text: every one of them and no other (under private_cash, a player's page only its own
    figure, the big screen none), through a played game."""
    gid, pages = _audiences(client, store, options)
    seats = [store.player_by_token(key)[1] if kind == "join" else None
             for kind, key, _, _ in pages]  # fmt: skip
    ids: list[set] = [set() for _ in pages]
    for _ in accepted_changes(store, gid, random.Random(7), 60):
        state = store.state(gid)
        for i, ((kind, *_), seat, view) in enumerate(zip(
                pages, seats, _views(app, pages, store.version(gid)), strict=True)):  # fmt: skip
            shown = dict(CASH_ELEMENT.findall(view))
            assert pushed.figures(state, kind, seat) == shown, (kind, seat)
            ids[i] |= set(shown)
    players = ("p1", "p2", "p3", "p4")
    assert ids[0] == {f"strip-cash-{p}" for p in players}  # the Banker sees everyone's
    for seat, seen in zip(players, ids[1:5], strict=True):
        others = set() if options else {f"other-cash-{p}" for p in players if p != seat}
        assert seen == {"my-cash"} | others
    assert ids[5] == (set() if options else {f"person-cash-{p}" for p in players})


def test_the_money_first_is_only_what_changed_and_all_of_it_when_a_page_may_show_otherwise():
    """banker.net.figures: a seat is sent the figures that changed since the last sent to it;
    all of them again once what its pages show is no longer known (a tap's answer swapped in,
    a page opened, a change sent without them), and none to a page already at the version."""
    from banker.net.figures import Figures
    from banker.net.streams import Stream

    def stream(player, version=1):
        s = Stream("g", player, "t", version)
        s.kind, s.view = ("join", "view") if player else ("games", "table")
        return s

    def state(version, ann, bob):
        players = [{"id": "p1", "cash": ann}, {"id": "p2", "cash": bob}]
        return {"version": version, "players": players}

    shown = {"games": lambda s: {f"strip-cash-{p['id']}": str(p["cash"]) for p in s["players"]},
             "join": lambda s: {"my-cash": str(s["players"][1]["cash"])}}  # fmt: skip
    figures = Figures(lambda s, kind, player: shown[kind](s))
    banker, bob = stream(None), stream("p2")

    def told(version, ann, bob_cash, *streams):
        for s in streams:
            s.outbox.clear()
        figures.tell("g", state(version, ann, bob_cash), streams)
        return [s.outbox for s in streams]

    assert told(2, 1500, 1500, banker, bob) == [
        ["event: figures\ndata: 2\ndata: strip-cash-p1 1500\ndata: strip-cash-p2 1500\n\n"],
        ["event: figures\ndata: 2\ndata: my-cash 1500\n\n"],
    ]
    assert told(3, 1600, 1500, banker, bob) == [
        ["event: figures\ndata: 3\ndata: strip-cash-p1 1600\n\n"], []]  # fmt: skip
    bob.taps = 1  # Bob's tap is being answered: his page shows its answer
    assert told(4, 1600, 1400, banker, bob) == [
        ["event: figures\ndata: 4\ndata: strip-cash-p2 1400\n\n"], []]  # fmt: skip
    bob.taps = 0
    assert told(5, 1600, 1400, banker, bob) == [
        [], ["event: figures\ndata: 5\ndata: my-cash 1400\n\n"]]  # fmt: skip
    figures.drop("g")  # a page opened: every figure of every seat next time
    all_of_them = "data: strip-cash-p1 1600\ndata: strip-cash-p2 1400\n"
    assert told(6, 1600, 1400, banker, bob)[0] == [f"event: figures\ndata: 6\n{all_of_them}\n"]
    bob.version = 7  # a page already at the version is sent nothing
    assert told(7, 1700, 1400, bob) == [[]]
