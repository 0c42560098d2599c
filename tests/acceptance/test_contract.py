"""Black-box acceptance tests of `banker serve` against the project's API documentation
(docs/api.md) and the rule texts.

Every expected value here comes from docs/api.md, the two rule texts or the printed figures
(tests/data/g0009.json, source named in tests/data/README.md), never from the implementation.
Where the rule texts are silent docs/rules-decisions.md is accepted. Each test makes its own game.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REF = json.loads((Path(__file__).resolve().parents[1] / "data" / "g0009.json").read_text())
DEEDS = {s["id"]: s for s in REF["board"] if "id" in s}
INDEX = {pid: s["index"] for pid, s in DEEDS.items()}
BOARD_ORDER = [s["id"] for s in REF["board"] if "id" in s]

API = "/api/v1"
PENDING_EMPTY = {
    "offer": None,
    "auction": None,
    "auction_queue": [],
    "card": None,
    "dice": None,
    "debt": None,
    "payments": [],
    "rent_claims": [],
    "final_round": False,
}


def pick(obj, keys):
    """The contract's fields of an object (more fields may be added, docs/api.md says)."""
    return None if obj is None else {k: obj[k] for k in keys}


def debt(state):
    """pending.debt's contract fields. `can_raise` is an amount (docs/rules-decisions.md: it
    "counts" what could be sold); in Python False == 0, so the types are checked apart."""
    d = state["pending"]["debt"]
    assert d is not None, state["pending"]
    assert type(d["amount"]) is int and type(d["can_raise"]) is int, d
    assert isinstance(d.get("reason"), str) and d["reason"], d
    return pick(d, DEBT)


OFFER = ("player", "property", "price")
AUCTION = ("item", "high_bid", "high_bidder")
CARD = ("player", "deck")
DICE = ("player", "reason", "multiplier")
DEBT = ("debtor", "creditor", "amount", "can_raise")
PAYMENT = ("from", "to", "amount")
CLAIM = ("owner", "payer", "property", "amount")


EVENT_TEXTS: list[str] = []  # every event text the suite saw, for a look at their form


class Game:
    """One game made through the API, with shortcuts; every call checks the contract's shapes."""

    def __init__(self, http, names=("Ann", "Bob"), edition="g0009", options=None):
        self.http = http
        body = {"edition": edition, "players": list(names)}
        if options is not None:
            body["options"] = options
        status, created, _ = http.request("POST", f"{API}/games", body)
        assert status == 201, (status, created)
        self.created = created
        self.id = created["game_id"]
        self.bt = created["banker_token"]
        self.tokens = {p["id"]: p["token"] for p in created["players"]}

    # -- reading --
    def get(self, path="", token=None):
        return self.http.request("GET", f"{API}/games/{self.id}{path}", token=token or self.bt)

    def state(self, token=None):
        status, body, _ = self.get("", token)
        assert status == 200, (status, body)
        return body

    def events(self, token=None):
        status, body, _ = self.get("/events", token)
        assert status == 200, (status, body)
        return body

    def player(self, pid):
        return next(p for p in self.state()["players"] if p["id"] == pid)

    def cash(self, pid):
        return self.player(pid)["cash"]

    def cashes(self):
        return {p["id"]: p["cash"] for p in self.state()["players"]}

    def prop(self, pid):
        return self.state()["properties"][pid]

    def pending(self):
        return self.state()["pending"]

    def turn(self):
        return self.state()["turn"]["player"]

    # -- commands --
    def send(self, command, token=None, headers=None, raw=None):
        status, body, ctype = self.http.request(
            "POST", f"{API}/games/{self.id}/commands", command, token=token or self.bt,
            headers=headers, raw=raw,
        )  # fmt: skip
        assert "json" in ctype, (status, ctype)  # JSON out, errors included
        return status, body

    def cmd(self, token=None, headers=None, **command):
        before = self.state()["version"]
        status, body = self.send(command, token, headers)
        assert status == 200, (command, status, body)
        assert set(body) >= {"version", "events", "state"}, body
        assert body["version"] == before + 1 == body["state"]["version"], (before, body["version"])
        for e in body["events"]:
            assert isinstance(e["type"], str) and isinstance(e["text"], str) and e["text"], e
            EVENT_TEXTS.append(e["text"])
        return body

    def refused(self, command, status, token=None, code=None, raw=None, headers=None):
        """Answered with `status` and an error body; the game is exactly as before."""
        before_state, before_events = self.state(), self.events()
        got, body = self.send(command, token, headers, raw)
        assert got == status if isinstance(status, int) else got in status, (command, got, body)
        assert_error_body(body)
        if code is not None:
            assert body["error"]["code"] == code, body
        assert self.state() == before_state, command
        assert self.events() == before_events, command
        return body

    # -- getting to situations quickly --
    def start(self, first="p1"):
        return self.cmd(type="start", first=first)

    def move(self, pid, position):
        return self.cmd(type="move", player=pid, position=position)

    def roll(self, pid, d1, d2):
        return self.cmd(type="roll", player=pid, dice=[d1, d2])

    def adjust(self, pid, amount, reason="setting up the test"):
        return self.cmd(type="adjust", player=pid, amount=amount, reason=reason)

    def set_cash(self, pid, amount):
        delta = amount - self.cash(pid)
        if delta:
            self.adjust(pid, delta)

    def land(self, pid, index, d1=1, d2=2):
        """`pid` (whose turn it is) moves to index-(d1+d2) and rolls onto `index`."""
        self.move(pid, (index - d1 - d2) % 40)
        return self.roll(pid, d1, d2)

    def pass_to(self, pid):
        """Harmless rolls (GO -> Just Visiting) until `pid` is to roll."""
        for _ in range(8):
            x = self.turn()
            if x == pid:
                return
            self.move(x, 0)
            self.roll(x, 4, 6)
        raise AssertionError("turn never reached " + pid)

    def own(self, *items):
        """Deeds to players by real rolls: the roller buys, or the owner wins the auction at 10."""
        for prop, owner in items:
            x = self.turn()
            self.land(x, INDEX[prop])
            assert pick(self.pending()["offer"], ("property",)) == {"property": prop}
            if x == owner:
                self.cmd(type="buy")
            else:
                self.cmd(type="auction")
                self.cmd(type="bid", player=owner, amount=10)
                self.cmd(type="close_auction")
            assert self.prop(prop)["owner"] == owner


def assert_error_body(body):
    assert isinstance(body, dict) and set(body) == {"error"}, body
    err = body["error"]
    assert isinstance(err.get("code"), str) and re.fullmatch(r"[a-z][a-z0-9_]*", err["code"]), body
    assert isinstance(err.get("message"), str) and err["message"].strip(), body


@pytest.fixture
def http(server):
    return server


# ---------------------------------------------------------------------------------------------
# create, state, events, validation
# ---------------------------------------------------------------------------------------------


def test_create_answers_201_with_every_named_field(http):
    status, created, ctype = http.request(
        "POST", f"{API}/games", {"edition": "g0009", "players": ["Ann", "Bob", "Cat"]}
    )
    assert status == 201 and "json" in ctype
    assert set(created) >= {"game_id", "banker_token", "banker_url", "players", "state"}
    assert isinstance(created["game_id"], str) and created["game_id"]
    assert created["banker_token"] in created["banker_url"]
    assert [p["name"] for p in created["players"]] == ["Ann", "Bob", "Cat"]
    ids = [p["id"] for p in created["players"]]
    assert len(set(ids)) == 3
    tokens = {created["banker_token"]} | {p["token"] for p in created["players"]}
    assert len(tokens) == 4
    for p in created["players"]:
        assert set(p) >= {"id", "name", "token", "join_url"}
        assert p["token"] in p["join_url"]
    s = created["state"]
    assert s["game_id"] == created["game_id"]
    assert s["version"] == 0 and s["edition"] == "g0009" and s["status"] == "setup"
    assert s["bank"] == {"houses": 32, "hotels": 12}
    assert isinstance(s["options"], dict)
    assert [p["id"] for p in s["players"]] == ids
    for p, name in zip(s["players"], ["Ann", "Bob", "Cat"], strict=True):
        assert pick(p, ("name", "members", "cash", "position", "in_jail", "jail_attempts",
                        "jail_cards", "eliminated")) == {
            "name": name, "members": [name], "cash": 1500, "position": 0, "in_jail": False,
            "jail_attempts": 0, "jail_cards": [], "eliminated": False,
        }  # fmt: skip
    assert set(s["properties"]) == set(DEEDS) and len(s["properties"]) == 28
    for deed in s["properties"].values():
        assert pick(deed, ("owner", "mortgaged", "houses", "hotel")) == {
            "owner": None,
            "mortgaged": False,
            "houses": 0,
            "hotel": False,
        }
    assert s["turn"]["player"] is None
    assert set(s["turn"]) >= {"player", "doubles", "first", "roller"}
    assert {k: s["pending"][k] for k in PENDING_EMPTY} == PENDING_EMPTY
    assert s["winners"] == [] and s["scores"] is None
    # GET gives the same state; the pages the URLs name open.
    status, got, _ = http.request("GET", f"{API}/games/{created['game_id']}",
                                  token=created["banker_token"])  # fmt: skip
    assert status == 200 and got == s
    for url in [created["banker_url"]] + [p["join_url"] for p in created["players"]]:
        path = re.sub(r"^https?://[^/]+", "", url)
        status, _, _ = http.request("GET", path)
        assert status in (200, 302, 303), (url, status)  # a page, or its redirect


@pytest.mark.parametrize(
    "body",
    [
        {"edition": "g0009", "players": ["Ann"]},
        {"edition": "g0009", "players": ["A", "B", "C", "D", "E", "F", "G"]},
        {"edition": "g0009", "players": ["Ann", ""]},
        {"edition": "g0009", "players": ["Ann", "x" * 31]},
        {"edition": "monopoly-junior", "players": ["Ann", "Bob"]},
        {"players": ["Ann", "Bob"], "edition": 9},
        {"edition": "g0009", "players": "Ann,Bob"},
        {"edition": "g0009"},
    ],
    ids=["1-player", "7-players", "empty-name", "31-char-name", "unknown-edition", "edition-int",
         "players-string", "players-missing"],
)  # fmt: skip
def test_create_refuses_malformed_bodies_with_400(http, body):
    status, answer, _ = http.request("POST", f"{API}/games", body)
    assert status == 400, (status, answer)
    assert_error_body(answer)


def test_create_accepts_the_limits(http):
    for names in (["Ann", "Bob"], ["A", "B", "C", "D", "E", "F"], ["x" * 30, "Bob"]):
        status, answer, _ = http.request(
            "POST", f"{API}/games", {"edition": "classic", "players": names}
        )
        assert status == 201, (names, answer)
        assert [p["name"] for p in answer["state"]["players"]] == names


@pytest.mark.parametrize(
    "options",
    [{"auction_all": True}, {"deadline": True}, {"teams": True}, {"hotel_shortage_ruling": True}],
)
def test_variations_with_classic_are_refused(http, options):
    names = ["Ann", "Bob", "Cat", "Dan"]
    status, answer, _ = http.request(
        "POST", f"{API}/games", {"edition": "classic", "players": names, "options": options}
    )
    assert status in (400, 422), (status, answer)
    assert_error_body(answer)
    # the same options with g0009 are fine
    status, answer, _ = http.request(
        "POST", f"{API}/games", {"edition": "g0009", "players": names, "options": options}
    )
    assert status == 201, answer


def test_teams_need_exactly_four_names(http):
    status, answer, _ = http.request(
        "POST", f"{API}/games",
        {"edition": "g0009", "players": ["Ann", "Bob", "Cat"], "options": {"teams": True}},
    )  # fmt: skip
    assert status in (400, 422), answer
    assert_error_body(answer)


def test_command_answer_and_events_shape_oldest_first(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    a = g.start("p2")
    assert a["version"] == 1
    assert a["state"]["status"] == "playing"
    assert pick(a["state"]["turn"], ("player", "doubles", "first", "roller")) == {
        "player": "p2",
        "doubles": 0,
        "first": "p2",
        "roller": "Bob",
    }
    b = g.roll("p2", 3, 5)
    assert b["state"] == g.state()
    evs = g.events()
    assert isinstance(evs, list) and len(evs) == len(a["events"]) + len(b["events"])
    for e in evs:
        assert set(e) >= {"seq", "type", "text", "at"}
        assert isinstance(e["at"], str) and e["at"]
    seqs = [e["seq"] for e in evs]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert [(e["type"], e["text"]) for e in evs] == [
        (e["type"], e["text"]) for e in a["events"] + b["events"]
    ]
    # The event text names the players, the deeds as printed and the amounts.
    c = g.cmd(type="buy")
    assert any("Bob" in e["text"] and "Vermont Avenue" in e["text"] and "100" in e["text"]
               for e in c["events"]), c["events"]  # fmt: skip


def test_version_rises_by_one_per_accepted_command_and_not_on_refusal(http):
    g = Game(http)
    assert g.state()["version"] == 0
    g.refused({"type": "roll", "player": "p1", "dice": [1, 2]}, 422)  # before start
    assert g.state()["version"] == 0
    assert g.start()["version"] == 1
    assert g.roll("p1", 3, 5)["version"] == 2  # several events, one command
    g.refused({"type": "roll", "player": "p2", "dice": [1, 2]}, 422)  # offer open
    assert g.cmd(type="buy")["version"] == 3
    assert g.cmd(type="undo")["version"] == 4
    assert g.state()["version"] == 4


# ---------------------------------------------------------------------------------------------
# errors, tokens, idempotency
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        {"type": "teleport"},
        {"player": "p1", "dice": [1, 2]},
        {"type": "roll", "player": "p1"},
        {"type": "roll", "player": "p1", "dice": "12"},
        {"type": "roll", "player": "p1", "dice": [1, "2"]},
        {"type": "roll", "player": "p9", "dice": [1, 2]},
        {"type": "adjust", "player": "p1", "amount": 10},
        {"type": "adjust", "player": "p1", "amount": "10", "reason": "x"},
        {"type": "draw_card", "deck": "tarot", "card": "advance-to-go"},
        {"type": "mortgage", "property": "park-lane"},
        {"type": "bid", "player": "p1"},
        {"type": "move", "player": "p1", "position": "GO"},
        {"type": "roll", "player": "p1", "dice": [1, 2], "expected_version": "one"},
    ],
    ids=["unknown-type", "no-type", "missing-dice", "dice-string", "die-string", "unknown-player",
         "adjust-no-reason", "adjust-amount-string", "unknown-deck", "unknown-property",
         "bid-no-amount", "position-string", "expected-version-string"],
)  # fmt: skip
def test_malformed_commands_are_400_and_change_nothing(http, command):
    g = Game(http)
    g.start()
    g.refused(command, 400)


@pytest.mark.parametrize("raw", ["not json", "[1, 2]", '"roll"', "{"])
def test_unparseable_bodies_are_400(http, raw):
    g = Game(http)
    g.start()
    g.refused(None, 400, raw=raw)


def test_rules_refusals_are_422_and_change_nothing(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.refused({"type": "undo"}, 422)  # nothing to undo
    g.start()
    g.refused({"type": "start", "first": "p2"}, 422)  # already started
    g.refused({"type": "roll", "player": "p2", "dice": [1, 2]}, 422)  # not Bob's turn
    g.refused({"type": "buy"}, 422)  # no offer
    g.refused({"type": "close_auction"}, 422)  # no auction
    g.refused({"type": "mortgage", "property": "boardwalk"}, 422)  # not owned
    g.refused({"type": "build", "property": "boardwalk"}, 422)
    g.refused({"type": "pay_jail_fine", "player": "p1"}, 422)  # not in jail
    g.refused({"type": "call_time"}, 422)  # no deadline variation
    g.refused({"type": "pay_debt"}, 422)  # no debt
    g.refused({"type": "undo"}, 422)  # only start so far: undo reaches back to the latest roll
    g.refused({"type": "adjust", "player": "p1", "amount": -1501, "reason": "typo"}, 422)
    g.roll("p1", 3, 5)
    g.refused({"type": "roll", "player": "p2", "dice": [1, 2]}, 422)  # offer open
    g.refused({"type": "claim_rent", "claim": "nope"}, (400, 422))


def test_tokens_401_403_404(http):
    g = Game(http)
    other = Game(http)
    g.start()
    before = g.state()
    # missing token
    for method, path in (("GET", ""), ("GET", "/events"), ("GET", "/snapshot")):
        status, body, _ = http.request(method, f"{API}/games/{g.id}{path}")
        assert status == 401, (path, status)
        assert_error_body(body)
    status, body, _ = http.request(
        "POST", f"{API}/games/{g.id}/commands", {"type": "roll", "player": "p1", "dice": [1, 2]}
    )
    assert status == 401
    assert_error_body(body)
    # a wrong token, another game's tokens
    for token in ("not-a-token", other.bt, other.tokens["p1"]):
        status, body, _ = http.request("GET", f"{API}/games/{g.id}", token=token)
        assert status in (401, 403), (token, status)
        assert_error_body(body)
        g.refused({"type": "roll", "player": "p1", "dice": [1, 2]}, (401, 403), token=token)
    # a player token may not command
    g.refused({"type": "roll", "player": "p1", "dice": [1, 2]}, 403, token=g.tokens["p1"])
    g.refused({"type": "adjust", "player": "p1", "amount": 5, "reason": "gift"}, 403,
              token=g.tokens["p1"])  # fmt: skip
    g.refused({"type": "undo"}, 403, token=g.tokens["p2"])
    assert g.state() == before
    # no such game
    for path in ("", "/events", "/snapshot"):
        status, body, _ = http.request("GET", f"{API}/games/nosuchgame{path}", token=g.bt)
        assert status == 404, (path, status)
        assert_error_body(body)
    status, body, _ = http.request(
        "POST", f"{API}/games/nosuchgame/commands", {"type": "undo"}, token=g.bt
    )
    assert status == 404
    assert_error_body(body)


def test_expected_version_stale_is_409(http):
    g = Game(http)
    g.start()
    g.refused({"type": "roll", "player": "p1", "dice": [1, 2], "expected_version": 0}, 409)
    g.refused({"type": "roll", "player": "p1", "dice": [1, 2], "expected_version": 2}, 409)
    a = g.cmd(type="roll", player="p1", dice=[1, 2], expected_version=1)
    assert a["version"] == 2


def test_player_token_reads_and_claims_its_rent_only(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    ann, bob, cat = (g.tokens[p] for p in ("p1", "p2", "p3"))
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    g.roll("p2", 3, 5)  # Bob lands on Ann's Vermont Avenue
    # reading: same shape as the banker's
    assert g.state(token=cat) == g.state()
    assert [e["seq"] for e in g.events(token=cat)] == [e["seq"] for e in g.events()]
    (claim,) = g.pending()["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2", "property": "vermont-avenue",
                                  "amount": 6}  # fmt: skip
    assert isinstance(claim["id"], str)
    # other players may not claim it, nor command anything
    g.refused({"type": "claim_rent", "claim": claim["id"]}, 403, token=cat)
    g.refused({"type": "claim_rent", "claim": claim["id"]}, 403, token=bob)
    g.refused({"type": "roll", "player": "p3", "dice": [4, 6]}, 403, token=cat)
    g.refused({"type": "buy"}, 403, token=ann)
    a = g.cmd(token=ann, type="claim_rent", claim=claim["id"])
    assert a["state"]["pending"]["rent_claims"] == []
    assert g.cashes() == {"p1": 1406, "p2": 1494, "p3": 1500}


def test_idempotency_key_replays_the_first_answer(http):
    g = Game(http)
    other = Game(http)
    first = g.cmd(headers={"Idempotency-Key": "k-start"}, type="start", first="p1")
    events = g.events()
    status, again = g.send({"type": "start", "first": "p1"}, headers={"Idempotency-Key": "k-start"})
    assert status == 200 and again == first
    assert g.state()["version"] == 1 and g.events() == events
    roll = g.cmd(headers={"Idempotency-Key": "k-roll"}, type="roll", player="p1", dice=[4, 6])
    status, again = g.send(
        {"type": "roll", "player": "p1", "dice": [4, 6]}, headers={"Idempotency-Key": "k-roll"}
    )
    assert status == 200 and again == roll
    assert g.state()["version"] == 2 and g.player("p1")["position"] == 10
    # scoped to one game: the same key in another game applies there
    a = other.cmd(headers={"Idempotency-Key": "k-start"}, type="start", first="p2")
    assert a["state"]["turn"]["first"] == "p2"
    # refusals are not remembered
    g.refused({"type": "buy"}, 422, headers={"Idempotency-Key": "k-later"})
    b = g.cmd(headers={"Idempotency-Key": "k-later"}, type="roll", player="p2", dice=[4, 6])
    assert b["version"] == 3


# ---------------------------------------------------------------------------------------------
# rolling, buying, auctions, turns
# ---------------------------------------------------------------------------------------------


def test_roll_buy_and_turn_passing_with_an_offer_open(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    a = g.roll("p1", 3, 5)
    s = a["state"]
    assert s["players"][0]["position"] == 8
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p1",
        "property": "vermont-avenue",
        "price": 100,
    }
    assert s["turn"]["player"] == "p2" and s["turn"]["roller"] == "Bob"
    assert s["turn"]["first"] == "p1"
    b = g.cmd(type="buy")
    s = b["state"]
    assert s["pending"]["offer"] is None
    assert s["properties"]["vermont-avenue"] == {**s["properties"]["vermont-avenue"],
                                                 "owner": "p1", "mortgaged": False}  # fmt: skip
    assert [p["cash"] for p in s["players"]] == [1500 - 100, 1500, 1500]


def test_passing_go_pays_200_once(http):
    g = Game(http)
    g.start()
    g.move("p1", 38)
    assert g.cash("p1") == 1500  # move pays nothing
    g.roll("p1", 1, 3)  # 38 -> 2 Community Chest, passing GO
    s = g.state()
    assert s["players"][0]["position"] == 2 and s["players"][0]["cash"] == 1700
    assert pick(s["pending"]["card"], CARD) == {"player": "p1", "deck": "community_chest"}
    g.cmd(type="draw_card", deck="community_chest", card="advance-to-go")
    s = g.state()
    assert s["players"][0]["position"] == 0 and s["players"][0]["cash"] == 1900


def test_auction_bids_and_close(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    a = g.cmd(type="auction")
    assert a["state"]["pending"]["offer"] is None
    assert pick(a["state"]["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    g.refused({"type": "roll", "player": "p2", "dice": [1, 2]}, 422)  # auction open
    g.refused({"type": "bid", "player": "p2", "amount": 9}, 422)  # opens at 10
    g.refused({"type": "bid", "player": "p2", "amount": 1501}, 422)  # more than Bob's cash
    g.cmd(type="bid", player="p2", amount=40)
    g.refused({"type": "bid", "player": "p3", "amount": 40}, 422)  # not a raise
    b = g.cmd(type="bid", player="p1", amount=50)  # the decliner may bid
    assert pick(b["state"]["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 50,
        "high_bidder": "p1",
    }
    c = g.cmd(type="close_auction")
    s = c["state"]
    assert s["pending"]["auction"] is None
    assert s["properties"]["vermont-avenue"]["owner"] == "p1"
    assert [p["cash"] for p in s["players"]] == [1450, 1500, 1500]
    g.roll("p2", 4, 6)  # the table goes on


def test_auction_without_bids_leaves_the_deed_in_the_bank(http):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="auction")
    s = g.cmd(type="close_auction")["state"]
    assert s["pending"]["auction"] is None and s["properties"]["vermont-avenue"]["owner"] is None
    assert [p["cash"] for p in s["players"]] == [1500, 1500]


def test_auction_all_variation_opens_the_auction_at_once(http):
    g = Game(http, options={"auction_all": True})
    g.start()
    s = g.roll("p1", 3, 5)["state"]
    assert s["pending"]["offer"] is None
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    g.refused({"type": "buy"}, 422)


def test_doubles_keep_the_turn_and_third_doubles_jails(http):
    g = Game(http)
    g.start()
    s = g.roll("p1", 2, 2)["state"]  # Income Tax 200
    assert s["players"][0]["position"] == 4 and s["players"][0]["cash"] == 1300
    assert s["turn"]["player"] == "p1" and s["turn"]["doubles"] == 1
    s = g.roll("p1", 3, 3)["state"]  # Just Visiting
    assert s["players"][0]["position"] == 10 and not s["players"][0]["in_jail"]
    assert s["turn"]["player"] == "p1" and s["turn"]["doubles"] == 2
    s = g.roll("p1", 4, 4)["state"]  # third doubles: to Jail, no move by the roll
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, True, 1300)
    assert s["turn"]["player"] == "p2" and s["turn"]["doubles"] == 0


def test_go_to_jail_space(http):
    g = Game(http)
    g.start()
    g.move("p1", 27)
    s = g.roll("p1", 1, 2)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, True, 1500)
    assert s["turn"]["player"] == "p2"


def jail_ann(g):
    """Ann (p1, to roll) goes to Jail by the Go To Jail space; Bob rolls; Ann's turn again."""
    g.move("p1", 27)
    g.roll("p1", 1, 2)
    g.pass_to("p1")
    assert g.player("p1")["in_jail"]


def test_jail_attempts_and_the_third_failure_pays_and_moves(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.refused({"type": "move", "player": "p1", "position": 5}, 422)  # jailed token
    for attempt in (1, 2):
        s = g.roll("p1", 1, 2)["state"]
        p = s["players"][0]
        assert (p["position"], p["in_jail"], p["jail_attempts"]) == (10, True, attempt)
        assert s["turn"]["player"] == "p2"
        g.pass_to("p1")
    s = g.roll("p1", 1, 2)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["jail_attempts"], p["cash"]) == (13, False, 0, 1450)
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p1",
        "property": "states-avenue",
        "price": 140,
    }
    assert s["turn"]["player"] == "p2"


def test_third_failure_without_the_fine_is_a_debt_then_the_move(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.roll("p1", 1, 2)
    g.pass_to("p1")
    g.roll("p1", 1, 2)
    g.pass_to("p1")
    g.set_cash("p1", 30)
    s = g.roll("p1", 1, 2)["state"]
    assert debt(s) == {"debtor": "p1", "creditor": None, "amount": 50, "can_raise": 0}
    assert s["players"][0]["position"] == 10
    g.refused({"type": "pay_debt"}, 422)
    g.adjust("p1", 100, "found a 100 bill under the board")
    s = g.cmd(type="pay_debt")["state"]
    p = s["players"][0]
    assert s["pending"]["debt"] is None
    assert (p["cash"], p["position"], p["in_jail"]) == (80, 13, False)
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p1",
        "property": "states-avenue",
        "price": 140,
    }


def test_doubles_free_from_jail_without_an_extra_roll(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    s = g.roll("p1", 2, 2)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["jail_attempts"], p["cash"]) == (14, False, 0, 1500)
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p1",
        "property": "virginia-avenue",
        "price": 160,
    }
    assert s["turn"]["player"] == "p2"


def test_pay_jail_fine_frees_before_the_roll(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.set_cash("p1", 49)
    g.refused({"type": "pay_jail_fine", "player": "p1"}, 422)  # needs 50 in cash
    g.set_cash("p1", 1500)
    s = g.cmd(type="pay_jail_fine", player="p1")["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, False, 1450)
    assert s["turn"]["player"] == "p1"
    s = g.roll("p1", 1, 2)["state"]
    assert s["players"][0]["position"] == 13 and s["turn"]["player"] == "p2"


def test_jail_card_kept_used_and_not_drawable_while_held(http):
    g = Game(http)
    g.start()
    g.land("p1", 7)
    s = g.state()
    assert pick(s["pending"]["card"], CARD) == {"player": "p1", "deck": "chance"}
    assert s["turn"]["player"] == "p2"  # passes even with the card open
    g.refused({"type": "roll", "player": "p2", "dice": [1, 2]}, 422)  # card open
    g.refused({"type": "draw_card", "deck": "community_chest", "card": "advance-to-go"},
              (400, 422))  # fmt: skip
    s = g.cmd(type="draw_card", deck="chance", card="get-out-of-jail-free")["state"]
    assert s["players"][0]["jail_cards"] == ["chance"] and s["pending"]["card"] is None
    # Bob lands on Chance: Ann holds the only Chance jail card
    g.land("p2", 7)
    g.refused({"type": "draw_card", "deck": "chance", "card": "get-out-of-jail-free"}, 422)
    g.cmd(type="draw_card", deck="chance", card="bank-dividend-50")
    assert g.cash("p2") == 1550
    jail_ann(g)
    s = g.cmd(type="use_jail_card", player="p1", deck="chance")["state"]
    p = s["players"][0]
    assert (p["in_jail"], p["jail_cards"], p["position"], p["cash"]) == (False, [], 10, 1500)
    g.roll("p1", 4, 6)
    # back in its deck: Bob may draw it now
    g.land("p2", 7)
    s = g.cmd(type="draw_card", deck="chance", card="get-out-of-jail-free")["state"]
    assert s["players"][1]["jail_cards"] == ["chance"]


# ---------------------------------------------------------------------------------------------
# rent
# ---------------------------------------------------------------------------------------------


def test_claim_lapses_on_another_players_roll(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    g.roll("p2", 3, 5)
    (claim,) = g.pending()["rent_claims"]
    g.roll("p3", 4, 6)
    assert g.pending()["rent_claims"] == []
    g.refused({"type": "claim_rent", "claim": claim["id"]}, 422)
    g.refused({"type": "claim_rent", "claim": claim["id"]}, (403, 422), token=g.tokens["p1"])
    assert g.cashes() == {"p1": 1400, "p2": 1500, "p3": 1500}


def test_claim_survives_the_payers_own_doubles_roll(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    g.move("p2", 4)
    g.roll("p2", 2, 2)  # Vermont Avenue, doubles
    (claim,) = g.pending()["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2", "property": "vermont-avenue",
                                  "amount": 6}  # fmt: skip
    s = g.roll("p2", 1, 2)["state"]  # St. Charles Place: offer open, claim still open
    assert [c["id"] for c in s["pending"]["rent_claims"]] == [claim["id"]]
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p2",
        "property": "st-charles-place",
        "price": 140,
    }
    g.cmd(token=g.tokens["p1"], type="claim_rent", claim=claim["id"])  # claims do not block
    assert g.cashes() == {"p1": 1406, "p2": 1494, "p3": 1500}


def test_color_set_doubles_street_rent_and_railroad_counts(http):
    g = Game(http)
    g.start()
    g.own(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"),
          ("reading-railroad", "p1"), ("pennsylvania-railroad", "p1"))  # fmt: skip
    g.pass_to("p2")
    g.land("p2", 3)
    assert [pick(c, CLAIM) for c in g.pending()["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "baltic-avenue", "amount": 8}
    ]
    g.pass_to("p2")
    g.land("p2", 5)
    assert [pick(c, CLAIM) for c in g.pending()["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "reading-railroad", "amount": 50}
    ]


def test_utility_rent_by_rent_roll_g0009(http):
    g = Game(http)
    g.start()
    g.land("p1", 12)
    g.cmd(type="buy")
    s = g.land("p2", 12)["state"]
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 4,
    }
    assert s["pending"]["rent_claims"] == [] and s["turn"]["player"] == "p1"
    g.refused({"type": "roll", "player": "p1", "dice": [4, 6]}, 422)  # rent roll pending
    s = g.cmd(type="rent_roll", dice=[3, 4])["state"]
    assert s["pending"]["dice"] is None
    (claim,) = s["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2", "property": "electric-company",
                                  "amount": 28}  # fmt: skip
    g.cmd(token=g.tokens["p1"], type="claim_rent", claim=claim["id"])
    assert g.cashes() == {"p1": 1350 + 28, "p2": 1500 - 28}
    # both utilities: x10
    g.land("p1", 28)
    g.cmd(type="buy")
    s = g.land("p2", 12, 3, 3)["state"]  # doubles roll moves; rent roll is a fresh one
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 10,
    }
    s = g.cmd(type="rent_roll", dice=[1, 2])["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [30]


def test_utility_rent_by_the_moving_roll_classic(http):
    g = Game(http, edition="classic")
    g.start()
    g.land("p1", 12)
    g.cmd(type="buy")
    s = g.land("p2", 12, 1, 2)["state"]
    assert s["pending"]["dice"] is None
    assert [pick(c, CLAIM) for c in s["pending"]["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "electric-company", "amount": 12}
    ]


def test_nearest_utility_card_asks_a_fresh_roll_times_ten(http):
    g = Game(http)
    g.start()
    g.land("p1", 28)
    g.cmd(type="buy")
    g.land("p2", 22)
    s = g.cmd(type="draw_card", deck="chance", card="advance-to-nearest-utility")["state"]
    assert s["players"][1]["position"] == 28 and s["players"][1]["cash"] == 1500
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 10,
    }
    s = g.cmd(type="rent_roll", dice=[2, 3])["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [50]


def test_next_railroad_card_double_rent_and_passing_go(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.land("p1", 15)
    g.cmd(type="buy")
    g.land("p2", 7)
    s = g.cmd(type="draw_card", deck="chance", card="advance-to-next-railroad")["state"]
    assert s["players"][1]["position"] == 15
    (claim,) = s["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2",
                                  "property": "pennsylvania-railroad", "amount": 50}  # fmt: skip
    g.cmd(type="claim_rent", claim=claim["id"])
    assert g.cashes() == {"p1": 1300 + 50, "p2": 1450, "p3": 1500}
    g.land("p3", 36)
    s = g.cmd(type="draw_card", deck="chance", card="advance-to-next-railroad")["state"]
    assert s["players"][2]["position"] == 5 and s["players"][2]["cash"] == 1700
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p3",
        "property": "reading-railroad",
        "price": 200,
    }


def test_go_back_three_spaces(http):
    g = Game(http)
    g.start()
    g.land("p1", 7)
    s = g.cmd(type="draw_card", deck="chance", card="go-back-three-spaces")["state"]
    assert s["players"][0]["position"] == 4 and s["players"][0]["cash"] == 1300  # Income Tax
    g.land("p2", 22)
    s = g.cmd(type="draw_card", deck="chance", card="go-back-three-spaces")["state"]
    assert s["players"][1]["position"] == 19
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p2",
        "property": "new-york-avenue",
        "price": 200,
    }


# ---------------------------------------------------------------------------------------------
# cards paying several players, debts
# ---------------------------------------------------------------------------------------------


def test_pay_each_player_round_the_table_and_pending_payments(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"))
    g.start("p3")
    g.set_cash("p3", 70)
    g.land("p3", 7)
    s = g.cmd(type="draw_card", deck="chance", card="chairperson-pay-each-player-50")["state"]
    # Cat's left: Dan, then Ann, then Bob
    assert [p["cash"] for p in s["players"]] == [1500, 1500, 20, 1550]
    assert debt(s) == {"debtor": "p3", "creditor": "p1", "amount": 50, "can_raise": 0}
    assert [pick(p, PAYMENT) for p in s["pending"]["payments"]] == [
        {"from": "p3", "to": "p2", "amount": 50}
    ]
    assert all("reason" in p for p in s["pending"]["payments"])
    g.adjust("p3", 200, "miscounted change")
    s = g.cmd(type="pay_debt")["state"]
    assert s["pending"]["debt"] is None and s["pending"]["payments"] == []
    assert [p["cash"] for p in s["players"]] == [1550, 1550, 120, 1550]


def test_pay_each_player_all_paid_at_once(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.land("p1", 7)
    s = g.cmd(type="draw_card", deck="chance", card="chairperson-pay-each-player-50")["state"]
    assert [p["cash"] for p in s["players"]] == [1400, 1550, 1550]
    assert s["pending"]["debt"] is None and s["pending"]["payments"] == []


def test_collect_from_each_player(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"))
    g.start()
    g.set_cash("p2", 5)
    g.land("p1", 17)
    s = g.cmd(type="draw_card", deck="community_chest", card="collect-10-from-each-player")["state"]
    assert [p["cash"] for p in s["players"]] == [1500, 5, 1500, 1500]
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 10, "can_raise": 0}
    assert [pick(p, PAYMENT) for p in s["pending"]["payments"]] == [
        {"from": "p3", "to": "p1", "amount": 10},
        {"from": "p4", "to": "p1", "amount": 10},
    ]
    g.refused({"type": "roll", "player": "p2", "dice": [1, 2]}, 422)  # debt pending
    g.adjust("p2", 20)
    s = g.cmd(type="pay_debt")["state"]
    assert [p["cash"] for p in s["players"]] == [1530, 15, 1490, 1490]
    assert s["pending"]["debt"] is None and s["pending"]["payments"] == []


def test_debt_can_raise_mortgage_then_pay(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("vermont-avenue", "p2"))
    g.pass_to("p2")
    g.set_cash("p2", 150)
    s = g.land("p2", 4)["state"]  # Income Tax 200: 150 cash + 50 mortgage can cover it
    assert debt(s) == {"debtor": "p2", "creditor": None, "amount": 200, "can_raise": 50}
    assert s["players"][1]["cash"] == 150
    g.refused({"type": "pay_debt"}, 422)
    g.refused({"type": "bankrupt", "player": "p2"}, 422)  # it can be raised
    g.refused({"type": "roll", "player": "p3", "dice": [4, 6]}, 422)
    g.cmd(type="mortgage", property="vermont-avenue")
    assert g.cash("p2") == 200
    s = g.cmd(type="pay_debt")["state"]
    assert s["pending"]["debt"] is None and s["players"][1]["cash"] == 0


def test_tax_debt_that_cannot_be_raised_bankrupt_to_the_bank(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("b-and-o-railroad", "p2"), ("vermont-avenue", "p2"), ("states-avenue", "p2"))
    g.pass_to("p2")
    g.cmd(type="mortgage", property="states-avenue")
    g.set_cash("p2", 10)
    s = g.land("p2", 4)["state"]  # 10 + 50 + 100 < 200
    assert debt(s) == {"debtor": "p2", "creditor": None, "amount": 200, "can_raise": 150}
    others = {p: c for p, c in g.cashes().items() if p != "p2"}
    s = g.cmd(type="bankrupt", player="p2")["state"]
    bob = s["players"][1]
    assert bob["eliminated"] and bob["cash"] == 0 and bob["jail_cards"] == []
    for prop in ("b-and-o-railroad", "vermont-avenue", "states-avenue"):
        assert pick(s["properties"][prop], ("owner", "mortgaged")) == {
            "owner": None,
            "mortgaged": False,
        }
    assert s["pending"]["debt"] is None
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    assert s["pending"]["auction_queue"] == ["states-avenue", "b-and-o-railroad"]
    assert {p: c for p, c in g.cashes().items() if p != "p2"} == others
    g.refused({"type": "bid", "player": "p2", "amount": 10}, (400, 422))  # eliminated
    g.cmd(type="bid", player="p1", amount=10)
    s = g.cmd(type="close_auction")["state"]
    assert s["properties"]["vermont-avenue"]["owner"] == "p1"
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "states-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    assert s["pending"]["auction_queue"] == ["b-and-o-railroad"]
    s = g.cmd(type="close_auction")["state"]
    assert s["pending"]["auction"]["item"] == "b-and-o-railroad"
    assert s["pending"]["auction_queue"] == []
    s = g.cmd(type="close_auction")["state"]
    assert s["pending"]["auction"] is None
    assert s["properties"]["states-avenue"]["owner"] is None


@pytest.mark.parametrize("edition, fee", [("g0009", 0), ("classic", 10 + 9)])
def test_bankrupt_to_a_player(http, edition, fee):
    g = Game(http, ("Ann", "Bob", "Cat"), edition=edition)
    g.start()
    g.own(("park-place", "p1"), ("boardwalk", "p1"), ("reading-railroad", "p2"),
          ("short-line", "p2"), ("tennessee-avenue", "p2"))  # fmt: skip
    g.cmd(type="build", property="park-place")
    g.cmd(type="build", property="boardwalk")
    g.cmd(type="mortgage", property="reading-railroad")
    g.pass_to("p2")
    g.land("p2", 7)
    g.cmd(type="draw_card", deck="chance", card="get-out-of-jail-free")
    g.pass_to("p2")
    g.set_cash("p2", 10)
    s = g.land("p2", 39)["state"]
    (claim,) = s["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": "p1", "payer": "p2", "property": "boardwalk",
                                  "amount": 200}  # fmt: skip
    ann = g.cash("p1")
    s = g.cmd(token=g.tokens["p1"], type="claim_rent", claim=claim["id"])["state"]
    # 10 cash + Short Line 100 + Tennessee 90 = 200: enough
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 200, "can_raise": 190}
    g.refused({"type": "bankrupt", "player": "p2"}, 422)
    g.cmd(type="mortgage", property="tennessee-avenue")
    g.adjust("p2", -90, "Bob had counted Tennessee's mortgage twice")
    s = g.state()
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 200, "can_raise": 100}
    s = g.cmd(type="bankrupt", player="p2", unmortgage=["short-line"])["state"]
    bob, ann_now = s["players"][1], s["players"][0]
    assert bob["eliminated"] and bob["cash"] == 0 and bob["jail_cards"] == []
    assert ann_now["jail_cards"] == ["chance"]
    # core mortgages Short Line (+100): 110 passes; Ann lifts Short Line (110) at once;
    # classic: the two deeds kept mortgaged cost her 10% of their mortgage values now
    # (Reading 10, Tennessee 9).
    assert ann_now["cash"] == ann + 110 - 110 - fee
    assert s["pending"]["debt"] is None
    props = s["properties"]
    assert pick(props["short-line"], ("owner", "mortgaged")) == {"owner": "p1", "mortgaged": False}
    assert pick(props["reading-railroad"], ("owner", "mortgaged")) == {
        "owner": "p1",
        "mortgaged": True,
    }
    assert pick(props["tennessee-avenue"], ("owner", "mortgaged")) == {
        "owner": "p1",
        "mortgaged": True,
    }
    assert s["status"] == "playing"


def test_last_survivor_wins(http):
    g = Game(http)
    g.start()
    g.own(("boardwalk", "p1"))
    g.pass_to("p2")
    g.set_cash("p2", 10)
    (claim,) = g.land("p2", 39)["state"]["pending"]["rent_claims"]
    g.cmd(type="claim_rent", claim=claim["id"])
    s = g.cmd(type="bankrupt", player="p2")["state"]
    assert s["status"] == "finished" and s["winners"] == ["p1"]
    g.refused({"type": "roll", "player": "p1", "dice": [1, 2]}, 422)


# ---------------------------------------------------------------------------------------------
# undo
# ---------------------------------------------------------------------------------------------


def test_undo_reaches_back_to_the_latest_roll_and_no_further(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 4, 6)
    g.roll("p2", 3, 5)
    buy = g.cmd(type="buy")
    before_buy = g.state()
    a = g.cmd(type="undo")
    s = a["state"]
    assert s["version"] == 5
    assert s["players"][1]["cash"] == 1500 and s["properties"]["vermont-avenue"]["owner"] is None
    assert pick(s["pending"]["offer"], OFFER) == {
        "player": "p2",
        "property": "vermont-avenue",
        "price": 100,
    }
    assert any(e["text"].startswith("Undid: ") for e in a["events"]), a["events"]
    evs = g.events()
    buy_texts = {e["text"] for e in buy["events"]}
    for e in evs:
        if e["text"] in buy_texts:
            assert e.get("undone") is True, e
    assert evs[-1]["text"].startswith("Undid: ")
    s = g.cmd(type="undo")["state"]  # the roll itself
    assert s["players"][1]["position"] == 0 and s["turn"]["player"] == "p2"
    assert s["pending"]["offer"] is None
    g.refused({"type": "undo"}, 422)  # Ann's roll is beyond reach
    assert g.state()["players"][0]["position"] == 10
    assert before_buy["version"] == 4


def test_undo_history_is_cleared_at_each_roll(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    g.roll("p2", 4, 6)
    s = g.cmd(type="undo")["state"]
    assert s["players"][1]["position"] == 0 and s["turn"]["player"] == "p2"
    g.refused({"type": "undo"}, 422)  # Ann's buy is before the undone roll
    assert g.prop("vermont-avenue")["owner"] == "p1"


# ---------------------------------------------------------------------------------------------
# buildings
# ---------------------------------------------------------------------------------------------


def test_build_evenly_hotel_and_sell_back(http):
    g = Game(http)
    g.start()
    g.own(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"), ("vermont-avenue", "p1"))
    g.refused({"type": "build", "property": "vermont-avenue"}, 422)  # no set
    cash = g.cash("p1")
    s = g.cmd(type="build", property="mediterranean-avenue")["state"]
    assert s["properties"]["mediterranean-avenue"]["houses"] == 1 and s["bank"]["houses"] == 31
    assert s["players"][0]["cash"] == cash - 50
    g.refused({"type": "build", "property": "mediterranean-avenue"}, 422)  # uneven
    g.refused({"type": "mortgage", "property": "baltic-avenue"}, 422)  # buildings in the set
    g.refused({"type": "trade", "from": "p1", "to": "p2",
               "give": {"cash": 0, "properties": ["baltic-avenue"], "jail_cards": []},
               "receive": {"cash": 10, "properties": [], "jail_cards": []},
               "unmortgage": []}, 422)  # fmt: skip
    for _ in range(3):
        g.cmd(type="build", property="baltic-avenue")
        g.cmd(type="build", property="mediterranean-avenue")
    g.cmd(type="build", property="baltic-avenue")
    s = g.state()
    assert [s["properties"][p]["houses"] for p in ("mediterranean-avenue", "baltic-avenue")] == [
        4,
        4,
    ]
    assert s["bank"] == {"houses": 24, "hotels": 12}
    s = g.cmd(type="build", property="mediterranean-avenue")["state"]
    assert pick(s["properties"]["mediterranean-avenue"], ("houses", "hotel")) == {
        "houses": 0,
        "hotel": True,
    }
    assert s["bank"] == {"houses": 28, "hotels": 11}
    assert s["players"][0]["cash"] == cash - 9 * 50
    g.refused({"type": "build", "property": "mediterranean-avenue"}, 422)  # hotel is the maximum
    g.refused({"type": "sell_building", "property": "baltic-avenue"}, 422)  # uneven
    s = g.cmd(type="sell_building", property="mediterranean-avenue")["state"]
    assert pick(s["properties"]["mediterranean-avenue"], ("houses", "hotel")) == {
        "houses": 4,
        "hotel": False,
    }
    assert s["bank"] == {"houses": 24, "hotels": 12}
    assert s["players"][0]["cash"] == cash - 9 * 50 + 25
    s = g.cmd(type="sell_building", property="baltic-avenue")["state"]
    assert s["properties"]["baltic-avenue"]["houses"] == 3 and s["bank"]["houses"] == 25
    assert s["players"][0]["cash"] == cash - 9 * 50 + 50
    # rent with 4 houses on Mediterranean
    g.pass_to("p2")
    g.land("p2", 1)
    assert [c["amount"] for c in g.pending()["rent_claims"]] == [160]


def test_building_auction(http):
    g = Game(http)
    g.start()
    g.own(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    cash = g.cash("p1")
    s = g.cmd(type="building_auction", kind="house")["state"]
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "house",
        "high_bid": 0,
        "high_bidder": None,
    }
    g.refused({"type": "bid", "player": "p2", "amount": 10}, 422)  # Bob has nowhere to build
    g.cmd(type="bid", player="p1", amount=12)
    g.refused({"type": "close_auction", "property": "vermont-avenue"}, 422)
    s = g.cmd(type="close_auction", property="baltic-avenue")["state"]
    assert s["pending"]["auction"] is None
    assert s["properties"]["baltic-avenue"]["houses"] == 1
    assert s["bank"]["houses"] == 31 and s["players"][0]["cash"] == cash - 12


def shortage_game(http, edition="g0009", options=None):
    """Ann owns brown (two hotels), light blue and pink (4 houses each), orange (3, 2, 2):
    31 houses out, the Bank keeps 1 house and 10 hotels."""
    g = Game(http, edition=edition, options=options)
    g.start()
    sets = {
        "brown": ["mediterranean-avenue", "baltic-avenue"],
        "light_blue": ["oriental-avenue", "vermont-avenue", "connecticut-avenue"],
        "pink": ["st-charles-place", "states-avenue", "virginia-avenue"],
        "orange": ["st-james-place", "tennessee-avenue", "new-york-avenue"],
    }
    g.own(*[(p, "p1") for streets in sets.values() for p in streets])
    g.adjust("p1", 20000, "the test's bank loan")
    for _level in range(5):
        for p in sets["brown"]:
            g.cmd(type="build", property=p)
    for color in ("light_blue", "pink"):
        for _level in range(4):
            for p in sets[color]:
                g.cmd(type="build", property=p)
    for p in ["st-james-place", "tennessee-avenue", "new-york-avenue"] * 2 + ["st-james-place"]:
        g.cmd(type="build", property=p)
    s = g.state()
    assert s["bank"] == {"houses": 1, "hotels": 10}
    return g


def test_hotel_shortage_ruling(http):
    g = shortage_game(http)
    cash = g.cash("p1")
    s = g.cmd(type="sell_building", property="mediterranean-avenue")["state"]
    med, bal = s["properties"]["mediterranean-avenue"], s["properties"]["baltic-avenue"]
    assert pick(med, ("houses", "hotel")) == {"houses": 0, "hotel": False}
    # Baltic's hotel is sold down to one house (the Bank's last): half of 50 + 3 x 50
    assert pick(bal, ("houses", "hotel")) == {"houses": 1, "hotel": False}
    assert s["bank"] == {"houses": 0, "hotels": 12}
    assert s["players"][0]["cash"] == cash + (50 + 4 * 50) // 2 + (50 + 3 * 50) // 2


def test_hotel_shortage_ruling_other_hotel_goes_bare_without_houses(http):
    g = shortage_game(http)
    g.cmd(type="build", property="tennessee-avenue")  # the Bank's last house
    g.refused({"type": "build", "property": "new-york-avenue"}, 422)  # none left
    cash = g.cash("p1")
    s = g.cmd(type="sell_building", property="baltic-avenue")["state"]
    for p in ("mediterranean-avenue", "baltic-avenue"):
        assert pick(s["properties"][p], ("houses", "hotel")) == {"houses": 0, "hotel": False}
    assert s["bank"] == {"houses": 0, "hotels": 12}
    assert s["players"][0]["cash"] == cash + 125 + 125


def test_hotel_sale_refused_in_a_shortage_without_the_ruling(http):
    g = shortage_game(http, options={"hotel_shortage_ruling": False})
    g.refused({"type": "sell_building", "property": "mediterranean-avenue"}, 422)


def test_hotel_sale_refused_in_a_shortage_classic(http):
    g = shortage_game(http, edition="classic")
    g.refused({"type": "sell_building", "property": "mediterranean-avenue"}, 422)


# ---------------------------------------------------------------------------------------------
# mortgages, trades
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["g0009", "classic"])
def test_mortgage_and_unmortgage_costs(http, edition):
    g = Game(http, edition=edition)
    g.start()
    g.own(("electric-company", "p1"), ("park-place", "p1"), ("vermont-avenue", "p1"))
    cash = g.cash("p1")
    for prop, value, lift in (("electric-company", 75, 83), ("park-place", 175, 193),
                              ("vermont-avenue", 50, 55)):  # fmt: skip
        s = g.cmd(type="mortgage", property=prop)["state"]
        assert s["properties"][prop]["mortgaged"] is True
        assert s["players"][0]["cash"] == cash + value
        g.refused({"type": "mortgage", "property": prop}, 422)
        s = g.cmd(type="unmortgage", property=prop)["state"]
        assert s["properties"][prop]["mortgaged"] is False
        assert s["players"][0]["cash"] == cash + value - lift
        cash = cash + value - lift
    # no rent on a mortgaged deed
    g.cmd(type="mortgage", property="vermont-avenue")
    g.pass_to("p2")
    s = g.land("p2", 8)["state"]
    assert s["pending"]["rent_claims"] == []


def trade(frm, to, give=None, receive=None, unmortgage=()):
    empty = {"cash": 0, "properties": [], "jail_cards": []}
    return {"type": "trade", "from": frm, "to": to, "give": {**empty, **(give or {})},
            "receive": {**empty, **(receive or {})}, "unmortgage": list(unmortgage)}  # fmt: skip


@pytest.mark.parametrize(
    "edition, prop, lift, expected_bob",
    [
        ("g0009", "vermont-avenue", False, 1500 - 100),
        ("g0009", "vermont-avenue", True, 1500 - 100 - 55),
        ("classic", "vermont-avenue", False, 1500 - 100 - 5),
        ("classic", "electric-company", False, 1500 - 100 - 8),
        ("classic", "vermont-avenue", True, 1500 - 100 - 55),
    ],
)
def test_trade_mortgaged_deed(http, edition, prop, lift, expected_bob):
    g = Game(http, ("Ann", "Bob", "Cat"), edition=edition)
    g.start()
    g.own((prop, "p1"))
    g.cmd(type="mortgage", property=prop)
    ann = g.cash("p1")
    g.set_cash("p2", 1500)
    s = g.cmd(**trade("p1", "p2", give={"properties": [prop]}, receive={"cash": 100},
                      unmortgage=[prop] if lift else []))["state"]  # fmt: skip
    assert pick(s["properties"][prop], ("owner", "mortgaged")) == {
        "owner": "p2",
        "mortgaged": not lift,
    }
    assert s["players"][0]["cash"] == ann + 100
    assert s["players"][1]["cash"] == expected_bob


def test_trade_deeds_cash_and_jail_cards(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("vermont-avenue", "p1"), ("reading-railroad", "p2"))
    g.pass_to("p1")
    g.land("p1", 7)
    g.cmd(type="draw_card", deck="chance", card="get-out-of-jail-free")
    before = g.cashes()
    deal = trade(
        "p1", "p2",
        give={"properties": ["vermont-avenue"], "jail_cards": ["chance"]},
        receive={"cash": 30, "properties": ["reading-railroad"]},
    )  # fmt: skip
    s = g.cmd(**deal)["state"]
    assert s["properties"]["vermont-avenue"]["owner"] == "p2"
    assert s["properties"]["reading-railroad"]["owner"] == "p1"
    assert s["players"][0]["jail_cards"] == [] and s["players"][1]["jail_cards"] == ["chance"]
    assert s["players"][0]["cash"] == before["p1"] + 30
    assert s["players"][1]["cash"] == before["p2"] - 30
    # not owned any more / more cash than held
    g.refused(trade("p1", "p2", give={"properties": ["vermont-avenue"]}), 422)
    g.refused(trade("p1", "p3", give={"properties": ["reading-railroad"]},
                    receive={"cash": 1501}), 422)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# corrections
# ---------------------------------------------------------------------------------------------


def test_adjust_and_move(http):
    g = Game(http)
    g.start()
    s = g.adjust("p2", 125, "Bob was short-changed")["state"]
    assert s["players"][1]["cash"] == 1625
    s = g.adjust("p2", -1625, "Bob paid the rest")["state"]
    assert s["players"][1]["cash"] == 0
    g.refused({"type": "adjust", "player": "p2", "amount": -1, "reason": "more"}, 422)
    g.refused({"type": "adjust", "player": "p2", "amount": 5, "reason": ""}, (400, 422))
    s = g.move("p1", 39)["state"]
    assert s["players"][0]["position"] == 39 and s["players"][0]["cash"] == 1500
    assert s["pending"]["offer"] is None  # nothing resolved
    s = g.move("p1", 5)["state"]  # no GO money passing round
    assert s["players"][0]["position"] == 5 and s["players"][0]["cash"] == 1500
    s = g.move("p1", 30)["state"]  # the Go To Jail space is not resolved either
    assert s["players"][0]["in_jail"] is False and s["players"][0]["position"] == 30
    g.refused({"type": "move", "player": "p1", "position": 40}, (400, 422))


# ---------------------------------------------------------------------------------------------
# variations
# ---------------------------------------------------------------------------------------------


def test_partnerships(http):
    status, created, _ = http.request(
        "POST", f"{API}/games",
        {"edition": "g0009", "players": ["Ann", "Bob", "Cat", "Dan"], "options": {"teams": True}},
    )  # fmt: skip
    assert status == 201
    assert len(created["players"]) == 2
    assert [p["name"] for p in created["players"]] == ["Ann & Bob", "Cat & Dan"]
    s = created["state"]
    assert [(p["name"], p["members"], p["cash"]) for p in s["players"]] == [
        ("Ann & Bob", ["Ann", "Bob"], 1500),
        ("Cat & Dan", ["Cat", "Dan"], 1500),
    ]
    g = Game.__new__(Game)
    g.http, g.created, g.id, g.bt = http, created, created["game_id"], created["banker_token"]
    g.tokens = {p["id"]: p["token"] for p in created["players"]}
    t1, t2 = (p["id"] for p in s["players"])
    s = g.cmd(type="start", first=t1)["state"]
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Ann"}
    s = g.roll(t1, 2, 2)["state"]  # doubles: same partnership, same roller
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Ann"}
    s = g.roll(t1, 3, 3)["state"]  # 4 -> 10
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Ann"}
    s = g.roll(t1, 4, 6)["state"]  # 10 -> 20
    assert pick(s["turn"], ("player", "roller")) == {"player": t2, "roller": "Cat"}
    s = g.roll(t2, 4, 6)["state"]
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Bob"}
    s = g.roll(t1, 4, 6)["state"]  # 20 -> 30: Go To Jail
    assert pick(s["turn"], ("player", "roller")) == {"player": t2, "roller": "Dan"}
    assert s["players"][0]["in_jail"]
    s = g.roll(t2, 4, 6)["state"]
    assert pick(s["turn"], ("player", "roller")) == {"player": t1, "roller": "Ann"}
    # one shared token reads the game
    assert g.state(token=g.tokens[t1])["players"][0]["members"] == ["Ann", "Bob"]


def test_deadline_finishes_the_round_then_refuses_everything(http):
    g = Game(http, ("Ann", "Bob", "Cat"), options={"deadline": True})
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")  # Ann 1400 + Vermont 100
    s = g.cmd(type="call_time")["state"]
    assert s["pending"]["final_round"] is True and s["status"] == "playing"
    g.roll("p2", 1, 3)  # Income Tax: Bob 1300
    s = g.roll("p3", 3, 5)["state"]  # Vermont: claim open, nothing else pending
    # API (changed 2026-12-01): claims open when the final round ends stay claimable.
    assert s["status"] == "playing" and s["turn"]["player"] is None
    assert s["pending"]["final_round"] is True
    (claim,) = s["pending"]["rent_claims"]
    s = g.cmd(type="claim_rent", claim=claim["id"])["state"]
    assert s["status"] == "finished"
    assert s["pending"]["rent_claims"] == []
    assert s["scores"] == {"p1": 1506, "p2": 1300, "p3": 1494}
    assert s["winners"] == ["p1"]
    for command in (
        {"type": "roll", "player": "p1", "dice": [1, 2]},
        {"type": "adjust", "player": "p1", "amount": 5, "reason": "late"},
        {"type": "mortgage", "property": "vermont-avenue"},
        {"type": "move", "player": "p1", "position": 3},
        {"type": "undo"},
    ):
        g.refused(command, 422)


def test_deadline_waits_for_the_pending_offer(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.own(("st-charles-place", "p1"), ("states-avenue", "p1"), ("virginia-avenue", "p1"))
    g.pass_to("p1")
    g.cmd(type="build", property="st-charles-place")
    g.move("p1", 0)
    g.roll("p1", 4, 6)
    g.cmd(type="call_time")
    s = g.roll("p2", 3, 5)["state"]  # Bob: 10 -> 18 Tennessee, offer open
    assert s["status"] == "playing" and s["pending"]["offer"] is not None
    s = g.cmd(type="buy")["state"]
    assert s["status"] == "finished"
    ann = s["players"][0]["cash"]
    # streets at printed prices, the house at half its cost
    assert s["scores"] == {"p1": ann + 140 + 140 + 160 + 50, "p2": 1500 - 180 + 180}


def test_time_called_at_the_start_of_a_round_ends_at_once(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    g.cmd(type="mortgage", property="vermont-avenue")
    g.roll("p2", 4, 6)
    s = g.cmd(type="call_time")["state"]
    assert s["status"] == "finished"
    assert s["scores"] == {"p1": 1450 + 50, "p2": 1500}
    assert sorted(s["winners"]) == ["p1", "p2"]


# ---------------------------------------------------------------------------------------------
# snapshot, import, openapi
# ---------------------------------------------------------------------------------------------


def test_snapshot_and_import_round_trip(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    g.roll("p2", 3, 5)
    status, snap, ctype = g.get("/snapshot")
    assert status == 200 and isinstance(snap, dict)
    status, created, _ = http.request("POST", f"{API}/games/import", snap)
    assert status == 201, created
    assert set(created) >= {"game_id", "banker_token", "banker_url", "players", "state"}
    assert created["game_id"] != g.id
    assert created["banker_token"] != g.bt
    assert {p["token"] for p in created["players"]}.isdisjoint(g.tokens.values())
    assert [p["id"] for p in created["players"]] == ["p1", "p2", "p3"]
    old, new = g.state(), created["state"]
    assert new["game_id"] == created["game_id"]
    assert {**new, "game_id": None} == {**old, "game_id": None}
    # the old tokens do not open the new game; the new ones do, and play goes on
    status, _, _ = http.request("GET", f"{API}/games/{created['game_id']}", token=g.bt)
    assert status in (401, 403)
    h = Game.__new__(Game)
    h.http, h.id, h.bt = http, created["game_id"], created["banker_token"]
    h.tokens = {p["id"]: p["token"] for p in created["players"]}
    assert h.state(token=h.tokens["p2"]) == new
    (claim,) = new["pending"]["rent_claims"]
    h.cmd(token=h.tokens["p1"], type="claim_rent", claim=claim["id"])
    assert h.cashes() == {"p1": 1406, "p2": 1494, "p3": 1500}
    assert g.cashes() == {"p1": 1400, "p2": 1500, "p3": 1500}  # the original is untouched


def test_damaged_snapshot_is_refused(http):
    g = Game(http)
    g.start()
    status, snap, _ = g.get("/snapshot")
    for bad in ({}, {"what": "not a snapshot"}, [1, 2, 3]):
        status, body, _ = http.request("POST", f"{API}/games/import", bad)
        assert status in (400, 422), (bad, status)
        assert_error_body(body)


def test_openapi_document(http):
    status, doc, ctype = http.request("GET", f"{API}/openapi.json")
    assert status == 200 and "json" in ctype
    assert str(doc["openapi"]).startswith("3.")
    paths = set(doc["paths"])
    for p in ("/api/v1/games", "/api/v1/games/{id}", "/api/v1/games/{id}/commands",
              "/api/v1/games/{id}/events", "/api/v1/games/{id}/snapshot",
              "/api/v1/games/import", "/api/v1/openapi.json"):  # fmt: skip
        short = p.replace("/api/v1", "")
        assert (
            p in paths
            or short in paths
            or any(
                re.sub(r"\{[^}]+\}", "{}", q)
                in (re.sub(r"\{[^}]+\}", "{}", p), re.sub(r"\{[^}]+\}", "{}", short))
                for q in paths
            )
        ), (p, sorted(paths))


# ---------------------------------------------------------------------------------------------
# more of the rules: GO, cards, taxes, jail corners
# ---------------------------------------------------------------------------------------------


def test_landing_exactly_on_go_pays_200_once(http):
    g = Game(http)
    g.start()
    g.move("p1", 35)
    s = g.roll("p1", 2, 3)["state"]
    assert s["players"][0]["position"] == 0 and s["players"][0]["cash"] == 1700


def test_luxury_tax_free_parking_just_visiting(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.move("p1", 35)
    s = g.roll("p1", 1, 2)["state"]
    assert s["players"][0]["position"] == 38 and s["players"][0]["cash"] == 1400
    g.move("p2", 16)
    s = g.roll("p2", 1, 3)["state"]  # Free Parking: nothing
    assert s["players"][1]["cash"] == 1500 and s["pending"] == {**s["pending"], **PENDING_EMPTY}
    s = g.roll("p3", 4, 6)["state"]  # Just Visiting
    assert s["players"][2]["in_jail"] is False and s["players"][2]["position"] == 10


def test_doubles_onto_go_to_jail_end_the_turn(http):
    g = Game(http)
    g.start()
    g.move("p1", 26)
    s = g.roll("p1", 2, 2)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, True, 1500)
    assert s["turn"]["player"] == "p2" and s["turn"]["doubles"] == 0


def test_go_to_jail_card_after_doubles_ends_the_turn(http):
    g = Game(http)
    g.start()
    g.move("p1", 3)
    s = g.roll("p1", 2, 2)["state"]
    assert s["turn"]["player"] == "p1"  # doubles: Ann rolls again once the card is settled
    s = g.cmd(type="draw_card", deck="chance", card="go-to-jail")["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"]) == (10, True, 1500)
    assert s["turn"]["player"] == "p2"
    g.refused({"type": "roll", "player": "p1", "dice": [1, 2]}, 422)


@pytest.mark.parametrize(
    "start, deck, card, position, cash",
    [
        (36, "chance", "advance-to-illinois-avenue", 24, 1700),
        (7, "chance", "advance-to-illinois-avenue", 24, 1500),
        (22, "chance", "advance-to-st-charles-place", 11, 1700),
        (7, "chance", "advance-to-st-charles-place", 11, 1500),
        (36, "chance", "advance-to-boardwalk", 39, 1500),
        (7, "chance", "trip-to-reading-railroad", 5, 1700),
        (36, "chance", "advance-to-nearest-utility", 12, 1700),
        (22, "chance", "advance-to-nearest-utility", 28, 1500),
        (22, "chance", "advance-to-next-railroad", 25, 1500),
        (7, "chance", "bank-dividend-50", 7, 1550),
        (7, "chance", "speeding-fine-15", 7, 1485),
        (7, "chance", "building-loan-matures-150", 7, 1650),
        (33, "community_chest", "collect-200-storm-cleanup", 33, 1700),
        (33, "community_chest", "pay-100-car-wash", 33, 1400),
        (33, "community_chest", "pay-50-animal-shelter", 33, 1450),
        (33, "community_chest", "collect-25-bake-sale", 33, 1525),
        (33, "community_chest", "advance-to-go", 0, 1700),
    ],
)
def test_card_moves_and_money(http, start, deck, card, position, cash):
    g = Game(http)
    g.start()
    g.land("p1", start)
    s = g.cmd(type="draw_card", deck=deck, card=card)["state"]
    p = s["players"][0]
    assert (p["position"], p["cash"], p["in_jail"]) == (position, cash, False)
    if position in INDEX.values():
        prop = BOARD_ORDER[list(INDEX.values()).index(position)]
        assert pick(s["pending"]["offer"], OFFER) == {
            "player": "p1",
            "property": prop,
            "price": DEEDS[prop]["price"],
        }
    else:
        assert s["pending"]["offer"] is None


def test_go_to_jail_card_pays_no_go(http):
    g = Game(http)
    g.start()
    g.land("p1", 36)
    s = g.cmd(type="draw_card", deck="chance", card="go-to-jail")["state"]
    p = s["players"][0]
    assert (p["position"], p["cash"], p["in_jail"]) == (10, 1500, True)


def test_repairs_cards_count_houses_and_hotels(http):
    g = Game(http)
    g.start()
    g.own(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    for _ in range(4):
        g.cmd(type="build", property="mediterranean-avenue")
        g.cmd(type="build", property="baltic-avenue")
    g.cmd(type="build", property="mediterranean-avenue")  # hotel, Baltic 4 houses
    g.pass_to("p1")
    cash = g.cash("p1")
    g.land("p1", 7)
    s = g.cmd(type="draw_card", deck="chance", card="general-repairs")["state"]
    assert s["players"][0]["cash"] == cash - (4 * 25 + 100)
    g.pass_to("p1")
    g.land("p1", 17)
    s = g.cmd(type="draw_card", deck="community_chest", card="street-repairs")["state"]
    assert s["players"][0]["cash"] == cash - (4 * 25 + 100) - (4 * 40 + 115)


def test_jail_fine_then_doubles_roll_again(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.cmd(type="pay_jail_fine", player="p1")
    s = g.roll("p1", 2, 2)["state"]
    assert s["players"][0]["position"] == 14 and s["turn"]["player"] == "p1"
    assert s["players"][0]["cash"] == 1450


def test_jail_third_attempt_doubles_is_free(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    for _ in range(2):
        g.roll("p1", 1, 2)
        g.pass_to("p1")
    s = g.roll("p1", 3, 3)["state"]
    p = s["players"][0]
    assert (p["position"], p["in_jail"], p["cash"], p["jail_attempts"]) == (16, False, 1500, 0)
    assert s["turn"]["player"] == "p2"


def test_jail_fine_and_card_only_at_the_start_of_the_jailed_players_turn(http):
    g = Game(http)
    g.start()
    jail_ann(g)
    g.refused({"type": "use_jail_card", "player": "p1", "deck": "chance"}, 422)  # no card
    g.roll("p1", 1, 2)  # attempt 1: Bob's turn now
    g.refused({"type": "pay_jail_fine", "player": "p1"}, 422)
    g.refused({"type": "pay_jail_fine", "player": "p2"}, 422)  # Bob is not in jail


# ---------------------------------------------------------------------------------------------
# more rent
# ---------------------------------------------------------------------------------------------


def test_rent_with_mortgaged_members_of_the_group_g0009(http):
    g = Game(http)
    g.start()
    g.own(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"), ("reading-railroad", "p1"),
          ("pennsylvania-railroad", "p1"), ("electric-company", "p1"),
          ("water-works", "p1"))  # fmt: skip
    for prop in ("mediterranean-avenue", "reading-railroad", "electric-company"):
        g.cmd(type="mortgage", property=prop)
    g.pass_to("p2")
    s = g.land("p2", 3)["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [8]
    g.pass_to("p2")
    s = g.land("p2", 15)["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [50]
    g.pass_to("p2")
    s = g.land("p2", 28)["state"]
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 10,
    }
    g.cmd(type="rent_roll", dice=[6, 5])
    assert [c["amount"] for c in g.pending()["rent_claims"]] == [110]
    g.pass_to("p2")
    s = g.land("p2", 1)["state"]  # mortgaged: no rent
    assert s["pending"]["rent_claims"] == [] and s["pending"]["dice"] is None


def test_no_rent_on_your_own_deed(http):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    g.roll("p2", 4, 6)
    g.move("p1", 4)
    s = g.roll("p1", 2, 2)["state"]
    assert s["pending"]["rent_claims"] == [] and s["pending"]["offer"] is None


def test_claim_ids_are_unique_even_after_undo(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    (first,) = g.roll("p2", 3, 5)["state"]["pending"]["rent_claims"]
    s = g.cmd(type="undo")["state"]
    assert s["pending"]["rent_claims"] == [] and s["players"][1]["position"] == 0
    (second,) = g.roll("p2", 3, 5)["state"]["pending"]["rent_claims"]
    assert isinstance(second["id"], str) and second["id"] != first["id"]
    g.cmd(type="claim_rent", claim=second["id"])
    assert g.cash("p2") == 1494


def test_undone_roll_events_are_marked(http):
    g = Game(http)
    g.start()
    rolled = g.roll("p1", 3, 5)
    g.cmd(type="undo")
    texts = {e["text"] for e in rolled["events"]}
    evs = g.events()
    marked = [e for e in evs if e["text"] in texts]
    assert marked and all(e.get("undone") is True for e in marked)
    assert evs[0].get("undone", False) is False  # the start stays
    assert evs[-1]["text"].startswith("Undid: ") and evs[-1].get("undone", False) is False


# ---------------------------------------------------------------------------------------------
# more buildings, mortgages, trades, bankruptcy
# ---------------------------------------------------------------------------------------------


def test_building_refusals(http):
    g = Game(http)
    g.start()
    g.own(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"), ("reading-railroad", "p1"))
    g.refused({"type": "build", "property": "reading-railroad"}, 422)
    g.refused({"type": "sell_building", "property": "baltic-avenue"}, 422)  # nothing to sell
    g.cmd(type="mortgage", property="baltic-avenue")
    g.refused({"type": "build", "property": "mediterranean-avenue"}, 422)  # set has a mortgage
    g.cmd(type="unmortgage", property="baltic-avenue")
    g.set_cash("p1", 49)
    g.refused({"type": "build", "property": "mediterranean-avenue"}, 422)  # house costs 50
    g.cmd(type="mortgage", property="baltic-avenue")
    g.set_cash("p1", 32)
    g.refused({"type": "unmortgage", "property": "baltic-avenue"}, 422)  # costs 33


def test_hotel_shortage_ruling_three_street_set(http):
    g = shortage_game(http)
    g.cmd(type="build", property="oriental-avenue")  # hotel: 4 houses back
    g.cmd(type="build", property="tennessee-avenue")
    g.cmd(type="build", property="new-york-avenue")
    assert g.state()["bank"] == {"houses": 3, "hotels": 9}
    cash = g.cash("p1")
    s = g.cmd(type="sell_building", property="oriental-avenue")["state"]
    props = s["properties"]
    assert [pick(props[p], ("houses", "hotel")) for p in
            ("oriental-avenue", "vermont-avenue", "connecticut-avenue")] == [
        {"houses": 0, "hotel": False}, {"houses": 1, "hotel": False},
        {"houses": 1, "hotel": False},
    ]  # fmt: skip
    assert s["bank"] == {"houses": 3 + 6, "hotels": 10}
    assert s["players"][0]["cash"] == cash + 125 + 75 + 75


def test_trade_refusals(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("vermont-avenue", "p1"))
    g.refused(trade("p1", "p2", give={"cash": 10}), 422)  # cash alone: a gift
    g.refused(trade("p1", "p2", give={"jail_cards": ["chance"]}, receive={"cash": 5}), 422)
    g.refused(trade("p1", "p1", give={"properties": ["vermont-avenue"]}), (400, 422))
    g.refused(trade("p2", "p1", receive={"properties": ["vermont-avenue"]},
                    give={"cash": 1501}), 422)  # fmt: skip


def test_bankrupt_sells_buildings_and_mortgages_for_the_creditor(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("park-place", "p1"), ("boardwalk", "p1"), ("mediterranean-avenue", "p2"),
          ("baltic-avenue", "p2"))  # fmt: skip
    for prop in ("park-place", "boardwalk", "mediterranean-avenue", "baltic-avenue"):
        g.cmd(type="build", property=prop)
    assert g.state()["bank"]["houses"] == 28
    g.pass_to("p2")
    g.set_cash("p2", 10)
    (claim,) = g.land("p2", 39)["state"]["pending"]["rent_claims"]
    ann = g.cash("p1")
    s = g.cmd(type="claim_rent", claim=claim["id"])["state"]
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 200, "can_raise": 25 * 2 + 60}
    s = g.cmd(type="bankrupt", player="p2")["state"]
    assert s["players"][0]["cash"] == ann + 10 + 50 + 60
    assert s["bank"]["houses"] == 30
    for prop in ("mediterranean-avenue", "baltic-avenue"):
        assert pick(s["properties"][prop], ("owner", "mortgaged", "houses", "hotel")) == {
            "owner": "p1",
            "mortgaged": True,
            "houses": 0,
            "hotel": False,
        }


def test_bankrupt_to_the_bank_returns_jail_cards_to_their_deck(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.pass_to("p2")
    g.land("p2", 7)
    g.cmd(type="draw_card", deck="chance", card="get-out-of-jail-free")
    g.pass_to("p2")
    g.set_cash("p2", 10)
    s = g.land("p2", 4)["state"]
    assert debt(s) == {"debtor": "p2", "creditor": None, "amount": 200, "can_raise": 0}
    g.refused({"type": "bankrupt", "player": "p1"}, (400, 422))  # not the debtor
    s = g.cmd(type="bankrupt", player="p2")["state"]
    assert s["players"][1]["jail_cards"] == [] and s["players"][1]["eliminated"]
    assert s["turn"]["player"] == "p3"
    g.pass_to("p1")
    g.land("p1", 7)
    s = g.cmd(type="draw_card", deck="chance", card="get-out-of-jail-free")["state"]
    assert s["players"][0]["jail_cards"] == ["chance"]
    # an eliminated player's turn is skipped
    assert s["turn"]["player"] == "p3"
    s = g.roll("p3", 4, 6)["state"]
    assert s["turn"]["player"] == "p1"


def test_bankrupt_without_a_debt_is_refused(http):
    g = Game(http)
    g.start()
    g.refused({"type": "bankrupt", "player": "p1"}, 422)


# ---------------------------------------------------------------------------------------------
# more deadline
# ---------------------------------------------------------------------------------------------


def test_deadline_lets_the_last_doubles_sequence_finish(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.roll("p1", 4, 6)
    g.cmd(type="call_time")
    s = g.roll("p2", 2, 2)["state"]  # Income Tax, doubles: Bob rolls on
    assert s["status"] == "playing" and s["turn"]["player"] == "p2"
    s = g.roll("p2", 3, 3)["state"]
    assert s["status"] == "playing"
    s = g.roll("p2", 4, 6)["state"]
    assert s["status"] == "finished"
    assert s["scores"] == {"p1": 1500, "p2": 1300} and s["winners"] == ["p1"]


def test_deadline_scores_a_hotel_with_its_four_houses(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.own(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    for _ in range(4):
        g.cmd(type="build", property="mediterranean-avenue")
        g.cmd(type="build", property="baltic-avenue")
    g.cmd(type="build", property="mediterranean-avenue")
    g.pass_to("p1")
    ann, bob = g.cash("p1"), g.cash("p2")
    s = g.cmd(type="call_time")["state"]
    assert s["status"] == "finished"
    assert s["scores"] == {"p1": ann + 60 + 60 + (50 + 4 * 50) // 2 + 4 * 50 // 2, "p2": bob}


def test_tampered_snapshot_is_refused(http):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    status, snap, _ = g.get("/snapshot")
    assert status == 200
    text = json.dumps(snap)
    assert '"cash": 1400' in text
    bad = json.loads(text.replace('"cash": 1400', '"cash": 1900'))
    status, body, _ = http.request("POST", f"{API}/games/import", bad)
    assert status in (400, 422), (status, body)
    assert_error_body(body)


# ---------------------------------------------------------------------------------------------
# more: idempotency, payments, partnerships, imports, seating
# ---------------------------------------------------------------------------------------------


def test_idempotent_replay_after_later_commands_returns_the_old_answer(http):
    g = Game(http)
    g.start()
    first = g.cmd(headers={"Idempotency-Key": "roll-1"}, type="roll", player="p1", dice=[3, 5])
    g.cmd(type="buy")
    g.roll("p2", 4, 6)
    now = g.state()
    status, again = g.send({"type": "roll", "player": "p1", "dice": [3, 5]},
                           headers={"Idempotency-Key": "roll-1"})  # fmt: skip
    assert status == 200 and again == first
    assert g.state() == now


def test_payments_after_a_settled_debt_can_make_a_new_debt(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"))
    g.start("p3")
    g.set_cash("p3", 70)
    g.land("p3", 7)
    g.cmd(type="draw_card", deck="chance", card="chairperson-pay-each-player-50")
    g.adjust("p3", 60)  # 80: pays Ann, then cannot pay Bob
    s = g.cmd(type="pay_debt")["state"]
    assert [p["cash"] for p in s["players"]] == [1550, 1500, 30, 1550]
    assert debt(s) == {"debtor": "p3", "creditor": "p2", "amount": 50, "can_raise": 0}
    assert s["pending"]["payments"] == []
    s = g.cmd(type="bankrupt", player="p3")["state"]
    assert [p["cash"] for p in s["players"]] == [1550, 1530, 0, 1550]
    assert s["players"][2]["eliminated"] and s["pending"]["debt"] is None


def test_classic_bankruptcy_fee_the_creditor_cannot_pay_is_a_debt(http):
    g = Game(http, ("Ann", "Bob", "Cat"), edition="classic")
    g.start()
    g.own(("boardwalk", "p1"), ("reading-railroad", "p2"))
    g.cmd(type="mortgage", property="reading-railroad")
    g.pass_to("p2")
    g.set_cash("p1", 0)
    g.set_cash("p2", 5)
    (claim,) = g.land("p2", 39)["state"]["pending"]["rent_claims"]
    assert claim["amount"] == 50
    s = g.cmd(type="claim_rent", claim=claim["id"])["state"]
    assert debt(s) == {"debtor": "p2", "creditor": "p1", "amount": 50, "can_raise": 0}
    s = g.cmd(type="bankrupt", player="p2")["state"]
    assert pick(s["properties"]["reading-railroad"], ("owner", "mortgaged")) == {
        "owner": "p1",
        "mortgaged": True,
    }
    assert s["players"][0]["cash"] == 5
    assert debt(s) == {"debtor": "p1", "creditor": None, "amount": 10, "can_raise": 200}
    g.cmd(type="mortgage", property="boardwalk")
    s = g.cmd(type="pay_debt")["state"]
    assert s["players"][0]["cash"] == 195 and s["pending"]["debt"] is None


def test_hotel_building_auction(http):
    g = Game(http)
    g.start()
    g.own(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    for _ in range(4):
        g.cmd(type="build", property="mediterranean-avenue")
        g.cmd(type="build", property="baltic-avenue")
    cash = g.cash("p1")
    s = g.cmd(type="building_auction", kind="hotel")["state"]
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "hotel",
        "high_bid": 0,
        "high_bidder": None,
    }
    g.refused({"type": "bid", "player": "p2", "amount": 10}, 422)
    g.cmd(type="bid", player="p1", amount=10)
    s = g.cmd(type="close_auction", property="mediterranean-avenue")["state"]
    assert pick(s["properties"]["mediterranean-avenue"], ("houses", "hotel")) == {
        "houses": 0,
        "hotel": True,
    }
    assert s["bank"] == {"houses": 28, "hotels": 11}
    assert s["players"][0]["cash"] == cash - 10


def test_a_jailed_player_bids_and_builds(http):
    g = Game(http)
    g.start()
    g.own(("mediterranean-avenue", "p1"), ("baltic-avenue", "p1"))
    g.pass_to("p1")
    jail_ann(g)
    g.roll("p1", 1, 2)  # attempt 1
    g.land("p2", 8)
    g.cmd(type="auction")
    g.cmd(type="bid", player="p1", amount=20)
    g.cmd(type="close_auction")
    g.cmd(type="build", property="baltic-avenue")
    s = g.state()
    assert s["properties"]["vermont-avenue"]["owner"] == "p1"
    assert s["properties"]["baltic-avenue"]["houses"] == 1
    assert s["players"][0]["in_jail"] is True
    # and collects rent
    g.roll("p1", 1, 2)  # attempt 2
    g.move("p2", 4)
    (claim,) = g.roll("p2", 2, 2)["state"]["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {
        "owner": "p1",
        "payer": "p2",
        "property": "vermont-avenue",
        "amount": 6,
    }
    ann = g.cash("p1")
    g.cmd(token=g.tokens["p1"], type="claim_rent", claim=claim["id"])
    assert g.cash("p1") == ann + 6


def test_partnership_token_claims_its_rent(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"), options={"teams": True})
    t1, t2 = g.tokens
    g.cmd(type="start", first=t1)
    g.roll(t1, 3, 5)
    g.cmd(type="buy")
    (claim,) = g.roll(t2, 3, 5)["state"]["pending"]["rent_claims"]
    assert pick(claim, CLAIM) == {"owner": t1, "payer": t2, "property": "vermont-avenue",
                                  "amount": 6}  # fmt: skip
    g.refused({"type": "claim_rent", "claim": claim["id"]}, 403, token=g.tokens[t2])
    g.cmd(token=g.tokens[t1], type="claim_rent", claim=claim["id"])
    assert g.cashes() == {t1: 1406, t2: 1494}


def test_deadline_when_the_first_player_is_eliminated(http):
    g = Game(http, ("Ann", "Bob", "Cat"), options={"deadline": True})
    g.start()
    g.set_cash("p1", 10)
    g.roll("p1", 1, 3)  # Income Tax: a debt Ann cannot raise
    g.cmd(type="bankrupt", player="p1")
    g.roll("p2", 1, 3)  # Bob 1300
    s = g.cmd(type="call_time")["state"]
    assert s["status"] == "playing"
    s = g.roll("p3", 4, 6)["state"]  # the turn would pass back to Bob, who now begins rounds
    assert s["status"] == "finished"
    assert s["scores"]["p2"] == 1300 and s["scores"]["p3"] == 1500
    assert s["winners"] == ["p3"]


def test_six_players_in_seating_order(http):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    g = Game(http, names)
    ids = [p["id"] for p in g.created["players"]]
    g.start(ids[4])
    order = []
    for _ in range(6):
        x = g.turn()
        order.append(x)
        g.move(x, 0)
        g.roll(x, 4, 6)
    assert order == ids[4:] + ids[:4]
    assert g.state()["turn"]["roller"] == "Eve"


def test_import_twice_and_a_finished_game(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.roll("p1", 4, 6)
    g.roll("p2", 4, 6)
    g.cmd(type="call_time")
    status, snap, _ = g.get("/snapshot")
    ids = set()
    for _ in range(2):
        status, created, _ = http.request("POST", f"{API}/games/import", snap)
        assert status == 201
        ids.add(created["game_id"])
        assert created["state"]["status"] == "finished"
        h = Game.__new__(Game)
        h.http, h.id, h.bt = http, created["game_id"], created["banker_token"]
        h.refused({"type": "roll", "player": "p1", "dice": [1, 2]}, 422)
    assert len(ids) == 2 and g.id not in ids


def test_openapi_document_is_valid(http):
    validator = pytest.importorskip("openapi_spec_validator")
    status, doc, _ = http.request("GET", f"{API}/openapi.json")
    assert status == 200
    validator.validate(doc)


# ---------------------------------------------------------------------------------------------
# more cards, auctions, snapshots
# ---------------------------------------------------------------------------------------------


def test_nearest_utility_card_classic_asks_a_fresh_roll_times_ten(http):
    g = Game(http, edition="classic")
    g.start()
    g.land("p1", 12)
    g.cmd(type="buy")
    g.land("p2", 7)
    s = g.cmd(type="draw_card", deck="chance", card="advance-to-nearest-utility")["state"]
    assert s["players"][1]["position"] == 12
    assert pick(s["pending"]["dice"], DICE) == {
        "player": "p2",
        "reason": "utility_rent",
        "multiplier": 10,
    }
    s = g.cmd(type="rent_roll", dice=[1, 1])["state"]
    assert [c["amount"] for c in s["pending"]["rent_claims"]] == [20]


def test_cards_onto_mortgaged_or_own_deeds_ask_no_rent(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("electric-company", "p1"), ("pennsylvania-railroad", "p1"))
    g.cmd(type="mortgage", property="electric-company")
    g.pass_to("p2")
    g.land("p2", 7)
    s = g.cmd(type="draw_card", deck="chance", card="advance-to-nearest-utility")["state"]
    assert s["players"][1]["position"] == 12
    assert s["pending"]["dice"] is None and s["pending"]["rent_claims"] == []
    g.pass_to("p1")
    g.land("p1", 7)
    s = g.cmd(type="draw_card", deck="chance", card="advance-to-next-railroad")["state"]
    assert s["players"][0]["position"] == 15
    assert s["pending"]["rent_claims"] == [] and s["pending"]["offer"] is None


def test_next_railroad_card_doubles_the_owners_count_rent(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("reading-railroad", "p1"), ("b-and-o-railroad", "p1"), ("short-line", "p1"))
    g.pass_to("p2")
    g.land("p2", 22)
    s = g.cmd(type="draw_card", deck="chance", card="advance-to-next-railroad")["state"]
    assert s["players"][1]["position"] == 25
    assert [pick(c, CLAIM) for c in s["pending"]["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "b-and-o-railroad", "amount": 200}
    ]


def test_card_to_an_owned_street_asks_its_rent(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("park-place", "p1"), ("boardwalk", "p1"))
    g.pass_to("p2")
    g.land("p2", 36)
    s = g.cmd(type="draw_card", deck="chance", card="advance-to-boardwalk")["state"]
    assert [pick(c, CLAIM) for c in s["pending"]["rent_claims"]] == [
        {"owner": "p1", "payer": "p2", "property": "boardwalk", "amount": 100}
    ]


def test_go_back_three_onto_community_chest_opens_another_card(http):
    g = Game(http)
    g.start()
    g.land("p1", 36)
    s = g.cmd(type="draw_card", deck="chance", card="go-back-three-spaces")["state"]
    assert s["players"][0]["position"] == 33
    assert pick(s["pending"]["card"], CARD) == {"player": "p1", "deck": "community_chest"}
    s = g.cmd(type="draw_card", deck="community_chest", card="collect-20-groceries")["state"]
    assert s["players"][0]["cash"] == 1520 and s["pending"]["card"] is None


def test_draw_card_without_a_card_pending_is_refused(http):
    g = Game(http)
    g.start()
    g.refused({"type": "draw_card", "deck": "chance", "card": "advance-to-go"}, 422)
    g.refused({"type": "rent_roll", "dice": [1, 2]}, 422)
    g.refused({"type": "bid", "player": "p1", "amount": 10}, 422)


def test_a_bidder_may_raise_their_own_bid(http):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="auction")
    g.cmd(type="bid", player="p2", amount=10)
    s = g.cmd(type="bid", player="p2", amount=11)["state"]
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "vermont-avenue",
        "high_bid": 11,
        "high_bidder": "p2",
    }
    s = g.cmd(type="close_auction")["state"]
    assert [p["cash"] for p in s["players"]] == [1500, 1489]


def test_building_auction_needs_a_building_in_the_bank(http):
    g = shortage_game(http)
    g.cmd(type="build", property="tennessee-avenue")
    g.refused({"type": "building_auction", "kind": "house"}, 422)
    g.refused({"type": "building_auction", "kind": "castle"}, 400)


@pytest.mark.parametrize(
    "damage",
    ["format", "players", "unknown-player", "dice", "version-type", "no-commands"],
)
def test_damaged_snapshots_are_refused(http, damage):
    g = Game(http)
    g.start()
    g.roll("p1", 3, 5)
    status, snap, _ = g.get("/snapshot")
    assert status == 200
    snap = json.loads(json.dumps(snap))
    if damage == "format":
        snap["format"] = "chess-pgn"
    elif damage == "players":
        snap["game"]["players"] = ["Ann"]
    elif damage == "unknown-player":
        snap["commands"][0]["command"]["first"] = "p9"
    elif damage == "dice":
        snap["commands"][1]["command"]["dice"] = [9, 9]
    elif damage == "version-type":
        snap["format_version"] = "one"
    elif damage == "no-commands":
        del snap["commands"]
    status, body, _ = http.request("POST", f"{API}/games/import", snap)
    assert status in (400, 422), (damage, status, body)
    assert_error_body(body)


def test_create_and_import_need_no_token_and_ignore_a_stray_one(http):
    status, created, _ = http.request(
        "POST", f"{API}/games", {"edition": "g0009", "players": ["Ann", "Bob"]}, token="stray"
    )
    assert status == 201, created


def test_undoing_a_roll_reopens_the_claims_it_lapsed(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    (claim,) = g.roll("p2", 3, 5)["state"]["pending"]["rent_claims"]
    assert g.roll("p3", 4, 6)["state"]["pending"]["rent_claims"] == []
    s = g.cmd(type="undo")["state"]
    assert s["pending"]["rent_claims"] == [claim]
    assert s["turn"]["player"] == "p3"


def test_buying_needs_the_cash(http):
    g = Game(http)
    g.start()
    g.set_cash("p1", 99)
    g.roll("p1", 3, 5)
    g.refused({"type": "buy"}, 422)
    g.cmd(type="auction")
    g.cmd(type="bid", player="p1", amount=99)
    g.refused({"type": "bid", "player": "p1", "amount": 100}, 422)
    s = g.cmd(type="close_auction")["state"]
    assert s["players"][0]["cash"] == 0 and s["properties"]["vermont-avenue"]["owner"] == "p1"


def test_trade_unmortgage_must_name_a_received_mortgaged_deed(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("vermont-avenue", "p1"), ("oriental-avenue", "p1"))
    g.cmd(type="mortgage", property="oriental-avenue")
    g.refused(trade("p1", "p2", give={"properties": ["vermont-avenue"]},
                    receive={"cash": 10}, unmortgage=["vermont-avenue"]), (400, 422))  # fmt: skip
    g.refused(trade("p1", "p2", give={"properties": ["vermont-avenue"]},
                    receive={"cash": 10}, unmortgage=["oriental-avenue"]), (400, 422))  # fmt: skip
    # the receiver lifts at once: 55 for Oriental Avenue
    bob = g.cash("p2")
    s = g.cmd(**trade("p2", "p1", receive={"properties": ["oriental-avenue"]},
                      give={"cash": 20}, unmortgage=["oriental-avenue"]))["state"]  # fmt: skip
    assert pick(s["properties"]["oriental-avenue"], ("owner", "mortgaged")) == {
        "owner": "p2",
        "mortgaged": False,
    }
    assert s["players"][1]["cash"] == bob - 20 - 55


def test_state_echoes_the_options(http):
    g = Game(http, ("Ann", "Bob", "Cat", "Dan"),
             options={"deadline": True, "auction_all": True, "teams": True})  # fmt: skip
    opts = g.state()["options"]
    assert pick(opts, ("deadline", "auction_all", "teams", "hotel_shortage_ruling")) == {
        "deadline": True,
        "auction_all": True,
        "teams": True,
        "hotel_shortage_ruling": True,
    }
    opts = Game(http, edition="classic").state()["options"]
    assert pick(opts, ("deadline", "auction_all", "teams")) == {
        "deadline": False,
        "auction_all": False,
        "teams": False,
    }


def test_serve_defaults_banker_db_and_a_url_for_the_phone(tmp_path):
    """`banker serve` without --host/--db: BANKER_DB sets the file; the URL printed is one a
    phone can open (not 0.0.0.0)."""
    import os
    import subprocess
    import sys
    import time

    from .conftest import REPO, Http

    db = tmp_path / "env.db"
    log = tmp_path / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1", "BANKER_DB": str(db)}
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "banker", "serve", "--port", "0"],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=tmp_path,
        )  # fmt: skip
    try:
        found = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None:
            found = re.search(r"(https?)://([^/:\s]+):(\d+)/", log.read_text())
            if found:
                break
            time.sleep(0.05)
        assert found, log.read_text()
        assert found.group(2) != "0.0.0.0", log.read_text()
        http = Http(int(found.group(3)))
        status, created, _ = http.request(
            "POST", f"{API}/games", {"edition": "g0009", "players": ["Ann", "Bob"]}
        )
        assert status == 201
        assert db.exists()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def test_time_called_during_the_first_players_doubles_waits_for_the_round(http):
    g = Game(http, options={"deadline": True})
    g.start()
    g.roll("p1", 2, 2)  # Income Tax, doubles: Ann's turn goes on
    s = g.cmd(type="call_time")["state"]
    assert s["status"] == "playing" and s["pending"]["final_round"] is True
    g.refused({"type": "call_time"}, 422)  # called already
    g.roll("p1", 3, 3)
    s = g.roll("p1", 4, 6)["state"]
    assert s["status"] == "playing" and s["turn"]["player"] == "p2"
    s = g.roll("p2", 4, 6)["state"]
    assert s["status"] == "finished"
    assert s["scores"] == {"p1": 1300, "p2": 1500} and s["winners"] == ["p2"]


def test_owner_token_on_its_lapsed_or_paid_claim_is_422_not_403(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.roll("p1", 3, 5)
    g.cmd(type="buy")
    (lapsed,) = g.roll("p2", 3, 5)["state"]["pending"]["rent_claims"]
    g.roll("p3", 4, 6)
    g.refused({"type": "claim_rent", "claim": lapsed["id"]}, 422, token=g.tokens["p1"])
    g.move("p1", 0)
    g.roll("p1", 4, 6)
    g.move("p2", 4)
    (paid,) = g.roll("p2", 2, 2)["state"]["pending"]["rent_claims"]
    g.cmd(token=g.tokens["p1"], type="claim_rent", claim=paid["id"])
    g.refused({"type": "claim_rent", "claim": paid["id"]}, 422, token=g.tokens["p1"])


def test_concurrent_commands_with_one_expected_version_apply_once(http):
    import threading

    g = Game(http)
    g.start()
    statuses = []

    def send(i):
        status, _ = g.send(
            {"type": "adjust", "player": "p1", "amount": 1, "reason": f"r{i}",
             "expected_version": 1}
        )  # fmt: skip
        statuses.append(status)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 7
    s = g.state()
    assert s["version"] == 2 and s["players"][0]["cash"] == 1501


def test_concurrent_repeats_of_one_idempotency_key_apply_once(http):
    import threading

    g = Game(http)
    g.start()
    answers = []

    def send():
        answers.append(
            g.send(
                {"type": "adjust", "player": "p1", "amount": 1, "reason": "tip"},
                headers={"Idempotency-Key": "tip-1"},
            )
        )

    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(status == 200 for status, _ in answers), answers
    assert all(body == answers[0][1] for _, body in answers)
    s = g.state()
    assert s["version"] == 2 and s["players"][0]["cash"] == 1501


def test_bankrupt_to_the_bank_sells_buildings_and_auctions_bare_deeds(http):
    g = Game(http, ("Ann", "Bob", "Cat"))
    g.start()
    g.own(("mediterranean-avenue", "p2"), ("baltic-avenue", "p2"))
    g.cmd(type="build", property="mediterranean-avenue")
    g.cmd(type="build", property="baltic-avenue")
    g.pass_to("p2")
    g.set_cash("p2", 0)
    s = g.land("p2", 4)["state"]
    assert debt(s) == {"debtor": "p2", "creditor": None, "amount": 200, "can_raise": 25 * 2 + 60}
    s = g.cmd(type="bankrupt", player="p2")["state"]
    assert s["bank"] == {"houses": 32, "hotels": 12}
    for prop in ("mediterranean-avenue", "baltic-avenue"):
        assert pick(s["properties"][prop], ("owner", "mortgaged", "houses", "hotel")) == {
            "owner": None,
            "mortgaged": False,
            "houses": 0,
            "hotel": False,
        }
    assert pick(s["pending"]["auction"], AUCTION) == {
        "item": "mediterranean-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    assert s["pending"]["auction_queue"] == ["baltic-avenue"]


def test_zz_event_texts_are_sentences():
    """Runs last (file order): every event text seen is a sentence (docs/api.md, Precise points)."""
    if not EVENT_TEXTS:
        pytest.skip("run with the rest of the suite")
    odd = sorted({t for t in EVENT_TEXTS if not re.match(r"^\S.*[.!?]$", t, re.S)})
    assert not odd, odd
    Path("/tmp/acceptance_event_texts.txt").write_text("\n".join(sorted(set(EVENT_TEXTS))))
