"""Where candidates for near-duplicate checks come from: the index protocol and its in-memory version.

The Postgres-backed index implements the same `NearDuplicateIndex` protocol (same method names and meanings), so
the decision code and the evaluation do not change with the store. Candidates come from two lookups, never
from a scan of the corpus: exact body hash and simhash block keys, then the inverted keyword index.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from itertools import chain
from typing import Protocol

from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.decision import NearDuplicateDecision, decide
from newscorpus.core.near_duplicate.features import DocumentFeatures
from newscorpus.core.near_duplicate.simhash import block_keys, hamming_distance

DocId = Hashable
# Postings read per keyword, the most recent first. A common keyword's posting grows with the corpus; reading
# only its latest entries bounds a lookup to max_keywords x this many entries whatever the corpus size, keeps
# the recent articles (where reprints of a story are) and reads rare keywords' postings whole: a reprint shares
# its story's rare keywords (names, places, figures), whose postings are short, so it is still found when the
# common keywords' postings are cut. 30 rather than 100 leaves labelled-pair F1, CE and all decisions of the
# 716-document dev set unchanged (`newscorpus eval near-duplicate`; the same 393 duplicates found against 10k and 100k
# indexed articles, benchmarks/near_duplicate_throughput.py) for a quarter less server CPU per article. The cost:
# a reprint that shares only common keywords with an original more than 30 postings back is not a candidate
# (the resolution pass uses the same index).
MAX_POSTINGS_PER_KEYWORD = 30


class NearDuplicateIndex(Protocol):
    def add(self, doc_id: DocId, features: DocumentFeatures) -> None: ...

    def exact_candidates(self, body_hash: str) -> list[DocId]: ...

    def simhash_candidates(self, fingerprint: int, max_distance: int) -> list[DocId]: ...

    def keyword_candidates(self, keywords: Iterable[str], limit: int) -> list[tuple[DocId, int]]:
        """Articles sharing keywords: (doc_id, number of shared keywords), most shared first, then the most
        recently added. Reads at most the MAX_POSTINGS_PER_KEYWORD most recent entries of each keyword."""
        ...

    def features(self, doc_ids: Sequence[DocId]) -> dict[DocId, DocumentFeatures]: ...


class InMemoryNearDuplicateIndex:
    def __init__(self, simhash_distance: int) -> None:
        self.simhash_distance = simhash_distance
        self._features: dict[DocId, DocumentFeatures] = {}
        self._added: dict[DocId, int] = {}  # insertion rank: "most recent" in ties, as the store's id order
        self._by_keyword: dict[str, list[DocId]] = defaultdict(list)
        self._by_block: dict[int, list[DocId]] = defaultdict(list)
        self._by_hash: dict[str, list[DocId]] = defaultdict(list)

    def __len__(self) -> int:
        return len(self._features)

    def add(self, doc_id: DocId, features: DocumentFeatures) -> None:
        self._features[doc_id] = features
        self._added[doc_id] = len(self._added)
        for keyword in features.keywords:
            self._by_keyword[keyword].append(doc_id)
        if features.simhash is not None:
            for key in block_keys(features.simhash, self.simhash_distance):
                self._by_block[key].append(doc_id)
        if features.token_count:
            self._by_hash[features.body_hash].append(doc_id)

    def exact_candidates(self, body_hash: str) -> list[DocId]:
        return list(self._by_hash.get(body_hash, ()))

    def simhash_candidates(self, fingerprint: int, max_distance: int) -> list[DocId]:
        if max_distance > self.simhash_distance:
            raise ValueError(f"index built for Hamming ≤ {self.simhash_distance}, asked {max_distance}")
        found: dict[DocId, None] = {}
        for key in block_keys(fingerprint, self.simhash_distance):
            for doc_id in self._by_block.get(key, ()):
                other = self._features[doc_id].simhash
                if other is not None and hamming_distance(fingerprint, other) <= max_distance:
                    found.setdefault(doc_id, None)
        return list(found)

    def keyword_candidates(self, keywords: Iterable[str], limit: int) -> list[tuple[DocId, int]]:
        # One count over every keyword's postings, not a Counter.update per keyword (a Mapping check and a call for
        # each of ~17 keywords an article); ranked by a total order, so the counts' insertion order does not matter.
        postings = self._by_keyword
        shared: Counter[DocId] = Counter(chain.from_iterable(
            postings[keyword][-MAX_POSTINGS_PER_KEYWORD:] for keyword in set(keywords) if keyword in postings))
        ranked = sorted(shared.items(), key=lambda item: (-item[1], -self._added[item[0]]))
        return ranked[:limit]

    def features(self, doc_ids: Sequence[DocId]) -> dict[DocId, DocumentFeatures]:
        return {doc_id: self._features[doc_id] for doc_id in doc_ids if doc_id in self._features}


def find_duplicates(features: DocumentFeatures, index: NearDuplicateIndex,
                    config: NearDuplicateConfig) -> NearDuplicateDecision:
    """Compare a new article with the candidates the index returns (it is not added: the caller adds it)."""
    ids: dict[DocId, None] = dict.fromkeys(index.exact_candidates(features.body_hash) if features.token_count else [])
    if features.simhash is not None:
        ids.update(dict.fromkeys(index.simhash_candidates(features.simhash, config.simhash_distance)))
    # An article whose title yields a single keyword (a form field, a song title of stopwords) still
    # gets candidates sharing all of its keywords.
    min_shared = max(1, min(config.min_shared_keywords, len(features.keywords)))
    for doc_id, shared in index.keyword_candidates(features.keywords, config.candidate_limit):
        if shared >= min_shared:
            ids.setdefault(doc_id, None)
    found = index.features(list(ids))
    return decide(features, [(doc_id, found[doc_id]) for doc_id in ids if doc_id in found], config)
