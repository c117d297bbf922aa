"""Feed exports of `scrapy crawl site` (-o/-O, every format): one article record per stored article, read back and
parsed, never the page's bytes; Parquet loads in pyarrow and in Hugging Face datasets."""

from __future__ import annotations

import csv
import json

import psycopg
import pyarrow.parquet as pq
import pytest

from newscorpus.crawler.article_record import ARTICLE_FIELDS
from newscorpus.demo.server import DemoSite
from tests.conftest import fresh_schema
from tests.local_crawl import run_crawl


@pytest.fixture(scope="module")
def feeds(postgres_server_dsn, tmp_path_factory):
    folder = tmp_path_factory.mktemp("feeds")
    with DemoSite(huge_bytes=3 * 1024 * 1024) as site, fresh_schema(postgres_server_dsn) as dsn:
        config = folder / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        names = ("out.jsonl", "out.csv", "out.json", "out.parquet")
        options = tuple(part for name in names for part in ("-o", str(folder / name)))
        result = run_crawl(dsn, f"site={config}", options=options)
        assert result.returncode == 0, result.stderr[-3000:]
        with psycopg.connect(dsn) as connection:
            stored = {row[0]: row[1] for row in connection.execute(
                "SELECT a.url, d.canonical_url FROM articles a LEFT JOIN article_duplicates d ON d.url = a.url")}
        yield folder, stored, result


def test_every_feed_format_holds_one_article_record_per_stored_article(feeds):
    folder, stored, result = feeds
    assert "not JSON serializable" not in result.stderr
    jsonl = [json.loads(line) for line in (folder / "out.jsonl").read_text("utf-8").splitlines()]
    as_json = json.loads((folder / "out.json").read_text("utf-8"))
    with (folder / "out.csv").open(encoding="utf-8", newline="") as handle:
        as_csv = list(csv.DictReader(handle))
    as_parquet = pq.read_table(folder / "out.parquet").to_pylist()
    for records in (jsonl, as_json, as_csv, as_parquet):
        assert sorted(record["canonical_url"] for record in records) == sorted(stored)
        assert all(tuple(record) == ARTICLE_FIELDS for record in records)
        assert all(record["body"] and record["title"] and record["site"] == "demo" for record in records)
    assert not any("<html" in record["body"] or "raw_body" in record for record in jsonl + as_csv)
    duplicates = {r["canonical_url"]: r["duplicate_of"] for r in jsonl if r["duplicate_of"]}
    assert duplicates and duplicates == {url: canonical for url, canonical in stored.items() if canonical}
    chinese = next(r for r in jsonl if r["language"] == "zh")
    assert chinese["published_utc_offset"] == "+08:00" and chinese["published_at"].endswith("+08:00")
    assert isinstance(chinese["authors"], list) and chinese["authors"]


def test_the_parquet_feed_loads_in_hugging_face_datasets(feeds):
    datasets = pytest.importorskip("datasets")
    folder, stored, _ = feeds
    loaded = datasets.load_dataset("parquet", data_files=str(folder / "out.parquet"), split="train",
                                   cache_dir=str(folder / "hf-cache"))
    assert loaded.num_rows == len(stored)
    assert loaded.column_names == list(ARTICLE_FIELDS)
