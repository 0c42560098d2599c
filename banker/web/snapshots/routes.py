"""Pause and resume in the browser: the pause page with the paper record (`paper_record`), the
snapshot file to download, and Resume from file on the home page.

The JSON side of the same thing is GET /api/v1/games/<id>/snapshot and POST
/api/v1/games/import (banker.web.api); both end in Store.snapshot and Store.import_snapshot.

Pages of a game need its banker token (banker.web.common.seats: the cookie the table screen set
for the game's path, `?token=`, a form field or Bearer). Posts from another site are refused by
the app's cross-site check (banker.web.common.guards).
"""

from __future__ import annotations

from datetime import date

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from banker import snapshot
from banker.rules import public_state
from banker.store import GameNotFound, StoreError
from banker.web.common import per_version
from banker.web.common.guards import error_page
from banker.web.common.seats import as_banker, url_token
from banker.web.common.store import get_store
from banker.web.snapshots.paper_record import file_name, paper_record

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


@bp.get("/games/<game_id>/pause")
@as_banker
def pause(game_id: str, state: dict):
    """The pause page: the snapshot to download and the paper record to copy or print."""
    names = [p["name"] for p in public_state(state)["players"]]
    today = date.today()
    args = {"token": url_token()} if url_token() is not None else {}
    response = render_template(
        "snapshots/pause.html",
        game_id=game_id,
        record=paper_record(state),
        filename=file_name(names, today),
        paused_on=f"{today:%A} {today.day} {today:%B %Y}",
        download_url=url_for("snapshots.download", game_id=game_id, **args),
        table_url=url_for("table.game", game_id=game_id, **args),
    )
    return response, 200, {"Cache-Control": "no-store"}


@bp.get("/games/<game_id>/snapshot.json")
@as_banker
def download(game_id: str, state: dict):
    """The game's snapshot as a file to keep (an attachment named with the date and players)."""
    names = [p["name"] for p in public_state(state)["players"]]
    # The very bytes kept for this version (never a copy per request: banker.net.site sends
    # them as the client takes them).
    body = per_version.snapshot_file(game_id, state["version"])
    response = current_app.response_class(body, mimetype="application/json")
    response.headers.set(
        "Content-Disposition", "attachment", filename=file_name(names, date.today())
    )  # fmt: skip  (ASCII)
    response.headers["Cache-Control"] = "no-store"
    response.set_etag(per_version.etag("snapshot", game_id, state["version"]).strip('"'))
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
    """Upload a snapshot file: a new game in that state, then on to its table (303), or a page
    saying how it resumed when the import says something (then one tap on to the table)."""
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
    table_url = url_for("table.game", game_id=game_id, token=created["banker_token"])
    if created["events"]:  # how it resumed (an earlier release's rules led elsewhere): say so
        said = created["events"]
        return render_template("snapshots/resumed.html", said=said, table_url=table_url)
    return redirect(table_url, 303)
