"""The plain forms of the extraction's page preparation and region choice: each computes what a faster form in
newscorpus/core/extraction computes, the straightforward way the code first did it (stacks, XPaths, one regex
per test, a walk over every block). tests/core/extraction/test_fast_forms_*.py compare the two on random pages.
"""

from __future__ import annotations

import importlib
import re
from bisect import bisect_left

from lxml import etree

from newscorpus.core import text as text_module
from newscorpus.core.extraction import MAX_CONTROL_SHARE, class_hints, markup, region
from newscorpus.core.extraction.block_tree import _SPACES, BLOCK_TAGS, BOLD_TAGS, CHROME_TAGS, PUNCT_RE, Block
from newscorpus.core.extraction.cleaning import (
    BUTTON_MAX_CHARS,
    DROPPED_TAGS,
    _is_email_field,
    document_element,
    holds_content,
    more_text_than,
    remove_keeping_tail,
    signup_box,
)
from newscorpus.core.extraction.markup import PageMarkup
from newscorpus.core.extraction.parse import _XML_DECL, _parse
from newscorpus.core.extraction.region_trim import MAX_LINK_DENSITY, hint_dropped
from newscorpus.core.extraction.repair import close_title, repair, swallowing_title

# the package exports a function named line_kinds; the module is wanted here
line_kinds = importlib.import_module("newscorpus.core.extraction.line_kinds")

# --- the parse -------------------------------------------------------------------------------------------------


def parse_html_from_text(text: str) -> etree._Element | None:
    """parse_html handing the decoded text itself to lxml (which passes libxml2 Latin-1, UTF-16 or UCS-4)."""
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


# --- the markup walk and the cleaning --------------------------------------------------------------------------

# The XPaths cleaning.email_fields and cleaning.holds_content stand in for.
EMAIL_FIELDS = etree.XPath("descendant-or-self::input[translate(@type, 'EMAIL', 'email') = 'email']")
HOLDS_CONTENT = etree.XPath("boolean(.//p | .//main | .//article | .//section | .//h1 | .//h2 | .//h3)")
# ... and those of the separate walk that read the article mark before read_markup did.
OG_TYPES = etree.XPath("descendant-or-self::meta[@property='og:type' or @name='og:type']/@content")
LD_SCRIPTS = etree.XPath("descendant-or-self::script[@type='application/ld+json']/text()")


def article_marked(root: etree._Element) -> bool:
    """Whether og:type or a JSON-LD script says "article", read by a walk of its own."""
    document = document_element(root)
    if any(str(value).strip().lower() == "article" for value in OG_TYPES(document)):
        return True
    return any(markup.ARTICLE_LD.search(str(text)) for text in LD_SCRIPTS(document))


def clean_tree_testing_every_control(root: etree._Element, page_markup: PageMarkup) -> None:
    """clean_tree with every button and NESTING_DROPS element walked for its content (no test of its children or
    its text's length first)."""
    fields = [field for field in page_markup.inputs if _is_email_field(field)]
    field_parents = [field.getparent() for field in fields]
    for button in [b for b in page_markup.buttons if holds_content(b) or more_text_than(b, BUTTON_MAX_CHARS)]:
        button.tag = "div"
    for element in [e for e in page_markup.nesting if holds_content(e)]:
        element.tag = "div"
    etree.strip_elements(root, *DROPPED_TAGS, with_tail=False)
    boxes = [signup_box(parent) for parent in field_parents if parent is not None]
    for element in page_markup.dialogs + [box for box in boxes if box is not None]:
        if element.getparent() is not None:
            remove_keeping_tail(element)


# --- the class and id words ------------------------------------------------------------------------------------


def token_flag_full_test(token: str) -> int:
    """class_hints._token_flag's computation with the comment pattern and every hint word, for every token."""
    flags = class_hints.COMMENT if class_hints.COMMENT_TOKEN.match(token) else 0
    for match in class_hints._HINT_WORDS.finditer(token.lower()):
        flags |= class_hints.NEGATIVE if class_hints._NEGATIVE_WORD.fullmatch(match.group()) else class_hints.POSITIVE
    return flags


def hint_by_groups(names: str) -> int:
    """A class/id string's hint from one scan of the whole string with a named group per word list."""
    words = re.compile(f"(?P<negative>{class_hints.NEGATIVE_HINT.pattern.lower()})|"
                       f"(?P<positive>{class_hints.POSITIVE_HINT.pattern.lower()})")
    kinds = {match.lastgroup for match in words.finditer(names.lower())}
    return 0 if len(kinds) == 2 else -1 if "negative" in kinds else 1 if kinds else 0


def looks_binary_counted(data: bytes) -> bool:
    """looks_binary counting the control bytes one by one."""
    head = data[:1024]
    if not head:
        return False
    controls = sum(1 for byte in head if byte < 32 and byte not in (9, 10, 12, 13, 27))
    return controls / len(head) > MAX_CONTROL_SHARE


# --- the block walk --------------------------------------------------------------------------------------------


def stack_walk_blocks(root: etree._Element) -> list[Block]:
    """build_blocks with stacks of the open blocks' indexes, hints and comment marks, every block's text finished
    at the end, line by line."""
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
        line_by_line_finish(block)
    return blocks


def line_by_line_finish(block: Block) -> None:
    """A block's text from its parts: no-break spaces made spaces, runs of spaces squashed, then every line stripped
    and the empty ones dropped; then its counts."""
    raw = "".join(block.parts)
    block.parts = []
    if raw.isspace() or not raw:
        block.nbsp_count = raw.count("\xa0")
        if not block.nbsp_count:
            block.link_chars = 0
            return
    block.nbsp_count = raw.count("\xa0")
    lines = [line.strip() for line in _SPACES.sub(" ", raw.replace("\xa0", " ")).split("\n")]
    block.text = "\n".join(line for line in lines if line)
    block.chars = len(block.text) - block.text.count(" ") - block.text.count("\n")
    block.punctuation = len(PUNCT_RE.findall(block.text)) if block.chars else 0
    block.link_chars = min(block.link_chars, block.chars)


def finish_squashing_first(raw: str) -> str:
    """_finish's text with the runs of spaces squashed before each line is stripped."""
    text = _SPACES.sub(" ", raw.replace("\xa0", " "))
    return "\n".join(filter(None, map(str.strip, text.split("\n"))))


# --- the region ------------------------------------------------------------------------------------------------


def candidate_scores_walk(blocks: list[Block], values: list[float]) -> list[float]:
    """candidate_scores walking every block, the subtree characters summed as floats on the way up."""
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


def subtree_totals_walk(blocks: list[Block], values: list[float], top_hint: int) -> tuple[list[float], list[float]]:
    """_subtree_totals summed for every block on the way up: the prose the trim would keep, and all characters."""
    n = len(blocks)
    prose = [0.0] * n
    total = [0.0] * n
    for index in range(n - 1, -1, -1):
        block = blocks[index]
        total[index] += block.chars
        if values[index] and block.link_chars <= MAX_LINK_DENSITY * block.chars and \
                not hint_dropped(blocks, index, top_hint):
            prose[index] += values[index]
        parent = block.parent
        if parent >= 0:
            total[parent] += total[index]
            prose[parent] += prose[index]
    return prose, total


def region_values_list(blocks: list[Block], max_ratio: float, window: list[bool] | None,
                       comments: list[bool]) -> list[float]:
    """The region's values as one list over every block, then the list without site chrome."""
    values = [0.0 if comments[i] or (window is not None and not window[i]) else region.prose_value(b, max_ratio)
              for i, b in enumerate(blocks)]
    outside_chrome = [0.0 if value and region.in_site_chrome(blocks, i) else value for i, value in enumerate(values)]
    return outside_chrome if any(outside_chrome) else values


# --- the body's lines ------------------------------------------------------------------------------------------


def line_kinds_of_every_line(body: str, blocks: list[Block]) -> str:
    """line_kinds with the holders of every line of the page, not only the body's."""
    holders: dict[str, list[int]] = {}
    for index, block in enumerate(blocks):
        if block.text:
            for line in block.text.split("\n"):
                holders.setdefault(line, []).append(index)
    kinds, position, cache, coded = [], 0, {}, {}
    for line in body.split("\n"):
        found = holders.get(line)
        if not found:
            kinds.append(line_kinds.PROSE)
            continue
        at = bisect_left(found, position)
        index = found[at] if at < len(found) else found[0]
        position = max(position, index)
        if index not in cache:
            cache[index] = line_kinds._block_kind(blocks, index, coded)
        kinds.append(cache[index])
    return "".join(kinds)


# --- the page's language ---------------------------------------------------------------------------------------


def detect_language_two_searches(text: str, english: bool = True) -> str | None:
    """detect_language counting every script's letters over the whole sample."""
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
