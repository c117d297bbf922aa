"""The layers point one way and no module imports another in a circle: one test over the import graph of every
module under newscorpus/, read with `ast` (imports inside functions and under TYPE_CHECKING count too).

Bottom to top: core < store < crawler < pipelines < {builds, evaluation, demo} < cli. A module imports its own
layer and lower ones only. core imports no scrapy, twisted, psycopg, redis or scrapy_redis; store imports no
scrapy, twisted or redis. Strings that Scrapy or the CLI load by name (ITEM_PIPELINES, COMMAND_MODULES) are not
imports and are not checked. SQL stays in the store: no module outside newscorpus.store imports
newscorpus.store.sql or calls `query(...)`; the CLI and the builds call store functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {  # package -> rank, bottom first; packages of the same rank may import each other
    "core": 0,
    "store": 1,
    "crawler": 2,
    "pipelines": 3,
    "builds": 4,
    "evaluation": 4,
    "demo": 4,
    "cli": 5,
}
FORBIDDEN_LIBRARIES = {  # layer -> third-party top-level packages it must not import
    "core": {"scrapy", "twisted", "psycopg", "psycopg_pool", "redis", "scrapy_redis"},
    "store": {"scrapy", "twisted", "redis", "scrapy_redis"},
}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str, module: str, is_package: bool = False) -> list[tuple[str, list[str]]]:
    """(module, names) for every import of a file's source, at any depth of its code: `import a.b` gives
    (a.b, []), `from a.b import c` gives (a.b, [c]); relative imports are resolved against the package of
    `module`."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            found.append((base, [alias.name for alias in node.names]))
    return found


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every module a file's source may import: `from a.b import c` gives a.b and, for the project's own
    modules, a.b.c (a module when c is one)."""
    found: set[str] = set()
    for base, names in imports_of(source, module, is_package):
        found.add(base)
        if base.startswith("newscorpus"):  # from newscorpus.core import text: the module newscorpus.core.text
            found.update(f"{base}.{name}" for name in names)
    return found


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "newscorpus" and len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return None


def read_tree(root: Path = ROOT) -> dict[str, tuple[str, bool]]:
    """module -> (source, is a package's __init__) for every module under root/newscorpus."""
    return {module_name(path, root): (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for path in sorted((root / "newscorpus").rglob("*.py"))}


def import_graph(tree: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the modules of the tree it imports. `from package import module` points at the module alone;
    a package is imported when a name that is not a module of it is taken from it."""
    graph: dict[str, set[str]] = {}
    for module, (source, is_package) in tree.items():
        edges = graph.setdefault(module, set())
        for base, names in imports_of(source, module, is_package):
            submodules = {f"{base}.{name}" for name in names} & tree.keys()
            edges |= submodules
            if base in tree and len(submodules) < max(len(names), 1):
                edges.add(base)
        edges.discard(module)
    return graph


def layer_violations(tree: dict[str, tuple[str, bool]]) -> list[str]:
    found = []
    for importer, (source, is_package) in tree.items():
        own = layer_of(importer)
        if own is None:  # newscorpus/__init__.py
            continue
        for imported in sorted(imported_modules(source, importer, is_package)):
            target = layer_of(imported)
            if target is not None and LAYERS[target] > LAYERS[own]:
                found.append(f"{importer} -> {imported}: {own} must not import {target} (a higher layer)")
            library = imported.split(".")[0]
            if library in FORBIDDEN_LIBRARIES.get(own, ()):
                found.append(f"{importer} -> {imported}: {own} must not import {library}")
    return found


def sql_outside_store(tree: dict[str, tuple[str, bool]]) -> list[str]:
    """Modules outside newscorpus.store that import the named queries or call ``query(...)``."""
    found = []
    for module, (source, is_package) in tree.items():
        if module == "newscorpus.store" or module.startswith("newscorpus.store."):
            continue
        if any(imported == "newscorpus.store.sql" or imported.startswith("newscorpus.store.sql.")
               for imported in imported_modules(source, module, is_package)):
            found.append(f"{module} imports newscorpus.store.sql")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "query":
                found.append(f"{module}:{node.lineno} calls query(...)")
    return found


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.get(module, ())):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(cycles)


def test_the_walk_finds_the_package():
    assert len(read_tree()) > 100


def test_every_import_points_down_the_layers():
    found = layer_violations(read_tree())
    assert not found, "imports against the layering (core < store < crawler < pipelines < " \
        "builds/evaluation/demo < cli):\n" + "\n".join(found)


def test_no_module_imports_another_in_a_circle():
    cycles = import_cycles(import_graph(read_tree()))
    assert not cycles, "modules that import each other (move the shared name down):\n" + "\n".join(
        " <-> ".join(cycle) for cycle in cycles)


def test_sql_stays_in_the_store():
    found = sql_outside_store(read_tree())
    assert not found, "SQL outside newscorpus.store (call a store function instead):\n" + "\n".join(found)


def test_sql_outside_the_store_is_reported():
    probe = {
        "newscorpus.cli.probe": ("def f(c):\n    from newscorpus.store.sql import query\n"
                                 "    return c.execute(query('corpus.site_names'))\n", False),
        "newscorpus.builds.probe": ("from newscorpus.store import sql\n", False),
        "newscorpus.store.probe": ("from newscorpus.store.sql import query\nquery('corpus.site_names')\n", False),
        "newscorpus.evaluation.probe": ("def f(lsh, s):\n    return lsh.query(s)\n", False),
    }
    assert sql_outside_store(probe) == [
        "newscorpus.cli.probe imports newscorpus.store.sql",
        "newscorpus.cli.probe:3 calls query(...)",
        "newscorpus.builds.probe imports newscorpus.store.sql",
    ]


def test_an_upward_import_is_reported():
    probe = {"newscorpus.core.probe": ("def f():\n    from newscorpus.crawler import items\n", False)}
    assert layer_violations(probe) == [
        "newscorpus.core.probe -> newscorpus.crawler: core must not import crawler (a higher layer)",
        "newscorpus.core.probe -> newscorpus.crawler.items: core must not import crawler (a higher layer)"]
    assert layer_violations({"newscorpus.store.probe": ("import scrapy\n", False)}) == [
        "newscorpus.store.probe -> scrapy: store must not import scrapy"]


def test_a_cycle_is_reported_even_through_an_import_inside_a_function():
    probe = {
        "newscorpus.core.a": ("from newscorpus.core.b import g\n", False),
        "newscorpus.core.b": ("def g():\n    from newscorpus.core import a\n", False),
        "newscorpus.core.c": ("from newscorpus.core.a import x\n", False),
    }
    assert import_cycles(import_graph(probe)) == [["newscorpus.core.a", "newscorpus.core.b"]]
    relative = {
        "newscorpus.core.pkg": ("from . import d\n", True),
        "newscorpus.core.pkg.d": ("from .. import pkg\n", False),
    }
    assert import_cycles(import_graph(relative)) == [["newscorpus.core.pkg", "newscorpus.core.pkg.d"]]


def test_imports_inside_functions_and_relative_imports_are_read():
    source = "def f():\n    from . import titles\n    from ..text import tokenize\n    import scrapy.http\n" \
        "from newscorpus import crawler, pipelines\n"
    assert imported_modules(source, "newscorpus.core.extraction", is_package=True) == {
        "newscorpus.core.extraction", "newscorpus.core.extraction.titles", "newscorpus.core.text",
        "newscorpus.core.text.tokenize", "scrapy.http", "newscorpus", "newscorpus.crawler", "newscorpus.pipelines"}
    assert imported_modules("from .text import tokenize", "newscorpus.core.keywords") == {
        "newscorpus.core.text", "newscorpus.core.text.tokenize"}
