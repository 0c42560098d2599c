"""The players' phones: each player's own live page (join_url), the Join panel of QR codes for
the Banker's table screen, new links for lost phones, and cheap version polls.

A player's page polls `GET /join/<token>/version?v=N` about every 700 ms: while nothing has
changed the answer is 204 No Content from two dictionary look-ups in memory (no SQLite, no
template); after any command it is the fresh live parts (`_live.html`), which carry the new
version for the next poll. The forms a player half-fills (a typed bid, a trade being composed)
are kept out of what the poll replaces, so a live refresh never wipes them.

The page is a remote for that player (banker.web.remote says what it shows): every form posts to
`/join/<token>/act` (or `/claim`), is turned into a command as the Banker's forms are, and goes
through the same Store.execute as the JSON API with the player's own authorization
(`permissions.player_refusal`) and a per-page idempotency key.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
from urllib.parse import quote, urlsplit

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
from htmx_flask import make_response as htmx_response
from werkzeug.datastructures import MultiDict

from banker.rules import Refusal, refusal_for, seat_refusal
from banker.store import GameNotFound, StoreError, key_scope
from banker.web import error_response, get_store
from banker.web.guards import error_page, wants_fragment
from banker.web.pages import forms
from banker.web.qr import qr_svg
from banker.web.remote import player_view
from banker.web.seats import as_player, banker_token_given, sentence_cookie

bp = Blueprint("player", __name__)

MAX_KEY = 100
REPLACED = (
    "This link no longer works: the Banker gave this player a new one. "
    "Ask the Banker to show you your QR code again."
)
UNKNOWN = (
    "This link is not a player's link in any game here. "
    "Check that it was copied whole, or ask the Banker to show you your QR code."
)


class Refused(Refusal):
    """A refusal decided here (not the core's): a status and a sentence for the person.

    `replayable`: a command no longer this player's to send (a Buy since bought) that this page
    sent with this key before: Store.execute answers its replay (a double tap applies once).
    """

    code = "banker_only"

    def __init__(self, status: int, message: str, replayable: bool = False):
        super().__init__(message, status=status)
        self.replayable = replayable


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


@bp.app_template_global()
def join_panel(game_id: str | None) -> dict | None:
    """What the Join panel shows, or None unless this request is the game's Banker's.

    {"game_id", "token" (for the forms, None with the cookie), "players": [{"id", "name",
    "join_url", "qr_url" (its code: link_code), "eliminated"}]}:
    the panel shows the links only on a page whose request carries the banker token, so that
    including it anywhere else leaks nothing.
    """
    if not game_id:
        return None
    given = banker_token_given(game_id)
    if given is None:
        return None
    token, by_cookie = given
    store = get_store()
    state = store.state(game_id)
    eliminated = {p["id"]: p["eliminated"] for p in state["players"]}
    players = [
        {
            "id": p["id"],
            "name": p["name"],
            "join_url": public_url_for("player.join", token=p["token"]),
            "qr_url": link_code_url(game_id, p["id"], p["token"]),
            "eliminated": eliminated[p["id"]],
        }
        for p in store.players(game_id)
    ]
    # The forms need the token only when the page has no cookie to send (kept out of the HTML
    # otherwise, as the Banker's pages keep it out of their URLs).
    return {"game_id": game_id, "token": None if by_cookie else token, "players": players}


@bp.app_template_global()
def link_code_url(game_id: str, who: str, link_token: str = "") -> str | None:
    """Where the Banker's page finds the QR code of a link (link_code), None for anyone but the
    game's Banker. The banker token rides along only when the request came without the pages'
    cookie; `v` changes with the link's token, so that a new link is a new image (a browser
    shows an image it has already fetched for the same address again, whatever its headers)."""
    given = banker_token_given(game_id)
    if given is None:
        return None
    token, by_cookie = given
    extra = {} if by_cookie else {"token": token}
    if link_token:
        extra["v"] = hashlib.sha256(link_token.encode()).hexdigest()[:10]
    return url_for("player.link_code", game_id=game_id, who=who, **extra)


@bp.get("/games/<game_id>/codes/<who>.svg")
def link_code(game_id: str, who: str):
    """The QR code of a link the Banker's table shows, as an SVG image: `who` is a player's id
    (their page) or "display" (the big screen). An image rather than inline markup, so that the
    table's first load does not carry codes that sit in closed panels (issue 17): the browser
    fetches one when its panel opens. The game's Banker only; never cached (a new link changes
    it)."""
    if banker_token_given(game_id) is None:
        return _message_page(403, "Only the Banker of this game may show its links.")
    store = get_store()
    if who == "display":
        token, label = store.display_token(game_id), "The big screen's link"
        url = public_url_for("display.show", token=token)
    else:
        player = next((p for p in store.players(game_id) if p["id"] == who), None)
        if player is None:
            return _message_page(404, "There is no such player in this game.")
        url = public_url_for("player.join", token=player["token"])
        label = f"{player['name']}'s link"
    return current_app.response_class(qr_svg(url, label), mimetype="image/svg+xml")


def _new_link_banker(game_id: str):
    """(the banker token given, None) for a new link of this game, else (None, the page that
    says why not: no such game, or not its Banker)."""
    try:
        get_store().state(game_id)
    except GameNotFound:
        return None, error_page(404, "There is no such game on this Banker.")
    given = banker_token_given(game_id)
    if given is None:
        sentence = "Only the Banker of this game may give a player a new link."
        return None, error_page(403, sentence)
    return given, None


@bp.get("/games/<game_id>/players/<player_id>/new-link")
def new_link_confirm(game_id: str, player_id: str):
    """The step before a new link (works without JS): it names the player and says the old link
    stops working at once; only its "Yes" button posts to new_link. Nothing changes here."""
    store = get_store()
    given, refused = _new_link_banker(game_id)
    if refused is not None:
        return refused
    who = next((p for p in store.players(game_id) if p["id"] == player_id), None)
    if who is None:
        return error_page(404, "There is no such player in this game.")
    token, by_cookie = given
    view = {
        "game_id": game_id,
        "who": who,
        "token": None if by_cookie else token,
        "back": url_for("pages.game", game_id=game_id, **({} if by_cookie else {"token": token})),
    }
    if wants_fragment():
        return render_template("player/_new_link_confirm.html", **view)
    return render_template("player/new_link.html", **view)


@bp.post("/games/<game_id>/players/<player_id>/new-link")
def new_link(game_id: str, player_id: str):
    """The Banker gives a player a new link; the old one stops working at once."""
    store = get_store()
    given, refused = _new_link_banker(game_id)
    if refused is not None:
        return refused
    try:
        store.rotate_player_token(game_id, player_id)
    except StoreError as e:
        return _message_page(e.status, e.message)
    if wants_fragment():
        return render_template("player/_join_panel.html", game_id=game_id)
    # Without JS: back to the page the form was on (the Banker's table), else the game's page.
    back = request.referrer
    if not back or urlsplit(back).netloc != request.host or urlsplit(back).path == request.path:
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
    if banker_token_given(game_id) is None:
        return error_response(
            403, "banker_only", "This needs the banker token of this game (?token= or Bearer)."
        )
    if request.args.get("v", type=int) == version:
        return "", 204
    return jsonify({"version": version})


# -- the player's side -------------------------------------------------------------------------


def _gone(token: str):
    """The page for a link that does not work: replaced by the Banker (403) or unknown (404)."""
    revoked = get_store().player_token_revoked(token)
    # A page still polling with this token reloads itself and shows this sentence instead.
    return _message_page(403 if revoked else 404, REPLACED if revoked else UNKNOWN, refresh=True)


def _message_page(status: int, sentence: str, refresh: bool = False):
    html, status = error_page(
        status, sentence, heading="Banker", title="Banker: this link does not work", home=False
    )
    return htmx_response(html, status, refresh=refresh)


def _said_cookie() -> str:
    return "said"


def _read_said(token: str) -> dict | None:
    """The sentence of this phone's last action, carried across a plain POST's redirect."""
    said = sentence_cookie(_said_cookie())
    return said and {"text": said["text"], "refused": bool(said.get("refused"))}


@bp.get("/join/<token>")
@as_player(_gone)
def join(token: str, game_id: str, player_id: str):
    """A player's own page (join_url): their money, deeds and the table, kept live, and the
    remote's controls for their own offer, bids, jail, deeds, debt, claims and trades."""
    said = _read_said(token)
    view = player_view(token, game_id, player_id, args=request.args)
    response = make_response(render_template("player/page.html", said=said, **view))
    if said:
        response.delete_cookie(_said_cookie(), path=_page_path(token))
    return response


@bp.get("/join/<token>/trade")
@as_player(_gone)
def compose(token: str, game_id: str, player_id: str):
    """The trade being put together, redrawn as its fields change (htmx), or the whole page
    with the deal in its query string (the Review button without JS)."""
    view = player_view(token, game_id, player_id, args=request.args)
    if wants_fragment():
        return render_template("player/_compose.html", **view)
    return render_template("player/page.html", said=None, **view)


@bp.get("/join/<token>/version")
@as_player(_gone)
def version(token: str, game_id: str, player_id: str):
    """The page's poll: 204 while the game is at version ?v=, else the fresh live parts."""
    store = get_store()
    store.saw(game_id, player_id)  # the Banker's table shows this phone as following
    if request.args.get("v", type=int) == store.version(game_id):
        return "", 204
    return render_template("player/_live.html", **player_view(token, game_id, player_id))


def _page_path(token: str) -> str:
    return url_for("player.join", token=token)


def player_command(form, player_id: str) -> dict:
    """The command a player's form asks for; FormError when it cannot be read.

    The same shapes as the Banker's forms (banker.web.pages.forms); a trade offer reads the
    Trade form's fields, from this player unless the form says otherwise (then the
    permission check refuses it).
    """
    if form.get("type") == "propose_trade":
        form = MultiDict(form)
        form.setdefault("from", player_id)
    return forms.command_from(form, forms.TYPES | {"propose_trade"})


def _run(token: str, game_id: str, player_id: str, command: dict, key: str):
    """Execute the command as this player: (answer, None) or (None, the refusal)."""
    store = get_store()

    def authorize(state: dict) -> None:
        # Checked under the game's lock: a link replaced meanwhile does nothing.
        if store.player_by_token(token) != (game_id, player_id):
            raise Refused(403, REPLACED)
        refusal = seat_refusal(state, player_id, command)
        if refusal:
            raise Refused(403, refusal, replayable=True)

    try:
        answer = store.execute(
            game_id,
            command,
            # Scoped to this player's token (as the API's keys): a double tap repeats the
            # first answer. The prefix keeps the page's keys apart from the API's.
            idempotency_key=f"join:{key}" if 8 <= len(key) <= MAX_KEY else None,
            authorize=authorize,
            key_scope=key_scope(token),
        )
    except Refusal as e:  # Refused, the core's and the store's (as this player is told it)
        return None, refusal_for(store.state(game_id), player_id, e)
    return answer, None


def _answer(token: str, game_id: str, player_id: str, command, answer, error):
    """The page after an action: the live parts and the action's sentence (htmx), a 303 back
    to the page with the sentence in a one-time cookie, or the page with the refusal."""
    is_trade = command is not None and command["type"] == "propose_trade"
    # A refused trade offer goes back to the form as it was; one made empties the form.
    args = request.form if is_trade and error is not None else MultiDict()
    if answer is not None:
        told = answer.said_to(player_id)  # private_cash: no one else's cash in hand
        said = {"text": " ".join(e["text"] for e in told), "refused": False}
    else:
        said = {"text": error.message, "refused": True}
    if wants_fragment():
        view = player_view(token, game_id, player_id, args=args)
        html = render_template("player/_answer.html", said=said, with_compose=is_trade, **view)
        return make_response(html, 200)
    if error is not None:
        view = player_view(token, game_id, player_id, args=args)
        html = render_template("player/page.html", said=said, **view)
        return make_response(html, getattr(error, "status", 400))
    response = redirect(_page_path(token), code=303)
    response.set_cookie(
        _said_cookie(),
        quote(json.dumps(said)),
        path=_page_path(token),
        httponly=True,
        samesite="Strict",
    )
    return response


@bp.post("/join/<token>/act")
@as_player(_gone)
def act(token: str, game_id: str, player_id: str):
    """One of the player's own actions from a form, through Store.execute as this player."""
    try:
        command = player_command(request.form, player_id)
    except forms.FormError as e:
        return _answer(token, game_id, player_id, None, None, Refused(400, e.message))
    answer, error = _run(token, game_id, player_id, command, request.form.get("key", ""))
    return _answer(token, game_id, player_id, command, answer, error)


@bp.post("/join/<token>/claim")
@as_player(_gone)
def claim(token: str, game_id: str, player_id: str):
    """The owner claims an open rent claim owed to them: the payer pays (Store.execute)."""
    command = {"type": "claim_rent"}
    if request.form.get("claim") is not None:  # else the core says what is missing
        command["claim"] = request.form["claim"]
    answer, error = _run(token, game_id, player_id, command, request.form.get("key", ""))
    return _answer(token, game_id, player_id, command, answer, error)


def claim_refusal(state: dict, player_id: str, claim_id: str | None) -> str | None:
    """Why this player may not claim this claim, or None.

    The API's rule: a player may claim only rent owed to them. A claim no longer open is left
    to the core, whose sentence (paid, or lapsed at the next roll) tells the owner what happened.
    """
    for c in state["pending"]["rent_claims"]:
        if c["id"] == claim_id and c["owner"] != player_id:
            return "That rent is owed to another player: only they may ask for it."
    return None
