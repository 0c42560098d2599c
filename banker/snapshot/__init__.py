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
from banker.snapshot import compare, releases
from banker.snapshot.checks import (
    SnapshotError as SnapshotError,  # banker.snapshot.SnapshotError, as before
)
from banker.snapshot.checks import (
    _depth,
    _is_int,
    _malformed,
    _object,
    _refused,
    _string,
    _time,
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
from banker.snapshot.shape import entry_bytes as entry_bytes  # the store counts logs by it

MAX_BYTES = 5 * 1024 * 1024  # larger files are refused before they are parsed
MAX_DEPTH = 64  # a real snapshot nests about 10 levels; the checks below recurse

_MAX_ID = 64
_MAX_TEXT = 2000
# The work of one import, bounded in proportion to a real game: a 5,000-event game
# has about 2,100 commands and 1 MB; a 5 MB file of a real game, about 10,500 commands.
MAX_COMMANDS = 12_000
MAX_EVENTS = 30_000
MAX_REPLAY_SECONDS = 8.0  # CPU seconds of this thread, replay and checks together

# The store refuses a command taking a game's log past these limits less room for the state
# and for the Banker's corrections (`game_too_long`, banker.store), which pass up to the limits
# themselves: every game it keeps imports here. Read at each command (a test may set them).
STATE_ROOM = 4  # the state as the file writes it (indented) is under 4 times its row's bytes
HEAD_ROOM = 4096
CORRECTION_ROOM = 100
CORRECTION_BYTES = 4096
CORRECTIONS = frozenset({"undo", "adjust", "move"})


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
    notes: list[dict]  # [{"type", "text"}]: what the import answer says of how it resumed
    release: str  # the release that saved the file


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

    The log is checked by what its commands do, never by the words of its events: the state
    they replay to must be the recorded game (banker.snapshot.compare). Raises SnapshotError:
    400 when the document is not a well-formed snapshot; 422 when its game is refused by the
    rules, its log does not hold together, or a file of this release does not replay to its
    recorded state (a file of an earlier release then resumes as recorded, and says so in
    `Checked.notes`); 422 snapshot_too_new for a newer release's file this one cannot read.
    """
    release = _check_header(doc)
    try:
        return _check_body(doc, new_game_id, release)
    except SnapshotError as e:
        if releases.is_newer(release):  # a later release's file this one cannot read
            raise releases.too_new(release, e.message) from None
        raise


def _check_body(doc: dict, new_game_id: str, release: str) -> Checked:
    old_id, edition, names, options = _check_game(doc["game"])
    commands, events = doc["commands"], doc["events"]
    _check_commands(commands)
    _check_events(events, len(commands))
    recorded = _check_recorded_state(doc["state"], old_id, len(commands))
    _check_sequence(commands, events, recorded)
    state = _new_state(new_game_id, edition, names, options)
    replayed, state, refused = _bounded_replay(state, commands)
    recorded = compare.upgraded(_with_game_id(recorded, old_id, new_game_id))
    recorded["_seq"] = len(events)  # as _check_sequence found it (a copy: upgraded's or ours)
    state = _json(state)
    where = None if refused else compare.difference(recorded, state)
    notes = []
    if refused or where:
        if not releases.is_older(release):  # this release's own rules: the file was changed
            raise _changed(refused, where)
        notes.append(_resumed_as_recorded(release, refused, where))
        resumed = _as_recorded(recorded, state)
    else:
        resumed = compare.in_this_release(recorded, state)
    _check_undone(replayed, events)
    return Checked(
        edition=edition,
        names=names,
        options=options,
        commands=_with_recorded_events(replayed, events),
        events_at={e["seq"]: e["at"] for e in events},
        undone={e["seq"] for e in events if e["undone"]},
        state=resumed,
        notes=notes,
        release=release,
    )


def _changed(refused: str | None, where: str | None) -> SnapshotError:
    """The refusal of a file of this release whose log does not lead to its recorded state."""
    if refused:
        return _refused(f"{refused[0].upper()}{refused[1:].rstrip('.')}.", "log_refused")
    return _refused(
        "The file was changed or damaged after it was saved: its recorded state is not what "
        f"its commands replay to; they differ at {where}.",
        "state_mismatch",
    )


def _resumed_as_recorded(release: str, refused: str | None, where: str | None) -> dict:
    """The event an import answers with when an earlier release's rules led elsewhere."""
    why = refused or f"its commands lead elsewhere under this release's rules, at {where}"
    return {
        "type": "resumed_as_recorded",
        "text": f"This game was saved by banker {release}, whose rules differ from this "
        f"release's: {why.rstrip('.')}. It resumes exactly as recorded, and this release's "
        "rules apply from here on.",
    }


def _as_recorded(recorded: dict, replayed: dict) -> dict:
    """The recorded state, resumed as it is; refused unless these rules can play on from it."""
    where = compare.same_shape(recorded, replayed)
    if where:
        raise _refused(
            "The file was changed or damaged after it was saved: its recorded state is not one "
            f"banker keeps (at {where}).",
            "state_mismatch",
        )
    return compare.with_private_words(recorded, replayed)


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
    state's event counter is the last seq. (A run of commands between two rolls may be as long
    as a table plays it: 205 raises of 1 in one auction are a game's, so no limit of its own.)"""
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


def _bounded_replay(state: dict, commands: list) -> tuple[list[dict], dict, str | None]:
    """Replay the log through the core within MAX_REPLAY_SECONDS of CPU. Returns, for every
    command, {"version", "at", "command", "events": what these rules made of it, "story": the
    players and deeds after a command that a roll follows (which the story of the game reads),
    else None}; the last state; and, when these rules refuse a command, why (the commands after
    it are not replayed: their events [] and story None)."""
    started = time.thread_time()
    replayed, refused = [], None
    for i, entry in enumerate(commands):
        if i % 16 == 0:
            time.sleep(0)  # let the table's requests have the interpreter between commands
        if i % 64 == 0 and time.thread_time() - started > MAX_REPLAY_SECONDS:
            raise _refused(
                f"Replaying this snapshot took more than {MAX_REPLAY_SECONDS:g} seconds at "
                f"command {i + 1}; a real game replays in about one. Nothing was resumed.",
                "snapshot_too_costly",
            )
        made = []
        if refused is None:
            try:
                state, made = rules.apply(state, entry["command"])
            except rules.DomainError as e:  # BadCommand too
                kind = str(entry["command"].get("type"))[:40]
                refused = f"command {i + 1} of the log ({kind}) is refused by the rules: "
                refused += e.message
        next_is_roll = i + 1 < len(commands) and commands[i + 1]["command"].get("type") == "roll"
        story = _story(state) if next_is_roll and refused is None else None
        replayed.append({**entry, "events": made, "story": story})
    return replayed, state, refused


def _check_undone(replayed: list[dict], events: list[dict]) -> None:
    """Where these rules made as many events as the file records for every command (so their
    seqs are the file's), the events marked undone must be those its undos took back: an
    event struck out of the history that no undo took back is a changed file."""
    made = [e for c in replayed for e in c["events"]]
    if len(made) != len(events) or any(not c["events"] for c in replayed):
        return  # an earlier release numbered its events otherwise: its marks stand
    undone = {seq for e in made if e["type"] == "undone" for seq in e.get("undid", ())}
    for i, e in enumerate(events):
        if e["undone"] != (e["seq"] in undone):
            raise _refused(
                f"events[{i}].undone must be {str(e['seq'] in undone).lower()}: the log's undos "
                "take back other events.",
                "log_mismatch",
            )


def _with_recorded_events(replayed: list[dict], events: list[dict]) -> list[dict]:
    """Each command with its recorded events (their seqs, types and words, as the resumed
    history keeps them), each with the data of the event these rules made in its place (the
    same type at the same place among its command's events; else none)."""
    by_version: dict[int, list[dict]] = {}
    for e in events:
        by_version.setdefault(e["version"], []).append(e)
    out = []
    for c in replayed:
        made, merged = c["events"], []
        for j, r in enumerate(by_version.get(c["version"], [])):
            m = made[j] if j < len(made) and made[j]["type"] == r["type"] else {}
            data = {k: v for k, v in m.items() if k not in ("seq", "type", "text")}
            if m.get("seq") != r["seq"]:
                data.pop("undid", None)  # seqs of these rules' numbering, not the file's
            merged.append({**data, "seq": r["seq"], "type": r["type"], "text": r["text"]})
        out.append({**c, "events": merged})
    return out


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
