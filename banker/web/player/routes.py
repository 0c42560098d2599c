"""A player's phone: their own live page (join_url), the remote's forms, and its version poll.

A player's push stream carries each change as the answer of `version` below, rendered once for
this player (banker.web.common.pushed). Where push is blocked the page polls
`GET /join/<token>/version?v=N` about every 700 ms: while nothing has
changed the answer is 204 No Content from two dictionary look-ups in memory (no SQLite, no
template: banker.web.common.fastpoll); after any command it is the fresh live parts
(`_live.html`), which carry the new version for the next poll. The forms a player half-fills (a
typed bid, a trade being composed) are kept out of what the poll replaces, so a live refresh
never wipes them.

The page is a remote for that player (banker.web.player.remote says what it shows): every form
posts to `/join/<token>/act` (or `/claim`), is turned into a command as the Banker's forms are
(banker.web.common.forms), and goes on the one command path (banker.web.common.commands.send,
as the JSON API and the Banker's screens) as this player, with a per-page idempotency key.
(The Join panel of QR codes and new links for lost phones are the Banker's: banker.web.table.)
"""

from __future__ import annotations

import json
from urllib.parse import quote

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from htmx_flask import make_response as htmx_response
from werkzeug.datastructures import MultiDict

from banker.rules import Refusal
from banker.web.common import forms
from banker.web.common.commands import Sender, send
from banker.web.common.errors import link_error_page
from banker.web.common.guards import wants_fragment
from banker.web.common.kept import NOTHING, Kept
from banker.web.common.links import keep_private
from banker.web.common.present import player_names, to_you
from banker.web.common.seats import as_player, link_token, remember_joined, sentence_cookie
from banker.web.common.store import get_store
from banker.web.player.remote import news, player_view

bp = Blueprint("player", __name__)

MAX_KEY = 100
SAID_COOKIE = "said"  # the sentence of a plain POST, carried across its redirect
REPLACED = (
    "This link no longer works: the Banker gave this player a new one. "
    "Ask the Banker to show you your QR code again."
)
UNKNOWN = (
    "This link is not a player's link in any game here. "
    "Check that it was copied whole, or ask the Banker to show you your QR code."
)


# Every answer here names a player or carries a token: no shared cache may keep it.
bp.after_request(keep_private)


@bp.before_request
def _moved_player_link():
    """A player's old link of a game resumed elsewhere leads to their link in the copy."""
    if request.endpoint not in ("player.join", "player.version"):
        return None
    store = get_store()
    found = store.player_by_token(link_token())
    moved_to = store.moved_to(found[0]) if found else None
    if moved_to is None:
        return None
    if request.endpoint == "player.version":  # the old page polling: reload it to say so
        return htmx_response("", 200, refresh=True)
    token = next((p["token"] for p in store.players(moved_to) if p["id"] == found[1]), None)
    url = url_for("player.join", token=token) if token else None
    return make_response(render_template("moved_game.html", moved_to=None, player_url=url), 410)


@bp.after_request
def _remember_joined(response):
    """A player's page opened here is listed on this browser's home page (one tap back in)."""
    if request.endpoint == "player.join" and response.status_code == 200 and link_token():
        return remember_joined(response, link_token())
    return response


def _gone(token: str):
    """The page for a link that does not work: replaced by the Banker (403) or unknown (404)."""
    revoked = get_store().player_token_revoked(token)
    # A page still polling with this token reloads itself and shows this sentence instead.
    return link_error_page(403 if revoked else 404, REPLACED if revoked else UNKNOWN, refresh=True)


def _read_said() -> dict | None:
    """The sentence of this phone's last action, carried across a plain POST's redirect."""
    said = sentence_cookie(SAID_COOKIE)
    return said and {"text": said["text"], "refused": bool(said.get("refused"))}


@bp.get("/join/<token>")
@as_player(_gone)
def join(token: str, game_id: str, player_id: str):
    """A player's own page (join_url): their money, deeds and the table, kept live, and the
    remote's controls for their own offer, bids, jail, deeds, debt, claims and trades."""
    said = _read_said()
    view = player_view(token, game_id, player_id, args=request.args)
    response = make_response(render_template("player/page.html", said=said, **view))
    if said:
        response.delete_cookie(SAID_COOKIE, path=_page_path(token))
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
    """The page's poll: 204 while the game is at version ?v=, else the fresh live parts, and
    at the top what happened to this player's own offers since (the page's `news`)."""
    store = get_store()
    store.saw(game_id, player_id)  # the Banker's table shows this phone as following
    since = request.args.get("v", type=int)
    if since == store.version(game_id):
        return "", 204
    told = news(game_id, player_id, token, since)  # "Bob declined your offer."
    view = player_view(token, game_id, player_id, live=True)
    return render_template("player/_live.html", news=told, **view)


def _page_path(token: str) -> str:
    return url_for("player.join", token=token)


def player_command(form, player_id: str) -> dict:
    """The command a player's form asks for; FormError when it cannot be read.

    The same shapes as the Banker's forms (banker.web.common.forms); a trade offer reads the
    Trade form's fields, from this player unless the form says otherwise (then the
    permission check refuses it).
    """
    if form.get("type") == "propose_trade":
        form = MultiDict(form)
        form.setdefault("from", player_id)
    return forms.command_from(form, forms.TYPES | {"propose_trade"})


def _run(token: str, game_id: str, player_id: str, command: dict, key: str):
    """Send the command as this player: (answer, None) or (None, the refusal as told)."""
    sender = Sender.by_token(game_id, player_id, token, REPLACED)
    try:
        # Scoped to this player's token (as the API's keys): a double tap repeats the first
        # answer. The prefix keeps the page's keys apart from the API's.
        key = f"join:{key}" if 8 <= len(key) <= MAX_KEY else None
        return send(get_store(), sender, command, key=key), None
    except Refusal as e:  # the web's, the core's and the store's
        return None, e


def _answer(token: str, game_id: str, player_id: str, command, answer, error):
    """The page after an action: the live parts and the action's sentence (htmx), a 303 back
    to the page with the sentence in a one-time cookie, or the page with the refusal."""
    is_trade = command is not None and command["type"] == "propose_trade"
    # A refused trade offer goes back to the form as it was; one made empties the form.
    args = request.form if is_trade and error is not None else MultiDict()
    kept = NOTHING
    if answer is not None:
        told = answer.said_to(player_id)  # private_cash: no one else's cash in hand
        said = {"text": " ".join(e["text"] for e in told), "refused": False}
    else:
        name = player_names(get_store().state(game_id))[player_id]
        said = {"text": to_you(error.message, name), "refused": True}  # "You have 40; …"
        kept = Kept.of_form(request.form.get("type", ""), request.form)  # drawn again as sent
    if wants_fragment():
        view = player_view(token, game_id, player_id, args=args, kept=kept)
        told = news(game_id, player_id, token, request.form.get("seen", type=int))
        html = render_template(
            "player/_answer.html", said=said, news=told, with_compose=is_trade, **view
        )
        return make_response(html, 200)
    if error is not None:
        view = player_view(token, game_id, player_id, args=args, kept=kept)
        html = render_template("player/page.html", said=said, **view)
        return make_response(html, getattr(error, "status", 400))
    response = redirect(_page_path(token), code=303)
    response.set_cookie(
        SAID_COOKIE,
        quote(json.dumps(said)),
        path=_page_path(token),
        httponly=True,
        samesite="Strict",
    )
    return response


@bp.post("/join/<token>/act")
@as_player(_gone)
def act(token: str, game_id: str, player_id: str):
    """One of the player's own actions from a form, sent as this player."""
    try:
        command = player_command(request.form, player_id)
    except forms.FormError as e:
        return _answer(token, game_id, player_id, None, None, e)
    answer, error = _run(token, game_id, player_id, command, request.form.get("key", ""))
    return _answer(token, game_id, player_id, command, answer, error)


@bp.post("/join/<token>/claim")
@as_player(_gone)
def claim(token: str, game_id: str, player_id: str):
    """The owner claims an open rent claim owed to them: the payer pays."""
    command = {"type": "claim_rent"}
    if request.form.get("claim") is not None:  # else the core says what is missing
        command["claim"] = request.form["claim"]
    answer, error = _run(token, game_id, player_id, command, request.form.get("key", ""))
    return _answer(token, game_id, player_id, command, answer, error)
