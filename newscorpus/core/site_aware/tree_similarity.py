"""Improved simple tree matching (ISTM) of paper 003 (基于结构相似网页聚类的正文提取算法, §3.1, eq. 6-9).

Two nodes are equal when tag, attributes, child count and position agree (definition 8); equal nodes
pass on the weighted sum of their children's similarities, unequal nodes give 0, leaves give 1. The
first-level blocks (children of <body>) weigh |(N-1)/2 - m| + 1, normalised: blocks at the edges
(navigation, footer) count more than the middle, whose content changes from page to page; deeper
levels share their parent's weight equally (1/N).

`strict=False` relaxes definition 8 by one clause: nodes of different child counts may still be equal,
their children paired by position up to the shorter list, the weights computed over the longer one.
On real same-site pairs the strict form is mostly 0 (one extra block under <body> zeroes the page:
21 of the 29 magic_html_article pairs), so it cannot cluster them; the relaxed form can.

Trees are compared as skeletons (`skeleton.Skeleton`), built once per page and small enough to store.
"""

from __future__ import annotations

from newscorpus.core.site_aware.skeleton import Skeleton


def position_weights(count: int) -> list[float]:
    """Eq. 8 for the first level, m counted from 0 so the weights are symmetric (the text's m = 1..N
    would weigh the last block most and the first one like the middle, against the paper's own words)."""
    raw = [abs((count - 1) / 2 - m) + 1 for m in range(count)]
    total = sum(raw)
    return [value / total for value in raw]


def istm(first: Skeleton, second: Skeleton, strict: bool = True) -> float:
    """Similarity in [0, 1] of two page skeletons (rooted at <body>)."""
    return _match(first, second, 1, strict)


def relaxed_istm(first: Skeleton, second: Skeleton) -> float:
    return _match(first, second, 1, False)


def _match(first: Skeleton, second: Skeleton, level: int, strict: bool) -> float:
    # Iterative would avoid recursion, but libxml2 caps nesting at 256 levels (parse.py), well below
    # Python's recursion limit.
    if first.signature != second.signature:  # tag and attributes (definition 8) ...
        return 0.0
    if strict and len(first.children) != len(second.children):  # ... and child count
        return 0.0
    if not first.children or not second.children:
        return 1.0 if not first.children and not second.children else 0.0
    if first.subtree == second.subtree:  # identical subtrees: every leaf matches
        return 1.0
    count = max(len(first.children), len(second.children))
    weights = position_weights(count) if level == 1 else [1.0 / count] * count
    pairs = zip(weights, first.children, second.children, strict=False)
    return sum(weight * _match(a, b, level + 1, strict) for weight, a, b in pairs)
