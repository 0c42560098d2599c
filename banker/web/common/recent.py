"""A few values kept for the moments they are asked again, the least recently used let go first
past a count (thread-safe): the core's answers per state (web/common/may.py), the big screen's
drawn tiles per game (web/display/screen.py)."""

from __future__ import annotations

import threading
from collections import OrderedDict


class Recent:
    """At most `most` values by key; `get` and `put` make a key the most recently used."""

    def __init__(self, most: int):
        self.most = most
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, default=None):
        with self._lock:
            found = self._items.get(key, default)
            if key in self._items:
                self._items.move_to_end(key)
            return found

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.most:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
