"""Load the named SQL queries of a ``.sql`` file: each block starts with a ``-- name: <query_name>`` line."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

_NAME_LINE = re.compile(r"^--\s*name:\s*(?P<name>[a-z_][a-z0-9_]*)\s*$", re.MULTILINE)


def parse_named_queries(text: str) -> dict[str, str]:
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
def load_queries(package: str = "newscorpus.store", filename: str = "queries.sql") -> dict[str, str]:
    return parse_named_queries(resources.files(package).joinpath(filename).read_text("utf-8"))


def query(name: str, package: str = "newscorpus.store", filename: str = "queries.sql") -> str:
    try:
        return load_queries(package, filename)[name]
    except KeyError:
        raise KeyError(f"no query named {name!r} in {package}/{filename}") from None
