"""The counts of `newscorpus stats`, kept on write (migrations/0018_corpus_counts.sql), against the straightforward
queries over every article, through inserts, near-duplicate links, cleaning, re-extraction and deletes."""

from __future__ import annotations

from datetime import date

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from newscorpus.store.builds import CorpusCounts, corpus_counts

# What `stats` counted by reading every article, before the counts were kept on write.
SCAN_PER_SITE_DAY = """
SELECT site, coalesce(published_at, first_seen)::date AS day, count(*) AS articles
FROM corpus_articles
WHERE (%(site)s::text IS NULL OR site = %(site)s)
  AND (%(since)s::date IS NULL OR coalesce(published_at, first_seen) >= %(since)s::date)
  AND (%(until)s::date IS NULL OR coalesce(published_at, first_seen) < %(until)s::date + 1)
GROUP BY 1, 2
ORDER BY 1, 2
"""
SCAN_DUPLICATES = """
SELECT s.name AS site, count(*) AS articles, count(DISTINCT a.body_hash) AS distinct_bodies,
       count(d.url) AS near_duplicates
FROM articles a JOIN sites s ON s.id = a.site_id
LEFT JOIN article_duplicates d ON d.url = a.url
WHERE (%(site)s::text IS NULL OR s.name = %(site)s)
GROUP BY 1 ORDER BY 1
"""
SCAN_NOISE = """
SELECT s.name AS site,
       count(*) FILTER (WHERE a.clean_body IS NOT NULL) AS cleaned_articles,
       coalesce(sum(a.noise_lines) FILTER (WHERE a.clean_body IS NOT NULL), 0) AS noise_lines,
       coalesce(sum((SELECT count(*) FROM regexp_split_to_table(a.body, E'\\n') line WHERE btrim(line) <> ''))
                FILTER (WHERE a.clean_body IS NOT NULL), 0) AS body_lines
FROM articles a JOIN sites s ON s.id = a.site_id
WHERE (%(site)s::text IS NULL OR s.name = %(site)s)
GROUP BY 1 ORDER BY 1
"""

FILTERS = [(None, None, None), ("alpha", None, None), ("beta", None, None), ("nothing", None, None),
           (None, date(2026, 3, 2), None), (None, None, date(2026, 3, 2)),
           ("alpha", date(2026, 3, 2), date(2026, 3, 2))]
TIME_ZONES = ["UTC", "Asia/Kolkata", "America/New_York", "Asia/Kathmandu"]  # +5:30, -5:00, +5:45


def in_time_zone(dsn: str, zone: str) -> str:
    options = conninfo_to_dict(dsn).get("options", "")
    return make_conninfo(dsn, options=f"{options} -cTimeZone={zone}".strip())


def scanned(dsn: str, site, since, until) -> CorpusCounts:
    with psycopg.connect(dsn) as connection:
        params = {"site": site, "since": since, "until": until}
        return CorpusCounts(*(connection.execute(text, params).fetchall()
                              for text in (SCAN_PER_SITE_DAY, SCAN_DUPLICATES, SCAN_NOISE)))


def assert_counts_match(dsn: str) -> None:
    for zone in TIME_ZONES:
        zoned = in_time_zone(dsn, zone)
        for site, since, until in FILTERS:
            kept, scan = corpus_counts(zoned, site, since, until), scanned(zoned, site, since, until)
            assert kept.per_site_day == scan.per_site_day, (zone, site, since, until)
            assert kept.duplicates == scan.duplicates, (zone, site)
            assert kept.noise == scan.noise, (zone, site)


def add_article(connection, site_id: int, url: str, body: str, *, body_hash: str | None = None,
                published: str | None = "2026-03-01 23:50+00", first_seen: str = "2026-03-02 00:10+00") -> None:
    connection.execute(
        "INSERT INTO articles (site_id, url, title, body, body_hash, first_seen, last_seen, updated_at,"
        " published_at) VALUES (%s, %s, 't', %s, %s, %s, %s, %s, %s)",
        (site_id, url, body, body_hash or f"h-{body}", first_seen, first_seen, first_seen, published))


def add_features(connection, site_id: int, url: str, canonical_url: str | None = None) -> None:
    connection.execute(
        "INSERT INTO near_duplicate_features (url, site_id, language, source_hash, body_hash, token_count,"
        " shingle_count, sketch, keywords, title_keywords, canonical_id)"
        " VALUES (%s, %s, 'en', %s, %s, 10, 6, '{}', '{}', '{}',"
        " (SELECT id FROM near_duplicate_features WHERE url = %s))",
        (url, site_id, f"s-{url}", f"b-{url}", canonical_url))


@pytest.fixture
def corpus(migrated_connection, database_dsn):
    """Two sites: exact duplicates within and across sites, an empty body, an article without a published
    date, articles on both sides of midnight UTC (another day in New York and in Kathmandu)."""
    connection = migrated_connection
    alpha, beta = (connection.execute("INSERT INTO sites (name) VALUES (%s) RETURNING id", (name,)).fetchone()[0]
                   for name in ("alpha", "beta"))
    add_article(connection, alpha, "https://a.example/1", "line one\n\n  \nline two\nline three")
    add_article(connection, alpha, "https://a.example/2", "line one\n\n  \nline two\nline three")  # same body
    add_article(connection, alpha, "https://a.example/3", "", published="2026-03-02 12:00+00")
    add_article(connection, alpha, "https://a.example/4", "other\nnav\nnav", published=None)
    add_article(connection, alpha, "https://a.example/5", "late story\nnav", published="2026-03-02 04:20+00")
    add_article(connection, beta, "https://b.example/1", "line one\n\n  \nline two\nline three")
    add_article(connection, beta, "https://b.example/2", "a beta story\nnav", published="2026-02-28 18:40+00")
    return connection, database_dsn, alpha, beta


def test_counts_kept_on_write_equal_the_scan_of_every_article(corpus):
    connection, dsn, alpha, beta = corpus
    assert_counts_match(dsn)
    # near-duplicate marks: on a stored article, on a URL whose article comes later, cleared, moved, deleted
    add_features(connection, alpha, "https://a.example/1")
    add_features(connection, alpha, "https://a.example/2", canonical_url="https://a.example/1")
    add_features(connection, beta, "https://b.example/1", canonical_url="https://a.example/1")
    add_features(connection, beta, "https://b.example/3", canonical_url="https://a.example/1")
    assert_counts_match(dsn)
    add_article(connection, beta, "https://b.example/3", "line one\nline two")
    assert_counts_match(dsn)
    connection.execute("UPDATE near_duplicate_features SET canonical_id = NULL WHERE url = 'https://b.example/1'")
    connection.execute("UPDATE near_duplicate_features SET url = 'https://b.example/2' "
                       "WHERE url = 'https://b.example/3'")
    assert_counts_match(dsn)
    # the line-noise stage cleans; a re-clean leaves one article with no text
    connection.execute("UPDATE articles SET clean_body = 'line one\nline two', noise_lines = 1, cleaned_at = now() "
                       "WHERE url IN ('https://a.example/1', 'https://a.example/4')")
    connection.execute("UPDATE articles SET clean_body = '', noise_lines = 2, cleaned_at = now() "
                       "WHERE url = 'https://a.example/5'")
    assert_counts_match(dsn)
    # a re-crawl moves last_seen only; a re-extraction changes bodies and dates; a site's article moves
    connection.execute("UPDATE articles SET last_seen = now()")
    connection.execute("UPDATE articles SET body = 'new text\n\nmore', body_hash = 'h-new', clean_body = NULL, "
                       "noise_lines = NULL, published_at = '2026-03-03 10:00+00' WHERE url = 'https://a.example/4'")
    connection.execute("UPDATE articles SET body = 'line one\n\n  \nline two\nline three\nline four' "
                       "WHERE url = 'https://a.example/1'")
    connection.execute("UPDATE articles SET site_id = %s WHERE url = 'https://a.example/2'", (beta,))
    assert_counts_match(dsn)
    # deletes: an article, a mark, then every mark at once
    with connection.transaction():
        connection.execute("DELETE FROM near_duplicate_features WHERE url = 'https://b.example/2'")
        connection.execute("DELETE FROM articles WHERE url = 'https://b.example/3'")
    assert_counts_match(dsn)
    connection.execute("UPDATE near_duplicate_features SET canonical_id = id WHERE url = 'https://a.example/1'")
    assert_counts_match(dsn)
    connection.execute("TRUNCATE near_duplicate_features")
    assert_counts_match(dsn)


def test_the_body_lines_kept_are_the_non_blank_lines_of_the_body(corpus):
    connection = corpus[0]
    lines = dict(connection.execute("SELECT url, body_lines FROM articles").fetchall())
    assert lines["https://a.example/1"] == 3 and lines["https://a.example/3"] == 0
    connection.execute("UPDATE articles SET body = 'x\n\ny' WHERE url = 'https://a.example/3'")
    assert connection.execute("SELECT body_lines FROM articles WHERE url = 'https://a.example/3'").fetchone() == (2,)


def test_a_second_fold_changes_nothing_and_a_recount_gives_the_same_counts(corpus):
    connection, dsn, _, _ = corpus
    first = corpus_counts(dsn)
    assert connection.execute("SELECT count(*) FROM corpus_count_changes").fetchone() == (0,)
    assert corpus_counts(dsn) == first
    connection.execute("SELECT corpus_counts_recount()")
    assert corpus_counts(dsn) == first
    connection.execute("TRUNCATE articles CASCADE")
    assert corpus_counts(dsn) == CorpusCounts([], [], [])
