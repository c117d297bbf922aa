"""Search at scale, on small corpora written here: the index follows revisions and near-duplicate marks through
its queue, an index pass with nothing queued reads no article, and the ranked top of the newest candidates equals
the full ranking."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from newscorpus.builds.search_index import index_queued, index_search, search
from newscorpus.store.migrations import migrate
from newscorpus.store.search import candidate_floor, search_articles
from tests.conftest import fresh_schema

EPOCH = datetime(2026, 11, 1, tzinfo=UTC)


@pytest.fixture
def small_corpus(postgres_server_dsn):
    """A migrated schema with one site and no article."""
    with fresh_schema(postgres_server_dsn) as dsn:
        with psycopg.connect(dsn) as connection:
            migrate(connection)
            connection.execute("INSERT INTO sites (name) VALUES ('paper')")
        yield dsn


def _add(dsn: str, articles: list[tuple[str, str]], language: str = "en") -> list[int]:
    """Insert (title, body) articles, a day apart, oldest first; their ids."""
    with psycopg.connect(dsn) as connection:
        return [connection.execute(
            "INSERT INTO articles (site_id, url, title, body, language, body_hash, first_seen, last_seen, updated_at,"
            " published_at) SELECT id, %s, %s, %s, %s, md5(%s), %s, %s, %s, %s FROM sites WHERE name = 'paper' "
            "RETURNING id",
            (f"https://paper.example/{number}-{hash(title) & 0xffff}", title, body, language, body,
             EPOCH + timedelta(days=number), EPOCH + timedelta(days=number), EPOCH + timedelta(days=number),
             EPOCH + timedelta(days=number))).fetchone()[0]
            for number, (title, body) in enumerate(articles)]


def test_a_search_after_an_article_is_revised_finds_the_new_text(small_corpus):
    dsn = small_corpus
    [first, _] = _add(dsn, [("Harbour report", "The ferry to the island left on time."),
                            ("城市交通", "杭州的地铁今天延长了运营时间。")])
    assert [hit.id for hit in search(dsn, "ferry")] == [first]
    with psycopg.connect(dsn) as connection:
        connection.execute("UPDATE articles SET clean_body = 'The hovercraft replaced the old service.', "
                           "cleaned_at = now() WHERE id = %s", (first,))
    assert [hit.id for hit in search(dsn, "hovercraft")] == [first]
    assert search(dsn, "ferry") == []  # the old text is gone from the index
    assert [hit.title for hit in search(dsn, "地铁")] == ["城市交通"]


def test_an_article_marked_near_duplicate_leaves_the_index_and_comes_back_when_unmarked(small_corpus):
    dsn = small_corpus
    [original, copy] = _add(dsn, [("Storm", "Heavy rain flooded the valley road."),
                                  ("Storm again", "Heavy rain flooded the valley road today.")])
    assert {hit.id for hit in search(dsn, "valley")} == {original, copy}
    with psycopg.connect(dsn) as connection:
        feature = ("INSERT INTO near_duplicate_features (url, site_id, language, source_hash, body_hash, token_count,"
                   " shingle_count, sketch, keywords, title_keywords, canonical_id) SELECT url, site_id, 'en', 's',"
                   " 'b', 1, 1, '{}', '{}', '{}', %s FROM articles WHERE id = %s RETURNING id")
        canonical = connection.execute(feature, (None, original)).fetchone()[0]
        connection.execute(feature, (canonical, copy))
    assert [hit.id for hit in search(dsn, "valley")] == [original]
    with psycopg.connect(dsn) as connection:
        assert connection.execute("SELECT count(*) FROM article_search").fetchone()[0] == 1
        connection.execute("UPDATE near_duplicate_features SET canonical_id = NULL WHERE canonical_id IS NOT NULL")
    assert {hit.id for hit in search(dsn, "valley")} == {original, copy}


def test_a_search_with_nothing_new_reads_no_article_and_reports_no_progress(small_corpus):
    dsn = small_corpus
    _add(dsn, [(f"Report {number}", f"rail strike day {number} " * (number + 1)) for number in range(30)])
    calls: list[tuple[int, int]] = []
    search(dsn, "rail", progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (30, 30)  # the first search indexed the new articles and said so
    calls.clear()
    assert search(dsn, "strike", progress=lambda done, total: calls.append((done, total)))
    assert calls == []
    with psycopg.connect(dsn) as connection:  # one transaction: pg_stat_xact_* counts this backend's reads in it
        counts = index_queued(connection)
        reads = connection.execute(
            "SELECT coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0) FROM pg_stat_xact_user_tables "
            "WHERE schemaname = current_schema() AND relname IN ('articles', 'article_search', 'sites')").fetchone()[0]
    assert counts["articles_indexed"] == counts["batches"] == 0
    assert reads == 0


def _full_ranking(dsn: str, expression: str) -> list[int]:
    """Every match scored, as the search ranked before candidates were bounded."""
    with psycopg.connect(dsn) as connection:
        return [row[0] for row in connection.execute(
            "SELECT c.id FROM article_search s JOIN corpus_articles c ON c.id = s.article_id "
            "WHERE s.vector @@ to_tsquery('simple', %s) ORDER BY ts_rank_cd(s.vector, to_tsquery('simple', %s)) DESC,"
            " coalesce(c.published_at, c.first_seen) DESC, c.id DESC", (expression, expression))]


def test_top_k_equals_the_full_ranking_where_ranks_differ(small_corpus):
    dsn = small_corpus
    # rank grows with the word's occurrences and with its place in the title; ties broken by date
    articles = [(("Tide tables" if number % 4 == 0 else f"Notice {number}"),
                 " ".join(["tide"] * (number % 7 + 1) + ["news"] * (number % 4) + ["harbour"] * (number % 3)))
                for number in range(60)]
    articles += [("潮汐", "今天 潮汐 很 高 " * (number % 5 + 1)) for number in range(20)]
    _add(dsn, articles)
    index_search(dsn)
    for text, expression in (("tide", "('tide')"), ("tide harbour", "('tide') & ('harbour')"),
                             ("潮汐", "('潮汐')")):
        full = _full_ranking(dsn, expression)
        ranks = {round(hit.rank, 6) for hit in search(dsn, text, limit=200)}
        assert len(ranks) > 2  # ranks differ: the order is the ranking's, not the ties'
        for limit in (1, 5, 20):
            assert [hit.id for hit in search(dsn, text, limit=limit)] == full[:limit]
    # ranking only the newest 30 of 60 matches keeps the best of those
    newest = sorted(_full_ranking(dsn, "('tide')"), reverse=True)[:30]
    assert [hit.id for hit in search(dsn, "tide", limit=5, candidates=30)] == \
        [article_id for article_id in _full_ranking(dsn, "('tide')") if article_id in newest][:5]


def test_widening_windows_find_the_same_newest_candidates(small_corpus):
    dsn = small_corpus
    # a word in every third article: windows sized by a wrong estimate must widen until they hold the newest candidates
    ids = _add(dsn, [(f"Item {number}", "gale warning" if number % 3 == 0 else "calm sea") for number in range(90)])
    index_search(dsn)
    gale = [article_id for number, article_id in enumerate(ids) if number % 3 == 0]
    for estimate in (1, 30, 300, 3000, 30000, None):  # None: the planner's
        for candidates in (1, 7, 30, 50):
            found = search_articles(dsn, "('gale')", limit=100, candidates=candidates, estimate=estimate)
            assert sorted(row[0] for row in found) == sorted(gale[-candidates:])
    assert search_articles(dsn, "('gale') & ('calm')", estimate=10_000) == []


def test_a_word_estimated_at_few_matches_is_ranked_over_the_whole_index_at_once():
    # ids 1..1,000,000, 1,000 candidates: up to 10,000 estimated matches, no window below the whole index
    assert candidate_floor(1, 1_000_000, 5_003, 1000, []) == 0
    assert candidate_floor(1, 1_000_000, 10_000, 1000, []) == 0
    # more: the first window is what the estimate's density predicts for 1,500 candidates
    assert candidate_floor(1, 1_000_000, 30_000, 1000, []) == 1_000_000 - 50_000
    # a window that held too few widens by the density it saw
    assert candidate_floor(1, 1_000_000, 30_000, 1000, [100]) == 1_000_000 - 750_000
