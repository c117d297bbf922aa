"""The near-duplicate stage between line noise and storage, on a fresh schema of the real server: reprints are
stored and linked, corpus_articles shows canonical articles only, a re-crawl changes nothing."""

from __future__ import annotations

import asyncio
import os
import signal
from datetime import UTC, datetime

import psycopg
import pytest
from scrapy.utils.test import get_crawler

from newscorpus.crawler.extensions.crawl_database import CrawlDatabase
from newscorpus.crawler.items import PageItem
from newscorpus.pipelines.near_duplicate import NearDuplicatePipeline, config_from_settings
from newscorpus.pipelines.storage import StoragePipeline
from tests.core.near_duplicate.texts import (
    EN_FOLLOWUP_PARAGRAPHS,
    EN_FOLLOWUP_TITLE,
    EN_PARAGRAPHS,
    EN_TITLE,
    ZH_PARAGRAPHS,
    ZH_TITLE,
    en_reprint,
    zh_reprint,
)

ARTICLES = [  # url, title, body, clean_body
    ("https://a.example/zh/1", ZH_TITLE, "\n".join(ZH_PARAGRAPHS), None),
    ("https://b.example/zh/2", *zh_reprint(), None),
    ("https://a.example/en/1", EN_TITLE, "\n\n".join(EN_PARAGRAPHS), None),
    # the line-noise stage's cleaned body is what is compared (the raw body carries a long menu)
    ("https://b.example/en/2", en_reprint()[0], "Home News Sport Weather\n" * 40 + en_reprint()[1], en_reprint()[1]),
    ("https://c.example/en/3", EN_FOLLOWUP_TITLE, "\n\n".join(EN_FOLLOWUP_PARAGRAPHS), None),
    ("https://c.example/en/4", "Short note", "Opening hours change on Monday.", None),
]


def page_item(url, title, body, clean_body) -> PageItem:
    return PageItem(url=url, final_url=url, site="news", status=200, fetched_at=datetime(2026, 11, 22, tzinfo=UTC),
                    content_type="text/html", raw_body=body.encode(), url_kind="article", outcome="article",
                    title=title, body=body, language="zh" if "/zh/" in url else "en", clean_body=clean_body)


def crawl_through_stages(dsn: str, *, together: bool = False, workers: int = 0, kill_worker: bool = False
                         ) -> tuple[list[PageItem], dict]:
    """The articles one after the other, or (together) all in flight at once, as under a busy crawl; `workers`:
    decided in a process of their own, which `kill_worker` kills before the first article."""
    async def run():
        crawler = get_crawler(settings_dict={"NEWSCORPUS_NEAR_DUPLICATE_BATCH_SIZE": "4",
                                             "NEWSCORPUS_NEAR_DUPLICATE_WORKERS": str(workers)})
        crawler.stats.open_spider()
        database = CrawlDatabase(crawler, dsn, "", batch_size=50)
        await database.open("news")
        stage = NearDuplicatePipeline(crawler, database, config_from_settings(crawler.settings))
        storage = StoragePipeline(crawler, database)
        await stage.open_recorder()  # open_spider needs a running spider
        if kill_worker:
            os.kill(stage.recorder.process.pid, signal.SIGKILL)

        async def through(article):
            return await storage.process_item(await stage.process_item(page_item(*article)))

        if together:
            await database.site_id("news")  # known: the six items queue up in the same loop turn
            items = await asyncio.gather(*(through(article) for article in ARTICLES))
        else:
            items = [await through(article) for article in ARTICLES]
        await stage.close_spider()
        await database.writer.close()
        return items, crawler.stats.get_stats()

    return asyncio.run(run())


def test_reprints_are_stored_linked_and_left_out_of_the_corpus_view(database_dsn):
    items, stats = crawl_through_stages(database_dsn)
    notes = [item.annotations["near_duplicate"] for item in items]
    assert [n["status"] for n in notes] == ["canonical", "duplicate", "canonical", "duplicate", "canonical",
                                            "skipped_short"]
    assert notes[1]["canonical_url"] == ARTICLES[0][0] and notes[3]["canonical_url"] == ARTICLES[2][0]
    assert stats["newscorpus/near_duplicate/canonical"] == 3
    assert stats["newscorpus/near_duplicate/duplicate/keywords"] == 2
    assert stats["newscorpus/near_duplicate/skipped_short"] == 1
    with psycopg.connect(database_dsn) as connection:
        stored = {row[0] for row in connection.execute("SELECT url FROM articles")}
        published = {row[0] for row in connection.execute("SELECT url FROM corpus_articles")}
        links = dict(connection.execute("SELECT url, canonical_url FROM article_duplicates").fetchall())
    assert stored == {a[0] for a in ARTICLES}  # nothing dropped
    assert published == stored - {ARTICLES[1][0], ARTICLES[3][0]}
    assert links == {ARTICLES[1][0]: ARTICLES[0][0], ARTICLES[3][0]: ARTICLES[2][0]}


def test_articles_in_flight_together_are_decided_in_batches_with_the_same_outcome(database_dsn):
    items, stats = crawl_through_stages(database_dsn, together=True)
    assert [item.annotations["near_duplicate"]["status"] for item in items] == \
        ["canonical", "duplicate", "canonical", "duplicate", "canonical", "skipped_short"]
    assert stats["newscorpus/near_duplicate/batches"] == 2 and stats["newscorpus/near_duplicate/largest_batch"] == 4
    with psycopg.connect(database_dsn) as connection:
        links = dict(connection.execute("SELECT url, canonical_url FROM article_duplicates").fetchall())
    assert links == {ARTICLES[1][0]: ARTICLES[0][0], ARTICLES[3][0]: ARTICLES[2][0]}


@pytest.mark.parametrize("kill_worker", [False, True])
def test_features_in_a_worker_process_give_the_same_outcomes_and_a_dead_worker_loses_nothing(database_dsn,
                                                                                             kill_worker):
    expected, _ = crawl_through_stages(database_dsn)
    with psycopg.connect(database_dsn, autocommit=True) as connection:
        connection.execute("TRUNCATE near_duplicate_features, articles, pages CASCADE")
    items, stats = crawl_through_stages(database_dsn, together=True, workers=1, kill_worker=kill_worker)
    assert [item.annotations["near_duplicate"] for item in items] == \
        [item.annotations["near_duplicate"] for item in expected]
    assert stats.get("newscorpus/near_duplicate/worker_errors", 0) == (1 if kill_worker else 0)
    assert "newscorpus/near_duplicate/failed" not in stats


def test_a_recrawl_changes_nothing(database_dsn):
    crawl_through_stages(database_dsn)
    with psycopg.connect(database_dsn) as connection:
        before = connection.execute("SELECT (SELECT count(*) FROM near_duplicate_keywords), "
                                    "(SELECT count(*) FROM near_duplicate_features)").fetchone()
    items, stats = crawl_through_stages(database_dsn)
    assert stats["newscorpus/near_duplicate/unchanged"] == 5 and "newscorpus/near_duplicate/canonical" not in stats
    assert items[1].annotations["near_duplicate"]["canonical_url"] == ARTICLES[0][0]
    with psycopg.connect(database_dsn) as connection:
        after = connection.execute("SELECT (SELECT count(*) FROM near_duplicate_keywords), "
                                   "(SELECT count(*) FROM near_duplicate_features)").fetchone()
        published = connection.execute("SELECT count(*) FROM corpus_articles").fetchone()[0]
    assert after == before and published == 4


def test_settings_are_checked_and_errors_name_the_setting():
    assert config_from_settings({"NEWSCORPUS_NEAR_DUPLICATE_WINDOW": "3"}).window == 3
    assert config_from_settings({"NEWSCORPUS_NEAR_DUPLICATE_MIN_COOCCURRENCE": "3"}).min_cooccurrence == 3
    with pytest.raises(ValueError, match=r"NEWSCORPUS_NEAR_DUPLICATE_TAU must be in \[0, 1\], not 1.5"):
        config_from_settings({"NEWSCORPUS_NEAR_DUPLICATE_TAU": "1.5"})
    with pytest.raises(ValueError, match="NEWSCORPUS_NEAR_DUPLICATE_SIMHASH_DISTANCE must be a whole number"):
        config_from_settings({"NEWSCORPUS_NEAR_DUPLICATE_SIMHASH_DISTANCE": "x"})
    with pytest.raises(ValueError, match="NEWSCORPUS_NEAR_DUPLICATE_WORKERS must be 0 or 1, not 2"):
        config_from_settings({"NEWSCORPUS_NEAR_DUPLICATE_WORKERS": "2"})
    with pytest.raises(ValueError, match="NEWSCORPUS_NEAR_DUPLICATE_OVERLAP must be one of 'min', 'jaccard'"):
        config_from_settings({"NEWSCORPUS_NEAR_DUPLICATE_OVERLAP": "max"})
    # the former names
    assert config_from_settings({"NEWSCORPUS_DEDUP_M": "3"}).min_cooccurrence == 3
    with pytest.raises(ValueError, match="NEWSCORPUS_DEDUP_BATCH_SIZE must be >= 1, not 0"):
        config_from_settings({"NEWSCORPUS_DEDUP_BATCH_SIZE": "0"})
