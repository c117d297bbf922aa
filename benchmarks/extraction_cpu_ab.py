"""CPU per page of `extract` in two versions of the code, in one process, page by page alternating (A/B).

Usage: .venv/bin/python benchmarks/extraction_cpu_ab.py --other CHECKOUT [--every K] [--rounds R] [--trafilatura] \
    DATA_DIR ...
CHECKOUT is another checkout of the project (`git worktree add --detach /tmp/x-main main`); its `newscorpus` package
is copied to a temporary directory as `newscorpus_other` (its imports renamed, and the name of the codec error handler
it registers process-wide, so that each copy keeps its own) and imported beside this one. Each page
is extracted by both versions in turn (the first of the two alternates), and `time.process_time` around each call is
summed per version: load from other processes, cache and frequency changes weigh on both alike, which separate runs
minutes apart on a shared machine do not give (their figures move by ±5% between runs of the same code). With
--trafilatura, `trafilatura.extract` runs on each page too and both ratios are printed. Both versions
must give the same output for the comparison to mean anything: check with benchmarks/extraction_dump.py.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

_IMPORT = re.compile(r"\bnewscorpus(?=[.\s])")
WARM_UP_PAGES = 20  # untimed, each version: module state and caches set up before the clock runs
_GLOBAL_NAMES = ("newscorpus-count-invalid",)  # names a copy registers in the process (decoding.py's error handler)


def import_other(checkout: Path, into: Path):
    """The other checkout's `extract`, from a renamed copy of its package."""
    copy_other(checkout, into)
    from newscorpus_other.core.extraction import extract  # noqa: PLC0415 - imported from the copy made above

    return extract


def copy_other(checkout: Path, into: Path) -> None:
    """The other checkout's `newscorpus` package copied into `into` as `newscorpus_other` (imports and process-wide
    names renamed), `into` put first on sys.path (benchmarks/near_duplicate_features_ab.py uses it too)."""
    target = into / "newscorpus_other"
    shutil.copytree(checkout / "newscorpus", target)
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in _GLOBAL_NAMES:
            text = text.replace(name, name.replace("newscorpus", "newscorpus_other"))
        renamed = "\n".join(_IMPORT.sub("newscorpus_other", line) if line.lstrip().startswith(("from ", "import "))
                            else line for line in text.split("\n"))
        path.write_text(renamed, encoding="utf-8")
    sys.path.insert(0, str(into))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dirs", nargs="+")
    parser.add_argument("--other", required=True, type=Path, help="another checkout of the project")
    parser.add_argument("--every", type=int, default=2, help="take every K-th page (a sample)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--trafilatura", action="store_true", help="time trafilatura.extract on each page too")
    args = parser.parse_args()

    from newscorpus.core.decoding import decode_html
    from newscorpus.core.extraction import extract
    from newscorpus.evaluation.extraction_eval import load_items

    with tempfile.TemporaryDirectory() as scratch:
        other = import_other(args.other, Path(scratch))
        pages = [item.html_path.read_bytes() for item in load_items(args.data_dirs)[:: args.every]]
        functions = {"this": extract, "other": other}
        if args.trafilatura:
            import trafilatura

            functions["trafilatura"] = lambda page: trafilatura.extract(decode_html(page).text)
        # What the extraction imports on first need (htmldate for a page without a date, charset_normalizer for one
        # without a usable charset) is imported once for both copies: untimed here, not in the first copy's call.
        import charset_normalizer  # noqa: F401
        import htmldate  # noqa: F401

        for page in pages[:WARM_UP_PAGES]:
            for function in functions.values():
                function(page)
        totals = dict.fromkeys(functions, 0.0)
        for round_number in range(args.rounds):
            for number, page in enumerate(pages):
                names = ["this", "other"] if (number + round_number) % 2 == 0 else ["other", "this"]
                for name in names + (["trafilatura"] if args.trafilatura else []):
                    start = time.process_time()
                    functions[name](page)
                    totals[name] += time.process_time() - start
    done = len(pages) * args.rounds
    print(f"{len(pages)} pages x {args.rounds} rounds, CPU ms/page: "
          + ", ".join(f"{name} {seconds / done * 1000:.3f}" for name, seconds in totals.items()))
    print(f"this / other CPU: {totals['this'] / totals['other']:.3f}")
    if args.trafilatura:
        print(f"ratio to trafilatura, pages per CPU-second: this {totals['trafilatura'] / totals['this']:.2f}, "
              f"other {totals['trafilatura'] / totals['other']:.2f}")


if __name__ == "__main__":
    main()
