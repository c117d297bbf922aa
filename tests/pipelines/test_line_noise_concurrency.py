"""Four processes count the same site's articles at once on the real server: the final counts equal the
sequential result, with no deadlock and no lost update."""

from __future__ import annotations

import multiprocessing
import random
from collections import Counter

import psycopg

from newscorpus.core.line_noise import LineNoiseConfig, article_hashes
from newscorpus.core.text import body_hash
from newscorpus.store import line_noise as store
from newscorpus.store.migrations import migrate
from tests.conftest import fresh_schema

WRITERS = 4
ARTICLES = 400
SHARED_URLS = 20                       # sent by every writer: must be counted once
CONFIG = LineNoiseConfig(prune_interval=0)   # pruning makes the counts depend on the order; off here


def synthetic_articles(seed: int = 4) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    boilerplate = ["责任编辑：李明", "Share this article", "如果你对新闻频道有任何意见或建议，请到交流平台反馈",
                   "© 2026 Demo News", "Related stories", "点击排行", "Follow us on X", "扫一扫分享到微信"]
    topical = [f"Topical line {chr(97 + i)}{chr(97 + i // 3)} shared by some stories." for i in range(40)]
    articles = []
    for number in range(ARTICLES):
        lines = rng.sample(boilerplate, 6) + rng.sample(topical, 5)
        lines += [f"Unique line {number}-{k} " + "".join(rng.choices("abcdefghij", k=12)) for k in range(5)]
        rng.shuffle(lines)
        articles.append((f"https://example.com/{number}.html", "\n".join(lines)))
    return articles


def write_share(dsn: str, writer: int) -> tuple[int, list[str]]:
    articles = synthetic_articles()
    mine = articles[writer::WRITERS] + articles[:SHARED_URLS]
    random.Random(writer).shuffle(mine)
    errors = []
    with psycopg.connect(dsn, autocommit=True) as connection:
        for url, body in mine:
            hashes, samples = article_hashes(body)
            try:
                store.count_article(connection, 1, url, body_hash(body), hashes, samples, CONFIG)
            except psycopg.Error as error:
                errors.append(f"{type(error).__name__}: {error}")
    return len(mine), errors


def test_four_concurrent_writers_give_the_sequential_counts(postgres_server_dsn):
    expected = Counter()
    for _, body in synthetic_articles():
        expected.update(article_hashes(body)[0])
    with fresh_schema(postgres_server_dsn) as dsn:
        with psycopg.connect(dsn, autocommit=True) as connection:
            migrate(connection)
            connection.execute("INSERT INTO sites (name) VALUES ('example')")
        with multiprocessing.get_context("spawn").Pool(WRITERS) as pool:
            results = pool.starmap(write_share, [(dsn, writer) for writer in range(WRITERS)])
        with psycopg.connect(dsn) as connection:
            counts = dict(connection.execute("SELECT line_hash, articles FROM line_counts").fetchall())
            articles_seen = connection.execute("SELECT articles_seen FROM site_line_stats").fetchone()[0]
            ledger = connection.execute("SELECT count(*) FROM line_noise_articles").fetchone()[0]
    assert [errors for _, errors in results] == [[]] * WRITERS     # no deadlock, no other failure
    assert sum(sent for sent, _ in results) == ARTICLES + WRITERS * SHARED_URLS
    assert articles_seen == ARTICLES and ledger == ARTICLES       # shared URLs counted once
    assert counts == dict(expected)                                # no lost update
