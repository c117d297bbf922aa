"""The fast forms of the near-duplicate decision (the candidates' arrays compared at once: candidate_pool,
resemblance) give what the plain pair-by-pair forms give (tests/core/reference/near_duplicate.py): the same
judgements, in the same order, with the same measures bit for bit, on generated candidate lists (site templates,
copies, empty sketches, mixed languages, unknown sites and fingerprints, sketches over SKETCH_SIZE)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from newscorpus.core.near_duplicate import candidate_pool
from newscorpus.core.near_duplicate.candidate_pool import CandidatePool
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.decision import COPY_JACCARD, _pool_judgements, decide
from newscorpus.core.near_duplicate.features import DocumentFeatures
from newscorpus.core.near_duplicate.shingle_sketch import SKETCH_SIZE, ShingleSketch, resemblance
from tests.core.reference import near_duplicate as reference

# --- generated candidate lists ----------------------------------------------------------------------------------

WORDS = [f"k{i}" for i in range(24)]


def sketch_of(body: set[int], rng: random.Random) -> ShingleSketch:
    """A bottom-k sketch of a body's shingle hashes, now and then longer than SKETCH_SIZE (a stored sketch)."""
    size = SKETCH_SIZE + rng.choice((0, 0, 0, 0, 40))
    return ShingleSketch(tuple(sorted(body)[:size]), len(body), len(body) + 4 if body else 0)


def body_of(template: list[int], story: list[int], rng: random.Random) -> set[int]:
    kind = rng.random()
    if kind < 0.05:
        return set()
    taken = set(rng.sample(template, int(len(template) * rng.uniform(0.3, 1.0))))
    taken |= set(rng.sample(story, int(len(story) * rng.uniform(0.2, 1.0))))
    return taken | {rng.getrandbits(63) for _ in range(rng.choice((0, 5, 60, 400)))}


def document(body: set[int], site, lang: str, rng: random.Random, body_hash: str | None = None,
             simhash: int | None = None) -> DocumentFeatures:
    sketch = sketch_of(body, rng)
    if simhash is None and rng.random() < 0.8:
        simhash = rng.getrandbits(64)
    return DocumentFeatures(
        lang=lang,
        keywords=frozenset(rng.sample(WORDS, rng.choice((0, 3, 8, 15)))),
        title_keywords=tuple(rng.choice(WORDS[:8]) for _ in range(rng.choice((0, 2, 4)))),
        simhash=simhash,
        sketch=sketch,
        body_hash=body_hash or f"b{rng.getrandbits(20)}",
        token_count=sketch.token_count,
        site=site,
        title_numbers=rng.choice(((), ("10",), ("2022",))),
    )


def copy_of(doc: DocumentFeatures, body: set[int], rng: random.Random) -> tuple[DocumentFeatures, set[int]]:
    """A copy: the same body hash, a fingerprint a few bits away, or a body sharing most of its shingles."""
    way = rng.randrange(4)
    changed = set(body)
    if way >= 2 and changed:
        dropped = rng.sample(sorted(changed), len(changed) // rng.choice((10, 20, 50, 1000)))
        changed = (changed - set(dropped)) | {rng.getrandbits(63) for _ in range(len(dropped) // 2)}
    simhash = None
    if way == 1 and doc.simhash is not None:
        simhash = doc.simhash ^ sum(1 << bit for bit in rng.sample(range(64), rng.randrange(5)))
    copied = document(changed, rng.choice((doc.site, doc.site, 1, 2, None)), doc.lang, rng,
                      body_hash=doc.body_hash if way == 0 else None, simhash=simhash)
    return copied, changed


def generated_case(seed: int) -> tuple[DocumentFeatures, list, NearDuplicateConfig]:
    rng = random.Random(seed)
    sites = [None, 1, 2, 3]
    templates = {site: [rng.getrandbits(63) for _ in range(rng.choice((0, 30, 150, 300)))] for site in sites}
    stories = [[rng.getrandbits(63) for _ in range(rng.choice((10, 80, 300, 600)))] for _ in range(4)]
    lang = rng.choice(("en", "zh"))
    made: list[tuple[DocumentFeatures, set[int]]] = []
    for _ in range(rng.randrange(0, 36)):
        roll = rng.random()
        if made and roll < 0.25:
            made.append(copy_of(*rng.choice(made), rng))
        elif made and roll < 0.3:
            made.append(rng.choice(made))  # the same object again
        else:
            site = rng.choice(sites)
            body = body_of(templates[site], rng.choice(stories), rng)
            made.append((document(body, site, lang if rng.random() < 0.85 else "zh" if lang == "en" else "en", rng),
                         body))
    if made and rng.random() < 0.5:
        new, _ = copy_of(*rng.choice(made), rng)
        new = replace(new, lang=lang, site=rng.choice(sites))
    else:
        site = rng.choice(sites)
        new = document(body_of(templates[site], rng.choice(stories), rng), site, lang, rng)
    config = NearDuplicateConfig(simhash_distance=rng.choice((1, 3, 3, 8)), overlap=rng.choice(("min", "jaccard")))
    return new, [(f"c{i}", doc) for i, (doc, _) in enumerate(made)], config


@pytest.mark.parametrize("block", range(8))
def test_decide_matches_the_pair_by_pair_form(block):
    site_text_seen = 0
    for seed in range(block * 60, block * 60 + 60):
        new, candidates, config = generated_case(seed)
        got = decide(new, candidates, config).judgements
        expected = reference.decide(new, candidates, config)
        assert repr(got) == repr(expected), seed  # repr: floats bit for bit, and their types
        site_text_seen += sum(j.measures.site_text > 0 for j in got)
    assert site_text_seen  # the generated lists do exercise the site text


def test_pool_shared_counts_are_the_sketches_intersections():
    for seed in range(0, 480, 7):
        new, candidates, _ = generated_case(seed)
        pool = CandidatePool(new, [old for _, old in candidates], 3, COPY_JACCARD)
        sets = [set(row.sketch.hashes) for row in pool.rows]
        assert pool._shared().tolist() == [[len(a & b) for b in sets] for a in sets], seed


def test_decide_in_slices_of_rows_matches_the_pair_by_pair_form(monkeypatch):
    """Pairwise temporaries over many candidates are made a slice of rows at a time: here a row at a time."""
    monkeypatch.setattr(candidate_pool, "PAIRWISE_ELEMENTS", 1)
    for seed in range(0, 480, 11):
        new, candidates, config = generated_case(seed)
        assert repr(decide(new, candidates, config).judgements) == repr(reference.decide(new, candidates, config)), seed


def test_a_lone_candidate_is_judged_as_the_pool_judges_it():
    """decide's path for one candidate (measure_pair) against the pool's path it skips, for every generated candidate
    taken alone, copies of the new article among them."""
    asked = 0
    for seed in range(0, 480, 5):
        new, candidates, config = generated_case(seed)
        for candidate in candidates:
            if candidate[1].lang != new.lang:
                continue
            got = decide(new, [candidate], config).judgements
            assert repr(got) == repr(_pool_judgements(new, [candidate], config)), seed
            asked += 1
    assert asked > 100


@pytest.mark.parametrize("exact_pairs", [0, 1, candidate_pool.EXACT_PAIRS, 10_000])
def test_copies_from_the_bound_are_those_of_the_whole_count(monkeypatch, exact_pairs):
    """The pairs `_shared_bound` lets through, counted pair by pair (`_shared_of`) or all at once, give the
    copies every pair's count gave; the bound is never under a pair's count."""
    import numpy as np

    monkeypatch.setattr(candidate_pool, "EXACT_PAIRS", exact_pairs)
    counted = 0
    for seed in range(480):
        new, candidates, _ = generated_case(seed)
        if len(candidates) < 2:
            continue
        pool = CandidatePool(new, [old for _, old in candidates], 3, COPY_JACCARD)
        assert (pool._shared_bound() >= pool._shared()).all(), seed
        member = np.array([old.site is not None for _, old in candidates], dtype=bool)
        assert pool._copies(member).tolist() == reference.copies_from_whole_count(pool, member), seed
        off = pool._shared_bound() >= COPY_JACCARD * np.minimum(pool.sizes[:, None], pool.sizes[None, :])
        np.fill_diagonal(off, False)
        counted += bool(off.any())
    assert counted > 20  # the generated copies do reach the exact count


def test_left_out_is_the_union_of_each_candidates_others():
    """left_out (a product of the others and the holdings) against the union of the others' hash sets, the others
    chosen as the plain decide chooses them."""
    config = NearDuplicateConfig(simhash_distance=3)
    left = 0
    for seed in range(0, 480, 3):
        new, candidates, _ = generated_case(seed)
        olds = [old for _, old in candidates if old.lang == new.lang]
        if len(olds) < 2:
            continue
        got = CandidatePool(new, olds, config.simhash_distance, COPY_JACCARD).left_out()
        new_hashes = list(new.sketch.hash_array.tolist())
        for c, old in enumerate(olds):
            others = [m for m in olds if m.site is not None and (m.site == old.site or m.site == new.site)
                      and m is not old and set(m.sketch.hashes) & set(new_hashes)
                      and not reference.near_copy(m, new, config) and not reference.near_copy(m, old, config)]
            union = set().union(*(set(m.sketch.hashes) for m in others))
            assert got[c].tolist() == [h in union for h in new_hashes], (seed, c)
            left += bool(union & set(new_hashes))
    assert left > 50


def _low_bits_twins(new: DocumentFeatures, rng: random.Random) -> DocumentFeatures:
    """A candidate whose hashes share the low bits of new's (and some of new's own): every one passes the pool's
    low-bits table, most are not new's."""
    low = candidate_pool.LOW_BITS_TABLE
    hashes = {h if rng.random() < 0.3 else (h + low * rng.randrange(1, 1 << 40)) % (1 << 63)
              for h in new.sketch.hashes}
    return replace(new, sketch=sketch_of(hashes, rng), site=2)


def test_pool_holds_and_below_are_those_of_a_search_of_every_hash():
    """holds, and below where a row holds new's hash (the only places resemblance_batch reads it; 0 elsewhere), as
    the binary search of every row hash gave them; the low bits table lets no row hash of new's through unseen."""

    rng = random.Random(8)
    checked = 0
    for seed in range(480):
        new, candidates, _ = generated_case(seed)
        olds = [old for _, old in candidates]
        if seed % 4 == 0 and new.sketch.hashes:
            olds += [_low_bits_twins(new, rng) for _ in range(3)]
        pool = CandidatePool(new, olds, 3, COPY_JACCARD)
        holds, below, in_new = reference.holds_and_below_by_search(pool)
        assert pool.holds.tolist() == holds.tolist(), seed
        assert (pool.below[holds] == below[holds]).all() and not pool.below[~holds].any(), seed
        assert pool.in_new.tolist() == in_new.tolist(), seed
        checked += int(holds[:-1].sum())
    assert checked > 10_000


def test_resemblances_at_once_are_those_of_resemblance_of_bit_for_bit(monkeypatch):
    """resemblance_batch's arithmetic on all pairs at once (numpy) against resemblance_of's one pair at a time (the
    path it keeps for few candidates and for counts past float64's integers), and against `resemblance` with the
    left-out hashes."""
    from newscorpus.core.near_duplicate import resemblance as resemblance_batch

    compared = 0
    for seed in range(0, 480, 2):
        new, candidates, _ = generated_case(seed)
        olds = [old for _, old in candidates if old.lang == new.lang]
        if len(olds) < 2:
            continue
        if seed % 6 == 0:  # shingle counts far past the sketch's (long bodies), and near float64's integers
            big = 10**15 if seed % 12 == 0 else 3 * 10**9
            olds = [replace(old, sketch=ShingleSketch(old.sketch.hashes, big + i, old.sketch.token_count))
                    for i, old in enumerate(olds)]
        pool = CandidatePool(new, olds, 3, COPY_JACCARD)
        left_out = pool.left_out()
        arguments = (new.sketch, [old.sketch for old in olds], pool.holds[:-1], pool.below[:-1], left_out)
        with monkeypatch.context() as patched:
            patched.setattr(resemblance_batch, "AT_ONCE_FROM", 0)  # every pool at once
            at_once = resemblance_batch.resemblances(*arguments)
        with monkeypatch.context() as patched:
            patched.setattr(resemblance_batch, "EXACT_PRODUCTS", 0)  # every pool one pair at a time
            one_by_one = resemblance_batch.resemblances(*arguments)
        assert repr(at_once) == repr(one_by_one), seed
        new_hashes = new.sketch.hash_array
        for old, got, left in zip(olds, at_once, left_out, strict=True):
            assert repr(got) == repr(resemblance(new.sketch, old.sketch, new_hashes[left])), seed
        compared += len(olds)
    assert compared > 1000
