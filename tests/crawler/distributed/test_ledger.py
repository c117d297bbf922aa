"""The frontier's ledger on a real Redis: a pop moves the request into the worker's ledger, an acknowledgement
removes it, and a worker not heard of for the lease has its requests put back, with their priorities, once."""

from __future__ import annotations

from newscorpus.crawler.distributed.keys import SiteKeys
from newscorpus.crawler.distributed.ledger import LEDGER_ID, acknowledge, heartbeat_and_reclaim, in_flight, leave
from newscorpus.crawler.distributed.runs import join_or_start_run
from newscorpus.crawler.distributed.scheduler import RunScheduler
from newscorpus.crawler.distributed.seeding import seed_requests, seed_run
from newscorpus.crawler.runner import project_settings
from tests.crawler.distributed.test_scheduler import demo_config

LEASE = 10.0


def worker(redis_server, site: SiteKeys, spider, worker_id: str) -> RunScheduler:
    scheduler = RunScheduler(redis_server, key_prefix=site.prefix, worker_id=worker_id)
    scheduler.open_run(spider, join_or_start_run(redis_server, site, worker_id, LEASE))
    return scheduler


def test_a_dead_workers_requests_go_back_once_with_their_priorities(redis_server, key_prefix, site_name):
    settings = project_settings()
    config = demo_config(site_name)
    seed_run(config, redis_server, settings, key_prefix=key_prefix)   # sitemap and feed (priority 10), home (5)
    site = SiteKeys(site_name, key_prefix)
    spider, _ = seed_requests(config, settings)
    dead, alive, other = (worker(redis_server, site, spider, name) for name in ("dead", "alive", "other"))
    keys = dead.run.keys
    for name in ("dead", "alive", "other"):
        heartbeat_and_reclaim(redis_server, keys, name, 1000.0, LEASE, 3600)
    taken = [dead.next_request(), dead.next_request()]
    assert all(request.meta[LEDGER_ID] for request in taken)
    assert len(dead) == 1 and in_flight(redis_server, keys) == 2           # popped, not lost
    acknowledge(redis_server, keys, "dead", [taken[1].meta[LEDGER_ID]])
    assert in_flight(redis_server, keys) == 1

    within = heartbeat_and_reclaim(redis_server, keys, "alive", 1000.0 + LEASE - 1, LEASE, 3600)
    assert (within.reclaimed, within.elsewhere) == (0, 1)                  # still alive: waited for
    late = heartbeat_and_reclaim(redis_server, keys, "alive", 1000.0 + LEASE + 1, LEASE, 3600)
    again = heartbeat_and_reclaim(redis_server, keys, "other", 1000.0 + LEASE + 1, LEASE, 3600)
    assert late.reclaimed == 1 and again.reclaimed == 0                    # put back by one worker only
    assert in_flight(redis_server, keys) == 0 and len(alive) == 2
    first = alive.next_request()
    assert first.url == taken[0].url                                       # priority 10 before the home page
    assert alive.next_request().url.endswith("/")
    leave(redis_server, keys, "alive")
    assert in_flight(redis_server, keys) == 0
