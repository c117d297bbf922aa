"""What markup each line of an extracted body came from, for the stages after extraction (line noise keeps code
and headings): one character per body line (``body.split("\\n")``), in order.

``c`` code (a <pre>/<code> block, or a block inside a code highlighter), ``h`` heading (<h1>-<h6>), ``l`` a line of
links (most of its block's text is anchor text), ``p`` anything else (a line not found among the page's blocks
too).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from newscorpus.core.extraction.block_tree import HEADING_TAGS, Block
from newscorpus.core.text import language_of_texts

CODE = "c"
HEADING = "h"
LINKS = "l"
PROSE = "p"
KINDS = (CODE, HEADING, LINKS, PROSE)
CODE_TAGS = frozenset({"pre", "code"})
# Code highlighters that lay code out in divs or tables (SyntaxHighlighter, highlight.js, Prettify, Enlighter).
_CODE_CLASS = re.compile(r"(?:^|\s)(?:syntaxhighlighter|highlight|hljs|prettyprint|enlighter\w*|code)(?:\s|$)",
                         re.IGNORECASE)
# A word every alternative of _CODE_CLASS holds (tests/core/extraction/test_fast_forms_of_page_preparation.py checks
# it).
_CODE_WORDS = ("code", "highlight", "hljs", "prettyprint", "enlighter")
# A line whose block is at least this share anchor text is a line of links (the share where the default
# method's link-density rules start to distrust a block: LISTING_LINK_SHARE of newscorpus.core.extraction).
LINK_LINE_SHARE = 0.5
# A paragraph that is (nearly) all inline <code> is a code line (`<p><code>return 0;</code></p>`); a sentence that
# names a function in <code> is prose. 0.8: a line of code with a label ("Output:") still counts.
INLINE_CODE_SHARE = 0.8


def _inline_code_chars(block: Block) -> int:
    """Non-space characters of the block's own inline <code>/<kbd>/<tt> children."""
    chars = 0
    element = block.element
    if not len(element):  # no child element (many body blocks): no iterator made
        return 0
    for child in element.iterchildren():
        if isinstance(child.tag, str) and child.tag in ("code", "kbd", "tt", "samp"):
            chars += sum(len(part) for text in child.itertext() for part in text.split())
    return chars


def _code_class(names: str | None) -> bool:
    """Whether _CODE_CLASS matches; an ASCII class string holding none of its words in lower case cannot match, and
    is answered without the case-insensitive regex (each body line's block asks it of up to 8 enclosing blocks)."""
    if not names:
        return False
    if names.isascii():
        lowered = names.lower()
        if not any(word in lowered for word in _CODE_WORDS):
            return False
    return _CODE_CLASS.search(names) is not None


def prose_language(lines: list[str], kinds: str) -> str | None:
    """The language of a body's prose: of its lines that are not code (a Chinese post quoting English code is
    Chinese), or of all of them when those tell none (a press release laid out in one <pre>)."""
    if CODE not in kinds:  # most bodies: no line to leave out
        return language_of_texts(lines)
    prose = [line for line, kind in zip(lines, kinds, strict=False) if kind != CODE]
    return language_of_texts(prose) or language_of_texts(lines)


def _block_kind(blocks: list[Block], index: int, coded: dict[int, bool] | None = None) -> str:
    """The kind of the block's lines. `coded` caches, per block index, whether the block itself is code (tag or
    class): the lines of one body share their enclosing blocks, which would be asked up to 8 times each."""
    block = blocks[index]
    if block.tag in HEADING_TAGS:
        return HEADING
    if coded is None:
        coded = {}
    node, steps = index, 0
    while node >= 0 and steps < 8:  # the block or a near enclosing block is code
        code = coded.get(node)
        if code is None:
            code = coded[node] = blocks[node].tag in CODE_TAGS or _code_class(blocks[node].class_names)
        if code:
            return CODE
        node, steps = blocks[node].parent, steps + 1
    if block.chars and _inline_code_chars(block) >= INLINE_CODE_SHARE * block.chars:
        return CODE
    if block.chars and block.link_chars >= LINK_LINE_SHARE * block.chars:
        return LINKS
    return PROSE


def line_kinds(body: str, blocks: list[Block]) -> str:
    """The kind of each line of ``body`` (lines matched to the page's blocks in document order; a line found
    only earlier, or nowhere, takes the first block holding it, or ``p``)."""
    lines = body.split("\n")
    wanted = set(lines)  # only the body's lines are looked up, not every line of the page
    holders: dict[str, list[int]] = {}
    for index, block in enumerate(blocks):
        text = block.text
        if not text:
            continue
        if "\n" not in text:  # one line (most blocks): no split
            if text in wanted:
                holders.setdefault(text, []).append(index)
            continue
        for line in text.split("\n"):
            if line in wanted:
                holders.setdefault(line, []).append(index)
    kinds: list[str] = []
    position = 0
    cache: dict[int, str] = {}
    coded: dict[int, bool] = {}
    for line in lines:
        found = holders.get(line)
        if not found:
            kinds.append(PROSE)
            continue
        at = bisect_left(found, position)
        index = found[at] if at < len(found) else found[0]
        position = max(position, index)
        if index not in cache:
            cache[index] = _block_kind(blocks, index, coded)
        kinds.append(cache[index])
    return "".join(kinds)
