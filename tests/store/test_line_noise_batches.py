"""The crawl's line-noise store counts articles in group batches: every article's counts, the site's RC
and LC and the ledger equal those of counting the same articles one transaction each, in the same order; one
refused article does not fail its batch's others. Real Postgres, one fresh schema per test."""

from __future__ import annotations

import asyncio
import random

import psycopg
import pytest

from newscorpus.core.line_noise import LineNoiseConfig, article_hashes
from newscorpus.core.text import body_hash
from newscorpus.store import line_noise as store
from newscorpus.store.migrations import migrate
from tests.conftest import fresh_schema

# Pruning every 7 articles and a low divisor make the counts depend on the order, so a batch that reordered or
# merged articles would show.
CONFIG = LineNoiseConfig(prune_interval=7, prune_divisor=3)


def articles(count: int = 90, seed: int = 18) -> list[tuple[str, str]]:
    """(url, body): boilerplate lines in some articles, topical lines in a few, unique lines; Chinese and English;
    a few URLs sent twice (the second time with a changed body)."""
    rng = random.Random(seed)
    boilerplate = ["责任编辑：王芳", "Share this story", "本文来源：示例日报", "© 2026 Example News", "相关阅读"]
    topical = [f"话题句子{i}与城市建设有关。" for i in range(12)]
    topical += [f"Topic sentence {i} on the harbour." for i in range(12)]
    result = []
    for number in range(count):
        lines = rng.sample(boilerplate, rng.randint(1, 4)) + rng.sample(topical, 3)
        lines += [f"独有的句子{number}-{k}，" + "".join(rng.choices("甲乙丙丁戊己庚辛", k=8)) for k in range(3)]
        rng.shuffle(lines)
        result.append((f"https://example.com/{number}.html", "\n".join(lines)))
    result += [(url, body + "\n新增的一行。") for url, body in result[5:60:11]]
    return result


def prepared(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as connection:
        migrate(connection)
        connection.execute("INSERT INTO sites (name) VALUES ('example')")


def tables(dsn: str) -> tuple:
    with psycopg.connect(dsn) as connection:
        return tuple(connection.execute(statement).fetchall() for statement in (
            "SELECT site_id, articles_seen FROM site_line_stats",
            "SELECT site_id, line_hash, articles FROM line_counts ORDER BY site_id, line_hash",
            "SELECT site_id, line_hash, sample FROM line_samples ORDER BY site_id, line_hash",
            "SELECT url, body_hash, line_hashes FROM line_noise_articles ORDER BY url",
        ))


def one_at_a_time(dsn: str, pages: list[tuple[str, str]]) -> list:
    with psycopg.connect(dsn, autocommit=True) as connection:
        return [store.count_article(connection, 1, url, body_hash(body), *article_hashes(body), CONFIG)
                for url, body in pages]


async def batched(dsn: str, pages: list[tuple[str, str]], waves: list[int]) -> tuple[list, int]:
    """The pages given to the store in waves (sizes in `waves`) of calls made at once, as a busy crawl does."""
    counter = store.LineNoiseStore(dsn, CONFIG)
    results, start = [], 0
    try:
        for size in waves:
            wave = pages[start:start + size]
            start += size
            results += await asyncio.gather(*(counter.count_article(1, url, body_hash(body), *article_hashes(body))
                                              for url, body in wave))
        return results, counter.batches
    finally:
        await counter.close()


def test_batches_count_exactly_as_one_article_at_a_time(postgres_server_dsn):
    pages = articles()
    waves = [1, 30, 2, 70, len(pages)]  # a lone article, a batch over COUNT_BATCH_MAX, the rest
    with fresh_schema(postgres_server_dsn) as alone_dsn, fresh_schema(postgres_server_dsn) as batch_dsn:
        prepared(alone_dsn)
        prepared(batch_dsn)
        expected = one_at_a_time(alone_dsn, pages)
        got, batches = asyncio.run(batched(batch_dsn, pages, waves))
        assert got == expected
        assert {result.status for result in got} == {"new", "changed"}
        assert sum(result.pruned for result in got) > 0
        assert tables(batch_dsn) == tables(alone_dsn)
        assert batches < len(pages) / 4  # the waves went in batches, not one by one


def test_an_article_the_database_refuses_fails_alone(postgres_server_dsn):
    pages = articles(12)  # 12 articles, then the 6th again with a changed body
    with fresh_schema(postgres_server_dsn) as dsn:
        prepared(dsn)

        async def run() -> list:
            counter = store.LineNoiseStore(dsn, CONFIG)
            try:
                calls = [counter.count_article(1, url, body_hash(body), *article_hashes(body)) for url, body in pages]
                # site 2 does not exist: the statistics row's foreign key refuses this one article
                refused = counter.count_article(2, "https://example.com/x.html", "h", *article_hashes("孤立的一行"))
                calls.insert(5, refused)
                return await asyncio.gather(*calls, return_exceptions=True)
            finally:
                await counter.close()

        results = asyncio.run(run())
    refused = [result for result in results if isinstance(result, Exception)]
    assert len(refused) == 1 and isinstance(results[5], psycopg.errors.ForeignKeyViolation)
    assert [result.status for result in results if not isinstance(result, Exception)] == ["new"] * 12 + ["changed"]


@pytest.mark.parametrize("size", [1, 3])
def test_a_closed_store_has_counted_every_article_it_was_given(postgres_server_dsn, size):
    pages = articles(size)
    with fresh_schema(postgres_server_dsn) as dsn:
        prepared(dsn)
        got, _ = asyncio.run(batched(dsn, pages, [size]))
        assert tables(dsn)[0] == [(1, size)]
        assert [result.articles_seen for result in got] == list(range(size))
