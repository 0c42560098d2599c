"""Trade offers (docs/api.md): a deal proposed by one player, waiting for the
other's answer. G0009: "Deals may exchange cash, other property and those cards, at an agreed
price; nobody has to accept" and "Let an auction or trade finish before the next roll"."""

from __future__ import annotations

from banker.rules import new_game, trade_refusal

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
    assert g.texts() == [
        "The offer is off (declined or withdrawn): Ann gives Vermont Avenue to Bob for 150."
    ]
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 1500}


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
