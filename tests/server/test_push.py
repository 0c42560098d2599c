"""Push through a real `banker serve` (issue 25): every live page's Server-Sent Events stream
says the moment its game changes, resumes from the version the page has, and tells the
Banker's table when a phone starts following. Read here as raw HTTP, as a browser receives it."""

from __future__ import annotations

import json
import socket
import time

import pytest

from tests.serving import call, in_process, serving

pytestmark = pytest.mark.slow


class Stream:
    """One push stream read off a socket: its status line and headers, then its events."""

    def __init__(self, url: str, path: str, headers: dict | None = None):
        port = int(url.rsplit(":", 1)[1])
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        lines = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n{lines}\r\n".encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(4096)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status = int(head.split()[1])
        self.headers = {
            k.strip().lower(): v.strip()
            for k, _, v in (line.partition(":") for line in head.decode().split("\r\n")[1:])
        }
        length = int(self.headers.get("content-length", "0"))
        while len(self.buffer) < length:  # a refusal's whole body
            self.buffer += self.sock.recv(4096)

    def events(self, wait: float = 2.0) -> list[dict]:
        """The events that arrive within `wait` seconds (fields as a dict; comments as ":")."""
        deadline = time.monotonic() + wait
        self.sock.settimeout(0.05)
        while time.monotonic() < deadline:
            try:
                chunk = self.sock.recv(4096)
            except TimeoutError:
                continue
            if not chunk:
                break
            self.buffer += chunk
        text = self.buffer.decode()
        self.buffer = b""
        out = []
        for block in text.replace("\r\n", "\n").split("\n\n"):
            fields = {}
            for line in block.split("\n"):
                # chunked encoding's size lines are hex only: skip them
                if not line or all(c in "0123456789abcdef" for c in line):
                    continue
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "data" and "data" in fields:  # a message of several lines
                    value = fields["data"] + "\n" + value
                fields[name or ":"] = value
            if fields:
                out.append(fields)
        return out

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def server(tmp_path):
    with serving(tmp_path / "banker.db", env={"BANKER_HEARTBEAT_SECONDS": "1"}) as running:
        yield running


@pytest.fixture
def stream(server):
    """stream(path, headers) -> a Stream on the server, closed after the test."""
    opened = []

    def open_(path: str, headers: dict | None = None) -> Stream:
        opened.append(Stream(server.url, path, headers))
        return opened[-1]

    yield open_
    for s in opened:
        s.close()


def new_game(url: str) -> dict:
    status, _, created = call(f"{url}/api/v1/games", "POST", {"players": ["Ann", "Bob"]})
    assert status == 201
    return created


def command(url: str, created: dict, body: dict) -> int:
    status, _, answer = call(
        f"{url}/api/v1/games/{created['game_id']}/commands", "POST", body, created["banker_token"]
    )
    assert status == 200, answer
    return answer["version"]


def test_a_players_stream_says_each_new_version_the_moment_it_is_committed(server, stream):
    g = new_game(server.url)
    stream = stream(f"/join/{g['players'][0]['token']}/events?v=0")
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.headers["x-accel-buffering"] == "no"
    assert stream.headers["cache-control"] == "no-store"
    assert "default-src 'self'" in stream.headers["content-security-policy"]
    first = stream.events(0.5)
    assert first == [{"retry": "1000", "event": "ready", "data": "0"}]
    t0 = time.monotonic()
    v = command(server.url, g, {"type": "start", "first": "p1"})
    got = stream.events(0.5)
    assert {"id": str(v), "data": str(v)} in got
    assert time.monotonic() - t0 < 1.5


def test_a_stream_opened_behind_the_game_catches_up_at_once(server, stream):
    """Last-Event-ID (the browser's reconnect) or ?v= (a page's new stream): the page's
    version; a newer game version is said at once, with the ready event."""
    g = new_game(server.url)
    for body in ({"type": "start", "first": "p1"},
                 {"type": "adjust", "player": "p1", "amount": 5, "reason": "x"}):  # fmt: skip
        v = command(server.url, g, body)
    token = g["players"][1]["token"]
    behind = stream(f"/join/{token}/events?v=0", {"Last-Event-ID": "1"})
    assert behind.events(0.5) == [
        {"retry": "1000", "event": "ready", "data": str(v)},
        {"id": str(v), "data": str(v)},
    ]
    current = stream(f"/join/{token}/events?v={v}")
    assert current.events(0.5) == [{"retry": "1000", "event": "ready", "data": str(v)}]
    # Nothing happens: a comment now and then keeps proxies from closing the stream.
    assert {":": ""} in current.events(1.5)


def test_the_bankers_stream_needs_the_games_cookie_and_hears_phones_follow(server, stream):
    g = new_game(server.url)
    gid = g["game_id"]
    assert stream(f"/games/{gid}/events").status == 403
    refused = stream(f"/games/{gid}/events", {"Cookie": f"banker_{gid}=nope"})
    assert refused.status == 403
    assert json.loads(refused.buffer)["error"]["code"] == "link_not_allowed"
    assert stream("/join/not-a-token/events").status == 403
    cookie = {"Cookie": f"banker_{gid}={g['banker_token']}"}
    banker = stream(f"/games/{gid}/events", cookie)
    assert banker.status == 200
    banker.events(0.3)
    stream(f"/join/{g['players'][0]['token']}/events")  # a phone starts following
    assert {"event": "following", "data": ""} in banker.events(0.5)


def test_a_replaced_link_is_told_gone_and_refused_after(server, stream):
    g = new_game(server.url)
    old = g["players"][0]["token"]
    page = stream(f"/join/{old}/events")
    page.events(0.3)
    status, _, _ = call(f"{server.url}/api/v1/games/{g['game_id']}/tokens", "POST",
                        {"for": "p1"}, g["banker_token"])  # fmt: skip
    assert status == 201
    assert {"event": "gone", "data": ""} in page.events(0.5)
    assert stream(f"/join/{old}/events").status == 403


# -- the change itself in the stream (issue 35) ------------------------------------------------


def views(events: list[dict]) -> list[dict]:
    """The pushed views among a stream's events (`swap` and `follow`)."""
    return [e for e in events if e.get("event") in ("swap", "follow")]


def banker_cookie(g: dict) -> dict:
    return {"Cookie": f"banker_{g['game_id']}={g['banker_token']}"}


def display_path(g: dict, view: str = "screen") -> str:
    return "/display/" + g["display_url"].rsplit("/", 1)[1] + f"/events?v=1&as={view}"


def test_each_page_is_sent_its_own_view_of_the_change_and_asks_for_nothing(server, stream):
    g = new_game(server.url)
    command(server.url, g, {"type": "start", "first": "p1"})
    ann = stream(f"/join/{g['players'][0]['token']}/events?v=1&as=view")
    bob = stream(f"/join/{g['players'][1]['token']}/events?v=1&as=view")
    banker = stream(f"/games/{g['game_id']}/events?v=1&as=table", banker_cookie(g))
    screen = stream(display_path(g))
    story = stream(f"/join/{g['players'][0]['token']}/events?v=1")  # a page showing no view
    for s in (ann, bob, banker, screen, story):
        s.events(0.3)
    v = command(server.url, g, {"type": "adjust", "player": "p1", "amount": 123, "reason": "x"})
    pages = {"ann": ann, "bob": bob, "banker": banker, "screen": screen, "story": story}
    got = {name: s.events(1.0) for name, s in pages.items()}
    for name in ("ann", "bob", "banker", "screen"):
        (view,) = views(got[name])
        assert view["id"] == str(v) and view["event"] == "swap"
        assert "1,623" in view["data"]
    assert views(got["ann"])[0]["data"].startswith('<div id="player-view"')
    assert f'data-version="{v}"' in views(got["ann"])[0]["data"]
    assert '<strong id="my-cash">1,623</strong>' in views(got["ann"])[0]["data"]
    assert '<strong id="my-cash">1,500</strong>' in views(got["bob"])[0]["data"]
    assert '<div id="screen"' in views(got["banker"])[0]["data"]
    assert "took" in views(got["banker"])[0]["data"] or "gave" in views(got["banker"])[0]["data"]
    assert views(got["screen"])[0]["data"].startswith('<div id="display"')
    # A page showing no view is told the version, and reads its page itself.
    assert [e for e in got["story"] if ":" not in e] == [{"id": str(v), "data": str(v)}]


def figures(events: list[dict]) -> list[str]:
    """The `figures` events' data among a stream's events."""
    return [e["data"] for e in events if e.get("event") == "figures"]


def test_the_money_of_a_change_reaches_every_page_first_then_only_what_changed(server, stream):
    """Before any view is rendered, each page with a view is sent the cash it shows (the
    version, then each element's id and text), the first time all of it, then only what
    changed; a change of no money sends none; a page showing no view, nothing."""
    g = new_game(server.url)
    command(server.url, g, {"type": "start", "first": "p1"})
    pages = {
        "ann": stream(f"/join/{g['players'][0]['token']}/events?v=1&as=view"),
        "bob": stream(f"/join/{g['players'][1]['token']}/events?v=1&as=view"),
        "banker": stream(f"/games/{g['game_id']}/events?v=1&as=table", banker_cookie(g)),
        "screen": stream(display_path(g)),
        "story": stream(f"/join/{g['players'][0]['token']}/events?v=1"),
    }
    for s in pages.values():
        s.events(0.3)
    v = command(server.url, g, {"type": "adjust", "player": "p1", "amount": 123, "reason": "x"})
    got = {name: s.events(1.0) for name, s in pages.items()}
    assert {name: figures(events) for name, events in got.items()} == {
        "ann": [f"{v}\nmy-cash 1,623\nother-cash-p2 1,500"],
        "bob": [f"{v}\nother-cash-p1 1,623\nmy-cash 1,500"],
        "banker": [f"{v}\nstrip-cash-p1 1,623\nstrip-cash-p2 1,500"],
        "screen": [f"{v}\nperson-cash-p1 1,623\nperson-cash-p2 1,500"],
        "story": [],
    }
    for name in ("ann", "bob", "banker", "screen"):  # the money first, then the view
        kinds = [e.get("event") for e in got[name] if ":" not in e]
        assert kinds == ["figures", "swap"], (name, kinds)
    v = command(server.url, g, {"type": "adjust", "player": "p2", "amount": 7, "reason": "x"})
    got = {name: figures(s.events(1.0)) for name, s in pages.items()}
    assert got == {"ann": [f"{v}\nother-cash-p2 1,507"], "bob": [f"{v}\nmy-cash 1,507"],
                   "banker": [f"{v}\nstrip-cash-p2 1,507"],
                   "screen": [f"{v}\nperson-cash-p2 1,507"], "story": []}  # fmt: skip
    command(server.url, g, {"type": "move", "player": "p2", "position": 5, "reason": "x"})
    assert all(figures(s.events(1.0)) == [] for s in pages.values())  # no money moved


def test_every_seats_stream_carries_no_other_players_cash_with_private_cash(server, stream):
    asked = {"players": ["Ann", "Bob", "Cat"], "options": {"private_cash": True}}
    status, _, g = call(f"{server.url}/api/v1/games", "POST", asked)
    assert status == 201
    command(server.url, g, {"type": "start", "first": "p1"})
    seats = {p["id"]: stream(f"/join/{p['token']}/events?v=1&as=view") for p in g["players"]}
    screen = stream(display_path(g))
    for s in (*seats.values(), screen):
        s.events(0.3)
    cash = {"p1": "1,637", "p2": "2,911", "p3": "3,493"}  # no one else's figure looks like these
    said = {pid: [] for pid in seats} | {"display": []}
    for pid, amount in (("p1", 137), ("p2", 1411), ("p3", 1993)):
        command(server.url, g, {"type": "adjust", "player": pid, "amount": amount, "reason": "x"})
        for who, s in (*seats.items(), ("display", screen)):
            said[who] += [e.get("data", "") for e in s.events(0.6)]
    for pid in (*seats, "display"):
        text = "\n".join(said[pid])
        for other, figure in cash.items():
            if other == pid:
                assert figure in text  # its own, in its own view
            else:
                assert figure not in text, f"{pid}'s stream carries {other}'s cash"


def test_a_stream_that_comes_back_behind_is_sent_its_view_at_once(server, stream):
    g = new_game(server.url)
    command(server.url, g, {"type": "start", "first": "p1"})
    v = command(server.url, g, {"type": "adjust", "player": "p2", "amount": 41, "reason": "x"})
    token = g["players"][1]["token"]
    back = stream(f"/join/{token}/events?v=0&as=view", {"Last-Event-ID": "1"})  # the browser's
    first = back.events(1.0)
    ready = {**first[0], "data": first[0]["data"].split("\n")[0]}  # then the stream's name
    assert ready == {"retry": "1000", "event": "ready", "data": str(v)}
    (view,) = views(first)
    assert view["id"] == str(v) and '<strong id="my-cash">1,541</strong>' in view["data"]
    current = stream(f"/join/{token}/events?v={v}&as=view")
    assert views(current.events(0.5)) == []  # up to date: nothing to send


def test_the_bankers_stream_is_sent_the_screen_the_banker_is_on(server, stream):
    g = new_game(server.url)
    command(server.url, g, {"type": "start", "first": "p1"})
    cookie = banker_cookie(g)
    sheet = stream(f"/games/{g['game_id']}/events?v=1&as=player:p2", cookie)
    history = stream(f"/games/{g['game_id']}/events?v=1&as=history", cookie)
    table = stream(f"/games/{g['game_id']}/events?v=1&as=table", cookie)
    for s in (sheet, history, table):
        s.events(0.3)
    command(server.url, g, {"type": "adjust", "player": "p2", "amount": 9, "reason": "paid twice"})
    (on_sheet,) = views(sheet.events(1.0))
    assert 'id="screen"' in on_sheet["data"] and "1,509" in on_sheet["data"]
    assert 'data-as="player:p2"' in on_sheet["data"]
    (on_history,) = views(history.events(0.5))
    assert 'data-as="history"' in on_history["data"] and "paid twice" in on_history["data"]
    views(table.events(0.5))
    stream(f"/join/{g['players'][0]['token']}/events")  # Ann's phone starts following
    (follow,) = views(table.events(1.0))  # the table shows it, drawn again at its version
    assert follow["event"] == "follow" and 'class="phone-on"' in follow["data"]
    assert views(sheet.events(0.3)) == []  # the other screens do not show it


def tap(server, g: dict, name: str, amount: int) -> int:
    """The Banker's page taps (an htmx form of its table: a correction of Bob's cash), its
    stream named as static/refresh.js names it; the answer's status."""
    from urllib.parse import urlencode

    from tests.serving import request

    form = {"type": "adjust", "player": "p2", "amount": amount, "reason": "tap", "back": "table"}
    headers = {**banker_cookie(g), "HX-Request": "true", "X-Banker-Stream": name,
               "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip
    reply = request(f"{server.url}/games/{g['game_id']}/act", "POST", headers=headers,
                    raw=urlencode(form))  # fmt: skip
    return reply.status_code


def test_a_pages_own_tap_is_its_view_and_its_stream_is_not_rendered_for_it_again(server, stream):
    """The Banker's tap is answered with its screen at the new version: its stream (named in
    the tap) is not sent that version again (it was rendered twice, the push ignored by the
    page), while the other pages' streams are; a change made elsewhere reaches it again."""
    g = new_game(server.url)
    v = command(server.url, g, {"type": "start", "first": "p1"})
    bob = stream(f"/join/{g['players'][1]['token']}/events?v={v}&as=view")
    banker = stream(f"/games/{g['game_id']}/events?v={v}&as=table", banker_cookie(g))
    ready = banker.events(0.8)[0]
    said, name = ready["data"].split("\n")
    assert ready["event"] == "ready" and said == str(v) and len(name) >= 16
    bob.events(0.3)
    assert tap(server, g, name, 7) == 200
    assert [e["id"] for e in views(bob.events(1.0))] == [str(v + 1)]
    told = banker.events(0.8)
    assert views(told) == [] and figures(told) == []  # its answer was its view
    # A tap naming no stream of this game holds nothing back: the page's stream is sent it.
    assert tap(server, g, "not-a-stream-name", 8) == 200
    assert [e["id"] for e in views(banker.events(1.0))] == [str(v + 2)]
    # Nor does a tap hold the stream after its answer: a change from elsewhere reaches it.
    v3 = command(server.url, g, {"type": "adjust", "player": "p1", "amount": 5, "reason": "x"})
    assert [e["id"] for e in views(banker.events(1.0))] == [str(v3)]


@pytest.fixture
def inproc(tmp_path):
    """banker's server (push included) in a thread of this process: the test reaches its hub."""
    from types import SimpleNamespace

    with in_process(tmp_path / "banker.db") as served:
        opened = []

        def stream(path: str, headers: dict | None = None) -> Stream:
            opened.append(Stream(served.url, path, headers))
            return opened[-1]

        yield SimpleNamespace(url=served.url, hub=served.app.extensions["banker.push"],
                              stream=stream)  # fmt: skip
        for s in opened:
            s.sock.close()


def test_a_tapping_pages_stream_is_held_until_the_tap_is_answered_then_sent_what_it_lacks(inproc):
    """Hub.tap, as the command path calls it before a page's tap is executed: the page's stream
    is not rendered for while the tap is answered, whatever else happens meanwhile; once
    answered (Hub.answered, at the request's end) it is sent only the versions newer than its
    answer showed. A name of another game's or another seat's stream holds nothing."""
    hub, g = inproc.hub, new_game(inproc.url)
    v = command(inproc.url, g, {"type": "start", "first": "p1"})
    banker = inproc.stream(f"/games/{g['game_id']}/events?v={v}&as=table", banker_cookie(g))
    bob = inproc.stream(f"/join/{g['players'][1]['token']}/events?v={v}&as=view")
    name = banker.events(0.8)[0]["data"].split("\n")[1]
    bob.events(0.3)
    assert hub.tap(name, "another-game", "banker") is None
    assert hub.tap(name, g["game_id"], "p2") is None
    held = hub.tap(name, g["game_id"], "banker")
    assert held is not None
    adjust = {"type": "adjust", "player": "p2", "amount": 3, "reason": "x"}
    v1 = command(inproc.url, g, adjust)  # the tap's own change
    assert [e["id"] for e in views(bob.events(1.0))] == [str(v1)]
    assert views(banker.events(0.5)) == []  # held: its answer is on its way
    v2 = command(inproc.url, g, adjust)  # another change while the tap is answered
    assert views(banker.events(0.5)) == []
    hub.answered(held, v1)  # the answer showed v1: v2 is sent now
    assert [e["id"] for e in views(banker.events(1.0))] == [str(v2)]
    held = hub.tap(name, g["game_id"], "banker")
    v3 = command(inproc.url, g, adjust)
    hub.answered(held, v3)  # the answer showed the newest: nothing to send
    assert views(banker.events(0.5)) == []
    v4 = command(inproc.url, g, adjust)  # and the stream follows the game again
    assert [e["id"] for e in views(banker.events(1.0))] == [str(v4)]


def test_the_money_is_not_sent_first_while_other_games_wait_for_the_render_thread(inproc):
    """A busy server (another game's views waiting for the render thread) sends the view alone:
    the figures' second write to every stream is what it can least afford then."""
    hub = inproc.hub
    g = new_game(inproc.url)
    v = command(inproc.url, g, {"type": "start", "first": "p1"})
    bob = inproc.stream(f"/join/{g['players'][1]['token']}/events?v={v}&as=view")
    bob.events(0.3)
    adjust = {"type": "adjust", "player": "p2", "amount": 3, "reason": "x"}
    hub.queued += 1  # as if another game's views were being rendered
    try:
        v1 = command(inproc.url, g, adjust)
        told = bob.events(1.0)
    finally:
        hub.queued -= 1
    assert [e["id"] for e in views(told)] == [str(v1)] and figures(told) == []
    v2 = command(inproc.url, g, adjust)  # the render thread free again: the money first
    told = bob.events(1.0)
    assert figures(told) == [f"{v2}\nother-cash-p1 1,500\nmy-cash 1,506"]
    assert [e["id"] for e in views(told)] == [str(v2)]


def test_a_stream_never_read_holds_only_the_newest_view_however_many_changes(inproc):
    """A patient stranger opens a player's stream and never reads it: once the sockets'
    buffers are full, each change's view waits in the hub for a stream that cannot take it.
    It holds the newest whole view only (not every change's parts and view), and a page that
    reads again is sent it."""
    g = new_game(inproc.url)
    v = command(inproc.url, g, {"type": "start", "first": "p1"})
    port = int(inproc.url.rsplit(":", 1)[1])
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    token = g["players"][1]["token"]
    sock.sendall(f"GET /join/{token}/events?v={v}&as=view HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    time.sleep(0.3)
    (stream,) = [s for s in inproc.hub.games[g["game_id"]] if s.token == token]
    adjust = {"type": "adjust", "player": "p1", "amount": 1, "reason": "x" * 200}
    held = []
    for _ in range(1500):
        last = command(inproc.url, g, adjust)
        held.append(sum(len(m) for m in list(stream.outbox)))
    time.sleep(0.5)
    assert stream.outbox, "the sockets' buffers are full: the hub holds what waits"
    (waiting,) = stream.outbox  # one message: the newest whole view
    assert waiting.startswith(f"id: {last}\nevent: swap\n")
    assert max(held) <= 2 * len(waiting) + 1000  # never more than about a view
    sock.setblocking(True)
    sock.settimeout(5)
    got = b""
    while f"id: {last}\nevent: swap".encode() not in got:
        got += sock.recv(1 << 20)
    sock.close()
