"""Pair and cluster metrics for near-duplicate detection, as ../shared/data/dedup/README.md defines them.

CE (confused error) = FP / (FP + TN): different documents judged the same; EE (exclusive error) =
FN / (FN + TP) = 1 - recall: the same story judged different (the research base's two error rates).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from math import comb

Pair = tuple[str, str]


def pair_key(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass
class PairCounts:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def ce(self) -> float:
        return self.fp / (self.fp + self.tn) if self.fp + self.tn else 0.0

    @property
    def ee(self) -> float:
        return 1.0 - self.recall

    def add(self, label: int, judged_same: bool) -> None:
        if label:
            self.tp, self.fn = self.tp + judged_same, self.fn + (not judged_same)
        else:
            self.fp, self.tn = self.fp + judged_same, self.tn + (not judged_same)

    def as_dict(self) -> dict[str, float]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "ce": self.ce,
            "ee": self.ee,
        }


def all_pair_counts(judged_same: Iterable[Pair], cluster_of: Mapping[str, str], doc_ids: list[str]) -> PairCounts:
    """Counts over every pair of `doc_ids` (one language): truth is membership of the same gold cluster."""
    members = set(doc_ids)
    sizes = Counter(cluster_of[d] for d in doc_ids)
    positives = sum(comb(n, 2) for n in sizes.values())
    counts = PairCounts()
    for a, b in set(judged_same):
        if a in members and b in members:
            if cluster_of[a] == cluster_of[b]:
                counts.tp += 1
            else:
                counts.fp += 1
    counts.fn = positives - counts.tp
    counts.tn = comb(len(doc_ids), 2) - positives - counts.fp
    return counts


def connected_components(doc_ids: Iterable[str], judged_same: Iterable[Pair]) -> dict[str, str]:
    parent = {d: d for d in doc_ids}

    def root(d: str) -> str:
        while parent[d] != d:
            parent[d] = parent[parent[d]]
            d = parent[d]
        return d

    for a, b in judged_same:
        if a in parent and b in parent:
            parent[root(a)] = root(b)
    return {d: root(d) for d in parent}


def adjusted_rand_index(truth: Mapping[str, str], predicted: Mapping[str, str]) -> float:
    """Hubert & Arabie's ARI over the documents of `predicted`."""
    docs = list(predicted)
    n = len(docs)
    cells = Counter((truth[d], predicted[d]) for d in docs)
    index = sum(comb(c, 2) for c in cells.values())
    rows = sum(comb(c, 2) for c in Counter(truth[d] for d in docs).values())
    cols = sum(comb(c, 2) for c in Counter(predicted[d] for d in docs).values())
    expected = rows * cols / comb(n, 2) if n > 1 else 0.0
    maximum = (rows + cols) / 2
    return 1.0 if maximum == expected else (index - expected) / (maximum - expected)
