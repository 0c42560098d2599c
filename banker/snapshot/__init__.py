"""The snapshot format: a paused game as one self-contained JSON document, and its checks.

A snapshot (format "banker-snapshot", format_version 2; 1 before release 0.2.0) holds everything
needed to resume a game on another server: the release that saved it, how the game was created,
every accepted command with the events it made, and the state those commands lead to (the
core's internal state, so that undo still reaches back to the latest roll after resuming):

    {
      "format": "banker-snapshot", "format_version": 2, "banker_version": "0.2.0",
      "exported_at": "2026-11-29T21:04:05.120Z",
      "game": {"id": "k3mpq8xz", "edition": "g0009", "players": ["Ann", "Bob"],
               "options": null, "created_at": "2026-11-29T19:00:00.000Z"},
      "commands": [{"version": 1, "at": "…", "command": {"type": "start", "first": "p1"}}, …],
      "events": [{"seq": 1, "version": 1, "type": "started", "text": "…", "at": "…",
                  "undone": false}, …],
      "state": {"game_id": "k3mpq8xz", "version": 1, …, "_seq": 1, "_undo": [], …}
    }

`game.players` and `game.options` are exactly what the game was created with (names in seating
order). `commands` lists every accepted command in order, version 1, 2, 3…; `events` lists
every event in seq order with the version of the command that made it.

Reading one back (`check`) trusts nothing: every field's type and range is checked, the
commands are replayed through the rules core from a new game, and the events and state they
produce must be exactly the recorded ones. No SQLite, no Flask; its one clock bounds the
replay's CPU time (`time.thread_time`, MAX_REPLAY_SECONDS), and the replay yields to the
table's requests between commands.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from banker import __version__, rules
from banker.snapshot import releases
from banker.snapshot.checks import (
    SnapshotError as SnapshotError,  # banker.snapshot.SnapshotError, as before
)
from banker.snapshot.checks import (
    _depth,
    _first_difference,
    _is_int,
    _malformed,
    _object,
    _refused,
    _string,
    _time,
    _upgraded,
    _whole,
    _with_game_id,
)
from banker.snapshot.shape import (
    COMMAND_FIELDS,
    COMMAND_REQUIRED,
    EVENT_FIELDS,
    EVENT_REQUIRED,
    FORMAT,
    FORMAT_VERSION,
    GAME_FIELDS,
    GAME_REQUIRED,
    TOP_FIELDS,
    TOP_REQUIRED,
)

MAX_BYTES = 5 * 1024 * 1024  # larger files are refused before they are parsed
MAX_DEPTH = 64  # a real snapshot nests about 10 levels; the checks below recurse

_MAX_ID = 64
_MAX_TEXT = 2000
# The work of one import, bounded in proportion to a real game: a 5,000-event game
# has about 2,100 commands and 1 MB; a 5 MB file of a real game, about 10,500 commands.
MAX_COMMANDS = 12_000
MAX_EVENTS = 30_000
# A real table rolls every few commands: a longer run between two rolls is not a real game (each
# such command keeps its entry in the undo history, a few hundred bytes of changes).
MAX_RUN_WITHOUT_ROLL = 200
MAX_REPLAY_SECONDS = 8.0  # CPU seconds of this thread, replay and checks together


@dataclass
class Checked:
    """A snapshot that passed every check, replayed for a game with a new id."""

    edition: str
    names: list
    options: dict | None
    commands: list[dict]  # [{"version", "at", "command", "events": [core events], "story"}]
    events_at: dict[int, str]  # seq -> the recorded time of that event
    undone: set[int]  # the seqs of the events taken back by an undo
    state: dict  # the internal state at the end, with the new game id


def build(
    game_id: str,
    edition: str,
    names: list,
    options: dict | None,
    created_at: str | None,
    commands: list[dict],
    events: list[dict],
    state: dict,
    exported_at: str,
) -> dict:
    """The snapshot document of a game, from what the store keeps of it."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "banker_version": __version__,
        "exported_at": exported_at,
        "game": {
            "id": game_id,
            "edition": edition,
            "players": names,
            "options": options,
            "created_at": created_at,
        },
        "commands": commands,
        "events": events,
        "state": state,
    }


def dumps(doc: dict) -> bytes:
    """A snapshot document as the bytes of its file (UTF-8 JSON, one field per line)."""
    return json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")


def parse(data: bytes) -> dict:
    """A snapshot file's bytes as a JSON object (400 otherwise); size is the caller's check."""
    precheck(data)

    def no_constants(name):
        raise ValueError(f"{name} is not JSON")

    try:
        doc = json.loads(data, parse_constant=no_constants)
    except (ValueError, RecursionError):  # ValueError covers bad UTF-8 and huge integers too
        raise _malformed(
            "The file is not valid JSON, so it is not a snapshot.", "malformed_json"
        ) from None
    if not isinstance(doc, dict):
        raise _malformed("A snapshot is a JSON object; this file holds something else.")
    return doc


def _json(value):
    """A value as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


# -- the whole check ------------------------------------------------------------------------


def check(doc: dict, new_game_id: str) -> Checked:
    """Check a snapshot to the last field and replay it for a game called `new_game_id`.

    Raises SnapshotError: 400 when the document is not a well-formed snapshot, 422 when its
    game or one of its commands is refused by the rules, or its log does not reproduce its
    recorded events and state exactly.
    """
    release = _check_header(doc)
    try:
        return _check_body(doc, new_game_id)
    except SnapshotError as e:
        if releases.is_newer(release):  # a later release's file this one cannot read
            raise releases.too_new(release, e.message) from None
        raise


def _check_body(doc: dict, new_game_id: str) -> Checked:
    old_id, edition, names, options = _check_game(doc["game"])
    commands, events = doc["commands"], doc["events"]
    _check_commands(commands)
    _check_events(events, len(commands))
    recorded = _check_recorded_state(doc["state"], old_id, len(commands))
    _check_sequence(commands, events, recorded)
    state = _new_state(new_game_id, edition, names, options)
    replayed, undone, state = _bounded_replay(state, commands, events)
    # And the state they lead to must be the recorded one, to the last internal field.
    where = _first_difference(_upgraded(_with_game_id(recorded, old_id, new_game_id)), _json(state))
    if where:
        raise _refused(
            "The file was changed or damaged after it was saved: its recorded state is not "
            f"what its commands replay to; they differ at {where}.",
            "state_mismatch",
        )
    return Checked(
        edition=edition,
        names=names,
        options=options,
        commands=replayed,
        events_at={e["seq"]: e["at"] for e in events},
        undone=undone,
        state=_json(state),
    )


def _check_header(doc) -> str:
    """The checks of the file as a whole; the release that saved it."""
    if not isinstance(doc, dict):
        raise _malformed("A snapshot is a JSON object.")
    _check_counts(doc)
    if _depth(doc) > MAX_DEPTH:
        raise _malformed(f"The snapshot nests deeper than {MAX_DEPTH} levels; a game never does.")
    if doc.get("format") != FORMAT:
        raise _malformed(
            f'This is not a banker snapshot (its "format" is not "{FORMAT}").', "not_a_snapshot"
        )
    version = doc.get("format_version")
    if not _is_int(version) or version < 1:
        raise _malformed(
            f"This snapshot's format_version is {str(version)[:20]}; this Banker reads "
            f"format_version 1 to {FORMAT_VERSION}.",
            "unsupported_format_version",
        )
    if version > FORMAT_VERSION:
        named = doc.get("banker_version")
        raise releases.too_new_format(version, named[:40] if isinstance(named, str) else None)
    _object(doc, "The snapshot", TOP_FIELDS, TOP_REQUIRED)
    if "exported_at" in doc:
        _time(doc["exported_at"], "exported_at")
    return releases.saved_by(doc)


def _check_game(game) -> tuple[str, str, list, dict | None]:
    game = _object(game, "game", GAME_FIELDS, GAME_REQUIRED)
    old_id = _string(game["id"], "game.id", _MAX_ID)
    edition, names, options = game["edition"], game["players"], game["options"]
    if not isinstance(edition, str):
        raise _malformed("game.edition must be a string.")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise _malformed("game.players must be a list of names.")
    if options is not None and not isinstance(options, dict):
        raise _malformed("game.options must be an object or null.")
    if game.get("created_at") is not None:
        _time(game["created_at"], "game.created_at")
    return old_id, edition, names, options


def _check_commands(commands) -> None:
    if not isinstance(commands, list):
        raise _malformed("commands must be a list.")
    for i, entry in enumerate(commands):
        where = f"commands[{i}]"
        _object(entry, where, COMMAND_FIELDS, COMMAND_REQUIRED)
        if entry["version"] != i + 1 or not _is_int(entry["version"]):
            raise _malformed(f"{where}.version must be {i + 1}: versions count 1, 2, 3….")
        _time(entry["at"], f"{where}.at")
        if not isinstance(entry["command"], dict):
            raise _malformed(f"{where}.command must be a JSON object.")


def _check_events(events, n_commands: int) -> None:
    if not isinstance(events, list):
        raise _malformed("events must be a list.")
    for i, e in enumerate(events):
        where = f"events[{i}]"
        _object(e, where, EVENT_FIELDS, EVENT_REQUIRED)
        _whole(e["seq"], f"{where}.seq", 1, 10**9)
        _whole(e["version"], f"{where}.version", 1, max(n_commands, 1))
        _string(e["type"], f"{where}.type", 40)
        _string(e["text"], f"{where}.text", _MAX_TEXT)
        _time(e["at"], f"{where}.at")
        if not isinstance(e["undone"], bool):
            raise _malformed(f"{where}.undone must be true or false.")


def _check_recorded_state(recorded, old_id: str, n_commands: int) -> dict:
    if not isinstance(recorded, dict):
        raise _malformed("state must be a JSON object.")
    if recorded.get("game_id") != old_id:
        raise _malformed("state.game_id must be the snapshot's game.id.")
    if recorded.get("version") != n_commands or not _is_int(recorded.get("version")):
        raise _malformed(f"state.version must be {n_commands}, the number of commands in the log.")
    return recorded


def _new_state(new_game_id: str, edition: str, names: list, options: dict | None) -> dict:
    """The game the log starts from (the core may refuse it)."""
    try:
        return rules.new_game(new_game_id, edition, names, options)
    except rules.BadCommand as e:
        raise _malformed(f"The snapshot's game cannot be created: {e.message}") from None
    except rules.DomainError as e:
        raise _refused(
            f"The snapshot's game cannot be created: {e.message}", "game_refused"
        ) from None


# -- bounds: cheap checks before the replay, and a budget for the replay itself ------------------


def precheck(data: bytes) -> None:
    """Refuse a file holding more commands than any real game before it is parsed (parsing
    5 MB costs more than everything else a refusal needs). Each command is an object with a
    "command" key; inside a JSON string a quote is escaped, so the bytes `"command":` count
    keys only (a file spacing its colons is caught after parsing by _check_counts)."""
    keys = data.count(b'"command":')
    if keys > MAX_COMMANDS:
        raise _refused(
            f"The snapshot holds {keys:,} commands; this Banker resumes games of at "
            f"most {MAX_COMMANDS:,} (a long real game has about 2,000).",
            "snapshot_too_long",
        )


def _check_counts(doc: dict) -> None:
    """Refuse a log longer than any real game before a single entry of it is read."""
    commands, events = doc.get("commands"), doc.get("events")
    if isinstance(commands, list) and len(commands) > MAX_COMMANDS:
        raise _refused(
            f"The snapshot holds {len(commands):,} commands; this Banker resumes games of at "
            f"most {MAX_COMMANDS:,} (a long real game has about 2,000).",
            "snapshot_too_long",
        )
    if isinstance(events, list) and len(events) > MAX_EVENTS:
        raise _refused(
            f"The snapshot holds {len(events):,} events; this Banker resumes games of at most "
            f"{MAX_EVENTS:,}.",
            "snapshot_too_long",
        )


def _check_sequence(commands: list, events: list, recorded: dict) -> None:
    """Commands, events and state must agree with each other before any replay: every command
    makes at least one event, events count seq 1, 2, 3… in the order of their commands, the
    state's event counter is the last seq, and no run of commands without a roll is longer
    than a table ever plays (each one keeps an entry in the undo history)."""
    if len(events) < len(commands):
        raise _refused(
            f"The snapshot records {len(events):,} events for {len(commands):,} commands, but "
            "every command makes at least one event: its log does not hold.",
            "log_mismatch",
        )
    version = 0
    for i, e in enumerate(events):
        if e["seq"] != i + 1:
            raise _refused(f"events[{i}].seq must be {i + 1}: seqs count 1, 2, 3….", "log_mismatch")
        if e["version"] not in (version, version + 1) or e["version"] == 0:
            raise _refused(
                f"events[{i}] belongs to command {e['version']}, but command {version + 1} "
                "comes first and every command makes at least one event.",
                "log_mismatch",
            )
        version = e["version"]
    if version != len(commands):
        raise _refused(
            f"The last event belongs to command {version}, not to the last command "
            f"({len(commands)}).",
            "log_mismatch",
        )
    if recorded.get("_seq") != len(events) and "_seq" in recorded:
        raise _refused(
            f"state._seq must be {len(events)}, the number of events in the log.", "log_mismatch"
        )
    run = 0
    for i, entry in enumerate(commands):
        run = 0 if entry["command"].get("type") == "roll" else run + 1
        if run > MAX_RUN_WITHOUT_ROLL:
            raise _refused(
                f"Commands {i + 2 - run} to {i + 1} of the log are {run:,} in a row without a "
                f"roll; a real game never has more than {MAX_RUN_WITHOUT_ROLL:,}.",
                "snapshot_too_long",
            )


def _as_recorded(state: dict, command: dict, recorded: list[dict]) -> tuple[dict, list[dict]]:
    """rules.apply as the log recorded it. A snapshot does not say who sent a command; only
    its words depend on that (rules.apply's seat: an offer withdrawn by its maker, declined by
    anyone else), so the maker's words are tried where the others' are not the ones recorded."""
    new, made = rules.apply(state, command)
    if command.get("type") == "decline_trade" and made and recorded:
        if made[0]["text"] != recorded[0].get("text"):
            offers = state["pending"]["trade_offers"]
            offer = next((o for o in offers if o["id"] == command.get("offer")), None)
            if offer is not None:
                new, made = rules.apply(state, command, offer["from"])
    return new, made


def _bounded_replay(state: dict, commands: list, events: list) -> tuple[list[dict], set[int], dict]:
    """Replay the log through the core, comparing each command's events with the recorded ones
    as it goes (a forged log stops at its first forged command) within MAX_REPLAY_SECONDS of
    CPU. Returns [{"version", "at", "command", "events", "story"}] ("story": the players and
    deeds after a command that a roll follows, which the story of the game reads; else None),
    the undone seqs and the last state."""
    started = time.thread_time()
    replayed, undone, at = [], set(), 0
    for i, entry in enumerate(commands):
        if i % 16 == 0:
            time.sleep(0)  # let the table's requests have the interpreter between commands
        if i % 64 == 0 and time.thread_time() - started > MAX_REPLAY_SECONDS:
            raise _refused(
                f"Replaying this snapshot took more than {MAX_REPLAY_SECONDS:g} seconds at "
                f"command {i + 1}; a real game replays in about one. Nothing was resumed.",
                "snapshot_too_costly",
            )
        try:
            state, made = _as_recorded(state, entry["command"], events[at : at + 1])
        except rules.DomainError as e:  # BadCommand too
            kind = str(entry["command"].get("type"))[:40]
            raise _refused(
                f"Command {i + 1} of the log ({kind}) is refused by the rules: {e.message}",
                "log_refused",
            ) from None
        for e in made:
            if at >= len(events):
                raise _refused(
                    f"The log's commands make more events than the {len(events)} it records.",
                    "log_mismatch",
                )
            r = events[at]
            if (r["seq"], r["version"], r["type"], r["text"]) != (
                e["seq"],
                i + 1,
                e["type"],
                e["text"],
            ):
                raise _refused(
                    f"events[{at}] is not what command {i + 1} makes: the rules say {e['text']!r}.",
                    "log_mismatch",
                )
            at += 1
            if e["type"] == "undone":
                undone.update(e.get("undid", []))
        next_is_roll = i + 1 < len(commands) and commands[i + 1]["command"].get("type") == "roll"
        replayed.append({**entry, "events": made, "story": _story(state) if next_is_roll else None})
    if at != len(events):
        raise _refused(
            f"The log's commands make {at} events, but the snapshot records {len(events)}.",
            "log_mismatch",
        )
    for i, e in enumerate(events):
        if e["undone"] != (e["seq"] in undone):
            raise _refused(
                f"events[{i}].undone must be {str(e['seq'] in undone).lower()}.", "log_mismatch"
            )
    return replayed, undone, state


def _story(state: dict) -> dict:
    """What the story of a game reads of a state at a round's start (see story_of)."""
    return story_of(rules.public_state(state))


def story_of(public: dict) -> dict:
    """The least of a public state that the story's net worths read: each player's cash and
    the owned deeds with their mortgage and buildings (about 1 KB; the whole state is 4 KB)."""
    props = {
        deed: {k: st[k] for k in ("owner", "mortgaged", "houses", "hotel")}
        for deed, st in public["properties"].items()
        if st["owner"] is not None
    }
    players = [{"id": p["id"], "cash": p["cash"]} for p in public["players"]]
    return {"state": {"players": players, "properties": props}}
