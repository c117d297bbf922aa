"""The full-text search index (table article_search): incremental indexing, and searching the corpus."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

from newscorpus.core.search_terms import query_expression, search_terms, segmented, snippet
from newscorpus.store.connection import connect
from newscorpus.store.search import articles_to_index, search_articles, write_search_rows

INDEX_BATCH_SIZE = 500  # articles per transaction: ~1 s of jieba on news-length bodies, small enough to resume


def index_search(dsn: str, batch_size: int = INDEX_BATCH_SIZE,
                 progress: Callable[[int], None] | None = None) -> dict:
    """Index every published article that has no search row or was revised since it was indexed, in
    batches (one transaction each, so an interrupted pass keeps what it did). Returns counters."""
    indexed = 0
    started = time.perf_counter()
    after_id = 0
    with connect(dsn, autocommit=True) as connection:
        while True:
            rows = articles_to_index(connection, after_id, batch_size)
            if not rows:
                break
            params = [{"article_id": article_id, "title": segmented(title), "body": segmented(body),
                       "revised_at": revised_at} for article_id, title, body, revised_at in rows]
            write_search_rows(connection, params)
            indexed += len(rows)
            after_id = rows[-1][0]
            if progress is not None:
                progress(indexed)
    return {"articles_indexed": indexed, "seconds": round(time.perf_counter() - started, 3)}


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
           progress: Callable[[int], None] | None = None) -> list[SearchHit]:
    """Ranked articles containing every term of ``text`` (segmented like the index), with snippets.
    The index is brought up to date first, so results reflect the corpus as it is now (``progress`` gets the
    running count of articles indexed)."""
    terms = search_terms(text, query=True)
    if not terms:
        return []
    index_search(dsn, progress=progress)
    rows = search_articles(dsn, query_expression(text), site=site, since=since, until=until, limit=limit)
    return [
        SearchHit(id=row[0], site=row[1], url=row[2], title=row[3], published_at=row[4], first_seen=row[5],
                  language=row[6], rank=float(row[8]), snippet=snippet(row[7], terms))
        for row in rows
    ]
