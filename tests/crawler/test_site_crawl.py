"""End to end: crawl the demo news site (127.0.0.1) into a real Postgres with `scrapy crawl site`."""

from __future__ import annotations

import psycopg
import pytest

from newscorpus.demo.server import BINARY_PATH, EMPTY_PATH, HUGE_PATH, MISSING_PATH, PRIVATE_PATH
from tests.local_crawl import run_crawl


def table_counts(dsn: str) -> dict[str, int]:
    with psycopg.connect(dsn) as connection:
        return {table: connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("sites", "pages", "articles")}


def test_crawl_stores_every_article_with_title_and_body(crawled_demo):
    site, dsn, _, _ = crawled_demo
    with psycopg.connect(dsn) as connection:
        rows = connection.execute("SELECT url, title, body, language, encoding, author, published_at FROM articles")
        stored = {row[0].removeprefix(site.base_url): row for row in rows}
    expected = {article.path: article for article in site.all_articles}
    assert set(stored) == set(expected)
    for path, article in expected.items():
        _, title, body, language, encoding, author, published_at = stored[path]
        assert title == article.title
        assert language == article.lang
        for paragraph in article.paragraphs:
            assert paragraph in body
        assert "热门新闻" not in body and "Most read" not in body and "版权所有" not in body
        assert author == article.author
        assert published_at.date() == article.published
        if article.encoding.startswith("gbk"):
            assert encoding == "gb18030"


def test_gbk_pages_without_charset_header_decode_to_the_right_chinese(crawled_demo):
    site, dsn, _, _ = crawled_demo
    gbk = [a for a in site.articles if a.encoding.startswith("gbk")]
    assert {a.encoding for a in gbk} == {"gbk-meta", "gbk-undeclared"}
    with psycopg.connect(dsn) as connection:
        for article in gbk:
            title, body = connection.execute(
                "SELECT title, body FROM articles WHERE url = %s", (site.base_url + article.path,)).fetchone()
            assert title == article.title
            assert article.paragraphs[0] in body


def test_page_outcomes_are_recorded(crawled_demo):
    site, dsn, _, _ = crawled_demo
    with psycopg.connect(dsn) as connection:
        outcomes = dict(connection.execute(
            "SELECT substring(url from '127.0.0.1:[0-9]+(.*)'), outcome FROM pages").fetchall())
        raw_sizes = connection.execute("SELECT count(*) FROM pages WHERE raw_body IS NULL AND raw_size > 0")
        assert raw_sizes.fetchone()[0] == 0
    assert outcomes["/"] == "listing"
    assert outcomes["/section/china/"] == "listing"
    assert outcomes["/section/china/?page=2"] == "listing"
    assert outcomes[MISSING_PATH] == "http_error"
    assert outcomes[BINARY_PATH] == "not_html"
    assert outcomes[EMPTY_PATH] == "empty"
    assert outcomes[HUGE_PATH] == "too_large"
    assert outcomes["/sitemap_index.xml"] == "sitemap"
    assert outcomes["/rss.xml"] == "feed"
    assert outcomes[site.flaky_article.path] == "article"
    assert all(outcomes[a.path] == "article" for a in site.articles)


def test_polite_and_complete_fetching(crawled_demo):
    site, _, _, result = crawled_demo
    assert site.requests[PRIVATE_PATH] == 0  # robots.txt disallows /private/
    assert site.statuses[(site.flaky_article.path, 500)] == 1  # failed once, retried with back-off
    assert site.statuses[(site.flaky_article.path, 200)] == 1
    fetched_twice = {path: n for path, n in site.requests.items() if n > 1 and path != site.flaky_article.path}
    assert fetched_twice == {}
    assert "newscorpus/outcome/article" in result.stderr


def test_adhoc_url_crawl_follows_links_within_the_host(demo_site, database_dsn):
    result = run_crawl(database_dsn, f"url={demo_site.base_url}/section/world/",
                       settings={"ROBOTSTXT_OBEY": "1", "NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES": "1"})
    assert result.returncode == 0, result.stderr[-3000:]
    with psycopg.connect(database_dsn) as connection:
        titles = {row[0] for row in connection.execute("SELECT title FROM articles")}
        site_names = [row[0] for row in connection.execute("SELECT name FROM sites")]
    english = {a.title for a in demo_site.articles if a.lang == "en"}
    assert english <= titles  # reached through the world section pages
    port = demo_site.base_url.rsplit(":", 1)[1]
    assert site_names == [f"127.0.0.1-{port}"]   # the port is part of the name


# Runs last in this module: it crawls the shared database a second time.
def test_second_crawl_adds_no_rows_and_moves_last_seen(crawled_demo):
    site, dsn, config, _ = crawled_demo
    before = table_counts(dsn)
    with psycopg.connect(dsn) as connection:
        last_seen_before = connection.execute("SELECT max(last_seen) FROM articles").fetchone()[0]
    result = run_crawl(dsn, f"site={config}", settings={"NEWSCORPUS_REFETCH_AFTER_HOURS": "0"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert table_counts(dsn) == before
    with psycopg.connect(dsn) as connection:
        last_seen_after, first_seen_max = connection.execute(
            "SELECT min(last_seen), max(first_seen) FROM articles").fetchone()
        runs = connection.execute("SELECT count(*), count(finished_at) FROM crawl_runs").fetchone()
        unchanged = connection.execute("SELECT count(*) FROM pages WHERE fetch_count = 2").fetchone()[0]
    assert last_seen_after > last_seen_before >= first_seen_max
    assert runs == (2, 2)
    assert unchanged >= len(site.all_articles)
    assert "'newscorpus/storage/articles_unchanged': 31" in result.stderr


def test_missing_site_config_is_a_clear_error(database_dsn):
    result = run_crawl(database_dsn, "site=nosuchsite")
    assert result.returncode != 0
    assert "no site config 'nosuchsite'" in result.stderr


def test_unreachable_database_stops_the_crawl_with_a_clear_error(demo_site, tmp_path):
    config = tmp_path / "demo.toml"
    config.write_text(demo_site.site_config_toml(), encoding="utf-8")
    result = run_crawl("postgresql://crawler:hunter2@127.0.0.1:1/corpus", f"site={config}")
    assert result.returncode != 0
    assert "cannot reach the database at postgresql://crawler:***@127.0.0.1:1/corpus" in result.stderr
    assert "hunter2" not in result.stderr


def test_page_limit_and_extraction_in_a_process_pool(demo_site, database_dsn, tmp_path):
    config = tmp_path / "demo.toml"
    config.write_text(demo_site.site_config_toml(), encoding="utf-8")
    result = run_crawl(database_dsn, f"site={config}",
                       settings={"NEWSCORPUS_MAX_PAGES": "6", "NEWSCORPUS_EXTRACTION_WORKERS": "1"})
    assert result.returncode == 0, result.stderr[-3000:]
    page_requests = sum(n for path, n in demo_site.requests.items()
                        if path not in ("/robots.txt", "/sitemap_index.xml", "/sitemap-china.xml",
                                        "/sitemap-news.xml", "/rss.xml"))
    assert page_requests == 6
    with psycopg.connect(database_dsn) as connection:
        articles = connection.execute("SELECT count(*), count(*) FILTER (WHERE body <> '') FROM articles").fetchone()
    # Which 6 pages come first depends on timing; those that were articles came back from the pool worker.
    assert articles[0] >= 1 and articles[0] == articles[1]


def test_adhoc_crawl_of_a_loopback_host_is_refused_unless_allowed(demo_site, database_dsn):
    result = run_crawl(database_dsn, f"url={demo_site.base_url}/")
    assert result.returncode == 2, result.stderr[-3000:]
    assert "NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES=True" in result.stderr and "Traceback" not in result.stderr
    assert sum(n for path, n in demo_site.requests.items()) == 0


@pytest.mark.parametrize(("settings", "line"), [
    ({"EXTENSIONS": '{"scrapy.extensions.corestats.CoreStats": 0}'},
     "EXTENSIONS: newscorpus.crawler.extensions.crawl_database.CrawlDatabase must stay enabled"),
    ({"NEWSCORPUS_REDIS_URL": "redis://:hunter2@127.0.0.1:1/0"},
     "NEWSCORPUS_REDIS_URL: cannot reach Redis at redis://:***@127.0.0.1:1/0"),
], ids=["extensions without the database extension", "unreachable redis"])
def test_a_setting_the_crawl_cannot_use_stops_it_with_one_line(demo_site, database_dsn, tmp_path, settings, line):
    config = tmp_path / "demo.toml"
    config.write_text(demo_site.site_config_toml(), encoding="utf-8")
    result = run_crawl(database_dsn, f"site={config}", settings=settings)
    assert result.returncode == 2
    assert line in result.stderr
    assert "Traceback" not in result.stderr and "hunter2" not in result.stderr
    assert sum(demo_site.requests.values()) == 0
