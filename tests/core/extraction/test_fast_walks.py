"""Issue 16, round 5: the block walk, the block text finish, the markup walk's dialogs and article mark, and the
grouped hint regex answer as the code they replaced, on random pages (fixed seed) and hand-made edge cases."""

import importlib
import random
import re

from lxml import etree

from newscorpus.core.extraction import block_tree, class_hints, cleaning, markup
from newscorpus.core.extraction.block_tree import (
    BLOCK_TAGS,
    BOLD_TAGS,
    CHROME_TAGS,
    PUNCT_RE,
    Block,
    _squash_spaces,
    build_blocks,
)
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.parse import parse_html

line_kinds = importlib.import_module("newscorpus.core.extraction.line_kinds")
# The XPaths cleaning.email_fields and cleaning.holds_content replaced
EMAIL_FIELDS = etree.XPath("descendant-or-self::input[translate(@type, 'EMAIL', 'email') = 'email']")
HOLDS_CONTENT = etree.XPath("boolean(.//p | .//main | .//article | .//section | .//h1 | .//h2 | .//h3)")
# ... and the separate walk that read the article mark before read_markup did (page_kind.article_marked)
OG_TYPES = etree.XPath("descendant-or-self::meta[@property='og:type' or @name='og:type']/@content")
LD_SCRIPTS = etree.XPath("descendant-or-self::script[@type='application/ld+json']/text()")


def article_marked(root) -> bool:
    document = cleaning.document_element(root)
    if any(str(value).strip().lower() == "article" for value in OG_TYPES(document)):
        return True
    return any(markup.ARTICLE_LD.search(str(text)) for text in LD_SCRIPTS(document))


BLOCK_FIELDS = ("tag", "parent", "depth", "link_chars", "bold_count", "br_count", "nbsp_count", "in_chrome", "hint",
                "comment", "end", "text", "chars", "punctuation")


def _stack_walk_blocks(root):
    """build_blocks as it was before round 5 (stacks of indexes, hints and comment marks; lines split and joined)."""
    blocks = [Block(root, "html", -1, 0)]
    stack, hints, comments = [0], [0], [False]
    link_depth = chrome_depth = 0
    current = blocks[0]
    parts = current.parts
    if root.text:
        parts.append(root.text)
    walk = etree.iterwalk(root, events=("start", "end"))
    next(walk)
    for event, element in walk:
        tag = element.tag
        if event == "start":
            if tag in BLOCK_TAGS:
                if tag in CHROME_TAGS:
                    chrome_depth += 1
                block = Block(element, tag, stack[-1], len(stack), in_chrome=chrome_depth > 0)
                if tag == "body":
                    block.hint, block.comment = hints[-1], comments[-1]
                else:
                    names = (element.get("class") or "") + " " + (element.get("id") or "")
                    inherited = hints[-1]
                    if names == " ":
                        block.hint, block.comment = inherited, comments[-1]
                    else:
                        marks = (class_hints.own_hint(names), class_hints.names_comment(names))
                        block.hint = inherited if inherited < 0 else marks[0] or inherited
                        block.comment = comments[-1] or marks[1]
                blocks.append(block)
                stack.append(len(blocks) - 1)
                hints.append(block.hint)
                comments.append(block.comment)
                current, parts = block, block.parts
            elif tag == "a":
                link_depth += 1
            elif tag == "br":
                current.br_count += 1
                parts.append("\n")
            elif tag in BOLD_TAGS:
                current.bold_count += 1
            elif not isinstance(tag, str):
                continue
            if element.text:
                parts.append(element.text)
                if link_depth:
                    current.link_chars += len(element.text.strip())
        else:
            if tag in BLOCK_TAGS:
                if element is root:
                    break
                index = stack.pop()
                hints.pop()
                comments.pop()
                blocks[index].end = len(blocks)
                if tag in CHROME_TAGS:
                    chrome_depth -= 1
                current = blocks[stack[-1]]
                parts = current.parts
            elif tag == "a":
                link_depth -= 1
            elif not isinstance(tag, str) or element is root:
                continue
            if element.tail:
                parts.append(element.tail)
                if link_depth:
                    current.link_chars += len(element.tail.strip())
    while stack:
        blocks[stack.pop()].end = len(blocks)
    for block in blocks:
        _line_by_line_finish(block)
    return blocks


def _line_by_line_finish(block):
    raw = "".join(block.parts)
    block.parts = []
    if raw.isspace() or not raw:
        block.nbsp_count = raw.count("\xa0")
        if not block.nbsp_count:
            block.link_chars = 0
            return
    block.nbsp_count = raw.count("\xa0")
    lines = [line.strip() for line in _squash_spaces(raw.replace("\xa0", " ")).split("\n")]
    block.text = "\n".join(line for line in lines if line)
    block.chars = len(block.text) - block.text.count(" ") - block.text.count("\n")
    block.punctuation = len(PUNCT_RE.findall(block.text)) if block.chars else 0
    block.link_chars = min(block.link_chars, block.chars)


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


def _fields(blocks):
    return [(block.element, *(getattr(block, name) for name in BLOCK_FIELDS)) for block in blocks]


def test_block_walk_matches_the_stack_walk_on_random_pages():
    for page in _pages():
        root = parse_html(page)
        clean_tree(root)
        assert _fields(build_blocks(root)) == _fields(_stack_walk_blocks(root)), page


def test_blocks_carry_their_class_and_name_flags_as_the_element_reads_give():
    """Block.class_names and Block.name_flags (issue 16 round 10) against what the later steps read before: the class
    attribute ("" without one) and _names_flags of "class id"."""
    pages = _pages() + ["<html class='x comment' id='main'><body id='respond'><div class=''>a</div></body></html>",
                        "<div class='Kommentar \u00e9 sidebar'><p id='story'>t</p></div>"]
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
        assert _fields(build_blocks(element)) == _fields(_stack_walk_blocks(element)), element.tag


def test_finish_matches_the_line_by_line_form():
    for first in TEXTS:
        for second in TEXTS:
            for link_chars in (0, 3, 100):
                fast, slow = Block(None, "p", 0, 1), Block(None, "p", 0, 1)
                fast.parts, slow.parts = [first, second], [first + second]
                fast.link_chars = slow.link_chars = link_chars
                block_tree._finish(fast)
                _line_by_line_finish(slow)
                assert [getattr(fast, name) for name in BLOCK_FIELDS] == \
                    [getattr(slow, name) for name in BLOCK_FIELDS], (first, second)


def test_markup_walk_finds_the_dialogs_and_article_mark_of_the_separate_walks():
    for page in _pages():
        root = parse_html(page)
        read = markup.read_markup(root)
        assert read.dialogs == cleaning.dialogs(root), page
        assert read.article_marked == article_marked(root), page
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


def test_grouped_hint_words_match_the_flat_alternation():
    flat = re.compile(f"{class_hints.NEGATIVE_HINT.pattern.lower()}|{class_hints.POSITIVE_HINT.pattern.lower()}")
    words = flat.pattern.replace("?", "").replace("-", "").split("|")
    rng = random.Random(5)
    samples = [" ".join(NAMES), "mainav", "footer", "commentary", "tagslist tag-list hotnews hot-news"]
    samples += ["".join(rng.choice(words)[: rng.randint(1, 9)] for _ in range(4)) for _ in range(3000)]
    for sample in samples:
        assert [m.span() for m in class_hints._HINT_WORDS.finditer(sample)] == \
            [m.span() for m in flat.finditer(sample)], sample


def test_class_marks_match_the_per_token_marks():
    for first in NAMES + ["J\u00f6URNALIST", "Post-Time", "\u212aode", "time", "x time"]:
        for second in NAMES:
            names = f"{first} {second}"
            markup._token_marks.clear()
            expected = 0
            for token in names.split():
                expected |= markup._token_mark(token)
            markup._token_marks.clear()
            assert markup._class_mark(names) == expected, names


def test_code_marks_cached_per_body_match_the_uncached_kinds():
    for page in _pages(100):
        root = parse_html(page)
        clean_tree(root)
        blocks = build_blocks(root)
        coded: dict[int, bool] = {}
        for index in range(len(blocks)):
            assert line_kinds._block_kind(blocks, index, coded) == line_kinds._block_kind(blocks, index), page


def test_stopword_spellings_count_as_lower_casing_each_word():
    from newscorpus.core import text

    assert not [chr(c) for c in range(0xC0, 0x250) if chr(c).lower() != chr(c) and chr(c).lower().isascii()]
    rng = random.Random(7)
    words = sorted(text._ENGLISH_STOPWORDS) + ["İs", "ſaid", "Thé", "THE", "tHe", "theory", "À", "x"]
    for _ in range(2000):
        sample = " ".join("".join(c.upper() if rng.random() < 0.3 else c for c in rng.choice(words))
                          for _ in range(rng.randint(0, 12)))
        found = text._LATIN_WORD.findall(sample)
        expected = sum(word.lower() in text._ENGLISH_STOPWORDS for word in found)
        assert sum(map(text._STOPWORD_SPELLINGS.__contains__, found)) == expected, sample


def test_shared_subtree_totals_give_what_each_step_computes_alone():
    from newscorpus.core.extraction import region

    for page in _pages(100):
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


def test_content_and_email_walks_answer_as_their_xpaths():
    pages = _pages(150) + ["<html><body><button><div><p>x</p></div></button><select><option>a<h2>b</h2></option>"
                           "</select><input type='eMaiL'><input type='EMAIL'><input type='e-mail'><input>"
                           "</body></html>"]
    for page in pages:
        root = parse_html(page)
        assert cleaning.email_fields(root) == EMAIL_FIELDS(cleaning.document_element(root)), page
        for element in root.iter():
            assert cleaning.holds_content(element) == HOLDS_CONTENT(element), page
