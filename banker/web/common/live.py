"""What a live page needs to open its push stream (banker.net.push, static/refresh.js)."""

from __future__ import annotations

from flask import Flask, request

from banker.web.common.link_shapes import live_page, stream_path


def push_url() -> str:
    """The push stream of the page being rendered: /games/<id>/events for the Banker's pages
    and the Banker's story, /join/<token>/events and /display/<token>/events for a player's
    and the display's pages (under the public URL's path)."""
    found = live_page(request.path)
    return f"{request.script_root}{stream_path(*found)}" if found else ""


def install(app: Flask) -> None:
    app.add_template_global(push_url)
