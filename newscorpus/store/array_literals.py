"""Postgres arrays sent as one literal string each (cast in the query: ``%(name)s::bigint[]``, ``::text[]``,
``::uuid[]``): psycopg dumps a Python list element by element in Python, and the server parses a literal in a few
microseconds. Used by the near-duplicate index (keywords, sketches, batches of rows) and the line-noise counts (an
article's line hashes and samples)."""

from __future__ import annotations

from collections.abc import Iterable


def number_array_literal(values: Iterable[int | float | None]) -> str:
    """An integer, bigint or float8 array as a literal (None: NULL). psycopg dumps a list element by element in
    Python, far slower for a sketch of 256 than the server's parse of the literal."""
    values = list(values)
    if None in values:
        return "{" + ",".join(["NULL" if v is None else str(v) for v in values]) + "}"
    return "{" + ",".join(map(str, values)) + "}"


def text_array_literal(values: Iterable[str | None]) -> str:
    """A text array as a literal (None: NULL), every element quoted: any text, "NULL" and "" included."""
    values = list(values)
    if not values:
        return "{}"
    if None not in values:  # the usual case, joined in one C call (the test on the elements alone: the separator
        whole = "".join(values)  # holds a quote, so with it every array of two or more went the per-element way)
        if '"' not in whole and "\\" not in whole:
            return '{"' + '","'.join(values) + '"}'
    return "{" + ",".join(["NULL" if v is None else '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
                           for v in values]) + "}"
