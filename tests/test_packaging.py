"""pyproject.toml lists every package of the tree (setuptools discovery cannot find the migrations/ folder, which
is shipped as the data package newscorpus.migrations), and nothing is installed as a top-level package but
newscorpus."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tree_packages() -> set[str]:
    """Every folder under newscorpus/ that holds a module or package data, as a dotted name."""
    found = set()
    for folder in [ROOT / "newscorpus", *(ROOT / "newscorpus").rglob("*")]:
        if folder.is_dir() and folder.name != "__pycache__" and any(
                entry.is_file() for entry in folder.iterdir()):
            found.add(".".join(folder.relative_to(ROOT).parts))
    return found


def test_every_package_of_the_tree_is_listed_and_only_newscorpus_is_top_level():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert set(setuptools["packages"]) == tree_packages() | {"newscorpus.migrations"}
    assert {name.split(".")[0] for name in setuptools["packages"]} == {"newscorpus"}
    assert setuptools["package-dir"] == {"newscorpus.migrations": "migrations"}


def test_the_migrations_are_read_from_the_data_package():
    names = {entry.name for entry in resources.files("newscorpus.migrations").iterdir()}
    on_disk = {path.name for path in (ROOT / "migrations").glob("*.sql")}
    assert "schema.sql" in on_disk and "0001_core.sql" in on_disk
    assert on_disk <= names
