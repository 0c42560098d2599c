"""Plausible commands a real table might record next, for the tests that play random games
(through Flask, a real server or the schema fuzzer)."""

from __future__ import annotations

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
    mover = next((p for p in alive if p["id"] == turn["player"]), None)
    if mover is None:  # the final round is over: only the claims waiting, or the score
        return {"type": "score_game"}
    if mover["in_jail"] and rng.random() < 0.3:
        return {"type": "pay_jail_fine", "player": mover["id"]}
    return {"type": "roll", "player": turn["player"], "dice": dice}


def accepted_changes(store, game_id: str, rng, tries: int):
    """Play plausible commands on a stored game while it is being played, up to `tries` of them;
    yields after each one the store accepted (a refused one is tried no further)."""
    from banker.rules import Refusal

    for _ in range(tries):
        state = store.state(game_id)
        if state["status"] != "playing":
            return
        try:
            store.execute(game_id, a_plausible_command(state, rng))
        except Refusal:
            continue
        yield


def played_on(state: dict, rng) -> dict:
    """The state after a plausible next command (the same state when the rules refuse it)."""
    from banker.rules import Refusal, apply

    try:
        return apply(state, a_plausible_command(state, rng))[0]
    except Refusal:
        return state
