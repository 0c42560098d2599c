"""The display (display_url), the story pages and the phone's Board: routes, tokens,
private_cash and the cheap 204 poll."""

from __future__ import annotations

import html
import re

import pytest
from flask import render_template

from banker import story as stories
from banker.rules import OPTIONS, public_state
from banker.rules.board import SPACES
from banker.web.common import board_picture
from banker.web.display import story_pages

START = {"type": "start", "first": "p1"}


def path_of(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def text_of(page: str) -> str:
    """The visible text of a page, whitespace collapsed, soft hyphens taken out."""
    page = re.sub(r"<(style|script|title)\b.*?</\1>", " ", page, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\u00ad", "")
    return " ".join(text.split())


@pytest.fixture
def shown(new_game, client):
    """A started game of Ann and Bob; shown.page(path) -> (status, visible text)."""
    g = new_game(["Ann", "Bob"])
    g.do(START)
    g.display = path_of(g.created["display_url"])

    def get(path: str):
        r = client.get(path)
        return r.status_code, text_of(r.get_data(as_text=True))

    g.page = get
    return g


def tile(page: str, index: int) -> str:
    """The markup of one tile of the big screen's board."""
    return page.split(f'id="space-{index}"')[1].split('<div class="sp ')[0]


def test_the_display_names_every_space_shortened_as_printed_and_reads_out_its_full_name(shown):
    status, text = shown.page(shown.display)
    assert status == 200
    page = shown.table.client.get(shown.display).get_data(as_text=True)
    for space in SPACES:
        if space.index == 10:
            assert "In Jail" in text and "Just Visiting" in text
            continue
        shown_name = re.search(
            r'<div class="name" aria-hidden="true">([^<]*)</div>', tile(page, space.index)
        )
        assert (
            shown_name
            and html.unescape(shown_name.group(1)) == board_picture.SHORT_NAMES[space.index]
        )
        assert f'<span class="sr-only">{html.escape(space.name, quote=False)}' in tile(
            page, space.index
        )
    assert "Medit. Ave." in text and "Penn. R.R." in text


def test_the_display_shows_owners_buildings_mortgages_tokens_and_who_must_act(shown, client):
    shown.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Baltic Avenue
    shown.do({"type": "buy"})
    page = client.get(shown.display).get_data(as_text=True)
    assert 'class="sp sp-3 side-bottom kind-street owned" id="space-3"' in page
    baltic = tile(page, 3)
    owner = re.search(r'<span class="owner seat-0"><span aria-hidden="true">(\w+)</span>'
                      r'<span class="sr-only">Owner: (\w+)</span>', baltic)  # fmt: skip
    assert owner and owner.groups() == ("A", "Ann")
    shown.do({"type": "mortgage", "property": "baltic-avenue"})
    page = client.get(shown.display).get_data(as_text=True)
    assert 'class="sp sp-3 side-bottom kind-street owned mortgaged" id="space-3"' in page
    assert "Baltic Avenue, mortgaged" in text_of(tile(page, 3))
    status, text = shown.page(shown.display)
    assert "Bob rolls next." in text and "Turn:" not in text
    assert "Ann mortgaged Baltic Avenue" in text


def test_a_jailed_token_stands_in_jail_not_on_just_visiting(shown, client):
    shown.do({"type": "roll", "player": "p1", "dice": [4, 6]})  # Jail: just visiting
    shown.do({"type": "move", "player": "p2", "position": 20})
    shown.do({"type": "roll", "player": "p2", "dice": [4, 6]})  # Go to Jail
    page = client.get(shown.display).get_data(as_text=True)
    jail = page.split('class="jail-in"')[1].split('class="visiting"')[0]
    visiting = page.split('class="visiting"')[1].split("</div>")[0]
    assert "Bob" in jail and "Ann" not in jail
    assert "Ann" in visiting and "Bob" not in visiting


def test_an_open_auction_and_a_rent_claim_show_in_the_centre(shown, client):
    shown.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    shown.do({"type": "auction"})
    shown.do({"type": "bid", "player": "p2", "amount": 40})
    status, text = shown.page(shown.display)
    assert "The Banker is auctioning Baltic Avenue: high bid 40 by Bob." in text
    shown.do({"type": "close_auction"})
    shown.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob on his own Baltic
    shown.do({"type": "move", "player": "p1", "position": 1})
    shown.do({"type": "roll", "player": "p1", "dice": [1, 1]})  # Ann lands on Baltic
    status, text = shown.page(shown.display)
    assert "Rent to ask for" in text
    assert "Bob may ask Ann for 4 rent on Baltic Avenue." in text


def test_the_display_poll_answers_204_while_nothing_changed(shown, client):
    version = shown.state["version"]
    r = client.get(f"{shown.display}/version?v={version}")
    assert r.status_code == 204 and r.data == b""
    shown.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    r = client.get(f"{shown.display}/version?v={version}")
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith("{#") is False and 'id="display"' in body
    assert f'data-version="{version + 1}"' in body
    assert "Ann may buy Baltic Avenue for 60" in text_of(body)
    assert r.headers["Cache-Control"] == "private, no-store"


def test_an_unknown_display_token_answers_a_sentence(client):
    for path in ("/display/nope", "/display/nope/version?v=1", "/display/nope/story"):
        r = client.get(path)
        assert r.status_code == 404
        assert "This display link does not work" in text_of(r.get_data(as_text=True))


def test_a_replaced_display_token_says_so_and_the_new_one_works(shown, client):
    r = client.post(
        f"/api/v1/games/{shown.id}/tokens", headers=shown.auth(), json={"for": "display"}
    )
    assert r.status_code == 201
    new = path_of(r.get_json()["url"])
    old = client.get(shown.display)
    assert old.status_code == 403
    assert "the Banker made a new one" in text_of(old.get_data(as_text=True))
    assert client.get(f"{shown.display}/version?v=0").status_code == 403
    assert client.get(new).status_code == 200


def test_the_display_can_change_nothing(shown, client):
    token = shown.display.rsplit("/", 1)[1]
    before = shown.state
    r = shown.send({"type": "roll", "player": "p1", "dice": [1, 2]}, token=token)
    assert r.status_code == 403
    assert client.post(shown.display).status_code == 405
    assert shown.state == before


def test_with_private_cash_the_display_shows_no_ones_cash(new_game, client):
    g = new_game(["Ann", "Bob"], options={"private_cash": True})
    g.do(START)
    g.do({"type": "adjust", "player": "p1", "amount": 1234, "reason": "test"})
    page = text_of(client.get(path_of(g.created["display_url"])).get_data(as_text=True))
    assert "2,734" not in page and "1,500" not in page
    assert "Cash is private in this game." in page
    story = client.get(path_of(g.created["display_url"]) + "/story")
    assert story.status_code == 200
    text = text_of(story.get_data(as_text=True))
    assert "2,734" not in text and "1,500" not in text


def test_without_private_cash_the_display_shows_everyones_cash(shown, client):
    shown.do({"type": "adjust", "player": "p1", "amount": 1234, "reason": "test"})
    status, text = shown.page(shown.display)
    assert "2,734" in text and "1,500" in text


def test_the_story_pages_answer_to_their_own_tokens(shown, client):
    shown.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    shown.do({"type": "buy"})
    status, text = shown.page(shown.display + "/story")
    assert status == 200 and "Net worth over the game" in text
    assert client.get(f"/games/{shown.id}/story").status_code == 403
    client.get(f"/games/{shown.id}?token={shown.banker_token}")  # the Banker's cookie
    status, text = shown.page(f"/games/{shown.id}/story")
    assert status == 200 and "Standings" in text
    status, text = shown.page(f"/join/{shown.tokens['p1']}/story")
    assert status == 200 and "Rent collected per deed" in text
    assert client.get("/join/nope/story").status_code == 404


def test_a_players_page_shows_their_line_among_the_others(shown, client):
    page = client.get(f"/join/{shown.tokens['p2']}").get_data(as_text=True)
    assert "How the game went" in page
    assert (
        'class="line seat-1 mine"' in page
        and 'class="line seat-0 other"' in page
        or ("seat-1 mine dot" in page)
    )


def test_the_bankers_table_offers_the_big_screen(shown, client):
    client.get(f"/games/{shown.id}?token={shown.banker_token}")
    page = client.get(f"/games/{shown.id}").get_data(as_text=True)
    assert "Show on a big screen" in page
    assert shown.created["display_url"] in page
    assert (
        f'<img class="qr" src="/games/{shown.id}/codes/display.svg"'
        in page.split("Show on a big screen")[1]
    )


def test_the_phone_board_lists_every_space_with_each_deeds_card(shown, client):
    shown.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    shown.do({"type": "buy"})
    client.get(f"/games/{shown.id}?token={shown.banker_token}")
    page = client.get(f"/games/{shown.id}/board").get_data(as_text=True)
    text = text_of(page)
    for space in SPACES:
        assert f'id="space-{space.index}"' in page
    assert page.count('<details id="deed-') == 28
    card = text_of(page.split('id="deed-baltic-avenue"')[1].split("</details>")[0])
    assert "Owner Ann" in card and "With hotel 450" in card and "Rent now 4" in card
    assert "Not mortgaged (the Bank lends 30)" in card
    assert "From GO to Jail" in text and "Ann : Baltic Avenue" in text


def test_the_story_of_a_game_won_by_bankruptcy(new_game, client):
    g = new_game(["Ann", "Bob"])
    g.do(START)
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Baltic Avenue
    g.do({"type": "buy"})
    g.do({"type": "adjust", "player": "p2", "amount": -1500, "reason": "test"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 3]})  # Income Tax: a debt of 200
    g.do({"type": "bankrupt", "player": "p2"})
    assert g.state["status"] == "finished"
    text = text_of(client.get(path_of(g.created["display_url"]) + "/story").get_data(as_text=True))
    assert "The game is over" in text and "Ann won: the last player standing." in text
    standings = text.split("Standings")[1].split("Net worth over the game")[0]
    assert standings.index("Ann") < standings.index("Bob")
    assert "Out: bankrupt to the Bank" in standings  # why Bob is out, not a figure
    assert "Rounds 1 Turns 2" in text


def test_the_story_of_a_game_scored_at_the_deadline(new_game, client):
    g = new_game(["Ann", "Bob"], options={"deadline": True})
    g.do(START)
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [2, 3]})
    g.do({"type": "buy"})
    g.do({"type": "call_time"})
    state = g.state
    assert state["status"] == "finished" and state["scores"] == {"p1": 1500, "p2": 1500}
    text = text_of(client.get(path_of(g.created["display_url"]) + "/story").get_data(as_text=True))
    assert "Scored at the agreed deadline: Ann and Bob share the win." in text
    assert "Score" in text.split("Standings")[1]


def test_the_story_of_a_stopped_game_says_it_is_unfinished(new_game, client):
    g = new_game(["Ann", "Bob"])
    g.do(START)
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "buy"})
    g.do({"type": "adjust", "player": "p2", "amount": 100, "reason": "test"})
    g.do({"type": "stop"})
    assert g.state["status"] == "unfinished"
    display = path_of(g.created["display_url"])
    text = text_of(client.get(display + "/story").get_data(as_text=True))
    assert "The game was stopped before the end" in text
    assert "Everyone agreed to stop: no winner." in text
    standings = text.split("Standings")[1].split("Net worth over the game")[0]
    assert standings.index("Bob") < standings.index("Ann")  # 1,600 against 1,440 + 60
    assert "The game was stopped early: unfinished, no winner." in text_of(
        client.get(display).get_data(as_text=True)
    )


def test_the_story_page_renders_from_a_built_story_alone(app, store):
    game_id = store.create_game("g0009", ["Ann", "Bob"], {})["game_id"]
    store.execute(game_id, START)
    state = {**public_state(store.state(game_id)), "status": "unfinished"}
    story = stories.build(store.story_events(game_id), {}, state)
    assert story["rounds"][-1]["label"] == "Start"
    with app.test_request_context():
        page = render_template(
            "story/page.html",
            back=None,
            **story_pages.context(stories.for_viewer(story, "banker")),
        )
    assert "Everyone agreed to stop: no winner." in text_of(page)


def test_tokens_show_a_first_letter_or_two_where_players_share_one():
    from banker.web.common.board_picture import initials

    state = {
        "players": [
            {"id": "p1", "name": "Ann"},
            {"id": "p2", "name": "alice"},
            {"id": "p3", "name": "Bob"},
            {"id": "p4", "name": "Anna"},
        ]
    }
    assert initials(state) == {"p1": "1", "p2": "Al", "p3": "B", "p4": "4"}


def test_with_private_cash_the_displays_events_do_not_tell_a_debtors_cash(new_game, client):
    g = new_game(["Ann", "Bob"], options={"private_cash": True})
    g.do(START)
    g.do({"type": "adjust", "player": "p1", "amount": -1377, "reason": "test"})  # Ann has 123
    answer = g.do({"type": "roll", "player": "p1", "dice": [1, 3]})  # Income Tax: 200
    assert any("with 123 in cash" in e["text"] for e in answer["events"])
    text = text_of(client.get(path_of(g.created["display_url"])).get_data(as_text=True))
    assert "Ann cannot pay 200 to the Bank" in text and "123" not in text


def centre(client, display: str) -> str:
    """The centre of the big screen's board, as markup."""
    return client.get(display).get_data(as_text=True).split('id="now"')[1]


def said(markup: str, element_id: str) -> str:
    """The visible text of the element with that id (a paragraph or a heading)."""
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</(p|h2)>', markup, re.S)
    assert found, element_id
    return text_of(found.group(1))


def test_during_an_auction_of_a_declined_deed_everyone_may_bid_and_whose_roll_comes_next(
    shown, client
):
    shown.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Ann on Baltic Avenue
    shown.do({"type": "auction"})  # Ann declines: the turn is already Bob's
    assert shown.state["turn"]["player"] == "p2"
    now = centre(client, shown.display)
    assert (
        said(now, "act") == "The Banker is auctioning Baltic Avenue: no bid yet (bids open at 10)."
    )
    assert said(now, "bidders") == "Everyone may bid."
    assert said(now, "then") == "Bob rolls next." and "Turn:" not in text_of(now)
    tokens = now.split('class="acting-tokens"')[1].split("</p>")[0]
    assert re.findall(r"seat-(\d)\">(\w+)<", tokens) == [("0", "A"), ("1", "B")]
    assert "person acting" not in now  # everyone bids: no one singled out


def test_the_one_offered_a_deed_then_a_debtor_are_the_ones_who_must_act(shown, client):
    shown.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    now = centre(client, shown.display)
    assert said(now, "act") == "Ann may buy Baltic Avenue for 60 or put it up for auction."
    assert re.findall(r'class="person( acting)?" id="person-(p\d)"', now) == [
        (" acting", "p1"),
        ("", "p2"),
    ]
    shown.do({"type": "buy"})
    shown.do({"type": "adjust", "player": "p2", "amount": -1450, "reason": "test"})
    shown.do({"type": "roll", "player": "p2", "dice": [1, 3]})  # Income Tax: 200, Bob has 50
    now = centre(client, shown.display)
    assert said(now, "act") == "Bob owes the Bank 200: raise the cash and pay it, or go bankrupt."
    assert said(now, "then") == "Ann rolls next."
    assert 'class="person acting" id="person-p2"' in now


def test_the_banks_houses_and_hotels_show_and_grow_large_during_a_building_auction(shown, client):
    now = centre(client, shown.display)
    assert said(now, "bank") == "The Bank has 32 houses 12 hotels"
    assert 'class="bank" id="bank"' in now
    shown.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    shown.do({"type": "buy"})  # Ann: Baltic
    shown.do({"type": "roll", "player": "p2", "dice": [2, 3]})
    shown.do({"type": "buy"})
    shown.do({"type": "move", "player": "p1", "position": 39, "reason": "test"})
    shown.do({"type": "roll", "player": "p1", "dice": [1, 1]})  # 39 -> 1 Mediterranean
    shown.do({"type": "buy"})
    shown.do({"type": "build", "property": "baltic-avenue"})
    shown.do({"type": "building_auction", "kind": "house"})
    now = centre(client, shown.display)
    assert 'class="bank auctioned" id="bank"' in now
    assert "The Bank has 31 houses 12 hotels" in text_of(now)
    assert said(now, "act") == "The Banker is auctioning one house: no bid yet (bids open at 10)."
    assert said(now, "bidders") == "Ann may bid."  # Bob has no street a house could go on


def test_the_final_round_shows_once_time_is_called(new_game, client):
    g = new_game(["Ann", "Bob"], options={"deadline": True})
    g.do(START)
    display = path_of(g.created["display_url"])
    g.do({"type": "roll", "player": "p1", "dice": [2, 4]})  # Ann has had her turn
    assert 'id="final-round"' not in centre(client, display)
    g.do({"type": "call_time"})  # Bob's turn ends the round
    now = centre(client, display)
    assert said(now, "final-round") == (
        "Final round. Time is called: the round is being finished, then the game is scored."
    )


def test_a_deadline_games_end_shows_the_scores_with_thousands_separators_and_the_chart(
    new_game, client
):
    g = new_game(["Ann", "Bob", "Cleo"], options={"deadline": True})
    g.do(START)
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Baltic Avenue
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Baltic: 4 rent to Ann
    for claim in g.pending["rent_claims"]:
        g.do({"type": "claim_rent", "claim": claim["id"]})
    g.do({"type": "roll", "player": "p3", "dice": [2, 3]})  # Reading Railroad
    g.do({"type": "buy"})
    g.do({"type": "call_time"})  # the round is over as time is called: scored at once
    assert g.state["status"] == "finished"
    assert g.state["scores"] == {"p1": 1504, "p2": 1496, "p3": 1500}
    now = centre(client, path_of(g.created["display_url"]))
    assert "The game is over: Ann wins." in text_of(now)
    rows = re.findall(r'<tr class="[^"]*" id="standing-(p\d)">(.*?)</tr>', now, re.S)
    assert [(pid, text_of(row)) for pid, row in rows] == [
        ("p1", "A Ann (winner) 1,444 60 0 1,504"),
        ("p3", "C Cleo 1,300 200 0 1,500"),
        ("p2", "B Bob 1,496 0 0 1,496"),
    ]
    assert '<th scope="col">Score</th>' in now
    assert '<svg class="chart lines"' in now.split('class="end-chart"')[1]
    facts = text_of(now.split('class="end-facts"')[1].split("</ul>")[0])
    assert "Best earning deed Baltic Avenue: 4" in facts
    assert "Biggest rent 4: Bob to Ann on Baltic Avenue" in facts
    assert "Turns 3" in facts and "Time played" in facts
    story = re.search(r'<a class="story-link" href="([^"]+)">The whole story in charts</a>', now)
    assert story and client.get(story.group(1)).status_code == 200


@pytest.mark.skipif(
    "free_parking_jackpot" not in OPTIONS, reason="the Free Parking jackpot is not declared yet"
)
def test_with_the_free_parking_jackpot_the_pot_shows_in_the_centre(new_game, client):
    plain = new_game(["Ann", "Bob"])
    plain.do(START)
    assert 'id="pot"' not in centre(client, path_of(plain.created["display_url"]))
    g = new_game(["Ann", "Bob"], options={"free_parking_jackpot": True})
    g.do(START)
    display = path_of(g.created["display_url"])
    assert said(centre(client, display), "pot") == "Free Parking 0"
    g.do({"type": "roll", "player": "p1", "dice": [1, 3]})  # Income Tax
    pot = g.state["bank"]["free_parking"]
    assert pot > 0
    assert said(centre(client, display), "pot") == f"Free Parking {pot:,}"


def test_the_board_tiles_are_drawn_again_only_when_what_they_show_changed(store):
    """The big screen keeps its tiles' HTML by board_picture.spaces_key: two states of a game
    with the same key have the same tiles, every version of a played game long."""
    import random

    from banker.rules import public_state
    from tests.plays import accepted_changes

    gid = store.create_game("g0009", ["Ann", "Alice", "Bob"], None)["game_id"]
    store.execute(gid, {"type": "start", "first": "p1"})
    seen, moves = {}, 0
    for _ in accepted_changes(store, gid, random.Random(7), 400):
        shown = public_state(store.state(gid))
        key, tiles = board_picture.spaces_key(shown), board_picture.spaces(shown)
        if key in seen:
            assert seen[key] == tiles
        else:
            seen[key] = tiles
            moves += 1
    assert 20 < moves < 400  # the key changed often, and not at every version
