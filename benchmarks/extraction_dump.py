"""Every field of `extract` and of the site-aware cascade for every page of labelled sets, as JSON lines: run it on
two versions of the code and compare the files to show that a speed change left the output as it was.

Usage: .venv/bin/python benchmarks/extraction_dump.py OUT.jsonl DATA_DIR ...
The time cap is lifted (1,000 s per page) so that a slow moment of the machine cannot turn a page into a timeout.
The cascade sees the pages in the sets' order, learning as in a crawl.
"""

from __future__ import annotations

import argparse
import dataclasses
import json

NO_CAP_SECONDS = 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("data_dirs", nargs="+")
    args = parser.parse_args()

    from newscorpus.core.extraction import extract
    from newscorpus.core.site_aware.cascade import SiteAwareExtractor
    from newscorpus.evaluation.extraction_eval import load_items

    cascade = SiteAwareExtractor()
    with open(args.out, "w", encoding="utf-8") as out:
        for item in load_items(args.data_dirs):
            page = item.html_path.read_bytes()
            results = {
                "generic": extract(page, item.url, max_seconds=NO_CAP_SECONDS),
                "cascade": cascade.extract(page, item.url, max_seconds=NO_CAP_SECONDS),
            }
            for kind, result in results.items():
                record = {"set": item.dataset, "stem": item.stem, "kind": kind, **dataclasses.asdict(result)}
                out.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")


if __name__ == "__main__":
    main()
