"""The player's page says where a token is and what an eliminated player holds in words that
read right: "In Jail", "Just Visiting", "On Boardwalk", and out of the game."""

from __future__ import annotations

from tests.app.test_player import START, page, text_of


def test_a_token_just_visiting_jail_reads_just_visiting_not_on_just_visiting(new_game):
    g = new_game(["Ann", "Bob"])
    g.do(START)
    g.do({"type": "roll", "player": "p1", "dice": [4, 6]})  # 10: Just Visiting
    ann, bob = text_of(page(g, "p1")), text_of(page(g, "p2"))
    assert "Token Just Visiting" in ann
    assert "Ann 1,500 Just Visiting." in bob
    assert "On Just Visiting" not in bob


def test_a_jailed_token_reads_in_jail_not_on_in_jail(new_game):
    g = new_game(["Ann", "Bob"])
    g.do(START)
    g.do({"type": "roll", "player": "p1", "dice": [3, 4]})  # Chance
    g.do({"type": "draw_card", "deck": "chance", "card": "go-to-jail"})
    assert "Token In Jail (0 of 3 rolls for doubles used)" in text_of(page(g, "p1"))
    assert "Ann 1,500 In Jail." in text_of(page(g, "p2"))


def test_an_eliminated_player_is_told_they_are_out_not_that_they_have_no_deeds_yet(new_game):
    g = new_game(["Ann", "Bob", "Cy"])
    g.do(START)
    g.do({"type": "adjust", "player": "p1", "amount": -1490, "reason": "Test"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 3]})  # Income Tax 200
    g.do({"type": "bankrupt", "player": "p1"})
    ann = text_of(page(g, "p1"))
    assert "Your deeds None: you are out of the game." in ann
    assert "No deeds yet." not in ann
    assert "Your deeds No deeds yet." in text_of(page(g, "p2"))
    assert "Ann 0 Out of the game." in text_of(page(g, "p2"))


def test_the_bankers_sheet_reads_token_in_jail_not_stands_on_in_jail(client, game):
    from tests.app.test_pages import Banker
    from tests.app.test_pages import text_of as page_text

    game.do({"type": "roll", "player": "p1", "dice": [3, 4]})  # Chance
    game.do({"type": "draw_card", "deck": "chance", "card": "go-to-jail"})
    sheet = page_text(Banker(client, game).page("/players/p1"))
    assert "Token In Jail" in sheet
    assert "Stands on" not in sheet
