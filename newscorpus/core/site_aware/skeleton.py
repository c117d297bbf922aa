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
# Skeletons are cut at this many nodes (a guard for callers other than the cascade, which skips pages over
# page_budget.MAX_ELEMENTS before skeletonising; the largest dev page has 5,757 elements after cleaning).
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


# Signatures repeat (every <p>, every <a class="x">): their hashes are cached across pages by the raw tag and
# layout attributes, cleared when this large (a crawl sees new class values on every site).
_SIGNATURE_CACHE_SIZE = 65_536
_signatures: dict[tuple, int] = {}


def _signature_hash(element: etree._Element) -> int:
    names = element.keys()
    # LAYOUT_ATTRIBUTES' values, spelled out rather than by a generator (this runs for every node of every page);
    # tests/core/site_aware/test_skeleton.py checks the key holds them all
    key = (element.tag, *names, element.get("class"), element.get("id"), element.get("role")) if names else \
        element.tag
    found = _signatures.get(key)
    if found is None:
        if len(_signatures) >= _SIGNATURE_CACHE_SIZE:
            _signatures.clear()
        found = _signatures[key] = _hash(signature_text(element))
    return found


def element_children(element: etree._Element) -> list[etree._Element]:
    return [child for child in element if isinstance(child.tag, str)]


def signature_text(element: etree._Element) -> str:
    names = element.keys()
    if not names:
        return f"{element.tag}||"
    names.sort()
    values = [f"{name}={_layout_value(element.get(name, ''))}" for name in LAYOUT_ATTRIBUTES if name in names]
    return f"{element.tag}|{','.join(names)}|{';'.join(values)}"


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


def build_skeleton(element: etree._Element, max_nodes: int = MAX_NODES) -> Skeleton:
    """Skeleton of `element`'s subtree; the first `max_nodes` elements in document order are expanded, the rest
    left out. One walk of lxml's start/end events (post-order for free); a subtree of `max_nodes` elements or more
    is built by the budgeted walk instead (the cascade never asks for one: page_budget caps it first). The event
    walk is the same skeleton for less CPU than the budgeted one."""
    if not isinstance(element.tag, str):
        return _budgeted_skeleton(element, max_nodes)
    # per open element: its children's skeletons and its own text pieces (its text, then its children's tails, read
    # from the walk's own proxies)
    open_nodes: list[tuple[list[Skeleton], list[str]]] = [([], [])]
    seen = 0
    for event, node in etree.iterwalk(element, events=("start", "end")):
        if not isinstance(node.tag, str):
            continue
        if event == "start":
            seen += 1
            if seen >= max_nodes:
                return _budgeted_skeleton(element, max_nodes)
            open_nodes.append(([], [node.text or ""]))
        else:
            children, parts = open_nodes.pop()
            if len(children) != len(node):  # a child the walk does not show (a comment, a PI): read the tails anew
                parts = [node.text or "", *[child.tail or "" for child in node]]
            skeleton = _node_skeleton(node, children, "".join(parts))
            siblings, parent_parts = open_nodes[-1]
            siblings.append(skeleton)
            parent_parts.append(node.tail or "")
    return open_nodes[0][0][0]


def _node_skeleton(node: etree._Element, children: list[Skeleton], text: str) -> Skeleton:
    """`text`: the node's text and its children's tails, joined."""
    signature = _signature_hash(node)
    # " ".join(split()) is _SPACES.sub(" ", text).strip(): both split at str.isspace() characters.
    text = " ".join(text.split()) if text else ""
    subtree = _hash(f"{signature}|{text}|" + ",".join([str(c.subtree) for c in children]))
    return Skeleton(signature, subtree, children)


def _budgeted_skeleton(element: etree._Element, max_nodes: int) -> Skeleton:
    """build_skeleton by an explicit stack (iterative post-order, so deep trees cannot overflow the stack)
    that stops expanding nodes once `max_nodes` have been visited."""
    budget = max_nodes
    finished: list[Skeleton] = []  # post-order results; a node's children are the last ones when it finishes
    stack: list[tuple[etree._Element, list[etree._Element] | None, int]] = [(element, None, 0)]
    while stack:
        node, kids, expanded = stack.pop()
        if kids is None:
            kids = [child for child in node if isinstance(child.tag, str)]
            budget -= 1
            expanded = len(kids) if budget > 0 else 0
            stack.append((node, kids, expanded))
            stack.extend((child, None, 0) for child in reversed(kids[:expanded]))
            continue
        children = finished[len(finished) - expanded :] if expanded else []
        if expanded:
            del finished[len(finished) - expanded :]
        text = node.text or ""
        if len(node):
            text += "".join([child.tail or "" for child in node])
        finished.append(_node_skeleton(node, children, text))
    return finished[0]
