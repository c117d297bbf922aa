"""Scores for extracted text against gold text: bag-of-tokens and 4-token-shingle precision/recall/F1.

Tokens (newscorpus.core.text.tokenize): every CJK character (Han, kana, hangul) is one token; other text is
lower-cased `\\w+` words (the measure used for the figures in the issues, CJK-aware version of the
article-extraction-benchmark).
Convention for empty texts: both empty -> P = R = F1 = 1; only one empty -> P = R = F1 = 0.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from newscorpus.core.text import tokenize

__all__ = ["PRF", "bag_of_tokens", "shingle_scores", "shingles", "prf_from_counters"]

# 4-token shingles, as in scrapinghub/article-extraction-benchmark evaluate.py.
SHINGLE_SIZE = 4


@dataclass(frozen=True)
class PRF:
    precision: float
    recall: float
    f1: float


def shingles(tokens: list[str], size: int = SHINGLE_SIZE) -> list[tuple[str, ...]]:
    if len(tokens) < size:
        return [tuple(tokens)] if tokens else []
    return [tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)]


def prf_from_counters(predicted: Counter, gold: Counter) -> PRF:
    n_pred = sum(predicted.values())
    n_gold = sum(gold.values())
    if n_pred == 0 and n_gold == 0:
        return PRF(1.0, 1.0, 1.0)
    if n_pred == 0 or n_gold == 0:
        return PRF(0.0, 0.0, 0.0)
    common = sum((predicted & gold).values())
    precision = common / n_pred
    recall = common / n_gold
    f1 = 2 * precision * recall / (precision + recall) if common else 0.0
    return PRF(precision, recall, f1)


def bag_of_tokens(predicted: str, gold: str) -> PRF:
    return prf_from_counters(Counter(tokenize(predicted)), Counter(tokenize(gold)))


def shingle_scores(predicted: str, gold: str) -> PRF:
    return prf_from_counters(Counter(shingles(tokenize(predicted))), Counter(shingles(tokenize(gold))))
