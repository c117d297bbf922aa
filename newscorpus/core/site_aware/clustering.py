"""Hierarchical (agglomerative, average-link) clustering of a site's pages by ISTM similarity, paper 003 §3.2.

`cluster` is the batch form (a site's stored skeletons); `nearest_cluster` is its online step used by
the cascade: a new page joins the cluster whose references it resembles most on average, when that
average reaches the same threshold, else it starts a cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

Item = TypeVar("Item")
# Merge threshold: paper 003 states none in its text. 0.5 = half of the weighted skeleton agrees; on the
# multi-page dev sites same-template pages score 0.6-1.0 and pages of other templates 0.0 (definition 8 is
# strict: one differing child count zeroes a whole block), so the value is not sensitive in (0.2, 0.6).
CLUSTER_THRESHOLD = 0.4


def cluster(
    items: Sequence[Item], similarity: Callable[[Item, Item], float], threshold: float = CLUSTER_THRESHOLD
) -> list[list[int]]:
    """Indices of `items` grouped: merge the two most similar clusters (average link) while >= threshold."""
    n = len(items)
    pair = {(i, j): similarity(items[i], items[j]) for i in range(n) for j in range(i + 1, n)}
    clusters = [[i] for i in range(n)]

    def link(a: list[int], b: list[int]) -> float:
        total = sum(pair[(min(i, j), max(i, j))] for i in a for j in b)
        return total / (len(a) * len(b))

    while len(clusters) > 1:
        best, best_pair = -1.0, (0, 0)
        for x in range(len(clusters)):
            for y in range(x + 1, len(clusters)):
                value = link(clusters[x], clusters[y])
                if value > best:
                    best, best_pair = value, (x, y)
        if best < threshold:
            break
        x, y = best_pair
        clusters[x] = sorted(clusters[x] + clusters[y])
        del clusters[y]
    return clusters


def nearest_cluster(
    item: Item,
    references: Sequence[Sequence[Item]],
    similarity: Callable[[Item, Item], float],
    threshold: float = CLUSTER_THRESHOLD,
) -> tuple[int | None, float]:
    """Index of the cluster (given by its reference items) `item` joins, or None; and the mean similarity."""
    best, best_index = -1.0, None
    for index, members in enumerate(references):
        if not members:
            continue
        value = sum(similarity(item, member) for member in members) / len(members)
        if value > best:
            best, best_index = value, index
    if best_index is None or best < threshold:
        return None, max(best, 0.0)
    return best_index, best
