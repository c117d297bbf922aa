"""CPU per document of the near-duplicate features in two versions of the code, in one process, document by document
alternating (A/B): what benchmarks/near_duplicate_throughput.py counts as "features" (source_hash,
segmentation_language, build_features) over the dedup dev set.

Usage: .venv/bin/python benchmarks/near_duplicate_features_ab.py --other CHECKOUT [--rounds R] [--docs DOCS.jsonl]

CHECKOUT is another checkout of the project (`git worktree add --detach /tmp/x-main main`), imported beside this one
as `newscorpus_other` (benchmarks/extraction_cpu_ab.py's copy). Each version computes every document once untimed
first (jieba's dictionary, the memos) and the features of both are compared (`repr`, every field); then each round
times both on each document in turn (the first of the two alternates) with `time.process_time`, summed per version:
the machine's load and frequency weigh on both alike, which separate runs minutes apart do not give (the throughput
benchmark's features figure moves by a third between runs of the same code).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.extraction_cpu_ab import copy_other  # noqa: E402 - the project root first on sys.path
from newscorpus.core.jieba_import import import_jieba  # noqa: E402

TOKENIZER_MEMOS = ("trie_block_words", "trie_start_memo")  # what newscorpus.core.jieba_trie keeps on a tokenizer


def _swap_memos(tokenizer, memos: dict) -> None:  # noqa: ANN001 - a jieba Tokenizer
    """Give the tokenizer these memos (a version's own), none where the version has none yet."""
    for key in TOKENIZER_MEMOS:
        if key in memos:
            tokenizer.__dict__[key] = memos[key]
        else:
            tokenizer.__dict__.pop(key, None)


def _version(package: str):  # noqa: ANN202 - (build_features, config, segmentation_language, source_hash)
    from importlib import import_module

    near_duplicate = import_module(f"{package}.core.near_duplicate")
    return (near_duplicate.build_features, near_duplicate.NearDuplicateConfig(),
            import_module(f"{package}.core.keywords").segmentation_language,
            import_module(f"{package}.core.text").source_hash)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, type=Path, help="another checkout of the project")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--docs", default="../shared/data/dedup/docs.jsonl")
    args = parser.parse_args()
    with Path(args.docs).open(encoding="utf-8") as lines:
        docs = [json.loads(line) for line in lines]
    with tempfile.TemporaryDirectory() as scratch:
        copy_other(args.other, Path(scratch))
        versions = {"other": _version("newscorpus_other"), "this": _version("newscorpus")}
        tokenizer = import_jieba().dt  # one tokenizer (jieba's default) serves both versions
        built = {}
        # Each version with memos of its own: a version's memo holds its own module's markers (jieba_trie._SEVERAL),
        # which the other's code does not know (with one memo for both this failed on main at eec6578).
        for name, (build, config, language, _) in versions.items():
            _swap_memos(tokenizer, {})
            built[name] = [build(d["title"], d["body"], language(d["body"]), config) for d in docs]
        same = all(repr(a) == repr(b) for a, b in zip(built["other"], built["this"], strict=True))
        print(f"features of both versions equal (repr) on {len(docs)} documents: {same}")
        for number in range(args.rounds):
            # Each round a stream seen first (as a crawl's): what jieba_trie remembers of Chinese text (each block's
            # words, each character pair's start, kept on the tokenizer) starts empty, else every block of a round
            # would be one already cut; and each version has its own, else the second on a document would find the
            # first's blocks.
            memos: dict[str, dict] = {name: {} for name in versions}
            spent = dict.fromkeys(versions, 0.0)
            for i, doc in enumerate(docs):
                for name in (("other", "this") if (i + number) % 2 == 0 else ("this", "other")):
                    build, config, language, text_hash = versions[name]
                    _swap_memos(tokenizer, memos[name])
                    start = time.process_time()
                    text_hash(doc["title"], doc["body"])
                    build(doc["title"], doc["body"], language(doc["body"]), config)
                    spent[name] += time.process_time() - start
                    memos[name] = {key: tokenizer.__dict__[key] for key in TOKENIZER_MEMOS if key in tokenizer.__dict__}
            other, this = (spent[name] * 1e3 / len(docs) for name in ("other", "this"))
            print(f"round {number + 1}: other {other:.3f} ms/doc, this {this:.3f} ms/doc, this / other "
                  f"{this / other:.3f}", flush=True)


if __name__ == "__main__":
    main()
