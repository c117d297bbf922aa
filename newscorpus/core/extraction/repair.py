"""Parse recovery: broken document skeletons that make libxml2 hide the article, repaired after parsing.

libxml2 recovers most broken markup, but three kinds of damage to a page's skeleton put the whole article
where cleaning drops it or where the extractor never looks (l3s_gn1_train has pages of each):
- a `<title>` that is never closed (a garbled `</titavaScript…`): the title is raw text, so the rest of the
  page becomes one title string; it is closed again at the first `<` in it;
- a garbled `<html …>` start tag: libxml2 ends the first `<html>` and puts the page in a second top-level
  `<html>` beside it; the siblings' content is moved into the first;
- content before `<body>` that libxml2 keeps inside `<head>` (table rows of a page that never opens its
  body): `<head>`'s children that are not head elements are moved into `<body>` (created when missing).

Every repair is a no-op on well-formed pages; none of them reparses unless the title swallowed the page.
"""

from __future__ import annotations

import re

from lxml import etree

# A <title> longer than this that holds a "<" swallowed the page: real titles are under 300 characters
# (the longest in the seven dev sets' 1,189 pages is 261).
MAX_TITLE_CHARS = 1000
# What may stand in <head>; anything else there is page content libxml2 did not move to <body>.
HEAD_TAGS = frozenset({"title", "meta", "link", "script", "style", "base", "noscript", "template", "object"})
_TITLE_OPEN = re.compile(r"<title\b[^>]*>", re.IGNORECASE)


def swallowing_title(root: etree._Element) -> bool:
    """Whether the page's first <title> holds the rest of the page (it was never closed)."""
    title = root.find("head/title")
    if title is None:
        title = root.find(".//title")
    text = title.text if title is not None else None
    return bool(text) and len(text) > MAX_TITLE_CHARS and "<" in text


def close_title(text: str) -> str | None:
    """The source with its first <title> closed at the first "<" after it; None when there is none."""
    opening = _TITLE_OPEN.search(text)
    if opening is None:
        return None
    end = text.find("<", opening.end())
    if end < 0:
        return None
    return text[:end] + "</title>" + text[end:]


def merge_top_level(root: etree._Element) -> None:
    """Move the content of top-level elements after the root (a second <html>) into the root, in order."""
    for sibling in list(root.itersiblings()):
        if not isinstance(sibling.tag, str):
            continue
        if sibling.tag == "html":
            for child in list(sibling):
                root.append(child)
        else:
            root.append(sibling)


def lift_head_content(root: etree._Element) -> None:
    """Move <head>'s children that are not head elements to the start of <body> (created when missing)."""
    head = root.find("head")
    if head is None:
        return
    strays = [child for child in head if isinstance(child.tag, str) and child.tag not in HEAD_TAGS]
    if not strays:
        return
    body = root.find("body")
    if body is None:
        body = etree.Element("body")
        head.addnext(body)
    for position, element in enumerate(strays):
        body.insert(position, element)


def repair(root: etree._Element) -> None:
    """The in-place repairs (the title one needs the source: see close_title)."""
    merge_top_level(root)
    lift_head_content(root)
