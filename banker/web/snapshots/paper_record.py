"""What a paused table notes on paper, read from a game's state (see the rule text), and the
name of its snapshot file."""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from banker.rules import pending_in_words, public_state
from banker.rules.board import DECK_NAMES, DEED_IDS, DEEDS
from banker.rules.options import OPTIONS
from banker.web.common.present import buildings_text, where


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
        at = where(p)
        if p["in_jail"]:
            at += f", {p['jail_attempts']} of 3 attempts at doubles made"
        else:
            at += f" (space {p['position']})"
        players.append(
            {
                **p,
                "seat": seat,
                "where": at,
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
        # The house rule's pot, money on the table that a resume from paper must put back.
        "pot": public["bank"]["free_parking"]
        if public["options"].get("free_parking_jackpot")
        else None,
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
    """The rules of play the game was created with, in words: every variation and house rule
    switched on (what the players' phones may do is not the table's rule)."""
    return [
        o.label[:1].lower() + o.label[1:]
        for name, o in OPTIONS.items()
        if o.group != "phones" and options.get(name)
    ]


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
