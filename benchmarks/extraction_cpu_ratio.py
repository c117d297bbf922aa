"""CPU seconds per page of `extract` against `trafilatura.extract` on the same pages, in one process.

Usage: .venv/bin/python benchmarks/extraction_cpu_ratio.py [--every K] [--rounds R] DATA_DIR ...
Both systems get the page bytes and decode them with our decoder (trafilatura is given the decoded text, as in
`eval extraction`); CPU time (`time.process_time`) is summed per system over alternating rounds, so load from
other processes on the machine weighs on both alike. Reports pages per CPU-second and the ratio.
"""

from __future__ import annotations

import argparse
import time


def cpu_seconds(function, pages: list[bytes]) -> float:
    start = time.process_time()
    for page in pages:
        function(page)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dirs", nargs="+")
    parser.add_argument("--every", type=int, default=1, help="take every K-th page (a sample)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    import trafilatura

    from newscorpus.core.decoding import decode_html
    from newscorpus.core.extraction import extract
    from newscorpus.evaluation.extraction_eval import load_items

    items = load_items(args.data_dirs)[:: args.every]
    pages = [item.html_path.read_bytes() for item in items]

    def ours(page: bytes) -> None:
        extract(page)

    def theirs(page: bytes) -> None:
        trafilatura.extract(decode_html(page).text)

    totals = {"newscorpus": 0.0, "trafilatura": 0.0}
    for round_number in range(args.rounds):
        order = [("newscorpus", ours), ("trafilatura", theirs)]
        for name, function in order if round_number % 2 == 0 else order[::-1]:
            totals[name] += cpu_seconds(function, pages)
    done = len(pages) * args.rounds
    rates = {name: done / seconds for name, seconds in totals.items()}
    print(
        f"{len(pages)} pages x {args.rounds} rounds, CPU seconds: "
        + ", ".join(f"{k} {v:.1f}" for k, v in totals.items())
    )
    print(", ".join(f"{name} {rate:.1f} pages per CPU-second" for name, rate in rates.items()))
    print(f"ratio newscorpus / trafilatura: {rates['newscorpus'] / rates['trafilatura']:.2f}")


if __name__ == "__main__":
    main()
