"""CPU per decision of `near_duplicate.decide` in two versions of the code, in one process, decision by decision
alternating (A/B), on the decisions of the demo crawl's articles.

Usage: .venv/bin/python benchmarks/near_duplicate_decide.py --other CHECKOUT [--articles N] [--rounds R]
       [--docs ../shared/data/dedup/docs.jsonl]

The demo site's articles (newscorpus.demo.pages, one site) are decided in order against an in-memory index of the
articles before them, as the crawl's near-duplicate stage decides them against its table (30 candidates for all but
the first few). Each decision's inputs are kept, with every candidate's features made again as new objects of the
same values (the stage reads a batch's candidates from their rows anew: no object is shared between batches). Then
each round times `decide` of both versions on every decision in turn (the first of the two alternates) with
`time.process_time`, summed per version; the judgements of both are compared (`repr`) first. CHECKOUT is another
checkout of the project imported beside this one as `newscorpus_other` (benchmarks/extraction_cpu_ab.copy_other).

With --docs the documents of that JSONL file (id, lang, title, body; of no known site) are decided instead, in the
file's order: the dedup dev set's decisions have few candidates (most none or one), the demo's 30.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.extraction_cpu_ab import copy_other  # noqa: E402 - the project root first on sys.path


def decisions(count: int, docs: Path | None = None) -> list:
    """(new, candidates, config) of each demo article's decision (or each document's of `docs`), in crawl order,
    candidates as new objects."""
    import json

    from newscorpus.core.near_duplicate import index as near_duplicate_index
    from newscorpus.core.near_duplicate.config import NearDuplicateConfig
    from newscorpus.core.near_duplicate.features import build_features
    from newscorpus.core.near_duplicate.shingle_sketch import ShingleSketch
    from newscorpus.demo.pages import generate_articles

    config = NearDuplicateConfig()
    kept = []
    decide = near_duplicate_index.decide

    def keep(new, candidates, config):  # noqa: ANN001, ANN202 - decide's arguments, kept
        fresh = [(cid, replace(old, sketch=ShingleSketch.of_array(
            old.sketch.hash_array.copy(), old.sketch.shingle_count, old.sketch.token_count)))
            for cid, old in candidates]
        kept.append((new, fresh, config))
        return decide(new, candidates, config)

    near_duplicate_index.decide = keep
    try:
        index = near_duplicate_index.InMemoryNearDuplicateIndex(config.simhash_distance)
        if docs is None:
            articles = [(a.title, a.body, a.lang, 1) for a in generate_articles(count)]
        else:
            lines = docs.read_text(encoding="utf-8").splitlines()
            articles = [(d["title"], d["body"], d["lang"], None) for d in map(json.loads, filter(None, lines))]
        for number, (title, body, lang, site) in enumerate(articles):
            features = build_features(title, body, lang, config, site=site)
            near_duplicate_index.find_duplicates(features, index, config)
            index.add(number, features)
    finally:
        near_duplicate_index.decide = decide
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, type=Path, help="another checkout of the project")
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--docs", type=Path, help="a JSONL file of documents to decide instead of the demo's articles")
    args = parser.parse_args()
    kept = decisions(args.articles, args.docs)
    with tempfile.TemporaryDirectory() as scratch:
        copy_other(args.other, Path(scratch))
        from newscorpus_other.core.near_duplicate import decide as other

        from newscorpus.core.near_duplicate.decision import decide as this

        versions = {"other": other, "this": this}
        same = all(repr(other(*d).judgements) == repr(this(*d).judgements) for d in kept)
        full = sum(len(candidates) >= 30 for _, candidates, _ in kept)
        print(f"{len(kept)} decisions ({full} with 30 candidates or more); judgements of both equal (repr): {same}")
        for number in range(args.rounds):
            spent = dict.fromkeys(versions, 0.0)
            for i, decision in enumerate(kept):
                for name in (("other", "this") if (i + number) % 2 == 0 else ("this", "other")):
                    start = time.process_time()
                    versions[name](*decision)
                    spent[name] += time.process_time() - start
            per = {name: 1000 * spent[name] / len(kept) for name in versions}
            print(f"round {number + 1}: other {per['other']:.3f} ms/decision, this {per['this']:.3f}, "
                  f"this/other {per['this'] / per['other']:.3f}")


if __name__ == "__main__":
    main()
