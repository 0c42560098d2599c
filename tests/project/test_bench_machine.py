"""bench.push_browser's account of the machine's CPU per change: who spent it."""

import os
import signal
import subprocess
import sys

from bench.push_browser import rows, spenders

# 0.3 s of CPU, then a word on stdout, then asleep.
BUSY = (
    "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
    "print('burnt', flush=True)\ntime.sleep(30)\n"
)


def _spent_by(server_code: str) -> dict:
    """What `spenders` says was spent while a "server" running `server_code` (or its child)
    burned 0.3 s of CPU."""
    server = subprocess.Popen(
        [sys.executable, "-c", server_code], stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        before = spenders(server.pid)
        assert server.stdout.readline() == b"burnt\n"
        after = spenders(server.pid)
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # the server and its child
        server.wait()
        server.stdout.close()
    return {who: after[who] - before[who] for who in after}


def test_a_server_s_own_cpu_is_counted_as_the_server_s():
    spent = _spent_by(BUSY)
    assert set(spent) == {"chromium", "server", "bench"}
    # The burn and the start of Python; not the rest of the machine. (This process and any
    # browser the suite left open in it are counted too, as "bench" and "chromium": what they
    # do meanwhile is theirs, so it is not asserted here.)
    assert 0.3 <= spent["server"] < 0.8, spent


def test_the_cpu_of_a_server_s_child_is_counted_as_the_server_s():
    child = f"import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', {BUSY!r}])\ntime.sleep(30)"  # noqa: E501
    spent = _spent_by(child)
    assert 0.3 <= spent["server"] < 0.8, spent


def test_the_machine_row_divides_the_work_among_the_cores(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    result = {"by_page": {}, "slowest": [], "missed": 0,
              "machine": {"chromium": 0.040, "server": 0.008, "bench": 0.012}}  # fmt: skip
    found = [r for r in rows(result) if "machine's CPU" in r[0]]
    assert found == [(
        "  the machine's CPU per change: Chromium / the server / this bench", "",
        "40.0 / 8.0 / 12.0 ms (30.0 ms on each of 2 cores)", None,
    )]  # fmt: skip
