"""The display: a read-only page for a shared big screen beside the board (`display_url`).

Placeholder route so that `display_url` has one name everyone builds on
(`url_for("display.show", token=...)`); the page itself comes with issue 16.
"""

from __future__ import annotations

from flask import Blueprint, abort

bp = Blueprint("display", __name__)


@bp.get("/display/<token>")
def show(token: str):
    """The big-screen page of the game this display token belongs to."""
    abort(404)
