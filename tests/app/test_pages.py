"""The Banker's pages without a browser: plain forms, redirects, cookies, refusals, conflicts.

Forms are read from the rendered HTML and posted as a browser without JavaScript would (a plain
POST answered by a 303 back to the screen), or with htmx's header (the screen's fragment).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from werkzeug.datastructures import MultiDict

from tests.page_forms import forms_of

ROOT = Path(__file__).resolve().parents[2]
CONFLICT = (
    "Not recorded: the table changed since this screen was drawn: Ann rolled 1 and 2. Ann landed "
    "on Baltic Avenue. Ann may buy Baltic Avenue for 60 or put it up for auction. Here it is "
    "now; tap again if it is still wanted."
)
HTMX = {"HX-Request": "true"}


def find_button(html: str, text: str) -> tuple[dict, dict]:
    """The form holding the button whose text (visible and for screen readers) is `text`."""
    for form in forms_of(html):
        for button in form["buttons"]:
            if " ".join(button["text"].split()) == text:
                return form, button
    raise AssertionError(f"no button {text!r} on the page")


class Banker:
    """A browser without JavaScript on the Banker's pages of one game."""

    def __init__(self, client, game):
        self.client, self.game = client, game
        r = client.get(game.created["banker_url"])
        assert r.status_code == 303

    def page(self, path: str = "") -> str:
        r = self.client.get(f"/games/{self.game.id}{path}")
        assert r.status_code == 200
        return r.get_data(as_text=True)

    def press(self, text: str, path: str = "", headers=None, stale=False, **fields):
        """Submit the form of the button `text` on the screen at `path` (fields override).
        `stale`: the button is disabled on the page as drawn now, and is sent all the same (a
        page drawn before the game changed, a second phone)."""
        form, button = find_button(self.page(path), text)
        assert button["disabled"] == stale, text
        data = [(k, v) for k, v in form["fields"] if k not in fields]
        data += list(fields.items())
        if button["name"]:
            data.append((button["name"], button["value"]))
        return self.client.post(form["action"], data=MultiDict(data), headers=headers or {})


@pytest.fixture
def banker(client, game):
    return Banker(client, game)


def text_of(html: str) -> str:
    """The page's text as one line, tags dropped and entities read."""
    import html as html_lib

    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


# -- tokens, cookies, cross-site posts -----------------------------------------------------


def test_the_banker_url_trades_its_token_for_a_strict_cookie_and_a_clean_url(client, game):
    r = client.get(game.created["banker_url"])
    assert r.status_code == 303
    assert r.headers["Location"] == f"/games/{game.id}"
    cookie = next(c for c in r.headers.getlist("Set-Cookie") if c.startswith(f"banker_{game.id}="))
    assert f"banker_{game.id}={game.banker_token};" in cookie
    assert (
        "HttpOnly" in cookie and "SameSite=Strict" in cookie and f"Path=/games/{game.id}" in cookie
    )
    assert client.get(f"/games/{game.id}").status_code == 200


def test_every_screen_needs_the_banker_cookie(client, game):
    for path in ("", "/board", "/history", "/trade", "/players/p1", "/pad", "/poll?v=0"):
        r = client.get(f"/games/{game.id}{path}")
        assert r.status_code == 403, path
        assert "Banker link" in r.get_data(as_text=True)
    assert client.get(f"/games/{game.id}?token={game.tokens['p1']}").status_code == 403
    r = client.post(f"/games/{game.id}/act", data={"type": "roll"})
    assert r.status_code == 403
    assert client.get(f"/games/nosuchgame?token={game.banker_token}").status_code == 404


def test_a_form_posted_from_another_site_is_refused_and_changes_nothing(client, game, banker):
    before = game.now()
    form, button = find_button(banker.page(), "1")
    for header in ({"Origin": "http://evil.example"}, {"Referer": "http://evil.example/x"},
                   {"Origin": "null"}):  # fmt: skip
        r = client.get(f"/games/{game.id}", query_string={"d1": "3"})
        form, button = find_button(r.get_data(as_text=True), "4")
        r = client.post(
            form["action"], data=MultiDict(form["fields"] + [("d2", "4")]), headers=header
        )
        assert r.status_code == 403
        assert "another site" in r.get_data(as_text=True)
    assert game.now() == before
    r = client.post(form["action"], data=MultiDict(form["fields"] + [("d2", "4")]),
                    headers={"Origin": "http://localhost"})  # fmt: skip
    assert r.status_code == 303
    assert game.state["players"][0]["position"] == 7


# -- plain forms: POST, 303, the new state -------------------------------------------------


def test_a_roll_takes_two_plain_form_posts_and_a_purchase_one(client, game, banker):
    # The first die is a GET (the pad remembers it), the second posts the roll.
    form, button = find_button(banker.page(), "1")
    assert form["method"] == "get" and button == {"name": "d1", "value": "1", "text": "1",
                                                  "type": "submit", "formmethod": None,
                                                  "hidden": False, "disabled": False}  # fmt: skip
    r = banker.press("2", path="?d1=1")
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{game.id}"
    state = game.state
    assert state["players"][0]["position"] == 3
    assert state["pending"]["offer"] == {"player": "p1", "property": "baltic-avenue", "price": 60}
    page = text_of(banker.page())
    assert "Ann rolled 1 and 2. Ann landed on Baltic Avenue." in page
    assert banker.press("Buy for 60").status_code == 303
    state = game.state
    assert state["properties"]["baltic-avenue"]["owner"] == "p1"
    assert state["players"][0]["cash"] == 1440
    assert state["version"] == 3


def test_a_refused_action_shows_the_cores_sentence_after_the_redirect_and_changes_nothing(
    client, game, banker
):
    game.do({"type": "roll", "player": "p1", "dice": [6, 6]})  # Ann: 12, Electric Company
    game.do({"type": "adjust", "player": "p1", "amount": -1400, "reason": "test"})
    before = game.now()
    sentence = (
        "Ann has 100 and Electric Company costs 150: raise the cash or put it up for auction."
    )
    assert f'<p class="why" id="why-buy">{sentence}</p>' in banker.page()  # disabled, and why
    r = banker.press("Buy for 150", stale=True)
    assert r.status_code == 303
    page = banker.page()
    assert (
        '<p class="error" role="alert" id="error-offer">Ann has 100 and Electric Company costs '
        "150: raise the cash or put it up for auction.</p>"
    ) in page
    assert game.now() == before
    assert "error-offer" not in banker.page()  # said once, not forever


def test_a_refusal_answers_htmx_with_the_fragment_and_the_sentence_beside_the_control(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "auction"})
    before = game.now()
    r = banker.press("Bid the typed amount for Bob", headers=HTMX, amount="5")
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert html.lstrip().startswith('<div id="screen"')
    assert '<p class="error" role="alert" id="error-bid-p2">Bids open at 10.</p>' in html
    r = banker.press("Bid the typed amount for Bob", headers=HTMX, amount="ten")
    assert r.status_code == 400
    assert "Type the bid as a whole number of dollars, such as 120." in r.get_data(as_text=True)
    assert game.now() == before


def test_the_same_form_sent_twice_is_applied_once(client, game, banker):
    r = client.get(f"/games/{game.id}", query_string={"d1": "3"})
    form, _ = find_button(r.get_data(as_text=True), "4")
    data = MultiDict(form["fields"] + [("d2", "4")])
    first = client.post(form["action"], data=data, headers=HTMX)
    again = client.post(form["action"], data=data, headers=HTMX)
    assert first.status_code == again.status_code == 200
    state = game.state
    assert state["version"] == 2 and state["players"][0]["position"] == 7
    assert [e["type"] for e in game.history()].count("rolled") == 1
    assert again.get_data(as_text=True).count('data-version="2"') == 1


def test_a_form_from_an_older_state_says_what_changed_meanwhile_and_shows_the_new_state(
    client, game, banker
):
    html = client.get(f"/games/{game.id}", query_string={"d1": "3"}).get_data(as_text=True)
    form, _ = find_button(html, "4")
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # another phone, meanwhile
    before = game.now()
    r = client.post(form["action"], data=MultiDict(form["fields"] + [("d2", "4")]), headers=HTMX)
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert CONFLICT in html
    assert "Ann decides: buy Baltic Avenue or auction it" in text_of(html)  # the fresh state
    assert game.now() == before
    # Without JavaScript: the redirect, then the same sentence on the page.
    r = client.post(form["action"], data=MultiDict(form["fields"] + [("d2", "4")]))
    assert r.status_code == 303
    assert CONFLICT in banker.page()


def test_the_poll_answers_204_until_another_phone_changes_the_game(client, game, banker):
    r = client.get(f"/games/{game.id}/poll", query_string={"v": "1"}, headers=HTMX)
    assert r.status_code == 204 and r.data == b""
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    r = client.get(f"/games/{game.id}/poll", query_string={"v": "1"}, headers=HTMX)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert 'data-version="2"' in html and "Buy for 60" in html
    assert '<div id="said" hx-swap-oob="innerHTML">' in html


# -- what each screen offers ---------------------------------------------------------------


def test_the_card_picker_leaves_out_a_get_out_of_jail_free_card_someone_holds(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [3, 4]})  # Chance
    buttons = [b["text"] for f in forms_of(banker.page()) for b in f["buttons"]]
    jail_card = "GET OUT OF JAIL FREE. This card may be kept until needed, traded, or sold."
    assert jail_card in buttons and len([b for b in buttons if b[:4].isupper()]) >= 15
    banker.press(jail_card)
    assert game.state["players"][0]["jail_cards"] == ["chance"]
    game.do({"type": "roll", "player": "p2", "dice": [3, 4]})  # Bob on Chance too
    buttons = [b["text"] for f in forms_of(banker.page()) for b in f["buttons"]]
    assert jail_card not in buttons and "ADVANCE TO BOARDWALK." in buttons


def test_jail_choices_are_offered_at_the_start_of_a_jailed_turn(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [3, 4]})
    game.do({"type": "draw_card", "deck": "chance", "card": "go-to-jail"})
    game.do({"type": "roll", "player": "p2", "dice": [1, 2]})
    game.do({"type": "buy"})
    page = text_of(banker.page())
    assert "Ann is in Jail" in page and "Ann rolls for doubles (attempt 1 of 3)" in page
    assert banker.press("Pay 50").status_code == 303
    ann = game.state["players"][0]
    assert (ann["in_jail"], ann["cash"]) == (False, 1450)
    assert "Ann is in Jail" not in text_of(banker.page())


def test_the_sheet_enables_only_legal_actions_and_says_why_the_others_are_not(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})
    html = banker.page("/players/p1")
    _, build = find_button(html, "Build house 50 on Baltic Avenue")
    assert build["disabled"]
    assert (
        "Ann must own every brown street to build; Mediterranean Avenue is not theirs."
        in text_of(html)
    )
    _, mortgage = find_button(html, "Mortgage +30 on Baltic Avenue")
    assert not mortgage["disabled"]
    assert banker.press("Mortgage +30 on Baltic Avenue", path="/players/p1").status_code == 303
    assert game.state["properties"]["baltic-avenue"]["mortgaged"] is True
    html = banker.page("/players/p1")
    _, lift = find_button(html, "Lift 33 on Baltic Avenue")
    assert not lift["disabled"]


def test_bankruptcy_is_offered_only_when_cash_and_what_can_be_raised_fall_short(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})  # Ann: Baltic (mortgage 30)
    game.do({"type": "adjust", "player": "p1", "amount": -1400, "reason": "test"})  # Ann 40
    game.do({"type": "roll", "player": "p2", "dice": [1, 3]})
    game.do({"type": "roll", "player": "p1", "dice": [6, 6]})  # 15 Pennsylvania Railroad
    game.do({"type": "auction"})
    game.do({"type": "bid", "player": "p2", "amount": 10})
    game.do({"type": "close_auction"})
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Ann 18 Tennessee
    game.do({"type": "auction"})
    game.do({"type": "close_auction"})
    game.do({"type": "roll", "player": "p2", "dice": [5, 6]})  # Bob 4+11 = 15: his own
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Ann 21 Kentucky
    game.do({"type": "auction"})
    game.do({"type": "close_auction"})
    game.do({"type": "roll", "player": "p2", "dice": [2, 3]})  # Bob 20 Free Parking
    game.do({"type": "roll", "player": "p1", "dice": [6, 6]})  # Ann 33 Community Chest
    game.do({"type": "draw_card", "deck": "community_chest", "card": "pay-100-car-wash"})
    page = text_of(banker.page())
    assert "Ann owes the Bank 100" in page
    assert "Cash 40 · could still raise 30" in page
    assert "Declare Ann bankrupt" in page and "Pay 100" not in page
    game.do({"type": "adjust", "player": "p1", "amount": 100, "reason": "found under the board"})
    page = text_of(banker.page())
    assert "Declare Ann bankrupt" not in page  # 140 in cash covers it
    assert banker.press("Pay 100 to the Bank").status_code == 303
    state = game.state
    assert state["pending"]["debt"] is None and state["players"][0]["cash"] == 40


def test_a_trade_is_summed_up_then_confirmed_and_a_refused_one_keeps_its_choices(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})  # Ann: Baltic Avenue
    query = "?from=p1&to=p2&give_properties=baltic-avenue&receive_cash=2000"
    html = banker.page("/trade" + query)
    assert "Ann gives Baltic Avenue to Bob for 2,000." in text_of(html)
    # The core would refuse it: Confirm is disabled, with its sentence, before any tap.
    _, button = find_button(html, "Confirm trade")
    assert button["disabled"] and "Bob has only 1,500 in cash." in text_of(html)
    form, _ = find_button(html, "Confirm trade")
    r = banker.client.post(form["action"], data=MultiDict(form["fields"]))  # sent all the same
    assert r.status_code == 303
    assert r.headers["Location"].startswith(f"/games/{game.id}/trade?")
    page = text_of(banker.page(r.headers["Location"].split(game.id, 1)[1]))
    assert "Bob has only 1,500 in cash." in page
    assert "Ann gives Baltic Avenue to Bob for 2,000." in page  # the choices are kept
    query = query.replace("2000", "100")
    r = banker.press("Confirm trade", path="/trade" + query)
    assert r.headers["Location"] == f"/games/{game.id}"
    state = game.state
    assert state["properties"]["baltic-avenue"]["owner"] == "p2"
    assert [p["cash"] for p in state["players"]] == [1540, 1400]
    assert "Ann traded Baltic Avenue to Bob for 100." in text_of(banker.page())


def test_undo_is_offered_only_while_the_core_allows_it_and_undone_events_are_struck(game, banker):
    assert "nothing to undo now" in banker.page("/history")
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})
    r = banker.press("Undo: Ann bought Baltic Avenue for 60.", path="/history")
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{game.id}/history"
    html = banker.page("/history")
    assert "<del>Ann bought Baltic Avenue for 60.</del>" in html
    assert "Undid: Ann bought Baltic Avenue for 60." in html
    banker.press("Undo: Ann rolled 1 and 2.", path="/history")
    assert "nothing to undo now" in banker.page("/history")
    assert game.state["players"][0]["position"] == 0


def test_corrections_take_an_amount_and_a_reason(game, banker):
    r = banker.press(
        "Take to the Bank", path="/history", player="p2", amount="25", reason="counted twice"
    )
    assert r.status_code == 303
    assert game.state["players"][1]["cash"] == 1475
    before = game.now()
    banker.press("Give from the Bank", path="/history", player="p2", amount="25", reason=" ")
    page = banker.page("/history")
    assert "Give a reason for the correction." in page
    # The refused form keeps the player chosen and the amount typed.
    assert 'id="adjust-player-p2" value="p2" checked data-typed' in page
    assert (
        'id="adjust-amount" inputmode="numeric" pattern="[0-9]*" autocomplete="off" '
        'value="25" data-typed' in page
    )
    banker.press("Move the token", path="/history", player="p1", position="39", reason="")
    assert game.state["players"][0]["position"] == 39
    assert before[0]["players"][0]["position"] == 0


def test_the_start_form_creates_a_game_and_this_phone_lists_it_to_resume(client):
    r = client.post("/games", data=MultiDict(
        [("edition", "g0009"), ("name", "Ann"), ("name", " Bob "), ("name", ""),
         ("deadline", "on"), ("hotel_shortage_ruling", "on")]))  # fmt: skip
    assert r.status_code == 303
    game_id = r.headers["Location"].rsplit("/", 1)[1]
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Who won the opening roll?" in page and "Bob starts" in page
    home = client.get("/").get_data(as_text=True)
    assert f'href="/games/{game_id}"' in home and "Ann, Bob" in home
    state = client.application.extensions["banker.store"].state(game_id)
    assert state["options"] == {
        "auction_all": False,
        "deadline": True,
        "teams": False,
        "hotel_shortage_ruling": True,
        "private_cash": False,
        "players_act": False,
        "free_parking_jackpot": False,
    }  # fmt: skip (its switch was not ticked)
    stranger = client.application.test_client()
    assert f'href="/games/{game_id}"' not in stranger.get("/").get_data(as_text=True)


def test_a_start_form_the_core_refuses_says_why_and_creates_nothing(client):
    store = client.application.extensions["banker.store"]
    for fields, sentence in (
        ([("name", "Ann")], "A game has 2 to 6 players."),
        ([("name", "Ann"), ("name", "ann")], "Two players have the same name"),
        ([("edition", "classic"), ("name", "Ann"), ("name", "Bob"), ("teams", "on")],
         "The classic edition offers no house variations"),
    ):  # fmt: skip
        r = client.post("/games", data=MultiDict(fields))
        assert r.status_code == 422
        assert sentence in r.get_data(as_text=True)
    assert store.list_games() == []
    r = client.post(
        "/games",
        data=MultiDict(
            [("edition", "classic"), ("name", "A"), ("name", "B"), ("hotel_shortage_ruling", "on")]
        ),
    )
    assert r.status_code == 303  # the ruling's switch, on by default, is not sent with classic


def test_the_end_shows_the_winners_and_the_deadline_scores(client, new_game):
    g = new_game(["Ann", "Bob"], options={"deadline": True})
    banker = Banker(client, g)
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    banker.press("Call time")
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [4, 6]})  # Just Visiting
    page = text_of(banker.page())
    assert "Game over" in page and "Ann and Bob share the win" in page
    assert "Scores at the agreed deadline" in page and "Ann (won) 1,500 Bob (won) 1,500" in page
    assert "The story of the game in charts" in page
    assert g.state["winners"] == ["p1", "p2"]
    assert "First die" not in page


def test_the_bankers_page_with_everything_it_loads_stays_under_40_kb_gzipped(client, new_game):
    g = new_game(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"])
    banker = Banker(client, g)
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [3, 4]})  # the longest screen: 16 cards
    page = banker.page().encode()
    loaded = [page, (ROOT / "static/site.css").read_bytes(),
              (ROOT / "static/htmx-2.0.11.min.js").read_bytes()]  # fmt: skip
    sizes = [len(gzip.compress(x)) for x in loaded]
    assert sum(sizes) <= 40 * 1024, sizes
    assert "http" not in re.sub(r'(href|src)="/[^"]*"', "", page.decode()).split("<body>")[0]


def test_a_building_auction_lists_who_cannot_bid_and_asks_where_the_winner_places_it(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})  # Ann: Baltic
    game.do({"type": "roll", "player": "p2", "dice": [2, 3]})  # Bob: Reading Railroad
    game.do({"type": "auction"})
    game.do({"type": "close_auction"})
    game.do({"type": "move", "player": "p1", "position": 39, "reason": "test"})
    game.do({"type": "roll", "player": "p1", "dice": [1, 1]})  # Ann: 39 -> 1 Mediterranean
    game.do({"type": "buy"})
    # 32 houses in the Bank for one player who could build: no building auction is offered.
    assert "Auction a house" not in text_of(banker.page())
    game.do({"type": "building_auction", "kind": "house"})
    page = text_of(banker.page())
    assert "Auction: one house" in page
    assert "Bob has no street where a house could legally go, so cannot bid for it." in page
    banker.press("20: Ann bids 20")
    html = banker.page()
    assert "Where does Ann place the house?" in text_of(html)
    r = banker.press("Close: 20 · on Mediterranean Avenue")
    assert r.status_code == 303
    state = game.state
    assert state["properties"]["mediterranean-avenue"]["houses"] == 1
    assert state["players"][0]["cash"] == 1500 - 60 - 60 + 200 - 20
    assert state["bank"]["houses"] == 31


def test_a_held_jail_card_is_offered_in_jail_and_the_partner_who_rolls_is_named(new_game, client):
    g = new_game(["Ann", "Bob", "Cat", "Dan"], options={"teams": True})
    banker = Banker(client, g)
    g.do({"type": "start", "first": "p1"})
    assert "Ann & Bob’s turn (Ann rolls)" in text_of(banker.page())
    g.do({"type": "roll", "player": "p1", "dice": [3, 4]})
    g.do({"type": "draw_card", "deck": "chance", "card": "get-out-of-jail-free"})
    g.do({"type": "roll", "player": "p2", "dice": [3, 4]})
    g.do({"type": "draw_card", "deck": "chance", "card": "go-to-jail"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Just Visiting
    page = text_of(banker.page())
    assert "Cat & Dan is in Jail" in page and "Cat & Dan’s turn (Dan rolls)" in page
    assert "Use the Chance card" not in page  # the card is Ann & Bob's


# -- the Banker's flow without a slip ------------------------------------------------------


def test_bankruptcy_asks_first_then_says_what_passes_to_the_bank(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})  # Ann: Baltic Avenue
    game.do({"type": "adjust", "player": "p1", "amount": -1440, "reason": "test"})  # Ann: 0
    game.do({"type": "mortgage", "property": "baltic-avenue"})
    game.do({"type": "adjust", "player": "p1", "amount": -30, "reason": "test"})  # Ann: 0
    game.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob on Ann's Baltic: no rent
    game.do({"type": "roll", "player": "p1", "dice": [1, 3]})  # Ann: 7 Chance
    game.do({"type": "draw_card", "deck": "chance", "card": "speeding-fine-15"})
    before = game.now()
    page = banker.page()
    assert "Yes: Ann is bankrupt" not in text_of(page)  # never one red tap
    confirm = text_of(banker.page("?confirm=bankrupt"))
    assert "Declare Ann bankrupt? Ann leaves the game." in confirm
    assert (
        "To the Bank : 0 in cash the deeds come back unmortgaged and are auctioned one after "
        "another: Baltic Avenue"
    ) in confirm
    assert game.now() == before
    assert banker.press("Yes: Ann is bankrupt", path="?confirm=bankrupt").status_code == 303
    state = game.state
    assert state["players"][0]["eliminated"] is True
    assert state["status"] == "finished" and state["winners"] == ["p2"]


def test_an_auction_after_a_bankruptcy_says_how_many_deeds_are_still_to_come():
    from banker.web.table.presenters import auction_queue_text

    state = {"pending": {"auction_queue": ["park-place", "boardwalk"]}}
    assert auction_queue_text(state) == "2 more deeds after this one: Park Place, Boardwalk."
    state = {"pending": {"auction_queue": ["boardwalk"]}}
    assert auction_queue_text(state) == "1 more deed after this one: Boardwalk."
    assert auction_queue_text({"pending": {"auction_queue": []}}) is None


def _owner_of_sets(state: dict, sets: dict) -> dict:
    from banker.rules.board import GROUPS

    for pid, groups in sets.items():
        for g in groups:
            for prop in GROUPS[g]:
                state["properties"][prop]["owner"] = pid
    return state


def test_a_building_auction_is_offered_only_when_the_bank_is_really_short(game):
    from banker.web.table.presenters import building_shortage

    state = game.table.client.application.extensions["banker.store"].state(game.id)
    state = _owner_of_sets(json_copy(state), {"p1": ["dark_blue"], "p2": ["brown"]})
    assert building_shortage(state) == []  # 32 houses; the two could place 16
    state["bank"]["houses"] = 12
    assert [s["kind"] for s in building_shortage(state)] == ["house"]
    text = building_shortage(state)[0]["text"]
    assert text == "The Bank has 12 houses; Ann and Bob could place 16 houses between them."
    state["properties"]["baltic-avenue"]["mortgaged"] = True  # Bob can no longer build
    assert building_shortage(state) == []  # one builder alone buys at the price


def json_copy(value):
    import json

    return json.loads(json.dumps(value))


def test_the_sheet_shows_each_deeds_rent_ladder_and_what_selling_a_house_brings(game, banker):
    from banker.rules.board import GROUPS

    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})  # Baltic
    game.do({"type": "move", "player": "p1", "position": 39, "reason": "test"})
    game.do({"type": "roll", "player": "p2", "dice": [1, 3]})
    game.do({"type": "roll", "player": "p1", "dice": [1, 1]})  # Mediterranean
    game.do({"type": "buy"})
    assert set(GROUPS["brown"]) == {"mediterranean-avenue", "baltic-avenue"}
    game.do({"type": "build", "property": "baltic-avenue"})
    page = text_of(banker.page("/players/p1"))
    assert "set 8 1 house 20 2 houses 60 3 houses 180 4 houses 320 hotel 450" in page
    assert "Sell house +25 on Baltic Avenue" in page
    html = banker.page("/players/p1")
    assert '<li class="now" aria-current="true"><span>1 house</span> 20</li>' in html


def test_history_groups_events_by_turn_newest_first_and_marks_corrections(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})
    game.do({"type": "adjust", "player": "p2", "amount": 20, "reason": "change"})
    game.do({"type": "roll", "player": "p2", "dice": [2, 3]})
    html = banker.page("/history")
    titles = re.findall(r'<section class="turn-group[^"]*" aria-label="([^"]+)"', html)
    assert titles == [
        "Bob rolled 2 and 3",
        "Ann rolled 1 and 2",
        "Ann won the opening roll and starts",
    ]
    assert html.index("Undo: ") < html.index('class="turn-group')
    assert '<li class="correction"><span class="tag">Correction</span> ' in html


def test_an_actions_sentence_shows_once_on_the_screen_where_it_was_made(game, banker):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    assert banker.press("Buy for 60").status_code == 303
    assert "Ann bought Baltic Avenue for 60." in banker.page()  # after the redirect: once
    assert "Ann bought Baltic Avenue for 60." not in banker.page()
    assert "Ann bought Baltic Avenue for 60." not in banker.page("/players/p1")
    assert "Ann bought Baltic Avenue for 60." not in banker.page("/trade")


def test_the_poll_keeps_a_first_die_and_an_open_confirmation(client, game, banker):
    v = game.state["version"]
    game.do({"type": "adjust", "player": "p2", "amount": 5, "reason": "another phone"})
    r = client.get(
        f"/games/{game.id}/poll",
        query_string={"v": v, "screen": "table", "d1": "4", "pad": "roll:p1"},
    )
    html = r.get_data(as_text=True)
    assert 'id="pad-d1"' in html and "first die: <strong>4</strong>" in html
    assert "Bob received 5" in text_of(html) or "another phone" in text_of(html)
    # A first die of a roll that is over is dropped.
    r = client.get(
        f"/games/{game.id}/poll",
        query_string={"v": v, "screen": "table", "d1": "4", "pad": "roll:p2"},
    )
    assert 'id="pad-d1"' not in r.get_data(as_text=True)


def test_the_heading_names_who_acts_now_and_then_whose_roll_is_next(game, banker):
    assert '<h1 id="now">Ann’s turn</h1>' in banker.page()
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    page = banker.page()
    assert '<h1 id="now">Ann decides: buy Baltic Avenue or auction it</h1>' in page
    assert '<p class="next-roll" id="next-roll">Then Bob rolls.</p>' in page


def test_the_start_form_offers_every_option_of_the_contract(client):
    from banker.rules import OPTIONS

    html = client.get("/").get_data(as_text=True)
    assert '<input type="checkbox" name="players_act" checked>' in html  # on by default
    assert '<input type="checkbox" name="private_cash">' in html
    r = client.post(
        "/games",
        data=MultiDict([("name", "Ann"), ("name", "Bob"), ("private_cash", "on"),
                        ("hotel_shortage_ruling", "on")]),
    )  # fmt: skip
    assert r.status_code == 303
    game_id = r.headers["Location"].rsplit("/", 1)[1]
    r = client.get(f"/games/{game_id}")
    options = client.application.extensions["banker.store"].state(game_id)["options"]
    assert options["private_cash"] is True
    if "players_act" in OPTIONS:  # the core's option (helper rules): off when unticked
        assert options["players_act"] is False


def test_the_home_page_lists_this_browsers_games_as_banker_and_as_player(client, new_game):
    mine = new_game(["Ann", "Bob"])
    played = new_game(["Cat", "Dan"])
    client.get(mine.created["banker_url"])
    assert client.get(f"/join/{played.tokens['p2']}").status_code == 200
    page = text_of(client.get("/").get_data(as_text=True))
    assert f"Banker · Ann, Bob · setup · {mine.id}" in page
    assert f"Dan · Cat, Dan · setup · {played.id}" in page
    html = client.get("/").get_data(as_text=True)
    assert f'href="/join/{played.tokens["p2"]}"' in html


def test_a_plain_form_from_this_site_is_accepted_although_no_referrer_makes_its_origin_null(
    client, game, banker
):
    """A browser without JavaScript under Referrer-Policy: no-referrer sends Origin: null."""
    form, _ = find_button(banker.page("?d1=1"), "2")
    data = MultiDict(form["fields"] + [("d2", "2")])
    r = client.post(
        form["action"], data=data, headers={"Origin": "null", "Sec-Fetch-Site": "cross-site"}
    )
    assert r.status_code == 403 and game.state["version"] == 1
    r = client.post(
        form["action"], data=data, headers={"Origin": "null", "Sec-Fetch-Site": "same-origin"}
    )
    assert r.status_code == 303 and game.state["players"][0]["position"] == 3


# -- the Banker's table: the deadline's last claims, stopping early -----------------------


def test_stopping_early_is_confirmed_then_shows_standings_unranked_and_undo_takes_it_back(
    game, banker
):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})
    assert "Yes: stop the game unfinished" not in text_of(banker.page())
    confirm = text_of(banker.page("?confirm=stop"))
    assert "Stop the game, unfinished? Only if everyone agrees to stop early." in confirm
    assert "no winner" in confirm and game.state["status"] == "playing"
    assert banker.press("Yes: stop the game unfinished", path="?confirm=stop").status_code == 303
    state = game.state
    assert state["status"] == "unfinished" and state["winners"] == []
    page = text_of(banker.page())
    assert "Game stopped, unfinished" in page and "Stopped early: no winner" in page
    assert "Ann 1,440 1 none Bob 1,500 0 none" in page  # seating order, not a ranking
    assert "wins" not in page
    undo = (
        "Undo: Everyone agreed to stop early: the game is recorded as unfinished, with no winner."
    )
    assert banker.press(undo, path="/history").status_code == 303
    assert game.state["status"] == "playing"


def test_after_the_final_round_a_stop_opened_by_its_address_is_disabled_with_the_reason(
    new_game, client
):
    g = new_game(["Ann", "Bob"], options={"deadline": True})
    banker = Banker(client, g)
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "buy"})  # Ann: Baltic Avenue
    g.do({"type": "call_time"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob on Baltic: the round is over
    form, button = find_button(banker.page("?confirm=stop"), "Yes: stop the game unfinished")
    assert button["disabled"] is True
    assert (
        "The final round is over: only the open rent claims (and any debt they create) are "
        "settled now, or the Banker scores the game."
    ) in text_of(banker.page("?confirm=stop"))


def test_the_final_round_over_shows_the_waiting_claims_and_score_now(new_game, client):
    g = new_game(["Ann", "Bob"], options={"deadline": True})
    banker = Banker(client, g)
    g.do({"type": "start", "first": "p1"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "buy"})  # Ann: Baltic Avenue
    g.do({"type": "call_time"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob on Baltic: the round is over
    state = g.state
    assert state["status"] == "playing" and state["turn"]["player"] is None
    page = text_of(banker.page())
    assert "Final round over: waiting for rent claims" in page
    assert "Ann may ask Bob for 4 (Baltic Avenue) Claim" in page
    assert "First die" not in page
    assert banker.press("Score the game now").status_code == 303
    state = g.state
    assert state["status"] == "finished" and state["scores"] == {"p1": 1500, "p2": 1500}
    assert state["winners"] == ["p1", "p2"]  # the 4 Ann did not ask for lapsed


def test_the_banker_sees_a_trade_offer_made_on_a_phone_and_may_accept_it_for_either_side(
    game, banker
):
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    game.do({"type": "buy"})  # Ann: Baltic Avenue
    side = {"cash": 0, "properties": ["baltic-avenue"], "jail_cards": []}
    cash = {"cash": 100, "properties": [], "jail_cards": []}
    offer = {"type": "propose_trade", "from": "p1", "to": "p2", "give": side, "receive": cash}
    offer["unmortgage"] = []
    game.do(offer, token=game.tokens["p1"])  # from Ann's own phone
    page = text_of(banker.page())
    assert "Offer: Ann gives Baltic Avenue to Bob for 100. Waiting for Bob." in page
    assert "Bob answers Ann’s trade offer" in page  # the heading: who must act now
    assert "First die" not in page and "The next roll waits" in page
    assert banker.press("Accept for Bob").status_code == 303
    state = game.state
    assert state["properties"]["baltic-avenue"]["owner"] == "p2"
    assert [p["cash"] for p in state["players"]] == [1440 + 100, 1400]
    assert state["pending"]["trade_offers"] == []


def test_a_game_resumed_from_its_snapshot_marks_the_paused_one_moved_for_banker_and_players(
    client, game, banker
):
    import io

    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    old_link = f"/join/{game.tokens['p2']}"
    assert client.get(old_link).status_code == 200
    r = client.get(f"/games/{game.id}/snapshot.json?token={game.banker_token}")
    r = client.post("/resume", data={"snapshot": (io.BytesIO(r.data), "b.json")},
                    content_type="multipart/form-data")  # fmt: skip
    assert r.status_code == 303
    new_id = r.headers["Location"].split("/games/")[1].split("?")[0]
    page = client.get(f"/games/{game.id}")
    assert page.status_code == 410
    assert "Moved to another game" in text_of(page.get_data(as_text=True))
    assert f'href="/games/{new_id}"' in page.get_data(as_text=True)
    # Bob's old page, polling, reloads; his old link leads to his link in the copy.
    poll = client.get(f"{old_link}/version?v=2", headers={"HX-Request": "true"})  # unchanged
    assert poll.status_code == 200 and poll.headers["HX-Refresh"] == "true"
    page = client.get(old_link)
    assert page.status_code == 410
    new_bob = next(
        p["token"] for p in client.application.extensions["banker.store"].players(new_id)
        if p["id"] == "p2"
    )  # fmt: skip
    assert f'href="/join/{new_bob}"' in page.get_data(as_text=True)
    assert client.get(f"/join/{new_bob}").status_code == 200


def test_an_old_snapshot_resumed_does_not_mark_a_game_that_went_on(client, game, banker):
    import io

    r = client.get(f"/games/{game.id}/snapshot.json?token={game.banker_token}")
    game.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # played on after the pause
    r = client.post("/resume", data={"snapshot": (io.BytesIO(r.data), "b.json")},
                    content_type="multipart/form-data")  # fmt: skip
    assert r.status_code == 303
    assert client.get(f"/games/{game.id}").status_code == 200
