"""The full-text search table article_search in Postgres (queries in store/sql/search.sql): the queue of articles
to index (fed by triggers, migrations/0015), writing their vectors, and the ranked search itself."""

from __future__ import annotations

from datetime import date

import psycopg

from newscorpus.store.connection import connect
from newscorpus.store.sql import query


def queued_articles(connection: psycopg.Connection, batch_size: int) -> list[tuple[int, int]]:
    """(article_id, change) of up to ``batch_size`` queued articles, by id."""
    return connection.execute(query("search.queued_articles"), {"batch_size": batch_size}).fetchall()


def queued_count(connection: psycopg.Connection) -> int:
    """How many articles are queued for indexing."""
    return connection.execute(query("search.queued_count")).fetchone()[0]


def published_texts(connection: psycopg.Connection, ids: list[int]) -> list[tuple]:
    """(id, title, body, revised_at) of those of ``ids`` that are in the published corpus."""
    return connection.execute(query("search.published_texts"), {"ids": ids}).fetchall()


def write_search_batch(connection: psycopg.Connection, rows: list[dict], removed: list[int],
                       queued: list[tuple[int, int]]) -> None:
    """In one transaction: upsert the search rows (article_id, segmented title and body, revised_at), delete
    those of the ``removed`` (unpublished) articles, and take the ``queued`` (article_id, change) off the queue."""
    with connection.transaction(), connection.cursor() as cursor:
        if rows:
            cursor.executemany(query("search.upsert_article_search"), rows)
        if removed:
            cursor.execute(query("search.delete_article_search"), {"ids": removed})
        cursor.execute(query("search.dequeue_articles"),
                       {"ids": [article_id for article_id, _ in queued], "changes": [change for _, change in queued]})


# Estimated matches up to which the first window is the whole index: one statement ranks the newest candidates of
# up to ~10,000 matches in 5-21 ms at 1M articles, where windows took 32-39 ms (the estimate, a first window, then
# the whole index anyway); a word below the planner's statistics is estimated at a fixed ~5,000
# (on the 1M corpus of benchmarks/search_scale.py, ranked_matches with and without the estimate).
WHOLE_INDEX_MATCHES_PER_CANDIDATE = 10


def candidate_floor(low: int, high: int, estimate: int, candidates: int, found: list[int]) -> int:
    """The id floor of the search's next window of newest articles, after windows that held ``found`` candidates.
    Each window is what the density of matches predicts for 1.5 times ``candidates``: first the planner's
    ``estimate`` of all matches, then the last window's count (at least twice the last window; the whole index
    after one with no match). A word estimated at no more than ten times ``candidates`` matches gets the whole
    index at once, as the full ranking does."""
    if estimate <= WHOLE_INDEX_MATCHES_PER_CANDIDATE * candidates:
        return low - 1
    size = high - low + 1
    window = size * candidates * 3 // (2 * max(estimate, 1))
    for count in found:
        window = size if count == 0 else max(window * 2, window * candidates * 3 // (2 * count))
    return high - window if high - window >= low else low - 1


def search_articles(dsn: str, expression: str, *, site: str | None = None, since: date | None = None,
                    until: date | None = None, limit: int = 20, candidates: int = 1000,
                    estimate: int | None = None) -> list[tuple]:
    """(id, site, url, title, published_at, first_seen, language, body, rank) of the published articles matching
    the ``to_tsquery`` ``expression``, best first: ``ranked_matches`` on a connection of its own."""
    with connect(dsn) as connection:
        return ranked_matches(connection, expression, site=site, since=since, until=until, limit=limit,
                              candidates=candidates, estimate=estimate)


def ranked_matches(connection: psycopg.Connection, expression: str, *, site: str | None = None,
                   since: date | None = None, until: date | None = None, limit: int = 20, candidates: int = 1000,
                   estimate: int | None = None) -> list[tuple]:
    """The search's rows, ranked among the newest ``candidates`` matches (by article id), looked for in windows
    of newest articles sized by the density of matches (``candidate_floor``): ``estimate`` of all matches, or
    the planner's."""
    with connection.transaction():
        connection.execute(query("search.serial_plans"))
        low, high = connection.execute(query("search.indexed_id_range")).fetchone()
        if high is None:
            return []
        if estimate is None:
            plan = connection.execute(query("search.estimated_matches"), {"query": expression}).fetchone()[0]
            estimate = round(plan[0]["Plan"]["Plan Rows"])
        found: list[int] = []
        while True:
            floor = candidate_floor(low, high, estimate, candidates, found)
            rows = connection.execute(
                query("search.search_articles"),
                {"query": expression, "site": site, "since": since, "until": until, "limit": limit,
                 "candidates": candidates, "floor": floor},
                prepare=False,  # planned with the words' frequencies and the floor each time, never generically
            ).fetchall()
            count = rows[0][-1] if rows else 0
            if count >= candidates or floor < low:
                return [row[:-1] for row in rows]
            found.append(count)
