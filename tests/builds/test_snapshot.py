"""Snapshots of the crawled demo site: JSONL and Parquet hold the same rows; the manifest describes them."""

from __future__ import annotations

import json
from datetime import date

import psycopg
import pyarrow.parquet as pq

from newscorpus.builds.snapshot import read_manifest, sha256_file, write_snapshot


def _jsonl(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def _parquet(path) -> list[dict]:
    return [{k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in row.items()}
            for row in pq.read_table(path).to_pylist()]


def test_snapshot_files_agree_with_each_other_and_the_manifest(crawled_demo, tmp_path):
    _, dsn, _, _ = crawled_demo
    manifest = write_snapshot(dsn, "b1", ["demo"], None, tmp_path)
    folder = tmp_path / "b1"
    rows = _jsonl(folder / "articles.jsonl")
    assert rows == _parquet(folder / "articles.parquet")
    with psycopg.connect(dsn) as connection:
        stored = connection.execute("SELECT count(*) FROM corpus_articles WHERE site = 'demo'").fetchone()[0]
    assert manifest["rows"] == len(rows) == stored > 0
    assert manifest["counts_per_site"] == {"demo": stored}
    assert manifest["build_id"] == "b1" and read_manifest(folder) == manifest
    for name, described in manifest["files"].items():
        assert described["sha256"] == sha256_file(folder / name)
    assert [field["name"] for field in manifest["schema"]] == list(rows[0])
    days = [(row["published_at"] or row["first_seen"])[:10] for row in rows]
    assert manifest["date_range"]["first"] == min(days) and manifest["date_range"]["last"] == max(days)
    assert any(row["language"] == "zh" for row in rows) and any(row["language"] == "en" for row in rows)
    assert not list(tmp_path.glob(".*partial"))


def test_a_written_snapshot_is_kept_and_a_partial_one_replaced(crawled_demo, tmp_path):
    _, dsn, _, _ = crawled_demo
    (tmp_path / ".b2.partial").mkdir()
    (tmp_path / ".b2.partial" / "articles.jsonl").write_text("half", encoding="utf-8")
    first = write_snapshot(dsn, "b2", ["demo"], None, tmp_path)
    assert write_snapshot(dsn, "b2", ["demo"], None, tmp_path) == first
    assert not (tmp_path / ".b2.partial").exists()


def test_since_and_sites_narrow_the_snapshot(crawled_demo, tmp_path):
    _, dsn, _, _ = crawled_demo
    assert write_snapshot(dsn, "none", ["other-site"], None, tmp_path)["rows"] == 0
    future = write_snapshot(dsn, "future", ["demo"], date(2100, 1, 1), tmp_path)
    assert future["rows"] == 0 and future["date_range"]["first"] is None
