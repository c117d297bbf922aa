"""Baseline near-duplicate methods for `newscorpus eval near-duplicate`, set up as ../shared/data/dedup/README.md.

- chunk-md5: MD5 of each normalised paragraph, same when ≥ 80% of the shorter document's paragraphs are
  shared (Forman et al., the classic method the research base compares against, at its 80% setting);
- simhash-k3 / simhash-k7: the `simhash` package over raw word counts (`\\w+` en, jieba words zh), same when
  Hamming ≤ 3 / ≤ 7, every same-language pair compared;
- minhash-lsh: datasketch MinHashLSH(threshold=0.5, num_perm=128) over 5-shingles, exact Jaccard ≥ 0.5.
Each takes documents (dicts with id, lang, body) in insertion order and returns the pairs judged same.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable

from newscorpus.core.near_duplicate.keywords import segment
from newscorpus.evaluation.pair_metrics import Pair, pair_key

CHUNK_SHARE = 0.8  # research base: "80% of the hash values the same"
MINHASH_THRESHOLD = 0.5  # data README baseline setting
MINHASH_PERMUTATIONS = 128
_WORD = re.compile(r"\w+")


def _paragraph_hashes(body: str) -> set[str]:
    lines = ("".join(_WORD.findall(unicodedata.normalize("NFKC", line).casefold())) for line in body.splitlines())
    return {hashlib.md5(line.encode()).hexdigest() for line in lines if line}


def chunk_md5(docs: list[dict]) -> set[Pair]:
    seen: dict[str, set[str]] = {}
    by_chunk: dict[str, list[str]] = defaultdict(list)
    same: set[Pair] = set()
    for doc in docs:
        chunks = _paragraph_hashes(doc["body"])
        shared = Counter(other for chunk in chunks for other in by_chunk[(doc["lang"], chunk)])
        for other, count in shared.items():
            if count >= CHUNK_SHARE * min(len(chunks), len(seen[other])):
                same.add(pair_key(doc["id"], other))
        seen[doc["id"]] = chunks
        for chunk in chunks:
            by_chunk[(doc["lang"], chunk)].append(doc["id"])
    return same


def _simhash_values(docs: list[dict]) -> list[tuple[str, str, int]]:
    from simhash import Simhash

    values = []
    for doc in docs:
        words = Counter(w.lower() for w in segment(doc["body"], doc["lang"]) if _WORD.search(w))
        # Raw counts as weights, split into parts ≤ 50: the package's per-feature path overflows a uint8
        # above that with numpy 2, and the sum of the parts is the same weight.
        features = [(w, min(50, n - done)) for w, n in words.items() for done in range(0, n, 50)]
        values.append((doc["id"], doc["lang"], Simhash(features, f=64).value))
    return values


def simhash_pairs(docs: list[dict], max_distances: tuple[int, ...] = (3, 7)) -> dict[int, set[Pair]]:
    """One pass for all distances: {distance: pairs}."""
    values = _simhash_values(docs)
    found: dict[int, set[Pair]] = {k: set() for k in max_distances}
    for i, (a, lang_a, va) in enumerate(values):
        for b, lang_b, vb in values[:i]:
            if lang_a == lang_b:
                distance = (va ^ vb).bit_count()
                for k in max_distances:
                    if distance <= k:
                        found[k].add(pair_key(a, b))
    return found


def _shingles(body: str, lang: str) -> set[str]:
    if lang == "zh":
        chars = "".join(_WORD.findall(body.lower()))
        return {chars[i : i + 5] for i in range(max(1, len(chars) - 4))}
    words = _WORD.findall(body.lower())
    return {" ".join(words[i : i + 5]) for i in range(max(1, len(words) - 4))}


def minhash_lsh(docs: list[dict]) -> set[Pair]:
    from datasketch import MinHash, MinHashLSH

    indexes: dict[str, MinHashLSH] = {}
    shingles: dict[str, set[str]] = {}
    same: set[Pair] = set()
    for doc in docs:
        own = shingles[doc["id"]] = _shingles(doc["body"], doc["lang"])
        signature = MinHash(num_perm=MINHASH_PERMUTATIONS)
        signature.update_batch([s.encode() for s in own])
        if doc["lang"] not in indexes:  # (building one is costly: datasketch integrates its parameters)
            indexes[doc["lang"]] = MinHashLSH(threshold=MINHASH_THRESHOLD, num_perm=MINHASH_PERMUTATIONS)
        lsh = indexes[doc["lang"]]
        for other in lsh.query(signature):
            theirs = shingles[other]
            if len(own & theirs) / len(own | theirs) >= MINHASH_THRESHOLD:
                same.add(pair_key(doc["id"], other))
        lsh.insert(doc["id"], signature)
    return same


def run_baselines(docs: list[dict], names: list[str], clock: Callable[[], float]) -> dict[str, tuple[set[Pair], float]]:
    """{name: (pairs judged same, seconds)}; the two simhash rows share one timed pass."""
    results: dict[str, tuple[set[Pair], float]] = {}
    for name, method in (("chunk-md5", chunk_md5), ("minhash-lsh", minhash_lsh)):
        if name in names:
            start = clock()
            results[name] = (method(docs), clock() - start)
    wanted = [k for k in (3, 7) if f"simhash-k{k}" in names]
    if wanted:
        start = clock()
        found = simhash_pairs(docs, tuple(wanted))
        for k in wanted:
            results[f"simhash-k{k}"] = (found[k], clock() - start)
    return results
