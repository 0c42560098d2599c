"""The API's permission check and the rules are what `rules.actions` says of each seat: every
target it refuses for a player's token or the display is refused through the API with the same
sentence (403 `banker_only` for a permission, else the rules' status), and one it allows for a
player's token is accepted from that token."""

from __future__ import annotations

import json

from banker.rules import actions, seat_refusal


def display_token(g) -> str:
    return g.created["display_url"].rpartition("/")[2]


def test_every_refused_target_is_refused_through_the_api_with_the_same_sentence(new_game, store):
    g = new_game(["Ann", "Bob", "Cat"], options={"private_cash": True})
    g.start("p1")
    g.deeds_by_rolls(("vermont-avenue", "p2"), ("baltic-avenue", "p3"))
    g.pass_to("p1")
    g.adjust_to("p1", 3)
    g.land("p1", 8)  # Bob's Vermont Avenue
    g.claim(token=g.tokens["p2"])  # Ann owes Bob 6
    g.do({"type": "propose_trade", "from": "p3", "to": "p2",
          "give": {"properties": ["baltic-avenue"]}, "receive": {"cash": 60}},
         token=g.tokens["p3"])  # fmt: skip
    state = store.state(g.id)
    tokens = {**g.tokens, "display": display_token(g)}
    tried = 0
    for seat, token in tokens.items():
        for kind, a in actions(state, seat).items():
            for t in a["targets"]:
                if t["allowed"]:
                    continue
                status = 403 if seat_refusal(state, seat, t["command"]) else (400, 422)
                said = g.refused(status, json.loads(json.dumps(t["command"])), token=token)
                assert said.message == t["why"], (seat, kind, t)
                tried += 1
    assert tried > 50


def test_what_actions_allows_a_player_is_accepted_from_their_token(new_game, store):
    g = new_game(["Ann", "Bob"])
    g.start("p1")
    g.deeds_by_rolls(("vermont-avenue", "p1"))
    allowed = [
        t["command"]
        for a in actions(store.state(g.id), "p1").values()
        for t in a["targets"]
        if t["allowed"]
    ]
    assert {c["type"] for c in allowed} == {"mortgage", "propose_trade"}
    for command in allowed:  # each from the same moment: the mortgage withdraws no offer here
        g.do(command, token=g.tokens["p1"])
