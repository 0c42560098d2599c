"""The log read back through sqlite-utils' `db.query()`: events, commands, the games list, the
story's rows and the snapshot."""

from __future__ import annotations

import json
from collections.abc import Callable

from banker import rules
from banker import snapshot as snapshots
from banker.store import log
from banker.store.database import Database, dumps
from banker.store.errors import GameNotFound
from banker.store.games import Games

# The names as they are now (a player renamed or added since the game was created).
_GAME_LIST = (
    "select g.id as game_id, g.edition, g.version, g.created_at, "
    "(select json_group_array(json_extract(p.value, '$.name')) "
    "from json_each(g.state, '$.players') p) as names, "
    "json_extract(g.state, '$.status') as status, "
    "(select max(at) from commands c where c.game_id = g.id) as last from games g"
)


def _listed(rows) -> list[dict]:
    """Rows of _GAME_LIST as list_games gives them, latest first."""
    games = [
        {
            "game_id": r["game_id"],
            "edition": r["edition"],
            "names": json.loads(r["names"]),
            "status": r["status"],
            "version": r["version"],
            "at": r["last"] or r["created_at"] or "",
        }
        for r in rows
    ]
    return sorted(games, key=lambda g: g["at"], reverse=True)


# What an event's row keeps of a sentence stating a player's cash (rules.WithCash): whose cash,
# and the wording for everyone else under private_cash (rules.text_for).
_PRIVATE = (
    "json_extract(data, '$.cash_of') as cash_of, "
    "json_extract(data, '$.without_cash') as without_cash"
)


# An event as banker.story reads it (Reads.story_events).
_STORY_COLUMNS = (
    "seq, version, type, at, case when type = 'rent_claim_opened' then text else '' end as text, "
    "data"
)


def _story_rows(rows) -> list[dict]:
    """Story event rows with their data spread in."""
    return [{**json.loads(r.pop("data")), **r} for r in rows]


class Reads:
    """What the pages, the story and the snapshots read back of a game.

    The events' sentences are read as `seat` ("banker", a player id, "display") is told them:
    with private_cash, a sentence stating another player's cash in hand comes without it."""

    def __init__(self, database: Database, games: Games, clock: Callable[[], str]):
        self.database, self.games, self.clock = database, games, clock

    STORY_EVENT_TYPES = (
        "started",
        "rolled",
        "paid",
        "rent_claim_opened",
        "rent_asked",
        "player_added",
        "left",
        "bankrupt",  # why a player is out, in words (banker.story.out_reasons)
    )

    def _told(self, game_id: str, seat: str, rows) -> list[dict]:
        """Event rows (with _PRIVATE's columns) as `seat` is told them, those columns dropped."""
        state = self.games.get(game_id).state
        out = []
        for r in rows:
            e = dict(r)
            if "undone" in e:
                e["undone"] = bool(e["undone"])
            e["text"] = rules.text_for(state, seat, e)
            del e["cash_of"], e["without_cash"]
            out.append(e)
        return out

    def _at_version(self, game_id: str, key: tuple, sql: str, params: list) -> list:
        """The rows of a query, read once per version of the game: a change is drawn for every page
        following it (the Banker's, each player's, the big screen), and each asked SQLite for
        the same latest events (a third of the render thread's time at 800 tables). Kept
        beside the game's state only when no command came between (treat them as read-only)."""
        game = self.games.get(game_id)
        version, kept = game.version, game.reads
        if kept is not None and kept[0] == version and key in kept[1]:
            return kept[1][key]
        rows = list(self.database.connection().query(sql, params))
        if game.version == version:  # no command committed meanwhile: these rows are its
            if kept is None or kept[0] != version:
                game.reads = (version, {key: rows})
            else:
                kept[1][key] = rows
        return rows

    def recorded(self, game_id: str, version: int, events: list[dict], at: str) -> None:
        """(After a command's commit, before its version is the game's.) Its latest events as
        _at_version would read them at `version`, made from those read at the version before
        and the command's own events: the pages drawn for the change ask SQLite for none
        (from the render thread, each query waited for Python's lock again, under load
        milliseconds). Not after an undo (it marks earlier events undone): read afresh."""
        game = self.games.get(game_id)
        if game.span is not None:
            first, last = game.span
            game.span = (first or at, max(last or at, at))
        undo = any(e["type"] == "undone" for e in events)
        self._story_recorded(game, version, events, at, undo)
        kept = game.reads
        if kept is None or kept[0] != version - 1 or undo:
            return
        rows = [{"seq": e["seq"], "type": e["type"], "text": e["text"], "undone": 0,
                 "cash_of": e.get("cash_of"), "without_cash": e.get("without_cash")}
                for e in events]  # fmt: skip
        made: dict[tuple, list] = {("latest", version): rows}
        newest = [{k: r[k] for k in ("seq", "type", "text", "cash_of", "without_cash")}
                  for r in reversed(rows)]  # fmt: skip
        for key, before in kept[1].items():
            if key[0] == "recent":
                made[key] = (newest + before)[: key[1]]
        game.reads = (version, made)

    def _story_recorded(self, game, version: int, events: list, at: str, undo: bool) -> None:
        """The story's events (story_events) moved on by a command's own, as their rows would
        read (their data through JSON, as stored): the story asks SQLite nothing for it. An
        undo marks earlier events undone: read afresh."""
        kept = game.story_events
        if kept is None or not events:
            return
        if undo or kept[0] != events[0]["seq"] - 1:  # a reader not caught up reads them itself
            if undo:
                game.story_events = None
            return
        rows = [  # as _STORY_COLUMNS reads them, then told as story_events tells them
            {"seq": e["seq"], "version": version, "type": e["type"], "at": at, "undone": 0,
             "text": e["text"] if e["type"] == "rent_claim_opened" else "",
             "data": dumps({k: v for k, v in e.items() if k not in log.EVENT_COLUMNS})}
            for e in events
        ]  # fmt: skip
        game.story_events = (events[-1]["seq"], kept[1] + self._told_in_story(rows))

    def recent_events(self, game_id: str, limit: int, seat: str = "banker") -> list[dict]:
        """The game's `limit` latest events not undone, newest first: [{"seq","type","text"}]."""
        rows = self._at_version(
            game_id,
            ("recent", limit),
            f"select seq, type, text, {_PRIVATE} from events where game_id = ? and not undone "
            "order by seq desc limit ?",
            [game_id, limit],
        )
        return self._told(game_id, seat, rows)

    def events(self, game_id: str, seat: str = "banker") -> list[dict]:
        """Every accepted event of a game, oldest first: [{"seq","type","text","at","undone"}]."""
        self.games.get(game_id)
        rows = self.database.connection().query(
            f"select seq, type, text, at, undone, {_PRIVATE} from events where game_id = ? "
            "order by seq",
            [game_id],
        )
        return self._told(game_id, seat, rows)

    def latest_events(self, game_id: str, seat: str = "banker") -> list[dict]:
        """The events of the game's latest accepted command: [{"seq","type","text","undone"}]."""
        version = self.games.get(game_id).state["version"]
        return self._told(game_id, seat, self._latest_rows(game_id, version))

    def _latest_rows(self, game_id: str, version: int) -> list:
        """The rows of the events of command `version` (kept per version: _at_version)."""
        return self._at_version(
            game_id,
            ("latest", version),
            f"select seq, type, text, undone, {_PRIVATE} from events where game_id = ? and "
            "version = ? order by seq",
            [game_id, version],
        )

    def private_words(self, game_id: str, version: int) -> list[dict]:
        """For each event of command `version`, in order, what its row keeps of a sentence
        stating a player's cash: {"cash_of", "without_cash"}, or {} (Answer.private)."""
        rows = self.database.connection().query(
            f"select {_PRIVATE} from events where game_id = ? and version = ? order by seq",
            [game_id, version],
        )
        return [{k: v for k, v in r.items() if v is not None} for r in rows]

    def events_since(self, game_id: str, version: int, types: tuple[str, ...]) -> list[dict]:
        """The events of `types` made by the commands after `version` and not undone, oldest
        first, each with its data and the key scope of the command that made it ("" when sent
        by the Banker's pages or without a key): [{"seq","version","type","text","data",
        "key_scope"}]. What a player's page tells that player of what happened since it last
        looked (at most the latest 50 commands)."""
        current = self.games.get(game_id).state["version"]
        if version == current - 1 and not any(
            r["type"] in types for r in self._latest_rows(game_id, current)
        ):
            return []  # one command since, whose events are kept: none of these types
        marks = ", ".join("?" for _ in types)
        since = max(version, current - 50)
        rows = self._at_version(
            game_id,
            ("since", since, types),
            "select e.seq, e.version, e.type, e.text, e.data, c.key_scope from events e "
            "join commands c on c.game_id = e.game_id and c.version = e.version "
            f"where e.game_id = ? and e.version > ? and not e.undone and e.type in ({marks}) "
            "order by e.seq",
            [game_id, since, *types],
        )
        return [{**r, "data": json.loads(r["data"] or "{}")} for r in rows]

    def offers_made(self, game_id: str, player_id: str) -> dict[str, dict]:
        """Every trade offer `player_id` made in this game, by id: {"from", "to"}."""
        rows = self.database.connection().query(
            "select data from events where game_id = ? and type = 'trade_offered' "
            "and json_extract(data, '$.from') = ?",
            [game_id, player_id],
        )
        offers = (json.loads(r["data"]) for r in rows)
        return {o["offer"]: o for o in offers if "offer" in o}

    def list_games(self) -> list[dict]:
        """Every game, latest first: [{"game_id","edition","names","status","version","at"}]."""
        return _listed(self.database.connection().query(_GAME_LIST))

    def known_games(self, game_ids: list[str]) -> list[dict]:
        """The games among `game_ids` (at most 100 looked at), as list_games gives them: a home
        page reads only the games its browser knows, never every game of the server."""
        ids = list(dict.fromkeys(i for i in game_ids if i))[:100]
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        return _listed(
            self.database.connection().query(f"{_GAME_LIST} where g.id in ({marks})", ids)
        )

    def game_count(self) -> int:
        """How many games the database holds (the ceiling on new games counts them)."""
        return self.database.connection()["games"].count

    def commands(self, game_id: str) -> list[dict]:
        """Every accepted command of a game, in the order it was applied."""
        self.games.get(game_id)
        rows = self.database.connection().query(
            "select command from commands where game_id = ? order by version", [game_id]
        )
        return [json.loads(r["command"]) for r in rows]

    def replayed_state(self, game_id: str) -> dict:
        """The game's state rebuilt from its creation and stored commands (a check of the log)."""
        row = self.database.one("select edition, names, options from games where id = ?", [game_id])
        if row is None:
            raise GameNotFound(f"There is no game {game_id!r}.")
        return rules.replay(
            game_id,
            row["edition"],
            json.loads(row["names"]),
            json.loads(row["options"]),
            self.commands(game_id),
        )

    # -- the story of a game: cheap reads for banker.story -----------------------------------------

    def story_events(self, game_id: str) -> list[dict]:
        """The events banker.story reads, not undone, oldest first, with their data.

        [{"seq", "version", "type", "at", "text" (rent claims' only, else ""), **data}]; only
        STORY_EVENT_TYPES, so that a long game's story reads a few thousand small rows. An event
        kept without its data (recorded by an earlier release where these rules made no such
        event: banker.snapshot) is not told in the story.

        Read once, then only the events after the newest read (the game's memory keeps them):
        every change of a long game asked again for its whole story, thousands of rows parsed
        afresh (11 ms of a 1,000-command game's every change). An undo marks earlier events
        undone: the events after it are read whole again. Treat the list as read-only.
        """
        game = self.games.get(game_id)
        kept = game.story_events
        if kept is not None:
            rows = self.database.connection().query(
                f"select {_STORY_COLUMNS}, undone from events where game_id = ? and seq > ? "
                "order by seq",
                [game_id, kept[0]],
            )
            rows = list(rows)
            if not rows:
                return kept[1]
            if not any(r["type"] == "undone" for r in rows):
                events = kept[1] + self._told_in_story(rows)
                game.story_events = (rows[-1]["seq"], events)
                return events
        last = self.database.one(
            "select coalesce(max(seq), 0) as seq from events where game_id = ?", [game_id]
        )["seq"]
        marks = ", ".join("?" for _ in self.STORY_EVENT_TYPES)
        rows = self.database.connection().query(
            f"select {_STORY_COLUMNS} from events where game_id = ? and seq <= ? and not undone "
            f"and type in ({marks}) and data != '{{}}' order by seq",
            [game_id, last, *self.STORY_EVENT_TYPES],
        )
        events = _story_rows(rows)
        game.story_events = (last, events)
        return events

    def _told_in_story(self, rows: list[dict]) -> list[dict]:
        """Event rows (with `undone`) as story_events gives them: its own filter, data spread in."""
        told = [
            r for r in rows
            if not r["undone"] and r["type"] in self.STORY_EVENT_TYPES and r["data"] != "{}"
        ]  # fmt: skip
        for r in told:
            del r["undone"]
        return _story_rows(told)

    def states_at(self, game_id: str, versions) -> dict[int, dict]:
        """The players and deeds right after each of these versions' commands:
        {version: {"players": [...], "properties": {...}}} as in the public state.

        Read from what the commands kept for the story (each round's first roll's previous
        command) or from their whole answer (keyed commands); version 0 has none. A command's
        row never changes: each version is read once while the game's state is kept in memory
        (treat the states as read-only).
        """
        kept = self.games.get(game_id).story_states
        wanted = sorted({int(v) for v in versions if int(v) > 0})
        missing = [v for v in wanted if v not in kept]
        for i in range(0, len(missing), 500):
            chunk = missing[i : i + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = self.database.connection().query(
                "select version, json_extract(response, '$.state.players') as players, "
                "json_extract(response, '$.state.properties') as props from commands "
                f"where game_id = ? and version in ({marks}) and response != ''",
                [game_id, *chunk],
            )
            kept.update(
                (
                    r["version"],
                    {"players": json.loads(r["players"]), "properties": json.loads(r["props"])},
                )
                for r in rows
            )
        return {v: kept[v] for v in wanted if v in kept}

    def time_span(self, game_id: str) -> tuple[str | None, str | None]:
        """When the game's first and latest commands were recorded (ISO UTC), or Nones: read
        once (every command's row scanned), then kept beside the game's state and moved on by
        each command (`recorded`)."""
        game = self.games.get(game_id)
        if game.span is not None:
            return game.span
        version = game.version
        row = self.database.one(
            "select min(at) as first, max(at) as last from commands where game_id = ?", [game_id]
        )
        span = row["first"], row["last"]
        if game.version == version:  # no command committed meanwhile
            game.span = span
        return span

    # -- snapshots (pause and resume) ------------------------------------------------------------

    def _log(self, db, game_id: str) -> tuple[list[dict], list[dict]]:
        """The game's commands and events as its snapshot file lists them."""
        commands = [
            {"version": r["version"], "at": r["at"], "command": json.loads(r["command"])}
            for r in db.query(
                "select version, at, command from commands where game_id = ? order by version",
                [game_id],
            )
        ]
        events = [
            {**r, "undone": bool(r["undone"])}
            for r in db.query(
                "select seq, version, type, text, at, undone from events "
                "where game_id = ? order by seq",
                [game_id],
            )
        ]
        return commands, events

    def log_bytes(self, game_id: str) -> int:
        """The bytes the game's commands and events take in its snapshot file (under the
        game's lock): read once per game, then kept up to date by the store's writes."""
        commands, events = self._log(self.database.connection(), game_id)
        return sum(snapshots.entry_bytes(e) for e in commands + events)

    def snapshot(self, game_id: str) -> dict:
        """The game as a snapshot document (see banker.snapshot), read at one version."""
        game = self.games.get(game_id)
        with game.lock:  # no command of this game is half-way between the reads below
            db = self.database.connection()
            row = self.database.one(
                "select edition, names, options, created_at from games where id = ?", [game_id]
            )
            commands, events = self._log(db, game_id)
            state = self.games.state(game_id)  # with undo's states: they travel with the snapshot
        return snapshots.build(
            game_id,
            row["edition"],
            json.loads(row["names"]),
            json.loads(row["options"]),
            row["created_at"],
            commands,
            events,
            state,
            exported_at=self.clock(),
        )
