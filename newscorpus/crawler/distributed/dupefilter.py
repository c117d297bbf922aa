"""scrapy-redis's duplicate filter on one run's key, which expires with the run (bounded across builds)."""

from __future__ import annotations

import redis
from scrapy_redis.dupefilter import RFPDupeFilter

from newscorpus.crawler.distributed.keys import RUN_TTL_SECONDS


class RunDupeFilter(RFPDupeFilter):
    """Fingerprints of the requests of one run, shared by every worker of the run.

    Built by :class:`newscorpus.crawler.distributed.scheduler.RunScheduler` once the run is known; each add also renews
    the key's TTL (same round trip), so a run's filter lives while the run does and vanishes a TTL later.
    """

    def __init__(self, server: redis.Redis, key: str, ttl_seconds: int = RUN_TTL_SECONDS, debug: bool = False):
        super().__init__(server, key, debug=debug)
        self.ttl_seconds = ttl_seconds

    @classmethod
    def from_crawler(cls, crawler):
        raise TypeError("RunDupeFilter is built by newscorpus.crawler.distributed.scheduler.RunScheduler, "
                        "not by Scrapy")

    def request_seen(self, request) -> bool:
        pipe = self.server.pipeline(transaction=False)
        pipe.sadd(self.key, self.request_fingerprint(request))
        pipe.expire(self.key, self.ttl_seconds)
        added, _ = pipe.execute()
        return added == 0

    def close(self, reason: str = "") -> None:
        """Keep the fingerprints: the other workers of the run still use them (scrapy-redis deletes them)."""

    def size(self) -> int:
        return self.server.scard(self.key)
