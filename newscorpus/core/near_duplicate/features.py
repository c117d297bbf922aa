"""An article's near-duplicate features: title and window keywords, simhash fingerprint, shingle sketch, exact
body hash, read once from its normalised body."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from newscorpus.core.near_duplicate.body_text import BodyText
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.keywords import (
    extract_keywords,
    normalize_text,
    segmentation_language,
    title_numbers,
)
from newscorpus.core.near_duplicate.shingle_sketch import (
    ShingleSketch,
    exact_body_hash,
    sketch_body,
)
from newscorpus.core.near_duplicate.simhash import body_fingerprint


@dataclass(frozen=True)
class DocumentFeatures:
    lang: str
    keywords: frozenset[str]
    title_keywords: tuple[str, ...]
    simhash: int | None  # unsigned 64-bit; None when the body is too short to fingerprint
    sketch: ShingleSketch
    body_hash: str
    token_count: int  # word tokens of the body (Chinese: word characters), the completeness measure
    site: Hashable | None = None  # the publishing site (the crawl's site id); None: unknown, another site
    title_numbers: tuple[str, ...] = ()  # the title's numbers, sorted (keywords.title_numbers)


def build_features(title: str, body: str, lang: str, config: NearDuplicateConfig, site: Hashable | None = None
                   ) -> DocumentFeatures:
    text = BodyText.of(normalize_text(body))  # read once: keywords, sketch, fingerprint and hash share its words
    words = text.words if lang != "zh" else None  # Chinese body keywords come from jieba, not `\w+` words
    found = extract_keywords(
        title, text.normalized, lang, config.window, config.min_cooccurrence, config.max_keywords, words
    )
    sketch = sketch_body(text, lang)
    return DocumentFeatures(
        lang=lang,
        keywords=found.all,
        title_keywords=found.title_keywords,
        simhash=body_fingerprint(text, lang) if sketch.token_count >= config.min_simhash_tokens else None,
        sketch=sketch,
        body_hash=exact_body_hash(text),
        token_count=sketch.token_count,
        site=site,
        title_numbers=title_numbers(title),
    )


# Languages written without spaces between words: their features are read as Chinese's are (characters, jieba
# words), not as space-separated words. On the 1,898 dev texts (../shared/data: extraction gold bodies, dedup docs)
# this mapping of the extraction's language gives the language keywords.segmentation_language gives for all but
# one, a Japanese page it read as words (3 of the 4 Japanese pages it read as "zh").
CHARACTER_LANGUAGES = frozenset({"zh", "ja"})


def features_language(language: str | None, body: str) -> str:
    """The language the features of ``body`` are computed in, "zh" or "en" (words): from the ``language`` the
    extraction found (newscorpus.core.text.detect_language), detected from the body only when it found none."""
    if language is None:
        return segmentation_language(body)
    return "zh" if language in CHARACTER_LANGUAGES else "en"


def build_features_batch(articles: Sequence[tuple[str, str, Hashable | None, str | None]],
                         config: NearDuplicateConfig) -> list[DocumentFeatures]:
    """Features of (title, body, site, language) tuples, the language the extraction found or None
    (features_language): one call for a batch, so a worker process can compute a batch at a time
    (newscorpus.pipelines.near_duplicate)."""
    return [build_features(title, body, features_language(language, body), config, site)
            for title, body, site, language in articles]
