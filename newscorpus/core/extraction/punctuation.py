"""Punctuation statistics (paper 000 §2.1): a text line is body when its punctuation share is in (0, p]."""

from __future__ import annotations

from newscorpus.core.extraction.normalise import PUNCT_RE, Block

# Paper 000 found that every page's body is extracted for p <= 0.3 (10 sites, 2000 pages, p swept
# 0.01..0.9). Re-calibrated on the dev data by `newscorpus train extraction` (see model.json
# "punctuation_p"); this is the paper's value used when no model is shipped.
PAPER_MAX_RATIO = 0.3


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
