"""The rows of the append-only log: a command's row, its events' rows, what the story keeps
of a state at a round's start, and the bounded answers of keyed commands."""

from __future__ import annotations

import json

import sqlite_utils

from banker import rules
from banker import snapshot as snapshots
from banker.store.database import dumps

NO_ANSWER = ""  # the `response` of a command sent without an Idempotency-Key: nothing to repeat
EVENT_COLUMNS = {"seq", "type", "text"}

INSERT_COMMAND = (
    "insert into commands (game_id, version, command, idempotency_key, key_scope, response, at,"
    " expected_version) values (?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_EVENT = (
    "insert into events (game_id, seq, version, type, text, data, at, undone)"
    " values (?, ?, ?, ?, ?, ?, ?, 0)"
)


# -- the game's row: its state, and what undo needs ---------------------------------------------
#
# The core keeps, for undo, what each command since the latest roll changed (state["_undo"]:
# [{"version", "changes", "events", "text"}], the changes that take the state after it back to
# the one before), a few hundred bytes an entry: the row keeps them as they are. Rows written by
# an earlier banker kept each entry as {"version", "events", "text"} only (the core then kept
# whole states, too large to write each time): those states are re-derived when an undo needs
# them (Store._full_state), from the bottom entry's state, written once in `undo_base`, replayed
# through the stored commands up to the current version.


def read_state(text: str) -> dict:
    """A stored state (a game's row, or its undo base) as this release keeps states: the one
    place one is read back. A row an earlier release wrote lacks what came later (trade offers,
    the jackpot's pot, options declared since…): rules.upgrade adds it, so that every page and
    answer works at once, before any command."""
    return rules.upgrade(json.loads(text))


def undo_version(entry: dict) -> int:
    """The version of the state an undo entry takes the game back to."""
    return entry["version"] if "version" in entry else entry["state"]["version"]


def state_text(state: dict, public_text: str | None = None) -> str:
    """The game's row: the state as JSON, each undo entry with the version of its state (and
    without a whole state, which earlier cores kept).

    `public_text`: dumps(rules.public_state(state)) when already made (the answer's), which the
    row then extends with the core's own keys instead of serialising the state again."""
    own = {k: v for k, v in state.items() if k.startswith("_")}
    if own.get("_undo"):
        own["_undo"] = [
            {"version": undo_version(e), **{k: v for k, v in e.items() if k != "state"}}
            for e in own["_undo"]
        ]
    if public_text is None:
        public_text = dumps(rules.public_state(state))
    if not own:
        return public_text
    return f"{public_text[:-1]},{dumps(own)[1:]}" if public_text != "{}" else dumps(own)


def needs_replay(state: dict) -> bool:
    """Whether an undo entry of this state was read back from a row of an earlier banker,
    without its state or its changes (then Store._full_state re-derives them)."""
    return any("state" not in e and "changes" not in e for e in state.get("_undo", ()))


def undo_base(state: dict, stored: int | None, row=None) -> tuple[int, str] | None:
    """(version, JSON) of the state the bottom undo entry holds, when the row does not hold that
    one yet (`stored`: the version of the one it holds); else None.

    `row`: (version, text) of the game's row as last written; the base is usually that very
    state (a roll's previous one), whose text then serves again (its own undo entries are
    ignored when it is read back: Store._full_state)."""
    stack = state.get("_undo")
    if not stack or undo_version(stack[0]) == stored:
        return None
    bottom = stack[0]
    if "state" not in bottom:  # read back from a row that has its base: nothing new to write
        return None
    version = undo_version(bottom)
    if row is not None and row[0] == version:
        return version, row[1]
    return version, dumps(bottom["state"])


def event_rows(game_id: str, version: int, events: list[dict], at: str) -> list[tuple]:
    """The `events` rows of one command (INSERT_EVENT's parameters)."""
    return [
        (
            game_id,
            e["seq"],
            version,
            e["type"],
            e["text"],
            dumps({k: v for k, v in e.items() if k not in EVENT_COLUMNS}),
            at,
        )
        for e in events
    ]


def story_state(state: dict) -> str:
    """What the story keeps of the state just before a round's first roll (snapshot.story_of)."""
    return dumps(snapshots.story_of(rules.public_state(state)))


class RoundTracker:
    """Which rolls begin a round, as banker.story counts them (`_round_starts`): a roll by a
    seat earlier (counted from the first player) than the previous roll's. Only the state just
    before such a roll is kept for the story, not one before every roll. When unsure (after a
    restart or an undo) it says yes: a state kept too many is only a few hundred bytes."""

    def __init__(self, first: str | None = None):
        self.first, self.last = first, None

    def starts(self, events: list[dict], seats: list[str]) -> tuple[bool, str | None, int | None]:
        """(whether these events hold a round's first roll, the new first player, last seat)."""
        first, last, starts = self.first, self.last, False
        for e in events:
            kind = e["type"]
            if kind == "started":
                first, last = e.get("player"), None
            elif kind == "undone":
                last = None
            elif kind == "rolled":
                if first not in seats or e.get("player") not in seats:
                    starts, last = True, None
                    continue
                rel = (seats.index(e["player"]) - seats.index(first)) % len(seats)
                starts = starts or last is None or rel < last
                last = rel
        return starts, first, last


def keep_story_state(db: sqlite_utils.Database, game_id: str, before: dict) -> None:
    """A round's first roll is about to be recorded: the command before it keeps the state the
    story reads (unless it kept its whole answer, for its Idempotency-Key)."""
    if before["version"] > 0:
        db.conn.execute(
            "update commands set response = ? where game_id = ? and version = ? and response = ?",
            [story_state(before), game_id, before["version"], NO_ANSWER],
        )


def mark_undone(db: sqlite_utils.Database, game_id: str, events: list[dict]) -> None:
    """An undo's events name the events it took back: mark them."""
    undid = [seq for e in events if e["type"] == "undone" for seq in e.get("undid", [])]
    if undid:
        marks = ", ".join("?" for _ in undid)
        db.conn.execute(
            f"update events set undone = 1 where game_id = ? and seq in ({marks})",
            [game_id, *undid],
        )


def forget_old_answers(db: sqlite_utils.Database, game_id: str, kept: int) -> None:
    """Keep the answers (and keys) of only the game's latest `kept` keyed commands: a retry
    comes seconds after its command, and a long game's log stays proportional to its events.
    A forgotten key is new again (a client never reuses one after minutes). An answer whose
    state the story may read (the state just before a roll, see states_at) keeps only what the
    story reads of it (snapshot.story_of)."""
    rows = db.query(
        "select version, response, exists (select 1 from commands n where n.game_id = ? "
        "  and n.version = c.version + 1 and json_extract(n.command, '$.type') = 'roll') "
        "as before_roll from commands c where game_id = ? and idempotency_key is not null "
        "and version <= (select version from commands where game_id = ? "
        "  and idempotency_key is not null order by version desc limit 1 offset ?)",
        [game_id, game_id, game_id, kept],
    )
    for row in list(rows):
        story = NO_ANSWER
        if row["before_roll"] and row["response"]:
            story = dumps(snapshots.story_of(json.loads(row["response"])["state"]))
        db.conn.execute(
            "update commands set idempotency_key = null, response = ? "
            "where game_id = ? and version = ?",
            [story, game_id, row["version"]],
        )


def imported_rows(game_id: str, checked) -> tuple[list[tuple], list[tuple]]:
    """The commands and events rows of an imported game. Keys belong to the game they were sent
    to, and answers are kept only for keyed commands: an imported command keeps none, only,
    before a roll, the players and deeds the story reads."""
    commands = [
        (
            game_id,
            c["version"],
            dumps(c["command"]),
            None,
            "",
            dumps(c["story"]) if c["story"] else NO_ANSWER,
            c["at"],
            None,
        )
        for c in checked.commands
    ]
    events = [
        (
            game_id,
            e["seq"],
            c["version"],
            e["type"],
            e["text"],
            dumps({k: v for k, v in e.items() if k not in EVENT_COLUMNS}),
            checked.events_at[e["seq"]],
            int(e["seq"] in checked.undone),
        )
        for c in checked.commands
        for e in c["events"]
    ]
    return commands, events
