"""docs/hosting.md says every setting as banker.settings declares it (the model: datasette's
`SETTINGS` and its docs test): each limit's row names its variable and its default figure, each
option of `banker serve` is there with its variable, and no variable is named anywhere in the
docs or read anywhere in the code that the table does not declare."""

from __future__ import annotations

import re
from pathlib import Path

from banker import settings

ROOT = Path(__file__).resolve().parents[2]
HOSTING = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
DECLARED = {s.env for s in settings.SETTINGS}


def limit_rows() -> dict[str, tuple[str, str]]:
    """Variable -> (figure, the whole row) of the table under "## Limits"."""
    section = HOSTING[HOSTING.index("## Limits") :]
    section = section[: section.index("\n## ")]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4:
            for variable in re.findall(r"`(BANKER_[A-Z_]+)`", cells[2]):
                rows[variable] = (cells[1], line)
    return rows


def test_every_limit_has_its_row_with_its_default_figure_and_its_variable():
    rows = limit_rows()
    for s in settings.SETTINGS:
        if s.limit:
            assert s.env in rows, f"{s.env} has no row in docs/hosting.md's table of limits"
            figure, row = rows[s.env]
            assert s.figure() in figure, (s.env, s.figure(), row)
    assert set(rows) <= DECLARED


def test_every_option_of_banker_serve_is_in_the_docs_with_its_variable():
    options = HOSTING[HOSTING.index("| option |") : HOSTING.index("Bound to all interfaces")]
    for s in settings.SETTINGS:
        if s.flag:
            assert f"`{s.flag}" in options, s.flag
            assert f"`{s.env}`" in HOSTING, s.env


def test_no_variable_is_named_in_the_docs_that_the_table_does_not_declare():
    named = set()
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        named |= set(re.findall(r"\bBANKER_[A-Z][A-Z_]*[A-Z]\b", path.read_text(encoding="utf-8")))
    assert named - DECLARED == set()


def test_no_module_but_the_table_reads_a_banker_variable():
    readers = []
    for path in sorted((ROOT / "banker").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name != "settings.py" and re.search(r"environ[^\n]{0,12}[\"']BANKER_", text):
            readers.append(str(path.relative_to(ROOT)))
    assert readers == []


def test_every_setting_has_its_help_and_a_default_within_its_range():
    for s in settings.SETTINGS:
        assert s.help and not s.help.endswith("."), s.name
        if s.low is not None and s.default is not None:
            assert s.low <= s.default <= s.high, s.name
    defaults = settings.defaults()
    assert all(hasattr(defaults, s.name) for s in settings.SETTINGS)
