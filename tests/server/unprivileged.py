"""Running `banker` as an unprivileged user (nobody) from tests that run as root, here and in CI.

Root reads and writes every file whatever its mode, so a permission a host can get wrong is
only seen by another user. That user cannot reach this checkout's virtual environment when it
lies under a folder of mode 700 (CI copies the checkout into a `mktemp -d` folder; pyenv's
interpreter lives under /root). So `Nobody` lays out, in a folder of /tmp everyone may enter,
a copy of banker (its package, templates and static files) and of the packages it needs to run
(their files as installed), and runs them with a Python of the same version that everyone may
run (this one if it can, else /usr/bin's). `nobody.runner` goes to tests/serving.py's
`run_banker(..., runner=...)` and `Server(..., runner=...)`.
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement

from tests.serving import REPO

NOT_NEEDED = {"pip"}  # sqlite-utils lists it for its own `install` command only


def setpriv_as(uid: int, gid: int) -> list[str]:
    """The command prefix that runs what follows as uid:gid with no other group."""
    return ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--"]


def open_folder(prefix: str) -> Path:
    """A new folder in /tmp that every user may enter and read (removed by the caller)."""
    base = "/tmp" if os.stat("/tmp").st_mode & stat.S_IXOTH else None
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=base))
    folder.chmod(0o755)
    return folder


def _needed(name: str = "banker") -> list:
    """The installed distributions banker needs to run (not its test extras)."""
    found, todo = {}, [name]
    while todo:
        req = Requirement(todo.pop())
        key = req.name.lower().replace("_", "-")
        if key in found or key in NOT_NEEDED:
            continue
        try:
            found[key] = dist = distribution(req.name)
        except PackageNotFoundError:
            continue
        for line in dist.requires or []:
            needed = Requirement(line)
            if needed.marker is None or needed.marker.evaluate({"extra": ""}):
                todo.append(line)
    found.pop(name)
    return list(found.values())


def _copy_runtime(root: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "banker", root / "banker", ignore=ignore)
    for folder in ("templates", "static"):  # beside the package, as in a checkout
        shutil.copytree(REPO / folder, root / folder, ignore=ignore)
    for dist in _needed():
        for file in dist.files or []:
            if ".." in file.parts or file.suffix == ".pyc":
                continue
            target = root / file
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(dist.locate_file(file), target)
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


class Nobody:
    """banker, runnable by the user nobody (and by any other uid given to `runner_as`)."""

    def __init__(self):
        account = pwd.getpwnam("nobody")
        self.uid, self.gid = account.pw_uid, account.pw_gid
        self.root = open_folder("banker-runtime-")
        _copy_runtime(self.root)
        self.python = self._python()

    def _python(self) -> str:
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        for candidate in (os.path.realpath(sys.executable), f"/usr/bin/python{version}"):
            check = subprocess.run(
                [*setpriv_as(self.uid, self.gid), "env", candidate, "-c",
                 "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            if check.returncode == 0 and check.stdout.strip() == version:
                return candidate
        raise RuntimeError(f"No Python {version} that the user nobody may run")

    def runner_as(self, uid: int, gid: int) -> list[str]:
        """The command that runs `banker …` as uid:gid from the runtime copy."""
        return [*setpriv_as(uid, gid), "env", f"PYTHONPATH={self.root}", "HOME=/nonexistent",
                self.python, "-s", "-m", "banker"]  # fmt: skip

    @property
    def runner(self) -> list[str]:
        return self.runner_as(self.uid, self.gid)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
