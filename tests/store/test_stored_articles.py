"""The refetch check's lookups (newscorpus.store.stored_articles): questions asked together go in one round trip and
each gets its own answer; a failed lookup fails each of its questions."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from newscorpus.store.stored_articles import StoredArticles


@pytest.fixture
def stored_dsn(migrated_dsn):
    with psycopg.connect(migrated_dsn, autocommit=True) as connection:
        site_id = connection.execute("INSERT INTO sites (name) VALUES ('demo') RETURNING id").fetchone()[0]
        for url, age in (("https://a.example/1", "1 hour"), ("https://a.example/2", "3 days"),
                         ("https://a.example/3", "10 minutes")):
            connection.execute(
                "INSERT INTO articles (site_id, url, body, body_hash, first_seen, last_seen, updated_at) "
                "VALUES (%s, %s, 'body', 'hash', now() - %s::interval, now() - %s::interval, now())",
                (site_id, url, age, age))
    return migrated_dsn


def test_questions_asked_together_get_their_own_answers_in_one_lookup(stored_dsn):
    async def ask() -> tuple[list[bool], int]:
        articles = StoredArticles(stored_dsn)
        calls = 0
        original = articles._stored_recently

        async def counted(urls, hours):
            nonlocal calls
            calls += 1
            return await original(urls, hours)

        articles._stored_recently = counted
        urls = ["https://a.example/1", "https://a.example/2", "https://a.example/3", "https://a.example/4",
                "https://a.example/1"]
        answers = await asyncio.gather(*(articles.seen_within(url, 24) for url in urls))
        later = await articles.seen_within("https://a.example/2", 100)  # a lookup of its own, other hours
        await articles.close()
        return [*answers, later], calls

    answers, calls = asyncio.run(ask())
    assert answers == [True, False, True, False, True, True]
    assert calls == 2


def test_a_failed_lookup_fails_each_question(database_dsn):
    async def ask() -> list:
        articles = StoredArticles(database_dsn)  # no migrations: the articles table is missing
        answers = await asyncio.gather(articles.seen_within("https://a.example/1", 24),
                                       articles.seen_within("https://a.example/2", 24), return_exceptions=True)
        await articles.close()
        return answers

    answers = asyncio.run(ask())
    assert len(answers) == 2 and all(isinstance(answer, psycopg.errors.UndefinedTable) for answer in answers)
