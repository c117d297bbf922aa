"""Progress a person can follow: a tqdm bar with rates on a terminal, a log line every N seconds otherwise."""

from __future__ import annotations

import sys
import time
from datetime import datetime
from typing import TextIO

LOG_EVERY_SECONDS = 30.0  # under cron / systemd: often enough to see a crawl move, rare enough to read the log


class PhaseProgress:
    """One phase's progress: ``update(done, **counts)`` with the running total and any counters."""

    def __init__(self, reporter: ProgressReporter, name: str, unit: str, total: int | None):
        self.reporter, self.name, self.unit, self.total = reporter, name, unit, total
        self.started = time.monotonic()
        self.last_log = self.started
        self.done = 0
        self.counts: dict = {}
        self.bar = None
        if reporter.tty:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=name, unit=unit, file=reporter.stream, dynamic_ncols=True,
                            leave=True)

    def update(self, done: int, **counts) -> None:
        if self.bar is not None:
            self.bar.update(done - self.done)
            if counts:
                self.bar.set_postfix(counts, refresh=False)
        self.done, self.counts = done, counts
        now = time.monotonic()
        if self.bar is None and now - self.last_log >= self.reporter.every_seconds:
            self.last_log = now
            self.reporter.log(self._line(now))

    def _line(self, now: float) -> str:
        seconds = max(now - self.started, 1e-9)
        of_total = f"/{self.total}" if self.total is not None else ""
        extra = "".join(f", {key} {value}" for key, value in self.counts.items())
        return f"{self.name}: {self.done}{of_total} {self.unit} ({self.done / seconds:.1f}/s){extra}"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        else:
            self.reporter.log(self._line(time.monotonic()) + f" in {time.monotonic() - self.started:.1f}s")

    def __enter__(self) -> PhaseProgress:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class ProgressReporter:
    def __init__(self, stream: TextIO | None = None, every_seconds: float = LOG_EVERY_SECONDS,
                 tty: bool | None = None):
        self.stream = stream or sys.stderr
        self.every_seconds = every_seconds
        self.tty = self.stream.isatty() if tty is None else tty

    def log(self, message: str) -> None:
        line = f"{datetime.now():%Y-%m-%d %H:%M:%S} build: {message}"
        if self.tty:
            from tqdm import tqdm

            tqdm.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def phase(self, name: str, unit: str, total: int | None = None) -> PhaseProgress:
        return PhaseProgress(self, name, unit, total)
