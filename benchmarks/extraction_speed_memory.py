"""Peak RSS of `extract` on a 5 MB page and pages/s over a labelled set, single process.

Usage: .venv/bin/python benchmarks/extraction_speed_memory.py [DATA_DIR ...]
The 5 MB page is generated here (navigation + many Chinese and English paragraphs), not copied.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

TARGET_BYTES = 5_000_000

_CHILD = """
import resource, sys, time
from benchmarks.extraction_speed_memory import five_mb_page
from newscorpus.core.extraction import extract
page = five_mb_page()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
result = extract(page)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"5 MB page: {len(page):,} bytes, {seconds:.2f} s, reason={result.reason}, body {len(result.body):,} chars")
print(f"peak RSS {peak / 1024:.0f} MB (before extract {before / 1024:.0f} MB)")
"""


def five_mb_page() -> bytes:
    nav = "".join(f'<li><a href="/s/{i}">栏目 {i}</a></li>' for i in range(200))
    paragraph = (
        "<p>记者从有关部门获悉，今年以来全国各地积极推进重点项目建设，投资保持平稳增长。"
        "The council said on Tuesday that the new bridge would open next spring, officials added.</p>"
    )
    head = f"<html><head><meta charset='utf-8'><title>Test</title></head><body><ul>{nav}</ul><div class='content'>"
    tail = "</div></body></html>"
    count = (TARGET_BYTES - len(head) - len(tail)) // len(paragraph.encode("utf-8"))
    return (head + paragraph * count + tail).encode("utf-8")


def pages_per_second(directories: list[str]) -> None:
    from newscorpus.core.extraction import extract
    from newscorpus.evaluation.extraction_eval import load_items

    pages = [item.html_path.read_bytes() for item in load_items(directories)]
    start = time.perf_counter()
    for page in pages:
        extract(page)
    seconds = time.perf_counter() - start
    print(f"{len(pages)} pages in {seconds:.2f} s: {len(pages) / seconds:.1f} pages/s (1 process)")


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-c", _CHILD], check=True, cwd=root)
    if len(sys.argv) > 1:
        pages_per_second(sys.argv[1:])
    print(f"(this process peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
