"""The core's sentences say each thing once and only what happened."""

from __future__ import annotations

import pytest

from .helpers import started

EDITIONS = ["g0009", "classic"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_landing_exactly_on_go_is_said_once_with_its_200(edition):
    g = started(edition)
    g.place("p1", 36)
    g.roll("p1", 1, 3)  # 36 + 4 = 40: GO
    assert g.texts() == ["Ann rolled 1 and 3.", "Ann landed on GO and collected 200."]
    assert (g.position("p1"), g.cashes()["p1"]) == (0, 1700)


def test_passing_go_onto_another_space_still_says_where_the_token_landed():
    g = started()
    g.place("p1", 38)
    g.roll("p1", 1, 2)
    assert g.texts() == [
        "Ann rolled 1 and 2.",
        "Ann passed GO and collected 200.",
        "Ann landed on Mediterranean Avenue.",
        "Ann may buy Mediterranean Avenue for 60 or put it up for auction.",
    ]


@pytest.mark.parametrize("edition", EDITIONS)
def test_three_doubles_before_jail_do_not_mention_go_which_lies_behind(edition):
    g = started(edition)
    g.place("p1", 0)
    g.roll("p1", 1, 1)  # Community Chest
    g.draw("community_chest", "collect-50-walking-path")
    g.roll("p1", 1, 1)  # 4: Income Tax, paid at once
    g.roll("p1", 2, 2)
    assert g.texts()[-1] == "Ann rolled doubles three times in a row and went to Jail."
    assert (g.position("p1"), g.player("p1")["in_jail"]) == (10, True)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_bankruptcy_to_a_player_says_every_deed_that_passes_is_mortgaged(edition):
    g = started(edition)
    g.own("p1", "baltic-avenue", mortgaged=True)
    g.own("p1", "oriental-avenue")
    g.own("p2", "boardwalk", hotel=True)
    g.own("p2", "park-place", hotel=True)
    g.set_cash(p1=10)
    g.place("p1", 34)
    g.roll("p1", 2, 3)
    g.claim()
    g.do(type="bankrupt", player="p1")
    assert g.texts()[0] == (
        "Ann is bankrupt and out of the game: Bob receives 60 and 2 deeds, both mortgaged: "
        "Baltic Avenue and Oriental Avenue."
    )
    assert g.prop("oriental-avenue")["mortgaged"] is True
