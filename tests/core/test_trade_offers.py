"""Trade offers (docs/api.md): a deal proposed by one player, waiting for the
other's answer. G0009: "Deals may exchange cash, other property and those cards, at an agreed
price; nobody has to accept" and "Let an auction or trade finish before the next roll"."""

from __future__ import annotations

import pytest

from banker.rules import apply, new_game, trade_refusal

from .holdings_helpers import DomainError, deed, jail_cards, pending, started, trade


def propose(frm="p1", to="p2", give=None, receive=None, unmortgage=None) -> dict:
    return {**trade(frm, to, give, receive, unmortgage), "type": "propose_trade"}


def offer(oid: str, frm="p1", to="p2", give=None, receive=None, unmortgage=None) -> dict:
    c = trade(frm, to, give, receive, unmortgage if unmortgage is not None else [])
    return {"id": oid, **{k: c[k] for k in ("from", "to", "give", "receive", "unmortgage")}}


VERMONT_FOR_150 = {"give": {"properties": ["vermont-avenue"]}, "receive": {"cash": 150}}


def game_with_vermont():
    g = started()
    g.own("p1", "vermont-avenue")
    return g


def test_a_proposed_trade_waits_in_pending_trade_offers_for_the_other_sides_answer():
    g = game_with_vermont()
    g.do(**propose(**VERMONT_FOR_150))
    assert g.pending == pending(trade_offers=[offer("o1", **VERMONT_FOR_150)])
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 1500}
    assert g.prop("vermont-avenue") == deed("p1")
    assert g.texts() == [
        "Ann offers Bob a trade: Ann gives Vermont Avenue to Bob for 150; Bob may accept or "
        "decline."
    ]


def test_accepting_an_offer_carries_it_out_exactly_as_trade():
    g, h = game_with_vermont(), game_with_vermont()
    g.do(**propose(**VERMONT_FOR_150))
    g.do(type="accept_trade", offer="o1")
    h.do(**trade("p1", "p2", **VERMONT_FOR_150))
    assert g.texts() == ["Bob accepted Ann's offer."] + h.texts()
    assert g.pending == pending()
    for key in ("players", "properties", "bank", "turn", "pending", "status"):
        assert g.state[key] == h.state[key]
    assert g.cashes() == {"p1": 1650, "p2": 1350, "p3": 1500}
    assert g.prop("vermont-avenue") == deed("p2")


def test_a_proposal_is_checked_as_trade_would_check_it_at_that_moment():
    g = game_with_vermont()
    for bad in (
        {"give": {"properties": ["oriental-avenue"]}},  # not Ann's
        {"give": {"cash": 10}, "receive": {"cash": 5}},  # cash alone
        {"receive": {"cash": 1600}, "give": {"properties": ["vermont-avenue"]}},
    ):
        e = g.refused(DomainError, **propose(**bad))
        assert (
            e.message
            == trade_refusal(g.state, {**trade("p1", "p2", **bad), "unmortgage": []}).message
        )
        assert e.message == g.refused(DomainError, **trade("p1", "p2", **bad)).message


def test_an_offer_no_longer_possible_is_refused_and_kept():
    g = game_with_vermont()
    g.do(**propose(**VERMONT_FOR_150))
    g.set_cash(p2=100)
    e = g.refused(DomainError, type="accept_trade", offer="o1")
    assert (e.code, e.message) == ("insufficient_cash", "Bob has only 100 in cash.")
    assert g.pending["trade_offers"] == [offer("o1", **VERMONT_FOR_150)]


def test_declining_removes_the_offer_and_from_may_withdraw_it_the_same_way():
    g = game_with_vermont()
    g.do(**propose(**VERMONT_FOR_150))
    g.do(type="decline_trade", offer="o1")
    assert g.pending == pending()
    assert g.texts() == ["Bob declined Ann's offer: Ann gives Vermont Avenue to Bob for 150."]
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 1500}


def test_an_offer_its_maker_takes_back_is_said_withdrawn_anyone_elses_no_declined():
    g = game_with_vermont()
    g.do(**propose(**VERMONT_FOR_150))
    said = {}
    for seat in ("p1", "p2", "banker", None):
        after, events = apply(g.state, {"type": "decline_trade", "offer": "o1"}, seat)
        said[seat] = [e["text"] for e in events]
        assert after["pending"] == pending()  # whoever sends it, it does the same
    deal = "Ann gives Vermont Avenue to Bob for 150."
    assert said == {
        "p1": [f"Ann withdrew their offer to Bob: {deal}"],
        "p2": [f"Bob declined Ann's offer: {deal}"],
        "banker": [f"Bob declined Ann's offer: {deal}"],  # the Banker's table: "Decline"
        None: [f"Bob declined Ann's offer: {deal}"],
    }


def test_an_offer_id_that_is_not_open_is_refused_by_the_rules():
    g = game_with_vermont()
    for kind in ("accept_trade", "decline_trade"):
        e = g.refused(DomainError, type=kind, offer="o1")
        assert e.code == "no_such_offer"
    g.do(**propose(**VERMONT_FOR_150))
    g.do(type="decline_trade", offer="o1")
    assert g.refused(DomainError, type="accept_trade", offer="o1").code == "no_such_offer"


def test_several_offers_may_be_open_with_ids_never_reused_even_after_undo():
    g = game_with_vermont()
    jail_cards(g, "p3", "chance")
    g.roll("p1", 4, 6)  # so that undo reaches back
    g.do(**propose(**VERMONT_FOR_150))
    g.do(type="undo")
    g.do(**propose(**VERMONT_FOR_150))
    cy_card = {"give": {"cash": 50}, "receive": {"jail_cards": ["chance"]}}
    g.do(**propose("p2", "p3", **cy_card))
    assert g.pending["trade_offers"] == [
        offer("o2", **VERMONT_FOR_150),
        offer("o3", "p2", "p3", **cy_card),
    ]
    g.do(type="accept_trade", offer="o3")
    assert g.pending["trade_offers"] == [offer("o2", **VERMONT_FOR_150)]
    assert g.player("p2")["jail_cards"] == ["chance"]
    assert g.cashes() == {"p1": 1500, "p2": 1450, "p3": 1550}


def test_let_an_auction_or_trade_finish_before_the_next_roll():
    """G0009: "Let an auction or trade finish before the next roll"."""
    g = game_with_vermont()
    g.do(**propose(**VERMONT_FOR_150))
    e = g.refused(DomainError, type="roll", player="p1", dice=[1, 2])
    assert (e.code, e.message) == (
        "trade_offer_pending",
        "Let an auction or trade finish before the next roll: Ann's trade offer to Bob is open "
        "(accept or decline it).",
    )
    g.do(type="decline_trade", offer="o1")
    g.roll("p1", 1, 2)


def test_an_offer_disappears_when_either_side_is_eliminated():
    g = started()
    g.own("p1", "vermont-avenue", "oriental-avenue")
    g.own("p3", "baltic-avenue", mortgaged=True)
    g.roll("p1", 4, 6)
    g.roll("p2", 4, 6)
    g.roll("p3", 3, 5)  # Cat: Vermont Avenue, Ann's: claim c1
    oriental = {"give": {"properties": ["oriental-avenue"]}, "receive": {"cash": 150}}
    g.do(**propose(**oriental))
    g.do(**propose("p3", "p1", give={"properties": ["baltic-avenue"]}))
    g.set_cash(p3=0)
    g.claim("c1")
    g.do(type="bankrupt", player="p3")
    assert g.pending == pending(trade_offers=[offer("o1", **oriental)])
    assert g.texts() == [
        "Cat is bankrupt and out of the game: Ann receives 0, Baltic Avenue (mortgaged).",
        "The offer is off, Cat being out of the game: Cat gives Baltic Avenue to Ann for nothing.",
    ]
    assert g.prop("baltic-avenue") == deed("p1", mortgaged=True)


def test_players_act_is_an_option_true_by_default():
    assert new_game("g1", "g0009", ["Ann", "Bob"])["options"]["players_act"] is True
    assert new_game("g1", "classic", ["Ann", "Bob"])["options"]["players_act"] is True
    s = new_game("g1", "g0009", ["Ann", "Bob"], {"players_act": False})
    assert s["options"]["players_act"] is False


# --- an offer never changes under its recipient ---------------------------------------------

EDITIONS = ["g0009", "classic"]
BALTIC_FOR_100 = {"give": {"properties": ["baltic-avenue"]}, "receive": {"cash": 100}}


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_offer_is_withdrawn_when_a_deed_in_it_is_mortgaged(edition):
    """docs/api.md: "An offer is withdrawn at once, with an event saying why ("The offer of Ann to
    Bob is off: Baltic Avenue was mortgaged."), when anything it names changes". Ann offered
    Baltic Avenue for 100 and mortgaged it: Bob must not pay 100 for a mortgaged deed while Ann
    keeps the 30 (nor, in classic, the 10% besides)."""
    g = started(edition)
    g.own("p1", "baltic-avenue")
    g.do(**propose(**BALTIC_FOR_100))
    g.do(type="mortgage", property="baltic-avenue")
    assert g.texts() == [
        "Ann mortgaged Baltic Avenue for 30.",
        "The offer of Ann to Bob is off: Baltic Avenue was mortgaged.",
    ]
    assert g.pending == pending()
    e = g.refused(DomainError, type="accept_trade", offer="o1")
    assert e.code == "no_such_offer"
    assert g.cashes() == {"p1": 1530, "p2": 1500, "p3": 1500}
    assert g.prop("baltic-avenue") == deed("p1", mortgaged=True)


def test_an_offer_is_withdrawn_when_a_mortgage_in_it_is_lifted():
    g = started("classic")
    g.own("p1", "baltic-avenue", mortgaged=True)
    g.do(**propose(**BALTIC_FOR_100))
    g.do(type="unmortgage", property="baltic-avenue")  # 30 + 10%
    assert g.texts() == [
        "Ann lifted the mortgage on Baltic Avenue for 33.",
        "The offer of Ann to Bob is off: the mortgage on Baltic Avenue was lifted.",
    ]
    assert g.pending == pending()


def test_an_offer_is_withdrawn_when_a_deed_in_it_changes_hands_by_another_deal():
    g = started()
    g.own("p1", "baltic-avenue")
    g.do(**propose(**BALTIC_FOR_100))  # o1 to Bob
    g.do(**propose("p1", "p3", **BALTIC_FOR_100))  # o2 to Cat
    g.do(type="accept_trade", offer="o2")
    assert g.texts()[-1] == "The offer of Ann to Bob is off: Baltic Avenue went to Cat."
    assert g.pending == pending()
    assert g.cashes() == {"p1": 1600, "p2": 1500, "p3": 1400}


def test_an_offer_is_withdrawn_when_a_building_is_built_on_its_color_set():
    g = started()
    g.own("p1", "oriental-avenue", "vermont-avenue", "connecticut-avenue")
    g.own("p2", "reading-railroad")
    rr = {"give": {"cash": 200}, "receive": {"properties": ["reading-railroad"]}}
    g.do(**propose("p1", "p2", give={"properties": ["vermont-avenue"]}, receive={"cash": 150}))
    g.do(**propose("p1", "p2", **rr))
    g.do(type="build", property="oriental-avenue")
    assert g.texts() == [
        "Ann built a house on Oriental Avenue for 50.",
        "The offer of Ann to Bob is off: a house was built on Oriental Avenue.",
    ]
    assert g.pending["trade_offers"] == [offer("o2", **rr)]  # names nothing of that set


def test_an_offer_is_withdrawn_when_a_jail_card_in_it_is_used_or_changes_hands():
    g = started()
    jail_cards(g, "p1", "chance", "community_chest")
    g.setup(lambda s: s["players"][0].update(in_jail=True, position=10))
    g.do(**propose(give={"jail_cards": ["chance"]}, receive={"cash": 50}))
    g.do(**propose(give={"jail_cards": ["community_chest"]}, receive={"cash": 50}))
    g.do(**propose("p1", "p3", give={"jail_cards": ["community_chest"]}, receive={"cash": 40}))
    g.do(type="use_jail_card", player="p1", deck="chance")
    assert g.texts()[-1] == (
        "The offer of Ann to Bob is off: the Chance Get Out of Jail Free card was used."
    )
    g.do(type="accept_trade", offer="o3")
    assert g.texts()[-1] == (
        "The offer of Ann to Bob is off: the Community Chest Get Out of Jail Free card went to Cat."
    )
    assert g.pending == pending()


def test_an_offer_whose_things_are_unchanged_stays_open_whatever_else_happens():
    """Only what an offer names withdraws it: others' deeds, cash, a sale of a building."""
    g = started()
    g.own("p1", "baltic-avenue")
    g.own("p2", "oriental-avenue", "vermont-avenue", "connecticut-avenue", houses=1)
    g.do(**propose(**BALTIC_FOR_100))
    g.do(type="sell_building", property="vermont-avenue")
    g.do(type="adjust", player="p2", amount=-50, reason="miscounted change")
    assert g.pending["trade_offers"] == [offer("o1", **BALTIC_FOR_100)]
    g.do(type="accept_trade", offer="o1")
    assert g.cashes() == {"p1": 1600, "p2": 1500 + 25 - 50 - 100, "p3": 1500}


def test_at_most_five_offers_are_open_per_player_as_from():
    """docs/api.md: "A player may have at most 5 offers open as `from` (the 6th is 422
    `too_many_offers`)"."""
    g = started()
    g.own("p1", "baltic-avenue")
    g.own("p2", "reading-railroad")
    for cash in range(100, 105):
        g.do(**propose(give={"properties": ["baltic-avenue"]}, receive={"cash": cash}))
    e = g.refused(DomainError, **propose(give={"properties": ["baltic-avenue"]}))
    assert (e.code, e.message) == (
        "too_many_offers",
        "Ann already has 5 offers open: withdraw one (or wait for an answer) before offering "
        "another.",
    )
    g.do(**propose("p2", "p1", give={"properties": ["reading-railroad"]}))  # Bob may still
    g.do(type="decline_trade", offer="o3")
    g.do(**propose(give={"properties": ["baltic-avenue"]}, receive={"cash": 99}))
    assert [o["id"] for o in g.pending["trade_offers"] if o["from"] == "p1"] == [
        "o1",
        "o2",
        "o4",
        "o5",
        "o7",
    ]
