"""The story pages' data: banker.story read through the Store, cached per game version, and
turned into the charts and tables the templates show (issue 16)."""

from __future__ import annotations

import threading

from flask import current_app

from banker import story as stories
from banker.rules import public_state
from banker.rules.board import GROUP_COLORS
from banker.store import Store
from banker.web import charts
from banker.web.present import money

_LOCK = threading.Lock()
_GAME_LOCKS: dict[str, threading.Lock] = {}


def load(store: Store, game_id: str) -> dict:
    """The game's whole story (everyone's cash in it), computed once per version."""
    state = public_state(store.state(game_id))
    cache = current_app.extensions.setdefault("banker.stories", {})
    key = (game_id, state["version"])
    with _LOCK:
        found = cache.get(key)
        game_lock = _GAME_LOCKS.setdefault(game_id, threading.Lock())
    if found is not None:
        return found
    # Every phone polls right after a command: one of them computes, the others wait for it.
    with game_lock:
        with _LOCK:
            found = cache.get(key)
        if found is not None:
            return found
        found = compute(store, game_id, state)
        with _LOCK:
            for old in [k for k in cache if k[0] == game_id]:
                del cache[old]
            if len(cache) > 64:
                cache.clear()
            cache[key] = found
    return found


def compute(store: Store, game_id: str, state: dict | None = None) -> dict:
    """The story read afresh from the store (no cache)."""
    state = state or public_state(store.state(game_id))
    events = store.story_events(game_id)
    seats = [p["id"] for p in state["players"]]
    states = store.states_at(game_id, stories.versions_needed(events, seats))
    return stories.build(events, states, state, store.time_span(game_id))


def worth_chart(story: dict, highlight: str | None = None, table_rows: int | None = None) -> dict:
    """The net-worth lines and their table; deeds and buildings only when cash is hidden
    from this viewer for anyone. `table_rows`: at most so many rounds in the table (evenly
    chosen, the first and the latest kept), for a page that is re-sent often."""
    labels = [r["label"] for r in story["rounds"]]
    hidden = any(w["total"] is None for r in story["rounds"] for w in r["worth"].values())
    key = "holdings" if hidden else "total"

    def value(w: dict) -> int | None:
        return w["deeds"] + w["buildings"] if hidden else w["total"]

    series = [
        {
            "id": p["id"],
            "seat": p["seat"],
            "name": p["name"],
            "values": [value(r["worth"][p["id"]]) for r in story["rounds"]],
        }
        for p in story["players"]
    ]
    title = (
        "Deeds and buildings of every player, round by round (cash is private in this game)"
        if hidden
        else "Net worth of every player, round by round"
    )
    rows = list(range(len(labels)))
    if table_rows and len(rows) > table_rows:
        step = (len(rows) - 1) / (table_rows - 1)
        rows = sorted({round(i * step) for i in range(table_rows)})
    every = story.get("every", 1)
    return {
        "title": title,
        "measure": key,
        "rows": rows,
        "every": every,
        "svg": charts.lines(title, labels, series, highlight),
        "labels": labels,
        "series": [{**s, "shown": [money(v) for v in s["values"]]} for s in series],
    }


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
                "bar": charts.bar(paid[pid], top_paid, f"seat seat-{names[pid]['seat']}"),
                "bar_received": charts.bar(
                    story["rent_received"].get(pid, 0),
                    top_paid,
                    f"seat seat-{names[pid]['seat']}",
                ),
            }
            for pid in paid
            if pid in names
        ],
    }


def context(story: dict) -> dict:
    """Everything templates/story/page.html reads."""
    names = {p["id"]: p["name"] for p in story["players"]}
    big = story["biggest_rent"]
    biggest = None
    if big:
        biggest = {
            **big,
            "payer_name": names.get(big["payer"], "?"),
            "owner_name": names.get(big["owner"], "?"),
            "deed": stories.DEEDS[big["property"]].name if big["property"] else "a deed",
            "shown": money(big["amount"]),
        }
    minutes = story["minutes"]
    played = None
    if minutes is not None:
        played = f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"
    return {
        "story": story,
        "worth": worth_chart(story),
        "parts": parts_charts(story),
        "rent": rent_tables(story),
        "biggest": biggest,
        "played": played,
        "money": money,
        "names": names,
        "winner_names": [names.get(w, w) for w in story["winners"]],
    }
