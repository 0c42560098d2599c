"""How the long game is played by taps (tests/browser/test_long_game.py): a roll on the Banker's
dice pad, then whatever it opened settled as a family would, each from the phone where it
belongs (a player's own phone when they have one, else the Banker's), every tap followed by
the checks of every screen (tests/browser/phones.py).

The dice are fixed: a roll is either aimed (`Play.roll(to=space)`) or the next pair of DICE.
"""

from __future__ import annotations

import re

from banker.rules import can_raise, deed_rent
from banker.rules.board import DEEDS, JAIL_FINE, SPACES

from .phones import Phones

DICE = [(1, 2), (2, 4), (3, 5), (4, 2), (5, 3), (6, 1), (2, 5), (3, 6), (1, 4), (5, 6), (4, 3)]
# The cards the Banker taps, in turn, for each pile (a Get Out of Jail Free card someone holds
# is not offered, so none is in these lists).
CARDS = {
    "chance": ["bank-dividend-50", "speeding-fine-15", "building-loan-matures-150"],
    "community_chest": ["collect-20-groceries", "pay-50-bake-sale-cookies", "collect-25-bake-sale"],
}


def aimed(position: int, to: int) -> tuple[int, int]:
    """Dice (not doubles) that take a token from `position` to `to` (2 to 11 spaces on)."""
    steps = (to - position) % 40
    assert 3 <= steps <= 11, (position, to)
    d1 = max(1, steps - 6)
    if d1 * 2 == steps:
        d1 -= 1
    return d1, steps - d1


class Play:
    """The game on a table of phones, by taps."""

    def __init__(self, phones: Phones):
        self.phones = phones
        self.rolls = 0
        self._dice = 0
        self._cards = {deck: 0 for deck in CARDS}
        self.buys = True  # players buy what they land on when they can spare the cash
        self.never_buy = {"p4"}  # Dan lets everything go to auction and never bids

    @property
    def state(self) -> dict:
        return self.phones.state

    def name(self, pid: str) -> str:
        return next(p["name"] for p in self.state["players"] if p["id"] == pid)

    def player(self, pid: str) -> dict:
        return next(p for p in self.state["players"] if p["id"] == pid)

    # -- a turn ----------------------------------------------------------------------------

    def turn(self, to: int | None = None, dice: tuple[int, int] | None = None) -> None:
        """The player whose turn it is: out of Jail first if they can pay, then a roll, then
        everything it opens settled."""
        pid = self.state["turn"]["player"]
        me = self.player(pid)
        if me["in_jail"] and me["cash"] >= JAIL_FINE + 100:
            self.phones.seat_of(pid).tap(f"Pay {JAIL_FINE}")
        self.roll(to=to, dice=dice)
        self.settle()

    def roll(self, to: int | None = None, dice: tuple[int, int] | None = None) -> None:
        pid = self.state["turn"]["player"]
        if dice is None and to is not None:
            dice = aimed(self.player(pid)["position"], to)
        if dice is None:
            dice = DICE[self._dice % len(DICE)]
            self._dice += 1
        self.dice(*dice)
        self.rolls += 1

    def dice(self, d1: int, d2: int) -> None:
        """Two taps on the Banker's dice pad (a roll, or a utility's rent roll)."""
        banker = self.phones.banker
        banker.press(banker.locate(f"First die {d1}"))
        banker.page.locator("#pad-d1").wait_for(state="attached")
        banker.tap(f"Second die {d2}: record {d1} and {d2}")

    # -- what a roll opens -------------------------------------------------------------------

    def settle(self) -> None:
        """Settle what the table must before the next roll, each step by taps."""
        for _ in range(40):
            p = self.state["pending"]
            if p["debt"]:
                self.pay_or_go_bankrupt()
            elif p["offer"]:
                self.buy_or_auction()
            elif p["auction"]:
                self.auction()
            elif p["card"]:
                self.draw()
            elif p["dice"]:
                self.dice(*DICE[self._dice % len(DICE)])
                self._dice += 1
            elif self.claims():
                continue
            else:
                return
        raise AssertionError("the table never settled")

    def buy_or_auction(self) -> None:
        o = self.state["pending"]["offer"]
        me = self.player(o["player"])
        seat = self.phones.seat_of(o["player"])
        wants = self.buys and o["player"] not in self.never_buy
        if wants and me["cash"] - o["price"] >= 250:
            seat.tap(f"Buy for {o['price']:,}")
        else:
            seat.tap("Auction")

    def auction(self, bids: tuple[str, ...] = ()) -> None:
        """The bidders with a phone raise once each (the first 10, then +10), then the Banker
        closes."""
        a = self.state["pending"]["auction"]
        bidders = bids or tuple(
            p["id"]
            for p in self.state["players"]
            if not p["eliminated"] and p["id"] not in self.never_buy and p["cash"] > 200
        )
        for pid in bidders[:2]:
            a = self.state["pending"]["auction"]
            seat = self.phones.seat_of(pid)
            amount = a["high_bid"] + 10 if a["high_bidder"] else 10
            if seat.kind == "banker":
                label = "10" if a["high_bidder"] is None else "+10"
                seat.tap(f"{label}: {self.name(pid)} bids {amount}")
            elif a["high_bidder"] is None:
                seat.tap("10: bid 10")
            else:
                seat.tap(f"+10: bid {a['high_bid'] + 10}")
        self.close()

    def close(self) -> None:
        a = self.state["pending"]["auction"]
        if a["high_bidder"]:
            self.phones.banker.tap(
                f"Close: {self.name(a['high_bidder'])} wins for {a['high_bid']:,}"
            )
        else:
            self.phones.banker.tap("Close: nobody bid")

    def draw(self) -> None:
        deck = self.state["pending"]["card"]["deck"]
        card = CARDS[deck][self._cards[deck] % len(CARDS[deck])]
        self._cards[deck] += 1
        self.phones.banker.tap(css=f'button[name="card"][value="{card}"]')

    def claims(self) -> bool:
        """The owner of an open rent claim asks for it (on their phone, or the Banker's Claim).
        False when none is open."""
        for c in self.state["pending"]["rent_claims"]:
            owner = self.phones.seats.get(c["owner"])
            payer = self.name(c["payer"])
            if owner is not None:
                deed = DEEDS[c["property"]].name
                owner.tap(f"Ask {payer} for {c['amount']:,} ({deed})")
            else:
                self.phones.banker.tap(f"Claim {c['amount']:,} from {payer}", exact=False)
            return True
        return False

    def pay_or_go_bankrupt(self) -> None:
        """The debtor mortgages deeds (from their phone) until the cash covers the debt, then
        pays; when even that cannot cover it, the Banker declares the bankruptcy."""
        d = self.state["pending"]["debt"]
        pid = d["debtor"]
        seat = self.phones.seat_of(pid)
        me = self.player(pid)
        if me["cash"] + can_raise(self.state, pid) < d["amount"]:
            self.bankrupt(pid)
            return
        while self.player(pid)["cash"] < d["amount"]:
            deed = next(
                x
                for x, st in self.state["properties"].items()
                if st["owner"] == pid and not st["mortgaged"] and not st["houses"]
            )
            value = DEEDS[deed].mortgage_value
            seat.tap(f"Mortgage +{value:,} on {DEEDS[deed].name}")
        creditor = "the Bank" if d["creditor"] is None else self.name(d["creditor"])
        seat.tap(f"Pay {d['amount']:,} to {creditor}")

    def bankrupt(self, pid: str) -> None:
        banker = self.phones.banker
        banker.press(banker.page.get_by_role("link", name=f"Declare {self.name(pid)} bankrupt…"))
        banker.page.locator("#bankrupt-h").wait_for()
        banker.tap(f"Yes: {self.name(pid)} is bankrupt")

    def space(self, index: int) -> str:
        return SPACES[index].name

    # -- the Banker's other screens ----------------------------------------------------------

    def screen(self, name: str) -> None:
        """The Banker opens one of their screens (Table, Board, Trade, History)."""
        banker = self.phones.banker
        banker.press(banker.page.locator("header nav").get_by_role("link", name=name))
        heading = "h1#now" if name == "Table" else "#screen h1"
        banker.page.locator(heading).first.wait_for()
        if name != "Table":
            banker.page.locator("#screen h1", has_text=name).wait_for()

    def correct_cash(self, pid: str, cash: int, reason: str = "counted wrong") -> None:
        """The Banker corrects `pid`'s cash to `cash` on History (five taps and typing)."""
        delta = cash - self.player(pid)["cash"]
        if not delta:
            return
        banker = self.phones.banker
        self.screen("History")
        form = banker.page.locator(".correction-form")
        banker.press(form.get_by_role("radio", name=self.name(pid)))
        form.get_by_label("Amount").fill(str(abs(delta)))
        form.get_by_label("Reason").fill(reason)
        banker.tap("Give from the Bank" if delta > 0 else "Take to the Bank")
        self.screen("Table")

    # -- trades from the players' phones ----------------------------------------------------

    def offer_trade(self, frm: str, to: str, give: list[str], receive_cash: int) -> None:
        """`frm` offers `to`, from their phone, their deeds `give` for `receive_cash`."""
        seat = self.phones.player(frm)
        page = seat.page
        seat.press(page.get_by_role("link", name="Offer a trade"))
        page.locator("#trade-to").wait_for()
        if page.locator("#trade-to").input_value() != to:
            page.locator("#trade-to").select_option(to)
            page.locator("#compose legend", has_text=f"{self.name(to)} gives").wait_for()
        for deed in give:
            seat.press(page.locator(f"#give-{deed}"))
        seat.type_into("receive-cash", str(receive_cash))
        page.locator("#trade-summary", has_text=f"for {receive_cash:,}").wait_for()
        seat.sent("receive-cash")
        seat.tap(f"Offer to {self.name(to)}")

    def answer_offer(self, pid: str, how: str) -> None:
        """`pid` answers the offer made to them (Accept, Decline) or withdraws theirs."""
        offer = self.state["pending"]["trade_offers"][0]["id"]
        self.phones.player(pid).tap(f"{how} offer {offer}")

    # -- the Banker's More ---------------------------------------------------------------------

    def call_time(self) -> None:
        banker = self.phones.banker
        more = banker.page.locator("#more")
        if more.get_attribute("open") is None:
            banker.press(more.locator("summary"))
        banker.tap("Call time")

    # -- pause and resume --------------------------------------------------------------------

    def pause_and_resume(self, folder) -> None:
        """The Banker pauses to a file and resumes it from the home page: a new game, and every
        phone follows it there (a player's old page says where the game went on)."""
        page = self.phones.banker.page
        page.get_by_role("link", name=re.compile("Pause")).click()
        page.wait_for_url(re.compile(r"/pause$"))
        with page.expect_download() as download:
            page.get_by_role("link", name="Download the snapshot file").click()
        saved = folder / download.value.suggested_filename
        download.value.save_as(saved)
        page.goto(self.phones.live_server.url + "/")
        page.locator('input[name="snapshot"]').set_input_files(saved)
        page.get_by_role("button", name="Resume the game").click()
        page.wait_for_url(re.compile(r"/games/[a-z2-9]+$"))
        self.phones.moved_to(page.url.rsplit("/", 1)[1])

    # -- aiming ------------------------------------------------------------------------------

    def reachable(self, pid: str, wanted, past_go: bool = True) -> int | None:
        """A space 3 to 11 steps ahead of `pid` for which wanted(index) holds (not past GO,
        which pays 200, unless `past_go`), or None."""
        position = self.player(pid)["position"]
        for steps in range(3, 12):
            index = (position + steps) % 40
            if (past_go or index > position) and wanted(index):
                return index
        return None

    def until_turn_of(self, pid: str, limit: int = 8) -> None:
        """Ordinary turns until it is `pid`'s."""
        for _ in range(limit):
            if self.state["turn"]["player"] == pid:
                return
            self.turn()
        raise AssertionError(f"never {pid}'s turn")

    def rent_over(self, amount: int, owners: set[str]):
        """A test for a space: a deed of one of `owners`, not mortgaged, whose rent is more
        than `amount` (a utility's excepted: its rent needs a roll)."""

        def wanted(index: int) -> bool:
            deed = SPACES[index].deed
            if not deed or DEEDS[deed].kind == "utility":
                return False
            st = self.state["properties"][deed]
            return (
                st["owner"] in owners
                and not st["mortgaged"]
                and (deed_rent(self.state, deed) > amount)
            )

        return wanted

    def can_raise(self, pid: str) -> int:
        return can_raise(self.state, pid)

    def mortgage(self, pid: str, deed: str) -> None:
        """`pid` mortgages a deed of theirs from their phone (the Banker's sheet for Dan)."""
        value = DEEDS[deed].mortgage_value
        self.phones.seat_of(pid).tap(f"Mortgage +{value:,} on {DEEDS[deed].name}")

    def lands_on(self, pid: str, index: int, limit: int = 12) -> None:
        """Ordinary turns until `pid` can roll onto space `index`, then that roll."""
        for _ in range(limit):
            self.until_turn_of(pid)
            if self.reachable(pid, lambda i: i == index) is not None:
                self.turn(to=index)
                return
            self.turn()
        raise AssertionError(f"{pid} never came within a roll of space {index}")
