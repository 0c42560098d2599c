"""A table of phones in chromium, checked after every action: the Banker's phone, each player's
phone and the big screen, all following one game.

    table = Phones(live_server, browser, created, phones=("p1", "p2", "p3"))
    table.banker.tap("Ann starts")         # a tap on a phone, then every screen is checked
    table.player("p2").tap("Buy for 60")

After every action each screen is brought up to the game's version and must:
- show the cash, positions and owners the state holds (with private cash, a player's phone and
  the big screen show no one's cash but the player's own, and no sentence states it);
- offer only controls the core accepts: every submit button not disabled, read with its form's
  fields as the browser would send them (a typed amount filled with one the core allows), is a
  command `banker.rules.apply` accepts, and for a player's phone one their token may send;
- keep every field someone is typing in (`Seat.type_into`) exactly as typed;
- name in its heading who must act (`who_must_act`).
- have logged no console error and no uncaught exception since the last check (a
  Content-Security-Policy violation, an htmx error such as `htmx:oobErrorNoTarget`).
Each check's failure names the screen, the version and what differed.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Error as PlaywrightError

from banker.rules import Refusal, apply, player_refusal, view_for
from banker.rules.board import DEEDS, SPACES
from banker.web.common import forms
from banker.web.common.present import money, where
from tests.page_forms import as_sent

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 1,
}
SCREEN = {"viewport": {"width": 1920, "height": 1080}}
GUARD_S = 0.33  # static/pad.js: a tap on the Banker's screen near the last one within 0.3 s
# pad.js counts its 0.3 s from the answer to a tap swapped in, which comes after the tap, and
# compares where a tap lands with where the last one did: the Banker's page notes both (its own
# clock, the click's own place), for `Seat.press` to wait as long as pad.js would drop.
SWAPPED = """
document.addEventListener("htmx:afterSwap", (event) => {
  const config = event.detail && event.detail.requestConfig;
  if (config && config.verb === "post") window.__tapAnswered = Date.now();
});
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("#screen button, #screen a")) {
    window.__tapX = event.clientX;
  }
}, true);
"""
# (seconds since the last tap's answer, the x where the last tap landed)
SINCE_SWAPPED = """() => [window.__tapAnswered ? (Date.now() - window.__tapAnswered) / 1000 : 1e9,
                     window.__tapX === undefined ? -1e9 : window.__tapX]"""
# What each screen shows, read in one round trip.
READ = """
(kind) => {
  const text = el => el ? el.textContent.replace(/\\s+/g, ' ').trim() : null;
  const own = (el) => el ? [...el.childNodes].filter(n => n.nodeType === 3)
    .map(n => n.textContent).join('').replace(/\\s+/g, ' ').trim() : null;
  const live = document.querySelector(
    kind === 'banker' ? '#screen' : kind === 'display' ? '#display' : '#player-view');
  const out = {version: live ? Number(live.dataset.version) : null,
               text: document.body.innerText, forms: [], values: {}};
  for (const f of document.querySelectorAll('form')) {
    const fields = [], blanks = [], radios = {};
    for (const e of f.elements) {
      if (!e.name || e.tagName === 'BUTTON' || e.type === 'file') continue;
      if (e.type === 'radio') { (radios[e.name] ||= []).push(e.value); }
      if ((e.type === 'checkbox' || e.type === 'radio') && !e.checked) continue;
      if (e.type !== 'hidden' && e.type !== 'checkbox' && e.type !== 'radio'
          && e.tagName !== 'SELECT') blanks.push(e.name);  // typed: filled by the check
      fields.push([e.name, e.value]);
    }
    const buttons = [...f.querySelectorAll('button')]
      .filter(b => (b.type || 'submit') === 'submit' && !b.hidden
              && b.getAttribute('formmethod') !== 'get')
      .map(b => ({name: b.name, value: b.value, disabled: b.disabled, text: text(b)}));
    out.forms.push({action: f.getAttribute('action') || '',
                    method: (f.getAttribute('method') || 'get').toLowerCase(),
                    fields, blanks, radios, buttons});
  }
  for (const e of document.querySelectorAll('input[id], select[id], textarea[id]')) {
    out.values[e.id] = (e.type === 'checkbox' || e.type === 'radio') ? e.checked : e.value;
  }
  out.focused = document.activeElement && document.activeElement.id;
  if (kind === 'banker') {
    out.heading = text(document.querySelector('h1#now'));
    out.strip = [...document.querySelectorAll('.strip li')].map(li => ({
      name: own(li.querySelector('.name')), cash: text(li.querySelector('.cash')),
      where: text(li.querySelector('.where'))}));
  } else if (kind === 'display') {
    out.heading = text(document.querySelector('#act'));
    out.people = [...document.querySelectorAll('.person')].map(li => ({
      id: li.id.replace('person-', ''), cash: text(li.querySelector('.person-cash')),
      where: text(li.querySelector('.person-where'))}));
    out.standings = [...document.querySelectorAll('#standings tbody th')].map(th => own(th));
    out.owners = {};
    for (const sp of document.querySelectorAll('.bigboard [id^=space-]')) {
      const o = sp.querySelector('.owner');
      const said = o && (o.querySelector('.sr-only') || o);  // "Owner: Bob", read out
      out.owners[sp.id.replace('space-', '')] = o ? text(said).replace(/^Owner: /, '') : null;
    }
  } else {
    out.heading = text(document.querySelector('#status-line'));
    out.cash = text(document.querySelector('#my-cash'));
    out.position = text(document.querySelector('#my-position'));
    out.deeds = [...document.querySelectorAll('section.deeds li.deed')].map(li => li.id.slice(5));
    out.others = [...document.querySelectorAll('div.other[id^=other-]')].map(o => ({
      id: o.id.replace('other-', ''), name: own(o.querySelector('h3')),
      cash: text(o.querySelector('.other-cash')), at: text(o.querySelector('p')),
      deeds: [...o.querySelectorAll('.their-deeds li')].map(li => own(li))}));
  }
  return out;
}
"""


def who_must_act(state: dict) -> list[str] | None:
    """The players the game waits for now (None: everyone may, as in an auction; []: no one)."""
    p, t = state["pending"], state["turn"]
    if state["status"] != "playing":
        return []
    if p["debt"]:
        return [p["debt"]["debtor"]]
    if p["offer"]:
        return [p["offer"]["player"]]
    if p["auction"]:
        return None
    if p["card"]:
        return [p["card"]["player"]]
    if p["dice"]:
        return [p["dice"]["player"]]
    if p["trade_offers"]:
        return [p["trade_offers"][0]["to"]]
    if t["player"] is None:  # the final round is over: the owners of open claims
        return sorted({c["owner"] for c in p["rent_claims"]})
    return [t["player"]]


class Seat:
    """One screen at the table: "banker", a player id, or "display"."""

    def __init__(self, phones: Phones, who: str, context, url: str):
        self.phones, self.who, self.context = phones, who, context
        self.kind = who if who in ("banker", "display") else "player"
        self.page = context.new_page()
        if self.kind == "banker":
            self.page.add_init_script(SWAPPED)
        self.page.on("pageerror", lambda e: phones.errors.append(f"{who}: {e}"))
        self.page.on(
            "console",
            lambda m: m.type == "error" and phones.errors.append(f"{who}: {m.text}"),
        )
        self.typing: dict[str, str] = {}  # field id -> what was typed and must stay
        self.goto(url)

    def goto(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_load_state()

    # -- acting ------------------------------------------------------------------------------

    def _scope(self):
        return self.page.locator("#screen") if self.kind == "banker" else self.page

    def locate(self, name: str | None = None, css: str | None = None, exact: bool = True):
        if css:
            return self._scope().locator(css).first
        return self._scope().get_by_role("button", name=name, exact=exact).first

    def press(self, target) -> None:
        """Tap a locator, as a thumb does: on the Banker's screen never where pad.js takes it
        for a double tap's second (within 30 px of where the last tap landed, 0.3 s from that
        tap's answer). The screen's rows move up and down as live updates arrive at their own
        times (the same step of the same game put a button 87 px lower in one run than in
        another), never sideways: a tap measured here as below the last one can land on its
        spot (the likely way a whole run's long game once lost a first die). So a tap in the
        column where the last one landed (the page's own record) waits out the guard, from the
        answer's time on the page's own clock."""
        for attempt in range(3):  # a live update may replace it between two steps
            try:
                if self.kind == "banker":
                    since, last_x = self.page.evaluate(SINCE_SWAPPED)
                    box = target.bounding_box()
                    column = box is None or abs(box["x"] + box["width"] / 2 - last_x) < 40
                    if column and since < GUARD_S:
                        time.sleep(GUARD_S - since)
                target.tap()
                return
            except PlaywrightError as e:
                if "not attached" not in str(e) or attempt == 2:
                    raise

    def tap(self, name: str | None = None, css: str | None = None, exact: bool = True) -> None:
        """A tap that sends a command: then every screen follows and is checked."""
        before = self.phones.version()
        self.press(self.locate(name, css, exact))
        self.phones.settle(before, self)

    def type_into(self, field_id: str, value: str) -> None:
        """Type into a field and leave it there (not sent): it must survive every update."""
        field = self.page.locator(f"#{field_id}")
        field.scroll_into_view_if_needed()
        field.tap()
        field.fill("")
        field.press_sequentially(value)
        self.typing[field_id] = value

    def sent(self, field_id: str) -> None:
        """The typed field is about to be sent: it no longer has to stay."""
        self.typing.pop(field_id, None)

    # -- reading -----------------------------------------------------------------------------

    def read(self) -> dict:
        return self.page.evaluate(READ, self.kind)

    def shown_version(self) -> int | None:
        return self.page.evaluate(
            "(sel) => { const e = document.querySelector(sel); "
            "return e ? Number(e.dataset.version) : null; }",
            self._live_selector(),
        )

    def _live_selector(self) -> str:
        return {"banker": "#screen", "display": "#display"}.get(self.kind, "#player-view")

    def wake(self) -> None:
        """The phone is looked at again (its page asks for what changed at once)."""
        try:
            self.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        except PlaywrightError as e:  # the page is already on its way somewhere else
            if "navigation" not in str(e):
                raise

    def follow(self, version: int, timeout_ms: int = 5000) -> None:
        """Until this screen shows `version` (woken first by `Phones.check_all`: a live update
        asked for at once, as when a phone is taken out of a pocket)."""
        self.page.wait_for_function(
            "([sel, v]) => { const e = document.querySelector(sel); "
            "return e && Number(e.dataset.version) === v; }",
            arg=[self._live_selector(), version],
            timeout=timeout_ms,
            polling=30,
        )


class Phones:
    """The Banker's phone, the players' phones and the big screen of one game."""

    def __init__(self, live_server, browser, created: dict, phones=(), display=True):
        self.live_server, self.browser = live_server, browser
        self.errors: list[str] = []
        self.timings = {"follow": 0.0, "read": 0.0, "check": 0.0}  # seconds, for the report
        self.contexts = []
        self.actions = 0
        self.seats: dict[str, Seat] = {}
        self.open(created, phones, display)

    def open(self, created: dict, phones=(), display=True) -> None:
        """Open the screens of a game (its create or import answer's links)."""
        self.game_id = created["game_id"]
        urls = {p["id"]: p["join_url"] for p in created["players"]}
        self._seat("banker", PHONE, created["banker_url"])
        for pid in phones:
            self._seat(pid, PHONE, urls[pid])
        if display:
            self._seat("display", SCREEN, created["display_url"])

    def _seat(self, who: str, size: dict, url: str) -> Seat:
        if who in self.seats:
            self.seats[who].goto(url)
            return self.seats[who]
        context = self.browser.new_context(**size)
        context.set_default_timeout(8000)
        self.contexts.append(context)
        self.seats[who] = Seat(self, who, context, url)
        return self.seats[who]

    def moved_to(self, game_id: str) -> None:
        """The game was resumed as `game_id` (the Banker's phone is on its table already): each
        player's old page says where it went on, and they follow; the big screen opens the link
        the Banker's table shows for it."""
        self.game_id = game_id
        for seat in self.seats.values():
            if seat.kind == "player":
                link = seat.page.get_by_role("link", name="Follow the game where it goes on")
                seat.wake()
                link.wait_for()
                seat.press(link)
                seat.page.locator("#player-view").wait_for()
        # The old page, answered 410 Gone with the way on: a browser logs the status.
        self.errors[:] = [e for e in self.errors if "status of 410" not in e]
        url = self.banker.page.locator("#big-screen-link").get_attribute("href")
        if "display" in self.seats:
            self.display.goto(url)
        self.check_all()

    def close(self) -> None:
        for c in self.contexts:
            c.close()

    @property
    def banker(self) -> Seat:
        return self.seats["banker"]

    @property
    def display(self) -> Seat:
        return self.seats["display"]

    def player(self, pid: str) -> Seat:
        return self.seats[pid]

    def seat_of(self, pid: str) -> Seat:
        """Where a player acts: their own phone, else the Banker's."""
        return self.seats.get(pid, self.banker)

    # -- the game as the server keeps it --------------------------------------------------

    @property
    def state(self) -> dict:
        return self.live_server.store.state(self.game_id)

    def version(self) -> int:
        return self.state["version"]

    # -- after every action -----------------------------------------------------------------

    def settle(self, before: int, actor: Seat | None = None) -> None:
        """After a tap: the game moved on (or the tap was refused); every screen follows it and
        is checked."""
        deadline = time.monotonic() + 5
        while self.version() == before and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.version() > before, f"{actor and actor.who}: the tap changed nothing"
        self.actions += 1
        self.check_all()

    def check_all(self) -> None:
        t0 = time.monotonic()
        version = self.version()
        behind = [seat for seat in self.seats.values() if seat.shown_version() != version]
        for seat in behind:  # every phone asks at once
            seat.wake()
        for seat in behind:
            seat.follow(version)
        t1 = time.monotonic()
        state = self.state
        shown = {who: seat.read() for who, seat in self.seats.items()}
        t2 = time.monotonic()
        for who, seat in self.seats.items():
            check_screen(seat, shown[who], state)
        self.timings["follow"] += t1 - t0
        self.timings["read"] += t2 - t1
        self.timings["check"] += time.monotonic() - t2
        assert self.errors == [], self.errors


def _where(p: dict) -> str:
    return where(p)


def check_screen(seat: Seat, shown: dict, state: dict) -> None:
    """Everything one screen must show of `state` (see the module's docstring)."""
    at = f"{seat.who} at version {state['version']}"
    assert shown["version"] == state["version"], at
    {"banker": _banker_figures, "display": _display_figures}.get(seat.kind, _player_figures)(
        seat, shown, state, at
    )
    _controls(seat, shown, state, at)
    for field_id, typed in seat.typing.items():
        if field_id in shown["values"]:
            assert shown["values"][field_id] == typed, (at, field_id, shown["values"][field_id])
    _heading(seat, shown, state, at)


def _banker_figures(seat, shown, state, at):
    if not shown["strip"]:
        return  # not the table screen
    expected = [
        {
            "name": p["name"],
            "cash": money(p["cash"]),
            "where": "Out"
            if p["eliminated"]
            else _where(p) + (f" · tried {p['jail_attempts']}" if p["in_jail"] else ""),
        }
        for p in state["players"]
    ]
    assert shown["strip"] == expected, (at, shown["strip"], expected)


def _private(state: dict) -> bool:
    return bool(state["options"].get("private_cash"))


def _no_cash_of(text: str, others: list[dict], at: str) -> None:
    """No sentence on the screen states another player's cash in hand."""
    for o in others:
        if o["eliminated"]:
            continue
        for cash in {str(o["cash"]), money(o["cash"])}:
            for said in (
                f"{o['name']} has {cash}",
                f"{o['name']} has only {cash}",
                f"with {cash} in cash",
                f"(has {cash})",
            ):
                assert said not in text, (at, said)


def _player_figures(seat, shown, state, at):
    me = next(p for p in state["players"] if p["id"] == seat.who)
    assert shown["cash"] == money(me["cash"]), (at, shown["cash"])
    assert shown["position"].startswith(_where(me)), (at, shown["position"])
    owned = [d for d in DEEDS if state["properties"][d]["owner"] == me["id"]]
    assert sorted(shown["deeds"]) == sorted(owned), (at, shown["deeds"], owned)
    others = [p for p in state["players"] if p["id"] != me["id"]]
    by_id = {o["id"]: o for o in shown["others"]}
    assert set(by_id) == {p["id"] for p in others}, (at, shown["others"])
    for p in others:
        o = by_id[p["id"]]
        if _private(state):
            assert o["cash"] is None, (at, p["name"], o["cash"])
        else:
            assert o["cash"] == money(p["cash"]), (at, p["name"], o["cash"])
        place = "Out of the game." if p["eliminated"] else _where(p)
        assert place in o["at"], (at, p["name"], o["at"])
        theirs = [DEEDS[d].name for d in DEEDS if state["properties"][d]["owner"] == p["id"]]
        assert sorted(d.split(" (")[0] for d in o["deeds"]) == sorted(theirs), (at, o["deeds"])
    if _private(state):
        _no_cash_of(shown["text"], others, at)


def _display_figures(seat, shown, state, at):
    people = {p["id"]: p for p in shown["people"]}
    over = state["status"] in ("finished", "unfinished")
    if over:  # the centre shows the standings instead of the people
        standing = sorted(n.split(" (")[0] for n in shown["standings"])  # "Cat (out)"
        assert standing == sorted(p["name"] for p in state["players"]), (at, shown["standings"])
    for p in [] if over else state["players"]:
        person = people[p["id"]]
        if _private(state):
            assert person["cash"] is None, (at, p["name"], person["cash"])
        else:
            assert person["cash"] == money(p["cash"]), (at, p["name"], person["cash"])
        place = "Out of the game" if p["eliminated"] else _where(p)
        assert person["where"].startswith(place), (at, p["name"], person["where"])
    names = {p["id"]: p["name"] for p in state["players"]}
    for s in SPACES:
        if s.deed:
            owner = state["properties"][s.deed]["owner"]
            assert shown["owners"][str(s.index)] == names.get(owner), (at, s.name)
    if _private(state):
        _no_cash_of(shown["text"], state["players"], at)


# -- every active control is one the core accepts -----------------------------------------------

_COMMAND_PATHS = (re.compile(r"/games/\w+/act$"), re.compile(r"/join/[^/]+/(act|claim)$"))


def _controls(seat, shown, state, at):
    for form in shown["forms"]:
        if form["method"] != "post" or not any(p.search(form["action"]) for p in _COMMAND_PATHS):
            continue
        for button in form["buttons"]:
            if button["disabled"]:
                continue
            # What is typed is kept as it is (even half typed); the blanks are filled.
            said = [
                _refused(seat, state, data) for data in as_sent(state, form, button, form["blanks"])
            ]
            assert not said or not all(said), ((at, button["text"]), *said[0])


def _refused(seat, state, data) -> tuple | None:
    """(command, sentence) if the form as sent would be refused to this seat, else None."""
    types = forms.TYPES if seat.kind == "banker" else forms.TYPES | {"propose_trade"}
    command = forms.command_from(data, types)
    if seat.kind == "player":
        refusal = player_refusal(state, seat.who, command)
        if refusal:
            return command, refusal
    try:
        apply(state, command)
    except Refusal as e:
        return command, e.message
    return None


# -- the heading names who must act -----------------------------------------------------------


def _heading(seat, shown, state, at):
    who = who_must_act(state)
    if shown["heading"] is None:
        return  # not a screen with a heading (the Banker's History, Trade…)
    heading = shown["heading"]
    names = {p["id"]: p["name"] for p in state["players"]}
    if state["status"] != "playing":
        return
    if who is None:
        assert "everyone" in heading.lower() or "auction" in heading.lower(), (at, heading)
        return
    for pid in who:
        name = names[pid]
        roller = state["turn"]["roller"] if pid == state["turn"]["player"] else None
        said = [name] + ([roller] if roller else [])
        if seat.who == pid:
            said += ["You", "Your", " you"]
        assert any(s in heading for s in said), (at, heading, said)


def view(state: dict, who: str) -> dict:
    return view_for(state, who)
