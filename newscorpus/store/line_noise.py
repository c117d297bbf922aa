"""Line-noise statistics in Postgres (queries in store/sql/line_noise.sql): count articles' lines (the crawl's
articles in group batches, one round trip each), read a site's statistics, report and allow-list noise lines.
Cleaning stored articles again is newscorpus.store.derivation's."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import psycopg
from psycopg.rows import dict_row

from newscorpus.core.line_noise import (
    LineNoiseConfig,
    line_hash,
    normalise_line,
)
from newscorpus.store.array_literals import text_array_literal
from newscorpus.store.group_batches import GroupBatches
from newscorpus.store.held_connection import AsyncHeldConnection
from newscorpus.store.retry import RETRYABLE
from newscorpus.store.sql import query

logger = logging.getLogger(__name__)

# A sample text is kept for lines seen in this many articles (single lines are body text, not noise).
SAMPLE_MIN_ARTICLES = 2
# The stage's commits are durable (the server's synchronous_commit): an article goes on to the storage stage only
# once its counts are on disk. An asynchronous commit lost in a server crash lost the count for good, as the
# storage stage's retried batch then stored the article, which is never fetched again.
# At most this many articles counted in one transaction (the stage's group batches). The batch holds the
# site's statistics row locked until it commits, so another crawl of the site waits at most one batch; 64 is the
# near-duplicate stage's batch (NearDuplicateConfig.batch_size). The batches of a 300-article demo crawl hold at
# most 32-56 articles: the cap is seldom reached.
COUNT_BATCH_MAX = 64


@dataclass(frozen=True)
class ArticleCounts:
    articles_seen: int                   # RC before this article (its site's RC when it was counted before)
    counts: dict[uuid.UUID, int]         # LC of each of its lines, itself included
    allowed: frozenset[uuid.UUID]        # its lines on the site's allow-list
    status: str                          # "new", "unchanged" (not counted again), "changed" (counts moved)
    pruned: int                          # lines pruned from the site's table by this call


def count_params(site_id: int, url: str, body_hash: str, hashes: Sequence[uuid.UUID], samples: Sequence[str],
                 config: LineNoiseConfig, kinds: str | None = None) -> dict:
    """Parameters of ``count_article``: hashes distinct and sorted (every writer locks rows in this order);
    ``kinds``: the body's line kinds (kept for re-cleaning; None: unknown)."""
    pairs = sorted(dict(zip(hashes, samples, strict=True)).items(), key=lambda pair: pair[0].bytes)
    return {
        "site_id": site_id, "url": url, "body_hash": body_hash, "kinds": kinds,
        "hashes": [digest for digest, _ in pairs],
        # sent as array literals (newscorpus.store.array_literals): psycopg would dump the lists element by element,
        # a large share of the stage's reactor time on the demo crawl
        "hash_array": text_array_literal([str(digest) for digest, _ in pairs]),
        "sample_array": text_array_literal([sample.replace("\x00", "") for _, sample in pairs]),
        "prune_interval": config.prune_interval, "prune_divisor": config.prune_divisor,
        "sample_min": SAMPLE_MIN_ARTICLES,
    }


def _article_counts(params: dict, row: tuple) -> ArticleCounts:
    articles_seen, counts, allowed, status, pruned = row
    hashes = params["hashes"]
    return ArticleCounts(
        int(articles_seen), dict(zip(hashes, counts, strict=True)),
        frozenset(digest for digest, flag in zip(hashes, allowed, strict=True) if flag), status, pruned,
    )


class LineNoiseStore:
    """The stage's asynchronous access on one connection: articles are counted in group batches
    (newscorpus.store.group_batches), in the order they were given, one round trip and one transaction per batch.

    Group batching: one article at a time, the reactor's busy turns would hold each article's round trip, and the
    stage would fall hundreds of articles behind the downloads of the demo crawl. Each article is counted by the
    same statement, in the same order, as alone (RC and LC move exactly as they would one transaction per article).
    A batch the database refuses is counted again one article at a time, so one article does not fail the others;
    the server away past the retry window fails every article of the batch."""

    def __init__(self, dsn: str, config: LineNoiseConfig):
        self.dsn = dsn
        self.config = config
        self.database = AsyncHeldConnection(dsn)
        self.batches = 0  # transactions that counted articles (the stage reports them)
        self.largest_batch = 0
        self._counts = GroupBatches(self._count, COUNT_BATCH_MAX, split_on=(psycopg.Error,), fail_on=RETRYABLE)

    async def count_article(self, site_id: int, url: str, body_hash: str, hashes: Sequence[uuid.UUID],
                            samples: Sequence[str], kinds: str | None = None) -> ArticleCounts:
        """Retried with back-off while the server is away: counting an article again is idempotent."""
        params = count_params(site_id, url, body_hash, hashes, samples, self.config, kinds)
        return _article_counts(params, await self._counts.submit(params))

    async def _count(self, group: list[dict]) -> list[tuple]:
        """The rows of the group's articles (their count parameters), one transaction (retried whole while the
        server is away: idempotent)."""
        statement = query("line_noise.count_article")

        async def count(connection: psycopg.AsyncConnection) -> list[tuple]:
            if len(group) == 1:
                return [await (await connection.execute(statement, group[0])).fetchone()]
            async with connection.transaction(), connection.cursor() as cursor:
                await cursor.executemany(statement, group, returning=True)
                rows = []
                while True:
                    rows.append(await cursor.fetchone())
                    if not cursor.nextset():
                        return rows

        first = group[0]["url"][:200]
        what = f"counting the lines of {first}" if len(group) == 1 else f"counting the lines of {len(group)} articles"
        rows = await self.database.run(count, what)
        self.batches += 1
        self.largest_batch = max(self.largest_batch, len(group))
        return rows

    @property
    def retries(self) -> int:
        """Calls repeated after a lost connection (newscorpus.store.retry)."""
        return self.database.retries

    async def close(self) -> None:
        await self._counts.close()
        await self.database.close()


def count_article(connection: psycopg.Connection, site_id: int, url: str, body_hash: str,
                  hashes: Sequence[uuid.UUID], samples: Sequence[str], config: LineNoiseConfig) -> ArticleCounts:
    """The same as :meth:`LineNoiseStore.count_article` on a synchronous autocommit connection."""
    params = count_params(site_id, url, body_hash, hashes, samples, config)
    return _article_counts(params, connection.execute(query("line_noise.count_article"), params).fetchone())


def site_statistics(connection: psycopg.Connection, site_id: int, config: LineNoiseConfig):
    """(RC, LC of the lines that can be noise, allow-listed hashes) of one site."""
    row = connection.execute(query("line_noise.articles_seen"), {"site_id": site_id}).fetchone()
    articles_seen = row[0] if row else 0
    counts = dict(connection.execute(query("line_noise.frequent_lines"),
                                     {"site_id": site_id, "min_articles": max(2, config.min_articles)}).fetchall())
    allowed = {row[0] for row in connection.execute(query("line_noise.allowed_lines"), {"site_id": site_id})}
    return articles_seen, counts, allowed


def site_id_of(connection: psycopg.Connection, site: str) -> int | None:
    row = connection.execute(query("line_noise.site_by_name"), {"site": site}).fetchone()
    return row[0] if row else None


def noise_report(connection: psycopg.Connection, site_id: int, limit: int) -> list[dict]:
    return connection.cursor(row_factory=dict_row).execute(
        query("line_noise.noise_report"), {"site_id": site_id, "limit": limit}).fetchall()


def parse_line_ref(value: str) -> tuple[uuid.UUID, str | None]:
    """A line named by its hash (32 hex digits or UUID form), or by its text (then hashed normalised)."""
    try:
        return uuid.UUID(value.strip()), None
    except ValueError:
        normalised = normalise_line(value)
        if not normalised:
            raise ValueError(f"{value!r} has no text left after normalisation") from None
        return line_hash(normalised), value.strip()


def line_article_count(connection: psycopg.Connection, site_id: int, digest: uuid.UUID) -> int:
    """How many of the site's stored articles have the line (0: none has it)."""
    row = connection.execute(query("line_noise.line_count"), {"site_id": site_id, "line_hash": digest}).fetchone()
    return row[0] if row else 0


def allow_line(connection: psycopg.Connection, site_id: int, digest: uuid.UUID, sample: str | None) -> None:
    if sample is None:
        row = connection.execute(query("line_noise.line_sample"), {"site_id": site_id, "line_hash": digest}).fetchone()
        sample = row[0] if row else None
    connection.execute(query("line_noise.allow_line"), {"site_id": site_id, "line_hash": digest, "sample": sample})


def table_sizes(connection: psycopg.Connection) -> dict:
    return connection.cursor(row_factory=dict_row).execute(query("line_noise.table_sizes")).fetchone()
