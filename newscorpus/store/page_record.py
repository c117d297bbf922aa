"""What the store reads of a fetched page and its article: a Protocol, so the store takes plain values without
importing the crawl layer (newscorpus.crawler.items.PageItem has these attributes; so may any other object)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol


class PageRecord(Protocol):
    # the page (pages row)
    url: str                      # the URL asked for
    final_url: str                # the URL that answered
    site: str
    status: int | None
    fetched_at: datetime
    content_type: str | None
    raw_body: bytes
    url_kind: str
    outcome: str | None
    outcome_detail: str | None
    encoding: str | None
    warc_file: str | None         # an ingested page's WARC file and record offset (None: crawled)
    warc_offset: int | None
    # its article (articles row)
    title: str | None
    author: str | None
    authors: Sequence[str]
    published_at: str | None      # ISO 8601 as extraction gives it (store.article_metadata)
    modified_at: str | None
    site_name: str | None
    body: str
    language: str | None
    extraction_method: str | None
    confidence: float | None
    clean_body: str | None        # line-noise stage (None: not cleaned)
    noise_lines: int | None
    noise_hashes: Sequence
    cleaned_with_articles_seen: int | None

    @property
    def article_url(self) -> str: ...
