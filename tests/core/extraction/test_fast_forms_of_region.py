"""The fast forms of the region choice and of the body's lines answer as their plain forms
(tests/core/reference/extraction.py), on random pages (fixed seeds): the region's values, scores and subtree
totals from prefix sums, a block's kept lines from its own counts, the line kinds of the body's lines, and the
page language's searches."""

from __future__ import annotations

import importlib
import random

from newscorpus.core import text as text_module
from newscorpus.core.extraction import block_classifier, region
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.extraction.region_trim import MIN_UNPUNCTUATED_CHARS, keep_line, kept_lines
from tests.core.reference import extraction as reference

# the package exports a function named line_kinds; the module is wanted here
line_kinds = importlib.import_module("newscorpus.core.extraction.line_kinds")


# --- the region ------------------------------------------------------------------------------------------------

def _page_blocks(pages: list[str]):
    for page in pages:
        root = parse_html(page)
        clean_tree(root)
        yield build_blocks(root)


def _exact(first: list, second: list) -> bool:
    """Equal element by element, in type too (a float stays a float)."""
    return len(first) == len(second) and all(type(a) is type(b) and a == b for a, b in zip(first, second, strict=True))


def test_region_values_scores_and_totals_match_the_walks_over_every_block(random_pages):
    rng = random.Random(111)
    checked = 0
    for blocks in _page_blocks(random_pages(200)):
        comments = region.comment_sections(blocks)
        for window in (None, [rng.random() < 0.6 for _ in blocks]):
            values = region.region_values(blocks, region.PAPER_MAX_RATIO, window, comments)
            assert _exact(values, reference.region_values_list(blocks, region.PAPER_MAX_RATIO, window, comments))
            chars = region.char_prefix(blocks)
            scores = region.candidate_scores(blocks, values)
            assert _exact(scores, reference.candidate_scores_walk(blocks, values))
            assert _exact(region.candidate_scores(blocks, values, chars), scores)
            for hint in (-1, 0, 1):
                expected = reference.subtree_totals_walk(blocks, values, hint)
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
    assert any(values) and _exact(values, reference.region_values_list(blocks, region.PAPER_MAX_RATIO, None, comments))


def test_shared_subtree_totals_give_what_each_step_computes_alone(random_pages):
    for page in random_pages(100):
        root = parse_html(page)
        clean_tree(root)
        blocks = build_blocks(root)
        values = [region.prose_value(block) for block in blocks]
        for hint in (-1, 0, 1):
            totals = region._subtree_totals(blocks, values, hint)
            roots = [index for index in range(1, len(blocks)) if values[index]][:1] or [0]
            expanded = region.expand_upwards(blocks, roots, values, hint, totals=totals)
            assert expanded == region.expand_upwards(blocks, roots, values, hint)
            roots = expanded
            assert region.join_similar_siblings(blocks, roots, values, hint, totals) == \
                region.join_similar_siblings(blocks, roots, values, hint)


def test_the_region_choice_tells_no_language_but_zh():
    """choose_region reads the page's language without the English check (None for "en"): no table it reads holds
    "en"."""
    assert set(region.LANGUAGE_CONSTANTS) <= {"zh"} and set(block_classifier.RULES_ONLY_LANGUAGES) <= {"zh"}


# --- the body's lines ------------------------------------------------------------------------------------------

def test_kept_lines_match_keep_line_on_every_block(utf8_pages):
    titles = ["Hello, world.", "新闻，内容。", "x" * MIN_UNPUNCTUATED_CHARS, "x" * (MIN_UNPUNCTUATED_CHARS - 1),
              "!!!!", "a, b, c, d, e", "Headline without marks"]
    rng = random.Random(3)
    pages = utf8_pages(200) + [f"<html><body><h2>{t}</h2><p>{t}</p><div>{t}<br>{rng.choice(titles)}</div>"
                                f"<h3> {t} </h3></body></html>" for t in titles]
    checked = 0
    for page in pages:
        root = parse_html(page)
        clean_tree(root)
        for block in build_blocks(root):
            for max_ratio in (0.0, 0.1, 0.3, 1.0):
                expected = [line for line in block.text.split("\n") if keep_line(line, block, max_ratio)]
                assert kept_lines(block, max_ratio) == expected, (block.text, max_ratio)
                checked += 1
    assert checked > 10_000


def test_line_kinds_from_the_body_lines_alone_match_every_line_holders(utf8_pages):
    rng = random.Random(11)
    checked = 0
    for page in utf8_pages(150):
        root = parse_html(page)
        clean_tree(root)
        blocks = build_blocks(root)
        lines = [line for block in blocks if block.text for line in block.text.split("\n")] or [""]
        for _ in range(5):  # bodies of page lines in and out of order, repeated, and lines of no block
            body = "\n".join(rng.choice([*lines, "not on the page", ""]) for _ in range(rng.randint(1, 12)))
            assert line_kinds.line_kinds(body, blocks) == reference.line_kinds_of_every_line(body, blocks), body
            checked += 1
    assert checked == 750


def test_code_marks_cached_per_body_match_the_uncached_kinds(random_pages):
    for page in random_pages(100):
        root = parse_html(page)
        clean_tree(root)
        blocks = build_blocks(root)
        coded: dict[int, bool] = {}
        for index in range(len(blocks)):
            assert line_kinds._block_kind(blocks, index, coded) == line_kinds._block_kind(blocks, index), page


def test_code_class_matches_the_regex(word_samples):
    for value in word_samples:
        assert line_kinds._code_class(value) == bool(line_kinds._CODE_CLASS.search(value)), value


# --- the page's language ---------------------------------------------------------------------------------------

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
            assert text_module.detect_language(text, english) == \
                reference.detect_language_two_searches(text, english), repr(text)
    every = "".join(map(chr, range(0x3000)))
    assert len(text_module._NOT_LETTER.findall(every)) + len(text_module._LETTER.findall(every)) == len(every)


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
            assert answer == reference.detect_language_two_searches(text, english)
            checked.add(answer)
    assert {"zh", None} <= checked


def test_stopword_spellings_count_as_lower_casing_each_word():
    assert not [chr(c) for c in range(0xC0, 0x250) if chr(c).lower() != chr(c) and chr(c).lower().isascii()]
    rng = random.Random(7)
    words = sorted(text_module._ENGLISH_STOPWORDS) + ["İs", "ſaid", "Thé", "THE", "tHe", "theory", "À", "x"]
    for _ in range(2000):
        sample = " ".join("".join(c.upper() if rng.random() < 0.3 else c for c in rng.choice(words))
                          for _ in range(rng.randint(0, 12)))
        found = text_module._LATIN_WORD.findall(sample)
        expected = sum(word.lower() in text_module._ENGLISH_STOPWORDS for word in found)
        assert sum(map(text_module._STOPWORD_SPELLINGS.__contains__, found)) == expected, sample
