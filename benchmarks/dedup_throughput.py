"""Documents/s through near-duplicate detection (keywords with jieba, simhash, sketch, candidates, decision)
against the in-memory index already holding 0, 10k and 100k synthetic articles.

The measured documents are the dev set's texts (only id, lang, title, body are read), streamed in file order
into an index pre-filled with synthetic articles. Synthetic keyword sets draw from the dev set's own keyword
vocabulary (Zipf-weighted, so common keywords get long postings) plus rare made-up words; their fingerprints
and sketches are random. CPU time of this process, i.e. per core.

    .venv/bin/python benchmarks/dedup_throughput.py [--docs ../shared/data/dedup/docs.jsonl] [--sizes 0,10000,100000]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from pipelines.core.dedup_index import InMemoryDedupIndex, find_duplicates
from pipelines.core.near_duplicate import DedupConfig, DocumentFeatures, build_features
from pipelines.core.shingle_sketch import SKETCH_SIZE, ShingleSketch

SEED = 20261122


def synthetic_features(count: int, vocabulary: list[str], rng: random.Random) -> list[DocumentFeatures]:
    zipf = [1 / (rank + 1) for rank in range(len(vocabulary))]
    sketches = [
        ShingleSketch(tuple(sorted(rng.getrandbits(63) for _ in range(SKETCH_SIZE))), 2000, 2004) for _ in range(64)
    ]
    made = []
    for i in range(count):
        shared = rng.choices(vocabulary, weights=zipf, k=10)
        own = [f"w{rng.randrange(count * 3)}" for _ in range(30)]
        made.append(
            DocumentFeatures(
                lang="zh" if i % 3 == 0 else "en",
                keywords=frozenset(shared + own),
                title_keywords=tuple(shared[:4]),
                simhash=rng.getrandbits(64),
                sketch=sketches[i % len(sketches)],
                body_hash=f"synthetic{i}",
                token_count=2004,
            )
        )
    return made


def measure(docs: list[dict], filler: list[DocumentFeatures], config: DedupConfig) -> dict[str, float]:
    index = InMemoryDedupIndex(config.simhash_distance)
    for i, features in enumerate(filler):
        index.add(f"s{i}", features)
    spent: dict[str, float] = {"zh": 0.0, "en": 0.0}
    for doc in docs:
        start = time.process_time()
        features = build_features(doc["title"], doc["body"], doc["lang"], config)
        find_duplicates(features, index, config)
        index.add(doc["id"], features)
        spent[doc["lang"]] += time.process_time() - start
    counts = {lang: sum(1 for d in docs if d["lang"] == lang) for lang in spent}
    result = {f"{lang} docs/s": counts[lang] / spent[lang] for lang in spent if spent[lang]}
    result["all docs/s"] = len(docs) / sum(spent.values())
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", default="../shared/data/dedup/docs.jsonl")
    parser.add_argument("--sizes", default="0,10000,100000")
    args = parser.parse_args()
    with Path(args.docs).open(encoding="utf-8") as lines:
        docs = [{k: row[k] for k in ("id", "lang", "title", "body")} for row in map(json.loads, lines)]
    config = DedupConfig()
    build_features("热身", "预热分词词典", "zh", config)  # jieba's one-off dictionary load is not counted
    vocabulary = sorted({k for d in docs for k in build_features(d["title"], d["body"], d["lang"], config).keywords})
    rng = random.Random(SEED)
    print("| indexed articles | zh docs/s | en docs/s | all docs/s |\n|---|---|---|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        result = measure(docs, synthetic_features(size, vocabulary, rng), config)
        print(f"| {size} | {result['zh docs/s']:.0f} | {result['en docs/s']:.0f} | {result['all docs/s']:.0f} |")


if __name__ == "__main__":
    main()
