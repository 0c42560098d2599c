"""What may this seat do now (`rules.actions`): every button a page shows comes from it, active
only when the rules would accept it, and each refused one with its reason — the very sentence
`apply` (or the seat's permission) gives."""

from __future__ import annotations

import gc

from banker.rules import actions, allowed
from tests.table_core import CoreGame

LIGHT_BLUE = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")


def started(names=("Ann", "Bob", "Cy"), edition="g0009", options=None) -> CoreGame:
    g = CoreGame(names, edition, options)
    g.start("p1")
    return g


def target(said: dict, kind: str, **fields) -> dict:
    """The one target of `kind` whose command has these fields."""
    (t,) = [
        t for t in said[kind]["targets"] if all(t["command"].get(k) == v for k, v in fields.items())
    ]
    return t


def test_build_and_lift_are_refused_during_a_debt_with_its_reason():
    """Build and Lift stayed active during a debt, and were refused when tapped."""
    g = started()
    g.own("p2", *LIGHT_BLUE)
    g.own("p2", "reading-railroad", mortgaged=True)
    g.set_cash(p1=20)
    g.roll("p1", 1, 3)  # Income Tax: Ann owes the Bank 200
    debt = "Ann owes the Bank 200; settle that debt first (raise cash and pay it, or declare bankruptcy)."  # noqa: E501
    for seat in ("p2", "banker"):
        said = actions(g.state, seat)
        assert (said["build"]["allowed"], said["build"]["why"]) == (False, debt)
        assert (said["unmortgage"]["allowed"], said["unmortgage"]["why"]) == (False, debt)
        assert said["mortgage"]["allowed"] is True  # raising cash goes on, anyone's
    assert allowed(g.state, "p1", "pay_debt") == []
    assert target(actions(g.state, "p1"), "bankrupt")["why"] == (
        "Only the Banker records a bankruptcy."
    )


def test_after_the_cutoff_only_the_debtors_phone_may_sell_mortgage_or_trade():
    """Mortgage stayed active after the deadline's cutoff."""
    g = started(options={"deadline": True})
    g.own("p1", "vermont-avenue")
    g.own("p2", "reading-railroad")
    g.own("p3", "baltic-avenue")
    g.roll("p1", 4, 6)
    g.do(type="call_time")
    g.roll("p2", 4, 6)
    g.set_cash(p3=3)
    g.roll("p3", 3, 5)  # Vermont Avenue: the final round is over
    assert allowed(g.state, "p2", "mortgage") == []
    assert actions(g.state, "p2")["mortgage"]["why"].startswith("The final round is over")
    g.claim("c1")  # Cy owes Ann 6
    bob, cy = actions(g.state, "p2"), actions(g.state, "p3")
    assert bob["mortgage"]["why"] == (
        "The final round is over: only Cy, raising cash for the debt, may sell or mortgage "
        "after the cutoff, and only their own deeds."
    )
    assert allowed(g.state, "p3", "mortgage") == [{"type": "mortgage", "property": "baltic-avenue"}]
    assert [t["command"]["to"] for t in cy["propose_trade"]["targets"] if t["allowed"]] == [
        "p1",
        "p2",
    ]
    assert target(bob, "propose_trade", to="p3")["allowed"] is True  # a deal with the debtor
    assert target(bob, "propose_trade", to="p1")["allowed"] is False


def test_an_eliminated_player_and_a_finished_game_offer_no_trade():
    """ "Offer a trade" stayed on an eliminated player's page and after the game ended."""
    g = started()
    g.own("p1", "vermont-avenue")
    g.own("p3", "baltic-avenue")
    g.set_cash(p3=0)
    g.roll("p1", 4, 6)
    g.roll("p2", 4, 6)
    g.roll("p3", 1, 3)  # Income Tax
    g.do(type="bankrupt", player="p3")
    cy = actions(g.state, "p3")
    assert cy["propose_trade"]["allowed"] is False
    assert cy["propose_trade"]["why"] == "Cy is out of the game."
    g.do(type="stop")
    for seat in ("p1", "banker"):
        said = actions(g.state, seat)
        assert said["propose_trade"]["allowed"] is False
        assert said["propose_trade"]["why"].startswith("The game was stopped early")
    assert [k for k, a in actions(g.state, "banker").items() if a["allowed"]] == ["undo"]


def test_with_nothing_to_hand_over_a_trade_is_closed_because_cash_alone_cannot_change_hands():
    """G0009: "loans between players … are not allowed": before anyone owns a deed or a card,
    "Offer a trade" says so rather than "The trade exchanges nothing"."""
    g = started()
    for seat in ("p1", "banker"):
        said = actions(g.state, seat)["propose_trade"]
        assert said["allowed"] is False
        assert said["why"] == (
            "A trade must hand over a deed or a Get Out of Jail Free card: cash alone would be "
            "a loan or a gift, which the rules do not allow."
        )


def test_the_display_may_send_nothing():
    g = started()
    said = actions(g.state, "display")
    assert not any(a["allowed"] for a in said.values())
    assert {a["why"] for a in said.values()} == {
        "The display's token may only read the game; it cannot send anything."
    }


def test_a_bid_runs_from_the_next_legal_bid_to_the_bidders_cash():
    g = started()
    g.set_cash(p2=300)
    g.roll("p1", 1, 2)
    g.do(type="auction")
    g.do(type="bid", player="p3", amount=40)
    bob = target(actions(g.state, "p2"), "bid")
    assert bob["command"] == {"type": "bid", "player": "p2", "amount": 41}
    assert (bob["allowed"], bob["free"]) == (True, {"amount": {"min": 41, "max": 300}})
    assert [t["command"]["player"] for t in actions(g.state, "banker")["bid"]["targets"]] == [
        "p1",
        "p2",
        "p3",
    ]


def test_a_player_sees_which_of_their_deeds_they_may_build_sell_mortgage_or_lift():
    g = started()
    g.own("p1", *LIGHT_BLUE)
    g.own("p1", "reading-railroad", mortgaged=True)
    ann = actions(g.state, "p1")
    assert [t["command"]["property"] for t in ann["build"]["targets"] if t["allowed"]] == list(
        LIGHT_BLUE
    )
    assert allowed(g.state, "p1", "unmortgage") == [
        {"type": "unmortgage", "property": "reading-railroad"}
    ]
    assert target(ann, "mortgage", property="reading-railroad")["why"] == (
        "Reading Railroad is already mortgaged."
    )
    assert allowed(g.state, "p2", "build") == []  # Bob has no deed: no target at all


def test_jail_choices_on_the_jailed_players_turn():
    g = started()
    g.roll("p1", 3, 4)
    g.draw("chance", "go-to-jail")
    g.roll("p2", 4, 6)
    g.roll("p3", 4, 6)
    g.setup(lambda s: s["players"][0].update(jail_cards=["community_chest"]))
    ann = actions(g.state, "p1")
    assert ann["pay_jail_fine"]["allowed"] is True
    assert allowed(g.state, "p1", "use_jail_card") == [
        {"type": "use_jail_card", "player": "p1", "deck": "community_chest"}
    ]
    assert target(ann, "use_jail_card", deck="chance")["why"] == (
        "Ann holds no Chance Get Out of Jail Free card."
    )
    assert (
        target(ann, "roll")["why"] == "Only the Banker records a roll: the dice are at the table."
    )
    assert allowed(g.state, "banker", "roll") == [{"type": "roll", "player": "p1", "dice": [1, 2]}]


def test_with_private_cash_a_reason_does_not_state_another_players_cash():
    """A trade refusal told a player "Ann has only 1477 in cash"."""
    g = started(options={"private_cash": True})
    g.own("p2", "reading-railroad")
    g.do(
        type="propose_trade", **{"from": "p1", "to": "p2"},
        give={"cash": 100}, receive={"properties": ["reading-railroad"]},
    )  # fmt: skip
    g.set_cash(p1=10)
    assert target(actions(g.state, "banker"), "accept_trade")["why"] == "Ann has only 10 in cash."
    assert target(actions(g.state, "p2"), "accept_trade")["why"] == (
        "Ann does not have the 100 in cash this trade hands over."
    )
    g.set_cash(p1=1500, p2=3)
    g.do(type="decline_trade", offer="o1")
    g.do(
        type="propose_trade", **{"from": "p2", "to": "p1"},
        give={"properties": ["reading-railroad"]}, receive={"cash": 100},
    )  # fmt: skip
    g.set_cash(p1=10)
    assert target(actions(g.state, "p1"), "accept_trade")["why"] == "Ann has only 10 in cash."


def test_may_send_says_of_a_command_type_as_a_whole_what_actions_says_trying_fewer_targets():
    """A page asking only "may this seat offer a trade at all?" is answered by trying the
    targets one by one until one is allowed (rules.may_send): the same answer as actions'."""
    import random

    from banker.rules import Refusal, apply, may_send
    from banker.rules.schema import COMMANDS
    from tests.plays import a_plausible_command

    g = started(("Ann", "Bob", "Cy", "Di"))
    rng = random.Random(7)
    state, checked = g.state, 0
    for step in range(150):
        if step % 10 == 0:
            for seat in ("banker", "p1", "p2", "p3", "p4", "display"):
                said = actions(state, seat)
                for kind in COMMANDS:
                    whole = said[kind]
                    assert may_send(state, seat, kind) == (
                        whole["allowed"],
                        whole["why"],
                        bool(whole["targets"]),
                    ), (seat, kind)
                    checked += 1
        try:
            state, _ = apply(state, a_plausible_command(state, rng))
        except Refusal:
            continue
    assert checked > 1000


def declared_against_copy(state: dict, command: dict):
    """What a command's declared check (`refusal=`, after the gate) says of a well-formed
    `command`, asserted to be what apply's own steps on a copy of the state say (the same
    refusal and sentence, or none); that refusal, or None."""
    from banker.rules import Refusal
    from banker.rules.game import attempt, gate_refusal
    from banker.rules.schema import COMMANDS
    from banker.rules.schema import read as read_command

    c = read_command(state, command)
    said = gate_refusal(state, c) or COMMANDS[command["type"]].refusal(state, c)
    try:
        attempt(state, command)
        copied = None
    except Refusal as e:
        copied = e
    assert (said is None) == (copied is None), (command, said, copied)
    if said is not None:
        assert (said.message, said.code) == (copied.message, copied.code)
    return said


def test_a_declared_refusal_says_what_the_handler_run_on_a_copy_says_for_every_target():
    """A command declared with `refusal=` (rules/schema.py: its handler checks everything before
    it changes anything) has its buttons tried by that check alone, no copy of the state: for
    every target of every seat in a played game, the check refuses exactly what apply's own
    steps on a copy refuse, with the same sentence, and allows what they allow."""
    import random

    from banker.rules.schema import COMMANDS
    from tests.plays import played_on

    declared = [kind for kind, c in COMMANDS.items() if c.refusal is not None]
    assert set(declared) == {
        "build", "sell_building", "mortgage", "unmortgage", "propose_trade", "leave", "roll",
        "call_time", "stop", "rename_player", "add_player",
    }  # fmt: skip
    g = started(("Ann", "Bob", "Cy", "Di"))
    rng = random.Random(35)
    state, compared, allowed_seen = g.state, 0, 0
    for _ in range(400):
        for seat in ("banker", "p1", "p2", "p3", "p4"):
            for kind in declared:
                for t in COMMANDS[kind].targets(state, seat):
                    said = declared_against_copy(state, {"type": kind, **t["command"]})
                    compared += 1
                    allowed_seen += said is None
        state = played_on(state, rng)
        if state["status"] != "playing":
            break
    assert compared > 2000 and allowed_seen > 100, (compared, allowed_seen)


def test_a_declared_refusal_says_what_the_handler_says_beyond_the_buttons_targets():
    """The checks declared for roll, call time, stop, rename and a latecomer (rules/schema.py's
    `refusal=`) against the handler run on a copy, for commands no button sends: another
    player's roll, doubles and other dice while business is pending, a rename to the same name
    or to another's, a latecomer in partnerships or under a taken name, time called without the
    deadline variation, each before the start; in games of every option, along a played
    game."""
    import random

    from banker.rules import BadCommand, apply
    from banker.rules.schema import read as read_command
    from tests.plays import played_on

    def commands(state):
        pids = [p["id"] for p in state["players"]]
        names = [p["name"] for p in state["players"]] + ["Zed", "ann", "Ann & Zed", "Zed & Yo"]
        for pid in pids:
            for dice in ([1, 2], [3, 3], [6, 5]):
                yield {"type": "roll", "player": pid, "dice": dice}
            for name in names:
                yield {"type": "rename_player", "player": pid, "name": name}
        for name in names:
            yield {"type": "add_player", "name": name}
        yield {"type": "call_time"}
        yield {"type": "stop"}

    kinds, compared, refused = (
        {"roll", "call_time", "stop", "rename_player", "add_player"},
        0,
        set(),
    )
    for options in ({}, {"deadline": True}, {"teams": True}):
        names = ("Ann", "Bob", "Cy", "Di") if options.get("teams") else ("Ann", "Bob", "Cy")
        g = CoreGame(names, "g0009", options or None)
        state, rng = g.state, random.Random(35)
        for step in range(160):
            for command in commands(state):
                try:
                    read_command(state, command)
                except BadCommand:  # malformed, whatever the state: refused before any rule
                    continue
                said = declared_against_copy(state, command)
                if said is not None:
                    refused.add((command["type"], said.code))
                compared += 1
            if step == 0:
                state, _ = apply(state, {"type": "start", "first": "p1"})
                continue
            state = played_on(state, rng)
            if state["status"] != "playing":
                break
    assert {k for k, _ in refused} == kinds
    assert {"not_your_turn", "same_name", "duplicate_name", "not_with_teams", "no_deadline",
            "not_started"} <= {code for _, code in refused}, refused  # fmt: skip
    assert compared > 5000, compared


def test_asking_what_every_seat_may_send_leaves_no_reference_cycle_behind():
    """A refusal the core returns (not raises) carries no traceback: held, it tied the asking
    frames, and the states in them, into a reference cycle only the garbage collector frees
    (a live page asks at every change: the server's collector then had whole states to find)."""
    g = started()
    g.own("p2", *LIGHT_BLUE)
    g.roll("p1", 1, 3)  # Income Tax: a debt, so that most commands are refused
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for seat in ("p1", "p2", "p3", "banker"):
            actions(g.state, seat)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
