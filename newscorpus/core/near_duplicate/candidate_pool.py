"""One article's candidates compared with each other and with it at once: which pairs are copies of one text, which
of the new article's sketch hashes each candidate holds, and so the new article's text that other candidates from a
pair's sites hold (`near_duplicate.decide` leaves it out of the pair's body measures). Asked pair by pair that is
900 pair checks and 30 set unions per article (30 candidates); here it comes from a few array operations over the
candidates' sketches, with the same answers (tests/core/near_duplicate/test_fast_forms.py compares them with the
plain pair-by-pair forms of tests/core/reference/near_duplicate.py)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from newscorpus.core.near_duplicate.features import DocumentFeatures
from newscorpus.core.near_duplicate.shingle_sketch import resemblance


class CandidatePool:
    """Row i < len(olds) is olds[i] (the candidates judged, in their order; the same object may come twice), the
    last row is `new`. Members: the olds whose site is known."""

    def __init__(self, new: DocumentFeatures, olds: Sequence[DocumentFeatures], simhash_distance: int,
                 copy_jaccard: float):
        self.new = new
        self.olds = list(olds)
        self.simhash_distance = simhash_distance
        self.copy_jaccard = copy_jaccard
        self.rows = [*self.olds, new]
        arrays = [features.sketch.hash_array for features in self.rows]
        self.sizes = np.array([len(a) for a in arrays])
        self.flat = np.concatenate(arrays)
        # holds[i, j]: row i holds new's j-th hash; below[i, j] where row i holds it: row i's hashes that new does not
        # hold and that are smaller than new's j-th hash (its place in row i less the row's hashes before it that new
        # holds); 0 where row i does not hold it. Only the row hashes whose low bits some hash of new has are looked
        # up in new's (sorted) hashes, about one in seven on the demo crawl: several times cheaper than a binary
        # search of every row hash (benchmarks/near_duplicate_decide.py; test_fast_forms.py compares the two).
        new_hashes = arrays[-1]
        count = len(new_hashes)
        self.holds = np.zeros((len(self.rows), count), dtype=bool)
        self.below = np.zeros((len(self.rows), count), dtype=np.int64)
        if not count:
            return
        seen = np.zeros(LOW_BITS_TABLE, dtype=bool)
        seen[new_hashes & (LOW_BITS_TABLE - 1)] = True
        where = np.flatnonzero(seen[self.flat & (LOW_BITS_TABLE - 1)])  # ascending: row by row, each row ascending
        looked_up = self.flat[where]
        at = np.minimum(np.searchsorted(new_hashes, looked_up), count - 1)
        found = new_hashes[at] == looked_up
        where, at = where[found], at[found]
        starts = np.cumsum(self.sizes) - self.sizes
        owner = np.searchsorted(starts, where, side="right") - 1  # an empty row's start is its next row's
        # A row's held hashes are consecutive in `where`: the k-th of its row has k held hashes before it.
        held_before = np.arange(len(where)) - np.searchsorted(where, starts)[owner]
        place = owner * count + at
        self.holds.reshape(-1)[place] = True
        self.below.reshape(-1)[place] = where - starts[owner] - held_before

    @cached_property
    def owners(self) -> np.ndarray:
        """owners[k]: the row of flat[k]."""
        return np.repeat(np.arange(len(self.rows)), self.sizes)

    @cached_property
    def in_new(self) -> np.ndarray:
        """in_new[k]: new holds flat[k]."""
        new_hashes = self.rows[-1].sketch.hash_array
        if not len(new_hashes):
            return np.zeros(len(self.flat), dtype=bool)
        at = np.minimum(np.searchsorted(new_hashes, self.flat), len(new_hashes) - 1)
        return new_hashes[at] == self.flat

    def left_out(self) -> np.ndarray:
        """left_out[c, j]: new's j-th hash is held by one of olds[c]'s `others` (the members from old's or new's
        site that are neither old itself nor a copy of either article): that site's text, not the pair's story."""
        count = len(self.olds)
        left_out = np.zeros((count, self.holds.shape[1]), dtype=bool)
        # A lone candidate has no others (about one decision in five of benchmarks/near_duplicate_throughput.py).
        # Only a member holding some of new's hashes can leave any out: the others are neither asked whether they
        # are copies nor ORed in (no pairwise work at all when no member holds any).
        if count < 2 or not left_out.size:
            return left_out
        member = np.array([features.site is not None for features in self.olds], dtype=bool)
        member &= self.holds[:count].any(axis=1)
        if not member.any():
            return left_out
        copies = self._copies(member)
        codes: dict = {}
        site = np.array([codes.setdefault(f.site, len(codes)) if f.site is not None else -1 for f in self.olds])
        new_site = codes.get(self.new.site, -2) if self.new.site is not None else -2
        identity = np.array([id(features) for features in self.olds])
        others = member[None, :] & ((site[None, :] == site[:, None]) | (site[None, :] == new_site))
        others &= identity[None, :] != identity[:, None]
        others &= ~copies[:count, count][None, :] & ~copies[:count, :count].T
        # The union as a product: the others holding each of new's hashes counted (float32 counts are exact up to
        # 2**24 rows); a few times cheaper than an OR of packed bit rows (benchmarks/near_duplicate_decide.py).
        holding = self.holds[:count].astype(np.float32)
        for part in _parts(count, count):
            left_out[part] = others[part].astype(np.float32) @ holding > 0
        return left_out

    def _shared(self) -> np.ndarray:
        """shared[i, j]: hashes rows i and j both hold (the diagonal: the row's own count), as bit rows ANDed and
        popcounted: new's hashes (`holds`), then the other hashes two or more rows hold (found by a sort). An int32
        incidence product would be several times slower (benchmarks/near_duplicate_decide.py)."""
        rows, count = self.holds.shape
        outside = self.flat[~self.in_new]
        order = np.argsort(outside, kind="stable")  # the rows are sorted runs: a merge, ~5x faster than quicksort
        ordered = outside[order]
        first = np.concatenate(([True], ordered[1:] != ordered[:-1]))[: len(ordered)]
        column = np.cumsum(first) - 1  # the distinct hash of each sorted position
        is_common = np.bincount(column) >= 2
        common = is_common[column]
        start = -(-count // 64) * 64  # whole 64-bit words a row: new's hashes, then the common others
        width = start + -(-int(is_common.sum()) // 64) * 64
        incidence = np.zeros((rows, width), dtype=bool)
        incidence[:, :count] = self.holds
        owners = self.owners[~self.in_new][order[common]]
        incidence.reshape(-1)[owners * width + start + (np.cumsum(is_common) - 1)[column[common]]] = True
        bits = np.packbits(incidence, axis=1).view(np.uint64)
        shared = np.zeros((rows, rows), dtype=np.int64)
        for part in _parts(rows, bits.size):
            shared[part] = np.bitwise_count(bits[part, None, :] & bits[None, :, :]).sum(axis=2, dtype=np.int64)
        np.fill_diagonal(shared, self.sizes)
        return shared

    def _shared_bound(self) -> np.ndarray:
        """bound[i, j] >= shared[i, j] (`_shared`), equal on the diagonal: two rows share only hashes that another row
        holds too, so the fewer such hashes of either row bounds the pair's count. A key of 32 bits holds the row's
        number and the hash's low bits (fewer the more rows), and the keys are sorted in one quicksort: a hash
        whose kept bits another position has too is counted as held twice (a superset of the hashes truly held
        twice: still a bound; 27 bits of the hashes with 31 rows: a chance pair of equal bits about one decision in
        four). Copies are rare, so the bound spares nearly every exact count, at a fraction of `_shared`'s cost;
        keys of 32 bits sort faster than keys of 64 (benchmarks/near_duplicate_decide.py)."""
        bits = max(1, (len(self.rows) - 1).bit_length())
        # The key: the hash's 32 - bits low bits, then the row; the hash's low 32 bits shifted left in uint32 drop
        # the others: one cast and two operations in place.
        keys = self.flat.astype(np.uint32)
        keys <<= bits
        keys |= self.owners.astype(np.uint32)
        keys.sort()
        prefixes = keys >> bits
        twice = prefixes[1:] == prefixes[:-1]
        held = np.zeros(len(keys), dtype=bool)
        held[1:] = twice
        held[:-1] |= twice
        common = np.bincount(keys[held] & ((1 << bits) - 1), minlength=len(self.rows))
        bound = np.minimum(common[:, None], common[None, :])
        np.fill_diagonal(bound, self.sizes)
        return bound

    def _shared_of(self, pairs: np.ndarray) -> np.ndarray:
        """`_shared` where `pairs` is True (elsewhere: no count, 0): pair by pair, a binary search of one sketch's
        hashes in the other's, or `_shared` whole when there are many such pairs."""
        upper = np.triu(pairs | pairs.T, k=1)  # the count is symmetric: one search a pair
        if int(upper.sum()) > EXACT_PAIRS:
            return self._shared()
        shared = np.zeros(pairs.shape, dtype=np.int64)
        for i, j in zip(*np.nonzero(upper), strict=True):
            first, second = self.rows[i].sketch.hash_array, self.rows[j].sketch.hash_array
            if len(first) and len(second):
                at = np.minimum(np.searchsorted(first, second), len(first) - 1)
                shared[i, j] = shared[j, i] = np.count_nonzero(first[at] == second)
        np.fill_diagonal(shared, self.sizes)
        return shared

    def _copies(self, member: np.ndarray) -> np.ndarray:
        """copies[i, j]: rows[i] and rows[j] are copies of one text, for every member row i (False in the other
        rows: never asked): row i has tokens and both have its body hash, or both fingerprints are within the simhash
        bound, or they share copy_jaccard of their sketches (near_duplicate.COPY_JACCARD)."""
        rows, count = self.rows, len(self.rows)
        hash_ids: dict[str, int] = {}
        body = np.array([hash_ids.setdefault(r.body_hash, len(hash_ids)) for r in rows])
        has_tokens = np.array([bool(r.token_count) for r in rows])
        copies = has_tokens[:, None] & (body[:, None] == body[None, :])
        known = np.array([r.simhash is not None for r in rows])
        fingerprints = np.array([r.simhash if r.simhash is not None else 0 for r in rows], dtype=np.uint64)
        distance = np.bitwise_count(fingerprints[:, None] ^ fingerprints[None, :])
        copies |= known[:, None] & known[None, :] & (distance <= self.simhash_distance)
        asked = np.append(member, False)
        copies &= asked[:, None]
        least = self.copy_jaccard * np.minimum(self.sizes[:, None], self.sizes[None, :])
        passing = ~copies & asked[:, None] & (self._shared_bound() >= least)
        if passing.any():  # the pairs the bound lets through, counted exactly
            passing &= self._shared_of(passing) >= least
        found: dict[tuple[int, int], bool] = {}  # the Jaccard estimate is symmetric: one resemblance a pair
        for i, j in zip(*np.nonzero(passing), strict=True):  # few: the pairs sharing most of their hashes
            key = (min(i, j), max(i, j))
            if key not in found:
                found[key] = resemblance(rows[i].sketch, rows[j].sketch).jaccard >= self.copy_jaccard
            copies[i, j] = found[key]
        assert copies.shape == (count, count)
        return copies


# Slots of the table of new's hashes' low bits (`CandidatePool.__init__`): a row hash not in new passes with odds
# ~256 / 16,384 (new's hashes over the slots), so few are looked up for nothing, and the table is cheap to zero.
# Faster than the search of every hash from 2 candidates on (benchmarks/near_duplicate_decide.py).
LOW_BITS_TABLE = 1 << 14

# Pairs counted one by one (`_shared_of`) before the whole pairwise count is cheaper: on the demo crawl's 31 rows the
# pair-by-pair count stays cheaper up to about 50 pairs (benchmarks/near_duplicate_decide.py).
EXACT_PAIRS = 40

# Elements of a pairwise temporary (rows x rows x words) made at once: 30 candidates need ~30k; an article with
# thousands of exact copies (a paywall notice's body) is done a slice of rows at a time, in ~32 MB of uint64.
PAIRWISE_ELEMENTS = 1 << 22


def _parts(rows: int, per_row: int) -> list[slice]:
    """Slices of `rows` rows, each a pairwise temporary of at most PAIRWISE_ELEMENTS (`per_row` elements a row)."""
    step = max(1, PAIRWISE_ELEMENTS // max(1, per_row))
    return [slice(start, start + step) for start in range(0, rows, step)]
