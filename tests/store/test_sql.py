"""The SQL package: one namespace of named queries, and every query the code names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from newscorpus.store.sql import all_queries, parse_named_queries, query

ROOT = Path(__file__).resolve().parents[2]
NAMED = re.compile(r"""query\(\s*f?["']([a-z_]+\.[a-z_{}.]+)["']""")


def test_a_query_is_named_by_its_file_and_its_name():
    assert query("near_duplicate.candidates_batch").lstrip().startswith(("SELECT", "WITH", "--"))
    assert "site_line_stats" in query("line_noise.articles_seen")
    with pytest.raises(KeyError, match="near_duplicate.no_such_query"):
        query("near_duplicate.no_such_query")
    with pytest.raises(KeyError, match="no_such_file"):
        query("no_such_file.count_rows")


def test_a_name_defined_twice_is_refused():
    with pytest.raises(ValueError, match="defined twice"):
        parse_named_queries("-- name: one\nSELECT 1;\n-- name: one\nSELECT 2;\n")


def test_every_query_named_in_the_code_exists():
    known = all_queries()
    named = set()
    for path in [*ROOT.joinpath("newscorpus").rglob("*.py"), *ROOT.joinpath("benchmarks").glob("*.py")]:
        named.update(NAMED.findall(path.read_text("utf-8")))
    literal = {name for name in named if "{" not in name}
    assert len(literal) > 40
    assert literal <= set(known), sorted(literal - set(known))
    prefixes = {name.split("{")[0] for name in named if "{" in name}
    assert all(any(k.startswith(prefix) for k in known) for prefix in prefixes)
