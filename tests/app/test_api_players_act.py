"""Players act for themselves through the API: every row of docs/api.md's "Who may send it".

Each row: allowed for the own player (200), 403 `banker_only` for another player's token (and
nothing changes), the rules' 422 where the rules forbid it, exactly as for the Banker.
Boards are arranged with the rules' test helpers and seated in the app's store.
"""

from __future__ import annotations

import copy

import pytest

from banker.rules.permissions import BANKER_ONLY, NOT_PLAYERS_ACT
from tests.core.helpers import started
from tests.game import Game
from tests.table_web import FlaskTable


@pytest.fixture
def seat(client, store):
    """seat(rules_game) -> an API Game in exactly that state (Ann p1, Bob p2, Cat p3)."""

    def make(g) -> Game:
        game_id = store.games.new_id()
        state = copy.deepcopy(g.state)
        state["game_id"] = game_id
        names = [p["name"] for p in state["players"]]
        created = store.add_game(game_id, state["edition"], names, None, state)
        return Game.of(FlaskTable(client), created)

    return make


def forbidden(g: Game, command: dict, token: str, sentence: str | None = None) -> None:
    """The command from this token is 403 banker_only and changes nothing."""
    error = g.refused(403, command, token=token, code="banker_only")
    assert error.message.endswith(".")
    if sentence:
        assert error.message == sentence


def refused(g: Game, command: dict, token: str, status: int = 422) -> dict:
    """The rules refuse the command from this token as they would the Banker's."""
    said = g.refused(status, command, token=token)
    banker = g.send(command)
    assert banker.status_code == status
    assert banker.get_json() == {"error": {"code": said.code, "message": said.message}}
    return banker.get_json()


def player_of(g: Game, pid: str) -> dict:
    return next(p for p in g.state["players"] if p["id"] == pid)


@pytest.fixture
def offered(seat):
    """Ann landed on Baltic Avenue: she may buy it for 60."""
    g = started()
    g.roll("p1", 1, 2)
    return seat(g)


def test_a_player_buys_their_own_offer(offered):
    ann, bob = offered.tokens["p1"], offered.tokens["p2"]
    forbidden(offered, {"type": "buy"}, bob)
    answer = offered.do({"type": "buy"}, token=ann)
    assert answer["state"]["properties"]["baltic-avenue"]["owner"] == "p1"
    assert player_of(offered, "p1")["cash"] == 1500 - 60
    forbidden(offered, {"type": "buy"}, ann)  # no offer open any more: nothing of Ann's


def test_a_player_sends_their_own_offer_to_auction_and_players_bid_for_themselves(offered):
    ann, bob, cat = (offered.tokens[p] for p in ("p1", "p2", "p3"))
    forbidden(offered, {"type": "auction"}, cat)
    offered.do({"type": "auction"}, token=ann)
    forbidden(offered, {"type": "bid", "player": "p3", "amount": 10}, bob)
    answer = offered.do({"type": "bid", "player": "p2", "amount": 10}, token=bob)
    assert answer["state"]["pending"]["auction"]["high_bid"] == 10
    assert answer["state"]["pending"]["auction"]["high_bidder"] == "p2"
    refused(offered, {"type": "bid", "player": "p3", "amount": 5}, cat)  # below the high bid
    forbidden(offered, {"type": "close_auction"}, bob, BANKER_ONLY["close_auction"])
    offered.do({"type": "close_auction"})
    assert offered.state["properties"]["baltic-avenue"]["owner"] == "p2"


@pytest.fixture
def jailed(seat):
    """Ann's turn, in jail, holding the Chance Get Out of Jail Free card."""
    g = started()
    g.place("p1", 10, in_jail=True, jail_cards=["chance"])
    return seat(g)


def test_a_player_pays_their_own_jail_fine(jailed):
    ann, bob = jailed.tokens["p1"], jailed.tokens["p2"]
    forbidden(jailed, {"type": "pay_jail_fine", "player": "p1"}, bob)
    refused(jailed, {"type": "pay_jail_fine", "player": "p2"}, bob)  # Bob is not in jail
    jailed.do({"type": "pay_jail_fine", "player": "p1"}, token=ann)
    me = player_of(jailed, "p1")
    assert (me["in_jail"], me["cash"]) == (False, 1450)


def test_a_player_uses_their_own_jail_card(jailed):
    ann, bob = jailed.tokens["p1"], jailed.tokens["p2"]
    forbidden(jailed, {"type": "use_jail_card", "player": "p1", "deck": "chance"}, bob)
    refused(jailed, {"type": "use_jail_card", "player": "p1", "deck": "community_chest"}, ann)
    jailed.do({"type": "use_jail_card", "player": "p1", "deck": "chance"}, token=ann)
    me = player_of(jailed, "p1")
    assert (me["in_jail"], me["jail_cards"], me["cash"]) == (False, [], 1500)


@pytest.fixture
def purples(seat):
    """Ann owns Mediterranean and Baltic Avenues, bare; Bob owns Reading Railroad."""
    g = started()
    g.own("p1", "mediterranean-avenue", "baltic-avenue")
    g.own("p2", "reading-railroad")
    return seat(g)


def test_a_player_builds_only_on_their_own_deeds(purples):
    ann, bob = purples.tokens["p1"], purples.tokens["p2"]
    build = {"type": "build", "property": "baltic-avenue"}
    forbidden(purples, build, bob)
    purples.do(build, token=ann)
    assert purples.state["properties"]["baltic-avenue"]["houses"] == 1
    assert player_of(purples, "p1")["cash"] == 1450
    refused(purples, build, ann)  # build evenly: Mediterranean first
    forbidden(purples, {"type": "build", "property": "reading-railroad"}, ann)
    forbidden(purples, {"type": "build", "property": "boardwalk"}, ann)  # the Bank's
    refused(purples, {"type": "build", "property": "nowhere"}, ann, status=400)


def test_a_player_sells_only_their_own_buildings(purples):
    ann, bob = purples.tokens["p1"], purples.tokens["p2"]
    sell = {"type": "sell_building", "property": "baltic-avenue"}
    refused(purples, sell, ann)  # nothing to sell yet
    purples.do({"type": "build", "property": "baltic-avenue"}, token=ann)
    forbidden(purples, sell, bob)
    purples.do(sell, token=ann)
    assert purples.state["properties"]["baltic-avenue"]["houses"] == 0
    assert player_of(purples, "p1")["cash"] == 1475


def test_a_player_mortgages_and_lifts_only_their_own_deeds(purples):
    ann, bob = purples.tokens["p1"], purples.tokens["p2"]
    mortgage = {"type": "mortgage", "property": "baltic-avenue"}
    lift = {"type": "unmortgage", "property": "baltic-avenue"}
    forbidden(purples, mortgage, bob)
    refused(purples, lift, ann)  # not mortgaged
    purples.do(mortgage, token=ann)
    assert player_of(purples, "p1")["cash"] == 1530
    refused(purples, mortgage, ann)  # already mortgaged
    forbidden(purples, lift, bob)
    purples.do(lift, token=ann)
    assert player_of(purples, "p1")["cash"] == 1497  # 30 and 10% interest
    forbidden(purples, {"type": "mortgage", "property": "reading-railroad"}, ann)
    purples.do({"type": "mortgage", "property": "reading-railroad"}, token=bob)


def test_a_player_pays_their_own_debt(seat):
    g = started()
    g.set_cash(p1=100)
    g.roll("p1", 1, 3)  # Income Tax, 200: Ann owes the Bank
    assert g.pending["debt"]["debtor"] == "p1"
    api = seat(g)
    ann, bob = api.tokens["p1"], api.tokens["p2"]
    forbidden(api, {"type": "pay_debt"}, bob)
    refused(api, {"type": "pay_debt"}, ann)  # not enough cash yet
    api.do({"type": "adjust", "player": "p1", "amount": 150, "reason": "found under the board"})
    api.do({"type": "pay_debt"}, token=ann)
    assert player_of(api, "p1")["cash"] == 50
    assert api.state["pending"]["debt"] is None


def test_a_player_claims_their_own_rent(seat):
    g = started()
    g.own("p1", "baltic-avenue")
    g.roll("p1", 4, 6)  # Just Visiting
    g.roll("p2", 1, 2)  # Bob lands on Ann's Baltic Avenue
    (claim,) = g.claims
    api = seat(g)
    command = {"type": "claim_rent", "claim": claim["id"]}
    forbidden(api, command, api.tokens["p3"])
    api.do(command, token=api.tokens["p1"])
    assert player_of(api, "p2")["cash"] == 1500 - 4
    refused(api, command, api.tokens["p1"])  # paid: no longer open


@pytest.mark.parametrize("kind", sorted(BANKER_ONLY))
def test_the_bankers_commands_are_refused_to_a_player_even_when_the_rules_allow_them(seat, kind):
    g = started()
    g.own("p1", "baltic-avenue")
    api = seat(g)
    command = {
        "start": {"type": "start", "first": "p1"},
        "roll": {"type": "roll", "player": "p1", "dice": [1, 2]},
        "draw_card": {"type": "draw_card", "deck": "chance", "card": "go-to-jail"},
        "rent_roll": {"type": "rent_roll", "dice": [1, 2]},
        "close_auction": {"type": "close_auction"},
        "building_auction": {"type": "building_auction", "kind": "house"},
        "trade": {
            "type": "trade",
            "from": "p1",
            "to": "p2",
            "give": {"cash": 0, "properties": ["baltic-avenue"], "jail_cards": []},
            "receive": {"cash": 100, "properties": [], "jail_cards": []},
            "unmortgage": [],
        },
        "bankrupt": {"type": "bankrupt", "player": "p1"},
        "adjust": {"type": "adjust", "player": "p1", "amount": 500, "reason": "please"},
        "move": {"type": "move", "player": "p1", "position": 39},
        "rename_player": {"type": "rename_player", "player": "p1", "name": "Annie"},
        "add_player": {"type": "add_player", "name": "Dan"},
        "leave": {"type": "leave", "player": "p1"},
    }.get(kind, {"type": kind})
    forbidden(api, command, api.tokens["p1"], BANKER_ONLY[kind])


def test_a_command_a_player_cannot_send_is_403_even_when_malformed(offered):
    forbidden(offered, {"type": "fly"}, offered.tokens["p1"])
    forbidden(offered, {"type": "roll"}, offered.tokens["p1"])


def test_a_malformed_player_command_is_the_rules_400(offered):
    ann = offered.tokens["p1"]
    offered.do({"type": "auction"})
    refused(offered, {"type": "bid", "player": "p1"}, ann, status=400)
    refused(offered, {"type": "bid", "player": "p1", "amount": "ten"}, ann, status=400)


def test_trade_offers_name_their_own_sides(seat):
    g = started()
    offer = {
        "id": "o1",
        "from": "p1",
        "to": "p2",
        "give": {"cash": 10, "properties": [], "jail_cards": []},
        "receive": {"cash": 0, "properties": [], "jail_cards": []},
        "unmortgage": [],
    }
    g.setup(lambda s: s["pending"].__setitem__("trade_offers", [offer]))
    api = seat(g)
    ann, bob, cat = (api.tokens[p] for p in ("p1", "p2", "p3"))
    proposal = {k: v for k, v in offer.items() if k != "id"}
    forbidden(api, {"type": "propose_trade", **proposal}, bob)
    forbidden(api, {"type": "accept_trade", "offer": "o1"}, ann)  # only its `to` accepts
    forbidden(api, {"type": "accept_trade", "offer": "o1"}, cat)
    forbidden(api, {"type": "decline_trade", "offer": "o1"}, cat)


def test_without_players_act_a_player_may_only_claim_rent(seat):
    g = started()
    g.setup(lambda s: s["options"].__setitem__("players_act", False))
    g.own("p1", "baltic-avenue")
    g.roll("p1", 4, 6)  # Just Visiting
    g.roll("p2", 1, 2)  # Bob owes Ann rent for Baltic Avenue
    api = seat(g)
    ann = api.tokens["p1"]
    forbidden(api, {"type": "mortgage", "property": "baltic-avenue"}, ann, NOT_PLAYERS_ACT)
    forbidden(api, {"type": "pay_jail_fine", "player": "p1"}, ann, NOT_PLAYERS_ACT)
    forbidden(api, {"type": "propose_trade", "from": "p1"}, ann, NOT_PLAYERS_ACT)
    api.do({"type": "claim_rent", "claim": g.claims[0]["id"]}, token=ann)
    assert player_of(api, "p1")["cash"] == 1500 + 4


def test_a_game_created_without_players_act_keeps_every_command_but_claims_the_bankers(new_game):
    g = new_game(["Ann", "Bob"], options={"players_act": False})
    assert g.state["options"]["players_act"] is False
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    forbidden(g, {"type": "buy"}, g.tokens["p1"], NOT_PLAYERS_ACT)
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})
    (claim,) = g.state["pending"]["rent_claims"]
    g.do({"type": "claim_rent", "claim": claim["id"]}, token=g.tokens["p1"])
    assert player_of(g, "p1")["cash"] == 1500 - 60 + 4
