"""Parse decoded HTML with lxml into a DOM tree, recovering broken markup (paper 000 §2.1: fix broken markup into
a DOM tree; comments and processing instructions are dropped by the parser)."""

from __future__ import annotations

import re

from lxml import etree

from newscorpus.core.extraction.repair import close_title, repair, swallowing_title

_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
# Flattening a page nested past libxml2's depth cap (256 without huge_tree), which drops what lies deeper: runs of
# 8+ opening (or closing) tags of one container with nothing between them become one tag, then, if the page is still
# too deep, every container tag goes. Text and block tags (p, h1, li, ...) stay.
_CONTAINERS = "div|span|section|font|center|b|i|u|em|strong|small|big"
_TAG_RUNS = re.compile(rf"(?:<({_CONTAINERS})\b[^>]*>\s*){{8,}}|(?:</({_CONTAINERS})\s*>\s*){{8,}}", re.IGNORECASE)
_CONTAINER_TAGS = re.compile(rf"</?(?:{_CONTAINERS})\b[^>]*>", re.IGNORECASE)

_PARSER = etree.HTMLParser(
    recover=True,
    collect_ids=False,  # no id table: nothing looks elements up by id (the same tree, ~4% less parse CPU)
    remove_comments=True,
    remove_pis=True,
    no_network=True,
    # huge_tree stays off: libxml2 then caps nesting at 256 levels and text nodes at 10 MB, so a
    # pathological page (100k nested tags) parses in milliseconds instead of blowing the time cap.
    huge_tree=False,
)

# The same parser for a page's own UTF-8 bytes (parse_html's `utf8`).
_UTF8_PARSER = etree.HTMLParser(
    recover=True, collect_ids=False, remove_comments=True, remove_pis=True, no_network=True, huge_tree=False,
    encoding="utf-8",
)


def parse_html(text: str, utf8: bytes | None = None) -> etree._Element | None:
    """Parse decoded HTML, recovering broken markup. None when nothing parseable remains.

    libxml2 reads the text's UTF-8 bytes: `utf8` when the caller has them (the page's own bytes, when the text is
    their strict UTF-8 decoding: DecodedPage.strict), else the text encoded here once it holds more than ASCII. lxml
    would hand libxml2 such a text as Latin-1, UTF-16 or UCS-4 for it to convert: the same tree
    (tests/core/extraction/test_fast_forms_of_page_preparation.py) for less CPU, and the search for a NUL is in the
    bytes. A text with an XML declaration (cut here) or a NUL (removed) is parsed from the text."""
    if utf8 is None and not text.isascii():
        try:
            utf8 = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate
            utf8 = None
    if utf8 is not None and b"\x00" not in utf8 and _XML_DECL.match(text) is None:
        if not text or text.isspace():
            return None
        root, parser = _parse(utf8, _UTF8_PARSER), _UTF8_PARSER
    else:
        text = _XML_DECL.sub("", text, count=1).replace("\x00", "")
        if not text or text.isspace():  # as `not text.strip()`, without copying the page
            return None
        root, parser = _parse(text), _PARSER
    if _too_deep(parser):
        root = _flattened(text, root)
    if root is not None and swallowing_title(root):  # an unclosed <title> took the page (repair.py)
        closed = close_title(text)
        reparsed = _parse(closed) if closed is not None else None
        root = reparsed if reparsed is not None else root
    if root is not None:
        repair(root)
    return root


def _too_deep(parser: etree.HTMLParser = _PARSER) -> bool:
    """The parser's last parse hit libxml2's nesting cap (ERR_RESOURCE_LIMIT "Excessive depth in document")."""
    return any(error.type_name == "ERR_RESOURCE_LIMIT" and "depth" in error.message for error in parser.error_log)


def _flattened(text: str, root: etree._Element | None) -> etree._Element | None:
    """The page parsed again with its runs of nested containers collapsed, then without containers at all."""
    collapsed = _TAG_RUNS.sub(lambda match: f"<{match.group(1)}>" if match.group(1) else f"</{match.group(2)}>", text)
    flat = _parse(collapsed)
    if _too_deep():
        flat = _parse(_CONTAINER_TAGS.sub("\n", collapsed))
    return flat if flat is not None else root


def _parse(text: str | bytes, parser: etree.HTMLParser = _PARSER) -> etree._Element | None:
    try:
        return etree.fromstring(text, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
