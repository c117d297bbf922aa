"""Where candidates for near-duplicate checks come from: the index protocol and its in-memory version.

The Postgres-backed index implements the same `DedupIndex` protocol (same method names and meanings), so
the decision code and the evaluation do not change with the store. Candidates come from two lookups, never
from a scan of the corpus: exact body hash and simhash block keys, then the inverted keyword index.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import Protocol

from pipelines.core.near_duplicate import DedupConfig, DedupDecision, DocumentFeatures, decide
from pipelines.core.simhash_fingerprint import block_keys, hamming_distance

DocId = Hashable
# Posting entries read per keyword lookup, rarest keywords first: common keywords have postings that grow
# with the corpus, so a fixed budget keeps the per-article cost flat (benchmarks/dedup_throughput.py: en
# docs/s fell 403 → 275 from 0 to 100k indexed articles with a per-keyword cap of 2000 instead). Rare
# keywords are also the informative ones. 4000 never binds on the 716-document dev set.
MAX_POSTINGS_SCANNED = 4000


class DedupIndex(Protocol):
    def add(self, doc_id: DocId, features: DocumentFeatures) -> None: ...

    def exact_candidates(self, body_hash: str) -> list[DocId]: ...

    def simhash_candidates(self, fingerprint: int, max_distance: int) -> list[DocId]: ...

    def keyword_candidates(self, keywords: Iterable[str], limit: int) -> list[tuple[DocId, int]]:
        """Articles sharing keywords, most shared first: (doc_id, number of shared keywords). Reads the
        postings of the rarest keywords first, within MAX_POSTINGS_SCANNED entries."""
        ...

    def features(self, doc_ids: Sequence[DocId]) -> dict[DocId, DocumentFeatures]: ...


class InMemoryDedupIndex:
    def __init__(self, simhash_distance: int) -> None:
        self.simhash_distance = simhash_distance
        self._features: dict[DocId, DocumentFeatures] = {}
        self._by_keyword: dict[str, list[DocId]] = defaultdict(list)
        self._by_block: dict[int, list[DocId]] = defaultdict(list)
        self._by_hash: dict[str, list[DocId]] = defaultdict(list)

    def __len__(self) -> int:
        return len(self._features)

    def add(self, doc_id: DocId, features: DocumentFeatures) -> None:
        self._features[doc_id] = features
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
        shared: Counter[DocId] = Counter()
        postings = sorted((self._by_keyword.get(k, []) for k in set(keywords)), key=len)
        budget = MAX_POSTINGS_SCANNED
        for posting in postings:
            if len(posting) > budget:
                break
            budget -= len(posting)
            shared.update(posting)
        return shared.most_common(limit)

    def features(self, doc_ids: Sequence[DocId]) -> dict[DocId, DocumentFeatures]:
        return {doc_id: self._features[doc_id] for doc_id in doc_ids if doc_id in self._features}


def find_duplicates(features: DocumentFeatures, index: DedupIndex, config: DedupConfig) -> DedupDecision:
    """Compare a new article with the candidates the index returns (it is not added: the caller adds it)."""
    ids: dict[DocId, None] = dict.fromkeys(index.exact_candidates(features.body_hash) if features.token_count else [])
    if features.simhash is not None:
        ids.update(dict.fromkeys(index.simhash_candidates(features.simhash, config.simhash_distance)))
    for doc_id, shared in index.keyword_candidates(features.keywords, config.candidate_limit):
        if shared >= config.min_shared_keywords:
            ids.setdefault(doc_id, None)
    found = index.features(list(ids))
    return decide(features, [(doc_id, found[doc_id]) for doc_id in ids if doc_id in found], config)
