"""The CPU fast paths of issue 16 answer as the regexes they stand in for."""

import importlib
import re

from newscorpus.core.extraction import block_tree, class_hints, markup

# the package exports a function named line_kinds; the module is wanted here
line_kinds = importlib.import_module("newscorpus.core.extraction.line_kinds")

SAMPLES = [
    "", " ", "post-author", "AUTHOR-box", "/authors/jane-roe/", "/autor/x", "Writer", "mainav", "main nav",
    "comment-list comments-open", "sidebar article", "entry-content", "hljs language-py", "Code", "enlighter-x",
    "syntaxhighlighter", "highlights", "\u212aode", "hlj\u017f", "J\u00f6URNALIST", "col-md-4 row", "reply_to",
    "hot-news tags-list", "about-the-author", "read-more", "published-date", "entry-time", "time", "Time",
    "a  b", "a\tb", "a\u3000 b", "a\u200bb", "\ufeffx", "x\xa0y", "one two", "pubtime",
]


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
    # Issue 16 round 11: each start is one of the two without a hint word, or the first word findall finds in it is
    # one of _COMMENT_START_WORDS, from its first letter on, whatever follows it
    for alternative in ("comment", "commentlist", "replies", "respond", "pinglun", "disqus", "comment-", "reply-"):
        if alternative.startswith(class_hints._COMMENT_ONLY_STARTS):
            continue
        for tail in ("", "s", "list", "-open", "_x", "er", "ment", "-nav"):
            match = class_hints._HINT_WORDS.search(alternative + tail)
            assert match.start() == 0 and match.group() in class_hints._COMMENT_START_WORDS, alternative + tail


def test_the_region_choice_tells_no_language_but_zh():
    """choose_region reads the page's language without the English check (None for "en"): no table it reads holds
    "en"."""
    from newscorpus.core.extraction import block_classifier, region

    assert set(region.LANGUAGE_CONSTANTS) <= {"zh"} and set(block_classifier.RULES_ONLY_LANGUAGES) <= {"zh"}


def test_href_hint_matches_the_case_insensitive_regex():
    words = [*markup._HREF_WORDS, "AUTHOR", "Autor", "aut", "/columnists/x", "/contributors/y", "reporter?id=1"]
    samples = [*SAMPLES, *words, *(f"https://x.org/{a}/{b}" for a in words for b in words)]
    for value in samples:
        assert markup._href_hint(value) == bool(markup._HREF_HINT.search(value)), value


def test_href_prefilter_words_cover_every_href_word():
    """_href_hint's substring tests: "aut" or one of the other words, in every word of _HREF_WORDS."""
    assert markup._HREF_HINT_LOWER.pattern == "|".join(markup._HREF_WORDS)
    tested = ("aut", "writer", "contributor", "columnist", "reporter", "journalist")
    assert all(any(word in href_word for word in tested) for href_word in markup._HREF_WORDS)


def test_code_class_matches_the_regex():
    for value in SAMPLES:
        assert line_kinds._code_class(value) == bool(line_kinds._CODE_CLASS.search(value)), value


def test_token_marks_match_the_regexes():
    for value in SAMPLES:
        lowered = value.lower()
        expected = (markup._AUTHOR if markup.AUTHOR_NAMES.search(lowered) else 0) | (
            markup._DATE if markup.DATE_NAMES.search(lowered) else 0)
        markup._token_marks.clear()
        assert markup._token_mark(value) == expected, value


def _hint_by_groups(names: str) -> int:
    """The whole-string scan with two named groups that the per-token flags replace."""
    words = re.compile(f"(?P<negative>{class_hints.NEGATIVE_HINT.pattern.lower()})|"
                       f"(?P<positive>{class_hints.POSITIVE_HINT.pattern.lower()})")
    kinds = {match.lastgroup for match in words.finditer(names.lower())}
    return 0 if len(kinds) == 2 else -1 if "negative" in kinds else 1 if kinds else 0


def test_hints_per_token_match_the_whole_string_scan():
    for first in SAMPLES:
        for second in SAMPLES[:12]:
            names = f"{first} {second}"
            class_hints.VALUE_FLAGS.clear()
            class_hints._token_flags.clear()
            assert class_hints.own_hint(names) == _hint_by_groups(names), names
            comment = any(map(class_hints.COMMENT_TOKEN.match, names.split()))
            assert class_hints.names_comment(names) == comment, names


def test_squash_spaces_matches_the_regex():
    for value in SAMPLES:
        assert block_tree._squash_spaces(value) == block_tree._SPACES.sub(" ", value), value


def test_byline_hint_matches_the_case_insensitive_regex():
    """Issue 16, round 9: an ASCII line's byline hint from the plain lower-case pattern."""
    import random

    from newscorpus.core.extraction import bylines

    rng = random.Random(9)
    pieces = ["By ", "BY", "bY", "baby", "Author", "AUTHORS", "writer", "Reporter", "(", "[", "{", " Jane Roe ", "2024",
              "作者", "记者", "（", "【", "是", "\u212a", "\u017f", "İ", "ı", "b", "y", "rep", "orter", "\n", ":"]
    lines = SAMPLES + ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(5000)]
    for line in lines:
        assert bylines._byline_hint(line) == bool(bylines._BYLINE_HINT.search(line)), line


def test_looks_binary_counts_control_bytes_as_the_generator_did():
    """looks_binary's control bytes by bytes.translate against the per-byte count it replaces (issue 16 round 10)."""
    import random

    from newscorpus.core.extraction import MAX_CONTROL_SHARE, looks_binary

    def counted(data: bytes) -> bool:
        head = data[:1024]
        if not head:
            return False
        controls = sum(1 for byte in head if byte < 32 and byte not in (9, 10, 12, 13, 27))
        return controls / len(head) > MAX_CONTROL_SHARE

    rng = random.Random(10)
    samples = [b"", b"<html>", bytes(range(256)), b"\x00" * 5000, b"\t\n\x0c\r\x1b" * 300]
    for _ in range(2000):
        size = rng.choice((1, 7, 100, 1024, 1025, 3000))
        share = rng.random() * 0.3
        samples.append(bytes(rng.randrange(32) if rng.random() < share else rng.randrange(32, 256)
                             for _ in range(size)))
    for data in samples:
        assert looks_binary(data) == counted(data), data[:40]
