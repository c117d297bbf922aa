"""Issue 16, round 11: the fast forms after the page is prepared (region scores and subtree totals from prefix sums,
the region's values, ASCII title keys, the visible title's test order, ASCII byline lines, line dates, the meta names a
page has, the language's searches) answer as the simple forms they replaced, on random inputs (fixed seeds)."""

from __future__ import annotations

import random
import re
import unicodedata
from datetime import date

import numpy as np

from newscorpus.core import text as text_module
from newscorpus.core.extraction import block_classifier, bylines, date_sources, dates, metadata, region, titles
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.bylines import (
    EN_LABELLED,
    LABEL_ALONE,
    ZH_BRACKET,
    ZH_EDITOR,
    ZH_LABELLED,
    ZH_POSTED,
    ZH_REPORTER,
    AuthorCandidate,
    _byline_hint,
    _pattern_names,
)
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.date_sources import (
    MODIFIED_META,
    PUBLISHED_META,
    DateCandidate,
    _date_position,
    _label_kind,
)
from newscorpus.core.extraction.dates import parse_date
from newscorpus.core.extraction.markup import article_objects, read_markup
from newscorpus.core.extraction.parse import parse_html
from tests.core.extraction.test_fast_walks import _pages

TODAY = date(2026, 11, 25)


def _page_blocks(count: int = 200):
    for page in _pages(count):
        root = parse_html(page)
        clean_tree(root)
        yield build_blocks(root)


# --- region.py ---------------------------------------------------------------------------------------------------

def _candidate_scores_walk(blocks, values):
    """candidate_scores before round 11: every block walked, subtree characters summed as floats."""
    n = len(blocks)
    scores = [0.0] * n
    chars = [float(b.chars) for b in blocks]
    links = [float(b.link_chars) for b in blocks]
    for index in range(n - 1, 0, -1):
        parent = blocks[index].parent
        if parent >= 0:
            chars[parent] += chars[index]
            links[parent] += links[index]
        value = values[index]
        if not value:
            continue
        scores[index] += value
        if parent >= 0:
            scores[parent] += value
            grandparent = blocks[parent].parent
            if grandparent >= 0:
                scores[grandparent] += value * region.GRANDPARENT_SHARE
    for index, block in enumerate(blocks):
        if scores[index]:
            density = links[index] / chars[index] if chars[index] else 0.0
            factor = region.POSITIVE_HINT_FACTOR if block.hint > 0 else \
                region.NEGATIVE_HINT_FACTOR if block.hint < 0 else 1.0
            scores[index] *= (1.0 - density) * factor
    return scores


def _subtree_totals_walk(blocks, values, top_hint):
    """_subtree_totals before round 11."""
    n = len(blocks)
    prose = [0.0] * n
    total = [0.0] * n
    for index in range(n - 1, -1, -1):
        block = blocks[index]
        total[index] += block.chars
        if values[index] and block.link_chars <= region.MAX_LINK_DENSITY * block.chars and \
                not region.hint_dropped(blocks, index, top_hint):
            prose[index] += values[index]
        parent = block.parent
        if parent >= 0:
            total[parent] += total[index]
            prose[parent] += prose[index]
    return prose, total


def _region_values_list(blocks, max_ratio, window, comments):
    """The region's values before round 11: one list over every block, then the site-chrome list."""
    values = [0.0 if comments[i] or (window is not None and not window[i]) else region.prose_value(b, max_ratio)
              for i, b in enumerate(blocks)]
    outside_chrome = [0.0 if value and region.in_site_chrome(blocks, i) else value for i, value in enumerate(values)]
    return outside_chrome if any(outside_chrome) else values


def _exact(first: list, second: list) -> bool:
    """Equal element by element, in type too (a float stays a float)."""
    return len(first) == len(second) and all(type(a) is type(b) and a == b for a, b in zip(first, second, strict=True))


def test_region_values_scores_and_totals_match_the_walks_over_every_block():
    rng = random.Random(111)
    checked = 0
    for blocks in _page_blocks():
        comments = region.comment_sections(blocks)
        for window in (None, [rng.random() < 0.6 for _ in blocks]):
            values = region.region_values(blocks, region.PAPER_MAX_RATIO, window, comments)
            assert _exact(values, _region_values_list(blocks, region.PAPER_MAX_RATIO, window, comments))
            chars = region.char_prefix(blocks)
            scores = region.candidate_scores(blocks, values)
            assert _exact(scores, _candidate_scores_walk(blocks, values))
            assert _exact(region.candidate_scores(blocks, values, chars), scores)
            for hint in (-1, 0, 1):
                expected = _subtree_totals_walk(blocks, values, hint)
                for totals in (region._subtree_totals(blocks, values, hint),
                               region._subtree_totals(blocks, values, hint, chars)):
                    assert [_exact([sums[i] for i in range(len(sums))], walked)
                            for sums, walked in zip(totals, expected, strict=True)] == [True, True]
            checked += 1
    assert checked == 400


def test_region_values_keep_the_chrome_prose_when_it_is_all_the_prose():
    page = "<html><body><aside><p>The only prose of this page sits in an aside, punctuated.</p></aside></body></html>"
    root = parse_html(page)
    clean_tree(root)
    blocks = build_blocks(root)
    comments = region.comment_sections(blocks)
    values = region.region_values(blocks, region.PAPER_MAX_RATIO, None, comments)
    assert any(values) and _exact(values, _region_values_list(blocks, region.PAPER_MAX_RATIO, None, comments))


# --- titles.py ----------------------------------------------------------------------------------------------------

_NOT_LETTERS = re.compile(r"[\W_]+")


def _regex_key(text):
    return _NOT_LETTERS.sub("", unicodedata.normalize("NFKC", text or "")).lower()


def test_ascii_title_keys_match_the_regex_key():
    rng = random.Random(112)
    texts = [chr(code) for code in range(128)] + ["", None, "Hello, World! 2024_x", "Ünïcode – “quoted”", "ﬁle ½"]
    alphabet = [chr(code) for code in range(128)] + ["é", "—", "新"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    for text in texts:
        assert titles.key.__wrapped__(text) == _regex_key(text), repr(text)


def _visible_title_before(lines, stated, sites=()):
    keys = [titles.key(text) for text in stated if text]
    site_keys = {titles.key(site) for site in sites}
    best = None
    for line in lines:
        if len(line) > titles.MAX_HEADLINE_CHARS or (best is not None and len(line) <= len(best)):
            continue
        line_key = titles.key(line)
        long_enough = len(line.split()) >= titles.MIN_LINE_WORDS or \
            len(re.findall(titles._HAN, line)) >= titles.MIN_LINE_CJK_CHARS
        if long_enough and line_key and line_key not in site_keys and any(line_key in k for k in keys):
            best = line
    return best


def test_visible_title_with_the_word_count_last_matches_the_test_before():
    rng = random.Random(113)
    words = ["Fire", "crews", "fight", "blaze", "Daily", "Post", "|", "新华网", "消防员扑灭山火", "-", "News", ""]
    for _ in range(2000):
        stated = tuple(" ".join(rng.choice(words) for _ in range(rng.randint(1, 8))) for _ in range(rng.randint(1, 3)))
        lines = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(0, 12))]
        lines += [part.strip() for title in stated for part in title.split("|")]
        rng.shuffle(lines)
        sites = tuple(rng.sample(["Daily Post", "新华网", "News"], rng.randint(0, 2)))
        assert titles.visible_title(lines, stated, sites) == _visible_title_before(lines, stated, sites), lines


# --- bylines.py ---------------------------------------------------------------------------------------------------

def _line_authors_before(lines, source="line"):
    """line_authors before round 11: every pattern in turn for every hinted line."""
    found = {0: [], 1: [], 2: [], 3: []}
    for index, line in enumerate(lines):
        if not _byline_hint(line):
            continue
        if LABEL_ALONE.fullmatch(line) and index + 1 < len(lines):
            names = bylines.split_names(lines[index + 1])
            if names:
                found[0].append(AuthorCandidate(source, names))
            continue
        for strength, pattern in ((0, ZH_LABELLED), (0, EN_LABELLED), (1, ZH_REPORTER), (1, ZH_BRACKET),
                                  (2, ZH_POSTED)):
            names = _pattern_names(pattern, line)
            if names:
                found[strength].append(AuthorCandidate(source, names))
                break
        else:
            names = _pattern_names(ZH_EDITOR, line)
            if names:
                found[3].append(AuthorCandidate("editor", names))
    return found[0] + found[1] + found[2] + found[3]


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
        assert bylines.line_authors(lines) == _line_authors_before(lines), lines
        checked += 1
        ascii_lines += sum(line.isascii() for line in lines)
    assert checked == 1500 and ascii_lines > 3000


# --- date_sources.py ----------------------------------------------------------------------------------------------

def _line_dates_before(lines, today=None, source="line"):
    found = []
    for index, line in enumerate(lines):
        parsed = parse_date(line, today)
        label = line
        if parsed is None and len(line) <= 12 and index + 1 < len(lines) and _label_kind(line) != "unlabelled":
            parsed = parse_date(lines[index + 1], today)
        if parsed is None:
            continue
        position = _date_position(line)
        found.append(DateCandidate(source, parsed, _label_kind(label[:position] if position else label)))
    return found


def test_line_dates_parsing_each_line_once_match_the_label_first_form():
    rng = random.Random(115)
    pieces = ["Published:", "Updated", "发布时间：", "日期", "2024-05-20", "May 20, 2024", "20.05.2024", "14:33", "on",
              "By Jane", "2019年3月5日", "Posted", "x", "", "1999", "Date", "修改"]
    for _ in range(3000):
        lines = [" ".join(rng.choice(pieces) for _ in range(rng.randint(0, 3))) for _ in range(rng.randint(0, 8))]
        for source in ("line", "tail"):
            assert date_sources.line_dates(lines, TODAY, source) == _line_dates_before(lines, TODAY, source), lines


def _markup_dates_before(markup, today=None):
    """markup_dates before round 11 (the JSON-LD objects ordered once per key, a generator for every meta name)."""
    found = []
    for key, kind in (("datePublished", "published"), ("dateCreated", "published"), ("dateModified", "modified")):
        for item in article_objects(markup):
            value = item.get(key)
            parsed = parse_date(value, today) if isinstance(value, str) else None
            if parsed:
                found.append(DateCandidate("jsonld", parsed, kind))
                break
    for names, kind in ((PUBLISHED_META, "published"), (MODIFIED_META, "modified")):
        for name in names:
            parsed = next((p for p in (parse_date(v, today) for v in markup.meta.get(name, ())) if p), None)
            if parsed:
                found.append(DateCandidate("meta", parsed, kind))
                break
    if not any(candidate.source == "meta" and candidate.kind == "published" for candidate in found):
        for name, values in markup.meta.items():
            if date_sources.CUSTOM_PUBLISHED_META.search(name) and not date_sources.CUSTOM_OTHER_META.search(name):
                parsed = next((p for p in (parse_date(v, today) for v in values) if p), None)
                if parsed:
                    found.append(DateCandidate("meta", parsed, "published"))
                    break
    for wanted, kind in (("datepublished", "published"), ("datecreated", "published"), ("datemodified", "modified")):
        for prop, element in markup.itemprops:
            if prop == wanted:
                parsed = date_sources._attribute_or_text(element, today)
                if parsed:
                    found.append(DateCandidate("itemprop", parsed, kind))
                    break
    for source, elements in (("time", markup.times), ("marked", markup.date_marked)):
        for element in elements:
            parsed = date_sources._attribute_or_text(element, today)
            if parsed:
                found.append(DateCandidate(source, parsed, _label_kind(date_sources._label_text(element))))
                break
    return found


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
        assert date_sources.markup_dates(markup, TODAY) == _markup_dates_before(markup, TODAY), page
        authors = bylines.markup_authors(markup)
        meta_before = None
        for key in bylines.AUTHOR_META:
            if key == "twitter:data1" and (markup.first_meta("twitter:label1") or "").lower() not in (
                    "written by", "author", "by"):
                continue
            names = tuple(dict.fromkeys(n for value in markup.meta.get(key, ())
                                        for n in bylines.split_names(value, strict=False)))
            if names:
                meta_before = AuthorCandidate("meta", names[:bylines.MAX_AUTHORS])
                break
        assert [c for c in authors if c.source == "meta"] == ([meta_before] if meta_before else []), page


# --- text.py ------------------------------------------------------------------------------------------------------

def _detect_language_before(text, english=True):
    sample = text[:text_module.SAMPLE_CHARS]
    if text_module._OTHER_SCRIPT.search(sample) is None:
        return text_module._english_or_none(sample) if english else None
    letters = len(text_module._LETTER.findall(sample))
    if not letters:
        return None
    kana = len(text_module._KANA.findall(sample))
    han = len(text_module._HAN.findall(sample))
    if kana / letters > text_module.MIN_KANA_SHARE:
        return "ja"
    if han / letters > text_module.MIN_SCRIPT_SHARE:
        return "zh"
    for pattern, language in ((text_module._HANGUL, "ko"), (text_module._CYRILLIC, "ru"), (text_module._ARABIC, "ar")):
        if len(pattern.findall(sample)) / letters > text_module.MIN_SCRIPT_SHARE:
            return language
    return text_module._english_or_none(sample) if english else None


def test_language_with_one_first_search_and_counted_non_letters_matches_the_two_searches():
    rng = random.Random(117)
    pieces = ["The council said the new bus routes", " of the ", "市政府表示，新的公交线路", "ひらがな", "한국어",
              "Москва", "العربية", " 2024 ", "café au lait ", "\n", "il est dans la maison ", "!", "_", "²½",
              "\u00c0\u024f", "\u3400", "\U0001f600", "   "]
    texts = ["", " ", "2024", "\u00e9", "the the the"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 60))) for _ in range(4000)]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(300, 600))) for _ in range(40)]  # past the sample
    for text in texts:
        for english in (True, False):
            assert text_module.detect_language(text, english) == _detect_language_before(text, english), repr(text)
    every = "".join(map(chr, range(0x3000)))
    assert len(text_module._NOT_LETTER.findall(every)) + len(text_module._LETTER.findall(every)) == len(every)


# --- block_classifier.py ------------------------------------------------------------------------------------------

def _tree_scores_before(model, rows):
    """tree_scores before round 11: two child lookups and a choice per step."""
    if not len(rows):
        return np.zeros(0)
    trees, width = model.feature.shape
    flat = rows.ravel()
    offsets = np.repeat(np.arange(len(rows)) * rows.shape[1], trees)
    node = np.tile(np.arange(trees) * width, len(rows))
    feature, split, left, right = model.feature.ravel(), model.split.ravel(), model.left, model.right
    for _ in range(model.depth):
        node = np.where(flat[offsets + feature[node]] <= split[node], left[node], right[node])
    return model.value.ravel()[node].reshape(len(rows), trees).sum(axis=1) + model.base


def test_tree_scores_over_doubled_ids_match_the_two_lookups():
    model = block_classifier.load_model()
    assert model is not None
    rng = np.random.default_rng(118)
    for count in (0, 1, 2, 7, 40):
        rows = rng.normal(size=(count, len(model.features))) * rng.choice([0.1, 1.0, 10.0], size=len(model.features))
        rows[rng.random(rows.shape) < 0.3] = 0.0  # flags and zero counts sit on split values
        assert np.array_equal(block_classifier.tree_scores(model, rows), _tree_scores_before(model, rows))
    # the split values themselves: "value <= split" at equality goes left in both
    rows = np.tile(model.split.ravel()[np.isfinite(model.split.ravel())][: len(model.features)], (3, 1))
    assert np.array_equal(block_classifier.tree_scores(model, rows), _tree_scores_before(model, rows))


# --- dates.py -----------------------------------------------------------------------------------------------------

def _parse_date_before(text, today=None):
    """parse_date before round 11: every pattern scanned after a date at the text's start too."""
    if not text or dates._YEAR_DIGITS.search(text) is None:
        return None
    text = text[:2000]
    found = []
    match = dates.ISO.search(text)
    if match:
        year, month, day, hour, minute, second, zone = match.groups()
        valid = dates._valid(int(year), int(month), int(day), today)
        if valid:
            found.append((match.start(), dates._iso(valid, hour, minute, second, zone=zone)))
    match = dates.YEAR_FIRST.search(text)
    if match and (not found or match.start() < found[0][0]):
        year, _, month, day, *clock = match.groups()
        valid = dates._valid(int(year), int(month), int(day), today)
        if valid:
            found.append((match.start(), dates._iso(valid, *clock)))
    for pattern in (dates.NUMBER_FIRST, dates.MONTH_FIRST, dates.DAY_FIRST, dates.YEAR_MONTH_DAY):
        for match in pattern.finditer(text):
            if found and match.start() >= min(position for position, _ in found):
                break
            value = dates._read_match(pattern, match, today)
            if value:
                found.append((match.start(), value))
                break
    return min(found)[1] if found else None


def test_parse_date_stopping_at_a_date_at_the_start_matches_every_pattern_scanned():
    rng = random.Random(119)
    pieces = ["2024-05-20", "2024-05-20T14:33:05+08:00", "2024/5/20", "2024年5月20日", "20.05.2024", "05/06/2024",
              "May 20, 2024", "20 May 2024", "2023 Jan 7", "14:33", "Posted", "on", " ", "1899-01-01", "2099-01-01",
              "2024-13-45", "x", "T", "Z", "2024", "5", "-", "/", "de mayo de"]
    texts = [None, "", "2024", "2024-05-20"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(6000)]
    for text in texts:
        assert dates.parse_date(text, TODAY) == _parse_date_before(text, TODAY), text
        assert dates.parse_date(text) == _parse_date_before(text), text


def test_ascii_byline_hint_substrings_match_the_ascii_regex():
    assert bylines._ASCII_BYLINE_HINT.pattern == r"[(\[]|by|author|writer|reporter"  # the words the tests spell out
    rng = random.Random(120)
    pieces = ["By", "bY", "(", ")", "[", "]", "Author", "WRITER", "Reporter", "b", "y", "auth", "or", "writ", "er",
              "report", " ", "x", "Abby", "{", "<"]
    lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(5000)]
    for line in lines:
        assert bylines._byline_hint(line) == (bylines._ASCII_BYLINE_HINT.search(line.lower()) is not None), line
        assert bylines._byline_hint(line) == (bylines._BYLINE_HINT.search(line) is not None), line


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
            assert head.site_names == tuple(titles.site_names(markup, url))


def test_han_counted_by_chunks_answers_as_the_whole_count_near_the_share():
    rng = random.Random(122)
    latin, han = "abcdefghij klmnop ", "市政府表示新的公交线路将于春季开通"
    checked = set()
    for _ in range(600):
        share = rng.uniform(0.2, 0.45)  # Han share of the letters around MIN_SCRIPT_SHARE
        size = rng.randint(500, 7000)
        chars = [rng.choice(han) if rng.random() < share else rng.choice(latin) for _ in range(size)]
        if rng.random() < 0.5:
            chars.sort(key=lambda char: (char in han) != (rng.random() < 0.5))  # Han first or last, in runs
        text = "".join(chars)
        for english in (True, False):
            answer = text_module.detect_language(text, english)
            assert answer == _detect_language_before(text, english)
            checked.add(answer)
    assert {"zh", None} <= checked
