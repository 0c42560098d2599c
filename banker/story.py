"""The story of a game, derived from its stored events and states. No Flask, no SQL.

Two steps, so that the store reads only what is needed:

    versions = story.versions_needed(events)          # the states to read back
    s = story.build(events, store.states_at(...), current_state, time_span)
    shown = story.for_viewer(s, viewer)               # cash hidden as private_cash says

`events` are the store's story events (not undone, oldest first): "started", "rolled", "paid",
"rent_claim_opened", "rent_asked", "player_added", "left" and "bankrupt", each with its data,
"version" and "at".

A changing table: players are listed as they are now (a renamed one under the new name). A
latecomer's worth is 0 at the points before they joined (`joined`: the first point they are in),
and one who left is out like a bankrupt player, with `left` true.

A round begins with a roll by the earliest player in seating order (counting from the one who
started) after a roll by a later one: with everyone in, that is the starting player's roll. The
net worth "after round k" is read from the state just before round k+1's first roll; the last
point is the current state ("Now", or "End" once the game is over). Net worth is the
agreed-deadline score (banker.rules.holdings.score): cash, deeds at price (mortgaged: at
mortgage value) and buildings at half their cost, told apart.
"""

from __future__ import annotations

import re
from datetime import datetime

from banker.rules.board import DEEDS, GROUP_NAMES, GROUPS, STARTING_CASH
from banker.rules.holdings import building_value

_DEED_BY_NAME = {d.name: d.id for d in DEEDS.values()}
_CLAIM_DEED = re.compile(r" rent on (.+?) before the next player rolls")


# -- net worth --------------------------------------------------------------------------------


def worths(state: dict) -> dict[str, dict]:
    """Every player's net worth in a state (one pass over the deeds): {pid: worth}."""
    out = {
        p["id"]: {"cash": p["cash"], "deeds": 0, "buildings": 0, "total": 0}
        for p in state["players"]
    }
    for prop, st in state["properties"].items():
        owner = st["owner"]
        if owner in out:
            d = DEEDS[prop]
            w = out[owner]
            w["deeds"] += d.mortgage_value if st["mortgaged"] else d.price
            if st["houses"] or st["hotel"]:
                w["buildings"] += building_value(prop, st)
    for w in out.values():
        w["total"] = w["cash"] + w["deeds"] + w["buildings"]
    return out


def _start_worth(state: dict) -> dict:
    return {
        p["id"]: {"cash": STARTING_CASH, "deeds": 0, "buildings": 0, "total": STARTING_CASH}
        for p in state["players"]
    }


NOT_YET = {"cash": 0, "deeds": 0, "buildings": 0, "total": 0}  # a latecomer before joining


def _point(state: dict | None, current: dict, version: int, joined: dict[str, int]) -> dict:
    """Every current player's worth in the state of `version` (None: not kept, the start's);
    a latecomer who joined after it is worth nothing there yet."""
    point = _start_worth(current) if state is None else worths(state)
    return {
        p["id"]: point[p["id"]]
        if p["id"] in point and joined.get(p["id"], 0) <= version
        else dict(NOT_YET)
        for p in current["players"]
    }


# -- rounds -----------------------------------------------------------------------------------


MAX_POINTS = 100  # a longer game's chart shows every n-th round (n as small as it can be)


def _round_starts(events: list[dict], seats: list[str]) -> list[dict]:
    """The rolls that begin a round, in order."""
    first = next((e["player"] for e in events if e["type"] == "started"), None)
    if first not in seats:
        return []
    n, base = len(seats), seats.index(first)
    rel = {pid: (i - base) % n for i, pid in enumerate(seats)}
    starts, previous = [], None
    for e in events:
        if e["type"] != "rolled":
            continue
        r = rel.get(e["player"], 0)
        if previous is None or r < previous:
            starts.append(e)
        previous = r
    return starts


def _every(rounds: int) -> int:
    """Show every n-th round so that a chart has at most MAX_POINTS points."""
    return max(1, -(-rounds // MAX_POINTS))


def _shown_starts(starts: list[dict]) -> list[tuple[int, dict]]:
    """(round number - 1, its first roll) of the rounds whose ends the story reads."""
    every = _every(len(starts))
    return [(k, e) for k, e in enumerate(starts) if k % every == 0]


def versions_needed(events: list[dict], seats: list[str]) -> list[int]:
    """The versions whose states the story reads: the one just before each shown round's first
    roll (every round's, unless the game is longer than MAX_POINTS rounds)."""
    return [e["version"] - 1 for _, e in _shown_starts(_round_starts(events, seats))]


def _turns(events: list[dict]) -> int:
    """Turns taken: a roll begins one unless the same player rolls again after doubles."""
    turns, previous = 0, None
    for e in events:
        if e["type"] != "rolled":
            continue
        dice = e.get("dice") or [0, 1]
        doubles = e["doubles"] if "doubles" in e else dice[0] == dice[1]
        if previous is None or previous[0] != e["player"] or not previous[1]:
            turns += 1
        previous = (e["player"], doubles)
    return turns


# -- rent -------------------------------------------------------------------------------------


def _rents(events: list[dict], starts: set[int]) -> list[dict]:
    """Every rent paid: [{"payer", "owner", "property", "amount", "round"}] in order.

    `starts`: the seq of each round's first roll."""
    claim_deed: dict[str, str | None] = {}
    asked: str | None = None
    rnd, out = 0, []
    for e in events:
        t = e["type"]
        if t == "rolled" and e["seq"] in starts:
            rnd += 1
        elif t == "rent_claim_opened":
            prop = e.get("property")
            if prop not in DEEDS:
                m = _CLAIM_DEED.search(e["text"])
                prop = _DEED_BY_NAME.get(m.group(1)) if m else None
            claim_deed[e.get("claim")] = prop
        elif t == "rent_asked":
            asked = claim_deed.get(e.get("claim"))
        elif t == "paid" and e.get("reason") == "rent" and e.get("payee"):
            prop = e.get("property") if e.get("property") in DEEDS else asked
            out.append(
                {
                    "payer": e["payer"],
                    "owner": e["payee"],
                    "property": prop,
                    "amount": e["amount"],
                    "round": max(rnd, 1),
                }
            )
    return out


def _rent_tables(rents: list[dict], players: list[dict]) -> dict:
    by_deed: dict[str, list[int]] = {}
    for r in rents:
        if r["property"]:
            entry = by_deed.setdefault(r["property"], [0, 0])
            entry[0] += r["amount"]
            entry[1] += 1
    deeds = sorted(
        (
            {
                "id": prop,
                "name": DEEDS[prop].name,
                "group": DEEDS[prop].group,
                "amount": amount,
                "times": times,
            }
            for prop, (amount, times) in by_deed.items()
        ),
        key=lambda d: (-d["amount"], DEEDS[d["id"]].index),
    )
    groups = []
    for g, props in GROUPS.items():
        amount = sum(by_deed.get(p, [0])[0] for p in props)
        if amount:
            groups.append({"group": g, "name": GROUP_NAMES[g], "amount": amount})
    groups.sort(key=lambda g: -g["amount"])
    paid = {p["id"]: 0 for p in players}
    received = {p["id"]: 0 for p in players}
    for r in rents:
        paid[r["payer"]] = paid.get(r["payer"], 0) + r["amount"]
        received[r["owner"]] = received.get(r["owner"], 0) + r["amount"]
    biggest = max(rents, key=lambda r: r["amount"], default=None)
    return {
        "rent_by_deed": deeds,
        "rent_by_group": groups,
        "rent_paid": paid,
        "rent_received": received,
        "best_deed": deeds[0] if deeds else None,
        "biggest_rent": biggest,
    }


# -- the whole story --------------------------------------------------------------------------


def _minutes(start: str | None, end: str | None) -> int | None:
    if not start or not end:
        return None
    a = datetime.fromisoformat(start.replace("Z", "+00:00"))
    b = datetime.fromisoformat(end.replace("Z", "+00:00"))
    return max(0, round((b - a).total_seconds() / 60))


def out_reasons(events: list[dict], current: dict) -> dict[str, str]:
    """Why each player out of the game is out, in words, the same on every screen: "left the
    game", "bankrupt to Bob", "bankrupt to the Bank" (i34: one way of showing who is out)."""
    names = {p["id"]: p["name"] for p in current["players"]}
    out = {}
    for e in events:
        if e.get("undone"):
            continue
        if e["type"] == "left":
            out[e["player"]] = "left the game"
        elif e["type"] == "bankrupt":
            creditor = e.get("creditor")
            to = names.get(creditor, "the Bank") if creditor else "the Bank"
            out[e["player"]] = f"bankrupt to {to}"
    return out


def build(
    events: list[dict],
    states: dict[int, dict],
    current: dict,
    span: tuple[str | None, str | None] = (None, None),
    points: dict | None = None,
) -> dict:
    """The whole story of a game as plain data (every player's cash included). `points`: as
    `rounds`'."""
    story, starts = _rounds(events, states, current, points)
    rents = _rents(events, {e["seq"] for e in starts})
    story.update(
        {
            "turns": _turns(events),
            "started_at": span[0],
            "ended_at": span[1],
            "minutes": _minutes(*span),
            "winners": list(current.get("winners") or []),
            "scores": current.get("scores"),
            **_rent_tables(rents, story["players"]),
        }
    )
    story["standings"] = _standings(story, current)
    return story


def rounds(
    events: list[dict], states: dict[int, dict], current: dict, points: dict | None = None
) -> dict:
    """What a net-worth chart shows of the story (its players, its rounds' worth, "every"…:
    the keys `build` gives them). `points`: a dict kept between calls for the same game, where
    each played round's figures are kept by its version and who is seated (the state at a
    version is never rewritten: an undo moves the game to a new version), so that a change of
    the game computes its "Now" alone."""
    return _rounds(events, states, current, points)[0]


def _rounds(
    events: list[dict], states: dict[int, dict], current: dict, points: dict | None
) -> tuple[dict, list[dict]]:
    """`rounds`, and the rolls that began the rounds (the rents' table needs them)."""
    joined = {e["player"]: e["version"] for e in events if e["type"] == "player_added"}
    left = {e["player"] for e in events if e["type"] == "left"}
    why_out = out_reasons(events, current)
    players = [
        {
            "id": p["id"],
            "name": p["name"],
            "seat": i,
            "eliminated": p["eliminated"],
            "left": p["id"] in left,
            "out": why_out.get(p["id"]) if p["eliminated"] else None,
        }
        for i, p in enumerate(current["players"])
    ]
    ids = [p["id"] for p in players]
    starts = _round_starts(events, ids)
    over = current["status"] in ("finished", "unfinished")
    shown, versions = [], []
    seated = (tuple(ids), tuple(sorted(joined.items())))
    for k, e in _shown_starts(starts):
        v = e["version"] - 1
        point = None if points is None else points.get((v, seated))
        if point is None:
            point = _point(states.get(v), current, v, joined)
            if points is not None:
                points[v, seated] = point
        shown.append({"round": k, "label": "Start" if k == 0 else f"Round {k}", "worth": point})
        versions.append(v)
    versions.append(current.get("version", 0))
    shown.append(
        {
            "round": len(starts),
            "label": ("End" if over else "Now") if starts else "Start",
            "worth": worths(current),
        }
    )
    return {
        "game_id": current.get("game_id"),
        "status": current["status"],
        "private_cash": bool(current["options"].get("private_cash")),
        "players": players,
        "rounds": shown,
        "rounds_played": len(starts),
        "joined": _joined_points(versions, joined),
        "every": _every(len(starts)),
    }, starts


def _joined_points(versions: list[int], joined: dict[str, int]) -> dict[str, int]:
    """{latecomer's id: the index of the first point of the chart they are in}; `versions`:
    the version of each point's state."""
    return {
        pid: next((i for i, v in enumerate(versions) if v >= at), len(versions) - 1)
        for pid, at in joined.items()
    }


def _standings(story: dict, current: dict) -> list[dict]:
    """Players best first: by score when scored, else by net worth now; those out go last."""
    now = story["rounds"][-1]["worth"]
    scores = story["scores"] or {}
    rows = []
    for p in story["players"]:
        value = scores.get(p["id"], now[p["id"]]["total"])
        rows.append(
            {
                **p,
                "worth": dict(now[p["id"]]),
                "score": scores.get(p["id"]),
                "winner": p["id"] in story["winners"],
                "sort": (p["eliminated"], -value, p["seat"]),
            }
        )
    rows.sort(key=lambda r: r.pop("sort"))
    return rows


def for_viewer(story: dict, viewer: str) -> dict:
    """The story as `viewer` ("banker", a player id or "display") may see it.

    With private_cash, every cash figure but the viewer's own is None, and so is that player's
    total (which would tell the cash); deeds and buildings stay.
    """
    if not story["private_cash"] or viewer == "banker":
        return {**story, "cash_hidden": False}

    def hide(pid: str, w: dict) -> dict:
        if pid == viewer:
            return w
        return {**w, "cash": None, "total": None}

    rounds = [
        {**r, "worth": {pid: hide(pid, w) for pid, w in r["worth"].items()}}
        for r in story["rounds"]
    ]
    shown = {**story, "rounds": rounds, "cash_hidden": True}
    if "standings" in story:  # (not in `rounds`' part of it)
        shown["standings"] = [{**s, "worth": hide(s["id"], s["worth"])} for s in story["standings"]]
    return shown
