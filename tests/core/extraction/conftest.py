"""Fixtures of the extraction tests: a page's blocks as extraction cuts them, and random pages (fixed seeds) for the
comparisons of the fast forms with their plain forms (tests/core/reference/extraction*.py)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from newscorpus.core.extraction.block_tree import Block, build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.parse import parse_html

NAMES = ["", "post-author", "comment-list", "sidebar article", "entry-content", "nav", "main", "story-body",
         "related-links", "x1", "Comments", "share-bar widget", "byline", "published-date", "content hljs"]
TEXTS = ["", " ", "Hello, world.", "  two  spaces ", "\xa0", "a\xa0b", "\u3000全角\u3000", "\u200b", "新闻，内容。",
         "\n", " \n \n", "tab\there", "Line one\nline two", "&nbsp;", "&amp; more", "end."]
INLINE = ["span", "a", "b", "strong", "em", "i", "font", "code", "br"]
BLOCKS = ["div", "p", "section", "article", "nav", "footer", "aside", "header", "li", "ul", "td", "tr", "table",
          "h1", "h2", "pre", "blockquote", "body"]
DROPPED = ["script", "style", "button", "noscript", "template", "svg", "select", "input"]


def _random_page(rng: random.Random, depth: int = 0) -> str:
    pieces = []
    for _ in range(rng.randint(1, 4 if depth < 5 else 1)):
        pieces.append(rng.choice(TEXTS))
        kind = rng.random()
        tag = rng.choice(BLOCKS if kind < 0.45 else INLINE if kind < 0.85 else DROPPED)
        attributes = ""
        if rng.random() < 0.5:
            attributes += f' class="{rng.choice(NAMES)}"'
        if rng.random() < 0.2:
            attributes += f' id="{rng.choice(NAMES)}"'
        if rng.random() < 0.05:
            attributes += rng.choice([' role="dialog"', ' aria-modal="true"', ' role="alertdialog"', ' role="main"'])
        if tag == "input":
            attributes += rng.choice(['', ' type="email"', ' type="EMAIL"'])
        if tag == "a":
            attributes += rng.choice(['', ' href="/author/jane-roe"', ' href="/"'])
        inner = _random_page(rng, depth + 1) if depth < 6 and rng.random() < 0.7 else rng.choice(TEXTS)
        if tag == "br" or (rng.random() < 0.05 and tag != "script"):  # some tags left open
            pieces.append(f"<{tag}{attributes}>{inner}")
        else:
            pieces.append(f"<{tag}{attributes}>{inner}</{tag}>")
    return "".join(pieces)


def _pages(count: int = 300) -> list[str]:
    rng = random.Random(16)
    heads = ['', '<meta property="og:type" content="article">', '<meta name="og:type" content=" Article ">',
             '<script type="application/ld+json">{"@type": "NewsArticle"}</script>',
             '<script type="application/ld+json">{"@type": "WebPage"}</script>',
             '<meta property="og:type" content="website">']
    return [f"<html><head><title>T</title>{rng.choice(heads)}</head><body class='{rng.choice(NAMES)}'>"
            f"{_random_page(rng)}</body></html>" for _ in range(count)]


# Characters of every UTF-8 length and of each of lxml's three ways to hand a text to libxml2 (ASCII, Latin-1,
# UTF-16, UCS-4), with entities and characters libxml2 treats specially (controls, a lone U+FFFE).
PIECES = ["plain", "café", "naïve ’quotes’ — dash", "新闻，内容。", "emoji 😀 here", "&nbsp;&amp;&#233;&#x1F600;",
          "\x01\x08 ctl", "\ufffe\uffff", "\r\n", "\t", "a\u3000b", "<br>", "<b>bold</b>", "&bogus;", "<", "&"]


def _utf8_pages(count: int = 300) -> list[str]:
    rng = random.Random(7)
    pages = []
    for page in _pages(count):
        pieces = page.split(">")
        for _ in range(rng.randint(0, 6)):  # non-ASCII text after random tags (none: an ASCII page)
            at = rng.randrange(len(pieces))
            pieces[at] += rng.choice(PIECES) if at else ""
        pages.append(">".join(pieces))
    return pages


# Class and id values, paths and lines of the kinds the fast tests of words and spaces pick out.
SAMPLES = [
    "", " ", "post-author", "AUTHOR-box", "/authors/jane-roe/", "/autor/x", "Writer", "mainav", "main nav",
    "comment-list comments-open", "sidebar article", "entry-content", "hljs language-py", "Code", "enlighter-x",
    "syntaxhighlighter", "highlights", "\u212aode", "hlj\u017f", "J\u00f6URNALIST", "col-md-4 row", "reply_to",
    "hot-news tags-list", "about-the-author", "read-more", "published-date", "entry-time", "time", "Time",
    "a  b", "a\tb", "a\u3000 b", "a\u200bb", "\ufeffx", "x\xa0y", "one two", "pubtime",
]


@pytest.fixture(scope="session")
def random_pages() -> Callable[[int], list[str]]:
    """`random_pages(count=300)`: pages of random block, inline and dropped tags, class and id words, dialog roles,
    e-mail fields, author links and texts, some tags left open (seed 16: the same pages on every run)."""
    return _pages


@pytest.fixture(scope="session")
def utf8_pages() -> Callable[[int], list[str]]:
    """`utf8_pages(count=300)`: random_pages with non-ASCII text of every UTF-8 length after random tags (seed 7)."""
    return _utf8_pages


@pytest.fixture(scope="session")
def class_words() -> list[str]:
    """The class and id values random_pages draws from."""
    return NAMES


@pytest.fixture(scope="session")
def block_texts() -> list[str]:
    """The texts random_pages draws from: spaces of every kind, entities, Chinese, line breaks."""
    return TEXTS


@pytest.fixture(scope="session")
def word_samples() -> list[str]:
    """Class and id values, hrefs and texts that hold (or almost hold) the words of the hint, mark, code and byline
    patterns, in mixed case, with every kind of space."""
    return SAMPLES


def _blocks_of(html: str) -> list[Block]:
    root = parse_html(html)
    clean_tree(root)
    return build_blocks(root)


@pytest.fixture(scope="session")
def blocks_of() -> Callable[[str], list[Block]]:
    """`blocks_of(html)`: the page parsed, cleaned and cut into blocks, as prepare_page does after reading the head."""
    return _blocks_of
