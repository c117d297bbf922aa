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
