"""The shape of the code a new maintainer reads (issue 11): no import cycle among banker's
modules, no module over 500 lines, no function over 60."""

from __future__ import annotations

import ast
from pathlib import Path

import banker

PACKAGE = Path(banker.__file__).resolve().parent
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
# Over the limits and waiting to be split (issue 11): none left.
TOO_LONG_FOR_NOW: set[str] = set()


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports_at_load(name: str, path: Path, known: set[str]) -> set[str]:
    """The banker modules `name` imports when it is loaded: top-level statements only (an
    import inside a function runs later, once every module is loaded), and not the packages
    that hold `name` (they are already being loaded when it is)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            # `from pkg import mod` imports the module; `from mod import name` the module.
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        found |= {t for t in targets if t in known and not name.startswith(t + ".") and t != name}
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done, path = set(), []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return None
        path.append(node)
        for nxt in sorted(graph[node]):
            found = visit(nxt)
            if found:
                return found
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start)
        if found:
            return found
    return None


def test_the_rules_core_imports_its_modules_in_one_order_without_a_cycle():
    modules = {n: p for n, p in _modules().items() if n.startswith("banker.rules")}
    graph = {n: _imports_at_load(n, p, set(modules)) for n, p in modules.items()}
    assert _cycle(graph) is None


def test_the_rules_core_imports_nothing_of_banker_outside_itself():
    everything = set(_modules())
    for name, path in _modules().items():
        if name.startswith("banker.rules"):
            outside = {
                m
                for m in _imports_at_load(name, path, everything)
                if not m.startswith("banker.rules")
            }
            assert outside == set(), name


def test_no_module_of_banker_imports_in_a_cycle_when_loaded():
    modules = _modules()
    graph = {n: _imports_at_load(n, p, set(modules)) for n, p in modules.items()}
    assert _cycle(graph) is None


def _too_long() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        source = path.read_text()
        if len(source.splitlines()) > MAX_MODULE_LINES:
            found.append(rel)
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    found.append(f"{rel}:{node.name}")
    return found


def test_no_module_of_banker_is_over_500_lines_and_no_function_over_60():
    assert [f for f in _too_long() if f not in TOO_LONG_FOR_NOW] == []


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
