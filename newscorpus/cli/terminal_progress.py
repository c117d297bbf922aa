"""Progress of long work (search indexing, evaluation runs, re-extraction) on stderr, only when stderr is a terminal:
a tqdm bar with counts and rates; nothing in pipes, logs and captured output (the first `search` on a fresh crawl
indexes for many seconds, and should not sit there without a word). Builds have their own reporter
(newscorpus.builds.progress)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def on_terminal() -> bool:
    return sys.stderr.isatty()


class Counter:
    """``update(done)`` with a running total; a bar on a terminal, nothing otherwise. ``unit``: singular."""

    def __init__(self, description: str, unit: str, total: int | None = None):
        self.bar = None
        if on_terminal():
            from tqdm import tqdm

            # A terminal that reports no size (a bare pseudo-terminal, `script`) would get a 0-column bar on
            # row 0 of 0, i.e. nothing: shutil falls back to $COLUMNS/$LINES, then to 100 x 24.
            size = shutil.get_terminal_size((100, 24))
            self.bar = tqdm(total=total, desc=description, unit=f" {unit}s", file=sys.stderr, ncols=size.columns,
                            nrows=size.lines, leave=False, mininterval=0.2)

    def update(self, done: int, **counts) -> None:
        if self.bar is not None:
            self.bar.update(done - self.bar.n)
            if counts:
                self.bar.set_postfix(counts, refresh=False)

    def note(self, line: str) -> None:
        """A line on stderr, above the bar when there is one (printed plainly, it would break the bar)."""
        if self.bar is not None:
            self.bar.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def __enter__(self) -> Counter:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def track(items: Iterable[T], description: str, unit: str) -> Iterator[T]:
    """``items``, with a bar while they are consumed when stderr is a terminal."""
    items = list(items)
    with Counter(description, unit, total=len(items)) as counter:
        for done, item in enumerate(items, 1):
            yield item
            counter.update(done)
