"""Reading the stored corpus back (queries in store/sql/corpus.sql): the article list, one article, the exports,
the site names and hosts, and the table counts. Each function takes a DSN and opens its own connection, except
``count_rows``, which runs on the connection it is handed; an export streams through a server-side cursor."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

import psycopg
from psycopg.rows import dict_row

from newscorpus.store.connection import connect
from newscorpus.store.sql import query

# Rows per fetch of the export's server-side cursor: psycopg's default of 100 is a round trip per 100 articles;
# 2,000 news-length rows are a few MB, so memory stays flat (benchmarks/search_scale.py, export).
EXPORT_FETCH_ROWS = 2000


def list_articles(dsn: str, site: str | None = None, since: date | None = None, limit: int = 50) -> list[dict]:
    """Stored articles (near-duplicates included), newest first (published, else first seen)."""
    with connect(dsn) as connection:
        return connection.cursor(row_factory=dict_row).execute(
            query("corpus.list_articles"), {"site": site, "since": since, "limit": limit}).fetchall()


def url_spellings(url: str) -> list[str]:
    """``url`` as given, then the spellings a user means by it: http or https (or none written), with or without
    www., with or without a trailing slash."""
    url = url.strip()
    scheme, _, rest = url.partition("://") if "://" in url else ("", "", url)
    host, slash, path = rest.partition("/")
    hosts = [host, host.removeprefix("www.")] if host.startswith("www.") else [host, f"www.{host}"]
    tail = f"{slash}{path}"
    tails = [tail, tail.rstrip("/")] if tail.endswith("/") else [tail, f"{tail}/"]
    schemes = [scheme] if scheme in ("http", "https") else []
    schemes += [other for other in ("https", "http") if other not in schemes]
    spellings = [url] + [f"{s}://{h}{t}" for s in schemes for h in hosts for t in tails]
    return list(dict.fromkeys(spellings))


def show_article(dsn: str, url: str) -> dict | None:
    """The article stored for ``url`` (or for its nearest spelling, :func:`url_spellings`): its published and
    extracted bodies and its duplicate link; None if none."""
    with connect(dsn) as connection:
        rows = connection.cursor(row_factory=dict_row).execute(
            query("corpus.show_article"), {"urls": url_spellings(url)}).fetchall()
    return rows[0] if rows else None


@contextmanager
def exported_articles(dsn: str, site: str | None = None, *, everything: bool = False) -> Iterator[Iterator[tuple]]:
    """The rows an export writes, streamed: the published corpus, or with ``everything`` every stored article
    with its duplicate link. The connection and its server-side cursor live as long as the ``with`` block."""
    with connect(dsn) as connection, connection.cursor(name="export_articles") as cursor:
        cursor.itersize = EXPORT_FETCH_ROWS
        cursor.execute(query("corpus.export_all_articles" if everything else "corpus.export_corpus"), {"site": site})
        yield iter(cursor)


def site_names(dsn: str) -> list[str]:
    with connect(dsn) as connection:
        return [row[0] for row in connection.execute(query("corpus.site_names"))]


def site_hosts(dsn: str, site: str) -> list[str]:
    """The hosts (without www., lower case) of a site's stored articles, sorted."""
    with connect(dsn) as connection:
        return sorted(row[0] for row in connection.execute(query("corpus.site_hosts"), {"site": site}) if row[0])


def count_rows(connection: psycopg.Connection) -> tuple[int, int, int]:
    """(sites, pages, articles) stored."""
    return connection.execute(query("corpus.count_rows")).fetchone()
