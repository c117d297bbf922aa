"""CPU a fresh process spends on its first near-duplicate features, in two versions of the code: what a
crawl pays once (jieba's import and dictionary, the tables of body_text and simhash) on top of the
features' steady cost.

Usage: .venv/bin/python benchmarks/near_duplicate_startup.py --other CHECKOUT [--rounds R]

Each round starts one process per version (which first alternates), on its own import path (PYTHONPATH=CHECKOUT, run
from it, as benchmarks/crawl_rate.py --base-tree runs the old code), that imports numpy and the demo site's pages
(the crawl has them before its first article), then times with `time.process_time`: the import of
newscorpus.core.near_duplicate.decision, the features of the demo's first zh and first en article (the one-off work),
and the same two again (what they cost once warm). The first minus the second is the start-up; medians over rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, time
import numpy
from newscorpus.demo.pages import generate_articles
articles = list(generate_articles(40))
pair = [next(a for a in articles if a.lang == "zh"), next(a for a in articles if a.lang != "zh")]
start = time.process_time()
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import build_features
imported = time.process_time()
config = NearDuplicateConfig()
for article in pair:
    build_features(article.title, article.body, article.lang, config, site=1)
first = time.process_time()
for article in pair:
    build_features(article.title, article.body, article.lang, config, site=1)
again = time.process_time()
print(json.dumps({"import": imported - start, "first": first - imported, "again": again - first}))
"""


def probe(tree: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, type=Path, help="another checkout of the project")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    trees = {"other": args.other.resolve(), "this": PROJECT_ROOT}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for number in range(args.rounds):
        for name in (("other", "this") if number % 2 == 0 else ("this", "other")):
            runs[name].append(probe(trees[name]))
    for name, done in runs.items():
        import_ms = statistics.median(1000 * r["import"] for r in done)
        first_ms = statistics.median(1000 * r["first"] for r in done)
        startup_ms = statistics.median(1000 * (r["first"] - r["again"]) for r in done)
        print(f"{name}: import {import_ms:.1f} ms, first zh + en features {first_ms:.1f} ms, "
              f"of which start-up {startup_ms:.1f} ms (medians of {len(done)} processes)")


if __name__ == "__main__":
    main()
