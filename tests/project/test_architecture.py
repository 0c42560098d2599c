"""ARCHITECTURE.md says the truth: every path and dotted name it gives in backticks exists, and
the rules core's import order it gives names every module of banker/rules and is the order the
modules import each other in."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from banker.store import Store

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "ARCHITECTURE.md").read_text()
QUOTED = re.findall(r"`([^`\n]+)`", TEXT)
# Where a path written short is found: from the repository, from banker/, from banker/web/.
BASES = [ROOT, ROOT / "banker", ROOT / "banker" / "web", ROOT / "templates", ROOT / "static"]
FILE = re.compile(r"^[\w./<>-]+\.(py|md|html|css|js|json)$|^[\w.-]+(/[\w.-]+)*/$")
# A dotted name of banker's: the first word says where to look it up.
ROOTS = {
    "banker": "banker",
    "rules": "banker.rules",
    "store": "a Store",  # its parts are an instance's
    "Store": "banker.store.service:Store",
    "guards": "banker.web.common.guards",
    "seats": "banker.web.common.seats",
}


def _exists(path: str) -> bool:
    if "<" in path:  # a pattern: its folder exists
        path = path[: path.index("<")].rpartition("/")[0] + "/"
    return any((base / path).exists() for base in BASES)


def _resolve(dotted: str):
    first, *rest = dotted.split(".")
    where = ROOTS[first]
    module, _, cls = where.partition(":")
    names = rest
    if first == "banker":  # the longest module named, then its attributes
        for i in range(len(rest), -1, -1):
            try:
                obj = importlib.import_module(".".join(["banker", *rest[:i]]))
            except ModuleNotFoundError:
                continue
            names = rest[i:]
            break
    elif where == "a Store":
        obj = Store(":memory:")
        obj.close()
    else:
        obj = importlib.import_module(module)
        if cls:
            obj = getattr(obj, cls)
    for name in names:
        obj = getattr(obj, name)  # AttributeError: the name does not exist
    return obj


def test_every_path_architecture_gives_exists():
    paths = [q for q in QUOTED if FILE.match(q)]
    assert len(paths) > 60
    assert [p for p in paths if not _exists(p)] == []


def test_every_dotted_name_architecture_gives_exists():
    dotted = [
        q.rstrip("()")
        for q in QUOTED
        if re.fullmatch(r"[A-Za-z_]\w*(\.\w+)+(\(\))?", q)
        and q.split(".")[0] in ROOTS
        and not FILE.match(q)
    ]
    assert len(dotted) > 10
    missing = []
    for name in dotted:
        try:
            _resolve(name)
        except (AttributeError, ModuleNotFoundError):
            missing.append(name)
    assert missing == []


def _rules_order() -> list[list[str]]:
    block = TEXT[TEXT.index("### The rules core") :]
    line = block[block.index("```\n") + 4 : block.index("\n```", block.index("```\n") + 4)]
    return [[m.strip() for m in group.split(",")] for group in line.split("←")]


def test_the_rules_import_order_names_every_module_of_the_core_once():
    named = [m for group in _rules_order() for m in group]
    modules = sorted(
        p.stem for p in (ROOT / "banker" / "rules").glob("*.py") if p.stem != "__init__"
    )
    assert sorted(named) == modules


def test_each_rules_module_imports_only_those_before_it_in_that_order():
    rank = {m: i for i, group in enumerate(_rules_order()) for m in group}
    late = []
    for module, i in rank.items():
        tree = ast.parse((ROOT / "banker" / "rules" / f"{module}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                targets = [node.module] if node.module else [a.name for a in node.names]
                late += [(module, t) for t in targets if t in rank and rank[t] >= i]
    assert late == []


def test_every_name_given_as_a_modules_own_is_in_that_module():
    """`banker/rules/schema.py`'s `COMMANDS`: the module defines (or assigns) the name."""
    owned = re.findall(r"`([\w/.-]+\.py)`'s `(\w+)`", TEXT)
    assert len(owned) > 5
    missing = []
    for path, name in owned:
        source = next(base / path for base in BASES if (base / path).exists()).read_text()
        if not re.search(rf"^\s*(def|class) {name}\b|^\s*{name}\b[^=\n]*=", source, re.M):
            missing.append((path, name))
    assert missing == []
