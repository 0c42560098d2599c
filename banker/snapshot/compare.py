"""What a snapshot's game is, as its commands made it, whatever the words: the comparison of a
recorded state with the one this release's rules replay from the same log.

Two states are the same game when every state undo can reach from them is the same: the state
itself and, for each entry of its undo history, the state that entry takes it back to, compared
without the words (the undo entries' sentences, the events they name) and without the count of
events (`_seq`: a later release may add or drop an event). So an undo history that an earlier
release kept in another form (whole states, changes without the private words) is the same game
when it takes the table back to the same states."""

from __future__ import annotations

from collections.abc import Iterator

from banker import rules
from banker.rules.state import taken_back
from banker.snapshot.checks import _first_difference

# What a state holds about words and events rather than about the game.
NOT_THE_GAME = ("_undo", "_seq")
# The private words an undo entry may carry (rules.WithCash), copied from the replay.
PRIVATE_WORDS = ("cash_of", "without_cash")


def reachable(state: dict) -> Iterator[dict]:
    """The states undo can reach from `state`, the latest first, each without NOT_THE_GAME
    (and its version): the state itself, then each undo entry's state, newest to oldest. One at
    a time: a long run between two rolls keeps thousands of entries."""
    game = {k: v for k, v in state.items() if k not in NOT_THE_GAME}
    yield game
    for entry in reversed(state.get("_undo", [])):
        game = taken_back(game, entry["changes"])
        game["version"] = entry["version"]
        yield game


def difference(recorded: dict, replayed: dict) -> str | None:
    """Where two states (the recorded one upgraded, and the replayed one) first differ as games,
    or None when they are the same game."""
    mine, theirs = recorded.get("_undo", []), replayed.get("_undo", [])
    if not isinstance(mine, list) or len(mine) != len(theirs):
        n = len(mine) if isinstance(mine, list) else "?"
        return f"state._undo (length {n}, not {len(theirs)})"
    pairs = zip(reachable(recorded), reachable(replayed), strict=True)
    try:
        for back, (a, b) in enumerate(pairs):
            where = _first_difference(a, b)
            if where:
                return where if back == 0 else f"{where}, {back} undo(s) back"
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return "state._undo (its changes do not apply to its state)"
    return None


def same_shape(recorded: dict, replayed: dict) -> str | None:
    """Where a recorded state is not shaped as this release's states are, or None: the same
    fields at the top, in what is pending, the turn, the Bank and the options, in each player
    and each deed, each holding a value of the same type (or null). A state resumed as recorded
    must be one these rules can play on."""
    if not isinstance(recorded, dict):
        return "state"
    parts = [("state", recorded, replayed)]
    parts += [(f"state.{k}", recorded.get(k), replayed[k]) for k in
              ("pending", "turn", "bank", "options")]  # fmt: skip
    template = replayed["players"][0]
    players = recorded.get("players")
    if not isinstance(players, list) or not players:
        return "state.players"
    parts += [(f"state.players[{i}]", p, template) for i, p in enumerate(players)]
    deeds = recorded.get("properties")
    if not isinstance(deeds, dict) or set(deeds) != set(replayed["properties"]):
        return "state.properties"
    parts += [(f"state.properties.{d}", v, replayed["properties"][d]) for d, v in deeds.items()]
    for path, mine, theirs in parts:
        if not isinstance(mine, dict):
            return path
        if set(mine) != set(theirs):
            return f"{path}.{sorted(set(mine) ^ set(theirs), key=str)[0]}"
        for key, value in mine.items():
            other = theirs[key]
            if value is not None and other is not None and type(value) is not type(other):
                return f"{path}.{key}"
    return None


def with_private_words(recorded: dict, replayed: dict) -> dict:
    """The recorded state with its undo entries' private words (rules.WithCash) taken from the
    replayed entries of the same version, where an earlier release kept none: with private_cash,
    an undo's sentence then hides a player's cash from the others as it does for a new game."""
    theirs = {e["version"]: e for e in replayed.get("_undo", [])}
    entries = []
    for entry in recorded.get("_undo", []):
        other = theirs.get(entry["version"], {})
        if not any(k in entry for k in PRIVATE_WORDS) and all(k in other for k in PRIVATE_WORDS):
            entry = {**entry, **{k: other[k] for k in PRIVATE_WORDS}}
        entries.append(entry)
    return {**recorded, "_undo": entries} if "_undo" in recorded else recorded


def in_this_release(recorded: dict, replayed: dict) -> dict:
    """The game resumed from a log that replays to its recorded game: the replayed state (as
    this release keeps it) with the file's own numbering of events (`_seq`, and which events
    each undo entry takes back) and its undo entries' words, so that the resumed history and
    undo go on from the recorded events."""
    entries = []
    for mine, theirs in zip(recorded.get("_undo", []), replayed["_undo"], strict=True):
        words = {k: mine[k] for k in ("events", "text", *PRIVATE_WORDS) if k in mine}
        if not any(k in mine for k in PRIVATE_WORDS):
            words.update({k: theirs[k] for k in PRIVATE_WORDS if k in theirs})
        entries.append({**theirs, **words})
    return {**replayed, "_seq": recorded["_seq"], "_undo": entries}


def upgraded(recorded: dict) -> dict:
    """A recorded state as this release keeps states (rules.upgrade); a state too damaged for
    that is returned as it is (the comparison then names where it differs)."""
    try:
        return rules.upgrade(recorded)
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        return recorded
