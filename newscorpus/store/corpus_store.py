"""Batched, asynchronous writes of pages and articles (psycopg 3 async: the reactor is never blocked)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import zlib
from collections import Counter
from dataclasses import dataclass, field

import psycopg

from newscorpus.core.text import body_hash, without_nul
from newscorpus.store.article_metadata import metadata_columns
from newscorpus.store.connection import error_line
from newscorpus.store.errors import DatabaseUnavailableError
from newscorpus.store.held_connection import AsyncHeldConnection
from newscorpus.store.page_record import PageRecord
from newscorpus.store.retry import RETRYABLE, RetryPolicy
from newscorpus.store.sql import query

logger = logging.getLogger(__name__)

RAW_BODY_COMPRESSION_LEVEL = 6  # zlib default: about 4-6x on news HTML at ~20 MB/s (one core)


def content_hash(raw_body: bytes) -> str:
    return hashlib.sha256(raw_body).hexdigest()


# Text fields of an item that without_nul strips before they are stored: the page's first, then the article's.
NUL_CHECKED_FIELDS = ("content_type", "outcome_detail", "title", "author", "body", "clean_body")


def page_row(item: PageRecord, site_id: int, crawl_run_id: int | None) -> dict:
    return {
        "site_id": site_id,
        "url": item.url,
        "final_url": item.final_url,
        "status": item.status,
        "content_type": without_nul(item.content_type),
        "encoding": item.encoding,
        "content_hash": content_hash(item.raw_body),
        "raw_body": zlib.compress(item.raw_body, RAW_BODY_COMPRESSION_LEVEL) if item.raw_body else None,
        "raw_size": len(item.raw_body),
        "url_kind": item.url_kind,
        "outcome": item.outcome or "unknown",
        "outcome_detail": without_nul(item.outcome_detail),
        "fetched_at": item.fetched_at,
        "crawl_run_id": crawl_run_id,
        "warc_file": getattr(item, "warc_file", None),
        "warc_offset": getattr(item, "warc_offset", None),
    }


def article_row(item: PageRecord, site_id: int, page_content_hash: str) -> dict:
    body = without_nul(item.body) or ""
    return {
        "site_id": site_id,
        "url": item.article_url,
        "page_url": item.url,
        "content_hash": page_content_hash,
        "title": without_nul(item.title),
        "author": without_nul(item.author),
        **metadata_columns(item),  # published_at and the columns of migrations/0011
        "body": body,
        "language": item.language,
        "body_hash": body_hash(body),
        "encoding": item.encoding,
        "extraction_method": item.extraction_method,
        "confidence": item.confidence,
        "seen_at": item.fetched_at,
        # Line-noise stage (NULL clean_body = not cleaned: export falls back to body).
        "clean_body": without_nul(item.clean_body),
        "noise_lines": item.noise_lines,
        "noise_hashes": list(item.noise_hashes) if item.clean_body is not None else None,
        "cleaned_with_articles_seen": item.cleaned_with_articles_seen,
    }


@dataclass
class _Pending:
    page: dict
    article: dict | None


@dataclass
class CorpusWriter:
    """Collects pages (and their articles) and writes them in batches, one transaction per batch.

    Within a batch, rows are written in key order so that concurrent writers lock rows in the same order.
    A failed batch stays pending and is written again after a reconnect with exponential back-off (the
    process's retry policy unless one is given). A batch still failing after the whole retry window is not
    saved: each of its URLs is logged and kept in :attr:`unsaved`; :meth:`add` then raises
    DatabaseUnavailableError for its item (so the crawl learns of it), :meth:`flush` returns False.
    """

    dsn: str
    batch_size: int = 50
    retry_policy: RetryPolicy | None = None
    counters: Counter = field(default_factory=Counter)
    unsaved: set[str] = field(default_factory=set)  # URLs of pages fetched but not written (database away)
    database: AsyncHeldConnection = field(init=False)
    _pending: list[_Pending] = field(default_factory=list)
    _site_ids: dict[str, int] = field(default_factory=dict)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Batches taken from pending, and how many of the first of them were all written: a page added while
    # batches_taken is g is durable once batches_durable > g (a distributed worker acknowledges requests by it).
    batches_taken: int = 0
    batches_durable: int = 0

    def __post_init__(self) -> None:
        self.database = AsyncHeldConnection(self.dsn, policy=self.retry_policy)

    async def site_id(self, name: str) -> int:
        if name not in self._site_ids:
            connection = await self.database.connected()
            row = await (await connection.execute(query("corpus.ensure_site"), {"name": name})).fetchone()
            self._site_ids[name] = row[0]
        return self._site_ids[name]

    async def start_crawl_run(self, site: str) -> int:
        connection = await self.database.connected()
        site_id = await self.site_id(site)
        row = await (await connection.execute(query("corpus.start_crawl_run"), {"site_id": site_id})).fetchone()
        return row[0]

    async def finish_crawl_run(self, crawl_run_id: int, finish_reason: str, counters: dict) -> None:
        connection = await self.database.connected()
        await connection.execute(
            query("corpus.finish_crawl_run"),
            {"crawl_run_id": crawl_run_id, "finish_reason": finish_reason,
             "counters": psycopg.types.json.Jsonb(counters)},
        )

    async def add(self, item: PageRecord, crawl_run_id: int | None, *, with_article: bool) -> None:
        site_id = await self.site_id(item.site)
        page = page_row(item, site_id, crawl_run_id)
        article = article_row(item, site_id, page["content_hash"]) if with_article else None
        stripped = sum((getattr(item, name) or "").count("\x00")
                       for name in (NUL_CHECKED_FIELDS if with_article else NUL_CHECKED_FIELDS[:2]))
        if stripped:  # Postgres text cannot hold NUL: stripped by without_nul, and counted here
            self.counters["nul_stripped"] += stripped
        self._pending.append(_Pending(page, article))
        if len(self._pending) >= self.batch_size and not await self.flush():
            raise DatabaseUnavailableError(f"the batch holding {item.url} was not saved")

    @property
    def pending(self) -> int:
        """Pages added and not yet taken into a batch."""
        return len(self._pending)

    @property
    def all_durable(self) -> bool:
        """Every batch taken so far was written."""
        return self.batches_durable == self.batches_taken

    async def flush(self) -> bool:
        """Write what is pending; False when it could not be (its URLs are then in :attr:`unsaved`)."""
        async with self._lock:
            batch, self._pending = self._pending, []
            self.batches_taken += 1
            written = await self._write_with_retries(batch) if batch else True
            if written and self.batches_durable == self.batches_taken - 1:   # never past a batch not saved
                self.batches_durable = self.batches_taken
            return written

    async def _write_with_retries(self, batch: list[_Pending]) -> bool:
        retries = self.database.retries
        try:
            await self.database.run(lambda connection: self._write(connection, batch),
                                    f"writing {len(batch)} pages")
        except RETRYABLE as error:
            reason = error_line(error)
            for url in sorted({p.page["url"] for p in batch} - self.unsaved):
                self.unsaved.add(url)
                logger.error("not saved, the database is unavailable (%s): %s", reason, url)
            return False
        finally:
            if self.database.retries > retries:
                self.counters["write_retries"] += self.database.retries - retries
        return True

    async def _write(self, connection: psycopg.AsyncConnection, batch: list[_Pending]) -> None:
        pages = sorted((p.page for p in batch), key=lambda row: (row["url"], row["content_hash"]))
        pages = list({(row["url"], row["content_hash"]): row for row in pages}.values())
        articles = sorted((p.article for p in batch if p.article), key=lambda row: row["url"])
        articles = list({row["url"]: row for row in articles}.values())
        counts: Counter = Counter()
        async with connection.transaction():
            async with connection.cursor() as cursor:
                await cursor.executemany(query("corpus.upsert_page"), pages, returning=True)
                counts.update(_returned_flags(await _returned_rows(cursor), "pages_new", "pages_seen_again"))
                if articles:
                    await cursor.executemany(query("corpus.upsert_article"), articles, returning=True)
                    rows = await _returned_rows(cursor)
                    for row, article in zip(rows, articles, strict=True):
                        if row[1]:
                            counts["articles_new"] += 1
                        elif row[2] == article["seen_at"]:
                            counts["articles_updated"] += 1
                        else:
                            counts["articles_unchanged"] += 1
        self.counters.update(counts)

    async def close(self) -> bool:
        """Flush and close; False when pages were left unsaved."""
        try:
            return await self.flush()
        finally:
            await self.database.close()


async def _returned_rows(cursor: psycopg.AsyncCursor) -> list[tuple]:
    rows = []
    while True:
        rows.append(await cursor.fetchone())
        if not cursor.nextset():
            return rows


def _returned_flags(rows: list[tuple], when_true: str, when_false: str) -> Counter:
    return Counter(when_true if row[1] else when_false for row in rows)
