"""The search index over the crawled demo site: incremental indexing, Chinese and English queries."""

from __future__ import annotations

import psycopg

from newscorpus.builds.search_index import index_search, search
from newscorpus.core.search_terms import search_terms


def _published(dsn: str, language: str) -> list[tuple]:
    with psycopg.connect(dsn) as connection:
        return connection.execute(
            "SELECT id, url, title, body FROM corpus_articles WHERE language = %s ORDER BY id", (language,)
        ).fetchall()


def _body_only_words(article: tuple, others: list[tuple], minimum: int) -> list[str]:
    """Two words of the article's body that are not in its title, the rarest in the corpus first."""
    title_terms = set(search_terms(article[2]))
    words = [w for w in dict.fromkeys(search_terms(article[3]))
             if w not in title_terms and len(w) >= minimum and not w.isdigit()]
    frequency = {w: sum(w in set(search_terms(other[3])) for other in others) for w in words}
    return sorted(words, key=lambda w: (frequency[w], w))[:2]


def test_indexing_is_incremental(crawled_demo):
    _, dsn, _, _ = crawled_demo
    index_search(dsn)
    assert index_search(dsn)["articles_indexed"] == 0
    with psycopg.connect(dsn) as connection:
        connection.execute("UPDATE articles SET updated_at = updated_at + interval '1 second' "
                           "WHERE id = (SELECT min(id) FROM articles)")
    assert index_search(dsn)["articles_indexed"] == 0  # the same text: nothing to index again
    with psycopg.connect(dsn) as connection:
        connection.execute("UPDATE articles SET title = title || ' revised' WHERE id = (SELECT min(id) FROM articles)")
    assert index_search(dsn)["articles_indexed"] == 1
    with psycopg.connect(dsn) as connection:
        indexed, articles = connection.execute(
            "SELECT (SELECT count(*) FROM article_search), (SELECT count(*) FROM corpus_articles)").fetchone()
    assert indexed == articles > 0


def _check_found_by_body_words(dsn: str, language: str, minimum: int) -> None:
    articles = _published(dsn, language)
    target = articles[0]
    words = _body_only_words(target, articles, minimum)
    assert len(words) == 2
    hits = search(dsn, " ".join(words), limit=100)
    assert target[1] in [hit.url for hit in hits]
    texts = {row[1]: f"{row[2]} {row[3]}".lower() for row in articles}
    assert all(word in texts[hit.url] for hit in hits for word in words)  # every word occurs in every hit
    assert [hit.rank for hit in hits] == sorted((hit.rank for hit in hits), reverse=True)
    hit = next(hit for hit in hits if hit.url == target[1])
    assert any(f"«{word}»".lower() in hit.snippet.lower() for word in words), hit.snippet


def test_search_finds_a_chinese_article_by_words_of_its_body(crawled_demo):
    _check_found_by_body_words(crawled_demo[1], "zh", 2)


def test_search_finds_an_english_article_by_words_of_its_body(crawled_demo):
    _check_found_by_body_words(crawled_demo[1], "en", 4)


def test_search_filters_and_empty_queries(crawled_demo):
    _, dsn, _, _ = crawled_demo
    assert search(dsn, "记者", limit=5)
    assert search(dsn, "记者", site="no-such-site") == []
    assert search(dsn, "记者", until=__import__("datetime").date(2000, 1, 1)) == []
    assert search(dsn, "，。 !") == []
    assert len(search(dsn, "记者", limit=3)) == 3
