"""The fast forms of a page's preparation answer as their plain forms (tests/core/reference/extraction.py), on
random pages (fixed seeds) and hand-made edge cases: the parse of a page's own UTF-8 bytes, the markup walk, the
cleaning's walks and container tests, the class and id words' flags, and the block walk and its text finish."""

from __future__ import annotations

import importlib
import random
import re

from lxml import etree

from newscorpus.core.decoding import decode_html
from newscorpus.core.extraction import (
    block_tree,
    class_hints,
    cleaning,
    extract,
    looks_binary,
    markup,
)
from newscorpus.core.extraction.block_tree import Block, _finish, build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.markup import read_markup
from newscorpus.core.extraction.parse import parse_html
from tests.core.reference import extraction as reference

# the package exports a function named line_kinds; the module is wanted here
line_kinds = importlib.import_module("newscorpus.core.extraction.line_kinds")

# --- the parse -------------------------------------------------------------------------------------------------

def _tree(root) -> bytes:
    return etree.tostring(root.getroottree(), encoding="utf-8", method="xml")


def test_parse_of_utf8_bytes_gives_the_tree_of_the_text(utf8_pages):
    kinds = set()
    for page in utf8_pages():
        data = page.encode("utf-8")
        decoded = decode_html(data)
        assert decoded.strict and decoded.encoding == "utf-8"
        before = _tree(reference.parse_html_from_text(decoded.text))
        assert _tree(parse_html(decoded.text, data)) == before, page  # the page's own bytes
        assert _tree(parse_html(decoded.text)) == before, page  # the text, encoded by parse_html
        kinds.add(max(map(ord, page)).bit_length())
    assert {7, 8, 16, 17} <= kinds  # ASCII, Latin-1, UTF-16 and UCS-4 texts in lxml's terms


def test_parse_of_the_bytes_follows_the_text_not_a_stated_charset():
    # the header says UTF-8, the page's <meta> another charset: the text is the UTF-8 decoding, so is the tree
    page = ('<html><head><meta charset="iso-8859-1"><meta http-equiv="Content-Type" content="text/html; '
            'charset=gbk"><title>Café 新闻</title></head><body><p>Naïve — 新闻，内容。😀</p></body></html>')
    data = page.encode("utf-8")
    decoded = decode_html(data, "text/html; charset=utf-8")
    assert decoded.strict and decoded.encoding == "utf-8"
    root = parse_html(decoded.text, data)
    assert _tree(root) == _tree(reference.parse_html_from_text(decoded.text))
    assert root.findtext(".//p") == "Naïve — 新闻，内容。😀"
    gbk = decode_html(page.replace("😀", "").encode("gb18030"), "text/html; charset=gbk")  # encoded by parse_html
    assert gbk.encoding == "gb18030"
    assert _tree(parse_html(gbk.text)) == _tree(reference.parse_html_from_text(gbk.text))


def test_texts_the_bytes_cannot_stand_for_are_parsed_from_the_text():
    # a NUL (removed from the text), an XML declaration (cut from the text), replaced bytes (not a strict decoding),
    # a lone surrogate (no UTF-8 encoding), an unclosed title (reparsed from the text)
    for data in (b"<html><body><p>a\x00b \xc3\xa9</p></body></html>",
                 b'<?xml version="1.0" encoding="iso-8859-1"?><html><body><p>caf\xc3\xa9</p></body></html>',
                 b"<html><body><p>" + "café ".encode() * 300 + b"\xff broken</p></body></html>",
                 b"<html><head><title>caf\xc3\xa9 " + b"x" * 1200 + b"<p>body</p></body></html>"):
        decoded = decode_html(data)
        utf8 = data if decoded.strict and decoded.encoding == "utf-8" else None
        assert _tree(parse_html(decoded.text, utf8)) == _tree(reference.parse_html_from_text(decoded.text))
    surrogate = "<html><body><p>caf\u00e9 \ud800 lone</p></body></html>"
    assert _tree(parse_html(surrogate)) == _tree(reference.parse_html_from_text(surrogate))
    assert extract(b"<html><body><p>A NUL\x00 inside, caf\xc3\xa9, and a sentence long enough to be a body here."
                   b"</p></body></html>").body == "A NUL inside, café, and a sentence long enough to be a body here."
    replaced = decode_html(b"<p>" + "café ".encode() * 300 + b"\xff</p>")  # UTF-8 with one byte replaced
    assert replaced.encoding == "utf-8" and "\ufffd" in replaced.text and not replaced.strict
    assert not decode_html(b"\xef\xbb\xbf<p>caf\xc3\xa9</p>").strict  # the BOM is cut from the text


def test_looks_binary_counts_control_bytes_as_a_count_byte_by_byte():
    """looks_binary's control bytes, counted by bytes.translate, against the count of them one by one."""
    rng = random.Random(10)
    samples = [b"", b"<html>", bytes(range(256)), b"\x00" * 5000, b"\t\n\x0c\r\x1b" * 300]
    for _ in range(2000):
        size = rng.choice((1, 7, 100, 1024, 1025, 3000))
        share = rng.random() * 0.3
        samples.append(bytes(rng.randrange(32) if rng.random() < share else rng.randrange(32, 256)
                             for _ in range(size)))
    for data in samples:
        assert looks_binary(data) == reference.looks_binary_counted(data), data[:40]


# --- the markup walk --------------------------------------------------------------------------------------------

def test_markup_walk_finds_the_dialogs_and_article_mark_of_the_separate_walks(random_pages):
    for page in random_pages():
        root = parse_html(page)
        read = markup.read_markup(root)
        assert read.dialogs == cleaning.dialogs(root), page
        assert read.article_marked == reference.article_marked(root), page
        expected = parse_html(page)
        clean_tree(expected)
        clean_tree(root, read)
        assert etree.tostring(root) == etree.tostring(expected), page


def test_found_dialogs_inside_dropped_elements_change_nothing():
    page = ("<html><body><div>a<template role='dialog'>x</template>tail<noscript><div role='dialog'>in</div>t"
            "</noscript><p role='dialog'>gone</p>kept</div></body></html>")
    root, expected = parse_html(page), parse_html(page)
    clean_tree(expected)
    clean_tree(root, markup.read_markup(root))
    assert etree.tostring(root) == etree.tostring(expected) == b"<html><body><div>atailkept</div></body></html>"


def test_class_marks_match_the_per_token_marks(class_words):
    for first in class_words + ["J\u00f6URNALIST", "Post-Time", "\u212aode", "time", "x time"]:
        for second in class_words:
            names = f"{first} {second}"
            markup._token_marks.clear()
            expected = 0
            for token in names.split():
                expected |= markup._token_mark(token)
            markup._token_marks.clear()
            assert markup._class_mark(names) == expected, names


def test_token_marks_match_the_regexes(word_samples):
    for value in word_samples:
        lowered = value.lower()
        expected = (markup._AUTHOR if markup.AUTHOR_NAMES.search(lowered) else 0) | (
            markup._DATE if markup.DATE_NAMES.search(lowered) else 0)
        markup._token_marks.clear()
        assert markup._token_mark(value) == expected, value


def test_href_hint_matches_the_case_insensitive_regex(word_samples):
    words = [*markup._HREF_WORDS, "AUTHOR", "Autor", "aut", "/columnists/x", "/contributors/y", "reporter?id=1"]
    samples = [*word_samples, *words, *(f"https://x.org/{a}/{b}" for a in words for b in words)]
    for value in samples:
        assert markup._href_hint(value) == bool(markup._HREF_HINT.search(value)), value


def test_href_prefilter_words_cover_every_href_word():
    """_href_hint's substring tests: "aut" or one of the other words, in every word of _HREF_WORDS."""
    assert markup._HREF_HINT_LOWER.pattern == "|".join(markup._HREF_WORDS)
    tested = ("aut", "writer", "contributor", "columnist", "reporter", "journalist")
    assert all(any(word in href_word for word in tested) for href_word in markup._HREF_WORDS)


def _alternatives(pattern: str) -> list[str]:
    """The literal words of a regex alternation (anchors and `\\w*` tails dropped)."""
    return [re.sub(r"\\w\*|[\^$]", "", part) for part in pattern.split("|")]


def test_prefilter_words_cover_every_alternative_of_their_regex():
    assert all(any(word in part for word in markup._DATE_WORDS) for part in _alternatives(markup.DATE_NAMES.pattern))
    code = line_kinds._CODE_CLASS.pattern.split("(?:")[2].split(")")[0]  # the words between the space guards
    assert all(any(word in part for word in line_kinds._CODE_WORDS) for part in _alternatives(code))
    assert markup.AUTHOR_NAMES.pattern == "|".join(markup.AUTHOR_WORDS)  # no regex syntax: the words are its answer
    # COMMENT_TOKEN's alternatives (its last one, "(?:comments?|reply)[-_](?!open|closed)\w+", as its two starts)
    assert class_hints.COMMENT_TOKEN.pattern == (
        r"^(?:comments?|commentlist|replies|respond|pinglun|disqus\w*|(?:comments?|reply)[-_](?!open|closed)\w+)$")
    # each start is one of the two without a hint word, or the first word findall finds in it is one of
    # _COMMENT_START_WORDS, from its first letter on, whatever follows it
    for alternative in ("comment", "commentlist", "replies", "respond", "pinglun", "disqus", "comment-", "reply-"):
        if alternative.startswith(class_hints._COMMENT_ONLY_STARTS):
            continue
        for tail in ("", "s", "list", "-open", "_x", "er", "ment", "-nav"):
            match = class_hints._HINT_WORDS.search(alternative + tail)
            assert match.start() == 0 and match.group() in class_hints._COMMENT_START_WORDS, alternative + tail


# --- the cleaning -----------------------------------------------------------------------------------------------

def test_content_and_email_walks_answer_as_their_xpaths(random_pages):
    pages = random_pages(150) + ["<html><body><button><div><p>x</p></div></button><select><option>a<h2>b</h2>"
                                 "</option></select><input type='eMaiL'><input type='EMAIL'><input type='e-mail'>"
                                 "<input></body></html>"]
    for page in pages:
        root = parse_html(page)
        assert cleaning.email_fields(root) == reference.EMAIL_FIELDS(cleaning.document_element(root)), page
        for element in root.iter():
            assert cleaning.holds_content(element) == reference.HOLDS_CONTENT(element), page


CONTROLS = [
    "<button>Menu</button>", "<button></button>", "<button> " + "x " * 600 + "</button>",
    "<button>" + "y" * 1001 + "</button>", "<button>" + "y" * 1000 + "</button>",
    "<button><span>Share</span></button>", "<button><svg></svg></button>", "<button><div><p>Body</p></div></button>",
    "<button>a<b>" + "z" * 999 + "</b></button>", "<button><div>unclosed <main><p>Page</p></main>",
    "<select><option>A</option><option>B</option></select>", "<select></select>", "<video>no support</video>",
    "<video><p>Transcript</p></video>", "<object><section><h2>T</h2></section></object>", "<canvas>x</canvas>",
    "<picture><source><img></picture>", "<map><area></map>",
]


def test_container_tests_skipping_childless_elements_match_the_walks(random_pages):
    pages = random_pages(60) + [f"<html><body><div>a {control} b</div><p>tail</p></body></html>"
                                for control in CONTROLS]
    pages += ["<html><body>" + "".join(CONTROLS) + "</body></html>"]
    for page in pages:
        fast, simple = parse_html(page), parse_html(page)
        clean_tree(fast, read_markup(fast))
        reference.clean_tree_testing_every_control(simple, read_markup(simple))
        assert etree.tostring(fast) == etree.tostring(simple), page


# --- the class and id words ------------------------------------------------------------------------------------

def test_grouped_hint_words_match_the_flat_alternation(class_words):
    flat = re.compile(f"{class_hints.NEGATIVE_HINT.pattern.lower()}|{class_hints.POSITIVE_HINT.pattern.lower()}")
    words = flat.pattern.replace("?", "").replace("-", "").split("|")
    rng = random.Random(5)
    samples = [" ".join(class_words), "mainav", "footer", "commentary", "tagslist tag-list hotnews hot-news"]
    samples += ["".join(rng.choice(words)[: rng.randint(1, 9)] for _ in range(4)) for _ in range(3000)]
    for sample in samples:
        assert [m.span() for m in class_hints._HINT_WORDS.finditer(sample)] == \
            [m.span() for m in flat.finditer(sample)], sample


def test_token_flags_without_a_hint_word_match_the_full_test():
    rng = random.Random(5)
    words = ["replies", "REPLIES", "Pinglun", "pinglun-box", "reply", "reply-to", "comments", "comment_open",
             "respond", "disqusx", "nav", "x1", "mainav", "hljs", "replıes", "ſidebar", "post-12", "wp-block",
             "ｒｅplies", "article-body", "footer", "promo", "grid", "col-md-6", "is-active", "tags-list", "readmore",
             "pager"]
    tokens = set(words)
    for _ in range(3000):  # glued pieces of the words, random case
        token = "".join(rng.choice(words)[: rng.randint(1, 9)] for _ in range(rng.randint(1, 3)))
        tokens.add("".join(c.upper() if rng.random() < 0.3 else c for c in token))
    for token in tokens:
        class_hints._token_flags.clear()
        assert class_hints._token_flag(token) == reference.token_flag_full_test(token), token


def test_value_flags_from_the_whole_value_match_the_token_by_token_flags():
    """An ASCII class/id value scanned whole gets the flags of its tokens one by one (names_flags), whether it
    holds a comment word, a hint word glued across tokens' ends, or neither."""
    rng = random.Random(9)
    words = ["replies", "REPLIES", "Pinglun", "pinglun-box", "reply", "reply-to", "reply_open", "comments",
             "comment_open", "comments-closed", "commentlist", "respond", "disqus_thread", "nav", "x1", "mainav",
             "hljs", "replıes", "ſidebar", "post-12", "wp-block", "ｒｅplies", "article-body", "footer", "promo",
             "grid", "col-md-6", "is-active", "tags-list", "readmore", "pager", "foot", "er", "com", "ment",
             "comment-7", "reply-0042", "reply_", "disqus9", "12", "0", "nav3", "comments1", "_4711"]
    values = set(words) | {"", " ", "a\tcomments\nb", "  main  content  ", "foot er", "com ment", "side bar"}
    for _ in range(5000):  # tokens of glued pieces of the words, random case, joined by runs of whitespace
        tokens = ["".join(rng.choice(words)[: rng.randint(1, 9)] for _ in range(rng.randint(1, 3)))
                  for _ in range(rng.randint(1, 4))]
        value = "".join(token + rng.choice([" ", "  ", "\t", "\n"]) for token in tokens)
        values.add("".join(c.upper() if rng.random() < 0.3 else c for c in value))
    for value in values:
        class_hints.VALUE_FLAGS.clear()
        class_hints._token_flags.clear()
        expected = class_hints.names_flags(value)
        class_hints._token_flags.clear()
        assert class_hints.value_flag(value) == expected, value
        assert class_hints.VALUE_FLAGS[value] == expected
    # a value ending in digits answered from the cached flags of the value ending in "0"
    class_hints.VALUE_FLAGS.clear()
    for value in sorted(values):
        stem = value.rstrip("0123456789")
        for digits in ("0", "5", "4711", "090"):
            class_hints._token_flags.clear()
            expected = class_hints.names_flags(stem + digits)
            assert class_hints.value_flag(stem + digits) == expected, stem + digits


def test_hints_per_token_match_the_whole_string_scan(word_samples):
    for first in word_samples:
        for second in word_samples[:12]:
            names = f"{first} {second}"
            class_hints.VALUE_FLAGS.clear()
            class_hints._token_flags.clear()
            assert class_hints.own_hint(names) == reference.hint_by_groups(names), names
            comment = any(map(class_hints.COMMENT_TOKEN.match, names.split()))
            assert class_hints.names_comment(names) == comment, names


# --- the block walk ---------------------------------------------------------------------------------------------

BLOCK_FIELDS = ("tag", "parent", "depth", "link_chars", "bold_count", "br_count", "nbsp_count", "in_chrome", "hint",
                "comment", "end", "text", "chars", "punctuation")


def _fields(blocks):
    return [(block.element, *(getattr(block, name) for name in BLOCK_FIELDS)) for block in blocks]


def test_block_walk_matches_the_stack_walk_on_random_pages(random_pages):
    for page in random_pages():
        root = parse_html(page)
        clean_tree(root)
        assert _fields(build_blocks(root)) == _fields(reference.stack_walk_blocks(root)), page


def test_blocks_carry_their_class_and_name_flags_as_the_element_reads_give(random_pages):
    """Block.class_names and Block.name_flags against what the element's attributes give: the class attribute (""
    without one) and names_flags of "class id"."""
    pages = random_pages() + ["<html class='x comment' id='main'><body id='respond'><div class=''>a</div></body>"
                              "</html>", "<div class='Kommentar \u00e9 sidebar'><p id='story'>t</p></div>"]
    for page in pages:
        root = parse_html(page)
        clean_tree(root)
        for element in [root, *root.iter()]:
            for block in build_blocks(element):
                names = block.element.get("class") or ""
                assert block.class_names == names, page
                assert block.name_flags == class_hints.names_flags(names + " " + (block.element.get("id") or "")), page


def test_block_walk_matches_on_subtrees_and_an_anchor_root():
    root = parse_html("<html><body><div class='c'>x<a href='/'>link <p>in</p> text</a>tail<br>more</div></body></html>")
    for element in root.iter():
        assert _fields(build_blocks(element)) == _fields(reference.stack_walk_blocks(element)), element.tag


def test_finish_matches_the_line_by_line_form(block_texts):
    for first in block_texts:
        for second in block_texts:
            for link_chars in (0, 3, 100):
                fast, slow = Block(None, "p", 0, 1), Block(None, "p", 0, 1)
                fast.parts, slow.parts = [first, second], [first + second]
                fast.link_chars = slow.link_chars = link_chars
                _finish(fast)
                reference.line_by_line_finish(slow)
                assert [getattr(fast, name) for name in BLOCK_FIELDS] == \
                    [getattr(slow, name) for name in BLOCK_FIELDS], (first, second)


def test_finish_stripping_lines_first_matches_squashing_first():
    rng = random.Random(11)
    pieces = [" ", "  ", "\t", "\r", "\f", "\v", "\n", "\xa0", "\u3000", "\u200b", "\ufeff", "\x1c", "\x85", "\u2002",
              "\u2028", "a", "bc", "新闻", "。", ",", "x y"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(20000)]
    for raw in texts:
        block = Block(None, "p", 0, 1)
        block.parts = [raw]
        _finish(block)
        expected = "" if not raw or raw.isspace() else reference.finish_squashing_first(raw)
        assert block.text == expected, repr(raw)
        assert block.chars == len(expected) - expected.count(" ") - expected.count("\n"), repr(raw)


def test_squash_spaces_matches_the_regex(word_samples):
    for value in word_samples:
        assert block_tree._squash_spaces(value) == block_tree._SPACES.sub(" ", value), value
