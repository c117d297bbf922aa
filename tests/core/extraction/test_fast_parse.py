"""Issue 16, round 7: the parse of a page's own UTF-8 bytes gives the tree the parse of its decoded text gave, a
one-line block's kept lines come from its own counts as keep_line gives them, line_kinds reads only the body's lines
as it read every page line, the title keys' and splits' caches answer as the uncached functions, and a new class token
without a hint word gets the flags of the full test; on random pages (fixed seed) and hand-made edge cases."""

import importlib
import random
from bisect import bisect_left

from lxml import etree

from newscorpus.core.decoding import decode_html
from newscorpus.core.extraction import class_hints, extract
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.parse import _XML_DECL, _parse, parse_html
from newscorpus.core.extraction.region_trim import MIN_UNPUNCTUATED_CHARS, keep_line, kept_lines
from newscorpus.core.extraction.repair import close_title, repair, swallowing_title
from newscorpus.core.extraction.titles import KEY_CACHE_SIZE, SEPARATOR, _split, key
from tests.core.extraction.test_fast_walks import _pages

line_kinds_module = importlib.import_module("newscorpus.core.extraction.line_kinds")

# Characters of every UTF-8 length and of each of lxml's three ways to hand a text to libxml2 (ASCII, Latin-1,
# UTF-16, UCS-4), with entities and characters libxml2 treats specially (controls, a lone U+FFFE).
PIECES = ["plain", "café", "naïve ’quotes’ — dash", "新闻，内容。", "emoji 😀 here", "&nbsp;&amp;&#233;&#x1F600;",
          "\x01\x08 ctl", "\ufffe\uffff", "\r\n", "\t", "a\u3000b", "<br>", "<b>bold</b>", "&bogus;", "<", "&"]


def _tree(root) -> bytes:
    return etree.tostring(root.getroottree(), encoding="utf-8", method="xml")


def _parse_html_before(text):
    """parse_html before round 7: lxml handed the text itself to libxml2."""
    text = _XML_DECL.sub("", text, count=1).replace("\x00", "")
    if not text or text.isspace():
        return None
    root = _parse(text)
    if root is not None and swallowing_title(root):
        closed = close_title(text)
        reparsed = _parse(closed) if closed is not None else None
        root = reparsed if reparsed is not None else root
    if root is not None:
        repair(root)
    return root


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


def test_parse_of_utf8_bytes_gives_the_tree_of_the_text():
    kinds = set()
    for page in _utf8_pages():
        data = page.encode("utf-8")
        decoded = decode_html(data)
        assert decoded.strict and decoded.encoding == "utf-8"
        before = _tree(_parse_html_before(decoded.text))
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
    assert _tree(root) == _tree(_parse_html_before(decoded.text))
    assert root.findtext(".//p") == "Naïve — 新闻，内容。😀"
    gbk = decode_html(page.replace("😀", "").encode("gb18030"), "text/html; charset=gbk")  # encoded by parse_html
    assert gbk.encoding == "gb18030"
    assert _tree(parse_html(gbk.text)) == _tree(_parse_html_before(gbk.text))


def test_texts_the_bytes_cannot_stand_for_are_parsed_as_before():
    # a NUL (removed from the text), an XML declaration (cut from the text), replaced bytes (not a strict decoding),
    # a lone surrogate (no UTF-8 encoding), an unclosed title (reparsed from the text)
    for data in (b"<html><body><p>a\x00b \xc3\xa9</p></body></html>",
                 b'<?xml version="1.0" encoding="iso-8859-1"?><html><body><p>caf\xc3\xa9</p></body></html>',
                 b"<html><body><p>" + "café ".encode() * 300 + b"\xff broken</p></body></html>",
                 b"<html><head><title>caf\xc3\xa9 " + b"x" * 1200 + b"<p>body</p></body></html>"):
        decoded = decode_html(data)
        utf8 = data if decoded.strict and decoded.encoding == "utf-8" else None
        assert _tree(parse_html(decoded.text, utf8)) == _tree(_parse_html_before(decoded.text))
    surrogate = "<html><body><p>caf\u00e9 \ud800 lone</p></body></html>"
    assert _tree(parse_html(surrogate)) == _tree(_parse_html_before(surrogate))
    assert extract(b"<html><body><p>A NUL\x00 inside, caf\xc3\xa9, and a sentence long enough to be a body here."
                   b"</p></body></html>").body == "A NUL inside, café, and a sentence long enough to be a body here."
    replaced = decode_html(b"<p>" + "café ".encode() * 300 + b"\xff</p>")  # UTF-8 with one byte replaced
    assert replaced.encoding == "utf-8" and "\ufffd" in replaced.text and not replaced.strict
    assert not decode_html(b"\xef\xbb\xbf<p>caf\xc3\xa9</p>").strict  # the BOM is cut from the text


def test_kept_lines_match_keep_line_on_every_block():
    titles = ["Hello, world.", "新闻，内容。", "x" * MIN_UNPUNCTUATED_CHARS, "x" * (MIN_UNPUNCTUATED_CHARS - 1),
              "!!!!", "a, b, c, d, e", "Headline without marks"]
    rng = random.Random(3)
    pages = _utf8_pages(200) + [f"<html><body><h2>{t}</h2><p>{t}</p><div>{t}<br>{rng.choice(titles)}</div>"
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


def _line_kinds_before(body, blocks):
    """line_kinds before round 7: every page line's holders."""
    holders = {}
    for index, block in enumerate(blocks):
        if block.text:
            for line in block.text.split("\n"):
                holders.setdefault(line, []).append(index)
    kinds, position, cache, coded = [], 0, {}, {}
    for line in body.split("\n"):
        found = holders.get(line)
        if not found:
            kinds.append(line_kinds_module.PROSE)
            continue
        at = bisect_left(found, position)
        index = found[at] if at < len(found) else found[0]
        position = max(position, index)
        if index not in cache:
            cache[index] = line_kinds_module._block_kind(blocks, index, coded)
        kinds.append(cache[index])
    return "".join(kinds)


def test_line_kinds_from_the_body_lines_alone_match_every_line_holders():
    rng = random.Random(11)
    checked = 0
    for page in _utf8_pages(150):
        root = parse_html(page)
        clean_tree(root)
        blocks = build_blocks(root)
        lines = [line for block in blocks if block.text for line in block.text.split("\n")] or [""]
        for _ in range(5):  # bodies of page lines in and out of order, repeated, and lines of no block
            body = "\n".join(rng.choice([*lines, "not on the page", ""]) for _ in range(rng.randint(1, 12)))
            assert line_kinds_module.line_kinds(body, blocks) == _line_kinds_before(body, blocks), body
            checked += 1
    assert checked == 750


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


def _token_flag_before(token):
    """class_hints._token_flag as it was first written: the comment pattern and every hint word, for every token."""
    flags = class_hints.COMMENT if class_hints.COMMENT_TOKEN.match(token) else 0
    for match in class_hints._HINT_WORDS.finditer(token.lower()):
        flags |= class_hints.NEGATIVE if class_hints._NEGATIVE_WORD.fullmatch(match.group()) else class_hints.POSITIVE
    return flags


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
        assert class_hints._token_flag(token) == _token_flag_before(token), token


def test_value_flags_from_the_whole_value_match_the_token_by_token_flags():
    """Issue 16, round 9: an ASCII class/id value scanned whole gets the flags of its tokens one by one
    (_names_flags), whether it holds a comment word, a hint word glued across tokens' ends, or neither."""
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
    # issue 16 round 11: a value ending in digits answered from the cached flags of the value ending in "0"
    class_hints.VALUE_FLAGS.clear()
    for value in sorted(values):
        stem = value.rstrip("0123456789")
        for digits in ("0", "5", "4711", "090"):
            class_hints._token_flags.clear()
            expected = class_hints.names_flags(stem + digits)
            assert class_hints.value_flag(stem + digits) == expected, stem + digits
