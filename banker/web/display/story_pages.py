"""The story of a game in charts, for the display, the Banker and each player: its routes, and
the charts and tables its template shows (the story itself: banker.story, read through
banker.web.common.story_cache).

Routes:
- /display/<token>/story      the story, as the display may see it
- /games/<game_id>/story      the story for the Banker (banker cookie, as the Banker's pages)
- /join/<token>/story         the story for one player (their own cash shown)
"""

from __future__ import annotations

from flask import render_template, url_for

from banker.rules.board import DEEDS, GROUP_COLORS
from banker.story import for_viewer
from banker.web.common import charts, story_cache
from banker.web.common.present import money, seat_color
from banker.web.common.seats import as_banker, as_display, as_player
from banker.web.common.store import get_store
from banker.web.display.blueprint import bp, gone, message


def parts_charts(story: dict) -> list[dict]:
    """One stacked chart per player: cash, deeds and buildings told apart."""
    labels = [r["label"] for r in story["rounds"]]
    top = charts.nice_max(
        max(
            (
                (w["cash"] or 0) + w["deeds"] + w["buildings"]
                for r in story["rounds"]
                for w in r["worth"].values()
            ),
            default=0,
        )
    )
    out = []
    for p in story["players"]:
        rows = [r["worth"][p["id"]] for r in story["rounds"]]
        hidden = any(w["cash"] is None for w in rows)
        title = f"{p['name']}: " + (
            "deeds and buildings by round (cash private)"
            if hidden
            else "cash, deeds and buildings by round"
        )
        out.append(
            {
                "player": p,
                "title": title,
                "cash_hidden": hidden,
                "svg": charts.parts(title, labels, rows, top),
                "last": {k: money(v) for k, v in rows[-1].items()},
            }
        )
    return out


def rent_tables(story: dict) -> dict:
    """Rent per deed, per colour set and per player, each row with its bar."""
    names = {p["id"]: p for p in story["players"]}
    deeds, groups = story["rent_by_deed"], story["rent_by_group"]
    top_deed = max((d["amount"] for d in deeds), default=0)
    top_group = max((g["amount"] for g in groups), default=0)
    paid = story["rent_paid"]
    top_paid = max(list(paid.values()) + list(story["rent_received"].values()) + [0])
    return {
        "deeds": [
            {
                **d,
                "shown": money(d["amount"]),
                "bar": charts.bar(d["amount"], top_deed, "rent", GROUP_COLORS[d["group"]]),
            }
            for d in deeds
        ],
        "groups": [
            {
                **g,
                "shown": money(g["amount"]),
                "bar": charts.bar(g["amount"], top_group, "rent", GROUP_COLORS[g["group"]]),
            }
            for g in groups
        ],
        "players": [
            {
                "player": names[pid],
                "paid": money(paid[pid]),
                "received": money(story["rent_received"].get(pid, 0)),
                "bar": charts.bar(
                    paid[pid], top_paid, f"seat seat-{seat_color(names[pid]['seat'])}"
                ),
                "bar_received": charts.bar(
                    story["rent_received"].get(pid, 0),
                    top_paid,
                    f"seat seat-{seat_color(names[pid]['seat'])}",
                ),
            }
            for pid in paid
            if pid in names
        ],
    }


def summary(story: dict) -> dict:
    """What both the story page and the big screen's end say in words: the biggest rent with
    its players' and deed's names, the time played, the winners' names."""
    names = {p["id"]: p["name"] for p in story["players"]}
    big = story["biggest_rent"]
    biggest = None
    if big:
        biggest = {
            **big,
            "payer_name": names.get(big["payer"], "?"),
            "owner_name": names.get(big["owner"], "?"),
            "deed": DEEDS[big["property"]].name if big["property"] else "a deed",
            "shown": money(big["amount"]),
        }
    minutes = story["minutes"]
    played = None
    if minutes is not None:
        played = f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"
    return {
        "biggest": biggest,
        "played": played,
        "names": names,
        "winner_names": [names.get(w, w) for w in story["winners"]],
    }


def context(story: dict) -> dict:
    """Everything templates/story/page.html reads."""
    return {
        "story": story,
        "worth": charts.worth_chart(story),
        "parts": parts_charts(story),
        "rent": rent_tables(story),
        "money": money,
        **summary(story),
    }


def ending(game_id: str) -> dict:
    """What the big screen shows once the game is over: the story as the display may see it
    (`story`: standings, scores, best deed, turns), its net-worth chart (`worth`) and
    `summary`'s words."""
    shown = for_viewer(story_cache.load(get_store(), game_id), "display")
    return {"story": shown, "worth": charts.worth_chart(shown), **summary(shown)}


def _story_page(game_id: str, viewer: str, back: str | None):
    whole = story_cache.load(get_store(), game_id)
    shown = for_viewer(whole, viewer)
    return render_template("story/page.html", back=back, **context(shown))


@bp.get("/display/<token>/story")
@as_display(gone)
def story(token: str, game_id: str):
    """The story of the game as the display may see it (no cash with private_cash)."""
    return _story_page(game_id, "display", url_for("display.show", token=token))


@bp.get("/games/<game_id>/story")
@as_banker(pages=True)  # as the Banker's pages: the game's cookie
def banker_story(game_id: str, state: dict):
    """The story for the Banker: everyone's cash."""
    return _story_page(game_id, "banker", url_for("table.game", game_id=game_id))


@bp.get("/join/<token>/story")
@as_player(lambda token: message(404, "This link is not a player's link in any game here."))
def player_story(token: str, game_id: str, player_id: str):
    """The story for one player: their own cash, the others' as private_cash says."""
    return _story_page(game_id, player_id, url_for("player.join", token=token))
