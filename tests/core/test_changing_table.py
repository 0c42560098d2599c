"""A changing table through the rules core, in both editions: `rename_player`, `add_player` and
`leave`, named after the sentences of docs/api.md ("A changing table")."""

from __future__ import annotations

import pytest

from banker.rules import BadCommand, DomainError, actions, apply, player_refusal
from banker.rules.permissions import BANKER_ONLY
from tests.table_core import CoreGame

EDITIONS = ["g0009", "classic"]
SIDE = {"cash": 0, "properties": [], "jail_cards": []}


def table(edition: str = "g0009", names=("Ann", "Bob", "Cat"), options=None) -> CoreGame:
    """Ann, Bob and Cat, started: Ann rolls first."""
    g = CoreGame(names, edition, options)
    g.start("p1")
    return g


def out(g: CoreGame, pid: str) -> None:
    """pid goes bankrupt to the Bank (a tax they cannot pay), so is eliminated."""
    g.setup(lambda s: s["pending"].update(debt=None))
    x = g.whose_turn
    g.place(x, 1, cash=0)
    g.roll(x, 1, 2)
    if x != pid:
        raise AssertionError("out() eliminates the player whose turn it is")
    g.do(type="bankrupt", player=pid)


# --- rename_player ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_rename_player_the_event_says_both_names_and_ids_do_not_change(edition):
    g = table(edition)
    before = g.player("p2")
    g.do(type="rename_player", player="p2", name="  Robert  ")
    assert g.texts() == ["Bob is now called Robert."]
    assert g.player("p2") == {**before, "name": "Robert", "members": ["Robert"]}
    assert [p["id"] for p in g.state["players"]] == ["p1", "p2", "p3"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_rename_player_the_same_name_rules_as_at_creation_against_every_other_players_name(
    edition,
):
    g = table(edition)
    for taken in ("Cat", "cat", "CAT "):
        e = g.refused(DomainError, type="rename_player", player="p1", name=taken)
        assert (e.code, e.message) == (
            "duplicate_name",
            "Cat is already the name of a player: choose another name.",
        )


@pytest.mark.parametrize("edition", EDITIONS)
def test_rename_player_against_the_eliminated_too(edition):
    g = table(edition)
    out(g, "p1")
    e = g.refused(DomainError, type="rename_player", player="p2", name="Ann")
    assert e.code == "duplicate_name"
    g.do(type="rename_player", player="p1", name="Annie")  # a player out may be renamed too
    assert g.texts() == ["Ann is now called Annie."]


@pytest.mark.parametrize(("look_alike", "of"), [("Сat", "Cat"), ("B0b", "Bob"), ("Zoë", "Zoe")])
def test_rename_player_refuses_look_alikes(look_alike, of):
    g = table(names=("Ann", "Bob", "Cat", "Zoe"))
    e = g.refused(DomainError, type="rename_player", player="p1", name=look_alike)
    assert e.code == "duplicate_name"
    assert e.message == (
        f"{look_alike!r} looks like {of!r}, another player's name: choose a name the table can "
        "tell apart."
    )


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "out_of_range"),
        ("   ", "out_of_range"),
        ("x" * 31, "out_of_range"),
        ("An\u200bn", "bad_name"),
        ("Ann\tB", "bad_name"),
        (7, "wrong_type"),
        (None, "wrong_type"),
    ],
)
def test_rename_player_the_same_length_limit_and_visible_characters_as_at_creation(name, code):
    g = table()
    e = g.refused(BadCommand, type="rename_player", player="p1", name=name)
    assert e.code == code


def test_rename_player_to_the_name_it_has_is_refused_but_its_case_may_change():
    g = table(names=("ann", "Bob"))
    assert g.refused(DomainError, type="rename_player", player="p1", name="ann").code == "same_name"
    g.do(type="rename_player", player="p1", name="Ann")
    assert g.player("p1")["name"] == "Ann"


def test_rename_player_of_whose_turn_it_is_renames_the_roller():
    g = table()
    g.do(type="rename_player", player="p1", name="Annie")
    assert g.turn == {"player": "p1", "doubles": 0, "first": "p1", "roller": "Annie"}


def test_rename_player_unknown_player_is_malformed():
    g = table()
    assert g.refused(BadCommand, type="rename_player", player="p4", name="X").code == (
        "unknown_player"
    )


def test_rename_player_in_partnerships_names_the_two_partners():
    g = table(names=("Ann", "Bob", "Cat", "Dan"), options={"teams": True})
    g.do(type="rename_player", player="p1", name="Ann & Rob")
    assert (g.player("p1")["name"], g.player("p1")["members"]) == ("Ann & Rob", ["Ann", "Rob"])
    assert g.turn["roller"] == "Ann"
    assert g.texts() == ["Ann & Bob is now called Ann & Rob."]
    e = g.refused(BadCommand, type="rename_player", player="p2", name="Cat and Dan")
    assert e.code == "wrong_value"
    assert g.refused(DomainError, type="rename_player", player="p2", name="Cat & Rob").code == (
        "duplicate_name"
    )


# --- add_player ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_add_player_the_latecomer_has_the_starting_cash_from_the_bank_and_a_token_on_go(edition):
    g = table(edition)
    g.move("p1", 6)
    g.do(type="add_player", name=" Dan ")
    assert g.state["players"][-1] == {
        "id": "p4",
        "name": "Dan",
        "members": ["Dan"],
        "cash": 1500,
        "position": 0,
        "in_jail": False,
        "jail_attempts": 0,
        "jail_cards": [],
        "eliminated": False,
    }
    assert g.texts() == [
        "Dan joins the game, seated last (play reaches them after Cat): a token on GO and 1,500 "
        "from the Bank."
    ]


@pytest.mark.parametrize("edition", EDITIONS)
def test_add_player_seated_last_play_reaches_them_after_the_player_listed_before_them(edition):
    g = table(edition)
    g.do(type="add_player", name="Dan")
    for pid, nxt in (("p1", "p2"), ("p2", "p3"), ("p3", "p4"), ("p4", "p1")):
        assert g.whose_turn == pid
        g.move(pid, 0)
        g.roll(pid, 4, 6)
        assert g.whose_turn == nxt


def test_add_player_is_allowed_in_setup_and_the_latecomer_may_start():
    g = CoreGame(("Ann", "Bob"))
    g.do(type="add_player", name="Cat")
    assert [p["name"] for p in g.state["players"]] == ["Ann", "Bob", "Cat"]
    assert g.state["status"] == "setup"
    g.start("p3")
    assert g.whose_turn == "p3"


@pytest.mark.parametrize("end", ["stop", "finished"])
def test_add_player_is_refused_once_the_game_is_over(end):
    g = table(names=("Ann", "Bob"))
    if end == "stop":
        g.do(type="stop")
        assert g.refused(DomainError, type="add_player", name="Dan").code == "game_stopped"
    else:
        g.do(type="leave", player="p2")
        assert g.refused(DomainError, type="add_player", name="Dan").code == "game_finished"


@pytest.mark.parametrize("edition", EDITIONS)
def test_add_player_with_fewer_than_6_players_not_eliminated(edition):
    g = table(edition, names=("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))
    e = g.refused(DomainError, type="add_player", name="Gus")
    assert (e.code, e.message) == (
        "table_full",
        "The game already has 6 players, the most it can seat.",
    )
    g.do(type="leave", player="p3")
    g.do(type="add_player", name="Gus")
    assert [p["id"] for p in g.state["players"]] == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    assert g.refused(DomainError, type="add_player", name="Hal").code == "table_full"


def test_add_player_is_refused_with_teams():
    g = table(names=("Ann", "Bob", "Cat", "Dan"), options={"teams": True})
    e = g.refused(DomainError, type="add_player", name="Eve")
    assert (e.code, e.message) == (
        "not_with_teams",
        "No one can join the partnerships variation: it is played by two pairs to the end.",
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_add_player_the_same_name_rules_the_eliminated_included(edition):
    g = table(edition)
    out(g, "p1")
    assert g.refused(DomainError, type="add_player", name="ann").code == "duplicate_name"
    assert g.refused(DomainError, type="add_player", name="Вob").code == "duplicate_name"
    assert g.refused(BadCommand, type="add_player", name="D" * 31).code == "out_of_range"
    assert g.refused(BadCommand, type="add_player", name=["Dan"]).code == "wrong_type"
    assert g.refused(BadCommand, type="add_player").code == "missing_field"


def test_add_player_the_id_is_p_n_plus_1_never_reused_even_after_an_undo():
    g = table()
    g.roll("p1", 4, 6)  # undo reaches back to here
    g.do(type="add_player", name="Dan")
    assert g.state["players"][-1]["id"] == "p4"
    g.do(type="undo")
    assert [p["id"] for p in g.state["players"]] == ["p1", "p2", "p3"]
    g.do(type="add_player", name="Dan")
    assert g.state["players"][-1]["id"] == "p5"  # p4 was given once: never again


# --- leave -----------------------------------------------------------------------------------


def cat_with_everything(edition: str) -> CoreGame:
    """Cat owns the light blues with a house each, Reading Railroad mortgaged and Boardwalk;
    holds the Chance Get Out of Jail Free card, 300 in cash, an open offer and a rent claim."""
    g = table(edition)
    g.own("p3", "oriental-avenue", "vermont-avenue", "connecticut-avenue", houses=1)
    g.own("p3", "reading-railroad", mortgaged=True)
    g.own("p3", "boardwalk")
    g.place("p3", 30, cash=300, jail_cards=["chance"])
    g.own("p2", "baltic-avenue")
    g.land("p1", 39)  # Ann owes Cat rent on Boardwalk
    assert [c["payer"] for c in g.claims] == ["p1"]
    g.do(
        type="propose_trade",
        **{"from": "p3", "to": "p2"},
        give={**SIDE, "cash": 100},
        receive={**SIDE, "properties": ["baltic-avenue"]},
    )
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_leave_as_a_bankruptcy_to_the_bank(edition):
    g = cat_with_everything(edition)
    g.do(type="leave", player="p3")
    cat = g.player("p3")
    assert (cat["eliminated"], cat["cash"], cat["jail_cards"]) == (True, 0, [])
    for deed in ("oriental-avenue", "vermont-avenue", "connecticut-avenue", "boardwalk"):
        assert g.prop(deed) == {"owner": None, "mortgaged": False, "houses": 0, "hotel": False}
    assert g.prop("reading-railroad")["mortgaged"] is False
    assert g.state["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}
    assert g.pending["trade_offers"] == [] and g.claims == []
    # The deeds are auctioned one after another in board order.
    assert g.pending["auction"] == {"item": "reading-railroad", "high_bid": 0, "high_bidder": None}
    assert g.pending["auction_queue"] == [
        "oriental-avenue",
        "vermont-avenue",
        "connecticut-avenue",
        "boardwalk",
    ]
    left, claim_off, offer_off, auction = g.texts()
    assert claim_off == "The 50 rent on Boardwalk lapses: Cat is out of the game."
    assert left == (
        "Cat left the game for good: 375 in cash returns to the Bank (75 of it for their "
        "buildings, sold back at half price); Reading Railroad, Oriental Avenue, Vermont "
        "Avenue, Connecticut Avenue and Boardwalk return to the Bank unmortgaged, to be "
        "auctioned one after another; the Chance Get Out of Jail Free card goes back to its "
        "deck."
    )
    assert offer_off.startswith("The offer is off") and "Cat" in offer_off
    assert auction == "Returned to the Bank: the Banker auctions Reading Railroad; bids open at 10."


@pytest.mark.parametrize("edition", EDITIONS)
def test_leave_the_jail_cards_return_to_the_decks(edition):
    g = table(edition)
    g.place("p2", 10, jail_cards=["chance", "community_chest"])
    g.do(type="leave", player="p2")
    g.land("p1", 7)
    g.draw("chance", "get-out-of-jail-free")  # back in its deck: it can be drawn again
    assert g.player("p1")["jail_cards"] == ["chance"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_leave_if_it_was_their_turn_turn_player_passes_to_the_next_player(edition):
    g = table(edition)
    g.do(type="leave", player="p1")
    assert g.turn == {"player": "p2", "doubles": 0, "first": "p2", "roller": "Bob"}
    g.do(type="leave", player="p3")  # not their turn: it stays Bob's
    assert g.state["status"] == "finished"


@pytest.mark.parametrize("edition", EDITIONS)
def test_leave_if_one_player_is_then_left_they_win_and_the_deeds_stay_with_the_bank(edition):
    g = table(edition, names=("Ann", "Bob"))
    g.own("p2", "park-place", "boardwalk", houses=2)
    g.do(type="leave", player="p2")
    assert (g.state["status"], g.state["winners"]) == ("finished", ["p1"])
    assert g.pending["auction"] is None and g.pending["auction_queue"] == []
    assert g.prop("boardwalk") == {"owner": None, "mortgaged": False, "houses": 0, "hotel": False}
    assert g.texts() == [
        "Bob left the game for good: 1,900 in cash returns to the Bank (400 of it for their "
        "buildings, sold back at half price); Park Place and Boardwalk stay with the Bank.",
        "Ann is the last player standing and wins.",
    ]


def test_leave_is_refused_with_teams():
    g = table(names=("Ann", "Bob", "Cat", "Dan"), options={"teams": True})
    assert g.refused(DomainError, type="leave", player="p2").code == "not_with_teams"


@pytest.mark.parametrize("edition", EDITIONS)
def test_leave_is_refused_for_a_debt_they_owe_that_is_bankrupt(edition):
    g = table(edition)
    g.place("p1", 1, cash=100)
    g.roll("p1", 1, 2)  # Income Tax: Ann owes the Bank 200
    e = g.refused(DomainError, type="leave", player="p1")
    assert (e.code, e.message) == (
        "debt_pending",
        "Ann owes the Bank 200: a player in debt pays it or goes bankrupt, rather than leaving.",
    )


def test_leave_is_refused_for_a_debt_they_are_owed():
    g = table()
    g.own("p2", "boardwalk")
    g.place("p1", 36, cash=10)
    g.roll("p1", 1, 2)
    g.claim()  # Ann owes Bob 50
    e = g.refused(DomainError, type="leave", player="p2")
    assert (e.code, e.message) == (
        "debt_pending",
        "Ann owes Bob 50: settle that debt before Bob leaves.",
    )
    e = g.refused(DomainError, type="leave", player="p3")  # nor may anyone else leave now
    assert (e.code, e.message) == (
        "debt_pending",
        "Ann owes Bob 50: the table settles that before Cat leaves.",
    )


def test_leave_is_refused_while_payments_to_or_from_them_wait():
    g = table()
    g.place("p1", 4, cash=20)
    g.roll("p1", 1, 2)  # Chance at 7
    g.draw("chance", "chairperson-pay-each-player-50")  # Ann owes Bob 50, then Cat 50
    assert g.pending["payments"][0]["to"] == "p3"
    e = g.refused(DomainError, type="leave", player="p3")
    assert (e.code, e.message) == (
        "debt_pending",
        "Ann owes Bob 50: the table settles that before Cat leaves.",
    )


@pytest.mark.parametrize(
    ("arrange", "code"),
    [
        ("offer", "offer_pending"),
        ("card", "card_pending"),
        ("dice", "rent_roll_pending"),
        ("high_bid", "high_bidder"),
    ],
)
def test_leave_is_refused_while_their_offer_card_rent_roll_or_high_bid_is_pending(arrange, code):
    g = table()
    if arrange == "offer":
        g.land("p1", 6)
    elif arrange == "card":
        g.land("p1", 7)
    elif arrange == "dice":
        g.own("p2", "electric-company")
        g.land("p1", 12)
    else:
        g.land("p2", 6) if g.whose_turn == "p2" else g.land("p1", 6)
        g.do(type="auction")
        g.do(type="bid", player="p1", amount=20)
    e = g.refused(DomainError, type="leave", player="p1")
    assert e.code == code
    if arrange == "high_bid":
        assert e.message == (
            "Ann holds the high bid in the auction of Oriental Avenue: close that auction "
            "before Ann leaves."
        )
        e = g.refused(DomainError, type="leave", player="p2")  # nor anyone else now
        assert e.message == (
            "The auction of Oriental Avenue is open: the table settles that before Bob leaves."
        )


def test_leave_is_refused_for_a_player_already_out_and_unknown_ids_are_malformed():
    g = table()
    out(g, "p1")
    assert g.refused(DomainError, type="leave", player="p1").code == "player_eliminated"
    assert g.refused(BadCommand, type="leave", player="p9").code == "unknown_player"
    assert g.refused(BadCommand, type="leave", player=2).code == "wrong_type"


@pytest.mark.parametrize("edition", EDITIONS)
def test_undo_takes_a_leave_back(edition):
    g = cat_with_everything(edition)
    before = g.state
    g.do(type="leave", player="p3")
    g.do(type="undo")
    after = g.state
    assert {**after, "version": 0, "_seq": 0} == {**before, "version": 0, "_seq": 0}
    assert g.texts()[0].startswith("Undid: Cat left the game for good")


def test_the_three_commands_are_the_bankers_only():
    g = table()
    for command in (
        {"type": "rename_player", "player": "p1", "name": "Annie"},
        {"type": "add_player", "name": "Dan"},
        {"type": "leave", "player": "p1"},
    ):
        assert player_refusal(g.state, "p1", command) == BANKER_ONLY[command["type"]]


# --- what the Banker may do now (rules.actions): the pages' Players section ----------------


def test_actions_offers_a_rename_of_anyone_a_latecomer_and_each_leave_the_rules_accept():
    g = table(names=("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))
    g.set_cash(p1=100)
    g.roll("p1", 1, 3)  # Income Tax: Ann owes the Bank 200
    said = actions(g.state, "banker", ["rename_player", "add_player", "leave"])
    renames = said["rename_player"]["targets"]
    assert [t["command"]["player"] for t in renames] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert all(t["allowed"] for t in renames)  # a name no one has: the page types the real one
    assert said["add_player"]["allowed"] is False
    assert said["add_player"]["why"] == "The game already has 6 players, the most it can seat."
    leaves = {t["command"]["player"]: t["why"] for t in said["leave"]["targets"]}
    assert leaves["p1"] == (
        "Ann owes the Bank 200: a player in debt pays it or goes bankrupt, rather than leaving."
    )
    assert leaves["p2"] == "Ann owes the Bank 200: the table settles that before Bob leaves."
    for t in renames + said["leave"]["targets"]:  # what it allows, apply accepts
        if t["allowed"]:
            apply(g.state, t["command"])


def test_actions_with_partnerships_offers_a_rename_but_no_latecomer_and_no_leave():
    g = table(names=("Ann", "Bob", "Cat", "Dan"), options={"teams": True})
    said = actions(g.state, "banker", ["rename_player", "add_player", "leave"])
    assert said["rename_player"]["allowed"] is True
    assert said["rename_player"]["targets"][0]["command"]["name"].count(" & ") == 1
    assert said["add_player"]["why"].startswith("No one can join the partnerships variation")
    assert said["leave"]["why"].startswith("In the partnerships variation no one leaves")
    assert actions(g.state, "p1", ["leave"])["leave"]["why"] == BANKER_ONLY["leave"]
