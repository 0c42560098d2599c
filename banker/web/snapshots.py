"""Pause and resume in the browser: the pause page with the paper record, the snapshot file
to download, and Resume from file on the home page.

The JSON side of the same thing is GET /api/v1/games/<id>/snapshot and POST
/api/v1/games/import (api.py); both end in Store.snapshot and Store.import_snapshot.

Pages of a game need its banker token (banker.web.seats: the cookie the table screen set for
the game's path, `?token=`, a form field or Bearer). Posts from another site are refused by the
app's cross-site check (banker.web.guards).
"""

from __future__ import annotations

import io
import re
import unicodedata
from datetime import date

from flask import Blueprint, redirect, render_template, request, send_file, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from banker import snapshot
from banker.rules import pending_in_words, public_state
from banker.rules.board import DECK_NAMES, DEED_IDS, DEEDS
from banker.store import GameNotFound, StoreError
from banker.web import get_store
from banker.web.guards import error_page
from banker.web.present import buildings_text
from banker.web.present import where as present_where
from banker.web.seats import as_banker

bp = Blueprint("snapshots", __name__)

# Room for the multipart wrapping around a file of at most snapshot.MAX_BYTES.
_FORM_OVERHEAD = 64 * 1024
TOO_LARGE = "A snapshot file may be at most 5 MB; this one is larger, so nothing was resumed."


# -- guards ----------------------------------------------------------------------------------


def _problem(status: int, message: str):
    return error_page(status, message)


@bp.errorhandler(403)
def _forbidden(e):
    return _problem(403, "Open this game from its Banker link (the one with ?token=) first.")


@bp.errorhandler(404)
def _not_found(e):
    return _problem(404, "There is no such game here.")


# -- pause -----------------------------------------------------------------------------------


def file_name(names: list[str], day: date) -> str:
    """The snapshot's file name: banker-<date>-<players>.json, in plain letters and digits."""
    parts = []
    for i, name in enumerate(names, 1):
        ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        parts.append(re.sub(r"[^A-Za-z0-9]+", "", ascii_name)[:20] or f"p{i}")
    return f"banker-{day.isoformat()}-{'-'.join(parts)}.json"


def paper_record(state: dict) -> dict:
    """What a paused table notes on paper, read from a game's state (see the rule text)."""
    public = public_state(state)
    turn = public["turn"]
    names = {p["id"]: p["name"] for p in public["players"]}
    props = public["properties"]
    players = []
    for seat, p in enumerate(public["players"], 1):
        where = present_where(p)
        if p["in_jail"]:
            where += f", {p['jail_attempts']} of 3 attempts at doubles made"
        else:
            where += f" (space {p['position']})"
        players.append(
            {
                **p,
                "seat": seat,
                "where": where,
                "starts": p["id"] == turn["first"],
                "next": p["id"] == turn["player"],
                "jail_card_names": [
                    f"{DECK_NAMES[d]} Get Out of Jail Free" for d in p["jail_cards"]
                ],
                "deeds": [_deed(d, props[d]) for d in DEED_IDS if props[d]["owner"] == p["id"]],
            }
        )
    return {
        "game_id": public["game_id"],
        "version": public["version"],
        "edition": "G0009 (current guide)" if public["edition"] == "g0009" else "Classic rules",
        "variations": _variations(public["options"]),
        "status": public["status"],
        "players": players,
        "next": _next_roller(public, names),
        "bank": public["bank"],
        "bank_deeds": [DEEDS[d].name for d in DEED_IDS if props[d]["owner"] is None],
        "unsettled": pending_in_words(state),
        "winners": [names[w] for w in public["winners"]],
    }


def _deed(deed_id: str, held: dict) -> dict:
    deed = DEEDS[deed_id]
    return {
        "id": deed_id,
        "name": deed.name,
        "mortgaged": held["mortgaged"],
        "buildings": buildings_text(held),
    }


def _variations(options: dict) -> list[str]:
    shown = {
        "auction_all": "auction every purchase",
        "deadline": "agreed deadline",
        "teams": "two partnerships",
        "hotel_shortage_ruling": "hotel-shortage ruling",
    }
    return [text for key, text in shown.items() if options.get(key)]


def _next_roller(public: dict, names: dict) -> str:
    turn = public["turn"]
    if public["status"] == "setup":
        return "Nobody yet: the opening rolls decide who starts."
    if public["status"] == "finished" or turn["player"] is None:
        return "Nobody: the game is over."
    who = names[turn["player"]]
    if turn["roller"] and turn["roller"] != who:
        who = f"{turn['roller']} (for {who})"
    if turn["doubles"]:
        n = turn["doubles"]
        return f"{who}, who has rolled {n} double{'s' if n > 1 else ''} in a row this turn."
    return who


@bp.get("/games/<game_id>/pause")
@as_banker
def pause(game_id: str, state: dict):
    """The pause page: the snapshot to download and the paper record to copy or print."""
    names = [p["name"] for p in public_state(state)["players"]]
    today = date.today()
    args = {"token": request.args["token"]} if "token" in request.args else {}
    response = render_template(
        "snapshots/pause.html",
        game_id=game_id,
        record=paper_record(state),
        filename=file_name(names, today),
        paused_on=f"{today:%A} {today.day} {today:%B %Y}",
        download_url=url_for("snapshots.download", game_id=game_id, **args),
        table_url=url_for("pages.game", game_id=game_id, **args),
    )
    return response, 200, {"Cache-Control": "no-store"}


@bp.get("/games/<game_id>/snapshot.json")
@as_banker
def download(game_id: str, state: dict):
    """The game's snapshot as a file to keep (an attachment named with the date and players)."""
    doc = get_store().snapshot(game_id)
    names = [p["name"] for p in public_state(state)["players"]]
    body = snapshot.dumps(doc)
    response = send_file(
        io.BytesIO(body),
        mimetype="application/json",
        as_attachment=True,
        download_name=file_name(names, date.today()),
        max_age=0,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


# -- resume ----------------------------------------------------------------------------------


def _resume_page(status: int = 200, error: str | None = None):
    return render_template("snapshots/resume.html", resume_error=error), status


def _mark_source_moved(doc: dict, new_id: str) -> None:
    """A game resumed here from its snapshot while the paused game is still on this server,
    unchanged since the pause: the old one is marked moved, so its links lead to the copy."""
    store = get_store()
    recorded = doc.get("state") if isinstance(doc.get("state"), dict) else {}
    source = recorded.get("game_id")
    if not isinstance(source, str) or source == new_id:
        return
    try:
        state = store.state(source)
    except GameNotFound:
        return
    if state["version"] == recorded.get("version") and store.moved_to(source) is None:
        store.mark_moved(source, new_id)


@bp.get("/resume")
def resume_form():
    """The Resume from file form on a page of its own (the home page includes it too)."""
    return _resume_page()


@bp.post("/resume")
def resume():
    """Upload a snapshot file: a new game in that state, then on to its table (303)."""
    request.max_content_length = snapshot.MAX_BYTES + _FORM_OVERHEAD
    try:
        upload = request.files.get("snapshot")
    except RequestEntityTooLarge:
        return _resume_page(413, TOO_LARGE)
    if upload is None or not upload.filename:
        return _resume_page(400, "Choose the snapshot file of the game to resume.")
    data = upload.read(snapshot.MAX_BYTES + 1)
    if len(data) > snapshot.MAX_BYTES:
        return _resume_page(413, TOO_LARGE)
    try:
        doc = snapshot.parse(data)
        created = get_store().import_snapshot(doc)
    except (snapshot.SnapshotError, StoreError) as e:
        return _resume_page(e.status, f"{e.message} Nothing was resumed.")
    game_id = created["game_id"]
    _mark_source_moved(doc, game_id)
    return redirect(url_for("pages.game", game_id=game_id, token=created["banker_token"]), 303)
