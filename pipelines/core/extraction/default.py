"""The default method: pick the article container by propagating punctuated-prose scores to ancestors
(paper 004's "nearest block" blocks, scored in the manner of readability's candidates), add sibling
containers that score alike, then trim the region block by block (link density, class hints) and
line by line (paper 000's punctuation statistics)."""

from __future__ import annotations

from dataclasses import dataclass

from pipelines.core.extraction.normalise import HEADING_TAGS, Block
from pipelines.core.extraction.punctuation import PAPER_MAX_RATIO, punctuation_ratio

# Share of a prose block's value given to its grandparent (its parent gets all of it); readability's
# 1/2 for the grandparent level.
GRANDPARENT_SHARE = 0.5
# Score multipliers for containers whose class/id says "content" / "comments, sidebar, ..."
# (readability adds +-25 points; a multiplier keeps it proportional to page length).
POSITIVE_HINT_FACTOR = 1.25
NEGATIVE_HINT_FACTOR = 0.3
# Siblings of the best container scoring at least this share of it join the region. Readability uses
# 0.2; a sweep on the dev data (0.1/0.2/0.35/0.5) gave zh F1 .898/.901/.909/.909, en flat (.907-.909).
SIBLING_SHARE = 0.35
# Blocks in the region whose text is more than half links are dropped (readability uses 0.5 too).
MAX_LINK_DENSITY = 0.5
# Lines without punctuation inside the region are kept only in headings or when this long. A sweep on
# the dev data (0/20/40/80 characters) found 0 best (zh .901 vs .894 at 40): inside the chosen region
# unpunctuated lines are mostly sub-headings that the gold keeps, so the filter is off by default.
MIN_UNPUNCTUATED_CHARS = 0


@dataclass
class RegionChoice:
    roots: list[int]
    lines: list[str]
    score: float


def prose_value(block: Block, max_ratio: float = PAPER_MAX_RATIO) -> float:
    """Characters of non-link text in a block whose punctuation ratio lies in (0, p]."""
    if not block.chars:
        return 0.0
    ratio = block.punctuation / block.chars
    return float(block.chars - block.link_chars) if 0.0 < ratio <= max_ratio else 0.0


def candidate_scores(blocks: list[Block], max_ratio: float) -> list[float]:
    n = len(blocks)
    scores = [0.0] * n
    chars = [float(b.chars) for b in blocks]
    links = [float(b.link_chars) for b in blocks]
    for index in range(n - 1, 0, -1):
        block = blocks[index]
        parent = block.parent
        if parent >= 0:
            chars[parent] += chars[index]
            links[parent] += links[index]
        value = prose_value(block, max_ratio)
        if not value:
            continue
        scores[index] += value
        if parent >= 0:
            scores[parent] += value
            grandparent = blocks[parent].parent
            if grandparent >= 0:
                scores[grandparent] += value * GRANDPARENT_SHARE
    for index, block in enumerate(blocks):
        if scores[index]:
            density = links[index] / chars[index] if chars[index] else 0.0
            factor = POSITIVE_HINT_FACTOR if block.hint > 0 else NEGATIVE_HINT_FACTOR if block.hint < 0 else 1.0
            scores[index] *= (1.0 - density) * factor
    return scores


def _keep_line(line: str, block: Block, max_ratio: float) -> bool:
    ratio = punctuation_ratio(line)
    if ratio > max_ratio:
        return False
    if ratio > 0.0:
        return True
    return block.tag in HEADING_TAGS or len(line) >= MIN_UNPUNCTUATED_CHARS


EXPAND_PROSE_SHARE = 0.7


def _subtree_totals(blocks: list[Block], max_ratio: float, top_hint: int) -> tuple[list[float], list[float]]:
    n = len(blocks)
    prose = [0.0] * n
    kept = [0.0] * n
    for index in range(n - 1, -1, -1):
        block = blocks[index]
        kept[index] += block.chars
        if block.chars and block.link_chars <= MAX_LINK_DENSITY * block.chars and not (block.hint < 0 <= top_hint):
            prose[index] += prose_value(block, max_ratio)
        parent = block.parent
        if parent >= 0:
            kept[parent] += kept[index]
            prose[parent] += prose[index]
    return prose, kept


def expand_upwards(blocks: list[Block], roots: list[int], max_ratio: float, top_hint: int) -> list[int]:
    prose, kept = _subtree_totals(blocks, max_ratio, top_hint)
    region_prose = sum(prose[r] for r in roots)
    region_kept = sum(kept[r] for r in roots)
    node = blocks[roots[0]].parent
    while node >= 0:
        added_prose = prose[node] - region_prose
        added_kept = kept[node] - region_kept
        if added_kept > 0 and added_prose < EXPAND_PROSE_SHARE * added_kept:
            break
        roots, region_prose, region_kept = [node], prose[node], kept[node]
        node = blocks[node].parent
    return roots


def choose_region(blocks: list[Block], max_ratio: float = PAPER_MAX_RATIO) -> RegionChoice:
    if not blocks:
        return RegionChoice([], [], 0.0)
    scores = candidate_scores(blocks, max_ratio)
    top = max(range(len(blocks)), key=scores.__getitem__)
    if scores[top] <= 0:
        return RegionChoice([], [], 0.0)
    parent = blocks[top].parent
    roots = [top]
    if parent >= 0:
        threshold = max(scores[top] * SIBLING_SHARE, 1.0)
        index = parent + 1
        roots = []
        while index < blocks[parent].end:
            if index == top or (scores[index] >= threshold and blocks[index].hint >= 0):
                roots.append(index)
            index = blocks[index].end
    top_hint = blocks[top].hint
    roots = expand_upwards(blocks, roots, max_ratio, top_hint)
    lines: list[str] = []
    for root in roots:
        for block in blocks[root : blocks[root].end]:
            if not block.chars or block.link_chars / block.chars > MAX_LINK_DENSITY:
                continue
            if block.hint < 0 <= top_hint:
                continue
            lines.extend(line for line in block.text.split("\n") if _keep_line(line, block, max_ratio))
    return RegionChoice(roots, lines, scores[top])
