"""Fuzzing the line-hashing, keyword and near-duplicate feature cores: any text in (NUL bytes, control and
RTL characters, emoji, full-width forms, CJK, endless lines, deep repetition), a result out, never an
exception, within a bounded time. Lone surrogates cannot reach these cores: every body comes from bytes
decoded by newscorpus.core.decoding (which never yields them, see test_fuzz_extraction), so they are left out.
"""

from __future__ import annotations

import time
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newscorpus.core.line_noise import (
    InMemoryLineStats,
    LineNoiseConfig,
    article_hashes,
    body_lines,
    clean_body,
    normalise_line,
)
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import build_features
from newscorpus.core.near_duplicate.keywords import (
    extract_keywords,
    normalize_text,
    segmentation_language,
    title_keywords,
)

BOUND_SECONDS = 5.0  # per input; a 100 kB body takes < 0.1 s on the dev machine
PIECES = ["新闻", "。", "，", "\n", "\r\n", "\x00", "\u200f", "\u202e", "\ufeff", "😀", "Ａｂｃ１２３", "  ", "\t",
          "责任编辑：张三", "Copyright 2026", "$$", "'", "\\", "%s", "\u0301", "ﷺ", "𠀀", "\x0b", "\x1c"]
TEXTS = st.one_of(
    st.text(max_size=2000),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=20)), max_size=300).map("".join),
)
NEAR_DUPLICATE = NearDuplicateConfig()


def _bounded(started: float) -> None:
    assert time.perf_counter() - started < BOUND_SECONDS


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_line_hashing_takes_any_text(body):
    started = time.perf_counter()
    lines = body_lines(body)
    assert len(lines) == body.count("\n") + 1
    for line, digest in lines:
        normalised = normalise_line(line)
        assert (digest is None) == (normalised == "")
        assert digest is None or isinstance(digest, uuid.UUID)
        assert normalise_line(normalised) == normalised  # idempotent: the same line always hashes the same
    hashes, samples = article_hashes(lines)
    assert hashes == sorted(set(hashes), key=lambda h: h.bytes) and len(samples) == len(hashes)
    cleaning = clean_body(body, dict.fromkeys(hashes, 1000), 10, LineNoiseConfig())
    assert isinstance(cleaning.body, str)
    _bounded(started)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TEXTS, min_size=1, max_size=8))
def test_line_statistics_take_any_bodies(bodies):
    stats = InMemoryLineStats(LineNoiseConfig(prune_interval=2))
    started = time.perf_counter()
    for body in bodies:
        result = stats.process("site", body)
        assert set(result.body.split("\n")) <= set(body.split("\n")) | {""}
    assert stats.articles_seen["site"] == len(bodies)
    _bounded(started)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS, TEXTS, st.sampled_from([None, "zh", "en"]))
def test_keywords_and_features_take_any_text(title, body, lang):
    started = time.perf_counter()
    lang = lang or segmentation_language(body)
    assert lang in ("zh", "en")
    keywords = extract_keywords(title, normalize_text(body), lang, window=5, min_cooccurrence=2, max_keywords=30)
    assert len(keywords.all) <= 30
    assert all(isinstance(word, str) and word for word in keywords.all)
    features = build_features(title, body, lang, NEAR_DUPLICATE)
    assert features.simhash is None or 0 <= features.simhash < 2**64
    _bounded(started)


def test_huge_inputs_stay_bounded():
    """A 5 MB line without a newline, 200 000 short lines, and a title of 100 000 keyword repeats."""
    cases = [
        ("新闻" * 10, "新闻正文" * 1_250_000),
        ("title", "line\n" * 200_000),
        ("新闻 " * 100_000, ("新闻" + "正文。" * 10 + "\n") * 5000),
        ("regex (.*)+ [a-z]{1,} $$ \\", "(" * 100_000 + "\x00" * 100_000),
    ]
    for title, body in cases:
        started = time.perf_counter()
        body_lines(body)
        for lang in ("zh", "en"):
            assert len(title_keywords(title, lang)) <= 12
            build_features(title, body, lang, NEAR_DUPLICATE)
        assert time.perf_counter() - started < 6 * BOUND_SECONDS
