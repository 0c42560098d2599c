"""Random tables: thousands of commands, legal and not, through the core; the Bank's books hold.

After every accepted command: 32 houses and 12 hotels in all, every deed with one owner still in
the game or the Bank, no negative cash, even building in every set, a Free Parking pot never
negative (and 0 without the house rule), every open trade offer still possible to hand over as
proposed (at most 5 per player). A refused command changes nothing. An accepted offer always
equals what was proposed: accepting it does exactly what `trade` with the proposed deal would
do, on a table where nothing it names has changed since the proposal. Every roll accepted is
the one `to_act` said would come next (never one it said would not). Replaying the accepted
commands gives the same state. Random games rename, add and lose players too.

Money is conserved, the pot counting as the Bank's: a game with the Free Parking jackpot is
played alongside the same game without it, command for command, for as long as the two answer
alike. The players of the two hold the same cash but for what was collected from the pot, the
pot shrinking by exactly that; and the pot changes only by what its events say went in and out.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.rules import (
    COMMAND_SCHEMA,
    DomainError,
    Refusal,
    actions,
    apply,
    new_game,
    public_state,
    replay,
    seat_refusal,
    text_for,
    to_act,
)
from banker.rules.board import CARDS, COLOR_GROUPS, DEED_IDS, DEEDS, GROUPS

TYPES = [
    "start",
    "roll",
    "buy",
    "auction",
    "bid",
    "close_auction",
    "draw_card",
    "rent_roll",
    "claim_rent",
    "pay_jail_fine",
    "use_jail_card",
    "build",
    "sell_building",
    "building_auction",
    "mortgage",
    "unmortgage",
    "trade",
    "propose_trade",
    "accept_trade",
    "decline_trade",
    "pay_debt",
    "bankrupt",
    "call_time",
    "adjust",
    "move",
    "undo",
    "rename_player",
    "add_player",
    "leave",
    "teleport",
]
# The table mostly rolls and settles what the roll opened; the rest is drawn less often.
WEIGHTED = (
    ["roll"] * 4
    + ["build"] * 6
    + ["sell_building", "mortgage", "unmortgage"] * 2
    + ["trade"] * 4
    + ["propose_trade", "accept_trade"] * 3
    + TYPES
)
SETTINGS = settings(
    max_examples=500,  # two tests: 1,000 random command sequences in all (the suite: < 15 min)
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- drawing commands -------------------------------------------------------------------------


def live_ids(s):
    return [p["id"] for p in s["players"] if not p["eliminated"]]


def a_player(data, s):
    if data.draw(st.integers(0, 9)) == 0:
        return data.draw(st.sampled_from([p["id"] for p in s["players"]] + ["p9", "", 1, None]))
    return data.draw(st.sampled_from(live_ids(s) or [p["id"] for p in s["players"]]))


def a_property(data, s):
    owned = [d for d in DEED_IDS if s["properties"][d]["owner"] is not None]
    if data.draw(st.integers(0, 19)) == 0:
        return data.draw(st.sampled_from(["nowhere", 39, None, "Boardwalk"]))
    if owned and data.draw(st.booleans()):
        return data.draw(st.sampled_from(owned))
    return data.draw(st.sampled_from(DEED_IDS))


def dice(data):
    if data.draw(st.integers(0, 29)) == 0:
        return data.draw(st.sampled_from([[0, 3], [7, 1], [3], "6,6", [True, 2], [2.0, 3]]))
    return [data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))]


def amount(data, s):
    a = s["pending"]["auction"]
    if a and data.draw(st.integers(0, 3)):
        return max(a["high_bid"], 9) + data.draw(st.integers(0, 80))
    return data.draw(st.one_of(st.integers(-50, 2000), st.sampled_from(["10", 1.5, None])))


def a_side(data, s, pid):
    mine = [d for d in DEED_IDS if s["properties"][d]["owner"] == pid]
    props = data.draw(st.lists(st.sampled_from(mine or list(DEED_IDS)), max_size=3, unique=True))
    held = next((p["jail_cards"] for p in s["players"] if p["id"] == pid), [])
    decks = held if held and data.draw(st.integers(0, 4)) else ["chance", "community_chest"]
    cards = (
        data.draw(st.lists(st.sampled_from(decks), max_size=2, unique=True))
        if data.draw(st.integers(0, 3)) == 0
        else []
    )
    return {
        "cash": data.draw(st.sampled_from([0, 0, 0, 1, 50, 200, 1000, 5000])),
        "properties": props,
        "jail_cards": cards,
    }


def what_the_table_does_next(data, s) -> dict | None:
    """The command that settles what is pending, as a real table would mostly record next."""
    pending, turn = s["pending"], s["turn"]
    if s["status"] != "playing":
        return None
    if pending["debt"]:
        debtor = pending["debt"]["debtor"]
        mine = [d for d in DEED_IDS if s["properties"][d]["owner"] == debtor]
        options = [{"type": "pay_debt"}, {"type": "bankrupt", "player": debtor}]
        options += [{"type": k, "property": d} for d in mine for k in ("mortgage", "sell_building")]
        return data.draw(st.sampled_from(options))
    if pending["offer"]:
        return {"type": data.draw(st.sampled_from(["buy", "buy", "auction"]))}
    a = pending["auction"]
    if a:
        if a["high_bidder"] is None or data.draw(st.integers(0, 2)):
            return {
                "type": "bid",
                "player": data.draw(st.sampled_from(live_ids(s))),
                "amount": max(9, a["high_bid"]) + data.draw(st.integers(1, 60)),
            }
        c = {"type": "close_auction"}
        if a["item"] in ("house", "hotel"):
            mine = [d for d in DEED_IDS if s["properties"][d]["owner"] == a["high_bidder"]]
            c["property"] = data.draw(st.sampled_from(mine or ["boardwalk"]))
        return c
    if pending["card"]:
        deck = pending["card"]["deck"]
        return {
            "type": "draw_card",
            "deck": deck,
            "card": data.draw(st.sampled_from(sorted(CARDS[deck]))),
        }
    if pending["dice"]:
        return {"type": "rent_roll", "dice": dice(data)}
    if pending["rent_claims"] and data.draw(st.booleans()):
        return {"type": "claim_rent", "claim": pending["rent_claims"][0]["id"]}
    return {"type": "roll", "player": turn["player"], "dice": dice(data)}


def an_id(data, items: list[dict], bogus: list):
    """Mostly the id of one of these open items (claims, offers), sometimes one not open."""
    ids = [x["id"] for x in items]
    if ids and data.draw(st.integers(0, 5)):
        return data.draw(st.sampled_from(ids))
    return data.draw(st.sampled_from(bogus))


def a_command(data, s) -> dict:
    if data.draw(st.booleans()):
        c = what_the_table_does_next(data, s)
        if c:
            return c
    kind = data.draw(st.sampled_from(WEIGHTED))
    turn, pending = s["turn"], s["pending"]
    c: dict = {"type": kind}
    if kind == "start":
        c["first"] = a_player(data, s)
    elif kind == "roll":
        c["player"] = turn["player"] if data.draw(st.integers(0, 5)) else a_player(data, s)
        c["dice"] = dice(data)
    elif kind == "bid":
        c["player"] = a_player(data, s)
        c["amount"] = amount(data, s)
    elif kind == "close_auction":
        if data.draw(st.booleans()):
            c["property"] = a_property(data, s)
    elif kind == "draw_card":
        deck = (pending["card"] or {}).get("deck") or data.draw(
            st.sampled_from(["chance", "community_chest"])
        )
        c["deck"] = deck if data.draw(st.integers(0, 9)) else "tarot"
        c["card"] = data.draw(st.sampled_from(sorted(CARDS.get(deck, CARDS["chance"]))))
    elif kind == "rent_roll":
        c["dice"] = dice(data)
    elif kind == "claim_rent":
        c["claim"] = an_id(data, pending["rent_claims"], ["c999", "", 7])
    elif kind in ("pay_jail_fine", "use_jail_card"):
        c["player"] = turn["player"] if data.draw(st.booleans()) else a_player(data, s)
        if kind == "use_jail_card":
            c["deck"] = data.draw(st.sampled_from(["chance", "community_chest", "tarot"]))
    elif kind in ("build", "sell_building", "mortgage", "unmortgage"):
        in_sets = [
            d
            for g in COLOR_GROUPS
            for d in GROUPS[g]
            if len({s["properties"][x]["owner"] for x in GROUPS[g]} - {None}) == 1
            and None not in {s["properties"][x]["owner"] for x in GROUPS[g]}
        ]
        c["property"] = (
            data.draw(st.sampled_from(in_sets))
            if in_sets and data.draw(st.booleans())
            else a_property(data, s)
        )
    elif kind == "building_auction":
        c["kind"] = data.draw(st.sampled_from(["house", "hotel", "house", "castle"]))
    elif kind in ("accept_trade", "decline_trade"):
        c["offer"] = an_id(data, pending["trade_offers"], ["o999", "", 7])
    elif kind in ("trade", "propose_trade"):
        a = a_player(data, s)
        others = [x for x in live_ids(s) if x != a]
        b = (
            data.draw(st.sampled_from(others))
            if others and data.draw(st.integers(0, 5))
            else a_player(data, s)
        )
        c.update({"from": a, "to": b, "give": a_side(data, s, a), "receive": a_side(data, s, b)})
        mortgaged = [
            d
            for d in c["give"]["properties"] + c["receive"]["properties"]
            if s["properties"][d]["mortgaged"]
        ]
        if mortgaged and data.draw(st.booleans()):
            c["unmortgage"] = data.draw(st.lists(st.sampled_from(mortgaged), unique=True))
    elif kind == "bankrupt":
        debtor = (pending["debt"] or {}).get("debtor")
        c["player"] = debtor if debtor and data.draw(st.integers(0, 4)) else a_player(data, s)
        owned = [d for d in DEED_IDS if s["properties"][d]["owner"] == debtor]
        if owned and data.draw(st.integers(0, 3)) == 0:
            c["unmortgage"] = data.draw(st.lists(st.sampled_from(owned), max_size=2, unique=True))
    elif kind == "adjust":
        c.update(
            player=a_player(data, s),
            amount=data.draw(st.integers(-300, 300)),
            reason=data.draw(st.sampled_from(["miscounted change", "", "x" * 300])),
        )
    elif kind == "move":
        c.update(player=a_player(data, s), position=data.draw(st.integers(-1, 40)))
    elif kind in ("rename_player", "add_player"):
        c["name"] = data.draw(st.sampled_from(NAMES))
        if kind == "rename_player":
            c["player"] = a_player(data, s)
    elif kind == "leave":
        c["player"] = a_player(data, s)
    return c


# Names for the changing table: new ones, taken ones, look-alikes and malformed ones.
NAMES = ["Gus", "Hal", "Ivy", "ann", "B0b", "Сat", "Ann & Zed", "", "x" * 31, 7, None]


# --- arranging a table ------------------------------------------------------------------------


def a_table(data, s) -> None:
    """Deal deeds, buildings, cash and jail cards as if the game had run a while."""
    ids = live_ids(s)
    for group in GROUPS.values():
        how = data.draw(st.sampled_from(["bank", "one", "mixed"]))
        if how == "bank":
            continue
        owner = data.draw(st.sampled_from(ids))
        for d in group:
            st_ = s["properties"][d]
            st_["owner"] = owner if how == "one" else data.draw(st.sampled_from(ids + [None]))
            st_["mortgaged"] = st_["owner"] is not None and data.draw(st.integers(0, 4)) == 0
        if (
            how == "one"
            and DEEDS[group[0]].kind == "street"
            and not any(s["properties"][d]["mortgaged"] for d in group)
        ):
            base = data.draw(st.integers(0, 5))
            for d in group:
                lvl = min(5, base + data.draw(st.integers(0, 1))) if base < 5 else 5
                st_ = s["properties"][d]
                if lvl == 5 and s["bank"]["hotels"]:
                    st_["hotel"] = True
                    s["bank"]["hotels"] -= 1
                elif lvl < 5 and s["bank"]["houses"] >= lvl:
                    st_["houses"] = lvl
                    s["bank"]["houses"] -= lvl
            levels = [level(s["properties"][d]) for d in group]
            if max(levels) - min(levels) > 1:  # the supply ran short: leave this set bare
                for d in group:
                    st_ = s["properties"][d]
                    s["bank"]["houses"] += st_["houses"]
                    s["bank"]["hotels"] += st_["hotel"]
                    st_["houses"], st_["hotel"] = 0, False
    for p in s["players"]:
        p["cash"] = data.draw(st.sampled_from([0, 20, 150, 600, 1500, 4000]))
    for deck in ("chance", "community_chest"):
        holder = data.draw(st.sampled_from(ids + [None, None]))
        if holder:
            next(p for p in s["players"] if p["id"] == holder)["jail_cards"].append(deck)


# --- the books ----------------------------------------------------------------------------------


def level(st_: dict) -> int:
    return 5 if st_["hotel"] else st_["houses"]


def check_books(s: dict) -> None:
    props, bank = s["properties"], s["bank"]
    assert sum(p["houses"] for p in props.values()) + bank["houses"] == 32, bank
    assert sum(p["hotel"] for p in props.values()) + bank["hotels"] == 12, bank
    assert bank["houses"] >= 0 and bank["hotels"] >= 0
    alive = set(live_ids(s))
    for d, st_ in props.items():
        assert st_["owner"] is None or st_["owner"] in alive, (d, st_)
        assert 0 <= st_["houses"] <= 4 and not (st_["hotel"] and st_["houses"])
        if level(st_):
            assert DEEDS[d].kind == "street"
    for p in s["players"]:
        assert p["cash"] >= 0, p
        if p["eliminated"]:
            assert p["cash"] == 0 and p["jail_cards"] == []
    held = [deck for p in s["players"] for deck in p["jail_cards"]]
    assert len(held) == len(set(held)), held
    for group in COLOR_GROUPS:
        streets = [props[d] for d in GROUPS[group]]
        levels = [level(x) for x in streets]
        assert max(levels) - min(levels) <= 1, (group, levels)
        if max(levels):
            assert len({x["owner"] for x in streets}) == 1, (group, streets)
            assert not any(x["mortgaged"] for x in streets), (group, streets)
    if s["status"] == "finished":
        assert s["winners"]
    pot = bank["free_parking"]
    assert pot >= 0 and (pot == 0 or s["options"]["free_parking_jackpot"]), bank
    ids = [p["id"] for p in s["players"]]
    assert len(set(ids)) == len(ids) and s["_players"] >= len(ids), ids
    assert len(live_ids(s)) <= 6 or s["status"] != "playing"
    if s["status"] != "playing":
        assert s["pending"]["trade_offers"] == []
    for o in s["pending"]["trade_offers"]:
        check_offer(s, o)
    json.dumps(public_state(s))
    assert not [k for k in public_state(s) if k.startswith("_")]


def check_offer(s: dict, o: dict) -> None:
    """An open offer can still be handed over as proposed: each side holds what it gives, with
    no building on the color set of a street in it; at most 5 open from one player."""
    props = s["properties"]
    assert len([x for x in s["pending"]["trade_offers"] if x["from"] == o["from"]]) <= 5
    for who, side in ((o["from"], o["give"]), (o["to"], o["receive"])):
        holder = next(p for p in s["players"] if p["id"] == who)
        assert not holder["eliminated"], o
        for d in side["properties"]:
            assert props[d]["owner"] == who, (o, d)
            assert not any(level(props[x]) for x in GROUPS[DEEDS[d].group]), (o, d)
        assert set(side["jail_cards"]) <= set(holder["jail_cards"]), o


def named(s: dict, o: dict) -> dict:
    """What an offer names, as it stands: each deed (its owner, mortgage, set's buildings) and
    each Get Out of Jail Free card's holder."""
    out = {}
    for d in o["give"]["properties"] + o["receive"]["properties"]:
        out[d] = (s["properties"][d], [level(s["properties"][x]) for x in GROUPS[DEEDS[d].group]])
    for deck in o["give"]["jail_cards"] + o["receive"]["jail_cards"]:
        out[deck] = [p["id"] for p in s["players"] if deck in p["jail_cards"]]
    return copy.deepcopy(out)


def as_proposed(s: dict, new: dict, c: dict, proposed: dict) -> None:
    """An accepted offer equals what was proposed: the deal of the proposal, nothing it names
    changed since, and the table afterwards exactly what `trade` with that deal makes."""
    offer = next(o for o in s["pending"]["trade_offers"] if o["id"] == c["offer"])
    deal, then = proposed[c["offer"]]
    assert {k: offer[k] for k in deal} == deal, (offer, deal)
    assert named(s, offer) == then, offer
    traded, _ = apply(s, {"type": "trade", **deal})
    for key in ("players", "properties", "bank", "turn", "status", "winners", "scores"):
        assert traded[key] == new[key], key
    others = [o for o in traded["pending"]["trade_offers"] if o["id"] != c["offer"]]
    assert others == new["pending"]["trade_offers"]


def play(data, s, steps: int, proposed: dict | None = None) -> tuple[dict, list[dict]]:
    """Apply drawn commands to s; the final state and the accepted commands. `proposed`: the
    offers proposed so far (by id), when s is a game already played by `play`."""
    accepted, proposed = [], {} if proposed is None else proposed
    shadow = Shadow(s)
    for _ in range(steps):
        c = a_command(data, s)
        before = json.dumps(s)  # a faithful and much faster copy than deepcopy here
        try:
            new, events = apply(s, c)
        except DomainError as e:  # BadCommand included
            assert isinstance(e.message, str) and e.message
            assert json.dumps(s) == before, c
            shadow.follow(c, None)
            continue
        assert json.dumps(s) == before, c  # the core never changes the state it was given
        assert new["version"] == s["version"] + 1
        check_books(new)
        check_pot_events(s, new, events)
        shadow.follow(c, (new, events))
        if c["type"] == "propose_trade":
            (o,) = [o for o in new["pending"]["trade_offers"] if o["id"] == events[0]["offer"]]
            deal = {k: o[k] for k in ("from", "to", "give", "receive", "unmortgage")}
            proposed[o["id"]] = (copy.deepcopy(deal), named(new, o))
        elif c["type"] == "accept_trade":
            as_proposed(s, new, c, proposed)
        elif c["type"] == "roll":  # the roll that came is the one the table was told of
            said = to_act(s)
            assert said["now"] == said["then"] and said["who"] == [c["player"]], said
        accepted.append(c)
        s = new
    return s, accepted


# --- money is conserved, the pot counting as the Bank's ------------------------------------------


def cash(s: dict) -> int:
    return sum(p["cash"] for p in s["players"])


def check_pot_events(before: dict, after: dict, events: list[dict]) -> None:
    """The pot changes by what the command's events put in and took out, nothing else."""
    put_in = sum(e.get("free_parking", 0) for e in events if e["type"] != "free_parking")
    taken = sum(e.get("amount", 0) for e in events if e["type"] == "free_parking")
    change = after["bank"]["free_parking"] - before["bank"]["free_parking"]
    undone = any(e["type"] == "undone" for e in events)
    assert undone or change == put_in - taken, (change, put_in, taken, events)


class Shadow:
    """The same game without the Free Parking jackpot, fed the same commands while it answers
    alike (a collection changes a player's cash, so the two may part ways later)."""

    def __init__(self, s: dict):
        self.on = s["options"].get("free_parking_jackpot") and not s["_undo"]
        if self.on:
            self.s = {**s, "options": {**s["options"], "free_parking_jackpot": False}}
            self.collected = cash(s) - cash(self.s)  # 0: both start alike

    def follow(self, c: dict, answered: tuple[dict, list] | None) -> None:
        if self.on and self.collected and c.get("type") in ("leave", "bankrupt"):
            self.on = False  # a player's whole cash passes on: it differs once one collected
        if not self.on:
            return
        try:
            off, off_events = apply(self.s, c)
        except DomainError:
            off = None
        if (answered is None) != (off is None):
            self.on = False  # one accepted, the other refused: they part ways here
            return
        if answered is None:
            return
        new, events = answered
        if [e["type"] for e in events if e["type"] != "free_parking"] != [
            e["type"] for e in off_events
        ]:
            self.on = False
            return
        collected = cash(new) - cash(off)
        taken = sum(e["amount"] for e in events if e["type"] == "free_parking" and "amount" in e)
        if not any(e["type"] == "undone" for e in events):
            assert collected == self.collected + taken, (collected, self.collected, taken)
        self.s, self.collected = off, collected


GAMES = st.sampled_from(
    [
        ("g0009", ["Ann", "Bob"], None),
        ("g0009", ["Ann", "Bob", "Cat"], None),
        ("g0009", ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], None),
        ("g0009", ["Ann", "Bob", "Cat", "Dan"], {"teams": True, "deadline": True}),
        ("g0009", ["Ann", "Bob", "Cat"], {"auction_all": True, "hotel_shortage_ruling": False}),
        ("g0009", ["Ann", "Bob", "Cat"], {"deadline": True}),
        ("classic", ["Ann", "Bob"], None),
        ("classic", ["Ann", "Bob", "Cat", "Dan"], None),
        ("g0009", ["Ann", "Bob", "Cat"], {"free_parking_jackpot": True}),
        ("classic", ["Ann", "Bob", "Cat", "Dan", "Eve"], {"free_parking_jackpot": True}),
    ]
)


@pytest.mark.slow
@SETTINGS
@given(st.data(), GAMES)
def test_random_games_from_the_start_keep_the_books_and_replay_exactly(data, game):
    """From creation: every accepted command keeps the books; replay(...) rebuilds the state."""
    edition, names, options = game
    s = new_game("g1", edition, names, options)
    if data.draw(st.integers(0, 9)):
        s, _ = apply(s, {"type": "start", "first": "p1"})
        accepted0 = [{"type": "start", "first": "p1"}]
    else:
        accepted0 = []
    final, accepted = play(data, s, data.draw(st.integers(10, 120)))
    assert replay("g1", edition, names, options, accepted0 + accepted) == final


@pytest.mark.slow
@SETTINGS
@given(st.data(), GAMES)
def test_random_games_on_a_dealt_table_keep_the_books_and_replay_exactly(data, game):
    """From a table already dealt deeds, buildings, mortgages and cash: the same books hold, and
    applying the accepted commands again to that table gives the same state."""
    edition, names, options = game
    s, _ = apply(new_game("g1", edition, names, options), {"type": "start", "first": "p1"})
    s = copy.deepcopy(s)
    a_table(data, s)
    check_books(s)
    final, accepted = play(data, s, data.draw(st.integers(10, 120)))
    again = s
    for c in accepted:
        again, _ = apply(again, c)
    assert again == final


# --- what a seat may do now -------------------------------------------------------------------


def answered(s: dict, seat: str, command: dict) -> str | None:
    """What sending `command` from `seat` gets: None (accepted), or the sentence refusing it
    (the seat's permission, then the rules, as that seat is told them)."""
    why = seat_refusal(s, seat, command)
    if why is not None:
        return why
    try:
        apply(s, command)
    except Refusal as e:
        return text_for(s, seat, e)
    return None


def check_actions(s: dict, seat: str) -> None:
    """Every target `actions` lists is answered as it says; the free fields' bounds hold."""
    said = actions(s, seat)
    assert set(said) == set(COMMAND_SCHEMA)
    for kind, a in said.items():
        assert a["allowed"] == any(t["allowed"] for t in a["targets"]), kind
        assert (a["why"] is None) == (a["allowed"] or not a["targets"]), kind
        for t in a["targets"]:
            assert t["command"]["type"] == kind
            why = answered(s, seat, t["command"])
            assert (why is None, why) == (t["allowed"], t["why"]), (seat, t)
            bounds = t["free"].get("amount")
            if t["allowed"] and kind == "bid":
                assert answered(s, seat, {**t["command"], "amount": bounds["max"]}) is None
            if t["allowed"] and kind == "adjust" and bounds["min"] < 0:
                assert answered(s, seat, {**t["command"], "amount": bounds["min"]}) is None


@pytest.mark.slow
@settings(SETTINGS, max_examples=80)
@given(st.data(), GAMES)
def test_what_a_seat_may_do_now_is_exactly_what_apply_accepts_from_it(data, game):
    """`rules.actions`: for the Banker, each player and the display, every command it lists as
    allowed is accepted by `apply` after that seat's permission check, and every one it refuses
    is refused with the same sentence."""
    edition, names, options = game
    s, _ = apply(new_game("g1", edition, names, options), {"type": "start", "first": "p1"})
    s = copy.deepcopy(s)
    a_table(data, s)
    seats = ["banker", "display"] + [p["id"] for p in s["players"]]
    proposed: dict = {}
    for _ in range(data.draw(st.integers(2, 5))):
        s, _ = play(data, s, data.draw(st.integers(1, 12)), proposed)
        check_actions(s, data.draw(st.sampled_from(seats)))
