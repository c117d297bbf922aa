"""Run extraction again over the raw pages kept in Postgres (after the extractor improved): a build-layer operation
over the store (newscorpus.store) and the crawl's item (PageItem.apply_extraction), so it lives above both."""

from __future__ import annotations

import logging
import zlib
from collections import Counter
from collections.abc import Callable

from newscorpus.core.extraction import extract
from newscorpus.core.text import without_nul
from newscorpus.crawler.items import PageItem
from newscorpus.store.connection import connect
from newscorpus.store.corpus_store import article_row
from newscorpus.store.sql import query

logger = logging.getLogger(__name__)

FETCH_ROWS = 200       # raw pages held in memory at once


def reextract(dsn: str, site: str | None = None, progress: Callable[[Counter], None] | None = None) -> Counter:
    """Extract every article-like page's latest raw body again; update its article and its outcome."""
    counts: Counter = Counter()
    with connect(dsn) as reader, connect(dsn) as writer:
        with reader.cursor(name="pages_to_reextract") as cursor:
            cursor.itersize = FETCH_ROWS
            cursor.execute(query("corpus.pages_to_reextract"), {"site": site})
            batch: list[dict] = []
            for row in cursor:
                batch.append(_reextract_one(row, counts))
                if len(batch) >= FETCH_ROWS:
                    _write(writer, batch)
                    batch = []
                    if progress:
                        progress(counts)
            _write(writer, batch)
    if progress:
        progress(counts)
    return counts


def _reextract_one(row, counts: Counter) -> dict:
    page_id, url, final_url, status, content_type, content_hash, raw_body, fetched_at, site_id, site = row
    raw = zlib.decompress(raw_body)
    result = extract(raw, final_url, content_type=content_type)
    item = PageItem(url=url, final_url=final_url, site=site, status=status, fetched_at=fetched_at,
                    content_type=content_type, raw_body=raw, url_kind="article")
    item.apply_extraction(result)
    counts["pages"] += 1
    counts[f"outcome/{item.outcome}"] += 1
    return {
        "page": {"page_id": page_id, "outcome": item.outcome, "outcome_detail": None,
                 "encoding": without_nul(result.encoding)},
        "article": article_row(item, site_id, content_hash) if result.is_article else None,
    }


def _write(connection, batch: list[dict]) -> None:
    if not batch:
        return
    with connection.transaction(), connection.cursor() as cursor:
        cursor.executemany(query("corpus.set_page_outcome"), sorted((b["page"] for b in batch),
                                                              key=lambda p: p["page_id"]))
        articles = sorted((b["article"] for b in batch if b["article"]), key=lambda a: a["url"])
        if articles:
            cursor.executemany(query("corpus.upsert_article"), articles)
