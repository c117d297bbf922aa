"""The stored raw pages to extract again, and writing back what the extractor makes of them (queries in
store/sql/corpus.sql): the reading streams through a server-side cursor, the writes go one batch a transaction."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from newscorpus.store.connection import connect
from newscorpus.store.sql import query


@contextmanager
def latest_raw_pages(dsn: str, site: str | None, *, fetch_rows: int) -> Iterator[Iterator[tuple]]:
    """(page id, url, final_url, status, content_type, content_hash, raw_body, fetched_at, site_id, site) of the
    content each article URL (of ``site``, or of every site) has now, ``fetch_rows`` per round trip."""
    with connect(dsn) as connection, connection.cursor(name="pages_to_reextract") as cursor:
        cursor.itersize = fetch_rows
        cursor.execute(query("corpus.pages_to_reextract"), {"site": site})
        yield iter(cursor)


def write_reextracted(connection: psycopg.Connection, batch: list[dict]) -> None:
    """Each entry's page outcome (``"page"``) and article (``"article"``, None for no article), in one
    transaction, in key order so that concurrent writers lock rows in the same order."""
    if not batch:
        return
    with connection.transaction(), connection.cursor() as cursor:
        cursor.executemany(query("corpus.set_page_outcome"), sorted((b["page"] for b in batch),
                                                              key=lambda p: p["page_id"]))
        articles = sorted((b["article"] for b in batch if b["article"]), key=lambda a: a["url"])
        if articles:
            cursor.executemany(query("corpus.upsert_article"), articles)
