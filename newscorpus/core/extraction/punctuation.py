"""Punctuation statistics (paper 000 §2.1): a text line is body when its punctuation share is in (0, p]."""

from __future__ import annotations

from newscorpus.core.extraction.block_tree import PUNCT_RE, Block

# Paper 000 found that every page's body is extracted for p <= 0.3 (10 sites, 2000 pages, p swept
# 0.01..0.9). Re-calibrated on the dev data by `newscorpus train extraction` (see model.json
# "punctuation_p"); this is the paper's value used when no model is shipped.
PAPER_MAX_RATIO = 0.3
# A block with links adds to the scores only when its own (non-link) text has at least this many
# characters: the "[title link]【author】date 138字" lines of a thread list or a teaser list carry a little
# punctuated metadata each and, summed over 60 replies, outscored a forum's first post. Swept with `newscorpus eval
# extraction` on the dev sets: 25-45 give the same, 15 misses the forum, 60 drops a short-paragraph page.
MIN_LINKED_OWN_CHARS = 35


def punctuation_ratio(line: str) -> float:
    """Share of punctuation characters among the non-space characters of a line."""
    chars = len(line) - line.count(" ")
    if chars <= 0:
        return 0.0
    return len(PUNCT_RE.findall(line)) / chars


def is_body_line(line: str, max_ratio: float = PAPER_MAX_RATIO, link_ratio: float = 0.0) -> bool:
    """Paper 000 rule: ratio in (0, p]. Lines that are mostly anchor text are navigation, not body."""
    ratio = punctuation_ratio(line)
    return 0.0 < ratio <= max_ratio and link_ratio < 0.5


def select_lines(blocks: list[Block], max_ratio: float = PAPER_MAX_RATIO) -> list[str]:
    """The punctuation method alone, over the whole page: every qualifying line in document order."""
    lines: list[str] = []
    for block in blocks:
        if not block.chars:
            continue
        link_ratio = block.link_chars / block.chars
        for line in block.text.split("\n"):
            if is_body_line(line, max_ratio, link_ratio):
                lines.append(line)
    return lines


def prose_value(block: Block, max_ratio: float = PAPER_MAX_RATIO) -> float:
    """Characters of non-link text in a block whose punctuation ratio lies in (0, p]; a block with links
    counts only when its own text is a sentence (MIN_LINKED_OWN_CHARS)."""
    if not block.chars:
        return 0.0
    ratio = block.punctuation / block.chars
    if block.link_chars and block.chars - block.link_chars < MIN_LINKED_OWN_CHARS:
        return 0.0
    return float(block.chars - block.link_chars) if 0.0 < ratio <= max_ratio else 0.0
