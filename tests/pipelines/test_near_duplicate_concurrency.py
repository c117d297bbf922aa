"""Three processes store three reprints of one story at the same moment on the real server, time after
time (Chinese and English), one article per transaction or in batches as the stage does under load: every
story ends with exactly one canonical article, no deadlock."""

from __future__ import annotations

import multiprocessing
import random
from collections import defaultdict

import psycopg
import pytest

from newscorpus.core.jieba_dictionary import jieba_module
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import build_features
from newscorpus.core.near_duplicate.keywords import is_keyword
from newscorpus.core.text import source_hash
from newscorpus.store.migrations import migrate
from newscorpus.store.near_duplicate.records import ArticleToRecord, record_articles
from tests.conftest import fresh_schema
from tests.core.near_duplicate.texts import ZH_FOLLOWUP_PARAGRAPHS, ZH_PARAGRAPHS

WRITERS = 3
ROUNDS = 30           # stories; every writer stores one reprint of each, all writers at once
CONFIG = NearDuplicateConfig()
HEADERS = {"zh": ["来源：新华网", "本文转载自澎湃新闻", "原创 张三 江城日报"],
           "en": ["By Jane Roe, County Herald", "LONDON (Reuters) -", "Published May 3, 2024 9:12 a.m. ET"]}


def vocabulary(lang: str) -> list[str]:
    if lang == "zh":  # real words (jieba's), so the keyword path works as on real text
        text = "".join(ZH_PARAGRAPHS + ZH_FOLLOWUP_PARAGRAPHS)
        return sorted({w for w in jieba_module().cut(text) if is_keyword(w, "zh")})
    rng = random.Random(6)
    return sorted({"".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(4, 9))) for _ in range(3000)})


def story(number: int) -> tuple[str, str, list[str]]:
    """A made-up story (different stories share words, not sentences): language, title, paragraphs."""
    lang = "zh" if number % 2 else "en"
    rng, words = random.Random(number), vocabulary(lang)
    glue = "" if lang == "zh" else " "
    paragraphs = [glue.join(rng.choices(words, k=40)) + ("。" if lang == "zh" else ".") for _ in range(6)]
    title = glue.join(rng.sample(paragraphs[0].rstrip("。.").split(glue) if lang == "en" else
                                 [w for w in jieba_module().cut(paragraphs[0]) if is_keyword(w, "zh")], 6))
    return lang, title, paragraphs


def reprint(number: int, writer: int) -> tuple[str, str, str]:
    """Writer w's copy: its own portal header, paragraph w + 1 dropped."""
    lang, title, paragraphs = story(number)
    kept = [p for i, p in enumerate(paragraphs) if i != writer + 1]
    return lang, title, "\n".join([HEADERS[lang][writer % 3], *kept])


def write_reprints(dsn: str, writer: int, batch: int, barrier, results) -> None:
    errors, outcomes = [], []
    with psycopg.connect(dsn, autocommit=True) as connection:
        for first in range(0, ROUNDS, batch):
            articles = []
            for number in range(first, min(first + batch, ROUNDS)):
                lang, title, body = reprint(number, writer)
                articles.append(ArticleToRecord(f"https://site{writer}.example/{number}.html", writer + 1,
                                                source_hash(title, body), build_features(title, body, lang, CONFIG)))
            barrier.wait(timeout=60)  # all writers enter the transaction together
            try:
                decided = record_articles(connection, articles, CONFIG)
                outcomes.extend((a.url, outcome.status) for a, outcome in zip(articles, decided, strict=True))
            except psycopg.Error as error:
                errors.append(f"{type(error).__name__}: {error}")
    results.put((writer, errors, outcomes))


@pytest.mark.parametrize("batch", [1, 5], ids=["one-by-one", "batches-of-5"])
def test_concurrent_writers_of_one_story_end_with_one_canonical(postgres_server_dsn, batch):
    context = multiprocessing.get_context("spawn")
    with fresh_schema(postgres_server_dsn) as dsn:
        with psycopg.connect(dsn, autocommit=True) as connection:
            migrate(connection)
            connection.execute("INSERT INTO sites (name) SELECT 'site' || n FROM generate_series(1, %s) n",
                               (WRITERS,))
        barrier, results = context.Barrier(WRITERS), context.Queue()
        writers = [context.Process(target=write_reprints, args=(dsn, w, batch, barrier, results))
                   for w in range(WRITERS)]
        for process in writers:
            process.start()
        reports = [results.get(timeout=300) for _ in writers]
        for process in writers:
            process.join(timeout=60)
        with psycopg.connect(dsn) as connection:
            rows = connection.execute("SELECT url, canonical_id, id FROM near_duplicate_features").fetchall()
    assert [errors for _, errors, _ in sorted(reports)] == [[]] * WRITERS  # no deadlock, no failure
    assert sum(len(outcomes) for _, _, outcomes in reports) == WRITERS * ROUNDS
    by_story = defaultdict(list)
    for url, canonical_id, article_id in rows:
        by_story[url.rsplit("/", 1)[1]].append((article_id, canonical_id))
    assert len(by_story) == ROUNDS
    for name, members in by_story.items():
        canonicals = [article_id for article_id, canonical_id in members if canonical_id is None]
        assert len(canonicals) == 1, f"story {name}: {len(canonicals)} canonical articles"
        assert {canonical_id for _, canonical_id in members} == {None, canonicals[0]}, name
