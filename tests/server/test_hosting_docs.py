"""docs/hosting.md's commands and configurations, run where they can be: nginx with the path
block as written (a snapshot of over 1 MB reaches banker), the systemd unit's command line read
by banker's own parser, the Python it asks for, the manifest's lifetime it states, and a built
wheel left in the checkout ignored by git."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import time
import tomllib

import pytest

from banker.__main__ import parser, serve_settings
from tests.serving import REPO, free_port, request, serving

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


def test_the_systemd_unit_runs_banker_serve_as_its_own_user_with_arguments_banker_takes():
    (unit,) = blocks("ini")
    assert re.search(r"^User=banker$", unit, re.M) and re.search(r"^Group=banker$", unit, re.M)
    command = shlex.split(re.search(r"^ExecStart=(.*)$", unit, re.M).group(1))
    assert command[:2] == ["/opt/banker/.venv/bin/banker", "serve"]
    values = serve_settings(parser().parse_args(command[1:]))
    assert (values.host, values.port, values.db) == ("127.0.0.1", 8000, "/var/lib/banker/banker.db")
    assert (values.public_url, values.access_log) == ("https://banker.example.com", "-")
    setup = "\n".join(blocks("sh"))
    for step in (
        "useradd --system",
        "install -d -o banker -g banker -m 750 /var/lib/banker",
        "python3 -m venv /opt/banker/.venv",
        "systemctl enable --now banker",
        "journalctl -u banker",
    ):
        assert step in setup or step in HOSTING, step


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
