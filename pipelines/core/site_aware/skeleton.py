"""Page skeletons: the element tree of a cleaned page reduced to two hashes per node, for ISTM and DeleteSame.

`signature` hashes what definition 8 of paper 003 compares besides the child count (tag, attributes;
the count is `len(children)`); `subtree`
also hashes the node's own text and its children's subtrees, so equal `subtree` means identical
content. Hashes are 48-bit blake2b (stable across processes, exact in JSON); a page of 2,000 elements
is ~40 KB of JSON, so a few skeletons per cluster fit in Postgres.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from lxml import etree

# Attributes whose values are compared: the layout ones. href/src/alt/title differ from page to page
# on the same template, so only their names enter the signature.
LAYOUT_ATTRIBUTES = ("class", "id", "role")
_SPACES = re.compile(r"\s+")
# Attribute values that vary per page on one template: digit runs (article ids, "post-1234") are
# generalised and URL-like values (a dataset wrapper carrying the page url as id) dropped, else every
# page of a site would differ at the root (cleanportaleval wraps each body in <text id="URL">).
_DIGIT_RUN = re.compile(r"\d+")
# Pages are cut at this many nodes (pathological pages; the largest dev page has ~9,000 elements).
MAX_NODES = 20_000


@dataclass
class Skeleton:
    signature: int
    subtree: int
    children: list[Skeleton] = field(default_factory=list)

    def to_json(self) -> list:
        return [self.signature, self.subtree, [child.to_json() for child in self.children]]

    @classmethod
    def from_json(cls, data: list) -> Skeleton:
        return cls(int(data[0]), int(data[1]), [cls.from_json(child) for child in data[2]])

    def size(self) -> int:
        return 1 + sum(child.size() for child in self.children)


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=6).digest(), "big")


def element_children(element: etree._Element) -> list[etree._Element]:
    return [child for child in element if isinstance(child.tag, str)]


def signature_text(element: etree._Element) -> str:
    attributes = sorted(element.attrib.keys())
    values = [f"{name}={_layout_value(element.get(name, ''))}" for name in LAYOUT_ATTRIBUTES if name in element.attrib]
    return f"{element.tag}|{','.join(attributes)}|{';'.join(values)}"


def _layout_value(value: str) -> str:
    return "*" if "/" in value or ":" in value else _DIGIT_RUN.sub("#", value)


def own_text(element: etree._Element) -> str:
    """Text directly in the element (its text and its children's tails), spaces collapsed."""
    parts = [element.text or ""] + [child.tail or "" for child in element]
    return _SPACES.sub(" ", "".join(parts)).strip()


def content_root(root: etree._Element) -> etree._Element:
    """<body> when the page has one, else the root."""
    body = root.find("body")
    return body if body is not None else root


def build_skeleton(element: etree._Element) -> Skeleton:
    """Skeleton of `element`'s subtree (iterative post-order, so deep trees cannot overflow the stack)."""
    budget = [MAX_NODES]
    built: dict[etree._Element, Skeleton] = {}
    stack: list[tuple[etree._Element, bool]] = [(element, False)]
    while stack:
        node, done = stack.pop()
        kids = element_children(node)
        if not done:
            budget[0] -= 1
            stack.append((node, True))
            if budget[0] > 0:
                stack.extend((child, False) for child in reversed(kids))
            continue
        children = [built.pop(child) for child in kids if child in built]
        signature = _hash(signature_text(node))
        subtree = _hash(f"{signature}|{own_text(node)}|" + ",".join(str(c.subtree) for c in children))
        built[node] = Skeleton(signature, subtree, children)
    return built[element]
