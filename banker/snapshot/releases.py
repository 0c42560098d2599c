"""Which release saved a snapshot, and the refusal of a file from a newer one.

Releases are compared by their semantic version (major, minor, patch); a file of format_version
1 names none and comes from 0.1.0 (the releases of 2026-11-29 to 2026-12-02)."""

from __future__ import annotations

import re

from banker import __version__
from banker.snapshot.checks import SnapshotError, _malformed, _refused
from banker.snapshot.shape import FIRST_RELEASE, FORMAT_VERSION

_RELEASE = re.compile(r"(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:[-+][0-9A-Za-z.+-]{1,30})?")


def parse(release: str) -> tuple[int, int, int]:
    """A release's (major, minor, patch); ValueError when it is not a semantic version."""
    found = _RELEASE.fullmatch(release)
    if found is None:
        raise ValueError(release)
    return int(found[1]), int(found[2]), int(found[3])


def saved_by(doc: dict) -> str:
    """The release that saved a snapshot whose header passed (400 when it names no release)."""
    release = doc.get("banker_version", FIRST_RELEASE)
    if not isinstance(release, str) or _RELEASE.fullmatch(release) is None:
        raise _malformed(
            "banker_version must name a release such as 0.2.0 (the release that saved the file)."
        )
    return release


def is_newer(release: str) -> bool:
    """Whether `release` is a later release than this one."""
    return parse(release) > parse(__version__)


def is_older(release: str) -> bool:
    """Whether `release` is an earlier release than this one (whose rules may differ)."""
    return parse(release) < parse(__version__)


def too_new_format(version: int, release: str | None) -> SnapshotError:
    """422 snapshot_too_new: a format this release cannot read."""
    whose = f"banker {release}" if release else "a newer banker"
    return _refused(
        f"This snapshot was saved by {whose} (format_version {version}); this is banker "
        f"{__version__}, which reads format_version {FORMAT_VERSION} and earlier: upgrade "
        "banker to resume it.",
        "snapshot_too_new",
    )


def too_new(release: str, why: str) -> SnapshotError:
    """422 snapshot_too_new: a file of a later release that this one could not read (`why`:
    the sentence its check gave)."""
    return _refused(
        f"This snapshot was saved by banker {release}, a newer release than this banker "
        f"{__version__}, which cannot read it ({why.rstrip('.')}): upgrade banker to resume it.",
        "snapshot_too_new",
    )
