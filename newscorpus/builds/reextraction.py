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
from newscorpus.store.reextraction import latest_raw_pages, write_reextracted

logger = logging.getLogger(__name__)

FETCH_ROWS = 200       # raw pages held in memory at once


def reextract(dsn: str, site: str | None = None, progress: Callable[[Counter], None] | None = None) -> Counter:
    """Extract every article-like page's latest raw body again; update its article and its outcome."""
    counts: Counter = Counter()
    with latest_raw_pages(dsn, site, fetch_rows=FETCH_ROWS) as rows, connect(dsn) as writer:
        batch: list[dict] = []
        for row in rows:
            batch.append(_reextract_one(row, counts))
            if len(batch) >= FETCH_ROWS:
                write_reextracted(writer, batch)
                batch = []
                if progress:
                    progress(counts)
        write_reextracted(writer, batch)
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

