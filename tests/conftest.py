"""Fixtures for the store and API tests: an app on a temporary database and a small client."""

from __future__ import annotations

import pytest

from banker.web import create_app, get_store


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


class Game:
    """One created game, seen through the API: its tokens and shortcuts to its endpoints."""

    def __init__(self, client, created: dict):
        self.client = client
        self.created = created
        self.id = created["game_id"]
        self.banker_token = created["banker_token"]
        self.tokens = {p["id"]: p["token"] for p in created["players"]}

    def auth(self, token: str | None = None) -> dict:
        return {"Authorization": f"Bearer {token or self.banker_token}"}

    def post(self, command, token: str | None = None, headers: dict | None = None, **kw):
        """POST a command (a dict sent as JSON, or raw `data=`) with the banker token."""
        headers = {**self.auth(token), **(headers or {})}
        if "data" in kw:
            return self.client.post(f"/api/v1/games/{self.id}/commands", headers=headers, **kw)
        return self.client.post(f"/api/v1/games/{self.id}/commands", headers=headers, json=command)

    def ok(self, command, **kw) -> dict:
        """POST a command that must be accepted; its answer."""
        r = self.post(command, **kw)
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def state(self) -> dict:
        r = self.client.get(f"/api/v1/games/{self.id}", headers=self.auth())
        assert r.status_code == 200
        return r.get_json()

    def events(self) -> list[dict]:
        r = self.client.get(f"/api/v1/games/{self.id}/events", headers=self.auth())
        assert r.status_code == 200
        return r.get_json()

    def snapshot(self) -> tuple[dict, list[dict]]:
        """State and events, to compare before and after a refused request."""
        return self.state(), self.events()


@pytest.fixture
def new_game(client):
    """Create a game through the API: new_game(["Ann", "Bob"], options={...}) -> Game."""

    def make(players=("Ann", "Bob"), edition="g0009", **body) -> Game:
        r = client.post(
            "/api/v1/games", json={"edition": edition, "players": list(players), **body}
        )
        assert r.status_code == 201, r.get_json()
        return Game(client, r.get_json())

    return make


@pytest.fixture
def game(new_game) -> Game:
    """Ann and Bob, started: Ann rolls first."""
    g = new_game()
    g.ok({"type": "start", "first": "p1"})
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
            state = game.state()
            if state["status"] != "playing":
                break
            r = game.post(a_plausible_command(state, rng))
            assert r.status_code in (200, 422), r.get_json()
            if check:
                check(r)
            accepted += r.status_code == 200
        return accepted

    return run
