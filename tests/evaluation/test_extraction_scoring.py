"""Scoring: CJK characters as tokens, shingles, empty-text convention."""

from __future__ import annotations

from newscorpus.core.text import tokenize
from newscorpus.evaluation.extraction_scoring import bag_of_tokens, shingle_scores


def test_tokenize_cjk_and_words() -> None:
    assert tokenize("Hello, World 中文abc") == ["hello", "world", "中", "文", "abc"]


def test_bag_of_tokens_prf() -> None:
    score = bag_of_tokens("北京 今天 下雨", "北京今天晴")
    assert round(score.precision, 3) == round(4 / 6, 3)
    assert round(score.recall, 3) == round(4 / 5, 3)
    assert bag_of_tokens("same text", "Same, TEXT!").f1 == 1.0


def test_empty_convention() -> None:
    assert bag_of_tokens("", "").f1 == 1.0
    assert bag_of_tokens("x", "").f1 == 0.0
    assert bag_of_tokens("", "x").f1 == 0.0


def test_shingles_penalise_reordering() -> None:
    gold = "one two three four five six"
    assert shingle_scores(gold, gold).f1 == 1.0
    assert bag_of_tokens("six five four three two one", gold).f1 == 1.0
    assert shingle_scores("six five four three two one", gold).f1 == 0.0
