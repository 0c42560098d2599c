"""The functions every template may call, in one place: those that read the store (who
follows the game, the Join panel, a link's QR code, the big screen's link, a player's chart, a
game's standings at its end), and a fresh idempotency key per form. Registered on the app by
`install` (create_app)."""

from __future__ import annotations

import hashlib
import itertools
import secrets

from flask import current_app, get_template_attribute, url_for

import banker
from banker.story import for_viewer
from banker.web.common import per_version, story_cache
from banker.web.common.charts import worth_figures, worth_lines
from banker.web.common.links import install_kept_links, seat_url
from banker.web.common.seats import banker_link_args, banker_token_given
from banker.web.common.store import get_store


def phones_following(game_id: str) -> set[str]:
    """The players whose phone follows the game now: their page holds a push stream
    (banker.net.push), or polled in the last seconds."""
    hub = current_app.extensions.get("banker.push")
    found = get_store().following(game_id)
    return found | hub.following(game_id) if hub is not None else found


# This process's own start of every key: keys never repeat, across restarts either.
_KEY_START = secrets.token_urlsafe(9)
_keys = itertools.count(1)


def new_key() -> str:
    """A fresh idempotency key for one form of one render: this process's random start and a
    count. Unique, not secret (a key only names a tap, in the scope of its sender's token), and
    made for every form of every drawing, where 12 random bytes each cost a system call."""
    return f"{_KEY_START}{next(_keys):x}"


def join_panel(game_id: str | None) -> dict | None:
    """What the Join panel shows, or None unless this request is the game's Banker's.

    {"game_id", "token" (for the forms, None with the cookie), "players": [{"id", "name",
    "join_url", "qr_url" (its code: link_code), "eliminated"}], "players_act" (what a player's
    page lets them do: their own part of the game, or only ask for their rent)}:
    the panel shows the links only on a page whose request carries the banker token, so that
    including it anywhere else leaks nothing.
    """
    if not game_id:
        return None
    given = banker_token_given(game_id)
    if given is None:
        return None
    store = get_store()
    state = store.state(game_id)
    eliminated = {p["id"]: p["eliminated"] for p in state["players"]}
    players = [
        {
            "id": p["id"],
            "name": p["name"],
            "join_url": seat_url(game_id, p["id"], p["token"]),
            "qr_url": link_code_url(game_id, p["id"], p["token"]),
            "eliminated": eliminated[p["id"]],
        }
        for p in store.players(game_id)
    ]
    # The forms need the token only when the page has no cookie to send (kept out of the HTML
    # otherwise, as the Banker's pages keep it out of their URLs).
    return {
        "game_id": game_id,
        "token": banker_link_args(given).get("token"),
        "players": players,
        "players_act": bool(state["options"].get("players_act", True)),
    }


def link_code_url(game_id: str, who: str, link_token: str = "") -> str | None:
    """Where the Banker's page finds the QR code of a link (link_code), None for anyone but the
    game's Banker. The banker token rides along only when the request came without the pages'
    cookie; `v` changes with the link's token, so that a new link is a new image (a browser
    shows an image it has already fetched for the same address again, whatever its headers)."""
    given = banker_token_given(game_id)
    if given is None:
        return None
    extra = banker_link_args(given)
    if link_token:
        extra["v"] = hashlib.sha256(link_token.encode()).hexdigest()[:10]
    return url_for("table.link_code", game_id=game_id, who=who, **extra)


def player_chart(game_id: str, player_id: str, fig_id: str) -> dict:
    """What templates/story/_player_chart.html shows: this player's line among the others. All
    but the lines (whose is thick) is the same on every phone that sees the same story (every
    phone but where cash is private): made once per version for them all, its table of figures
    drawn too (a change re-renders every phone's page: issue 35)."""
    version, whole = story_cache.rounds_at(get_store(), game_id)
    viewer = player_id if whole["private_cash"] else "everyone"

    def made() -> dict:
        figures = worth_figures(for_viewer(whole, player_id), table_rows=8)
        drawn = get_template_attribute("story/_figures.html", "figures")(figures, fig_id)
        return {**figures, "figures": drawn}

    shared = per_version.kept("player-chart", game_id, version, made, viewer, fig_id)
    return {**shared, "svg": worth_lines(shared, player_id, ids=fig_id)}


def standings(game_id: str, viewer: str) -> dict:
    """The end of a game on a phone (templates/_standings.html): its players best first, by
    score at the agreed deadline, else by net worth, those out last, as `viewer` ("banker" or a
    player id) may see them (private_cash hides the others' net worth, which tells their cash):
    {"scored", "stopped" (unfinished: not a ranking), "rows": [{"id", "name", "value" (None:
    private), "winner", "eliminated", "out" (why they are out, in words)}]}."""
    shown = for_viewer(story_cache.load(get_store(), game_id), viewer)
    rows = [
        {
            "id": s["id"],
            "name": s["name"],
            "value": s["score"] if s["score"] is not None else s["worth"]["total"],
            "winner": s["winner"],
            "eliminated": s["eliminated"],
            "out": s.get("out"),
        }
        for s in shown["standings"]
    ]
    stopped = shown["status"] == "unfinished"
    return {"scored": bool(shown["scores"]), "stopped": stopped, "rows": rows}


def big_screen(game_id: str) -> dict:
    """The Banker's "Show on a big screen": {"url"} (its QR code: table.link_code)."""
    return {"url": seat_url(game_id, "display", get_store().display_token(game_id))}


def install(app) -> None:
    """Make the functions above (and banker's version) known to every template."""
    for function in (
        phones_following,
        new_key,
        join_panel,
        link_code_url,
        big_screen,
        player_chart,
        standings,
    ):
        app.add_template_global(function)
    app.jinja_env.globals["banker_version"] = banker.__version__
    install_kept_links(app)
