"""The corpus as a function of its pages (newscorpus.store.derivation), against a real Postgres: the same pages
stored in two orders derive to the same rows, maintenance run twice changes nothing the second time, and a page
the crawl's gates drop is not published by a re-derivation."""

from __future__ import annotations

import zlib
from datetime import UTC, datetime

import psycopg
import pytest

from newscorpus.cli.main import main
from newscorpus.core.derivation import Derivation, StoredPage
from newscorpus.store.connection import connect
from newscorpus.store.derivation import (
    DerivationSettings,
    canonical_key,
    corpus_digest,
    derive_site,
    published_articles,
)
from newscorpus.store.migrations import migrate
from tests.conftest import fresh_schema

PAGE_COLUMNS = ("url, final_url, status, content_type, encoding, content_hash, raw_body, raw_size, url_kind, "
                "outcome, outcome_detail, fetched_at, last_seen, fetch_count")


def derived_rows(dsn: str) -> list[tuple]:
    with psycopg.connect(dsn) as connection:
        return connection.execute(
            "SELECT url, title, author, authors, published_at, language, body, clean_body, noise_lines, "
            "extraction_method, extractor_version, site_model_version, line_stats_version FROM articles "
            "ORDER BY url").fetchall()


def copy_pages_in_reverse(source: str, target: str) -> None:
    """The source's sites and pages into the target, pages inserted from the last URL to the first (other ids,
    another arrival order), no article: as if a crawl had stored the same pages in another order."""
    with psycopg.connect(source) as reading:
        sites = reading.execute("SELECT id, name FROM sites ORDER BY id").fetchall()
        pages = reading.execute(f"SELECT site_id, {PAGE_COLUMNS} FROM pages ORDER BY url DESC").fetchall()
    with psycopg.connect(target) as writing:
        migrate(writing)
        ids = {old: writing.execute("INSERT INTO sites (name) VALUES (%s) RETURNING id", (name,)).fetchone()[0]
               for old, name in sites}
        placeholders = ", ".join(["%s"] * (len(PAGE_COLUMNS.split(",")) + 1))
        for site_id, *values in pages:
            writing.execute(f"INSERT INTO pages (site_id, {PAGE_COLUMNS}) VALUES ({placeholders})",
                            (ids[site_id], *values))


def test_the_same_pages_stored_in_another_order_derive_to_the_same_rows(crawled_demo, postgres_server_dsn):
    _site, dsn, _, result = crawled_demo
    assert "'newscorpus/derivation/articles'" in result.stderr   # the crawl's end derived its articles
    with fresh_schema(postgres_server_dsn) as other:
        copy_pages_in_reverse(dsn, other)
        counts = derive_site(other, "demo")
        assert counts["articles"] == len(derived_rows(dsn)) > 0
        assert derived_rows(other) == derived_rows(dsn)
        assert corpus_digest(other) == corpus_digest(dsn)
        assert list(published_articles(other)) == list(published_articles(dsn))


def test_a_second_derivation_and_a_second_clean_change_nothing(crawled_demo, capsys):
    _site, dsn, _, _ = crawled_demo
    before = corpus_digest(dsn)
    assert derive_site(dsn, "demo")["changed"] == 0
    assert derive_site(dsn, "demo", extract=False)["changed"] == 0
    assert corpus_digest(dsn) == before
    assert main(["stats", "--digest", "--dsn", dsn]) == 0
    assert capsys.readouterr().out.split()[0] == before[0]


def page(url: str, body_lines: list[str]) -> bytes:
    paragraphs = "".join(f"<p>{line}</p>" for line in body_lines)
    return (f"<html><head><title>{url.rsplit('/', 1)[-1]} | 样例站</title></head><body><nav><a href='/'>首页</a></nav>"
            f"<div class='article'>{paragraphs}</div><footer>版权所有</footer></body></html>").encode()


def words(seed: int, count: int) -> str:
    """A sentence of ``count`` CJK characters of its own (digits alone would not make lines differ: line noise
    hashes them all alike)."""
    return "".join(chr(0x4E00 + (seed * 7919 + i * 104729) % 20000) for i in range(count)) + "。"


WIDGET = ["相关文章", "(16 人打了分，平均分： 3.63 )", "Loading...", "分享到：微博 微信 QQ空间 豆瓣 人人网 邮件"]


def store_pages(dsn: str, pages: dict[str, bytes]) -> None:
    with psycopg.connect(dsn) as connection:
        migrate(connection)
        site_id = connection.execute("INSERT INTO sites (name) VALUES ('sample') RETURNING id").fetchone()[0]
        now = datetime(2026, 12, 1, tzinfo=UTC)
        for url, raw in pages.items():
            connection.execute(
                "INSERT INTO pages (site_id, url, final_url, status, content_type, content_hash, raw_body, raw_size, "
                "url_kind, outcome, fetched_at, last_seen) VALUES (%s, %s, %s, 200, 'text/html; charset=utf-8', "
                "md5(%s), %s, %s, 'article', 'article', %s, %s)",
                (site_id, url, url, url, zlib.compress(raw), len(raw), now, now))


def test_a_page_left_with_only_the_sites_widget_is_never_published(database_dsn):
    stories = {f"http://sample.test/a/{n}.html": page(f"http://sample.test/a/{n}.html", [
        words(n, 120), words(1000 + n, 80), *WIDGET]) for n in range(1, 40)}
    only_widget = "http://sample.test/a/99.html"
    stories[only_widget] = page(only_widget, WIDGET * 3)
    store_pages(database_dsn, stories)
    settings = DerivationSettings(near_duplicate=None)
    first = derive_site(database_dsn, "sample", settings)
    published = {record["url"]: record["body"] for record in published_articles(database_dsn)}
    assert only_widget not in published and len(published) == 39
    assert not any(line in body for body in published.values() for line in WIDGET)
    with connect(database_dsn) as connection:
        outcome = connection.execute("SELECT outcome FROM pages WHERE url = %s", (only_widget,)).fetchone()[0]
    assert outcome in ("empty_after_cleaning", "no_body")
    assert first["changed"] > 0
    for extract in (True, False, True):
        assert derive_site(database_dsn, "sample", settings, extract=extract)["changed"] == 0
    assert only_widget not in {record["url"] for record in published_articles(database_dsn)}


def test_derivation_takes_pages_in_url_order_only():
    def stored(url: str) -> StoredPage:
        return StoredPage(1, url, url, "text/html", "h", page(url, ["正文" * 40]), None)

    derivation = Derivation(None)
    assert len(list(derivation.extract_all([stored("http://x.test/a"), stored("http://x.test/b")]))) == 2
    with pytest.raises(ValueError, match="URL order"):
        list(Derivation(None).extract_all([stored("http://x.test/b"), stored("http://x.test/a")]))


def test_the_canonical_is_the_first_published_full_copy_whatever_the_arrival_order():
    day = datetime(2026, 1, 2, tzinfo=UTC)
    later = datetime(2026, 1, 3, tzinfo=UTC)
    members = [(100, day, "http://b.test/1"), (100, later, "http://a.test/1"), (60, None, "http://0.test/1")]
    best = [min(order, key=lambda m: canonical_key(m[0], 100, m[1], m[2]))
            for order in (members, members[::-1], members[1:] + members[:1])]
    assert best == [members[0]] * 3                       # first published, not first seen
    same_day = [(100, day, "http://b.test/1"), (100, day, "http://a.test/1")]
    assert min(same_day, key=lambda m: canonical_key(m[0], 100, m[1], m[2]))[2] == "http://a.test/1"
    truncated_first = [(50, day, "http://a.test/1"), (100, later, "http://b.test/1")]
    assert min(truncated_first, key=lambda m: canonical_key(m[0], 100, m[1], m[2]))[2] == "http://b.test/1"
