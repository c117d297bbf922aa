"""`newscorpus export OUT`: the format from OUT's extension (.jsonl, .csv, .parquet, with .gz or .zst where it
applies), --format to override; each file read back; Parquet loads in pyarrow and Hugging Face datasets."""

from __future__ import annotations

import csv
import gzip
import io
import json

import psycopg
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from newscorpus.cli.main import main


def published(dsn: str) -> set[str]:
    with psycopg.connect(dsn) as connection:
        return {row[0] for row in connection.execute("SELECT url FROM corpus_articles")}


def zstd_text(path) -> str:
    return pa.CompressedInputStream(pa.OSFile(str(path)), "zstd").read().decode("utf-8")


def test_the_extension_chooses_the_format_and_compression(crawled_demo, tmp_path):
    _, dsn, _, _ = crawled_demo
    corpus = published(dsn)
    for name in ("c.csv", "c.csv.gz", "c.jsonl.gz", "c.jsonl.zst", "c.parquet"):
        assert main(["export", "--dsn", dsn, str(tmp_path / name)]) == 0
    with open(tmp_path / "c.csv", encoding="utf-8", newline="") as handle:
        assert {row["url"] for row in csv.DictReader(handle)} == corpus
    with gzip.open(tmp_path / "c.csv.gz", "rt", encoding="utf-8", newline="") as handle:
        assert {row["url"] for row in csv.DictReader(handle)} == corpus
    lines = gzip.decompress((tmp_path / "c.jsonl.gz").read_bytes()).decode("utf-8").splitlines()
    assert {json.loads(line)["url"] for line in lines} == corpus
    assert {json.loads(line)["url"] for line in zstd_text(tmp_path / "c.jsonl.zst").splitlines()} == corpus
    table = pq.read_table(tmp_path / "c.parquet")
    assert set(table.column("url").to_pylist()) == corpus
    assert table.schema.field("published_at").type == pa.timestamp("us", tz="UTC")
    assert main(["export", "--dsn", dsn, "--format", "jsonl", str(tmp_path / "c.txt")]) == 0
    assert {json.loads(line)["url"] for line in (tmp_path / "c.txt").read_text("utf-8").splitlines()} == corpus


def test_the_parquet_export_loads_in_hugging_face_datasets(crawled_demo, tmp_path):
    datasets = pytest.importorskip("datasets")
    _, dsn, _, _ = crawled_demo
    assert main(["export", "--dsn", dsn, "--all", str(tmp_path / "all.parquet")]) == 0
    loaded = datasets.load_dataset("parquet", data_files=str(tmp_path / "all.parquet"), split="train",
                                   cache_dir=str(tmp_path / "hf-cache"))
    with psycopg.connect(dsn) as connection:
        assert loaded.num_rows == connection.execute("SELECT count(*) FROM articles").fetchone()[0]
    assert "canonical_url" in loaded.column_names


@pytest.mark.parametrize("name, message", [
    ("c.txt", "cannot tell the format of"), ("c.parquet.gz", "parquet compresses its own columns"),
])
def test_a_name_without_a_format_is_one_line_and_exit_2(crawled_demo, tmp_path, capsys, name, message):
    _, dsn, _, _ = crawled_demo
    assert main(["export", "--dsn", dsn, str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and not (tmp_path / name).exists()


def test_parquet_to_standard_output_is_refused(crawled_demo, capsys, monkeypatch):
    _, dsn, _, _ = crawled_demo
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BytesIO()))
    assert main(["export", "--dsn", dsn, "--format", "parquet", "-"]) == 2
    assert "parquet needs a file" in capsys.readouterr().err
