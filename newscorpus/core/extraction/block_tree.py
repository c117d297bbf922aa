"""A cleaned page cut into text blocks: every text node attached to its nearest block tag (paper 004's blocks),
inline formatting unwrapped, &nbsp; and whitespace normalised (paper 000 §2.1)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from newscorpus.core.extraction.class_hints import COMMENT, HINT_OF_FLAGS, VALUE_FLAGS, class_and_flags, value_flag

# Tags that start a new block (paper 004 uses div/table/tr/td/p; the rest are their HTML5 / list /
# heading equivalents so text in them is not glued to the previous paragraph).
BLOCK_TAGS = frozenset(
    "div table tr td th p article section main body html li ul ol dl dt dd h1 h2 h3 h4 h5 h6 "
    "blockquote pre header footer nav aside figure figcaption center address tbody thead tfoot "
    "caption details summary fieldset hr".split()
)
# HTML5 landmarks that hold site chrome rather than the article; a light prior in the default method.
CHROME_TAGS = frozenset({"nav", "footer", "aside", "header"})
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
BOLD_TAGS = frozenset({"b", "strong"})

# Chinese and English sentence punctuation (paper 000: 中英文句号、逗号、感叹号、中括号等), plus the
# sentence marks of other scripts in the dev data (Arabic/Urdu ، ؛ ؟ ۔, Devanagari । ॥, Japanese ｡ ､,
# full-width ．：) so their bodies are not "unpunctuated" (youm7.com pages scored 0.05 without them).
PUNCTUATION = frozenset("。，！？；：、“”‘’「」『』《》（）【】…—,.!?;:\"'()[]،؛؟۔।॥｡､．：")
_PUNCT_CLASS = "[" + re.escape("".join(sorted(PUNCTUATION))) + "]"
PUNCT_RE = re.compile(_PUNCT_CLASS)
_SPACES = re.compile(r"[ \t\r\f\v\u3000\u200b\ufeff]+")


def _squash_spaces(text: str) -> str:
    """`_SPACES.sub(" ", text)`, skipped where it would change nothing: no run of two spaces and none of the other
    characters (most block texts; the substring tests cost a fraction of the regex)."""
    if ("  " in text or "\t" in text or "\r" in text or "\f" in text or "\v" in text or "\u3000" in text
            or "\u200b" in text or "\ufeff" in text):
        return _SPACES.sub(" ", text)
    return text


@dataclass(slots=True)
class Block:
    """The text directly owned by one block element (text of nested blocks excluded)."""

    element: etree._Element
    tag: str
    parent: int  # index of the enclosing block, -1 for the root
    depth: int
    parts: list[str] | tuple[str, ...] = field(default_factory=list)  # () once finished (_finish)
    link_chars: int = 0
    bold_count: int = 0
    br_count: int = 0
    nbsp_count: int = 0
    in_chrome: bool = False
    hint: int = 0  # +1 / -1 from class/id names (article/content vs comment/sidebar/...), inherited
    comment: bool = False  # inside an element whose class/id names a comment section (COMMENT_TOKEN), inherited
    end: int = 0  # index one past the last descendant block (blocks are in document order)
    text: str = ""
    chars: int = 0  # non-space characters
    punctuation: int = 0
    # Its element's class attribute ("" without one) and the names_flags of its class and id, as the walk read them
    # for the hints: the later steps ask them of many blocks (signatures, makes, the model's rows, code classes), each
    # ask an lxml call otherwise (tests/core/extraction/test_fast_forms_of_page_preparation.py compares).
    class_names: str = ""
    name_flags: int = 0


def build_blocks(root: etree._Element) -> list[Block]:
    """Walk the tree once (iterative, so deep trees cannot overflow the stack) and collect blocks.

    Inline tags (span, font, b, a, em, ...) are unwrapped: their text joins the enclosing block.
    <br> becomes a line break inside the block.
    """
    root_block = Block(root, "html", -1, 0)
    root_block.class_names, root_block.name_flags = class_and_flags(root)
    blocks: list[Block] = [root_block]
    link_depth = 0
    chrome_depth = 0
    # The innermost open block: its index, element and parts. The open blocks are it and its parents (`parent`), and
    # what it inherits is its own hint and comment mark: no stacks beside the blocks.
    current = blocks[0]
    current_index = 0
    current_element = root
    parts = current.parts
    if root.text:
        parts.append(root.text)
    walk = etree.iterwalk(root, events=("start", "end"))
    next(walk)  # the root's own start (its text is read above)
    # One pass over start/end events; `current` and its `parts` change only when a block opens or closes
    # (the loop runs once per event of every element, so it holds no per-event lookups it can avoid).
    for event, element in walk:
        if event == "start":
            tag = element.tag  # lower case from lxml's HTML parser
            if tag in BLOCK_TAGS:
                if tag in CHROME_TAGS:
                    chrome_depth += 1
                block = _open_block(element, tag, current, current_index, chrome_depth > 0)
                current_index = len(blocks)
                blocks.append(block)
                current = block
                current_element = element
                parts = block.parts
            elif tag == "a":
                link_depth += 1
            elif tag == "br":
                current.br_count += 1
                parts.append("\n")
            elif tag in BOLD_TAGS:
                current.bold_count += 1
            elif not isinstance(tag, str):  # an entity or other non-element node
                continue
            text = element.text
            if text:
                parts.append(text)
                if link_depth:
                    current.link_chars += len(text.strip())
        else:
            if element is current_element:  # a block closes (iterwalk gives the same element object at its end)
                if element is root:
                    _close_root(element, current)
                    break
                current.end = len(blocks)
                _finish(current)  # its own text is complete: its parts' list is let go now (see _NO_PARTS)
                if current.tag in CHROME_TAGS:
                    chrome_depth -= 1
                current_index = current.parent
                current = blocks[current_index]
                current_element = current.element
                parts = current.parts
            else:
                tag = element.tag
                if tag == "a":
                    link_depth -= 1
                elif not isinstance(tag, str):
                    continue
            tail = element.tail
            if tail:
                parts.append(tail)
                if link_depth:
                    current.link_chars += len(tail.strip())
    _finish_open(blocks, current_index)
    return blocks


def _open_block(element: etree._Element, tag: str, parent: Block, parent_index: int, in_chrome: bool) -> Block:
    """The block of a block element inside `parent`: its class, the flags of its class and id (as names_flags
    reads "class id": the union of each value's), and the hint and comment mark it inherits, its own words
    overriding the inherited hint unless that is negative (<body>'s words name the page's layout: no hint, no
    comment section)."""
    hint, comment = parent.hint, parent.comment
    flags = 0
    names = element.get("class")
    if names:
        flags = VALUE_FLAGS.get(names)
        if flags is None:
            flags = value_flag(names)
    else:
        names = ""
    value = element.get("id")
    if value:
        flag = VALUE_FLAGS.get(value)
        flags |= value_flag(value) if flag is None else flag
    if flags and tag != "body":
        if hint >= 0:
            hint = HINT_OF_FLAGS[flags & 3] or hint
        if flags & COMMENT:
            comment = True
    # every field given in order (no keyword or default-factory handling per block)
    return Block(element, tag, parent_index, parent.depth + 1, [], 0, 0, 0, 0, in_chrome, hint, comment, 0, "", 0, 0,
                 names, flags)


def _close_root(root: etree._Element, block: Block) -> None:
    """The walk's root closes: an <a> root's tail is its link text too (a subtree walked from an <a>)."""
    if root.tag == "a" and root.tail:
        block.parts.append(root.tail)
        block.link_chars += len(root.tail.strip())


def _finish_open(blocks: list[Block], index: int) -> None:
    """The blocks still open when the walk ends (the root's, and any left open), innermost first."""
    while index >= 0:
        block = blocks[index]
        block.end = len(blocks)
        _finish(block)
        index = block.parent


# A finished block's parts: its list is let go as soon as its text is made, when the block closes in the walk. A page's
# blocks live until its extraction ends, and with each its list and its element's proxy: objects the garbage
# collector tracks and moves on to its oldest generation, whose full collections are costly; freed lists make a third
# fewer.
_NO_PARTS: tuple[str, ...] = ()


def _finish(block: Block) -> None:
    """A block's text from its parts: no-break spaces counted and made spaces, runs of spaces squashed, each line
    stripped, empty lines dropped; then its counts. Most wrappers own only whitespace (nothing to normalise), and
    most texts are one line (stripped without the split and join;
    tests/core/extraction/test_fast_forms_of_page_preparation.py checks this against the line-by-line form)."""
    parts = block.parts
    raw = "".join(parts) if len(parts) != 1 else parts[0]
    block.parts = _NO_PARTS  # the list is freed now, not with the page (see _NO_PARTS)
    if not raw:
        block.link_chars = 0
        return
    nbsp = block.nbsp_count = raw.count("\xa0")
    if raw.isspace():  # its text is empty, so are its counts
        block.link_chars = 0
        return
    text = raw.replace("\xa0", " ") if nbsp else raw
    # Lines stripped before their runs of spaces are squashed, not after: the indentation and the spaces at a text's
    # ends then never reach the regex (half of its calls). The same text: a run of _SPACES inside a line is bounded
    # by the same characters either way, and every character of _SPACES but the two zero-width ones is whitespace to
    # str.strip, so a text holding one of those two is squashed first (test_fast_forms_of_page_preparation.py
    # compares)
    if "\u200b" in text or "\ufeff" in text:
        text = _SPACES.sub(" ", text)
    if "\n" in text:
        text = _squash_spaces("\n".join(filter(None, map(str.strip, text.split("\n")))))
        chars = len(text) - text.count(" ") - text.count("\n")
    else:
        text = _squash_spaces(text.strip())
        chars = len(text) - text.count(" ")
    block.text, block.chars = text, chars
    if chars:
        block.punctuation = len(PUNCT_RE.findall(text))
        if block.link_chars > chars:
            block.link_chars = chars
    else:
        block.link_chars = 0
