"""The Banker's pages: server-rendered screens whose fragments htmx swaps in place.

Every change goes on the one command path (banker.web.common.commands.send), as the JSON
API's and a player's page's: the Banker's seat, authorized by the same check. A screen is
one fragment (`#screen`) that a full page includes and that an htmx request gets alone; every
form also works as a plain POST answered by a 303 redirect back to its screen.

Authentication: banker_url (/games/<id>?token=…) sets an HttpOnly, SameSite=Strict cookie for
that game's path and redirects to the clean URL. Cross-site posts are refused by the app's
cross-site check (banker.web.common.guards).
"""

from __future__ import annotations

import json
from urllib.parse import quote, urlencode

from flask import abort, jsonify, make_response, redirect, render_template, request, url_for
from htmx_flask import make_response as htmx_response
from werkzeug.datastructures import MultiDict

from banker.rules import DomainError, card_holder, public_state
from banker.rules.board import DECK_NAMES, DEEDS
from banker.store import DiskFull, GameNotFound, KeyReused, VersionConflict
from banker.web.common import board_picture, choices, forms, per_version
from banker.web.common.commands import Sender, send
from banker.web.common.errors import ApiError, error_response
from banker.web.common.guards import wants_fragment
from banker.web.common.kept import NOTHING, Kept
from banker.web.common.may import May
from banker.web.common.present import final_round_said, money, player_names, players
from banker.web.common.seats import (
    COOKIE,
    MOVED,
    banker_state,
    banker_token_given,
    sentence_cookie,
    url_token,
)
from banker.web.common.store import get_store
from banker.web.common.template_globals import phones_following
from banker.web.common.trade import deal_refusal, offer_sentence, trade_view
from banker.web.table import presenters, seating
from banker.web.table.blueprint import banker_page, bp, game_path, remember

CONFLICT = "Not recorded: the table changed since this screen was drawn"
CONFIRMS = ("bankrupt", "stop", "move")  # the steps that ask "are you sure?" first


# -- flash: a refusal carried across a plain POST's redirect -------------------------------


def _flash_cookie(game_id: str) -> str:
    return f"flash_{game_id}"


def _read_flash(game_id: str) -> dict | None:
    flash = sentence_cookie(_flash_cookie(game_id))
    return flash and {
        "text": flash["text"],
        "at": str(flash.get("at", "")),
        "kind": flash.get("kind"),
        "kept": flash.get("kept"),
    }


def _flash_value(flash: dict) -> str:
    """The refusal's cookie (at most 3000 bytes): its sentence, and the form's fields while
    they fit."""
    text = quote(json.dumps(flash))
    if len(text) > 3000:
        text = quote(json.dumps({**flash, "kept": None, "text": flash["text"][:300]}))
    return text


def _latest_said(game_id: str) -> str:
    """The sentences of the game's latest accepted command (not undone since)."""
    return " ".join(e["text"] for e in get_store().latest_events(game_id) if not e["undone"])


# -- the screens ---------------------------------------------------------------------------


def _screen_url(game_id: str, screen: str, args: dict | None = None) -> str:
    name, _, pid = screen.partition(":")
    url = url_for(SCREENS[name][0], game_id=game_id, **({"player_id": pid} if pid else {}))
    if args:
        url += "?" + urlencode(args, doseq=True)
    return url


def _screen(asked: str | None, state: dict) -> str:
    """The screen a request names ("table", "board", "history", "trade", or "player:<id>" of a
    player of the game); else the table."""
    name, _, pid = (asked or "").partition(":")
    if name not in SCREENS or (name == "player") != bool(pid):
        return "table"
    if name == "player" and pid not in player_names(state):
        return "table"
    return asked


def _context(game_id: str, screen: str, args, flash: dict | None = None, said: str = "") -> dict:
    """Everything a screen's templates read. `said` is the sentence of an action made on this
    screen (or, on a live refresh, on another phone): shown once, where it happened."""
    store = get_store()
    internal = store.state(game_id)
    state = public_state(internal)
    name, _, pid = screen.partition(":")
    now = presenters.acting(internal)
    may = May(internal, "banker")  # every button: the core's answer for the Banker
    context = {
        "game_id": game_id,
        "state": state,
        "screen": screen,
        "screen_name": name,
        "flash": flash,
        "said": said,
        "now": now,
        "players": [
            {**p, "acting": p["id"] in now["who"], "is_turn": p["id"] in now["rolls_next"]}
            for p in players(state)
        ],
        "may": may,
        "names": player_names(state),
        "money": money,
        "can_undo": may.allowed("undo"),
        "undo_text": internal["_undo"][-1]["text"] if internal["_undo"] else None,
        "fragment": f"table/_{name}.html",
        "winner_names": [player_names(state)[w] for w in state["winners"]],
        "confirm": _confirm(args.get("confirm")),
        # A refused form is drawn again as it was sent (banker.web.common.kept).
        "kept": Kept.of_json(flash.get("kept")) if flash else NOTHING,
        "phase_said": final_round_said(internal),
    }
    SCREENS[name][1](context, store, internal, args, pid)
    return context


def _sheet_context(context: dict, store, internal: dict, args, pid: str) -> None:
    if pid not in context["names"]:
        abort(404)
    context["sheet"] = presenters.sheet(internal, pid, context["may"])


def _trade_context(context: dict, store, internal: dict, args, pid: str) -> None:
    trade = context["trade"] = trade_view(internal, args)
    chosen = MultiDict(args)
    chosen.update({"from": trade["from"], "to": trade["to"]})
    trade["why"] = deal_refusal(internal, chosen) if trade["to"] else None


def _board_context(context: dict, store, internal: dict, args, pid: str) -> None:
    context["board"] = board_picture.phone(context["state"])


def _history_context(context: dict, store, internal: dict, args, pid: str) -> None:
    game_id, names = context["game_id"], context["names"]
    context["turns"] = per_version.kept(  # a long game's: made once per version
        "history", game_id, internal["version"],
        lambda: presenters.history_groups(store.events(game_id), names),
    )  # fmt: skip
    context["spaces"] = presenters.space_names()


def _confirm(step: str | None) -> str | None:
    """The step asking "are you sure?" open on the screen: one of CONFIRMS, or a player's
    leave ("leave-p3", banker.web.table.seating)."""
    return step if step in CONFIRMS or seating.leaving(step) else None


def pad_key(state: dict) -> str:
    """Which roll the dice pad is entering: a first die is kept only for the same roll."""
    dice = state["pending"]["dice"]
    if dice:
        return f"rent:{dice['player']}"
    return f"roll:{state['turn']['player']}"


def _table_context(context: dict, store, internal: dict, args, pid: str) -> None:
    state = context["state"]
    d1 = args.get("d1") if args.get("d1") in {"1", "2", "3", "4", "5", "6"} else None
    if d1 and args.get("pad", pad_key(state)) != pad_key(state):
        d1 = None  # the roll it belonged to is over
    may = context["may"]
    context.update(
        blocking=presenters.blocking(state),
        claims=presenters.claims(state, may),
        debt=choices.debt(internal, may),
        jail=choices.jail_choices(internal, may),
        d1=d1,
        pad=pad_key(state),
        join_players=store.players(context["game_id"]),
        final_claims=presenters.final_claims_wait(state),
        shortage=presenters.building_shortage(internal) if state["status"] == "playing" else [],
        stood=presenters.standings(state) if state["status"] == "unfinished" else [],
    )
    latest = store.latest_events(context["game_id"])
    context["seating"] = seating.section(internal, latest, context["confirm"])
    pending = state["pending"]
    if pending["offer"]:
        context["offer_name"] = DEEDS[pending["offer"]["property"]].name
    if pending["auction"]:
        item = pending["auction"]["item"]
        context["auction_name"] = DEEDS[item].name if item in DEEDS else f"one {item}"
        context["auction_price"] = DEEDS[item].price if item in DEEDS else None
        context["bidders"] = choices.bidders(internal, may)
        context["placements"] = presenters.placements(internal, may)
        context["queue_text"] = presenters.auction_queue_text(state)
    if pending["card"]:
        deck = pending["card"]["deck"]
        held = card_holder(internal, deck) is not None
        context["card_groups"] = presenters.card_groups(internal, deck, held, may)
        context["deck_name"] = DECK_NAMES[deck]
    if pending["dice"]:
        context["utility_name"] = DEEDS[pending["dice"]["property"]].name
    if pending["debt"]:
        context["bankruptcy"] = presenters.bankruptcy_preview(internal)
    context["offer_texts"] = {
        o["id"]: offer_sentence(internal, o) for o in pending.get("trade_offers") or []
    }


# Each screen of a game's Banker pages, in one place: its route, and what its template reads
# besides what every screen reads (_context). A request names one as "table", "board", …, or
# "player:<id>" (_screen).
SCREENS = {
    "table": ("table.game", _table_context),
    "player": ("table.sheet", _sheet_context),
    "trade": ("table.trade", _trade_context),
    "board": ("table.board", _board_context),
    "history": ("table.history", _history_context),
}


def _show(game_id: str, screen: str):
    """GET a screen (for the Banker only): the full page, or only its fragment for htmx."""
    banker_state(game_id, pages=True)
    flash = carried = _read_flash(game_id)
    said = ""
    if flash and flash.get("kind") == "said":
        said, flash = flash["text"], None
    context = _context(game_id, screen, request.args, flash, said)
    if wants_fragment():
        html = render_template(context["fragment"], oob=True, **context)
    else:
        html = render_template("table/game.html", **context)
    response = make_response(html)
    response.headers["Cache-Control"] = "no-store"
    if carried:  # shown once
        response.delete_cookie(_flash_cookie(game_id), path=game_path(game_id))
    return response


@bp.get("/games/<game_id>")
def game(game_id: str):
    """The table screen (banker_url). ?token= is traded for a cookie and a clean URL."""
    if url_token() is not None:
        banker_state(game_id, places=("query",))  # 404, or 403 unless it is the game's
        return remember(redirect(game_path(game_id), 303), game_id, url_token())
    return _show(game_id, "table")


@bp.get("/games/<game_id>/players/<player_id>")
def sheet(game_id: str, player_id: str):
    """A player's sheet: deeds by color, buildings, mortgages, jail cards, net worth."""
    return _show(game_id, f"player:{player_id}")


@bp.get("/games/<game_id>/trade")
def trade(game_id: str):
    """The trade form; its query string holds the deal being put together."""
    return _show(game_id, "trade")


@bp.get("/games/<game_id>/board")
def board(game_id: str):
    """A picture of the board: owners, buildings, mortgages and tokens."""
    return _show(game_id, "board")


@bp.get("/games/<game_id>/history")
def history(game_id: str):
    """Every event, newest first; undo; corrections."""
    return _show(game_id, "history")


@bp.get("/games/<game_id>/pad")
@banker_page
def pad(game_id: str, state: dict):
    """The dice pad with the first die chosen (or not): the first of a roll's two taps."""
    context = _context(game_id, "table", request.args)
    return render_template("table/_pad.html", **context)


@bp.get("/games/<game_id>/poll")
@banker_page
def poll(game_id: str, state: dict):
    """204 while the game is at version ?v=, else the fresh screen (another phone acted).

    The refresh keeps what this phone is in the middle of: a first die tapped on the pad
    (?d1=&pad=, sent by the pad) and an open confirmation (?confirm=).
    """
    screen = _screen(request.args.get("screen"), state)
    # The table also follows which phones follow the game (players: phones_following).
    following = ".".join(sorted(phones_following(game_id)))
    if request.args.get("v") == str(state["version"]) and (
        screen != "table" or request.args.get("f", "") == following
    ):
        return "", 204
    args = MultiDict({k: request.args[k] for k in ("d1", "pad", "confirm") if k in request.args})
    moved_on = request.args.get("v") != str(state["version"])  # not only a phone following
    context = _context(game_id, screen, args, said=_latest_said(game_id) if moved_on else "")
    # `live`: the page shows this very screen, its join codes kept (hx-preserve): not drawn.
    return render_template(context["fragment"], oob=True, live=True, **context)


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


def _conflict_text(game_id: str) -> str:
    said = _latest_said(game_id)
    since = f": {said}" if said else ""
    return f"{CONFLICT}{since} Here it is now; tap again if it is still wanted."


@bp.post("/games/<game_id>/act")
@banker_page
def act(game_id: str, state: dict):
    """Record one command from a form; answer the screen (htmx) or a 303 back to it."""
    form = request.form
    screen = _screen(form.get("back"), state)
    at = form.get("at", "")
    flash, status, said = None, 200, ""
    try:
        command = forms.command_from(form)
        answer = send(
            get_store(),
            _banker(game_id),
            command,
            key=forms.idempotency_key(form),
            expected_version=forms.expected_version(form),
        )
        said = " ".join(e["text"] for e in answer.body["events"])
    except VersionConflict:
        flash, status = {"text": _conflict_text(game_id), "at": "", "kind": "conflict"}, 409
    except (DomainError, forms.FormError, DiskFull, KeyReused, ApiError) as e:
        # The core's sentence (BadCommand too), a form not read, a full disk (nothing
        # recorded, the game goes on), the seat moved meanwhile: each a Refusal with its
        # status.
        kept = Kept.of_form(at, form).as_json()
        flash, status = {"text": e.message, "at": at, "kind": "refused", "kept": kept}, e.status
    args = _args_after(form, screen, flash)
    if screen == "trade" and not (flash and flash["kind"] == "refused"):
        screen = "table"  # a refused trade goes back to the form as it was; an agreed one on
    if wants_fragment():
        context = _context(game_id, screen, args, flash, said)
        html = render_template(context["fragment"], oob=True, **context)
        moved = screen != form.get("back")
        return htmx_response(html, status, push_url=moved and _screen_url(game_id, screen))
    response = redirect(_screen_url(game_id, screen, args), 303)
    if said and not flash:
        flash = {"text": said, "at": "", "kind": "said"}
    if flash:
        response.set_cookie(
            _flash_cookie(game_id),
            _flash_value(flash),
            path=game_path(game_id),
            httponly=True,
            samesite="Strict",
        )
    return response


def _banker(game_id: str) -> Sender:
    """The Banker, by the token of the pages' cookie (banker_page found it). The pages' keys
    are the Banker's seat's (scope ""), as they were stored before keys had scopes."""
    token, _ = banker_token_given(game_id, COOKIE)
    return Sender(game_id, "banker", token, scope="", replaced=MOVED)


def _args_after(form, screen: str, flash: dict | None) -> MultiDict:
    """What the screen keeps after an action: a refused trade its choices, a refused step its
    confirmation, and the pad a first die tapped before another action (not after a roll)."""
    if screen == "trade":
        if flash and flash["kind"] == "refused":
            return MultiDict([(k, v) for k, v in form.items(multi=True) if k not in _HIDDEN])
        return MultiDict()
    args = MultiDict()
    if form.get("type") not in ("roll", "rent_roll") and form.get("d1"):
        args.update({"d1": form["d1"], "pad": form.get("pad", "")})
    if flash and flash["kind"] == "refused" and _confirm(form.get("confirm")):
        args["confirm"] = form["confirm"]
    return args


_HIDDEN = {"type", "key", "expected_version", "back", "at"}
