"""Every Redis key a distributed crawl uses, and their defaults, in one place.

One site has one pointer to its current run; each run has its own frontier, so a new run (a new build, or
`newscorpus seed`) starts with an empty duplicate filter and the old run's keys expire after RUN_TTL_SECONDS:
the duplicate filter is bounded by one run, not by the crawl's whole history.

    {prefix}:{site}:run                   current run id (string)
    {prefix}:{site}:{run}:requests        scrapy-redis priority queue (sorted set of pickled requests)
    {prefix}:{site}:{run}:dupefilter      request fingerprints seen in this run (set)
    {prefix}:{site}:{run}:workers         worker id -> unix time of its last activity (hash)
    {prefix}:{site}:{run}:started         unix time the run started
    {prefix}:{site}:{run}:seeded          "unix time, requests pushed" of `newscorpus seed`
    {prefix}:{site}:{run}:pages           page requests admitted to the queue (the run-wide max_pages)
    {prefix}:{site}:{run}:finished        unix time the run was finished (no worker joins it any more)
    {prefix}:{site}:{run}:alive           worker id -> unix time of its last heartbeat (hash)
    {prefix}:{site}:{run}:derivation      the worker deriving the run's articles at its close, then "done"
    {prefix}:{site}:{run}:inflight:{worker}  requests the worker popped and has not acknowledged (hash: ledger id
                                          -> "score encoded-request"), put back in the queue if the worker dies
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KEY_PREFIX = "newscorpus"              # NEWSCORPUS_REDIS_KEY_PREFIX's default
RUN_TTL_SECONDS = 7 * 24 * 3600        # a week: longer than any build, so a run is never cut off mid-crawl
KEY_PREFIX_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")   # no "%": scrapy-redis %-formats queue keys


@dataclass(frozen=True)
class RunKeys:
    """The keys of one run of one site."""

    site: str
    run_id: str
    base: str

    @property
    def requests(self) -> str:
        return f"{self.base}:requests"

    @property
    def dupefilter(self) -> str:
        return f"{self.base}:dupefilter"

    @property
    def workers(self) -> str:
        return f"{self.base}:workers"

    @property
    def started(self) -> str:
        return f"{self.base}:started"

    @property
    def seeded(self) -> str:
        return f"{self.base}:seeded"

    @property
    def pages(self) -> str:
        return f"{self.base}:pages"

    @property
    def finished(self) -> str:
        return f"{self.base}:finished"

    @property
    def alive(self) -> str:
        return f"{self.base}:alive"

    @property
    def derivation(self) -> str:
        return f"{self.base}:derivation"

    def inflight(self, worker_id: str) -> str:
        return f"{self.base}:inflight:{worker_id}"

    def all(self) -> tuple[str, ...]:
        return (self.requests, self.dupefilter, self.workers, self.started, self.seeded, self.pages, self.finished,
                self.alive, self.derivation)


@dataclass(frozen=True)
class SiteKeys:
    """The keys of one site: the current-run pointer, and each run's keys under ``{prefix}:{site}:``."""

    site: str
    prefix: str = KEY_PREFIX

    def __post_init__(self) -> None:
        if not KEY_PREFIX_PATTERN.match(self.prefix):
            raise ValueError(f"NEWSCORPUS_REDIS_KEY_PREFIX {self.prefix!r}: use 1-64 letters, digits, _ . : -")

    @property
    def base(self) -> str:
        return f"{self.prefix}:{self.site}:"

    @property
    def current_run(self) -> str:
        return f"{self.base}run"

    def run(self, run_id: str) -> RunKeys:
        return RunKeys(self.site, run_id, f"{self.base}{run_id}")

    @property
    def pattern(self) -> str:
        """SCAN pattern of every key of the site (tests clean up with it)."""
        return f"{self.base}*"
