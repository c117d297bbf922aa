"""Run keys, and the run lifecycle against a real Redis: join, start atomically, finish, abandon, re-seed."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from newscorpus.crawler.distributed.keys import RUN_TTL_SECONDS, SiteKeys
from newscorpus.crawler.distributed.runs import (
    DERIVATION_DONE,
    claim_derivation,
    derivation_done,
    finish_run,
    join_or_start_run,
    may_close,
    report_activity,
    run_state,
    start_new_run,
)


def test_keys_are_per_site_and_per_run():
    site = SiteKeys("中文站".encode().hex(), "newscorpus")
    first, second = site.run("r1"), site.run("r2")
    assert site.current_run == f"newscorpus:{site.site}:run"
    assert first.requests == f"newscorpus:{site.site}:r1:requests"
    assert set(first.all()).isdisjoint(second.all())
    assert all(key.startswith(site.base) for key in first.all())
    assert SiteKeys("other").run("r1").dupefilter != first.dupefilter


def test_a_bad_key_prefix_names_the_setting():
    with pytest.raises(ValueError, match="NEWSCORPUS_REDIS_KEY_PREFIX"):
        SiteKeys("demo", "bad%(spider)s")


def test_one_worker_of_a_run_derives_it_and_a_dead_holder_is_taken_over(redis_server, key_prefix, site_name):
    run = SiteKeys(site_name, key_prefix).run("r1")
    now = time.time()
    for worker in ("w1", "w2", "w3"):
        redis_server.hset(run.alive, worker, repr(now))
    with ThreadPoolExecutor(3) as pool:
        holders = list(pool.map(lambda worker: claim_derivation(redis_server, run, worker, now, 30),
                                ("w1", "w2", "w3")))
    assert len(set(holders)) == 1 and holders[0] in ("w1", "w2", "w3")   # every worker names the same one
    holder = holders[0]
    other = next(worker for worker in ("w1", "w2", "w3") if worker != holder)
    assert claim_derivation(redis_server, run, holder, now + 1, 30) == holder   # asked again: still its own
    redis_server.hset(run.alive, holder, repr(now - 31))                        # the holder stopped beating
    assert claim_derivation(redis_server, run, other, now, 30) == other         # taken over
    derivation_done(redis_server, run)
    assert claim_derivation(redis_server, run, holder, now, 30) == DERIVATION_DONE
    assert 0 < redis_server.ttl(run.derivation) <= RUN_TTL_SECONDS


def test_workers_starting_together_agree_on_one_run(redis_server, key_prefix, site_name):
    site = SiteKeys(site_name, key_prefix)
    with ThreadPoolExecutor(8) as pool:
        runs = list(pool.map(lambda n: join_or_start_run(redis_server, site, f"w{n}", idle_seconds=5), range(8)))
    assert len({run.run_id for run in runs}) == 1
    assert sum(run.started_now for run in runs) == 1
    assert set(redis_server.hkeys(runs[0].keys.workers)) == {f"w{n}".encode() for n in range(8)}
    assert 0 < redis_server.ttl(runs[0].keys.started) <= RUN_TTL_SECONDS


def test_a_finished_run_is_not_joined(redis_server, key_prefix, site_name):
    site = SiteKeys(site_name, key_prefix)
    first = join_or_start_run(redis_server, site, "w1", idle_seconds=5)
    finish_run(redis_server, first.keys)
    second = join_or_start_run(redis_server, site, "w2", idle_seconds=5)
    assert second.started_now and second.run_id != first.run_id


def test_an_abandoned_run_is_replaced_but_a_run_with_queued_requests_is_resumed(redis_server, key_prefix,
                                                                                  site_name):
    site = SiteKeys(site_name, key_prefix)
    first = join_or_start_run(redis_server, site, "killed", idle_seconds=0.2)
    redis_server.zadd(first.keys.requests, {b"request": 0})
    time.sleep(0.3)
    resumed = join_or_start_run(redis_server, site, "w2", idle_seconds=0.2)
    assert resumed.run_id == first.run_id and not resumed.started_now  # its queue still holds work
    redis_server.delete(first.keys.requests)
    time.sleep(0.3)
    replaced = join_or_start_run(redis_server, site, "w3", idle_seconds=0.2)
    assert replaced.started_now and replaced.run_id != first.run_id
    assert run_state(redis_server, first.keys).finished


def test_seeding_starts_a_new_run_even_while_one_is_live(redis_server, key_prefix, site_name):
    site = SiteKeys(site_name, key_prefix)
    live = join_or_start_run(redis_server, site, "w1", idle_seconds=60)
    seeded = start_new_run(redis_server, site)
    assert seeded.started_now and seeded.run_id != live.run_id
    assert run_state(redis_server, live.keys).finished
    assert join_or_start_run(redis_server, site, "w2", idle_seconds=60).run_id == seeded.run_id


def test_heartbeats_renew_every_run_key_and_report_the_newest_activity(redis_server, key_prefix, site_name):
    site = SiteKeys(site_name, key_prefix)
    run = join_or_start_run(redis_server, site, "w1", idle_seconds=5, ttl=100)
    redis_server.sadd(run.keys.dupefilter, "fingerprint")
    redis_server.zadd(run.keys.requests, {b"request": 0})
    now = time.time()
    state = report_activity(redis_server, run.keys, "w2", now - 30, ttl=50)
    assert state.queued == 1 and not state.finished
    assert state.last_activity >= now - 1  # w1 joined just now
    assert 0 < redis_server.ttl(run.keys.dupefilter) <= 50
    assert 0 < redis_server.ttl(run.keys.requests) <= 50


@pytest.mark.parametrize(("queued", "idle_for", "finished", "expected"), [
    (0, 11, False, True),     # empty and quiet for longer than the idle time
    (0, 3, False, False),     # a worker was active 3 s ago: it may still push requests
    (5, 60, False, False),    # requests left (a killed worker's heartbeat is old, but the queue is not empty)
    (5, 0, True, True),       # another worker finished the run
])
def test_the_close_rule(queued, idle_for, finished, expected):
    from newscorpus.crawler.distributed.runs import RunState

    assert may_close(RunState(queued, 1000.0 - idle_for, finished), 1000.0, idle_seconds=10) is expected
