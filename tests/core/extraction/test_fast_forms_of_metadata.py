"""The fast forms of the metadata readers answer as their plain forms (tests/core/reference/extraction_metadata.py),
on random lines and pages (fixed seeds): the title keys and splits (cached, and ASCII by a byte table), the visible
title, the byline lines and hints, the line and markup dates, the markup authors, the title choice's hand-over and
the date parse."""

from __future__ import annotations

import random
from datetime import date

from newscorpus.core.extraction import bylines, date_sources, dates, metadata, titles
from newscorpus.core.extraction.markup import read_markup
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.extraction.titles import KEY_CACHE_SIZE, SEPARATOR, _split, key
from tests.core.reference import extraction_metadata as metadata_reference

TODAY = date(2026, 11, 25)


# --- titles ----------------------------------------------------------------------------------------------------

def test_title_keys_are_cached_for_a_page_not_a_crawl():
    texts = [f"Headline {n} – “quoted”, ＦＵＬＬ width" for n in range(3 * KEY_CACHE_SIZE)] + [None, ""]
    for text in texts + texts[::-1]:
        assert key(text) == key.__wrapped__(text)
    assert key.cache_info().currsize <= KEY_CACHE_SIZE


def test_title_splits_are_cached_as_the_uncached_split_gives_them():
    titles = ["A headline | Site", "新闻标题-网站", "One – two — three", "a::b", "x_y｜z", "No separator", " | ", "",
              "Kicker: the story - Site"] + [f"Story {n} | Site {n % 7}" for n in range(2 * KEY_CACHE_SIZE)]
    for title in titles + titles[::-1]:
        assert list(_split(title)) == [part.strip() for part in SEPARATOR.split(title) if part and part.strip()]
    assert _split.cache_info().currsize <= KEY_CACHE_SIZE


def test_ascii_title_keys_match_the_regex_key():
    rng = random.Random(112)
    texts = [chr(code) for code in range(128)] + ["", None, "Hello, World! 2024_x", "Ünïcode – “quoted”", "ﬁle ½"]
    alphabet = [chr(code) for code in range(128)] + ["é", "—", "新"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    for text in texts:
        assert titles.key.__wrapped__(text) == metadata_reference.regex_key(text), repr(text)


def test_visible_title_with_the_word_count_last_matches_the_word_count_first():
    rng = random.Random(113)
    words = ["Fire", "crews", "fight", "blaze", "Daily", "Post", "|", "新华网", "消防员扑灭山火", "-", "News", ""]
    for _ in range(2000):
        stated = tuple(" ".join(rng.choice(words) for _ in range(rng.randint(1, 8))) for _ in range(rng.randint(1, 3)))
        lines = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(0, 12))]
        lines += [part.strip() for title in stated for part in title.split("|")]
        rng.shuffle(lines)
        sites = tuple(rng.sample(["Daily Post", "新华网", "News"], rng.randint(0, 2)))
        assert titles.visible_title(lines, stated, sites) == \
            metadata_reference.visible_title_word_count_first(lines, stated, sites), lines


# --- bylines ---------------------------------------------------------------------------------------------------

BYLINE_PIECES = ["By", "by", "Jane Roe", "John Doe", "and", "(", ")", "[", "]", "Author:", "Written by", "Posted by",
                 "reporter", "writer", "2024-05-20", "|", "Staff", "（", "）", "记者", "李明", "张文攀", "作者：",
                 "王建宏", "编辑", "文/", "由", "发表于", "本报记者", "上海报道", "Abby", "maybe", "ROE", "x"]


def test_ascii_byline_lines_read_by_en_labelled_alone_match_every_pattern():
    rng = random.Random(114)
    checked = ascii_lines = 0
    for _ in range(1500):
        lines = [" ".join(rng.choice(BYLINE_PIECES) for _ in range(rng.randint(1, 6)))
                 for _ in range(rng.randint(1, 8))]
        lines += ["(Jane Roe)", "[John Doe]", "By Jane Roe and John Doe", "（记者 李明）", "by"][: rng.randint(0, 5)]
        rng.shuffle(lines)
        assert bylines.line_authors(lines) == metadata_reference.line_authors_every_pattern(lines), lines
        checked += 1
        ascii_lines += sum(line.isascii() for line in lines)
    assert checked == 1500 and ascii_lines > 3000


def test_byline_hint_matches_the_case_insensitive_regex(word_samples):
    """An ASCII line's byline hint, from the plain pattern on its lower case, as the case-insensitive pattern's."""
    rng = random.Random(9)
    pieces = ["By ", "BY", "bY", "baby", "Author", "AUTHORS", "writer", "Reporter", "(", "[", "{", " Jane Roe ", "2024",
              "作者", "记者", "（", "【", "是", "\u212a", "\u017f", "İ", "ı", "b", "y", "rep", "orter", "\n", ":"]
    lines = word_samples + ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(5000)]
    for line in lines:
        assert bylines._byline_hint(line) == bool(bylines._BYLINE_HINT.search(line)), line


def test_ascii_byline_hint_substrings_match_the_ascii_regex():
    assert bylines._ASCII_BYLINE_HINT.pattern == r"[(\[]|by|author|writer|reporter"  # the words the tests spell out
    rng = random.Random(120)
    pieces = ["By", "bY", "(", ")", "[", "]", "Author", "WRITER", "Reporter", "b", "y", "auth", "or", "writ", "er",
              "report", " ", "x", "Abby", "{", "<"]
    lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(5000)]
    for line in lines:
        assert bylines._byline_hint(line) == (bylines._ASCII_BYLINE_HINT.search(line.lower()) is not None), line
        assert bylines._byline_hint(line) == (bylines._BYLINE_HINT.search(line) is not None), line


# --- dates and the markup --------------------------------------------------------------------------------------

def test_line_dates_parsing_each_line_once_match_the_label_first_form():
    rng = random.Random(115)
    pieces = ["Published:", "Updated", "发布时间：", "日期", "2024-05-20", "May 20, 2024", "20.05.2024", "14:33", "on",
              "By Jane", "2019年3月5日", "Posted", "x", "", "1999", "Date", "修改"]
    for _ in range(3000):
        lines = [" ".join(rng.choice(pieces) for _ in range(rng.randint(0, 3))) for _ in range(rng.randint(0, 8))]
        for source in ("line", "tail"):
            assert date_sources.line_dates(lines, TODAY, source) == \
                metadata_reference.line_dates_label_first(lines, TODAY, source), lines


def _markup_pages(count: int = 400):
    rng = random.Random(116)
    metas = ['<meta property="article:published_time" content="2024-05-20T10:00:00+08:00">',
             '<meta name="date" content="">', '<meta name="pubdate" content="not a date">',
             '<meta property="article:modified_time" content="2024-05-21">', '<meta name="lastmod" content="">',
             '<meta name="w-published-date" content="2023-01-02">', '<meta name="author" content="Jane Roe">',
             '<meta name="twitter:data1" content="John Doe">', '<meta name="twitter:label1" content="Written by">',
             '<meta name="byl" content="">', '<meta name="dc.creator" content="Jane Roe and John Doe">']
    lds = ['<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2024-05-19", '
           '"author": {"@type": "Person", "name": "Jane Roe"}}</script>',
           '<script type="application/ld+json">{"@type": "WebPage", "dateModified": "2024-06-01"}</script>',
           '<script type="application/ld+json">{"@graph": [{"@type": "Article", "dateCreated": "bad"}]}</script>']
    body = ['<time datetime="2024-05-18">May 18</time>', '<span class="date">Posted 2024-05-17</span>',
            '<span itemprop="datePublished" content="2024-05-16"></span>', '<p>Text.</p>']
    for _ in range(count):
        head = "".join(rng.sample(metas, rng.randint(0, len(metas)))) + "".join(rng.sample(lds, rng.randint(0, 3)))
        yield f"<html><head>{head}</head><body>{''.join(rng.sample(body, rng.randint(0, 4)))}</body></html>"


def test_markup_dates_and_authors_reading_only_the_meta_names_present_match_every_name():
    for page in _markup_pages():
        markup = read_markup(parse_html(page))
        assert date_sources.markup_dates(markup, TODAY) == metadata_reference.markup_dates_every_name(markup, TODAY), \
            page
        authors = bylines.markup_authors(markup)
        meta_before = metadata_reference.meta_author_every_name(markup)
        assert [c for c in authors if c.source == "meta"] == ([meta_before] if meta_before else []), page


def test_the_title_choice_hands_over_the_stated_titles_and_site_names_as_read_alone():
    extra = ['<title>Fire crews fight blaze | Daily Post</title>',
             '<meta property="og:site_name" content="Daily Post">',
             '<meta property="og:title" content="Fire crews fight blaze">',
             '<script type="application/ld+json">{"@type": "WebSite", "name": "Daily Post"}</script>']
    rng = random.Random(121)
    for page in _markup_pages(200):
        page = page.replace("<head>", "<head>" + "".join(rng.sample(extra, rng.randint(0, 4))), 1)
        for url in (None, "https://www.dailypost.example/2024/05/20/fire.html"):
            markup = read_markup(parse_html(page))
            choice = titles.choose_title(markup, url)
            assert choice.stated_texts == tuple(text for _, text in titles.stated_titles(markup)), page
            assert choice.site_names == tuple(titles.site_names(markup, url)), page
            head = metadata.head_metadata(parse_html(page), url)
            assert head.titles == tuple(dict.fromkeys(t for t in choice.stated_texts if t))
            stated_sites = tuple(titles.site_names(markup, url))  # first; the logo and <title> parts follow
            assert head.site_names[:len(stated_sites)] == stated_sites


def test_parse_date_stopping_at_a_date_at_the_start_matches_every_pattern_scanned():
    rng = random.Random(119)
    pieces = ["2024-05-20", "2024-05-20T14:33:05+08:00", "2024/5/20", "2024年5月20日", "20.05.2024", "05/06/2024",
              "May 20, 2024", "20 May 2024", "2023 Jan 7", "14:33", "Posted", "on", " ", "1899-01-01", "2099-01-01",
              "2024-13-45", "x", "T", "Z", "2024", "5", "-", "/", "de mayo de"]
    texts = [None, "", "2024", "2024-05-20"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(6000)]
    for text in texts:
        assert dates.parse_date(text, TODAY) == metadata_reference.parse_date_every_pattern(text, TODAY), text
        assert dates.parse_date(text) == metadata_reference.parse_date_every_pattern(text), text
