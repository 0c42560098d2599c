"""A changing table on the pages (Flask test client, plain forms as without JavaScript, and
htmx's header): the Players section of the Banker's More (rename, add a latecomer with their
code at once, someone leaves after a confirmation, then the auctions), the Free Parking pot on
every phone while the house rule is on, and the players' pages following the table."""

from __future__ import annotations

import re

import pytest

from tests.app.test_pages import HTMX, Banker, find_button, forms_of, text_of
from tests.app.test_player import decode_qr_svg, path_of


@pytest.fixture
def three(new_game, client):
    """Ann, Bob and Cat, started (Ann rolls first), and the Banker's phone without JS."""
    g = new_game(["Ann", "Bob", "Cat"], options={"free_parking_jackpot": True})
    g.start("p1")
    return g, Banker(client, g)


def join_path(client, g, pid: str) -> str:
    """A player's own page, read from the Banker's Join panel as a player's code gives it."""
    html = client.get(f"/games/{g.id}").text
    li = re.search(rf'<li id="join-{pid}".*?</li>', html, re.S).group(0)
    return path_of(re.search(r'class="join-link" href="([^"]+)"', li).group(1))


def more(banker: Banker, path: str = "") -> str:
    """The text of the More panel of the table screen."""
    html = banker.page(path)
    start = html.index('id="more"')
    return text_of(html[start : html.index("</details>", start)])


# -- rename ---------------------------------------------------------------------------------


def test_renaming_takes_one_plain_form_and_every_page_shows_the_new_name(three, client):
    g, banker = three
    r = banker.press("Rename", player="p2", name="Robert")
    assert (r.status_code, r.headers["Location"]) == (303, f"/games/{g.id}")
    page = text_of(banker.page())
    assert "Bob is now called Robert." in page  # the sentence, where the Banker tapped
    assert [p["name"] for p in g.state["players"]] == ["Ann", "Robert", "Cat"]
    strip = page[: page.index("Rename a player")]
    assert "Robert" in strip and "Bob" not in strip.replace("Bob is now called", "")
    ann = text_of(client.get(join_path(client, g, "p1")).text)
    assert "Robert" in ann and "At the table Robert" in ann
    assert "Robert" in text_of(client.get(join_path(client, g, "p2")).text)
    join = banker.page()
    assert re.search(r'<li id="join-p2".*?<h3>Robert</h3>', join, re.S)


def test_a_refused_rename_says_the_cores_sentence_in_more_and_changes_nothing(three):
    g, banker = three
    before = g.now()
    r = banker.press("Rename", player="p1", name="b0b")
    assert r.status_code == 303
    html = banker.client.get(r.headers["Location"]).text  # the redirect, as a browser follows it
    assert re.search(r'<details class="more" id="more" open>', html)  # where it was tapped
    assert text_of(re.search(r'id="error-rename">(.*?)</p>', html).group(1)) == (
        "'b0b' looks like 'Bob', another player's name: choose a name the table can tell apart."
    )
    # What was typed and chosen is drawn again: nothing to type twice.
    assert re.search(r'id="rename-name"[^>]*value="b0b" data-typed', html)
    assert re.search(r'<option value="p1" selected>Ann</option>', html)
    assert g.now() == before


def test_a_refused_rename_through_htmx_answers_the_screen_with_the_sentence(three):
    g, banker = three
    before = g.now()
    r = banker.press("Rename", headers=HTMX, player="p3", name="")
    assert r.status_code == 400
    assert 'id="error-rename"' in r.text and "Choose the name first." in text_of(r.text)
    assert '<details class="more" id="more" open>' in r.text
    assert re.search(r'<option value="p3" selected>Cat</option>', r.text)
    assert g.now() == before


def test_a_partnership_is_renamed_as_its_two_partners_names(new_game, client):
    g = new_game(["Ann", "Bob", "Cat", "Dan"], options={"teams": True})
    g.start("p1")
    banker = Banker(client, g)
    _, button = find_button(banker.page(), "Rename")
    assert not button["disabled"]
    banker.press("Rename", player="p1", name="Ann & Rob")
    assert g.state["players"][0]["members"] == ["Ann", "Rob"]
    assert "Ann & Bob is now called Ann & Rob." in text_of(banker.page())


# -- a latecomer ----------------------------------------------------------------------------


def test_a_latecomer_is_added_and_their_code_shown_at_once_opens_their_own_page(three, client):
    g, banker = three
    r = banker.press("Add to the game", name="Dan")
    assert r.status_code == 303
    html = banker.page()
    box = html[html.index('id="latecomer"') :]
    box = box[: box.index("</section>")]
    assert "Dan joins: their code" in text_of(box)
    code = re.search(r'<img class="qr" src="([^"]+)"', box).group(1).replace("&amp;", "&")
    url = decode_qr_svg(client.get(code).text)
    assert url == re.search(r'class="join-link" href="([^"]+)"', box).group(1)
    dan = client.get(path_of(url))
    assert dan.status_code == 200
    assert "<h1>Dan</h1>" in dan.text and "1,500" in text_of(dan.text)
    assert g.state["players"][-1] == {**g.state["players"][-1], "id": "p4", "name": "Dan"}
    # The next command takes the code off the table screen (the Join panel keeps it).
    g.roll("p1", 1, 2)
    html = banker.page()
    assert 'id="latecomer"' not in html and 'id="join-p4"' in html


def test_a_latecomer_through_htmx_gets_the_screen_with_their_code(three):
    g, banker = three
    r = banker.press("Add to the game", headers=HTMX, name="Dan")
    assert r.status_code == 200
    assert 'id="latecomer"' in r.text and "Dan joins: their code" in text_of(r.text)


def test_a_name_taken_is_refused_beside_the_add_form_and_nothing_changes(three):
    g, banker = three
    before = g.now()
    r = banker.press("Add to the game", name="ANN")
    html = banker.client.get(r.headers["Location"]).text
    assert re.search(r'id="error-add">Ann is already the name of a player', html)
    assert 'id="more" open' in html
    assert re.search(r'id="add-name"[^>]*value="ANN" data-typed', html)
    assert g.now() == before


def test_no_seat_is_offered_to_a_seventh_player_or_to_partnerships(new_game, client):
    six = new_game(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"])
    six.start("p1")
    section = more(Banker(client, six))
    assert "The game already has 6 players, the most it can seat." in section
    _, button = find_button(Banker(client, six).page(), "Add to the game")
    assert button["disabled"]
    teams = new_game(["Ann", "Bob", "Cat", "Dan"], options={"teams": True})
    teams.start("p1")
    section = more(Banker(client, teams))
    assert "No one can join the partnerships variation" in section
    assert "In the partnerships variation no one leaves the table" in section


# -- someone leaves -------------------------------------------------------------------------


def test_leaving_is_confirmed_with_what_goes_back_then_the_deeds_are_auctioned(three, client):
    g, banker = three
    g.roll("p1", 1, 2)
    g.do(type="buy")  # Ann: Baltic Avenue
    g.roll("p2", 1, 4)  # Bob: Reading Railroad, auctioned away
    g.do(type="auction")
    g.do(type="bid", player="p3", amount=10)
    g.do(type="close_auction")
    g.roll("p3", 1, 5)  # Cat: Oriental Avenue
    g.do(type="buy")
    g.roll("p1", 2, 3)  # Ann: Vermont Avenue
    g.do(type="buy")
    assert "Ann leaves the game for good?" not in text_of(banker.page())  # never one red tap
    html = banker.page()
    link = re.search(r'href="([^"]*confirm=leave-p1)"', html).group(1).replace("&amp;", "&")
    confirm = text_of(client.get(link).text)
    assert "Ann leaves the game for good?" in confirm
    assert "Back to the Bank : 1,340 in cash" in confirm  # 1500 - 60 (Baltic) - 100 (Vermont)
    assert (
        "the deeds come back unmortgaged and are auctioned one after another: Baltic Avenue, "
        "Vermont Avenue"
    ) in confirm
    assert "The auction of Baltic Avenue opens at once, then 1 more one after another." in confirm
    before = g.now()
    assert g.now() == before  # looking changes nothing
    r = banker.press("Yes: Ann leaves", path="?confirm=leave-p1")
    assert (r.status_code, r.headers["Location"]) == (303, f"/games/{g.id}")
    state = g.state
    ann = state["players"][0]
    assert (ann["eliminated"], ann["cash"]) == (True, 0)
    assert state["pending"]["auction"]["item"] == "baltic-avenue"
    assert state["pending"]["auction_queue"] == ["vermont-avenue"]
    page = text_of(banker.page())
    assert "Ann left the game for good" in page and "Auction" in page
    assert "Ann" in page and "Out" in page
    own = text_of(client.get(join_path(client, g, "p1")).text)
    assert "You are out of the game." in own
    bob = client.get(join_path(client, g, "p2")).text
    assert "Out of the game." in text_of(re.search(r'id="other-p1".*?</div>', bob, re.S).group(0))


def test_leaving_is_not_offered_to_a_player_in_debt_and_says_why(three):
    g, banker = three
    g.do(type="adjust", player="p1", amount=-1400, reason="test")  # Ann: 100
    g.roll("p1", 1, 3)  # Income Tax 200: a debt
    assert g.state["pending"]["debt"]["debtor"] == "p1"
    section = more(banker)
    assert (
        "Ann owes the Bank 200: a player in debt pays it or goes bankrupt, rather than leaving."
    ) in section
    assert "confirm=leave-p1" not in banker.page()
    assert "confirm=leave-p2" not in banker.page()  # nor anyone else while a debt waits
    assert "Ann owes the Bank 200: the table settles that before Bob leaves." in section
    # Opened anyway (an old link), the confirmation shows its "Yes" disabled with the reason.
    _, yes = find_button(banker.page("?confirm=leave-p1"), "Yes: Ann leaves")
    assert yes["disabled"]


def test_a_leave_refused_at_yes_stays_on_the_confirmation_with_the_cores_sentence(three):
    g, banker = three
    html = banker.page("?confirm=leave-p1")
    form, _ = find_button(html, "Yes: Ann leaves")
    g.roll("p1", 1, 2)  # meanwhile Ann lands on Baltic Avenue: her offer to buy is pending
    before = g.now()
    fields = dict(form["fields"])
    fields["expected_version"] = str(g.state["version"])  # sent after the new state was seen
    r = banker.client.post(form["action"], data=fields, headers=HTMX)
    assert r.status_code == 422
    assert "Ann leaves the game for good?" in text_of(r.text)
    assert (
        "Ann may buy Baltic Avenue: buy it or put it up for auction before Ann leaves."
        in text_of(r.text)
    )
    assert g.now() == before


def test_the_last_but_one_leaving_ends_the_game_and_the_deeds_stay_with_the_bank(new_game, client):
    g = new_game(["Ann", "Bob"])
    g.start("p1")
    g.roll("p1", 1, 2)
    g.do(type="buy")
    banker = Banker(client, g)
    confirm = text_of(banker.page("?confirm=leave-p1"))
    assert "the deeds stay with the Bank, not auctioned: Baltic Avenue" in confirm
    assert "Bob is the only player left and wins the game" in confirm
    banker.press("Yes: Ann leaves", path="?confirm=leave-p1")
    assert (g.state["status"], g.state["winners"]) == ("finished", ["p2"])


def test_someone_who_leaves_in_setup_does_not_start(new_game, client):
    g = new_game(["Ann", "Bob", "Cat"])
    banker = Banker(client, g)
    banker.press("Yes: Bob leaves", path="?confirm=leave-p2")
    buttons = [b["text"].strip() for f in forms_of(banker.page()) for b in f["buttons"]]
    assert "Ann starts" in buttons and "Bob starts" not in buttons


# -- the pot, the trade forms, the seats' colours --------------------------------------------


def test_the_pot_shows_on_the_bankers_table_and_every_players_page_while_the_rule_is_on(
    three, client, new_game
):
    g, banker = three
    g.roll("p1", 1, 3)  # Income Tax: 200 into the pot
    assert g.state["bank"]["free_parking"] == 200
    assert re.search(r'id="pot">Free Parking pot .*?<strong>200</strong>', banker.page())
    for pid in ("p1", "p2"):
        page = client.get(join_path(client, g, pid)).text
        assert re.search(r'<dt>Free Parking pot</dt>\s*<dd id="pot">200</dd>', page)
    plain = new_game(["Ann", "Bob"])
    plain.start("p1")
    assert 'id="pot"' not in Banker(client, plain).page()
    assert 'id="pot"' not in client.get(join_path(client, plain, "p1")).text


def test_a_latecomer_is_in_the_trade_forms_and_one_who_left_is_not(three, client):
    g, banker = three
    g.do(type="add_player", name="Dan")
    g.do(type="leave", player="p2")
    html = banker.page("/trade")
    choices = re.findall(r'<select name="to" id="trade-to">(.*?)</select>', html, re.S)[0]
    assert "Dan" in choices and "Bob" not in choices
    compose = client.get(join_path(client, g, "p1") + "/trade").text
    assert "Dan" in compose


def test_a_latecomer_after_someone_left_gets_a_colour_no_one_at_the_table_has(new_game, client):
    g = new_game(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"])
    g.start("p1")
    g.do(type="leave", player="p3")
    g.do(type="add_player", name="Gus")  # the 7th entry of the players list
    html = Banker(client, g).page()
    strip = re.search(r'<ol class="strip">(.*?)</ol>', html, re.S).group(1)
    found = re.findall(r'<span class="dot (c-[\w-]+)".*?<span class="name">(\w+)', strip, re.S)
    colours = {name: c for c, name in found}
    in_game = [p["name"] for p in g.state["players"] if not p["eliminated"]]
    assert colours["Gus"] == "c-seat7"
    assert len({colours[n] for n in in_game}) == len(in_game) == 6
