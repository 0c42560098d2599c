"""A table that never tires: picks the next legal command from a game's public state.

Deterministic (a seeded random.Random); used by the benchmarks to play long games.
"""

from __future__ import annotations

import random

from banker.rules.board import CARDS, DEEDS, GROUPS

SAFE_CARDS = {
    "chance": [
        "bank-dividend-50",
        "speeding-fine-15",
        "advance-to-go",
        "go-back-three-spaces",
        "advance-to-next-railroad",
        "building-loan-matures-150",
    ],
    "community_chest": [
        "collect-200-storm-cleanup",
        "pay-50-bake-sale-cookies",
        "collect-10-from-each-player",
        "collect-20-groceries",
        "collect-100-elderly-neighbor",
    ],
}
assert all(c in CARDS[d] for d, cards in SAFE_CARDS.items() for c in cards)


class Bot:
    """Chooses commands that keep a game going for as long as you like."""

    def __init__(self, seed: int = 1):
        self.rng = random.Random(seed)

    def next_command(self, state: dict) -> dict:
        """The next command to send; it keeps every player solvent with Banker corrections."""
        pending = state["pending"]
        players = {p["id"]: p for p in state["players"]}
        if state["status"] == "setup":
            return {"type": "start", "first": state["players"][0]["id"]}
        if pending["debt"]:
            d = pending["debt"]
            return (
                {
                    "type": "adjust",
                    "player": d["debtor"],
                    "amount": d["amount"] + 500,
                    "reason": "keep the benchmark game going",
                }
                if players[d["debtor"]]["cash"] < d["amount"]
                else {"type": "pay_debt"}
            )
        if pending["offer"]:
            o = pending["offer"]
            if players[o["player"]]["cash"] >= o["price"] and self.rng.random() < 0.8:
                return {"type": "buy"}
            return {"type": "auction"}
        if pending["auction"]:
            a = pending["auction"]
            if a["high_bidder"] is None:
                rich = max(players.values(), key=lambda p: p["cash"])
                if rich["cash"] >= 10 and a["item"] in DEEDS:
                    return {"type": "bid", "player": rich["id"], "amount": 10}
            return {"type": "close_auction"}
        if pending["card"]:
            deck = pending["card"]["deck"]
            return {"type": "draw_card", "deck": deck, "card": self.rng.choice(SAFE_CARDS[deck])}
        if pending["dice"]:
            return {"type": "rent_roll", "dice": self.dice()}
        if pending["rent_claims"]:
            return {"type": "claim_rent", "claim": pending["rent_claims"][0]["id"]}
        build = self.buildable(state)
        if build and self.rng.random() < 0.3:
            return {"type": "build", "property": build}
        poor = min(players.values(), key=lambda p: p["cash"])
        if poor["cash"] < 300:
            return {
                "type": "adjust",
                "player": poor["id"],
                "amount": 1000,
                "reason": "keep the benchmark game going",
            }
        pid = state["turn"]["player"]
        if players[pid]["in_jail"]:
            return {"type": "pay_jail_fine", "player": pid}
        return {"type": "roll", "player": pid, "dice": self.dice()}

    def dice(self) -> list[int]:
        return [self.rng.randint(1, 6), self.rng.randint(1, 6)]

    @staticmethod
    def buildable(state: dict) -> str | None:
        props = state["properties"]
        for group, ids in GROUPS.items():
            if group in ("railroad", "utility"):
                continue
            owners = {props[i]["owner"] for i in ids}
            if len(owners) != 1 or None in owners or any(props[i]["mortgaged"] for i in ids):
                continue
            levels = {i: 5 if props[i]["hotel"] else props[i]["houses"] for i in ids}
            low = min(levels.values())
            (owner,) = owners
            cash = next(p["cash"] for p in state["players"] if p["id"] == owner)
            if low < 4 and state["bank"]["houses"] > 0 and cash >= DEEDS[ids[0]].house_cost + 300:
                return next(i for i in ids if levels[i] == low)
        return None
