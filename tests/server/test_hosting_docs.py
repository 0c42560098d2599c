"""docs/hosting.md (and docs/scaling.md) followed line by line where a test can: every `banker`
command they give is one banker's parser takes, the setup steps name what this system has, the
files they name exist, nginx with the path block as written (a snapshot of over 1 MB reaches
banker) and with the error page lines in front of a stopped banker, Caddy with the home
network's HTTPS recipe, the backup, restore and new-link steps as written, where the start and
the log are written, the Python it asks for, the manifest's lifetime it states, and a built
wheel left in the checkout ignored by git. The systemd unit: tests/server/test_systemd_unit.py."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import time
import tomllib
import urllib.error
import urllib.request

import pytest

from banker.__main__ import parser, serve_settings
from banker.cli import Fatal
from banker.store import Store
from tests.serving import (
    BANKER,
    REPO,
    first_pushed_event,
    free_port,
    nginx,
    process_env,
    request,
    run_banker,
    serving,
)

SCALING = (REPO / "docs" / "scaling.md").read_text()

HOSTING = (REPO / "docs" / "hosting.md").read_text()


def blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", HOSTING, re.S)


def test_the_nginx_path_block_is_complete():
    (block,) = [b for b in blocks("nginx") if b.startswith("location /monopoly/")]
    assert "client_max_body_size 6m;" in block
    assert "proxy_pass http://127.0.0.1:8000;" in block


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_nginx_with_the_path_block_passes_a_snapshot_of_over_1_mb_to_banker(tmp_path):
    (block,) = [b for b in blocks("nginx") if b.startswith("location /monopoly/")]
    port, proxy = free_port(), free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"user root; daemon off; pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log;\n"
        "events {}\nhttp {\n"
        f"  access_log off; client_body_temp_path {tmp_path}/body;\n"
        f"  proxy_temp_path {tmp_path}/proxy;\n"
        f"  server {{ listen 127.0.0.1:{proxy};\n"
        + block.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
        + "  }\n}\n"
    )
    public = ["--public-url", f"http://127.0.0.1:{proxy}/monopoly"]
    with serving(tmp_path / "b.db", *public, port=port):
        nginx = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(tmp_path)])
        try:
            for _ in range(100):
                try:
                    request(f"http://127.0.0.1:{proxy}/monopoly/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            home = request(f"http://127.0.0.1:{proxy}/monopoly/")
            big = b'{"format": "banker-snapshot", "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'
            r = request(f"http://127.0.0.1:{proxy}/monopoly/api/v1/games/import", "POST", raw=big)
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)
    assert home.status_code == 200 and 'action="/monopoly/games"' in home.data.decode()
    assert r.status_code in (400, 422), r.data[:200]  # banker's answer, not nginx's own 413
    assert r.get_json()["error"]["code"]


def test_the_upgrade_steps_are_a_stop_a_backup_a_reinstall_and_a_start_by_hand_and_as_a_service():
    steps = HOSTING[HOSTING.index("## Upgrading") : HOSTING.index("## Old games and lost links")]
    for words in (
        "Stop it (Ctrl-C)",
        "banker backup before-upgrade.db",
        "pip install\n   --upgrade",
        "systemctl stop banker",
        "banker backup /var/lib/banker/before-upgrade.db",
        "pip install --upgrade",
        "systemctl start banker",
        "numbered steps each",
    ):
        assert words in steps, words


def test_the_python_the_docs_ask_for_is_the_one_the_package_requires():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"
    assert "Python 3.11 or newer" in HOSTING


def test_the_manifests_lifetime_in_the_docs_is_the_servers(client):
    r = client.get("/manifest.webmanifest")
    assert r.headers["Cache-Control"] == "public, max-age=86400"  # a day
    assert "the web app manifest and `/favicon.ico` a day" in HOSTING


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_built_wheel_and_build_files_left_in_the_checkout_are_ignored_by_git(tmp_path):
    shutil.copy(REPO / ".gitignore", tmp_path / ".gitignore")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for name in ("dist/banker-0.1.0-py3-none-any.whl", "banker-0.1.0-py3-none-any.whl",
                 "build/lib/banker/__init__.py", "banker.egg-info/PKG-INFO"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("built")
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=tmp_path, capture_output=True, text=True, check=True)  # fmt: skip
    assert status.stdout.split() == ["??", ".gitignore"]


# -- every command the docs give -------------------------------------------------------------

RUNNERS = ("runuser -u banker -- ", "/opt/banker/.venv/bin/", ".venv/bin/")


def banker_commands(text: str) -> list[str]:
    """Every `banker …` command line in `text`: the lines of its sh blocks and its inline code,
    without a runner before them (runuser, the venv's path) or a comment after."""
    found = []
    pieces = [line for b in re.findall(r"```sh\n(.*?)```", text, re.S) for line in b.splitlines()]
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    pieces += [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]
    for piece in pieces:
        piece = re.sub(r"^0 4 \* \* \* ", "", piece.split(" #")[0].strip())  # a cron line
        for runner in RUNNERS:
            piece = piece.replace(runner, "")
        if re.match(r"banker (serve|backup|games|error-pages)\b(?!:)|banker --version", piece):
            found.append(piece.replace(" [GAME…]", "").split(" >")[0])
    return found


@pytest.mark.parametrize("doc", ["hosting.md", "scaling.md"])
def test_every_banker_command_the_docs_give_is_one_banker_takes(doc):
    commands = banker_commands((REPO / "docs" / doc).read_text())
    assert len(commands) >= (12 if doc == "hosting.md" else 2)
    for command in commands:
        words = shlex.split(command)[1:]
        if words == ["--version"] or len(words) == 1:  # the command named, not given
            continue
        try:
            args = parser().parse_args(words)
            if args.command == "serve":
                serve_settings(args)  # its values are checked there
        except (SystemExit, Fatal):
            pytest.fail(f"{doc}: banker refuses {command!r}")


def test_the_setup_steps_name_the_systems_python_runuser_and_make_the_log_folder():
    setup = (
        blocks("sh")[1]
        if "useradd" in blocks("sh")[1]
        else next(b for b in blocks("sh") if "useradd" in b)
    )
    assert "install -d -o banker -g banker -m 750 /var/lib/banker /var/log/banker" in setup
    assert "/usr/bin/python3 -m venv /opt/banker/.venv" in setup
    assert "/opt/banker/.venv/bin/banker --version" in setup
    new_enough = "import sys; print(sys.version_info >= (3, 11))"
    version = subprocess.run(["/usr/bin/python3", "-c", new_enough], capture_output=True, text=True)
    assert version.stdout.strip() == "True"  # the Python named is one banker runs on
    assert shutil.which("runuser"), "runuser (util-linux) is what the docs use"
    # the backups: banker's own crontab, into a folder of banker's (as root they would be
    # root's; as banker into /var/backups itself, refused)
    assert "crontab -u banker -e" in HOSTING
    assert "install -d -o banker -g banker -m 700 /var/backups/banker" in HOSTING
    assert "sudo -u banker" not in HOSTING.replace("`sudo -u banker` does the same", "")
    for block in blocks("sh"):
        assert subprocess.run(["bash", "-n"], input=block, text=True).returncode == 0, block


def test_the_files_the_docs_name_exist():
    for doc in (HOSTING, SCALING):
        for path in set(re.findall(r"tests/[\w/]+\.py", doc)):
            assert (REPO / path).is_file(), path


# -- where the start and the log are written -------------------------------------------------


def test_the_start_is_written_to_standard_output_and_the_log_to_standard_error(tmp_path):
    out, err = tmp_path / "out", tmp_path / "err"
    with open(out, "w") as o, open(err, "w") as e:
        proc = subprocess.Popen([*BANKER, "serve", "--host", "127.0.0.1", "--port", "0", "--db",
                                 str(tmp_path / "b.db")], stdout=o, stderr=e,
                                env=process_env())  # fmt: skip
        try:
            for _ in range(600):
                if "Banker's phone" in out.read_text():
                    break
                time.sleep(0.05)
            base = re.search(r"Open (http://\S+?)/ on", out.read_text()).group(1)
            port = base.rsplit(":", 1)[1]
            # a form posted from another site: the log says so (on standard error)
            request(f"http://127.0.0.1:{port}/games", "POST", raw="players=Ann",
                    headers={"Origin": "https://evil.example",
                             "Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    assert out.read_text().startswith("Banker created a new database at ")
    assert "another site" in err.read_text() and "Banker" not in err.read_text().split("\n")[0][:6]
    assert "Banker created" not in err.read_text()
    assert "banker serve` writes its start to standard output" in " ".join(HOSTING.split())


# -- nginx's error pages, Caddy over HTTPS at home -------------------------------------------


def nginx_root_site(port: int, errors) -> str:
    """hosting.md's nginx `server` block (without TLS, on `port` of loopback) with its error page
    lines added as it says, and their `map`."""
    (site,) = [b for b in blocks("nginx") if b.startswith("server {")]
    (mapping,) = [b for b in blocks("nginx") if b.startswith("map $uri")]
    (lines,) = [b for b in blocks("nginx") if "error_page 502 504" in b]
    site = re.sub(r"    listen 443 ssl;\n.*?privkey\.pem;\n", "    listen 127.0.0.1:{port};\n",
                  site, flags=re.S)  # fmt: skip
    site = site.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
    lines = lines.replace("/var/www/banker-errors/", f"{errors}/")
    return mapping + site.rstrip().removesuffix("}") + lines + "}\n"


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_nginx_with_the_error_page_lines_shows_bankers_page_while_banker_is_down(tmp_path):
    errors = tmp_path / "banker-errors"
    made = run_banker("error-pages", str(errors))
    assert made.returncode == 0 and sorted(p.name for p in errors.iterdir()) == [
        "site.css", "unavailable.html", "unavailable.json"]  # fmt: skip
    port = free_port()
    with serving(tmp_path / "b.db", port=port) as server:
        with nginx(tmp_path / "nginx", nginx_root_site(port, errors)) as proxy:
            # banker's own answers pass as they are
            own = request(f"{proxy.url}/api/v1/games/nosuchgame", token="x")
            assert own.status_code == 404 and own.get_json()["error"]["code"] == "game_not_found"
            assert request(f"{proxy.url}/healthz").get_json()["ok"] is True
            server.stop()
            page = request(f"{proxy.url}/games/abcdefgh")
            api = request(f"{proxy.url}/api/v1/games/abcdefgh")
            css = request(f"{proxy.url}/banker-errors/site.css")
    assert (page.status_code, page.mimetype, page.header("Retry-After")) == (503, "text/html", "30")
    html = page.data.decode()
    assert "<h1>Not available now</h1>" in html and 'href="/banker-errors/site.css"' in html
    assert (css.status_code, css.mimetype) == (200, "text/css")
    assert (api.status_code, api.mimetype) == (503, "application/json")
    assert api.get_json()["error"]["code"] == "server_unavailable"


def caddy_home_site(https: int, http: int, backend: int, data) -> str:
    """hosting.md's home network Caddyfile on loopback's free ports, Caddy's data in `data`;
    the global options a test needs (no admin port, no trust store, no port 80)."""
    (site,) = [b for b in blocks("caddy") if "tls internal" in b]
    site = site.replace("192.168.1.20:8443", f"127.0.0.1:{https}")
    site = site.replace("192.168.1.20:8080", f"127.0.0.1:{http}")
    site = site.replace("127.0.0.1:8000", f"127.0.0.1:{backend}")
    site = site.replace("/var/lib/caddy/.local/share/caddy", f"{data}/caddy")
    return "{\n    admin off\n    skip_install_trust\n    auto_https disable_redirects\n}\n" + site


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
def test_caddy_with_tls_internal_serves_banker_trusted_by_its_root_with_links_carrying_the_port(
    tmp_path,
):
    https, http, backend = free_port(), free_port(), free_port()
    (tmp_path / "Caddyfile").write_text(caddy_home_site(https, http, backend, tmp_path / "data"))
    command = next(c for c in banker_commands(HOSTING) if "192.168.1.20:8443" in c)
    args = shlex.split(command.replace("192.168.1.20:8443", f"127.0.0.1:{https}"))[2:]
    args = [a for a in args if a not in ("--port", "8000", "--host", "127.0.0.1")]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}  # fmt: skip
    with (
        serving(tmp_path / "b.db", *args, port=backend) as server,
        open(tmp_path / "caddy.log", "w") as log,
    ):
        run = ["caddy", "run", "--config", "Caddyfile", "--adapter", "caddyfile"]
        caddy = subprocess.Popen(run, cwd=tmp_path, env=env, stdout=log, stderr=log)
        try:
            root = None
            for _ in range(200):  # Caddy makes its authority, then serves its root certificate
                try:
                    got = request(f"http://127.0.0.1:{http}/root.crt", timeout=2)
                    if got.status_code == 200 and got.data.startswith(b"-----BEGIN CERT"):
                        root = got.data
                        break
                except OSError:
                    pass
                time.sleep(0.05)
            assert root, (tmp_path / "caddy.log").read_text()
            key = request(f"http://127.0.0.1:{http}/root.key", timeout=2)
            assert b"PRIVATE KEY" not in key.data  # only the certificate is handed out
            (tmp_path / "root.crt").write_bytes(root)
            trusted = ssl.create_default_context(cafile=str(tmp_path / "root.crt"))
            body = json.dumps({"players": ["Ann", "Bob"]}).encode()
            made = None
            for _ in range(100):  # the site's own certificate may come a moment later
                try:
                    req = urllib.request.Request(f"https://127.0.0.1:{https}/api/v1/games", body,
                                                 {"Content-Type": "application/json"})  # fmt: skip
                    with urllib.request.urlopen(req, context=trusted, timeout=5) as r:
                        made = json.loads(r.read())
                    break
                except (ssl.SSLError, urllib.error.URLError):
                    time.sleep(0.1)
            assert made, (tmp_path / "caddy.log").read_text()
            assert made["banker_url"].startswith(f"https://127.0.0.1:{https}/games/")
            assert "Banker" in server.output()
        finally:
            caddy.terminate()
            caddy.wait(timeout=10)


def test_the_self_signed_certificate_command_makes_one_for_the_laptops_address(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    (command,) = [b for b in blocks("sh") if b.startswith("openssl req")]
    result = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    text = subprocess.run(["openssl", "x509", "-in", "banker.crt", "-noout", "-text"],
                          cwd=tmp_path, capture_output=True, text=True).stdout  # fmt: skip
    assert "IP Address:192.168.1.20" in text
    assert (tmp_path / "banker.key").exists()


# -- backups, restore, new links, as written -------------------------------------------------


def test_a_restore_brings_back_a_link_replaced_since_the_backup_as_the_docs_warn(tmp_path):
    store = Store(tmp_path / "banker.db")
    game = store.create_game("g0009", ["Ann", "Bob"], None)
    store.close()
    gid, old = game["game_id"], game["banker_token"]
    (tmp_path / "backups").mkdir()
    cron = next(c for c in banker_commands(HOSTING) if "--keep 7" in c)
    args = shlex.split(cron.replace("/var/backups/banker/", "backups/").replace(
        "/var/lib/banker/", ""))[1:]  # fmt: skip
    assert run_banker(*args, cwd=tmp_path).returncode == 0
    relinked = run_banker("games", "--db", "banker.db", "--no-qr", "--new-link", gid, cwd=tmp_path)
    new = re.search(r"token=([\w-]+)", relinked.stdout).group(1)
    # the restore steps, on these paths
    (restore,) = [b for b in blocks("sh") if b.startswith("systemctl stop") and " cp " in b]
    for line in restore.splitlines()[1:-1]:
        line = line.replace("runuser -u banker -- ", "").replace("/var/backups/banker/", "backups/")
        subprocess.run(
            ["bash", "-c", line.replace("/var/lib/banker/", "")], cwd=tmp_path, check=True
        )
    with serving(tmp_path / "banker.db") as server:
        assert request(f"{server.url}/api/v1/games/{gid}", token=old).status_code == 200
        assert request(f"{server.url}/api/v1/games/{gid}", token=new).status_code == 403
    assert "**a link replaced since the backup**" in HOSTING


def test_what_the_command_line_cannot_read_is_argparses_usage_and_exit_status_2(tmp_path):
    for args in (["serve", "--nosuch"], ["backup"]):
        result = run_banker(*args, cwd=tmp_path)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.startswith("usage: banker")
    result = run_banker("serve", "--port", "0", "--db", "b.db", env={"BANKER_PER_ADDRESS": "abc"},
                        cwd=tmp_path)  # fmt: skip
    assert result.returncode == 1 and result.stderr == (
        "banker serve: BANKER_PER_ADDRESS=abc is not a whole number: give one from 1 to "
        "1,000,000 (the default is 256).\n"
    )
    assert list(tmp_path.iterdir()) == []
    assert "exit status 2" in HOSTING and "checked the same way as its option" in HOSTING


def run_caddy(folder, caddyfile: str):
    """Caddy on `caddyfile` (its data in folder/data), started; (process, its root
    certificate's path) once that exists."""
    (folder / "Caddyfile").write_text(caddyfile)
    env = {**os.environ, "XDG_DATA_HOME": str(folder / "data"),
           "XDG_CONFIG_HOME": str(folder / "config")}  # fmt: skip
    run = ["caddy", "run", "--config", "Caddyfile", "--adapter", "caddyfile"]
    with open(folder / "caddy.log", "w") as log:
        caddy = subprocess.Popen(run, cwd=folder, env=env, stdout=log, stderr=log)
    root = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    for _ in range(200):
        if root.exists() and caddy.poll() is None:
            break
        time.sleep(0.05)
    assert root.exists(), (folder / "caddy.log").read_text()
    return caddy, root


def https_json(url: str, trusted, body=None, token=None, tries: int = 100):
    """GET (or POST `body`) over TLS trusted by `trusted`: (status, headers, body bytes)."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    for _ in range(tries):  # the site's certificate may come a moment after the authority
        try:
            req = urllib.request.Request(url, data, headers)
            with urllib.request.urlopen(req, context=trusted, timeout=5) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()
        except (ssl.SSLError, urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    raise AssertionError(f"no TLS answer from {url}")


def first_pushed_event_over_tls(port: int, path: str, trusted, command) -> float:
    """Seconds from command() to its event on the push stream at `path`, through TLS."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
    with trusted.wrap_socket(raw, server_hostname="127.0.0.1") as s:
        return first_pushed_event(s, port, path, command)[0]


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
@pytest.mark.parametrize("site", ["banker.example.com", "example.com"])
def test_caddy_with_the_docs_blocks_serves_banker_push_included_at_the_root_and_under_a_path(
    tmp_path, site
):
    """The two Caddy blocks as written, their public name swapped for loopback and a
    certificate of Caddy's own (`tls internal`: no public authority reaches this machine)."""
    (block,) = [b for b in blocks("caddy") if b.startswith(site + " {")]
    https, backend = free_port(), free_port()
    base = f"https://127.0.0.1:{https}" + ("/monopoly" if "handle_path" in block else "")
    caddyfile = block.replace(f"{site} {{\n", f"https://127.0.0.1:{https} {{\n    tls internal\n")
    caddyfile = caddyfile.replace("127.0.0.1:8000", f"127.0.0.1:{backend}")
    options = "{\n    admin off\n    skip_install_trust\n    auto_https disable_redirects\n}\n"
    with serving(tmp_path / "b.db", "--public-url", base, port=backend):
        caddy, root = run_caddy(tmp_path, options + caddyfile)
        try:
            trusted = ssl.create_default_context(cafile=str(root))
            status, _, made = https_json(f"{base}/api/v1/games", trusted, {"players": ["A", "B"]})
            assert status == 201, made
            game = json.loads(made)
            assert game["banker_url"].startswith(f"{base}/games/")
            gid, token = game["game_id"], game["banker_token"]
            status, headers, page = https_json(game["players"][0]["join_url"], trusted)
            assert status == 200 and b"<html" in page
            if base.endswith("/monopoly"):  # the path without its slash is sent to the site
                status, _, _ = https_json(f"https://127.0.0.1:{https}/monopoly", trusted)
                assert status == 200

            def command():
                body = {"type": "start", "first": "p1"}
                answer = https_json(f"{base}/api/v1/games/{gid}/commands", trusted, body, token)
                return json.loads(answer[2])["version"]

            path = base.removeprefix(f"https://127.0.0.1:{https}")
            token_path = game["players"][1]["join_url"].rsplit("/", 1)[1]
            seconds = first_pushed_event_over_tls(
                https, f"{path}/join/{token_path}/events", trusted, command
            )
            assert seconds < 1.0, seconds  # not held back by Caddy
        finally:
            caddy.terminate()
            caddy.wait(timeout=10)
