"""The app factory: the JSON API under /api/v1 and the pages, over one Store.

`create_app` is the one place a function imports the blueprints (banker.web.api, table,
player, display, snapshots); everything else they share is in banker.web.common."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Flask, current_app, jsonify, request, url_for
from flask.templating import Environment
from htmx_flask import Htmx

import banker
from banker.store import Store, default_database_path
from banker.web.common import (
    errors,
    guards,
    hygiene,
    limits,
    live,
    present,
    pushed,
    rates,
    store,
    template_globals,
)
from banker.web.common.fastpoll import IdlePolls
from banker.web.common.guards import DATABASE_UNAVAILABLE

PACKAGE = Path(banker.__file__).resolve().parent
# In a clone (or an editable install) templates/ and static/ sit at the top of the repository,
# beside the package; a wheel or `pip install .` carries them inside it (see setup.py).
ROOT = PACKAGE.parent


def folder(name: str) -> Path:
    """templates/ or static/: inside the installed package, else at the top of the clone."""
    installed = PACKAGE / name
    return installed if installed.is_dir() else ROOT / name


class Templates(Environment):
    """Flask's Jinja environment, with each template's globals in one dict. Jinja keeps them as a
    ChainMap over the environment's, which every context a template opens (each include's
    and import's too) reads key by key in Python: about a tenth of rendering a view, and a
    change renders six (issue 35). Every global is set by `create_app`, before the first
    template is loaded, as Jinja asks (a global added later would not reach a loaded one)."""

    def make_globals(self, d):
        return {**self.globals, **(d or {})}

    def getattr(self, obj, attribute):
        """`p.name` on a plain dict (what the views hand their templates): its item, read
        first. Jinja tries the attribute first, and on a dict that raises AttributeError for
        every name but a dict's own (`items`, `get`, ...): about 500 exceptions a change, a
        tenth of rendering its views (issue 35). The answer is Jinja's, name for name: a dict's
        own names and anything not a plain dict still go to Jinja's `getattr`."""
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


# What `getattr` finds on a plain dict: its methods and object's (a dict has no attributes
# of its own).
_DICT_NAMES = frozenset(dir(dict))


class Banker(Flask):
    """Flask, its templates in `Templates`."""

    jinja_environment = Templates


def create_app(config: dict | None = None) -> Flask:
    """Build the app; `config` may set DATABASE (the SQLite file), TESTING and so on."""
    app = Banker(
        __name__,
        template_folder=str(folder("templates")),
        static_folder=str(folder("static")),
    )
    app.config.from_mapping(
        DATABASE=str(default_database_path()),
        MAX_CONTENT_LENGTH=1024 * 1024,
    )
    if config:
        app.config.update(config)
    app.json.sort_keys = False
    present.install(app)
    template_globals.install(app)
    app.url_defaults(_static_version)
    app.after_request(_static_cache)
    Htmx(app)
    store.install(app, Store(app.config["DATABASE"]))

    from banker.web import api, display, player, snapshots, table

    for blueprint in (api.bp, table.bp, player.bp, snapshots.bp, display.bp):
        app.register_blueprint(blueprint)
    errors.install(app)
    # Browsers ask for /favicon.ico on their own (a JSON answer opened in a tab, say).
    app.add_url_rule("/favicon.ico", "favicon", lambda: app.send_static_file("favicon.ico"))
    app.add_url_rule("/manifest.webmanifest", "manifest", manifest)
    app.add_url_rule("/healthz", "healthz", healthz)
    limits.install(app)
    rates.install(app)
    guards.install(app)
    live.install(app)
    pushed.install(app)

    app.wsgi_app = IdlePolls(app.wsgi_app, app.extensions[store.EXTENSION])
    public = app.config.get("PUBLIC_URL")
    if public:
        app.wsgi_app = hygiene.PublicURL(app.wsgi_app, public)
    secure = bool(public) and public.startswith("https:")
    app.wsgi_app = hygiene.Hygiene(app.wsgi_app, secure_cookies=secure)
    return app


def _static_version(endpoint: str, values: dict) -> None:
    """url_for("static", filename=…) adds ?v=<hash of the file>: a changed file gets a new URL,
    so an unchanged one may be kept a year. Files named with their version need none."""
    if endpoint != "static" or "v" in values:
        return
    filename = values.get("filename", "")
    if hygiene.NAME_VERSIONED.search(filename):
        return
    v = hygiene.file_version(current_app.static_folder, filename)
    if v:
        values["v"] = v


def _static_cache(response):
    if request.endpoint == "favicon":
        response.headers["Cache-Control"] = "public, max-age=86400"
    if request.endpoint == "static" and response.status_code in (200, 304):
        filename = (request.view_args or {}).get("filename", "")
        response.headers["Cache-Control"] = hygiene.static_cache_control(
            current_app.static_folder, filename, request.args.get("v")
        )
        response.headers.pop("Expires", None)
    return response


THEME = "#0b6b3a"  # the table's green (static/site.css --accent)


def healthz():
    """For monitors and the proxy: 200 {"ok": true, "version"} when the database answers a
    read, 503 {"ok": false, "version", "error"} when it does not (the cause in the log)."""
    try:
        current_app.extensions[store.EXTENSION].answers()
    except sqlite3.Error as e:
        current_app.logger.error("The health check found the database failing: %s", e)
        answer = {"ok": False, "version": banker.__version__, "error": DATABASE_UNAVAILABLE}
        return jsonify(answer), 503, {"Cache-Control": "no-store", "Retry-After": "5"}
    return jsonify({"ok": True, "version": banker.__version__}), 200, {"Cache-Control": "no-store"}


def manifest():
    """The web app manifest of the page at ?start=PATH: added to a phone's home screen, that
    page opens full screen with banker's icon."""
    start = request.args.get("start", "/")
    if not start.startswith("/") or start.startswith("//") or "\\" in start:
        start = "/"
    root = request.script_root

    def icon(name: str, size: int, purpose: str = "any") -> dict:
        src = url_for("static", filename=name)
        return {"src": src, "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}

    body = {
        "name": "Banker",
        "short_name": "Banker",
        "description": "The digital Banker for a real game of Monopoly.",
        "id": root + start,
        "start_url": root + start,
        "scope": root + "/",
        "display": "fullscreen",
        "display_override": ["fullscreen", "standalone"],
        "orientation": "portrait",
        "background_color": "#f6f5f1",
        "theme_color": THEME,
        "icons": [
            icon("icon-192.png", 192),
            icon("icon-512.png", 512),
            icon("icon-maskable-512.png", 512, "maskable"),
        ],
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response
