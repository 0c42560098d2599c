"""The Free Parking jackpot house rule through the API (Flask test client), in both editions:
docs/api.md, "House rule: the Free Parking jackpot"."""

from __future__ import annotations

import pytest

EDITIONS = ["g0009", "classic"]


@pytest.fixture(params=EDITIONS)
def jackpot(new_game, request):
    """Ann, Bob and Cat with the house rule, started: Ann rolls first."""
    g = new_game(["Ann", "Bob", "Cat"], request.param, {"free_parking_jackpot": True})
    g.start("p1")
    return g


def pot(g) -> int:
    return g.state["bank"]["free_parking"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_option_is_false_by_default_and_bank_free_parking_stays_0(new_game, edition):
    g = new_game(["Ann", "Bob"], edition)
    assert g.state["options"]["free_parking_jackpot"] is False
    assert g.state["bank"] == {"houses": 32, "hotels": 12, "free_parking": 0}
    g.start("p1")
    g.land("p1", 4)
    g.land("p2", 20)
    assert pot(g) == 0 and g.cashes() == {"p1": 1300, "p2": 1500}


def test_the_option_must_be_true_or_false(client):
    r = client.post(
        "/api/v1/games",
        json={"players": ["Ann", "Bob"], "options": {"free_parking_jackpot": "yes"}},
    )
    assert r.status_code == 400
    assert r.get_json()["error"]["code"] == "wrong_type"


def test_taxes_cards_and_the_jail_fine_feed_the_pot_and_a_roll_onto_free_parking_collects_it(
    jackpot,
):
    jackpot.land("p1", 4)  # Income Tax
    assert jackpot.texts()[-1] == "Ann paid 200 (Income Tax) into the Free Parking pot, now 200."
    jackpot.land("p2", 7)
    jackpot.draw("chance", "speeding-fine-15")
    assert pot(jackpot) == 215
    jackpot.land("p3", 20)
    assert jackpot.texts()[-1] == "Cat collected the Free Parking pot: 215."
    assert pot(jackpot) == 0
    assert jackpot.cash("p3") == 1715
    assert jackpot.events[-1]["type"] == "free_parking"


def test_a_player_token_sees_the_pot_and_pays_the_jail_fine_into_it(jackpot):
    jackpot.pass_to("p2")
    jackpot.land("p2", 30)  # Go to Jail
    jackpot.pass_to("p2")
    jackpot.do(type="pay_jail_fine", player="p2", token=jackpot.tokens["p2"])
    seen = jackpot.read(token=jackpot.tokens["p1"])
    assert seen["bank"]["free_parking"] == 50


def test_undo_takes_a_collection_back(jackpot):
    jackpot.land("p1", 38)  # Luxury Tax, 100
    jackpot.land("p2", 20)
    assert (pot(jackpot), jackpot.cash("p2")) == (0, 1600)
    jackpot.do(type="undo")
    assert (pot(jackpot), jackpot.cash("p2")) == (100, 1500)
    assert jackpot.texts()[0].startswith("Undid: Bob rolled")


def test_a_move_correction_onto_free_parking_collects_nothing(jackpot):
    jackpot.land("p1", 4)
    jackpot.move("p2", 20)
    assert (pot(jackpot), jackpot.cash("p2")) == (200, 1500)
