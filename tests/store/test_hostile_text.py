"""Hostile text through the real write path (CorpusWriter, bound parameters) into a real Postgres, read back
byte for byte: quotes, backslashes, dollar quotes, psycopg placeholders, SQL injection attempts, emoji, RTL
and zero-width marks, CJK. NUL cannot be held by Postgres text: it is stripped and counted (nul_stripped).
Lone surrogates cannot be encoded in UTF-8 and never reach storage: items are built from decoded bytes
(newscorpus.core.decoding replaces invalid sequences), and `&#xD800;` becomes U+FFFD in extraction."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import psycopg

from newscorpus.crawler.items import PageItem
from newscorpus.store.corpus_store import CorpusWriter

HOSTILE = [
    "It's \"quoted\" ''doubled'' `back`",
    "back\\slash \\\\ \\' \\x00 \\n C:\\path\\",
    "$$ dollar $$; $tag$ body $tag$ $1 $2",
    "%s %(x)s %% %(title)s {0} {}",
    "'; DROP TABLE articles; --",
    "Robert'); DELETE FROM pages WHERE ('1'='1",
    "emoji 😀👨‍👩‍👧‍👦🇨🇳 𠀀 astral",
    "RTL \u202eevil\u202c \u200f\u200e zero\u200bwidth \ufeffBOM",
    "新闻标题：“引号”‘单引号’——《书名号》",
    "tab\tnewline\ncarriage\r\nvertical\x0bform\x0c\x1f\x7f",
    "a" * 100_000 + "😀",
]
NUL_TEXTS = ["NUL\x00inside", "\x00leading and trailing\x00", "\x00\x00\x00"]


def item(number: int, title: str, body: str, author: str | None = None) -> PageItem:
    url = f"http://example.com/2026/01/01/story-{number}.html"
    return PageItem(url=url, final_url=url, site="hostile", status=200, fetched_at=datetime.now(UTC),
                    content_type="text/html", raw_body=(title + body).encode("utf-8"), url_kind="article",
                    outcome="article", title=title, author=author, body=body, clean_body=body, language="en")


async def write_all(dsn: str, items: list[PageItem]) -> CorpusWriter:
    writer = CorpusWriter(dsn, batch_size=4)
    run = await writer.start_crawl_run("hostile")
    for page in items:
        await writer.add(page, run, with_article=True)
    await writer.close()
    return writer


def test_hostile_text_round_trips_byte_for_byte(migrated_dsn):
    items = [item(n, text, f"{text}\n{HOSTILE[-1 - n]}", author=text[:50]) for n, text in enumerate(HOSTILE)]
    writer = asyncio.run(write_all(migrated_dsn, items))
    with psycopg.connect(migrated_dsn) as connection:
        rows = {url: (title, author, body, clean) for url, title, author, body, clean in connection.execute(
            "SELECT url, title, author, body, clean_body FROM articles")}
        assert connection.execute("SELECT count(*) FROM pages").fetchone()[0] == len(HOSTILE)
    assert len(rows) == len(HOSTILE)
    for page in items:
        title, author, body, clean = rows[page.url]
        assert title.encode("utf-8") == page.title.encode("utf-8")
        assert author == page.author and body == page.body and clean == page.clean_body
    assert writer.counters["articles_new"] == len(HOSTILE)
    assert writer.counters["nul_stripped"] == 0


def test_nul_is_stripped_and_counted(migrated_dsn):
    items = [item(n, text, f"body {text} end", author=text) for n, text in enumerate(NUL_TEXTS)]
    writer = asyncio.run(write_all(migrated_dsn, items))
    expected_nul = sum(4 * text.count("\x00") for text in NUL_TEXTS)   # title, author, body, clean_body
    assert writer.counters["nul_stripped"] == expected_nul == 24
    with psycopg.connect(migrated_dsn) as connection:
        rows = dict(connection.execute("SELECT url, title FROM articles").fetchall())
    for page in items:
        assert rows[page.url] == page.title.replace("\x00", "")
