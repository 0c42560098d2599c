"""The real server for tests and benchmarks: `python -m banker serve` as a process, and a small
HTTP client. Every test and bench/ script that needs a running server starts it with `Server`
(or the `serving` context manager); a `banker` command that runs and exits (backup, games, a
serve that must refuse to start, --help) runs with `banker(...)`. `request` is the one HTTP
client (`call` is built on it; tests/table_web.py's HttpTable too)."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

# Debian's chromium, as the browser tests and bench/ launch it (`playwright install` cannot
# download here): never a downloaded build, no sandbox, no network of its own.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

REPO = Path(__file__).resolve().parent.parent


def process_env(extra: dict | None = None) -> dict:
    """The environment of a banker process: this one's, the checkout on PYTHONPATH, UTF-8 out,
    no BANKER_DB unless `extra` sets it."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1",
           "PYTHONIOENCODING": "utf-8"}  # fmt: skip
    env.pop("BANKER_DB", None)
    return {**env, **(extra or {})}


BANKER = [sys.executable, "-m", "banker"]


def run_banker(*args: str, cwd: Path = REPO, stdin: str = "", env: dict | None = None,
               timeout: float = 60, runner: list[str] = BANKER,
               ) -> subprocess.CompletedProcess:  # fmt: skip
    """Run `python -m banker ARGS` to its end: its exit code, stdout and stderr as text.
    `runner` is the command that runs banker (tests/server/unprivileged.py: as another user)."""
    return subprocess.run(
        [*runner, *args], cwd=cwd, env=process_env(env), input=stdin,
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def refused(result: subprocess.CompletedProcess, command: str) -> str:
    """The one sentence on stderr of a refused `banker COMMAND` (exit 1, no traceback, nothing
    on stdout), without its "banker COMMAND: " head."""
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"banker {command}: ")
    assert result.stdout == ""
    return lines[0].removeprefix(f"banker {command}: ")


class Server:
    """`banker serve` on 127.0.0.1 over one database file; may be restarted.

    `port` 0 takes a free one (read back from what the server prints); `args` are more options
    of `banker serve` (say "--public-url", "https://…"). `defaults=True` leaves out --host and
    --db (the server's own defaults; `env` may set BANKER_DB); `runner` as run_banker's. Its
    output goes to a file, never a pipe: a pipe nobody reads fills up and stalls the server.
    """

    def __init__(
        self,
        db: Path,
        log: Path,
        *args: str,
        port: int = 0,
        defaults: bool = False,
        env: dict | None = None,
        runner: list[str] = BANKER,
    ):
        self.db, self.log = Path(db), Path(log)
        self.args, self.port, self.defaults = list(args), port, defaults
        self.env, self.runner = env or {}, runner
        self.proc: subprocess.Popen | None = None
        self.url = ""
        self.starts = 0

    @property
    def output_file(self) -> Path:
        """The file of the latest start's output."""
        return self.log.with_name(f"{self.log.name}.{self.starts}")

    def output(self) -> str:
        """What the server printed since it last started."""
        return self.output_file.read_text(encoding="utf-8")

    def start(self, timeout: float = 30) -> str:
        """Start it and wait for the URL it prints; the base URL (http://127.0.0.1:PORT)."""
        self.starts += 1
        env = process_env(self.env)
        where = [] if self.defaults else ["--host", "127.0.0.1", "--db", str(self.db)]
        with open(self.output_file, "w") as out:
            self.proc = subprocess.Popen(
                [*self.runner, "serve", *where, "--port", str(self.port), *self.args],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=self.db.parent,
            )  # fmt: skip
        found = self.wait_for(r"Open (\S+?)/? on the Banker's phone", timeout)
        printed = re.match(r"https?://[^/]+:(\d+)", found.group(1))
        if not self.port and printed is None:  # no port to find: not left running
            self.stop()
            raise AssertionError(f"banker serve printed no port:\n{self.output()}")
        port = self.port or int(printed.group(1))
        self.url = f"http://127.0.0.1:{port}"  # it listens on loopback whatever it prints
        return self.url

    def wait_for(self, pattern: str, timeout: float = 30) -> re.Match:
        """Wait until the server's output matches `pattern`; the match (else it is stopped)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.output())
            if found:
                return found
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        self.stop()
        raise AssertionError(f"banker serve did not print {pattern!r}:\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind, as if the power went."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        stop(self.proc)


def stop(proc: subprocess.Popen | None) -> None:
    """Stop a server process: SIGTERM, then SIGKILL after 10 s."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def reopen_closed(sockets: list, port: int) -> int:
    """Reopen (to 127.0.0.1:port) each of `sockets` the server has closed, in place, as an
    attacker holding connections does; how many were."""
    reopened = 0
    for i, s in enumerate(sockets):
        try:
            closed = s.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) == b""
        except BlockingIOError:
            closed = False
        except OSError:
            closed = True
        if closed:
            s.close()
            sockets[i] = socket.create_connection(("127.0.0.1", port))
            reopened += 1
    return reopened


@contextmanager
def serving(db: Path, *args: str, **options) -> Iterator[Server]:
    """A started Server on `db` (its output beside it, in serve.log.N), stopped afterwards;
    `options` as Server's."""
    server = Server(db, Path(db).with_name("serve.log"), *args, **options)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def in_process(db: Path, threads: int = 2) -> Iterator[SimpleNamespace]:
    """banker's server (banker.net.serving, push included) on 127.0.0.1 and a free port, on
    `db`, in a thread of this process (a test then reaches the app and its hub): its `app`,
    `url` and `thread`; the server stopped, its thread ended and the store closed afterwards."""
    import threading

    from banker.net.serving import create_server
    from banker.web import create_app

    app = create_app({"DATABASE": str(db)})
    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield SimpleNamespace(app=app, url=f"http://127.0.0.1:{server.effective_port}",
                              thread=thread)  # fmt: skip
    finally:
        server.close()
        thread.join(10)
        app.extensions["banker.store"].close()


_GIVEN: set[int] = set()  # the ports free_port handed out in this run


def first_pushed_event(s: socket.socket, port: int, path: str, command) -> tuple[float, bytes]:
    """On a connected socket `s` (plain or TLS): open the push stream at `path`, wait for its
    `ready`, run command() (it returns the new version), and read until that version's event:
    (seconds from command() to it, the stream's bytes so far)."""
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    seen = b""
    while b"event: ready" not in seen:
        seen += s.recv(4096)
    t0 = time.monotonic()
    want = f"id: {command()}".encode()
    while want not in seen:
        seen += s.recv(4096)
    return time.monotonic() - t0, seen


def read_answer(s: socket.socket, buffer: bytes = b"") -> tuple[bytes, bytes]:
    """One whole HTTP answer from socket `s` (after the bytes already read, `buffer`): (its head
    and as many bytes as its Content-Length says, or all until the server closes without one;
    the bytes read after it). One `recv` may return the head alone: the server writes the body
    after it, and on a busy machine the two come apart."""
    while b"\r\n\r\n" not in buffer:
        chunk = s.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection before its answer")
        buffer += chunk
    head, _, buffer = buffer.partition(b"\r\n\r\n")
    said = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
    length = int(said.group(1)) if said else None
    while length is None or len(buffer) < length:
        chunk = s.recv(65536)
        if not chunk:
            if length is None:
                break
            raise ConnectionError("the server closed the connection within its answer")
        buffer += chunk
    length = len(buffer) if length is None else length
    return head + b"\r\n\r\n" + buffer[:length], buffer[length:]


def free_port() -> int:
    """A port free at this moment on every address, below the range the kernel takes the local
    ports of outgoing connections from (32768 and up on Linux): a port the kernel picked (bind
    to 0) was taken now and then by a test's own client connection before the server it was
    meant for could bind it ("address already in use"). Never the same port twice in a run."""
    for _ in range(1000):
        port = random.randrange(20_000, 32_768)
        if port in _GIVEN:
            continue
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))
            except OSError:
                continue
        _GIVEN.add(port)
        return port
    raise RuntimeError("no free port from 20000 to 32767")


class Reply:
    """One HTTP answer, read as Flask's test response is: `status_code`, `headers`, `data`,
    `mimetype`, `get_json()` (None when the body is not JSON)."""

    def __init__(self, status_code: int, headers, data: bytes):
        self.status_code, self.headers, self.data = status_code, headers, data
        self.content_type = self.header("Content-Type")
        self.mimetype = self.content_type.partition(";")[0].strip()

    def header(self, name: str, default: str = "") -> str:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), default)

    def get_json(self):
        if not self.data or "json" not in self.mimetype:
            return None
        return json.loads(self.data.decode())


def request(
    url: str,
    method: str = "GET",
    body=None,
    token: str | None = None,
    headers: dict | None = None,
    raw: bytes | str | None = None,
    timeout: float = 10,
    source: str | None = None,
) -> Reply:
    """One HTTP request on a fresh connection: a JSON `body`, or `raw` bytes sent as they are
    (as application/json unless `headers` say otherwise); from the local address `source`
    (say 127.0.0.2) when given.

    Connection failures (a killed server) raise OSError or http.client.HTTPException.
    """
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=timeout, source_address=source and (source, 0)
    )
    try:
        sent = dict(headers or {})
        data = None
        if raw is not None:
            data = raw if isinstance(raw, bytes) else raw.encode()
            if not any(k.lower() == "content-type" for k in sent):
                sent["Content-Type"] = "application/json"
        elif body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        if token:
            sent["Authorization"] = f"Bearer {token}"
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        # Header names are case-insensitive (the server writes them in lower case, as HTTP/2
        # does): an http.client message finds "Retry-After" as "retry-after".
        return Reply(response.status, response.msg, response.read())
    finally:
        conn.close()


def call(url: str, method: str = "GET", body=None, token: str | None = None,
         headers: dict | None = None, timeout: float = 10) -> tuple[int, dict, object]:  # fmt: skip
    """`request`, as (status, headers, parsed JSON body)."""
    reply = request(url, method, body, token, headers, timeout=timeout)
    text = reply.data.decode()
    return reply.status_code, reply.headers, json.loads(text) if text else None


# -- nginx in front, as docs/hosting.md and docs/scaling.md set it up ------------------------

NGINX = "/usr/sbin/nginx"
# What docs/hosting.md's nginx sends banker, and what push needs (the same lines as there).
NGINX_PROXY = """
        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header Connection "";
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Host $host;
        proxy_read_timeout 1h;
"""


class Nginx:
    """nginx on a free loopback port in front of banker serve(s), in the foreground (its own
    folder for its files; killed by stop()). `sites` is the inside of its http { } block; the
    port it listens on is `port` (put `listen PORT` in sites with .port)."""

    def __init__(self, folder: Path, port: int | None = None):
        self.folder = Path(folder)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self, sites: str, timeout: float = 15) -> str:
        for name in ("logs", "tmp"):
            (self.folder / name).mkdir(parents=True, exist_ok=True)
        user = "user root;" if os.geteuid() == 0 else ""
        conf = self.folder / "nginx.conf"
        conf.write_text(
            f"{user}\nworker_processes 1;\npid {self.folder}/nginx.pid;\n"
            f"error_log {self.folder}/logs/error.log warn;\n"
            "events { worker_connections 4096; }\n"
            "http {\n"
            f"    access_log off;\n    client_body_temp_path {self.folder}/tmp;\n"
            f"    proxy_temp_path {self.folder}/tmp;\n"
            f"{sites}\n}}\n"
        )
        with open(self.folder / "logs" / "stderr", "w") as err:
            self.proc = subprocess.Popen(
                [NGINX, "-p", str(self.folder), "-c", str(conf), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL, stderr=err,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self.url
            except OSError:
                time.sleep(0.05)
        self.stop()
        log = (self.folder / "logs" / "stderr").read_text()
        raise AssertionError(f"nginx did not start:\n{log}")

    def stop(self) -> None:
        stop(self.proc)


@contextmanager
def nginx(folder: Path, sites: str, port: int | None = None) -> Iterator[Nginx]:
    """A started Nginx with `sites` (its {port} replaced by the port it listens on)."""
    proxy = Nginx(folder, port)
    proxy.start(sites.replace("{port}", str(proxy.port)))
    try:
        yield proxy
    finally:
        proxy.stop()
