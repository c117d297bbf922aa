"""JSONL records: the line json.dumps writes, dates as ISO 8601, fields in the given order."""

from __future__ import annotations

import io
import json
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from newscorpus.core.record_files import RecordWriter

FIELDS = ("id", "title", "published_at", "day", "body", "missing")


def test_a_jsonl_line_is_what_json_dumps_writes_with_dates_as_iso_text():
    records = [{"id": 7, "title": "城市交通 \"quoted\"\n", "published_at": datetime(2026, 12, 7, 9, 30, tzinfo=UTC),
                "day": date(2026, 12, 7), "body": "tab\there \x01 é"},
               {"id": 8, "title": None, "published_at": datetime(2026, 1, 2, 3, 4, 5, 120000,
                                                                  tzinfo=timezone(timedelta(hours=8))),
                "day": None, "body": "", "extra": "not a field"}]
    out = io.BytesIO()
    with RecordWriter(out, "jsonl", FIELDS) as writer:
        for record in records:
            writer.write(record)
    expected = [json.dumps({name: (value.isoformat() if isinstance(value, date) else value)
                            for name, value in ((name, record.get(name)) for name in FIELDS)}, ensure_ascii=False)
                for record in records]
    assert out.getvalue().decode("utf-8").splitlines() == expected
    assert json.loads(expected[1])["published_at"] == "2026-01-02T03:04:05.120000+08:00"


def test_a_jsonl_value_of_no_json_type_is_refused():
    with RecordWriter(io.BytesIO(), "jsonl", ("id",)) as writer, pytest.raises(TypeError):
        writer.write({"id": object()})


class Title(str):
    pass


def test_rows_of_every_json_type_are_written_as_json_dumps_writes_their_dicts():
    fields = ("id", "flag", "score", "authors", "meta", "title", "count", "at", "body")
    rows = [(n, n % 2 == 0, [0.5, 1e-7, float("nan"), float("inf"), 1 / 3][n % 5], ["a", "b\u2028"] if n % 3 else [],
             {"k": [1, None]}, Title(f"标题 {n}"), True if n == 4 else n * 10**20,
             datetime(2026, 12, 7, n % 24, tzinfo=UTC) if n % 4 else None, "line\n\"q\" \\ \x7f\u00e9" * (n % 3) * 50)
            for n in range(2500)]  # more than one write joins
    out = io.BytesIO()
    with RecordWriter(out, "jsonl", fields) as writer:
        for row in rows:
            writer.write_row(row)
    assert writer.count == len(rows)
    expected = [json.dumps(dict(zip(fields, (value.isoformat() if isinstance(value, date) else value
                                             for value in row), strict=True)), ensure_ascii=False)
                for row in rows]
    assert out.getvalue().decode("utf-8").split("\n") == [*expected, ""]
