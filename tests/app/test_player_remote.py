"""The player's page as a remote: each of the player's own actions from its plain form, with
exact cash figures; forms naming another player's things refused with a sentence and nothing
changed; a double submit applied once; and nothing but claims when players do not act."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

START = {"type": "start", "first": "p1"}


def text_of(html: str) -> str:
    """The visible text of a page, whitespace collapsed."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def join_path(g, player_id: str) -> str:
    url = next(p["join_url"] for p in g.created["players"] if p["id"] == player_id)
    return re.sub(r"^https?://[^/]+", "", url)


def cash(g) -> dict:
    return {p["id"]: p["cash"] for p in g.state["players"]}


class Forms(HTMLParser):
    """Every form of a page: its action, hidden fields and submit buttons (name, value, text)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._button: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action"), "fields": {}, "buttons": []})
            self._in_form = True
        elif not self.forms or not getattr(self, "_in_form", False):
            return
        elif tag == "input" and a.get("type") == "hidden":
            self.forms[-1]["fields"][a["name"]] = a.get("value", "")
        elif tag == "button":
            self._button = {"name": a.get("name"), "value": a.get("value"), "text": ""}
            if a.get("aria-label"):
                self._button.update(text=a["aria-label"], labelled=True)
            self._button["disabled"] = "disabled" in a
            self.forms[-1]["buttons"].append(self._button)

    def handle_endtag(self, tag):
        if tag == "button":
            self._button = None
        elif tag == "form":
            self._in_form = False

    def handle_data(self, data):
        if self._button is not None and not self._button.get("labelled"):
            self._button["text"] += data


def forms_of(html: str) -> list[dict]:
    parser = Forms()
    parser.feed(html)
    for f in parser.forms:
        for b in f["buttons"]:
            b["text"] = " ".join(b["text"].split())
    return parser.forms


def page_of(g, pid: str, query: str = "") -> str:
    r = g.table.client.get(join_path(g, pid) + query)
    assert r.status_code == 200
    return r.text


def find(html: str, kind: str, button: str | None = None, **fields) -> tuple[dict, dict]:
    """The form of that command type (and hidden fields) and its button starting with `button`."""
    for f in forms_of(html):
        if f["fields"].get("type", "claim_rent") != kind:  # the claim form posts to /claim
            continue
        if any(f["fields"].get(k) != v for k, v in fields.items()):
            continue
        for b in f["buttons"]:
            if button is None or b["text"].startswith(button):
                return f, b
    raise AssertionError(f"no {kind} form with a button {button!r} on the page")


def press(g, pid: str, kind: str, button: str | None = None, extra=None, **fields):
    """Press a button of a form on the player's own page (a plain POST, no JS)."""
    f, b = find(page_of(g, pid), kind, button, **fields)
    data = dict(f["fields"])
    if b["name"]:
        data[b["name"]] = b["value"]
    data.update(extra or {})
    return g.table.client.post(f["action"], data=data)


def post(g, pid: str, data: dict, htmx: bool = False):
    """Post a form to the player's page as a hand-made (or tampered) form would."""
    headers = {"HX-Request": "true"} if htmx else {}
    return g.table.client.post(join_path(g, pid) + "/act", data=data, headers=headers)


def kinds(html: str) -> set[str]:
    return {f["fields"].get("type", "claim_rent") for f in forms_of(html)}


@pytest.fixture
def started(new_game):
    g = new_game(["Ann", "Bob", "Cy"])
    g.do(START)
    return g


@pytest.fixture
def brown(started):
    """Ann owns the brown set (1,580 cash) and rolls again (doubles)."""
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Baltic Avenue
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Ann's Baltic Avenue: a claim
    g.do({"type": "move", "player": "p1", "position": 39})
    g.do({"type": "roll", "player": "p3", "dice": [1, 2]})  # Cy on Baltic too
    g.do({"type": "roll", "player": "p1", "dice": [1, 1]})  # past GO to Mediterranean Avenue
    g.do({"type": "buy"})
    assert cash(g) == {"p1": 1500 - 60 + 200 - 60, "p2": 1500, "p3": 1500}
    return g


# -- the offer ---------------------------------------------------------------------------------


def test_a_player_buys_their_own_offer_from_their_page(started):
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    ann = page_of(g, "p1")
    assert "You may buy Baltic Avenue for 60 or put it up for auction." in text_of(ann)
    find(ann, "auction", "Auction")
    assert {"buy", "auction"}.isdisjoint(kinds(page_of(g, "p2")))  # only Ann's page offers it
    r = press(g, "p1", "buy", "Buy for 60")
    assert (r.status_code, r.headers["Location"]) == (303, join_path(g, "p1"))
    state = g.state
    assert cash(g) == {"p1": 1440, "p2": 1500, "p3": 1500}
    assert state["properties"]["baltic-avenue"]["owner"] == "p1"
    assert state["pending"]["offer"] is None


def test_another_players_offer_posted_from_a_page_is_refused_and_changes_nothing(started):
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    before = g.now()
    for kind in ("buy", "auction"):
        r = post(g, "p2", {"type": kind, "key": f"tampered-{kind}"})
        assert r.status_code == 403
        assert "That offer is another player's: only they (or the Banker) may answer it." in (
            text_of(r.text)
        )
    assert g.now() == before


# -- the auction -------------------------------------------------------------------------------


def test_two_players_bid_from_their_pages_with_raises_within_their_cash(started):
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    press(g, "p1", "auction", "Auction")
    assert g.state["pending"]["auction"] == {
        "item": "baltic-avenue",
        "high_bid": 0,
        "high_bidder": None,
    }
    g.do({"type": "adjust", "player": "p2", "amount": -1470, "reason": "Test"})  # Bob has 30
    bob = page_of(g, "p2")
    assert "No bid yet: bids open at 10." in text_of(bob)
    raises = [b["text"] for b in find(bob, "bid", player="p2")[0]["buttons"]]
    assert raises == ["10: bid 10", "20: bid 20", "Bid"]  # 50 is more than Bob has
    press(g, "p2", "bid", "20", player="p2")
    assert g.state["pending"]["auction"]["high_bidder"] == "p2"

    ann = page_of(g, "p1")
    assert "High bid 20 by Bob" in text_of(ann)
    raises = [b["text"] for b in find(ann, "bid", player="p1")[0]["buttons"]]
    assert raises == ["+1: bid 21", "+10: bid 30", "+50: bid 70", "Bid"]
    press(g, "p1", "bid", "Bid", player="p1", extra={"amount": "25"})  # a typed bid
    assert "High bid 25 by you" in text_of(page_of(g, "p1"))
    bob = page_of(g, "p2")
    assert "Your bid (you have 30)" in text_of(bob)
    raises = [b["text"] for b in find(bob, "bid", player="p2")[0]["buttons"]]
    assert raises == ["+1: bid 26", "Bid"]

    g.do({"type": "close_auction"})  # the Banker closes it
    assert cash(g) == {"p1": 1475, "p2": 30, "p3": 1500}
    assert g.state["properties"]["baltic-avenue"]["owner"] == "p1"


def test_a_bid_for_another_player_is_refused_and_changes_nothing(started):
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "auction"})
    before = g.now()
    r = post(g, "p2", {"type": "bid", "player": "p1", "raise": "10", "key": "tampered-bid"})
    assert r.status_code == 403
    assert "You may bid only for yourself." in text_of(r.text)
    assert g.now() == before


def test_a_bid_above_the_players_cash_gets_the_cores_sentence(started):
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "auction"})
    before = g.now()
    r = post(g, "p2", {"type": "bid", "player": "p2", "amount": "1600", "key": "too-much-1"})
    assert r.status_code == 422
    assert "You have only 1,500 in cash and cannot bid 1,600." in text_of(r.text)  # said to Bob
    assert g.now() == before


# -- jail ----------------------------------------------------------------------------------------


@pytest.fixture
def jailed(started):
    """Ann is in Jail with a Chance card, and it is her turn again."""
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [3, 4]})  # Chance
    g.do({"type": "draw_card", "deck": "chance", "card": "get-out-of-jail-free"})
    g.do({"type": "move", "player": "p1", "position": 27})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})
    g.do({"type": "auction"})
    g.do({"type": "close_auction"})
    g.do({"type": "roll", "player": "p3", "dice": [1, 3]})  # Income Tax
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})  # Go to Jail
    for pid in ("p2", "p3"):  # Vermont Avenue, Connecticut Avenue: nobody bids
        g.do({"type": "roll", "player": pid, "dice": [2, 3]})
        g.do({"type": "auction"})
        g.do({"type": "close_auction"})
    assert g.state["turn"]["player"] == "p1"
    assert g.state["players"][0]["in_jail"] is True
    return g


def test_a_jailed_player_pays_the_fine_from_their_page_on_their_turn(jailed):
    g = jailed
    ann = page_of(g, "p1")
    assert "You are in Jail" in text_of(ann)
    find(ann, "use_jail_card", "Use the Chance card")
    assert {"pay_jail_fine", "use_jail_card"}.isdisjoint(kinds(page_of(g, "p2")))
    press(g, "p1", "pay_jail_fine", "Pay 50")
    p1 = g.state["players"][0]
    assert (p1["cash"], p1["in_jail"], p1["jail_cards"]) == (1450, False, ["chance"])


def test_a_jailed_player_uses_their_card_from_their_page(jailed):
    g = jailed
    press(g, "p1", "use_jail_card", "Use the Chance card")
    p1 = g.state["players"][0]
    assert (p1["cash"], p1["in_jail"], p1["jail_cards"]) == (1500, False, [])


def test_paying_another_players_fine_is_refused_and_changes_nothing(jailed):
    before = jailed.now()
    r = post(jailed, "p2", {"type": "pay_jail_fine", "player": "p1", "key": "tampered-fine"})
    assert r.status_code == 403
    assert "You may pay only your own fine." in text_of(r.text)
    assert jailed.now() == before


# -- deeds: build, sell, mortgage, lift --------------------------------------------------------


def test_a_player_builds_sells_mortgages_and_lifts_on_their_own_deeds(brown):
    g = brown
    ann = page_of(g, "p1")
    f, b = find(ann, "mortgage", property="baltic-avenue")
    assert b["text"] == "Mortgage +30 on Baltic Avenue" and not b["disabled"]
    press(g, "p1", "build", "Build house 50", property="baltic-avenue")
    assert cash(g)["p1"] == 1530
    assert g.state["properties"]["baltic-avenue"]["houses"] == 1

    ann = page_of(g, "p1")
    f, b = find(ann, "mortgage", property="mediterranean-avenue")
    assert b["disabled"]  # greyed, with the Banker's reason under it
    assert (
        "Mortgage +30 on Mediterranean Avenue Sell every building on the brown streets "
        "before mortgaging Mediterranean Avenue." in text_of(ann)
    )
    f, b = find(ann, "build", property="baltic-avenue")
    assert b["disabled"]
    assert "Build evenly: Mediterranean Avenue has fewer houses." in text_of(ann)

    press(g, "p1", "sell_building", "Sell house", property="baltic-avenue")
    assert cash(g)["p1"] == 1555
    press(g, "p1", "mortgage", "Mortgage +30", property="mediterranean-avenue")
    assert cash(g)["p1"] == 1585
    assert "Lift 33 on Mediterranean Avenue" in text_of(page_of(g, "p1"))
    press(g, "p1", "unmortgage", "Lift 33", property="mediterranean-avenue")
    assert cash(g) == {"p1": 1552, "p2": 1500, "p3": 1500}
    st = g.state["properties"]
    assert (st["baltic-avenue"]["houses"], st["mediterranean-avenue"]["mortgaged"]) == (0, False)


def test_a_refused_deed_action_gets_the_cores_sentence_and_changes_nothing(brown):
    g = brown
    g.do({"type": "build", "property": "baltic-avenue"})
    before = g.now()
    r = post(g, "p1", {"type": "mortgage", "property": "mediterranean-avenue", "key": "k" * 12})
    assert r.status_code == 422
    assert (
        "Sell every building on the brown streets before mortgaging Mediterranean Avenue."
        in text_of(r.text)
    )
    assert g.now() == before


@pytest.mark.parametrize("kind", ["build", "sell_building", "mortgage", "unmortgage"])
def test_another_players_deed_posted_from_a_page_is_refused_and_changes_nothing(brown, kind):
    before = brown.now()
    form = {"type": kind, "property": "baltic-avenue", "key": f"tampered-{kind}"}
    r = post(brown, "p2", form)
    assert r.status_code == 403
    assert (
        "That deed is not yours: you may build, sell, mortgage and lift only your own."
        in text_of(r.text)
    )
    assert "That deed is not yours" in text_of(post(brown, "p2", form, htmx=True).text)
    assert brown.now() == before


def test_other_players_pages_offer_nothing_on_anothers_deeds(brown):
    bob = page_of(brown, "p2")
    assert {"build", "sell_building", "mortgage", "unmortgage"}.isdisjoint(kinds(bob))


def test_a_double_submit_with_the_same_key_applies_once(brown):
    g = brown
    f, b = find(page_of(g, "p1"), "build", "Build house 50", property="baltic-avenue")
    for _ in range(2):
        r = g.table.client.post(f["action"], data=f["fields"])
        assert r.status_code == 303
    assert cash(g)["p1"] == 1530
    assert g.state["properties"]["baltic-avenue"]["houses"] == 1
    version = g.state["version"]
    r = g.table.client.post(f["action"], data=f["fields"], headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert "Ann built a house on Baltic Avenue for 50." in text_of(r.text)  # the first answer
    assert (cash(g)["p1"], g.state["version"]) == (1530, version)
    # A new render has a new key: the next tap builds again.
    press(g, "p1", "build", "Build house 50", property="mediterranean-avenue")
    assert cash(g)["p1"] == 1480


def test_a_banker_command_from_a_page_is_refused_with_a_sentence(brown):
    before = brown.now()
    r = post(brown, "p1", {"type": "roll", "player": "p1", "d1": "1", "d2": "2", "key": "r" * 9})
    assert r.status_code == 403
    assert "Only the Banker records a roll: the dice are at the table." in text_of(r.text)
    r = post(brown, "p1", {"type": "adjust", "player": "p1", "amount": "500", "key": "a" * 9})
    assert r.status_code == 403
    assert "Only the Banker corrects a player's cash." in text_of(r.text)
    r = post(brown, "p1", {"type": "nonsense", "key": "n" * 9})
    assert r.status_code == 400
    assert brown.now() == before


# -- the action's sentence, once -----------------------------------------------------------------


def test_the_sentence_of_an_action_shows_on_the_phone_that_made_it_once(brown):
    g = brown
    r = press(g, "p1", "build", "Build house 50", property="baltic-avenue")
    assert r.status_code == 303 and "said=" in r.headers["Set-Cookie"]
    first = text_of(page_of(g, "p1"))
    sentence = "Ann built a house on Baltic Avenue for 50."
    said = re.search(r'<div id="said"[^>]*>(.*?)</div>', page_of(g, "p1"), flags=re.S)
    assert said.group(1).strip() == ""  # the second look: gone
    assert first.count(sentence) == 2  # the said bar, and Lately
    assert text_of(page_of(g, "p2")).count(sentence) == 1  # Bob's Lately only

    f, b = find(page_of(g, "p1"), "build", "Build house 50", property="mediterranean-avenue")
    r = g.table.client.post(f["action"], data=f["fields"], headers={"HX-Request": "true"})
    html = r.text
    assert html.startswith('<div id="player-view"')
    assert '<div id="said" class="said" hx-swap-oob="true"' in html
    assert '<div id="table-view" hx-swap-oob="true">' in html
    assert 'id="compose"' not in html  # the trade form is left as it is


# -- debt --------------------------------------------------------------------------------------


def test_a_player_in_debt_raises_the_cash_and_pays_from_their_page(started):
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "buy"})
    g.do({"type": "adjust", "player": "p1", "amount": -1260, "reason": "Test"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})
    g.do({"type": "roll", "player": "p3", "dice": [1, 2]})
    g.do({"type": "move", "player": "p1", "position": 2})
    g.do({"type": "roll", "player": "p1", "dice": [1, 1]})  # Income Tax: 200, Ann has 180
    assert g.state["pending"]["debt"]["amount"] == 200
    ann = text_of(page_of(g, "p1"))
    assert "You owe the Bank 200 Cash 180" in ann
    assert "You need 20 more: sell or mortgage below, or offer a trade, then pay." in ann
    assert "pay_debt" not in kinds(page_of(g, "p1"))
    assert "pay_debt" not in kinds(page_of(g, "p2"))
    press(g, "p1", "mortgage", "Mortgage +30", property="baltic-avenue")
    press(g, "p1", "pay_debt", "Pay 200 to the Bank")
    assert cash(g) == {"p1": 10, "p2": 1500, "p3": 1500}
    assert g.state["pending"]["debt"] is None


def test_paying_another_players_debt_is_refused_and_changes_nothing(started):
    g = started
    g.do({"type": "adjust", "player": "p1", "amount": -1400, "reason": "Test"})
    g.do({"type": "roll", "player": "p1", "dice": [1, 3]})  # Income Tax: 200, Ann has 100
    g.do({"type": "adjust", "player": "p1", "amount": 150, "reason": "Test"})
    before = g.now()
    r = post(g, "p2", {"type": "pay_debt", "key": "tampered-debt"})
    assert r.status_code == 403
    assert "That debt is another player's: only they (or the Banker) may pay it." in text_of(r.text)
    assert g.now() == before


# -- rent claims ---------------------------------------------------------------------------------


def test_a_claim_from_the_remotes_form_pays_once_and_only_its_owner_may_send_it(started):
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob on Ann's Baltic Avenue: c1
    before = g.now()
    r = post(g, "p3", {"type": "claim_rent", "claim": "c1", "key": "tampered-claim"})
    assert r.status_code == 403
    assert "That rent is owed to another player: only they may ask for it." in text_of(r.text)
    assert g.now() == before
    for _ in range(2):
        r = post(g, "p1", {"type": "claim_rent", "claim": "c1", "key": "ann-claims-c1"})
        assert r.status_code == 303
    assert cash(g) == {"p1": 1444, "p2": 1496, "p3": 1500}


# -- trade offers ----------------------------------------------------------------------------


@pytest.fixture
def owners(started):
    """Ann owns Baltic Avenue (1,440), Bob Reading Railroad (1,300); Cy owns nothing."""
    g = started
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [2, 3]})
    g.do({"type": "buy"})
    return g


DEAL = {"to": "p2", "give_properties": "baltic-avenue", "receive_cash": "100"}
OFFER = {
    "id": "o1",
    "from": "p1",
    "to": "p2",
    "give": {"cash": 0, "properties": ["baltic-avenue"], "jail_cards": []},
    "receive": {"cash": 100, "properties": [], "jail_cards": []},
    "unmortgage": [],
}
SUMMARY = "Ann gives Baltic Avenue to Bob for 100."


def propose(g, **extra):
    return post(g, "p1", {"type": "propose_trade", "key": "ann-offers-1", **DEAL, **extra})


def test_a_player_composes_a_trade_with_the_bankers_one_sentence_summary(owners):
    g = owners
    closed = page_of(g, "p1")
    assert "Offer a trade" in text_of(closed) and 'name="give_cash"' not in closed
    r = g.table.client.get(
        join_path(g, "p1") + "/trade", query_string=DEAL, headers={"HX-Request": "true"}
    )
    assert r.text.startswith('<section id="compose"')
    text = text_of(r.text)
    assert SUMMARY in text
    assert "You give Baltic Avenue Cash from you (you have 1,440)" in text
    assert "Bob gives Reading Railroad Cash from Bob (has 1,300)" in text
    assert "Offer to Bob" in text
    # Without JS, "Review" shows the whole page with the deal in its address.
    assert SUMMARY in text_of(
        g.table.client.get(join_path(g, "p1") + "/trade", query_string=DEAL).text
    )


def test_with_private_cash_the_trade_form_does_not_show_the_other_sides_cash(new_game):
    g = new_game(["Ann", "Bob"], options={"private_cash": True})
    g.do(START)
    g.deeds_by_rolls(("baltic-avenue", "p1"))  # something to trade
    r = g.table.client.get(join_path(g, "p1") + "/trade", query_string={"to": "p2"})
    text = text_of(r.text)
    assert "Cash from you (you have 1,440)" in text
    assert "Cash from Bob Ann gives" in text  # no "(has …)"


def test_a_trade_offered_on_one_phone_is_accepted_on_another(owners):
    g = owners
    r = propose(g)
    assert r.status_code == 303
    assert g.state["pending"]["trade_offers"] == [OFFER]
    assert cash(g) == {"p1": 1440, "p2": 1300, "p3": 1500}

    ann = page_of(g, "p1")
    assert f"Trade offers {SUMMARY} Waiting for their answer. Withdraw" in text_of(ann)
    find(ann, "decline_trade", "Withdraw", offer="o1")
    assert "accept_trade" not in kinds(ann)
    bob = page_of(g, "p2")
    assert "Ann offers you a trade: accept or decline it below." in text_of(bob)
    assert f"Trade offers {SUMMARY} Accept" in text_of(bob)
    cy = page_of(g, "p3")
    assert SUMMARY in text_of(cy)
    assert {"accept_trade", "decline_trade"}.isdisjoint(kinds(cy))

    press(g, "p2", "accept_trade", "Accept", offer="o1")
    state = g.state
    assert state["pending"]["trade_offers"] == []
    assert state["properties"]["baltic-avenue"]["owner"] == "p2"
    assert cash(g) == {"p1": 1540, "p2": 1200, "p3": 1500}


def test_the_other_side_declines_and_the_proposer_withdraws(owners):
    g = owners
    propose(g)
    press(g, "p2", "decline_trade", "Decline", offer="o1")
    assert g.state["pending"]["trade_offers"] == []
    propose(g, key="ann-offers-2")
    press(g, "p1", "decline_trade", "Withdraw", offer="o2")
    assert g.state["pending"]["trade_offers"] == []
    assert cash(g) == {"p1": 1440, "p2": 1300, "p3": 1500}
    assert g.state["properties"]["baltic-avenue"]["owner"] == "p1"


def test_offers_not_a_players_own_are_refused_and_change_nothing(owners):
    g = owners
    propose(g)
    before = g.now()
    r = post(g, "p3", {"type": "accept_trade", "offer": "o1", "key": "cy-accepts"})
    assert (r.status_code, "Only the player the offer was made to may accept it.") == (
        403,
        "Only the player the offer was made to may accept it.",
    )
    assert "Only the player the offer was made to may accept it." in text_of(r.text)
    r = post(g, "p1", {"type": "accept_trade", "offer": "o1", "key": "ann-accepts"})
    assert r.status_code == 403
    r = post(g, "p3", {"type": "decline_trade", "offer": "o1", "key": "cy-declines"})
    assert r.status_code == 403
    assert "Only the two sides of an offer may decline or withdraw it." in text_of(r.text)
    r = post(g, "p3", {"type": "propose_trade", "from": "p1", "key": "cy-as-ann", **DEAL})
    assert r.status_code == 403
    assert "You may propose a trade only from yourself" in text_of(r.text)
    assert g.now() == before


def test_a_refused_offer_keeps_the_form_as_it_was_with_the_cores_sentence(owners):
    g = owners
    deal = {"to": "p2", "give_properties": "baltic-avenue", "give_cash": "5000"}
    command = {
        "type": "propose_trade",
        "from": "p1",
        "to": "p2",
        "give": {"cash": 5000, "properties": ["baltic-avenue"], "jail_cards": []},
        "receive": {"cash": 0, "properties": [], "jail_cards": []},
        "unmortgage": [],
    }
    before = g.now()
    sentence = g.send(command, token=g.tokens["p1"]).get_json()["error"]["message"]
    r = post(g, "p1", {"type": "propose_trade", "key": "too-much-1", **deal}, htmx=True)
    assert r.status_code == 200
    assert '<section id="compose" class="compose" hx-swap-oob="true"' in r.text
    assert 'name="give_cash" inputmode="numeric" pattern="[0-9]*" value="5000"' in r.text
    assert 'value="baltic-avenue" checked' in r.text
    said = re.search(r'<div id="said".*?</div>', r.text, flags=re.S).group(0)
    assert 'class="error"' in said and text_of(said) == sentence.replace("Ann has ", "You have ")
    assert g.now() == before


# -- players_act off: only claims ----------------------------------------------------------------


def test_when_players_do_not_act_the_page_shows_and_accepts_only_claims(new_game):
    g = new_game(["Ann", "Bob"], options={"players_act": False})
    g.do(START)
    g.do({"type": "roll", "player": "p1", "dice": [1, 2]})
    assert kinds(page_of(g, "p1")) == set()  # her offer, but no Buy: the Banker records it
    assert "Offer a trade" not in text_of(page_of(g, "p1"))
    before = g.now()
    r = post(g, "p1", {"type": "buy", "key": "ann-buys-1"})
    assert r.status_code == 403
    assert "In this game players only ask for their rent from their phones" in text_of(r.text)
    assert g.now() == before
    g.do({"type": "buy"})
    g.do({"type": "roll", "player": "p2", "dice": [1, 2]})  # Bob on Ann's Baltic Avenue
    ann = page_of(g, "p1")
    assert kinds(ann) == {"claim_rent"}
    assert "build" not in ann and "mortgage" not in kinds(ann)
    press(g, "p1", "claim_rent", "Ask Bob for 4")
    assert cash(g) == {"p1": 1444, "p2": 1496}


# -- the end -----------------------------------------------------------------------------------


def test_players_pages_say_the_final_round_is_over_while_claims_wait(new_game):
    g = new_game(["Ann", "Bob", "Cy"], options={"deadline": True})
    g.do(START)
    g.do({"type": "roll", "player": "p1", "dice": [3, 5]})  # Vermont Avenue
    g.do({"type": "buy"})
    g.do({"type": "call_time"})
    g.do({"type": "roll", "player": "p2", "dice": [4, 6]})
    g.do({"type": "roll", "player": "p3", "dice": [3, 5]})  # Ann's Vermont Avenue: round over
    for pid in ("p1", "p2", "p3"):
        assert "Final round over: waiting for rent claims." in text_of(page_of(g, pid))
    ann = page_of(g, "p1")
    assert "Ask before the Banker scores the game." in text_of(ann)
    press(g, "p1", "claim_rent", "Ask Cy for 6")
    assert cash(g) == {"p1": 1406, "p2": 1500, "p3": 1494}
    ann = text_of(page_of(g, "p1"))
    assert "The game is over: Ann won." in ann and "Final score 1,506" in ann
    assert kinds(page_of(g, "p1")) == set()


def test_a_stopped_game_shows_its_end_and_offers_nothing(owners):
    g = owners
    g.do({"type": "stop"})
    for pid in ("p1", "p2", "p3"):
        html = page_of(g, pid)
        assert "The game was stopped early: an unfinished game, with no winner." in text_of(html)
        assert kinds(html) == set()


def test_without_js_the_page_does_not_reload_itself_while_a_trade_is_being_written(owners):
    refresh = '<noscript><meta http-equiv="refresh" content="5"></noscript>'
    assert refresh in page_of(owners, "p1")
    assert refresh not in page_of(owners, "p1", "?to=p2")
    assert refresh not in page_of(owners, "p1", "?to=p2&give_cash=10")
