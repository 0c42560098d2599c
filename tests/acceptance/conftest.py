"""Black-box acceptance fixtures: the real `banker serve` as a subprocess, spoken to over HTTP.

Nothing here imports banker: the tests see only what an external client sees, and judge it by
the project's API documentation (docs/api.md) and the rule texts.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


class Http:
    """JSON over http.client, one fresh connection per request."""

    def __init__(self, port: int):
        self.port = port

    def request(self, method, path, body=None, token=None, headers=None, raw=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        hdrs = dict(headers or {})
        data = None
        if raw is not None:
            data = raw if isinstance(raw, bytes) else raw.encode()
            hdrs.setdefault("Content-Type", "application/json")
        elif body is not None:
            data = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        if token is not None:
            hdrs["Authorization"] = f"Bearer {token}"
        try:
            conn.request(method, path, body=data, headers=hdrs)
            resp = conn.getresponse()
            text = resp.read().decode("utf-8", "replace")
            ctype = resp.getheader("Content-Type", "")
        finally:
            conn.close()
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = text
        return resp.status, parsed, ctype


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("acceptance")
    db = tmp / "banker.db"
    log = tmp / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "banker", "serve", "--host", "127.0.0.1", "--port", "0",
             "--db", str(db)],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=tmp,
        )  # fmt: skip
    port = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", log.read_text())
        if found:
            port = int(found.group(1))
            break
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    if port is None:
        proc.kill()
        raise AssertionError(f"banker serve did not start:\n{log.read_text()}")
    yield Http(port)
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
