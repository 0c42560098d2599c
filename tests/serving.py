"""The real server for tests: `python -m banker serve` as a process, and a small HTTP client."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent


class Server:
    """`banker serve` on 127.0.0.1 and a free port, over one database file; may be restarted."""

    def __init__(self, db: Path, log: Path):
        self.db, self.log = Path(db), Path(log)
        self.proc: subprocess.Popen | None = None
        self.url = ""
        self.starts = 0

    def start(self, timeout: float = 30) -> str:
        """Start it and wait for the URL it prints; the base URL (http://127.0.0.1:PORT)."""
        self.starts += 1
        log = self.log.with_name(f"{self.log.name}.{self.starts}")
        env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
        with open(log, "w") as out:  # a file, not a pipe: a full pipe would stall the server
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "banker", "serve", "--host", "127.0.0.1", "--port", "0",
                 "--db", str(self.db)],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=self.db.parent,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(r"Open (http://127\.0\.0\.1:\d+)/", log.read_text())
            if found:
                self.url = found.group(1)
                return self.url
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        self.stop()
        raise AssertionError(f"banker serve did not start:\n{log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind, as if the power went."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def call(
    url: str,
    method: str = "GET",
    body=None,
    token: str | None = None,
    headers: dict | None = None,
    timeout: float = 10,
) -> tuple[int, dict, object]:
    """One HTTP request on a fresh connection: (status, headers, parsed JSON body).

    Connection failures (a killed server) raise OSError or http.client.HTTPException.
    """
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        if token:
            sent["Authorization"] = f"Bearer {token}"
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        raw = response.read()
        text = raw.decode()
        return response.status, dict(response.getheaders()), json.loads(text) if text else None
    finally:
        conn.close()
