"""Every control a page shows active is one the core accepts, over random games (hypothesis).

Random tables are played through the store (plausible commands, trade offers, time called);
now and then every page of the game is drawn through Flask's test client: the Banker's table,
each player's sheet, History and Trade, and each player's own page. Every submit button not
disabled, read with its form's fields as a browser sends them (a typed amount filled with one
the core allows), must be a command `banker.rules.apply` accepts on the game's state, and on a
player's page one their token may send (`player_refusal`). A control the rules would refuse is
absent, or disabled with its reason.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from banker.rules import Refusal, apply, player_refusal
from banker.rules.board import COLOR_GROUPS, GROUPS
from banker.web.common import forms
from banker.web.player.routes import player_command
from tests.page_forms import as_sent, commands_buttons, forms_of
from tests.plays import a_plausible_command

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
COMMAND_ACTION = re.compile(r"/(games/\w+/act|join/[^/]+/(act|claim))$")


def refused_controls(html: str, state: dict, seat: str) -> list[tuple]:
    """Every active control of a page that the core (or the seat's permission) would refuse:
    [(button, command, sentence)]."""
    refused = []
    for form in forms_of(html):
        if form["method"] != "post" or not COMMAND_ACTION.search(form["action"]):
            continue
        for button in commands_buttons(form):
            if button["disabled"]:
                continue
            text = " ".join(button["text"].split())
            said = [
                _refusal(state, seat, data) for data in as_sent(state, form, button, form["typed"])
            ]
            if said and all(said):
                refused.append((text, *said[0]))
    return refused


def _refusal(state: dict, seat: str, data: MultiDict) -> tuple | None:
    """(command, sentence) if the form as sent would be refused, else None."""
    try:
        if seat == "banker":
            command = forms.command_from(data)
        else:  # as the player's page reads it (a trade offer is from them)
            command = player_command(data, seat)
    except forms.FormError as e:  # a control that cannot even be read
        return dict(data), e.message
    if seat != "banker":
        why = player_refusal(state, seat, command)
        if why:
            return command, why
    try:
        apply(state, command)
    except Refusal as e:
        return command, e.message
    return None


def _offer_or_time(state: dict, rng: random.Random) -> dict | None:
    """Now and then what a plausible table does between rolls besides: a trade offer made or
    answered, time called at the agreed deadline, a color set completed by a trade (building
    comes up), hard times (most of a player's cash taken: debts come up)."""
    alive = [p["id"] for p in state["players"] if not p["eliminated"]]
    roll = rng.random()
    if roll < 0.08 and len(alive) > 1:
        frm, to = rng.sample(alive, 2)
        mine = [d for d, st in state["properties"].items() if st["owner"] == frm]
        nothing = {"cash": 0, "properties": [], "jail_cards": []}
        return {
            "type": "propose_trade",
            "from": frm,
            "to": to,
            "give": {**nothing, "properties": mine[:1]},
            "receive": {**nothing, "cash": rng.choice([0, 10, 100])},
            "unmortgage": [],
        }
    if roll < 0.1 and state["options"].get("deadline"):
        return {"type": "call_time"}
    if roll < 0.14:  # a color set completed by a trade, so that building comes up
        return _a_set_completed(state, rng)
    if roll < 0.16 and alive:  # hard times: most of a player's cash taken (a debt to come)
        pid = rng.choice(alive)
        p = next(x for x in state["players"] if x["id"] == pid)
        if p["cash"] > 30:
            return {"type": "adjust", "player": p["id"], "amount": 25 - p["cash"], "reason": "x"}
    if roll < 0.2 and state["pending"]["trade_offers"]:
        kind = rng.choice(["accept_trade", "decline_trade"])
        return {"type": kind, "offer": state["pending"]["trade_offers"][0]["id"]}
    return None


def _a_deal(state: dict, frm: str) -> str:
    """A trade form's query string: `frm`'s first deed to the next player still in."""
    alive = [p["id"] for p in state["players"] if not p["eliminated"] and p["id"] != frm]
    mine = [d for d, st in state["properties"].items() if st["owner"] == frm]
    if not alive:
        return ""
    deal = f"to={alive[0]}" + (f"&give_properties={mine[0]}" if mine else "")
    return deal + "&receive_cash=10"


def _a_set_completed(state: dict, rng: random.Random) -> dict | None:
    """A trade that hands the one deed of a color set its other owner lacks to them."""
    props = state["properties"]
    for group in rng.sample(COLOR_GROUPS, len(COLOR_GROUPS)):
        owners = [props[d]["owner"] for d in GROUPS[group]]
        if None in owners or len(set(owners)) != 2:
            continue
        keeper = max(set(owners), key=owners.count)
        deed = next(d for d in GROUPS[group] if props[d]["owner"] != keeper)
        nothing = {"cash": 0, "properties": [], "jail_cards": []}
        return {
            "type": "trade",
            "from": props[deed]["owner"],
            "to": keeper,
            "give": {**nothing, "properties": [deed]},
            "receive": {**nothing, "cash": 1},
            "unmortgage": [],
        }
    return None


def _pages(client, game, state: dict) -> list[tuple[str, str, str]]:
    """(seat, path, html) of every page of the game: the Banker's (the table, with a first die
    tapped, and its confirmations too; History; Trade with a deal on it; each player's sheet)
    and each player's (with a trade offer being put together too)."""
    banker = ["", "?d1=3", "?confirm=bankrupt", "?confirm=stop", "/history"]
    banker += ["/trade", f"/trade?from=p1&{_a_deal(state, 'p1')}"]
    banker += [f"/players/{p['id']}" for p in state["players"]]
    pages = []
    for path in banker:
        r = client.get(f"/games/{game.id}{path}")
        assert r.status_code == 200, path
        pages.append(("banker", path or "/", r.get_data(as_text=True)))
    for p in game.created["players"]:
        page = re.sub(r"^https?://[^/]+", "", p["join_url"])
        for path in (page, f"{page}/trade?{_a_deal(state, p['id'])}"):
            r = client.get(path)
            assert r.status_code == 200, path
            pages.append((p["id"], path, r.get_data(as_text=True)))
    return pages


@pytest.mark.slow
@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    edition=st.sampled_from(["g0009", "classic"]),
    private_cash=st.booleans(),
    steps=st.integers(5, 90),
)
def test_every_active_control_on_every_page_is_one_the_core_accepts(
    client, app, seed, players, edition, private_cash, steps
):
    from tests.game import Game
    from tests.table_web import FlaskTable

    options = {"private_cash": private_cash}
    if edition == "g0009":
        options["deadline"] = True
    game = Game(FlaskTable(client), ["Ann", "Bob", "Cat", "Dan"][:players], edition, options)
    client.get(game.created["banker_url"])  # the Banker's pages' cookie
    store = app.extensions["banker.store"]
    rng = random.Random(seed)
    store.execute(game.id, {"type": "start", "first": "p1"})
    for step in range(steps):
        state = store.state(game.id)
        if state["status"] != "playing":
            break
        command = _offer_or_time(state, rng) or a_plausible_command(state, rng)
        try:
            store.execute(game.id, command)
        except Refusal:
            continue
        state = store.state(game.id)
        edge = state["pending"]["debt"] or state["pending"]["final_round"]  # every step then
        if step % 7 == 6 or step == steps - 1 or edge:
            for seat, path, html in _pages(client, game, state):
                assert refused_controls(html, state, seat) == [], (seat, path, state["pending"])
