"""The full-text search table article_search in Postgres (queries in store/sql/search.sql): the published articles
still to index, writing their vectors, and the ranked search itself."""

from __future__ import annotations

from datetime import date

import psycopg

from newscorpus.store.connection import connect
from newscorpus.store.sql import query


def articles_to_index(connection: psycopg.Connection, after_id: int, batch_size: int) -> list[tuple]:
    """(id, title, body, revised_at) of up to ``batch_size`` published articles after ``after_id`` with no search
    row, or revised since they were indexed, by id."""
    return connection.execute(query("search.articles_to_index"),
                              {"after_id": after_id, "batch_size": batch_size}).fetchall()


def write_search_rows(connection: psycopg.Connection, rows: list[dict]) -> None:
    """Upsert the search rows (article_id, segmented title and body, revised_at) in one transaction."""
    with connection.transaction(), connection.cursor() as cursor:
        cursor.executemany(query("search.upsert_article_search"), rows)


def search_articles(dsn: str, expression: str, *, site: str | None = None, since: date | None = None,
                    until: date | None = None, limit: int = 20) -> list[tuple]:
    """(id, site, url, title, published_at, first_seen, language, body, rank) of the published articles matching
    the ``to_tsquery`` ``expression``, best first."""
    with connect(dsn) as connection:
        return connection.execute(
            query("search.search_articles"),
            {"query": expression, "site": site, "since": since, "until": until, "limit": limit},
        ).fetchall()
