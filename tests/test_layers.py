"""The layers point one way (STYLE habit 11, issue 20): one test over the import graph of every module under
newscorpus/ and migrations/, read with `ast` (imports inside functions and under TYPE_CHECKING count too).

Bottom to top: core < store (with migrations/) < crawl < stages < {builds, evaluation, demo} < cli. A module
imports its own layer and lower ones only. core imports no scrapy, twisted, psycopg, redis or scrapy_redis;
store imports no scrapy, twisted or redis. Strings that Scrapy or the CLI load by name (ITEM_PIPELINES,
COMMAND_MODULES) are not imports and are not checked.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {  # package -> rank, bottom first; packages of the same rank may import each other
    "core": 0,
    "store": 1,
    "migrations": 1,
    "crawl": 2,
    "stages": 3,
    "builds": 4,
    "evaluation": 4,
    "demo": 4,
    "cli": 5,
}
FORBIDDEN_LIBRARIES = {  # layer -> third-party top-level packages it must not import
    "core": {"scrapy", "twisted", "psycopg", "psycopg_pool", "redis", "scrapy_redis"},
    "store": {"scrapy", "twisted", "redis", "scrapy_redis"},
    "migrations": {"scrapy", "twisted", "redis", "scrapy_redis"},
}
def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every module a file's source imports, at any depth of its code: `import a.b` and `from a.b import c` give
    a.b, `from newscorpus import crawl` gives newscorpus.crawl; relative imports are resolved against the
    package of `module`."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            found.add(base)
            if base == "newscorpus":  # from newscorpus import crawl
                found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "migrations":
        return "migrations"
    if parts[0] == "newscorpus" and len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return None


def violations() -> list[str]:
    files = sorted([*(ROOT / "newscorpus").rglob("*.py"), *(ROOT / "migrations").rglob("*.py")])
    assert len(files) > 100, files  # the walk found the package
    found = []
    for path in files:
        importer = module_name(path)
        own = layer_of(importer)
        if own is None:  # newscorpus/__init__.py
            continue
        source = path.read_text(encoding="utf-8")
        for imported in sorted(imported_modules(source, importer, path.name == "__init__.py")):
            target = layer_of(imported)
            if target is not None and LAYERS[target] > LAYERS[own]:
                found.append(f"{importer} -> {imported}: {own} must not import {target} (a higher layer)")
            library = imported.split(".")[0]
            if library in FORBIDDEN_LIBRARIES.get(own, ()):
                found.append(f"{importer} -> {imported}: {own} must not import {library}")
    return found


def test_every_import_points_down_the_layers():
    found = violations()
    assert not found, "imports against the layering (core < store < crawl < stages < builds/evaluation/demo < cli):\n" \
        + "\n".join(found)


def test_imports_inside_functions_and_relative_imports_are_read():
    source = "def f():\n    from . import titles\n    from ..text import tokenize\n    import scrapy.http\n" \
        "from newscorpus import crawl, stages\n"
    assert imported_modules(source, "newscorpus.core.extraction", is_package=True) == {
        "newscorpus.core.extraction", "newscorpus.core.text", "scrapy.http", "newscorpus", "newscorpus.crawl",
        "newscorpus.stages"}
    assert imported_modules("from .text import tokenize", "newscorpus.core.keywords") == {"newscorpus.core.text"}
