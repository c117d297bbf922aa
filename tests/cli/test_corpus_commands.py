"""`newscorpus articles|show|export|reextract|db` against a crawled demo site in a real Postgres."""

from __future__ import annotations

import csv
import json

import psycopg
import pytest

from crawler.cli.main import main


@pytest.fixture(scope="module")
def crawled(crawled_demo):
    return crawled_demo


def test_articles_lists_newest_first_with_chinese_titles(crawled, capsys):
    site, dsn, _, _ = crawled
    assert main(["articles", "--dsn", dsn, "--limit", "100"]) == 0
    out = capsys.readouterr().out
    for article in site.all_articles:
        assert article.title in out
    newest = max(site.articles, key=lambda a: (a.published, a.number))
    assert out.splitlines()[0].startswith(newest.published.isoformat())


def test_articles_filters_by_site_since_and_limit(crawled, capsys):
    site, dsn, _, _ = crawled
    assert main(["articles", "--dsn", dsn, "--since", "2026-11-19", "--limit", "100"]) == 0
    out = capsys.readouterr().out
    recent = [a for a in site.articles if a.published.isoformat() >= "2026-11-19"]
    old = [a for a in site.articles if a.published.isoformat() < "2026-11-19"]
    assert all(a.title in out for a in recent) and not any(a.title in out for a in old)
    assert main(["articles", "--dsn", dsn, "--limit", "3"]) == 0
    assert len([line for line in capsys.readouterr().out.splitlines() if line.startswith("2026")]) == 3
    assert main(["articles", "--dsn", dsn, "--site", "nosuchsite"]) == 0
    assert capsys.readouterr().out == ""


def test_show_prints_one_article(crawled, capsys):
    site, dsn, _, _ = crawled
    article = next(a for a in site.articles if a.encoding == "gbk-undeclared")
    assert main(["show", "--dsn", dsn, site.base_url + article.path, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["title"] == article.title and shown["encoding"] == "gb18030"
    assert article.paragraphs[-1] in shown["body"]
    assert main(["show", "--dsn", dsn, site.base_url + "/nope.html"]) == 2
    assert "no article stored" in capsys.readouterr().err


def test_export_jsonl_and_csv(crawled, tmp_path):
    site, dsn, _, _ = crawled
    assert main(["export", "--dsn", dsn, "--format", "jsonl", str(tmp_path / "corpus.jsonl")]) == 0
    records = [json.loads(line) for line in (tmp_path / "corpus.jsonl").read_text("utf-8").splitlines()]
    assert {r["title"] for r in records} == {a.title for a in site.all_articles}
    assert main(["export", "--dsn", dsn, "--format", "csv", "--site", "demo", str(tmp_path / "c.csv")]) == 0
    with open(tmp_path / "c.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(site.all_articles)
    assert all("\n" in row["body"] for row in rows)  # paragraphs survive CSV quoting


def test_reextract_rebuilds_articles_from_raw_pages(crawled, capsys):
    site, dsn, _, _ = crawled
    with psycopg.connect(dsn) as connection:
        connection.execute("UPDATE articles SET body = 'stale', title = 'stale'")
    assert main(["reextract", "--dsn", dsn, "--site", "demo"]) == 0
    out = capsys.readouterr().out
    assert f"outcome/article: {len(site.all_articles)}" in out
    with psycopg.connect(dsn) as connection:
        stale = connection.execute("SELECT count(*) FROM articles WHERE body = 'stale'").fetchone()[0]
        titles = {row[0] for row in connection.execute("SELECT title FROM articles")}
    assert stale == 0 and titles == {a.title for a in site.all_articles}


def test_db_status_and_migrate(crawled, capsys):
    _, dsn, _, _ = crawled
    assert main(["db", "migrate", "--dsn", dsn]) == 0
    assert "up to date" in capsys.readouterr().out
    assert main(["db", "status", "--dsn", dsn]) == 0
    assert "0001_core: applied" in capsys.readouterr().out


def test_clear_errors_for_bad_or_unreachable_databases(capsys):
    assert main(["articles", "--dsn", "postgresql://u:hunter2@127.0.0.1:1/db"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the database" in err and "hunter2" not in err
    assert main(["articles", "--dsn", "nonsense"]) == 2
    assert "bad database DSN" in capsys.readouterr().err
