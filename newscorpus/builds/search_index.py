"""The full-text search index (table article_search): incremental indexing, and searching the corpus."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

import psycopg

from newscorpus.core.search_terms import query_expression, search_terms, segmented, snippet
from newscorpus.store.connection import connect
from newscorpus.store.search import (
    published_texts,
    queued_articles,
    queued_count,
    search_articles,
    write_search_batch,
)

INDEX_BATCH_SIZE = 500  # articles per transaction: ~1 s of jieba on news-length bodies, small enough to resume
# Matches ranked per search, newest first: all of them below this, so the ranking is the full one; a common
# word's top hits come from its newest 1,000 matches (benchmarks/search_scale.py: SQL p95 at 1M articles).
SEARCH_CANDIDATES = 1000


def index_search(dsn: str, batch_size: int = INDEX_BATCH_SIZE,
                 progress: Callable[[int, int], None] | None = None) -> dict:
    """Index the queued articles (written, revised or (un)published since they were indexed: triggers queue
    them, migrations/0015), in batches (one transaction each, so an interrupted pass keeps what it did).
    Returns counters."""
    with connect(dsn, autocommit=True) as connection:
        return index_queued(connection, batch_size, progress)


def index_queued(connection: psycopg.Connection, batch_size: int = INDEX_BATCH_SIZE,
                 progress: Callable[[int, int], None] | None = None) -> dict:
    """``index_search`` on an open connection. With nothing queued it reads one empty index page and no article;
    ``progress(done, total)`` gets the articles taken off the queue so far and the queue's length when the pass
    began, after each batch (so never when there is no work)."""
    indexed = removed = batches = total = 0
    started = time.perf_counter()
    while True:
        queued = queued_articles(connection, batch_size)
        if not queued:
            break
        if not total:
            total = queued_count(connection)
        rows = published_texts(connection, [article_id for article_id, _ in queued])
        params = [{"article_id": article_id, "title": segmented(title), "body": segmented(body),
                   "revised_at": revised_at} for article_id, title, body, revised_at in rows]
        published = {row[0] for row in rows}
        gone = [article_id for article_id, _ in queued if article_id not in published]
        write_search_batch(connection, params, gone, queued)
        indexed += len(rows)
        removed += len(gone)
        batches += 1
        if progress is not None:
            progress(indexed + removed, max(total, indexed + removed))
    return {"articles_indexed": indexed, "articles_removed": removed, "batches": batches,
            "seconds": round(time.perf_counter() - started, 3)}


def index_search_step(dsn: str, sites: list[str]) -> dict:
    """Maintenance step: the index covers the whole published corpus, whatever the build's sites."""
    return index_search(dsn)


@dataclass(frozen=True)
class SearchHit:
    id: int
    site: str
    url: str
    title: str | None
    published_at: datetime | None
    first_seen: datetime
    language: str | None
    rank: float
    snippet: str


def search(dsn: str, text: str, *, site: str | None = None, since: date | None = None,
           until: date | None = None, limit: int = 20,
           progress: Callable[[int, int], None] | None = None,
           candidates: int = SEARCH_CANDIDATES) -> list[SearchHit]:
    """Ranked articles containing every term of ``text`` (segmented like the index), with snippets: the best
    ``limit`` of the newest ``candidates`` matches (every match when there are fewer).
    The queued articles are indexed first, so results reflect the corpus as it is now (``progress(done, total)``
    follows the indexing; it is not called when nothing was queued)."""
    terms = search_terms(text, query=True)
    if not terms:
        return []
    index_search(dsn, progress=progress)
    rows = search_articles(dsn, query_expression(text), site=site, since=since, until=until, limit=limit,
                           candidates=max(candidates, limit))
    return [
        SearchHit(id=row[0], site=row[1], url=row[2], title=row[3], published_at=row[4], first_seen=row[5],
                  language=row[6], rank=float(row[8]), snippet=snippet(row[7], terms))
        for row in rows
    ]
