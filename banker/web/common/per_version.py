"""What is costly to make of a long game (its story, its snapshot file, its events as the API
gives them) made once per game version and kept while the game stays there: a stranger asking
for it again and again costs a lookup, not a rebuild (issue 33: 16 connections asking a 12,000
command game's snapshot held the Banker's command at p50 3.3 s). When several requests ask at
once, one makes it and the others wait for it.

A kept answer's ETag names its game, version and kind (`etag`): banker.web.common.hygiene keeps
its gzipped bytes by it too, so it is compressed once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from flask import current_app

from banker import snapshot
from banker.web.common.store import get_store

T = TypeVar("T")
MOST_KEPT = 64  # answers kept in all (the oldest goes first)
MOST_KEPT_BYTES = 64 * 2**20  # and at most this many bytes of them


class Kept:
    """One app's kept answers (app.extensions["banker.kept"]), oldest first."""

    def __init__(self):
        self.lock = threading.Lock()
        self.answers: OrderedDict[tuple, object] = OrderedDict()
        self.making: dict[tuple, threading.Lock] = {}

    def get(self, key: tuple, make: Callable[[], T]) -> T:
        with self.lock:
            if key in self.answers:
                self.answers.move_to_end(key)
                return self.answers[key]
            making = self.making.setdefault(key, threading.Lock())
        with making:
            with self.lock:
                if key in self.answers:
                    return self.answers[key]
            value = make()
            with self.lock:
                self._keep(key, value)
                self.making.pop(key, None)
        return value

    def _keep(self, key: tuple, value) -> None:
        answers = self.answers
        for old in [k for k in answers if k[:2] == key[:2] and k[2] != key[2]]:
            del answers[old]  # the game has moved on
        answers[key] = value
        while len(answers) > 1 and (len(answers) > MOST_KEPT or self._bytes() > MOST_KEPT_BYTES):
            answers.popitem(last=False)

    def _bytes(self) -> int:
        return sum(len(v) for v in self.answers.values() if isinstance(v, (bytes, str)))


def kept(kind: str, game_id: str, version: int, make: Callable[[], T], *more: str) -> T:
    """make()'s result for this game at this version (and `more`: whose answer), made once by
    the running app; a game's older versions are dropped when a newer one is kept."""
    answers = current_app.extensions.get("banker.kept")
    if answers is None:
        answers = current_app.extensions.setdefault("banker.kept", Kept())
    return answers.get((kind, game_id, version, *more), make)


def snapshot_file(game_id: str, version: int) -> bytes:
    """The game's snapshot document as a file's bytes (the pause page's download and the API's
    alike), made once per version: a long game's costs the server about a second."""
    return kept("snapshot", game_id, version, lambda: snapshot.dumps(get_store().snapshot(game_id)))


def etag(kind: str, game_id: str, version: int, *more: str) -> str:
    """The strong ETag of a kept answer."""
    return '"' + "-".join((kind, game_id, str(version), *more)) + '"'
