"""The garbage collector kept from stalling the server (banker/net/collector.py): while it runs,
CPython's own passes visit only young objects; what a reference cycle leaves behind among the
older ones, or frozen, is freed by the sweep; CPython's thresholds come back when it stops."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
import weakref

import pytest

from banker.net import collector as collector_module
from banker.net.collector import YOUNG_ONLY, Collector
from tests.serving import in_process, request

FOUND = (600, 9, 9)  # CPython's thresholds as a test's collectors find them


@pytest.fixture
def alone(monkeypatch):
    """As if no other collector of this process were started (the browser tests' server runs
    through the whole suite), CPython's thresholds FOUND; the process's own back after."""
    monkeypatch.setattr(collector_module, "_started", set())
    monkeypatch.setattr(collector_module, "_own", collector_module._own)  # given back after
    before = gc.get_threshold()
    gc.set_threshold(*FOUND)
    yield FOUND
    gc.set_threshold(*before)


class Node:
    """An object that can hold a reference to itself (a cycle only the collector frees)."""


def _old_cycle() -> weakref.ref:
    """A cycle that survived the young passes (as a request's objects alive across them), then
    let go: only a pass over the older objects frees it."""
    node = Node()
    node.me = node
    gc.collect(1)  # it survives both young generations: among the oldest now
    return weakref.ref(node)


def _on_a_loop_of_its_own(body, collector: Collector) -> None:
    """`body(wait)` with `collector` started on a new loop in a thread of its own (`wait(s)`: that
    loop runs for s seconds): a test before may have left this thread's loop running, as
    Playwright's sync API does. The collector is closed and everything unfrozen after."""
    failed: list[BaseException] = []

    def run() -> None:
        loop = asyncio.new_event_loop()
        try:
            collector.start(loop)
            body(lambda seconds: loop.run_until_complete(asyncio.sleep(seconds)))
        except BaseException as e:  # raised again in the test's own thread
            failed.append(e)
        finally:
            collector.close()
            loop.close()
            gc.unfreeze()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


def test_cpythons_own_passes_stay_young_and_an_old_cycle_waits_for_the_sweep(alone):
    collector = Collector(freeze=0.05, sweep=1.0)

    def body(wait) -> None:
        assert gc.get_threshold() == YOUNG_ONLY
        dead = _old_cycle()
        garbage = [Node() for _ in range(20_000)]  # many young passes, none of the oldest
        del garbage
        wait(0.12)  # freezes meanwhile
        assert dead() is not None and collector.sweeps == 1  # only the first, at start
        wait(1.0)
        assert collector.sweeps >= 2 and dead() is None

    _on_a_loop_of_its_own(body, collector)
    assert gc.get_threshold() == alone


def test_a_cycle_let_go_after_it_was_frozen_is_freed_by_the_sweep():
    collector = Collector(freeze=0.05, sweep=0.5)

    def body(wait) -> None:
        node = Node()
        node.me = node
        dead = weakref.ref(node)
        wait(0.12)  # frozen while still held
        del node
        gc.collect()
        assert dead() is not None  # out of every pass's reach, but the sweep's
        wait(0.6)
        assert collector.sweeps >= 2 and dead() is None

    _on_a_loop_of_its_own(body, collector)


def test_cpythons_thresholds_come_back_when_the_last_of_two_collectors_closes(alone):
    """Two servers in one process (as the tests run them): whichever closes first, CPython's
    passes stay young while the other runs, and its own thresholds come back after both."""
    loop = asyncio.new_event_loop()  # never run: the collectors' timers only wait on it
    first, second = Collector(), Collector()
    try:
        first.start(loop)
        second.start(loop)
        first.close()
        assert gc.get_threshold() == YOUNG_ONLY
        first.close()  # closed twice: nothing more
        assert gc.get_threshold() == YOUNG_ONLY
        second.close()
        assert gc.get_threshold() == alone
    finally:
        first.close()
        second.close()
        loop.close()
        gc.unfreeze()


def test_the_server_keeps_cpythons_passes_young_while_it_serves_and_gives_them_back_after(
    tmp_path, alone
):
    """banker's own server (banker.net.serving, as `banker serve` makes it) starts the collector
    with its loop and closes it when it stops: CPython's thresholds are YOUNG_ONLY only while it
    serves."""
    try:
        with in_process(tmp_path / "banker.db") as served:
            deadline = time.monotonic() + 10
            while gc.get_threshold() != YOUNG_ONLY and time.monotonic() < deadline:
                time.sleep(0.01)
            assert request(served.url + "/").status_code == 200  # serving
            assert gc.get_threshold() == YOUNG_ONLY
            thread = served.thread
    finally:
        gc.unfreeze()
    assert not thread.is_alive()
    assert gc.get_threshold() == alone
