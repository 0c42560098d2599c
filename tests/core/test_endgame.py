"""How a game ends: rent claims that outlive the agreed deadline's final round,
`score_game`, `stop` (an unfinished game), and no rent on a mortgaged deed.

G0009, the agreed deadline: "All movement, auctions, rent, building and debt rules stay
unchanged", and rent is owed "when its owner asks before the next player rolls": in the final
round there is no next roll.
"""

from __future__ import annotations

import pytest

from banker.rules import askable_claims, claim_refusal, phase, phase_sentence

from .holdings_helpers import CoreGame, DomainError, debt, deed, pending, started, trade

NAMES = ("Ann", "Bob", "Cy")


def claim(cid: str, owner: str, payer: str, prop: str, amount: int) -> dict:
    return {"id": cid, "owner": owner, "payer": payer, "property": prop, "amount": amount}


def deadline_game(*owned: str, cy_at: int = 0, cy_cash: int | None = None):
    """Ann owns `owned`; Ann and Bob have had their turn of the final round; Cy rolls last."""
    g = started(names=NAMES, options={"deadline": True})
    for prop in owned:
        g.own("p1", prop)
    g.roll("p1", 4, 6)  # Just Visiting
    g.do(type="call_time")
    g.roll("p2", 4, 6)  # Just Visiting
    g.place("p3", cy_at)
    if cy_cash is not None:
        g.set_cash(p3=cy_cash)
    return g


WAITING_TURN = {"player": None, "doubles": 0, "first": "p1", "roller": "Ann"}


def assert_waiting(g, *claims: dict) -> None:
    """The final round is over and the game waits for these claims."""
    assert g.state["status"] == "playing"
    assert g.turn == WAITING_TURN
    assert g.pending == pending(rent_claims=list(claims), final_round=True)
    assert g.state["winners"] == [] and g.state["scores"] is None
    assert phase(g.state) == "claims_wait"
    assert phase_sentence(g.state) == "Final round over: waiting for rent claims."


def assert_finished(g, scores: dict, winners: list) -> None:
    assert g.state["status"] == "finished"
    assert g.state["scores"] == scores
    assert g.state["winners"] == winners
    assert g.turn["player"] is None
    assert g.pending == pending()


# --- the agreed deadline: claims open when the final round ends stay claimable --------------


def test_pay_rent_when_its_owner_asks_before_the_next_player_rolls_street_in_final_round():
    """Cy lands on Ann's Vermont Avenue as the round ends: a win that was Ann's alone must not
    be scored as a three-way tie. docs/api.md: "rent claims open at that moment do not lapse"."""
    g = deadline_game("vermont-avenue")
    g.roll("p3", 3, 5)  # Vermont Avenue, Ann's: the turn would pass back to Ann
    assert_waiting(g, claim("c1", "p1", "p3", "vermont-avenue", 6))
    assert g.texts()[-2:] == [
        "Ann may ask Cy for 6 rent on Vermont Avenue before the next player rolls.",
        "The final round is over; open rent claims may still be asked, then the game is scored.",
    ]
    g.claim("c1")
    assert g.cashes() == {"p1": 1506, "p2": 1500, "p3": 1494}
    assert_finished(g, {"p1": 1606, "p2": 1500, "p3": 1494}, ["p1"])
    assert g.texts() == [
        "Ann asked Cy for 6 rent on Vermont Avenue.",
        "Cy paid Ann 6 (rent on Vermont Avenue).",
        "The round is over and the game is scored: Ann 1,606; Bob 1,500; Cy 1,494. Ann wins.",
    ]


def test_all_movement_auctions_rent_building_and_debt_rules_stay_unchanged_a_railroad():
    g = deadline_game("reading-railroad")
    g.roll("p3", 2, 3)  # Reading Railroad, Ann's
    assert_waiting(g, claim("c1", "p1", "p3", "reading-railroad", 25))
    g.claim("c1")
    assert_finished(g, {"p1": 1525 + 200, "p2": 1500, "p3": 1475}, ["p1"])


def test_for_a_normal_utility_landing_roll_the_dice_to_determine_rent_in_the_final_round():
    """G0009: "For a normal utility landing, this edition instructs you to roll the dice to
    determine rent": the rent roll and the claim it opens both come before the score."""
    g = deadline_game("electric-company", cy_at=2)
    g.roll("p3", 4, 6)  # Electric Company, Ann's
    assert g.state["status"] == "playing"
    assert g.turn["player"] == "p1"  # the round is not over while the rent roll waits
    assert g.pending == pending(
        dice={
            "player": "p3",
            "reason": "utility_rent",
            "multiplier": 4,
            "property": "electric-company",
        },
        final_round=True,
    )
    g.do(type="rent_roll", dice=[3, 4])
    assert_waiting(g, claim("c1", "p1", "p3", "electric-company", 28))
    g.claim("c1")
    assert g.cashes() == {"p1": 1528, "p2": 1500, "p3": 1472}
    assert_finished(g, {"p1": 1528 + 150, "p2": 1500, "p3": 1472}, ["p1"])


def test_a_claim_that_creates_a_debt_is_settled_by_the_debt_rules_before_the_score():
    """G0009: "If you owe rent ... and lack cash, raise money by selling buildings back and
    mortgaging properties." API: while claims wait, what settles a debt a claim creates is
    accepted."""
    g = deadline_game("vermont-avenue", cy_cash=3)
    g.own("p3", "baltic-avenue")
    g.roll("p3", 3, 5)
    assert_waiting(g, claim("c1", "p1", "p3", "vermont-avenue", 6))
    g.claim("c1")
    assert g.state["status"] == "playing" and g.turn == WAITING_TURN
    assert g.pending == pending(debt=debt("p3", "p1", 6, "rent", 30), final_round=True)
    g.refused(DomainError, type="score_game")  # settle the debt first
    g.do(type="mortgage", property="baltic-avenue")
    assert g.state["status"] == "playing"
    g.do(type="pay_debt")
    assert g.cashes() == {"p1": 1506, "p2": 1500, "p3": 27}
    assert g.prop("baltic-avenue") == deed("p3", mortgaged=True)
    assert_finished(g, {"p1": 1606, "p2": 1500, "p3": 27 + 30}, ["p1"])


def test_a_claim_whose_debt_cannot_be_raised_ends_in_bankruptcy_then_the_score():
    g = deadline_game("vermont-avenue", cy_cash=3)
    g.roll("p3", 3, 5)
    g.claim("c1")
    g.do(type="bankrupt", player="p3")
    assert g.player("p3")["eliminated"] is True
    assert g.cashes() == {"p1": 1503, "p2": 1500, "p3": 0}
    assert_finished(g, {"p1": 1603, "p2": 1500}, ["p1"])


def test_score_game_with_claims_open_scores_now_and_the_open_claims_lapse():
    """API: the game becomes finished "at score_game (open claims lapse then)"."""
    g = deadline_game("vermont-avenue")
    g.roll("p3", 3, 5)
    g.do(type="score_game")
    assert g.cashes() == {"p1": 1500, "p2": 1500, "p3": 1500}
    assert_finished(g, {"p1": 1600, "p2": 1500, "p3": 1500}, ["p1"])
    assert g.texts() == [
        "The Banker scores the game now.",
        "The 6 rent on Vermont Avenue lapses: the game is over.",
        "The round is over and the game is scored: Ann 1,600; Bob 1,500; Cy 1,500. Ann wins.",
    ]
    g.refused(DomainError, type="undo")


def test_score_game_at_any_other_time_is_refused():
    g = started(names=NAMES, options={"deadline": True})
    e = g.refused(DomainError, type="score_game")
    assert e.code == "not_waiting_for_claims"
    g.roll("p1", 4, 6)
    g.do(type="call_time")
    assert g.refused(DomainError, type="score_game").code == "not_waiting_for_claims"
    g = deadline_game()
    g.roll("p3", 4, 6)  # nothing to claim: scored at once
    assert g.state["status"] == "finished"
    assert g.refused(DomainError, type="score_game").code == "game_finished"


WAITING_REFUSED = [
    {"type": "roll", "player": "p1", "dice": [1, 2]},
    {"type": "build", "property": "vermont-avenue"},
    {"type": "unmortgage", "property": "baltic-avenue"},
    {"type": "call_time"},
    {"type": "stop"},
    {"type": "move", "player": "p1", "position": 3},
    {"type": "buy"},
    {"type": "propose_trade", **trade("p1", "p2", receive={"cash": 5}, give={"properties": ["vermont-avenue"]})},  # noqa: E501
]  # fmt: skip
NO_DEBT_REFUSED = [
    {"type": "mortgage", "property": "vermont-avenue"},
    {"type": "sell_building", "property": "vermont-avenue"},
    trade("p1", "p2", give={"properties": ["vermont-avenue"]}, receive={"cash": 5}),
]


@pytest.mark.parametrize("command", WAITING_REFUSED + NO_DEBT_REFUSED)
def test_while_claims_wait_only_claims_their_debts_score_game_adjust_and_undo_are_accepted(command):
    """API: "only claim_rent, what settles a debt a claim creates (sell_building, mortgage,
    trade, pay_debt, bankrupt), the Banker's score_game, adjust and undo are accepted"; G0009:
    "Do not sell, trade or unmortgage after the cutoff"."""
    g = deadline_game("vermont-avenue")
    g.own("p3", "baltic-avenue", mortgaged=True)
    g.roll("p3", 3, 5)
    e = g.refused(DomainError, **command)
    assert e.code == "final_round_over"


def test_while_claims_wait_the_banker_may_still_adjust_and_undo():
    g = deadline_game("vermont-avenue")
    g.roll("p3", 3, 5)
    g.do(type="adjust", player="p2", amount=5, reason="miscounted change")
    assert_waiting(g, claim("c1", "p1", "p3", "vermont-avenue", 6))
    g.do(type="undo")
    g.do(type="undo")  # Cy's roll taken back: Cy rolls again
    assert g.state["status"] == "playing"
    assert g.turn == {"player": "p3", "doubles": 0, "first": "p1", "roller": "Cy"}
    assert g.pending == pending(final_round=True)


def test_time_called_when_the_turn_is_back_with_the_first_player_keeps_claims_then_open():
    """API: "Time called when the turn is back with turn.first before they roll ends the round
    at once (the same rule applies to claims then open)"."""
    g = started(names=NAMES, options={"deadline": True})
    g.own("p1", "vermont-avenue")
    g.roll("p1", 4, 6)
    g.roll("p2", 4, 6)
    g.roll("p3", 3, 5)
    g.do(type="call_time")
    assert_waiting(g, claim("c1", "p1", "p3", "vermont-avenue", 6))
    g.claim("c1")
    assert_finished(g, {"p1": 1606, "p2": 1500, "p3": 1494}, ["p1"])


def test_a_claim_that_can_no_longer_be_asked_does_not_hold_the_game_open():
    """G0009: "No rent is collected on a mortgaged property": a claim on a deed mortgaged since
    the landing cannot be asked, so it neither waits nor is listed; it lapses at the score."""
    g = deadline_game("vermont-avenue")
    g.own("p2", "states-avenue")
    g.roll("p3", 4, 4)  # Vermont Avenue, doubles: Cy rolls again
    g.do(type="mortgage", property="vermont-avenue")  # Ann pockets 50
    g.roll("p3", 2, 3)  # States Avenue, Bob's
    c1 = claim("c1", "p1", "p3", "vermont-avenue", 6)
    c2 = claim("c2", "p2", "p3", "states-avenue", 10)
    assert_waiting(g, c1, c2)
    assert askable_claims(g.state) == [c2]
    g.claim("c2")
    assert g.cashes() == {"p1": 1550, "p2": 1510, "p3": 1490}
    assert_finished(g, {"p1": 1550 + 50, "p2": 1510 + 140, "p3": 1490}, ["p2"])
    assert g.texts()[-2] == "The 6 rent on Vermont Avenue lapses: the game is over."


# --- stop: an unfinished game ---------------------------------------------------------------


def stopped_game():
    g = started(names=NAMES)
    g.roll("p1", 3, 5)
    g.do(type="buy")
    g.roll("p2", 3, 5)  # Vermont Avenue, Ann's: a claim is open
    g.do(type="stop")
    return g


def test_if_everyone_agrees_to_stop_early_record_it_as_an_unfinished_game():
    """G0009: "If everyone agrees to stop early, record it as an unfinished game unless you chose
    a different finish in advance." API: status unfinished, winners empty, scores null."""
    g = stopped_game()
    assert g.state["status"] == "unfinished"
    assert g.state["winners"] == [] and g.state["scores"] is None
    assert g.turn == {"player": None, "doubles": 0, "first": "p1", "roller": "Cy"}
    assert g.pending == pending()
    assert g.cashes() == {"p1": 1400, "p2": 1500, "p3": 1500}
    assert g.prop("vermont-avenue") == deed("p1")
    assert g.texts() == [
        "Everyone agreed to stop early: the game is recorded as unfinished, with no winner."
    ]
    assert phase_sentence(g.state) == "The game was stopped early: unfinished, no winner."


@pytest.mark.parametrize(
    "command",
    [
        {"type": "roll", "player": "p3", "dice": [1, 2]},
        {"type": "claim_rent", "claim": "c1"},
        {"type": "mortgage", "property": "vermont-avenue"},
        {"type": "adjust", "player": "p1", "amount": 5, "reason": "late"},
        {"type": "move", "player": "p1", "position": 3},
        {"type": "stop"},
        {"type": "start", "first": "p1"},
        {"type": "score_game"},
    ],
)
def test_after_a_stop_every_command_is_refused_except_undo(command):
    g = stopped_game()
    e = g.refused(DomainError, **command)
    assert e.code == "game_stopped"
    assert e.message == (
        "The game was stopped early (unfinished); nothing more can be recorded. Undo takes the "
        "stop back."
    )


def test_undo_takes_the_stop_back_wherever_it_stands():
    g = started(names=NAMES)
    g.roll("p1", 3, 5)
    g.do(type="buy")
    g.roll("p2", 3, 5)
    before = g.state
    g.do(type="stop")
    g.do(type="undo")
    assert {k: v for k, v in g.state.items() if k not in ("version", "_seq", "_undo")} == {
        k: v for k, v in before.items() if k not in ("version", "_seq", "_undo")
    }
    assert g.texts() == [
        "Undid: Everyone agreed to stop early: the game is recorded as unfinished, with no winner."
    ]
    g.claim("c1")  # play goes on
    assert g.cashes() == {"p1": 1406, "p2": 1494, "p3": 1500}


def test_undo_takes_the_stop_back_even_before_the_first_roll():
    """API: "undo, which takes the stop back wherever it stands (even before the first roll)"."""
    g = started(names=NAMES)
    g.do(type="stop")
    g.do(type="undo")
    assert g.state["status"] == "playing"
    assert g.turn == {"player": "p1", "doubles": 0, "first": "p1", "roller": "Ann"}
    e = g.refused(DomainError, type="undo")
    assert e.code == "nothing_to_undo"


def test_a_stop_is_refused_before_the_game_starts():
    g = CoreGame(NAMES)
    assert g.refused(DomainError, type="stop").code == "not_started"


# --- no rent on a mortgaged deed --------------------------------------------------------------


def landed_on_vermont():
    g = started(names=NAMES)
    g.own("p1", "vermont-avenue")
    g.roll("p1", 4, 6)
    g.roll("p2", 3, 5)  # Vermont Avenue, Ann's
    assert g.claims == [claim("c1", "p1", "p2", "vermont-avenue", 6)]
    return g


def test_no_rent_is_collected_on_a_mortgaged_property_even_one_mortgaged_after_the_landing():
    """G0009: "No rent is collected on a mortgaged property." API: claim_rent is refused (422)
    when, at the moment of asking, the deed is mortgaged."""
    g = landed_on_vermont()
    g.do(type="mortgage", property="vermont-avenue")
    e = g.refused(DomainError, type="claim_rent", claim="c1")
    assert (e.code, e.message) == (
        "mortgaged",
        "Vermont Avenue is mortgaged now: No rent is collected on a mortgaged property.",
    )
    assert claim_refusal(g.state, "c1").code == "mortgaged"
    assert askable_claims(g.state) == []
    assert g.cashes() == {"p1": 1550, "p2": 1500, "p3": 1500}


def test_the_amount_stays_the_one_fixed_at_landing_once_the_mortgage_is_lifted():
    g = landed_on_vermont()
    g.do(type="mortgage", property="vermont-avenue")
    g.do(type="unmortgage", property="vermont-avenue")  # lifted for 55
    assert claim_refusal(g.state, "c1") is None
    g.claim("c1")
    assert g.cashes() == {"p1": 1500 + 50 - 55 + 6, "p2": 1494, "p3": 1500}


def test_a_claim_is_refused_when_the_deed_is_no_longer_the_claim_owners():
    g = landed_on_vermont()
    g.do(**trade("p1", "p3", give={"properties": ["vermont-avenue"]}, receive={"cash": 100}))
    e = g.refused(DomainError, type="claim_rent", claim="c1")
    assert (e.code, e.message) == (
        "not_owner",
        "Ann no longer owns Vermont Avenue, so cannot ask for its rent.",
    )
    assert askable_claims(g.state) == []


def test_claim_refusal_answers_as_claim_rent_would():
    g = landed_on_vermont()
    assert claim_refusal(g.state, "c1") is None
    assert askable_claims(g.state) == g.claims
    assert claim_refusal(g.state, "c9").code == "no_such_claim"


# --- the cutoff holds for everyone but the debtor ---------------------------------------------


def cutoff_with_a_debt():
    """After the cutoff Cy owes Ann 30 rent (a house on Vermont Avenue) with 3 in cash; Cy owns
    Baltic and Mediterranean Avenues, Bob Reading Railroad and a mortgaged Short Line."""
    g = deadline_game(cy_cash=3)
    g.own("p1", "oriental-avenue", "vermont-avenue", "connecticut-avenue", houses=1)
    g.own("p2", "reading-railroad")
    g.own("p2", "short-line", mortgaged=True)
    g.own("p3", "baltic-avenue", "mediterranean-avenue")
    g.roll("p3", 3, 5)  # Vermont Avenue, Ann's: the final round is over
    g.claim("c1")
    assert g.pending == pending(debt=debt("p3", "p1", 30, "rent", 60), final_round=True)
    return g


def propose(frm, to, give=None, receive=None, unmortgage=None) -> dict:
    return {**trade(frm, to, give, receive, unmortgage), "type": "propose_trade"}


REFUSED_AFTER_THE_CUTOFF = [
    ({"type": "mortgage", "property": "reading-railroad"}, "only Cy, raising cash for the debt"),
    ({"type": "sell_building", "property": "vermont-avenue"}, "only Cy, raising cash for the debt"),
    (
        trade("p1", "p2", give={"cash": 250}, receive={"properties": ["reading-railroad"]}),
        "a trade after the cutoff must be with Cy",
    ),
    (
        propose("p1", "p2", give={"cash": 250}, receive={"properties": ["reading-railroad"]}),
        "a trade after the cutoff must be with Cy",
    ),
    (
        trade("p3", "p2", give={"cash": 1}, receive={"properties": ["short-line"]}, unmortgage=["short-line"]),  # noqa: E501
        "no mortgage may be lifted after the cutoff",
    ),
    ({"type": "unmortgage", "property": "short-line"}, "only the open rent claims"),
    ({"type": "build", "property": "vermont-avenue"}, "only the open rent claims"),
    ({"type": "call_time"}, "only the open rent claims"),
    ({"type": "move", "player": "p2", "position": 3}, "only the open rent claims"),
    ({"type": "stop"}, "only the open rent claims"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "said"), REFUSED_AFTER_THE_CUTOFF)
def test_do_not_sell_trade_or_unmortgage_after_the_cutoff_everyone_but_the_debtor(command, said):
    """G0009 variation: "Do not sell, trade or unmortgage after the cutoff." docs/api.md: it "holds
    for everyone but that debtor": Bob's mortgage, Ann's sale and Ann's 250 for Bob's Reading
    Railroad would each move points of the final score."""
    g = cutoff_with_a_debt()
    e = g.refused(DomainError, **command)
    assert e.code == "final_round_over"
    assert said in e.message


def test_the_debtor_alone_may_raise_cash_after_the_cutoff_by_selling_mortgaging_or_trading():
    """G0009: "raise money by selling buildings back and mortgaging properties. You can also
    negotiate a legal property trade"; docs/api.md: a deal "only with the debtor as one of its
    two sides, sent by the Banker or by either side's own token"."""
    g = cutoff_with_a_debt()
    g.do(type="mortgage", property="baltic-avenue")  # Cy: +30
    medi = {"give": {"properties": ["mediterranean-avenue"]}, "receive": {"cash": 40}}
    g.do(**propose("p3", "p2", **medi))  # Cy offers Bob
    g.do(**propose("p2", "p3", give={"cash": 5}, receive={"properties": ["baltic-avenue"]}))
    g.do(type="decline_trade", offer="o2")  # anyone it concerns may decline it
    g.do(type="accept_trade", offer="o1")
    assert g.cashes() == {"p1": 1500, "p2": 1460, "p3": 73}
    assert g.prop("mediterranean-avenue") == deed("p2")
    assert g.state["status"] == "playing"
    g.do(type="pay_debt")
    assert g.state["status"] == "finished"
    assert g.cashes() == {"p1": 1530, "p2": 1460, "p3": 43}


def test_open_offers_do_not_hold_the_final_round_open_and_are_withdrawn_when_it_is_scored():
    """docs/api.md: "Open trade offers do not hold the final round open: when a game ends
    (finished or unfinished) every open offer is withdrawn"."""
    g = deadline_game("vermont-avenue")
    g.roll("p3", 1, 2)  # Baltic Avenue, unowned: the round ends once Cy buys it or not
    g.do(**propose("p1", "p2", give={"properties": ["vermont-avenue"]}, receive={"cash": 150}))
    g.do(type="buy")
    assert_finished(g, {"p1": 1600, "p2": 1500, "p3": 1500 - 60 + 60}, ["p1"])
    assert g.texts()[-2:] == [
        "The round is over and the game is scored: Ann 1,600; Bob 1,500; Cy 1,500. Ann wins.",
        "The offer of Ann to Bob is off: the game is over.",
    ]


def test_time_called_on_the_first_players_turn_ends_the_round_at_once_whatever_offers_are_open():
    """docs/api.md: "Time called when the turn is back with turn.first before they roll ends
    the round at once", and open trade offers do not hold the final round open."""
    g = started(names=NAMES, options={"deadline": True})
    g.own("p1", "vermont-avenue")
    g.roll("p1", 4, 6)
    g.roll("p2", 4, 6)
    g.roll("p3", 4, 6)  # back to Ann
    g.do(**propose("p1", "p2", give={"properties": ["vermont-avenue"]}, receive={"cash": 150}))
    g.do(type="call_time")
    assert g.state["status"] == "finished"
    assert g.pending == pending()
    assert g.texts()[-1] == ("The offer of Ann to Bob is off: the game is over.")


def test_open_offers_are_withdrawn_when_the_game_is_stopped_and_back_again_after_undo():
    g = started(names=NAMES)
    g.own("p1", "vermont-avenue")
    g.do(**propose("p1", "p2", give={"properties": ["vermont-avenue"]}, receive={"cash": 150}))
    g.do(type="stop")
    assert g.pending == pending()
    assert g.texts() == [
        "Everyone agreed to stop early: the game is recorded as unfinished, with no winner.",
        "The offer of Ann to Bob is off: the game was stopped.",
    ]
    g.do(type="undo")
    assert [o["id"] for o in g.pending["trade_offers"]] == ["o1"]
