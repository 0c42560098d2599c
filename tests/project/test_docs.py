"""The documentation ships and says what the server does, and nothing in the repository
reads files from beside it."""

from __future__ import annotations

import re
from pathlib import Path

from banker.rules.schema import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
API = (DOCS / "api.md").read_text()


def openapi(client) -> dict:
    return client.get("/api/v1/openapi.json").get_json()


def test_the_readme_is_short_has_the_two_commands_and_its_links_resolve():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 50
    assert "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/banker serve" in readme
    test = (
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
    )
    assert test in readme
    assert test in (ROOT / ".ci" / "run").read_text()  # the command CI runs, the same string
    links = re.findall(r"\]\(([^)#]+)", readme)
    assert {"docs/api.md", "docs/hosting.md", "docs/rules-decisions.md"} <= set(links)
    for doc in [ROOT / link for link in links] + sorted(DOCS.glob("*.md")):
        for link in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", doc.read_text()):
            assert (doc.parent / link).exists(), (doc.name, link)


def test_every_endpoint_and_status_the_server_describes_is_in_docs_api(client):
    for path, operations in openapi(client)["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            row = f"| `{method.upper()} {path.replace('{game_id}', '{id}')}` |"
            line = next((x for x in API.splitlines() if x.startswith(row)), None)
            assert line, row
            for status in operation["responses"]:
                assert status in line, (row, status)


def test_every_command_and_field_the_server_describes_is_in_docs_api(client):
    schemas = openapi(client)["components"]["schemas"]
    for ref in schemas["Command"]["oneOf"]:
        schema = schemas[ref["$ref"].rsplit("/", 1)[1]]
        (kind,) = schema["properties"]["type"]["enum"]
        row = next((x for x in API.splitlines() if x.startswith(f"| `{kind}` |")), None)
        assert row, kind
        for field in set(schema["properties"]) - {"type", "expected_version"}:
            assert f"`{field}" in row, (kind, field)
    for field in schemas["State"]["properties"]:
        assert re.search(rf"`{field}[`.\[]", API), field


def _section(title: str) -> str:
    start = API.index(f"\n{title}\n")
    end = API.find("\n#", start + len(title) + 2)
    return API[start:end]


def test_docs_api_lists_the_commands_as_the_one_table_declares_them():
    """One declaration per command (banker/rules/schema.py): docs/api.md's table of commands
    has a row for each, in the table's order, and "Who may send it" names the ones a player
    may send for themselves and the Banker's own exactly as declared."""
    rows = re.findall(r"^\| `([a-z_]+)` \|", _section("## Commands"), re.M)
    assert rows == list(COMMANDS)
    who = _section("### Who may send it")
    players = {k for line in who.splitlines() if line.startswith(("- ", "  ")) for k in
               re.findall(r"`([a-z_]+)`", line) if k in COMMANDS}  # fmt: skip
    bankers = who[who.index("`start`") : who.index("stay the Banker's")]
    assert players == {c.type for c in COMMANDS.values() if c.players}
    assert set(re.findall(r"`([a-z_]+)`", bankers)) == {
        c.type for c in COMMANDS.values() if c.banker_only
    }


def test_every_error_code_the_api_itself_gives_is_in_docs_api():
    code = re.compile(r'(?:ApiError\(\d+,\s*|code = )"([a-z_]+)"')
    found = set()
    for source in (ROOT / "banker").rglob("*.py"):
        found |= set(code.findall(source.read_text()))
    found -= {"store_error", "schema_too_new"}  # never an answer: the server does not start
    # Never an API answer either: the Refusal base's default (every refusal sets its own), and
    # the Banker's forms' (the pages show its sentence; the API reads JSON, not forms).
    found -= {"refused", "bad_form"}
    assert found, "no codes found"
    missing = sorted(c for c in found if f"`{c}`" not in API)
    assert missing == []


def test_nothing_in_the_repository_reads_beside_it():
    """The figures the tests check against are in tests/data; nothing opens a folder beside the
    repository (the workshop's "shared" one)."""
    # A path built to it: a "shared" or "../…" string, or a climb above the repository.
    beside = re.compile(r"""(["']\.\./|["']shared["']|parents\[3\]|parent\.parent\.parent)""")
    for folder in ("banker", "tests", "bench", ".ci"):
        for source in (ROOT / folder).rglob("*.py"):
            if source.name == "test_docs.py":
                continue
            text = source.read_text()
            assert not beside.search(text), source.relative_to(ROOT)
    assert (ROOT / "tests" / "data" / "g0009.json").exists()
    assert (
        "Source" in (ROOT / "tests" / "data" / "README.md").read_text()
        or "Copied" in (ROOT / "tests" / "data" / "README.md").read_text()
    )
