"""The shape of the code a new maintainer reads: no import cycle among banker's modules (in
banker/web at any depth, imports inside functions too), the web layer's rooms (a package per
blueprint over common/, leaf modules that import no blueprint), no import inside a function but
where the app factory registers the blueprints, no module over 500 lines, no function over 60."""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path

from flask import Blueprint

import banker
from banker.store import Store
from banker.web import create_app
from banker.web.common import pushed
from banker.web.table import screens

PACKAGE = Path(banker.__file__).resolve().parent
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
WEB, COMMON = "banker.web", "banker.web.common"
# The one function of banker/web that imports inside itself: the app factory, the blueprints.
APP_FACTORY = ("banker.web.app", "create_app")
# Imports inside functions outside banker/web, each with its reason: the command line loads
# only what its command needs (`banker --version` loads no Flask, `banker backup` no server).
LATE_IMPORTS = {
    "banker.__main__": "every command",
    "banker.cli.games": "every command",
    "banker.cli.error_pages": "error_pages",
}


@functools.cache
def _tree(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for all the tests here."""
    return ast.parse(path.read_text())


@functools.cache
def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _targets(node: ast.Import | ast.ImportFrom, package: str, known: set[str]) -> list[str]:
    """The banker modules one import statement names (`from pkg import mod` names the module,
    `from mod import name` the module)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:
        up = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join(up + ([base] if base else []))
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]


def _imports(name: str, path: Path, known: set[str], anywhere: bool = False) -> set[str]:
    """The banker modules `name` imports.

    When loaded (`anywhere` False): top-level statements only, and not the packages that hold
    `name` (they are already being loaded when it is). At any depth (`anywhere`): every import
    statement, inside functions too, and the packages that hold it when named outright (a
    blueprint that reads `banker.web`'s names depends on the app factory that imports it)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = _tree(path)
    nodes = ast.walk(tree) if anywhere else tree.body
    found = set()
    for node in nodes:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {
                t
                for t in _targets(node, package, known)
                if t in known and t != name and (anywhere or not name.startswith(t + "."))
            }
    return found


def _imports_in_functions(path: Path) -> list[tuple[str, str]]:
    """(function, the import statement) for every import inside a function of the module."""
    found = []
    for fn in ast.walk(_tree(path)):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    found.append((fn.name, ast.unparse(node)))
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


def _blueprints() -> list[str]:
    """The packages of banker/web that hold a blueprint: every one but common/."""
    web = PACKAGE / "web"
    return sorted(
        f"{WEB}.{d.name}"
        for d in web.iterdir()
        if d.is_dir() and (d / "__init__.py").exists() and d.name != "common"
    )


def _room(module: str) -> str | None:
    """The room of banker/web a module is in (a blueprint's package, or common), else None."""
    for room in [*_blueprints(), COMMON]:
        if module == room or module.startswith(room + "."):
            return room
    return None


# -- the rules core -------------------------------------------------------------------------


def test_the_rules_core_imports_its_modules_in_one_order_without_a_cycle():
    modules = {n: p for n, p in _modules().items() if n.startswith("banker.rules")}
    graph = {n: _imports(n, p, set(modules), anywhere=True) for n, p in modules.items()}
    assert _cycle(graph) is None


def test_the_rules_core_imports_nothing_of_banker_outside_itself():
    everything = set(_modules())
    for name, path in _modules().items():
        if name.startswith("banker.rules"):
            outside = {
                m
                for m in _imports(name, path, everything, anywhere=True)
                if not m.startswith("banker.rules")
            }
            assert outside == set(), name


# -- cycles ---------------------------------------------------------------------------------


def test_no_module_of_banker_imports_in_a_cycle_when_loaded():
    modules = _modules()
    graph = {n: _imports(n, p, set(modules)) for n, p in modules.items()}
    assert _cycle(graph) is None


def test_no_module_of_banker_web_imports_in_a_cycle_at_any_depth():
    modules = _modules()
    web = {n: p for n, p in modules.items() if n == WEB or n.startswith(WEB + ".")}
    graph = {n: _imports(n, p, set(web), anywhere=True) for n, p in web.items()}
    assert _cycle(graph) is None


EDGE = ("banker.net",)  # between the socket and the views


def test_the_edge_is_its_own_room_which_the_app_and_the_store_never_import():
    modules = _modules()
    rooms = ("banker.web", "banker.store", "banker.rules", "banker.snapshot", "banker.settings")
    reaching = {
        name: sorted(t for t in _imports(name, path, set(modules), True) if t.startswith(EDGE))
        for name, path in modules.items()
        if name.startswith(rooms)
    }
    assert {n: found for n, found in reaching.items() if found} == {}


def test_no_function_imports_but_the_app_factory_registering_the_blueprints():
    late = {}
    for name, path in _modules().items():
        for function, statement in _imports_in_functions(path):
            late.setdefault(name, []).append((function, statement))
    factory = late.pop(APP_FACTORY[0], [])
    assert [f for f, _ in factory] == [APP_FACTORY[1]]
    assert (
        factory[0][1]
        == f"from {WEB} import {', '.join(b.rsplit('.', 1)[1] for b in _blueprints())}"
    )
    assert {n: s for n, s in late.items() if n.startswith(WEB)} == {}
    for name, found in late.items():
        assert name in LATE_IMPORTS, (name, found)
        allowed = LATE_IMPORTS[name]
        assert allowed == "every command" or {f for f, _ in found} == {allowed}, (name, found)


# -- the rooms of banker/web ----------------------------------------------------------------


def test_banker_web_holds_the_app_factory_and_packages_only():
    loose = sorted(p.name for p in (PACKAGE / "web").glob("*.py"))
    assert loose == ["__init__.py", "app.py"]
    assert _blueprints() == [
        f"{WEB}.{b}" for b in ("api", "display", "player", "snapshots", "table")
    ]


def test_each_blueprint_is_a_package_whose_blueprint_the_app_registers(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "b.db")})
    registered = set()
    for package in _blueprints():
        bp = importlib.import_module(package).bp
        assert isinstance(bp, Blueprint), package
        assert app.blueprints[bp.name] is bp, package
        registered.add(bp.name)
    assert registered == set(app.blueprints)
    app.extensions["banker.store"].close()


def test_a_blueprint_imports_common_and_the_core_never_another_blueprint():
    modules = _modules()
    for name, path in modules.items():
        room = _room(name)
        if room is None or room == COMMON:
            continue
        for target in _imports(name, path, set(modules), anywhere=True):
            if target == WEB or target.startswith(WEB + "."):
                assert _room(target) in (room, COMMON), (name, target)


def test_common_imports_no_blueprint_and_not_the_app():
    modules = _modules()
    for name, path in modules.items():
        if _room(name) != COMMON:
            continue
        for target in _imports(name, path, set(modules), anywhere=True):
            if target == WEB or target.startswith(WEB + "."):
                assert _room(target) == COMMON, (name, target)


# -- sizes ----------------------------------------------------------------------------------


def _too_long() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        source = path.read_text()
        if len(source.splitlines()) > MAX_MODULE_LINES:
            found.append(rel)
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    found.append(f"{rel}:{node.name}")
    return found


def test_no_module_of_banker_is_over_500_lines_and_no_function_over_60():
    assert _too_long() == []


# -- the checks themselves ------------------------------------------------------------------


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_imports_at_any_depth_are_found_in_functions_and_when_they_name_a_package(tmp_path):
    module = tmp_path / "routes.py"
    module.write_text(
        "from banker.web import get_store\n"
        "def view():\n"
        "    from banker.web.common.qr import qr_svg\n"
        "    return qr_svg\n"
    )
    known = {WEB, "banker.web.common.qr", "banker.web.table.routes"}
    assert _imports("banker.web.table.routes", module, known) == set()
    assert _imports("banker.web.table.routes", module, known, anywhere=True) == {
        WEB,
        "banker.web.common.qr",
    }
    assert _imports_in_functions(module) == [("view", "from banker.web.common.qr import qr_svg")]


# -- the store's parts ------------------------------------------------------------------------


def test_the_stores_parts_touch_no_private_name_of_another_object():
    found = []
    for path in sorted((PACKAGE / "store").glob("*.py")):
        for node in ast.walk(_tree(path)):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert found == []


def test_the_store_is_made_of_parts_not_mixins():
    assert Store.__bases__ == (object,)


# -- one command path -------------------------------------------------------------------------


def test_only_the_one_command_path_calls_store_execute():
    """Every command from any page or program goes through banker.web.common.commands.send."""
    callers = set()
    for name, path in _modules().items():
        if name.startswith("banker.store"):
            continue
        for node in ast.walk(_tree(path)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "execute"
            ):
                callers.add(name)
    assert callers == {"banker.web.common.commands"}


def test_the_push_names_the_bankers_screens_as_the_screens_own_table_does():
    """web/common/pushed.py may not import the Banker's blueprint: its list is held to it."""
    assert sorted(pushed.SCREENS) == sorted(screens.SCREENS)
