"""The store's SQL, one namespace: ``query("near_duplicate.candidates_batch")`` is the block that starts with
``-- name: candidates_batch`` in this folder's ``near_duplicate.sql``. One file per stage or concern (corpus,
near_duplicate, line_noise, site_aware, builds, search, benchmarks); parameters are always bound (``%(name)s``),
identifiers go through psycopg.sql.Identifier."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

_NAME_LINE = re.compile(r"^--\s*name:\s*(?P<name>[a-z_][a-z0-9_]*)\s*$", re.MULTILINE)


def parse_named_queries(text: str) -> dict[str, str]:
    """The ``-- name:`` blocks of a ``.sql`` text, each without its trailing semicolon."""
    queries: dict[str, str] = {}
    matches = list(_NAME_LINE.finditer(text))
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        body = text[match.end() : end].strip()
        if match["name"] in queries:
            raise ValueError(f"query {match['name']!r} is defined twice")
        queries[match["name"]] = body.rstrip().rstrip(";")
    return queries


@cache
def queries_of(file: str) -> dict[str, str]:
    """The named queries of ``<file>.sql`` in this package."""
    return parse_named_queries(resources.files(__name__).joinpath(f"{file}.sql").read_text("utf-8"))


def query(name: str) -> str:
    """The query named ``"<file>.<name>"`` (``"line_noise.count_article"``)."""
    file, _, short = name.partition(".")
    try:
        return queries_of(file)[short]
    except (KeyError, FileNotFoundError):
        raise KeyError(f"no query named {name!r} in newscorpus/store/sql") from None


def all_queries() -> dict[str, str]:
    """Every query of the package by its full name (a test parses them all)."""
    found = {}
    for entry in resources.files(__name__).iterdir():
        if entry.name.endswith(".sql"):
            file = entry.name.removesuffix(".sql")
            found.update((f"{file}.{short}", text) for short, text in queries_of(file).items())
    return found
