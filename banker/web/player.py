"""The players' phones: each player's own live page (join_url), the Join panel of QR codes for
the Banker's table screen, new links for lost phones, and cheap version polls.

A player's page polls `GET /join/<token>/version?v=N` about every 700 ms: while nothing has
changed the answer is 204 No Content from two dictionary look-ups in memory (no SQLite, no
template); after any command it is the fresh `_view.html` fragment, which carries the new version
for the next poll. The one thing a player may do is claim rent owed to them, through the same
Store.execute as the JSON API.
"""

from __future__ import annotations

import ipaddress
import secrets
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from banker.rules import DomainError, public_state
from banker.rules.board import DECK_NAMES, DEEDS, GROUPS, space_name
from banker.rules.holdings import score
from banker.rules.turn import rent, utility_multiplier
from banker.store import GameNotFound, StoreError, same_token
from banker.web import error_response, get_store
from banker.web.guards import CROSS_SITE, is_cross_site_post
from banker.web.pages import banker_cookie
from banker.web.pages.views import GROUP_COLORS, GROUP_NAMES
from banker.web.qr import qr_svg

bp = Blueprint("player", __name__)

POLL_EVERY = "700ms"
LATEST_EVENTS = 6
MAX_KEY = 100
REPLACED = (
    "This link no longer works: the Banker gave this player a new one. "
    "Ask the Banker to show you your QR code again."
)
UNKNOWN = (
    "This link is not a player's link in any game here. "
    "Check that it was copied whole, or ask the Banker to show you your QR code."
)


class Refused(Exception):
    """A refusal decided here (not the core's): a status and a sentence for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@bp.before_request
def _refuse_cross_site_posts():
    """A claim or a new link posted from another site's page is refused before anything."""
    if is_cross_site_post():
        return _message_page(403, CROSS_SITE)
    return None


@bp.after_request
def _never_cached_by_others(response):
    # Every answer here names a player or carries a token: no shared cache may keep it.
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


# -- links -------------------------------------------------------------------------------------


def _is_loopback(host: str) -> bool:
    name = urlsplit("//" + host).hostname or ""
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def public_url_for(endpoint: str, **values) -> str:
    """An absolute URL that another phone can open.

    Built on config PUBLIC_URL when set (a reverse proxy, another name); else on the request's
    host, except that a loopback host (the Banker browsing on the laptop itself) is replaced by
    config LAN_URL, the address `banker serve` found on the local network.
    """
    config = current_app.config
    base = config.get("PUBLIC_URL")
    if not base and config.get("LAN_URL") and _is_loopback(request.host):
        base = config["LAN_URL"]
    if not base:
        return url_for(endpoint, _external=True, **values)
    path = url_for(endpoint, **values)
    root = request.script_root
    if root and path.startswith(root):
        path = path[len(root) :]
    return base.rstrip("/") + path


# -- the Banker's side: the Join panel, new links, the version poll -----------------------------


def _banker_token_given(game_id: str) -> tuple[str, bool] | None:
    """(banker token, whether it came in the pages' cookie) if this request carries it right.

    It may come as a form field, ?token=, a Bearer header or the Banker's pages' cookie.
    """
    try:
        banker_token = get_store().banker_token(game_id)
    except GameNotFound:
        return None
    scheme, _, bearer = request.headers.get("Authorization", "").partition(" ")
    given = [
        (request.cookies.get(banker_cookie(game_id)), True),
        (request.form.get("token") if request.method == "POST" else None, False),
        (request.args.get("token"), False),
        (bearer.strip() if scheme.lower() == "bearer" else None, False),
    ]
    for token, by_cookie in given:
        if token and same_token(token, banker_token):
            return banker_token, by_cookie
    return None


@bp.app_template_global()
def join_panel(game_id: str | None) -> dict | None:
    """What the Join panel shows, or None unless this request is the game's Banker's.

    {"game_id", "token" (for the forms, None with the cookie), "players": [{"id", "name",
    "join_url", "qr_svg", "eliminated"}]}:
    the panel shows the links only on a page whose request carries the banker token, so that
    including it anywhere else leaks nothing.
    """
    if not game_id:
        return None
    given = _banker_token_given(game_id)
    if given is None:
        return None
    token, by_cookie = given
    store = get_store()
    state = store.state(game_id)
    eliminated = {p["id"]: p["eliminated"] for p in state["players"]}
    players = []
    for p in store.players(game_id):
        url = public_url_for("player.join", token=p["token"])
        players.append(
            {
                "id": p["id"],
                "name": p["name"],
                "join_url": url,
                "qr_svg": qr_svg(url, f"{p['name']}'s link"),
                "eliminated": eliminated[p["id"]],
            }
        )
    # The forms need the token only when the page has no cookie to send (kept out of the HTML
    # otherwise, as the Banker's pages keep it out of their URLs).
    return {"game_id": game_id, "token": None if by_cookie else token, "players": players}


@bp.post("/games/<game_id>/players/<player_id>/new-link")
def new_link(game_id: str, player_id: str):
    """The Banker gives a player a new link; the old one stops working at once."""
    store = get_store()
    try:
        store.state(game_id)
    except GameNotFound:
        return _message_page(404, "There is no such game on this Banker.")
    given = _banker_token_given(game_id)
    if given is None:
        return _message_page(403, "Only the Banker of this game may give a player a new link.")
    try:
        store.rotate_player_token(game_id, player_id)
    except StoreError as e:
        return _message_page(e.status, e.message)
    if request.headers.get("HX-Request"):
        return render_template("player/_join_panel.html", game_id=game_id)
    # Without JS: back to the page the form was on (the Banker's table), else the game's page.
    back = request.referrer
    if not back or urlsplit(back).netloc != request.host:
        token, by_cookie = given
        back = url_for("pages.game", game_id=game_id, **({} if by_cookie else {"token": token}))
    return redirect(back, code=303)


@bp.get("/games/<game_id>/version")
def game_version(game_id: str):
    """The Banker's table poll: 204 while the game is at version ?v=, else {"version": N}."""
    store = get_store()
    try:
        version = store.version(game_id)
    except GameNotFound:
        return error_response(404, "game_not_found", f"There is no game {game_id!r}.")
    if _banker_token_given(game_id) is None:
        return error_response(
            403, "banker_only", "This needs the banker token of this game (?token= or Bearer)."
        )
    if request.args.get("v", type=int) == version:
        return "", 204
    return jsonify({"version": version})


# -- the player's side -------------------------------------------------------------------------


def _gone(token: str):
    """The page for a link that does not work: replaced by the Banker (403) or unknown (404)."""
    if get_store().player_token_revoked(token):
        response = _message_page(403, REPLACED)
    else:
        response = _message_page(404, UNKNOWN)
    # A page still polling with this token reloads itself and shows this sentence instead.
    response.headers["HX-Refresh"] = "true"
    return response


def _message_page(status: int, sentence: str):
    return make_response(render_template("player/message.html", sentence=sentence), status)


@bp.get("/join/<token>")
def join(token: str):
    """A player's own page (join_url): their money, deeds and the table, kept live."""
    found = get_store().player_by_token(token)
    if found is None:
        return _gone(token)
    return render_template("player/page.html", **player_view(token, *found))


@bp.get("/join/<token>/version")
def version(token: str):
    """The page's poll: 204 while the game is at version ?v=, else the fresh fragment."""
    store = get_store()
    found = store.player_by_token(token)
    if found is None:
        return _gone(token)
    game_id, player_id = found
    store.saw(game_id, player_id)  # the Banker's table shows this phone as following
    if request.args.get("v", type=int) == store.version(game_id):
        return "", 204
    return render_template("player/_view.html", **player_view(token, game_id, player_id))


@bp.post("/join/<token>/claim")
def claim(token: str):
    """The owner claims an open rent claim owed to them: the payer pays (Store.execute)."""
    store = get_store()
    found = store.player_by_token(token)
    if found is None:
        return _gone(token)
    game_id, player_id = found
    claim_id = request.form.get("claim")
    key = request.form.get("key", "")
    command = {"type": "claim_rent"}
    if claim_id is not None:  # else the core says what is missing
        command["claim"] = claim_id

    def authorize(state: dict) -> None:
        # Checked under the game's lock: a link replaced meanwhile claims nothing.
        if store.player_by_token(token) != (game_id, player_id):
            raise Refused(403, REPLACED)
        refusal = claim_refusal(state, player_id, claim_id)
        if refusal:
            raise Refused(403, refusal)

    error = None
    try:
        store.execute(
            game_id,
            command,
            # Scoped to this player's page: a double tap repeats the first answer.
            idempotency_key=f"join:{player_id}:{key}" if 8 <= len(key) <= MAX_KEY else None,
            authorize=authorize,
        )
    except (Refused, DomainError, StoreError) as e:
        error = e
    if request.headers.get("HX-Request"):
        view = player_view(token, game_id, player_id, error=error and error.message)
        return render_template("player/_view.html", **view)
    if error is not None:
        view = player_view(token, game_id, player_id, error=error.message)
        return render_template("player/page.html", **view), error.status
    return redirect(url_for("player.join", token=token), code=303)


def claim_refusal(state: dict, player_id: str, claim_id: str | None) -> str | None:
    """Why this player may not claim this claim, or None.

    The API's rule: a player may claim only rent owed to them. A claim no longer open is left
    to the core, whose sentence (paid, or lapsed at the next roll) tells the owner what happened.
    """
    for c in state["pending"]["rent_claims"]:
        if c["id"] == claim_id and c["owner"] != player_id:
            return "That rent is owed to another player: only they may ask for it."
    return None


# -- what a player's page shows ------------------------------------------------------------------


def _money(n: int) -> str:
    return f"{n:,}"


def _where(p: dict) -> str:
    if p["in_jail"]:
        return "In Jail"
    return space_name(p["position"])


def _deed_line(state: dict, prop: str) -> dict:
    st, deed = state["properties"][prop], DEEDS[prop]
    if st["mortgaged"]:
        rent_text = "mortgaged: no rent"
    elif deed.kind == "utility":
        rent_text = f"rent {utility_multiplier(state, prop)} × the dice"
    else:
        rent_text = f"rent {_money(rent(state, prop))}"
    if st["hotel"]:
        buildings = "hotel"
    elif st["houses"]:
        buildings = f"{st['houses']} house" + ("s" if st["houses"] > 1 else "")
    else:
        buildings = ""
    return {
        "id": prop,
        "name": deed.name,
        "buildings": buildings,
        "mortgaged": st["mortgaged"],
        "rent": rent_text,
    }


def _deed_groups(state: dict, owner: str) -> list[dict]:
    """The owner's deeds grouped by color (board order), with buildings and current rent."""
    groups = []
    for group, props in GROUPS.items():
        mine = [p for p in props if state["properties"][p]["owner"] == owner]
        if mine:
            groups.append(
                {
                    "group": group,
                    "label": GROUP_NAMES.get(group, group),
                    "color": GROUP_COLORS.get(group, "#888"),
                    "full": len(mine) == len(props),
                    "deeds": [_deed_line(state, p) for p in mine],
                }
            )
    return groups


def _status_line(state: dict, me: dict) -> str:
    """One sentence on where the game stands, as a player at the table would say it."""
    names = {p["id"]: p["name"] for p in state["players"]}
    if state["status"] == "setup":
        return "The game has not started yet: the Banker records who won the opening roll."
    if state["status"] == "finished":
        winners = " and ".join(names[w] for w in state["winners"])
        return f"The game is over: {winners} won." if winners else "The game is over."
    pending = state["pending"]
    debt = pending["debt"]
    if debt:
        creditor = names.get(debt["creditor"], "the Bank")
        if debt["debtor"] == me["id"]:
            return (
                f"You owe {creditor} {_money(debt['amount'])}: raise the cash "
                "(sell buildings, mortgage, trade) with the Banker, or declare bankruptcy."
            )
        return f"{names[debt['debtor']]} owes {creditor} {_money(debt['amount'])}."
    offer = pending["offer"]
    if offer:
        deed, price = DEEDS[offer["property"]].name, _money(offer["price"])
        if offer["player"] == me["id"]:
            return f"You may buy {deed} for {price}: tell the Banker, or it goes to auction."
        return f"{names[offer['player']]} may buy {deed} for {price}."
    auction = pending["auction"]
    if auction:
        item = auction["item"]
        what = DEEDS[item].name if item in DEEDS else f"a {item}"
        if auction["high_bidder"]:
            return (
                f"Auction of {what}: {names[auction['high_bidder']]} bids "
                f"{_money(auction['high_bid'])}."
            )
        return f"Auction of {what}: no bid yet."
    if pending["card"]:
        card = pending["card"]
        return f"{names[card['player']]} draws a {DECK_NAMES[card['deck']]} card."
    if pending["dice"]:
        return f"{names[pending['dice']['player']]} rolls the dice for a utility's rent."
    roller = state["turn"]["roller"] or names.get(state["turn"]["player"], "")
    if state["turn"]["player"] == me["id"]:
        return f"Your turn to roll ({roller})." if len(me["members"]) > 1 else "Your turn to roll."
    return f"{roller} rolls next."


def player_view(token: str, game_id: str, player_id: str, error: str | None = None) -> dict:
    """Everything a player's page shows, computed from the game's current state."""
    store = get_store()
    internal = store.state(game_id)
    state = public_state(internal)
    names = {p["id"]: p["name"] for p in state["players"]}
    me = next(p for p in state["players"] if p["id"] == player_id)
    private_cash = bool(state["options"].get("private_cash"))
    claims = [
        {
            "id": c["id"],
            "payer": names[c["payer"]],
            "amount": _money(c["amount"]),
            "property": DEEDS[c["property"]].name,
        }
        for c in state["pending"]["rent_claims"]
        if c["owner"] == player_id
    ]
    others = [
        {
            "id": p["id"],
            "name": p["name"],
            "where": _where(p),
            "cash": None if private_cash else _money(p["cash"]),
            "eliminated": p["eliminated"],
            "jail_cards": len(p["jail_cards"]),
            "groups": _deed_groups(state, p["id"]),
        }
        for p in state["players"]
        if p["id"] != player_id
    ]
    return {
        "token": token,
        "game_id": game_id,
        "version": state["version"],
        "status": state["status"],
        "poll_every": POLL_EVERY,
        "me": {
            "id": me["id"],
            "name": me["name"],
            "members": me["members"],
            "cash": _money(me["cash"]),
            "where": _where(me),
            "in_jail": me["in_jail"],
            "jail_attempts": me["jail_attempts"],
            "jail_cards": [DECK_NAMES[d] for d in me["jail_cards"]],
            "eliminated": me["eliminated"],
            "net_worth": _money(score(internal, player_id)),
            "groups": _deed_groups(state, player_id),
            "score": state["scores"] and state["scores"].get(player_id),
        },
        "status_line": _status_line(state, me),
        "claims": claims,
        # A fresh key per rendering: a double tap repeats the answer, a later claim (say, the
        # same claim opened again by an undo) is a new command.
        "claim_key": secrets.token_urlsafe(12),
        "others": others,
        "private_cash": private_cash,
        "events": store.recent_events(game_id, LATEST_EVENTS),
        "error": error,
    }
