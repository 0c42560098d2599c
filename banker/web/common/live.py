"""What a live page needs to open its push stream (banker.net.push, static/refresh.js)."""

from __future__ import annotations

from flask import Flask, request

_KINDS = ("games", "join", "display")


def push_url() -> str:
    """The push stream of the page being rendered: /games/<id>/events for the Banker's pages
    and the Banker's story, /join/<token>/events and /display/<token>/events for a player's
    and the display's pages (under the public URL's path)."""
    parts = request.path.split("/")
    if len(parts) >= 3 and parts[1] in _KINDS and parts[2]:
        return f"{request.script_root}/{parts[1]}/{parts[2]}/events"
    return ""


def install(app: Flask) -> None:
    app.add_template_global(push_url)
