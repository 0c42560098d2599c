"""Python's garbage collector, kept from stalling the server: its full passes made short.

A full pass of the cyclic garbage collector visits every object that may hold a reference
(dicts, lists, coroutines, futures…): with a thousand tables open, six push streams each, about
300,000 of them, 40 to 60 of them a stream. CPython runs one whenever the objects that survived
since the previous one are a quarter of those it found then: every minute or so while commands
flow, each stalling every page and command 70-500 ms on a busy machine (bench.tables).

Most of those objects live as long as their page stays open, and a closed connection holds no
reference cycle (banker.net.connection), so it is freed the moment it closes, by reference
counting, collector or not. So every `FREEZE_SECONDS` the living objects are moved out of the
collector's reach (`gc.freeze()`: the time it takes does not grow with their number); its passes
then visit only what was made since, a few thousand objects. An object frozen while part of a
reference cycle (a request in flight at that moment) would never be collected: every
`SWEEP_SECONDS` everything is handed back and one full pass runs (the stall that every minute
would bring, once in that time), then frozen again.

Between two freezes CPython still ran its own passes over the oldest of what was made since,
more of it at each pass (a thousand tables make a new state for a hundred games a second, a few
hundred objects each): a change on every page took 12 ms at the 95th percentile just after a
freeze and 55 ms just before the next (bench.tables, second by second). One pass over them
before each freeze instead stalled everything 100-180 ms every 10 s. So while the server runs,
CPython's passes visit only the young (`YOUNG_ONLY`: what was made since its last pass, and
what survived one), where nearly every reference cycle ends (a request's, a template's); the
few that outlive two young passes wait for the sweep (tens of kilobytes a second at a thousand
tables' full load: bench/RESULTS.md).
"""

from __future__ import annotations

import asyncio
import gc
import threading

FREEZE_SECONDS = 10.0
SWEEP_SECONDS = 600.0
# CPython's thresholds while the server runs: its own for the two young generations (700 new
# objects, 10 young passes), the oldest's passes left to the sweep (a count never reached).
YOUNG_ONLY = (700, 10, 1 << 30)

# The thresholds are the process's: CPython's own are kept aside by the first collector started
# and given back by the last one closed (several servers in one process: the tests).
_lock = threading.Lock()
_started: set[Collector] = set()
_own = gc.get_threshold()  # CPython's, kept aside while a collector is started


class Collector:
    """Freeze the living objects every FREEZE_SECONDS, sweep every SWEEP_SECONDS (on a loop)."""

    def __init__(self, freeze: float = FREEZE_SECONDS, sweep: float = SWEEP_SECONDS):
        self.freeze_seconds, self.sweep_seconds = freeze, sweep
        self.loop: asyncio.AbstractEventLoop | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.next_sweep = 0.0
        self.sweeps = 0  # full passes run (the first at start)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """A full pass now (everything loaded so far lives as long as the process), then the
        timer; CPython's own passes kept to the young objects until `close` (of the last
        collector of the process still started)."""
        global _own
        self.loop = loop
        with _lock:
            if not _started:
                _own = gc.get_threshold()
                gc.set_threshold(*YOUNG_ONLY)
            _started.add(self)
        self.sweep()
        self.timer = loop.call_later(self.freeze_seconds, self._tick)

    def sweep(self) -> None:
        """Every object back in the collector's reach, one full pass, all frozen again."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.sweeps += 1
        if self.loop is not None:
            self.next_sweep = self.loop.time() + self.sweep_seconds

    def _tick(self) -> None:
        if self.loop is None:
            return
        if self.loop.time() >= self.next_sweep:
            self.sweep()
        else:
            gc.freeze()
        self.timer = self.loop.call_later(self.freeze_seconds, self._tick)

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        with _lock:
            if self in _started:
                _started.remove(self)
                if not _started:
                    gc.set_threshold(*_own)
        self.timer, self.loop = None, None
