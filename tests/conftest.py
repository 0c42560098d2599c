"""Fixtures for the store and API tests: an app on a temporary database, its test client, and
games played through it with `Game` (tests/game.py) on a `FlaskTable` (tests/table_web.py)."""

from __future__ import annotations

import pytest
from game import Game
from table_web import FlaskTable

from banker.web import create_app, get_store

CREATED_FIELDS = ["game_id", "banker_token", "banker_url", "display_url", "players", "state"]
"""The fields of a 201 answer to a new game or an import, in order."""


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "banker.db"


@pytest.fixture
def app(db_path):
    app = create_app({"TESTING": True, "DATABASE": str(db_path)})
    yield app
    app.extensions["banker.store"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def store(app):
    with app.app_context():
        yield get_store()


@pytest.fixture
def new_game(client):
    """Create a game through the API: new_game(["Ann", "Bob"], options={...}) -> Game, played
    through the Flask test client."""

    def make(players=("Ann", "Bob"), edition="g0009", options=None) -> Game:
        return Game(FlaskTable(client), players, edition, options)

    return make


@pytest.fixture
def game(new_game) -> Game:
    """Ann and Bob, started: Ann rolls first."""
    g = new_game()
    g.start("p1")
    return g


CARD_IDS = {
    "chance": [
        "advance-to-boardwalk", "advance-to-go", "advance-to-illinois-avenue",
        "advance-to-st-charles-place", "advance-to-next-railroad", "advance-to-nearest-utility",
        "bank-dividend-50", "get-out-of-jail-free", "go-back-three-spaces", "go-to-jail",
        "general-repairs", "speeding-fine-15", "trip-to-reading-railroad",
        "chairperson-pay-each-player-50", "building-loan-matures-150",
    ],
    "community_chest": [
        "advance-to-go", "collect-200-storm-cleanup", "pay-50-bake-sale-cookies",
        "collect-50-walking-path", "get-out-of-jail-free", "go-to-jail",
        "collect-100-school-playground", "collect-20-groceries", "collect-10-from-each-player",
        "collect-100-elderly-neighbor", "pay-100-car-wash", "pay-50-animal-shelter",
        "collect-25-bake-sale", "street-repairs", "collect-10-blood-drive",
        "collect-100-childrens-hospital",
    ],
}  # fmt: skip


def a_plausible_command(state: dict, rng) -> dict:
    """A command a real table might record next (the rules may still refuse it)."""
    pending, turn = state["pending"], state["turn"]
    alive = [p for p in state["players"] if not p["eliminated"]]
    owned = [d for d, st in state["properties"].items() if st["owner"] is not None]
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    if pending["debt"]:
        debt = pending["debt"]
        debtor = next(p for p in alive if p["id"] == debt["debtor"])
        if debtor["cash"] >= debt["amount"]:
            return {"type": "pay_debt"}
        mine = [
            d
            for d, st in state["properties"].items()
            if st["owner"] == debtor["id"] and not st["mortgaged"]
        ]
        if mine and rng.random() < 0.8:
            return {"type": "mortgage", "property": rng.choice(mine)}
        return {"type": "bankrupt", "player": debtor["id"]}
    if pending["offer"]:
        return {"type": rng.choice(["buy", "buy", "auction"])}
    if pending["auction"]:
        auction = pending["auction"]
        if auction["high_bidder"] is None or rng.random() < 0.6:
            amount = auction["high_bid"] + rng.randint(1, 60)
            return {"type": "bid", "player": rng.choice(alive)["id"], "amount": amount}
        return {"type": "close_auction"}
    if pending["card"]:
        deck = pending["card"]["deck"]
        return {"type": "draw_card", "deck": deck, "card": rng.choice(CARD_IDS[deck])}
    if pending["dice"]:
        return {"type": "rent_roll", "dice": dice}
    if pending["rent_claims"] and rng.random() < 0.7:
        return {"type": "claim_rent", "claim": pending["rent_claims"][0]["id"]}
    roll = rng.random()
    if owned and roll < 0.15:
        kind = rng.choice(["build", "build", "mortgage", "unmortgage", "sell_building"])
        return {"type": kind, "property": rng.choice(owned)}
    if roll < 0.18:
        return {"type": "undo"}
    mover = next(p for p in alive if p["id"] == turn["player"])
    if mover["in_jail"] and rng.random() < 0.3:
        return {"type": "pay_jail_fine", "player": mover["id"]}
    return {"type": "roll", "player": turn["player"], "dice": dice}


@pytest.fixture
def play():
    """play(game, rng, steps, check=None): post plausible commands; check(response) each one."""

    def run(game: Game, rng, steps: int, check=None) -> int:
        accepted = 0
        for _ in range(steps):
            state = game.state
            if state["status"] != "playing":
                break
            r = game.send(a_plausible_command(state, rng))
            assert r.status_code in (200, 422), r.get_json()
            if check:
                check(r)
            accepted += r.status_code == 200
        return accepted

    return run
