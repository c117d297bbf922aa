"""One article's candidates compared with each other at once (issue 18): which pairs are copies of one text, and
which of the new article's sketch hashes the other candidates hold. `near_duplicate.decide` asks both for every
pair of candidates (30 candidates: 900 pairs per article); here they come from a few array operations over an
incidence matrix of the sketches, with the same answers as `near_copy` and the set unions it replaces."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from newscorpus.core.shingle_sketch import resemblance

if TYPE_CHECKING:
    from newscorpus.core.near_duplicate import DocumentFeatures


class CandidatePool:
    """`members` and `new`: row i < len(members) is members[i], the last row is `new`."""

    def __init__(self, members: Sequence[DocumentFeatures], new: DocumentFeatures, simhash_distance: int,
                 copy_jaccard: float):
        self.members = list(members)
        self.new = new
        rows = [*self.members, new]
        arrays = [features.sketch.hash_array for features in rows]
        owners = np.repeat(np.arange(len(rows)), [len(a) for a in arrays])
        values, columns = np.unique(np.concatenate(arrays), return_inverse=True)
        sizes = np.array([len(a) for a in arrays])
        new_columns = columns[owners == len(self.members)]  # new's hashes, in new's (sorted) order
        # Shared hashes of every pair, from the hashes two or more rows hold (most are one article's own): an
        # integer product over those columns only (a float32 BLAS product over all ~7,000 took 6.7 ms wall on
        # the loaded 2-core VM against 1.4 ms CPU: OpenBLAS's thread hand-offs).
        held_by = np.bincount(columns, minlength=len(values))
        common = np.flatnonzero(held_by >= 2)
        position = np.full(len(values), -1)
        position[common] = np.arange(len(common))
        incidence = np.zeros((len(rows), len(common)), dtype=np.int32)
        kept = position[columns] >= 0
        incidence[owners[kept], position[columns[kept]]] = 1
        self.shared = incidence @ incidence.T
        np.fill_diagonal(self.shared, sizes)
        # Which of new's hashes each member holds (a hash no other row holds: none).
        new_positions = position[new_columns]
        self.holds_new = np.zeros((len(self.members), len(new_columns)), dtype=bool)
        if len(self.members):
            shared_new = new_positions >= 0
            self.holds_new[:, shared_new] = incidence[: len(self.members), new_positions[shared_new]] > 0
        self.copies = self._copies(rows, sizes, simhash_distance, copy_jaccard)

    def _copies(self, rows: list[DocumentFeatures], sizes: np.ndarray, simhash_distance: int,
                copy_jaccard: float) -> np.ndarray:
        """copies[i, j]: near_copy(rows[i], rows[j]) (near_duplicate.near_copy, the same three tests)."""
        count = len(rows)
        hash_ids: dict[str, int] = {}
        body = np.array([hash_ids.setdefault(r.body_hash, len(hash_ids)) for r in rows])
        has_tokens = np.array([bool(r.token_count) for r in rows])
        copies = has_tokens[:, None] & (body[:, None] == body[None, :])
        known = np.array([r.simhash is not None for r in rows])
        fingerprints = np.array([r.simhash if r.simhash is not None else 0 for r in rows], dtype=np.uint64)
        distance = np.bitwise_count(fingerprints[:, None] ^ fingerprints[None, :])
        copies |= known[:, None] & known[None, :] & (distance <= simhash_distance)
        passing = ~copies & (self.shared >= copy_jaccard * np.minimum(sizes[:, None], sizes[None, :]))
        for i, j in zip(*np.nonzero(passing), strict=True):  # few: the pairs sharing most of their hashes
            copies[i, j] = resemblance(rows[i].sketch, rows[j].sketch).jaccard >= copy_jaccard
        assert copies.shape == (count, count)
        return copies

    def copy_of_new(self, member: int) -> bool:
        return bool(self.copies[member, len(self.members)])

    def site_text(self, others: Sequence[int]) -> np.ndarray:
        """New's sketch hashes that any of the members `others` holds, sorted."""
        if not others:
            return self.new.sketch.hash_array[:0]
        return self.new.sketch.hash_array[self.holds_new[list(others)].any(axis=0)]

    def others(self, pool: Sequence[int], old: DocumentFeatures, old_row: int | None,
               near_copy: Callable[[DocumentFeatures, DocumentFeatures], bool]) -> list[int]:
        """The members of `pool` that are neither `old`, nor a copy of new, nor a copy of `old` (`old_row`: its
        row, None when old is not a member: then `near_copy` is asked)."""
        found = []
        for member in pool:
            features = self.members[member]
            if features is old or self.copies[member, len(self.members)]:
                continue
            if old_row is not None:
                if self.copies[member, old_row]:
                    continue
            elif near_copy(features, old):
                continue
            found.append(member)
        return found
