"""`newscorpus articles|show|export|reextract|db` against a crawled demo site in a real Postgres."""

from __future__ import annotations

import csv
import json

import psycopg

from newscorpus.cli.main import main


def test_articles_lists_newest_first_with_chinese_titles(crawled_demo, capsys):
    site, dsn, _, _ = crawled_demo
    assert main(["articles", "--dsn", dsn, "--limit", "100"]) == 0
    out = capsys.readouterr().out
    for article in site.all_articles:
        assert article.title in out
    newest = max(site.articles, key=lambda a: (a.published, a.number))
    header, first = out.splitlines()[:2]
    assert header.split()[:4] == ["date", "site", "lng", "chars"]
    assert first.startswith(newest.published.isoformat())


def test_articles_filters_by_site_since_and_limit(crawled_demo, capsys):
    site, dsn, _, _ = crawled_demo
    assert main(["articles", "--dsn", dsn, "--since", "2026-11-19", "--limit", "100"]) == 0
    out = capsys.readouterr().out
    recent = [a for a in site.articles if a.published.isoformat() >= "2026-11-19"]
    old = [a for a in site.articles if a.published.isoformat() < "2026-11-19"]
    assert all(a.title in out for a in recent) and not any(a.title in out for a in old)
    assert main(["articles", "--dsn", dsn, "--limit", "3"]) == 0
    assert len([line for line in capsys.readouterr().out.splitlines() if line.startswith("2026")]) == 3
    assert main(["articles", "--dsn", dsn, "--site", "nosuchsite"]) == 2
    assert "no site named 'nosuchsite' in the corpus (sites: demo)" in capsys.readouterr().err


def test_show_prints_one_article(crawled_demo, capsys):
    site, dsn, _, _ = crawled_demo
    article = next(a for a in site.articles if a.encoding == "gbk-undeclared")
    assert main(["show", "--dsn", dsn, site.base_url + article.path, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["title"] == article.title and shown["encoding"] == "gb18030"
    assert article.paragraphs[-1] in shown["body"]
    assert main(["show", "--dsn", dsn, site.base_url + "/nope.html"]) == 2
    assert "no article stored" in capsys.readouterr().err


def test_show_finds_an_article_under_the_spellings_a_user_means(crawled_demo, capsys):
    site, dsn, _, _ = crawled_demo
    url = site.base_url + site.articles[0].path
    for spelling in (url + "/", url.removeprefix("http://"), url.replace("http://", "https://")):
        assert main(["show", "--dsn", dsn, spelling, "--json"]) == 0, spelling
        assert json.loads(capsys.readouterr().out)["url"] == url


def _corpus(dsn: str) -> tuple[set[str], set[str]]:
    """(URLs of the published corpus, URLs of every stored article)."""
    with psycopg.connect(dsn) as connection:
        corpus = {row[0] for row in connection.execute("SELECT url FROM corpus_articles")}
        stored = {row[0] for row in connection.execute("SELECT url FROM articles")}
    return corpus, stored


def test_export_writes_the_published_corpus_and_all_articles_with_all(crawled_demo, tmp_path):
    site, dsn, _, _ = crawled_demo
    corpus, stored = _corpus(dsn)
    assert corpus < stored  # the demo has a reprint: a near-duplicate left out of the corpus
    assert main(["export", "--dsn", dsn, "--format", "jsonl", str(tmp_path / "corpus.jsonl")]) == 0
    records = [json.loads(line) for line in (tmp_path / "corpus.jsonl").read_text("utf-8").splitlines()]
    assert {r["url"] for r in records} == corpus
    assert "canonical_url" not in records[0]
    assert main(["export", "--dsn", dsn, "--all", str(tmp_path / "all.jsonl")]) == 0
    every = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text("utf-8").splitlines()]
    assert {r["url"] for r in every} == stored
    assert {r["url"] for r in every if r["canonical_url"]} == stored - corpus
    assert all(r["canonical_url"] in corpus and r["duplicate_method"] for r in every if r["canonical_url"])
    assert main(["export", "--dsn", dsn, "--format", "csv", "--site", "demo", str(tmp_path / "c.csv")]) == 0
    with open(tmp_path / "c.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(corpus)
    assert all("\n" in row["body"] for row in rows)  # paragraphs survive CSV quoting


def test_show_prints_the_body_export_writes_and_says_which(crawled_demo, tmp_path, capsys):
    site, dsn, _, _ = crawled_demo
    with psycopg.connect(dsn) as connection:  # a cleaned article whose cleaning removed something
        url, clean_body, body = connection.execute(
            "SELECT url, clean_body, body FROM articles WHERE clean_body IS NOT NULL AND clean_body <> body "
            "ORDER BY id LIMIT 1").fetchone() or (None, None, None)
        if url is None:  # the demo's line statistics did not mature: clean one article by hand
            url, body = connection.execute("SELECT url, body FROM articles ORDER BY id LIMIT 1").fetchone()
            clean_body = body.split("\n", 1)[1]
            connection.execute("UPDATE articles SET clean_body = %s, cleaned_at = now() WHERE url = %s",
                               (clean_body, url))
    assert main(["export", "--dsn", dsn, "--all", str(tmp_path / "all.jsonl")]) == 0
    exported = next(json.loads(line) for line in (tmp_path / "all.jsonl").read_text("utf-8").splitlines()
                    if json.loads(line)["url"] == url)
    capsys.readouterr()
    assert main(["show", "--dsn", dsn, url]) == 0
    out = capsys.readouterr().out
    assert "body: published text (line noise removed" in out
    assert out.endswith(exported["body"] + "\n") and exported["body"] == clean_body
    assert main(["show", "--dsn", dsn, url, "--extracted"]) == 0
    out = capsys.readouterr().out
    assert "body: as extracted, before line-noise cleaning" in out and out.endswith(body + "\n")


def test_show_names_a_near_duplicate_and_its_canonical(crawled_demo, capsys):
    _, dsn, _, _ = crawled_demo
    corpus, stored = _corpus(dsn)
    duplicate = sorted(stored - corpus)[0]
    assert main(["show", "--dsn", dsn, duplicate]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("near-duplicate of: "))
    assert line.split()[2] in corpus and "not in the published corpus" in line


def test_templates_by_site_name_or_host(crawled_demo, capsys):
    site, dsn, _, _ = crawled_demo
    with psycopg.connect(dsn) as connection:
        hosts = {row[0] for row in connection.execute("SELECT site FROM site_templates")}
    host = site.base_url.removeprefix("http://")
    assert hosts == {host}  # templates are kept per host and port: another site on the host keeps its own
    assert main(["templates", "--dsn", dsn, "--site", "demo"]) == 0
    by_name = capsys.readouterr().out
    assert main(["templates", "--dsn", dsn, "--site", host]) == 0
    assert capsys.readouterr().out == by_name and host in by_name and "no templates" not in by_name
    assert main(["templates", "--dsn", dsn, "--site", "127.0.0.1:9"]) == 0
    assert host not in capsys.readouterr().out
    assert main(["templates", "--dsn", dsn, "--site", "nosuch"]) == 2
    assert "no site or template host named 'nosuch' (sites: demo)" in capsys.readouterr().err


def test_reextract_rebuilds_articles_from_raw_pages(crawled_demo, capsys):
    site, dsn, _, _ = crawled_demo
    with psycopg.connect(dsn) as connection:
        connection.execute("UPDATE articles SET body = 'stale', title = 'stale'")
    assert main(["reextract", "--dsn", dsn, "--site", "demo"]) == 0
    out = capsys.readouterr().out
    assert f"articles: {len(site.all_articles)}" in out
    assert f"articles_written: {len(site.all_articles)}" in out
    with psycopg.connect(dsn) as connection:
        stale = connection.execute("SELECT count(*) FROM articles WHERE body = 'stale'").fetchone()[0]
        titles = {row[0] for row in connection.execute("SELECT title FROM articles")}
        uncleaned = connection.execute("SELECT count(*) FROM articles WHERE clean_body IS NULL").fetchone()[0]
    assert stale == 0 and titles == {a.title for a in site.all_articles}
    assert uncleaned == 0  # never published with the site's boilerplate
    assert main(["reextract", "--dsn", dsn, "--site", "demo"]) == 0
    assert "changed: 0" in capsys.readouterr().out.splitlines()


def test_db_status_and_migrate(crawled_demo, capsys):
    _, dsn, _, _ = crawled_demo
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
