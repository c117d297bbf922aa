"""A site's current run: workers join it, `newscorpus seed` replaces it, the last idle worker finishes it.

A worker joins the current run while it is live: not finished, and its queue holds requests, or it started,
or a worker reported activity, less than ``idle_seconds`` ago. Otherwise (no run, a finished one, or one
every worker left, e.g. all killed) it starts a new run. The check and the switch are one Lua script, so
workers starting together agree on one run (the atomic form of ``SET run NX``).
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from dataclasses import dataclass

import redis

from newscorpus.crawler.distributed.keys import RUN_TTL_SECONDS, RunKeys, SiteKeys

# KEYS[1]: the site's current-run pointer. ARGV: site key base, new run id, worker id ("" = none), now,
# idle seconds, ttl seconds, force ("1": always start a new run, finishing the current one).
_JOIN_OR_START = """
local base, new_run, worker, now = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local idle, ttl, force = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7] == '1'
local current = redis.call('GET', KEYS[1])
if current then
  local run = base .. current
  if redis.call('EXISTS', run .. ':finished') == 0 then
    local live = redis.call('ZCARD', run .. ':requests') > 0
      or now - tonumber(redis.call('GET', run .. ':started') or '0') < idle
    if not live then
      for _, seen in ipairs(redis.call('HVALS', run .. ':workers')) do
        if now - tonumber(seen) < idle then live = true break end
      end
    end
    if live and not force then
      if worker ~= '' then
        redis.call('HSET', run .. ':workers', worker, ARGV[4])
        redis.call('EXPIRE', run .. ':workers', ttl)
      end
      return {current, 0}
    end
    redis.call('SET', run .. ':finished', ARGV[4], 'EX', ttl)
  end
end
local run = base .. new_run
redis.call('SET', KEYS[1], new_run)
redis.call('SET', run .. ':started', ARGV[4], 'EX', ttl)
if worker ~= '' then
  redis.call('HSET', run .. ':workers', worker, ARGV[4])
  redis.call('EXPIRE', run .. ':workers', ttl)
end
return {new_run, 1}
"""


@dataclass(frozen=True)
class Run:
    keys: RunKeys
    started_now: bool   # this call started the run (else it joined one)

    @property
    def run_id(self) -> str:
        return self.keys.run_id


@dataclass(frozen=True)
class RunState:
    queued: int              # requests waiting in the run's queue
    last_activity: float     # newest activity any worker reported (unix time; 0 = none)
    finished: bool


def new_run_id() -> str:
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "-" + uuid.uuid4().hex[:6]


def new_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:4]}"


def _join_or_start(server: redis.Redis, site: SiteKeys, worker_id: str, idle_seconds: float, ttl: int,
                   force: bool) -> Run:
    run_id, started = server.eval(
        _JOIN_OR_START, 1, site.current_run, site.base, new_run_id(), worker_id, repr(time.time()),
        repr(idle_seconds), str(ttl), "1" if force else "0",
    )
    run_id = run_id.decode() if isinstance(run_id, bytes) else run_id
    return Run(site.run(run_id), bool(started))


def join_or_start_run(server: redis.Redis, site: SiteKeys, worker_id: str, idle_seconds: float,
                      ttl: int = RUN_TTL_SECONDS) -> Run:
    """The live current run (joined), else a new one; ``worker_id`` is registered as active now."""
    return _join_or_start(server, site, worker_id, idle_seconds, ttl, force=False)


def start_new_run(server: redis.Redis, site: SiteKeys, ttl: int = RUN_TTL_SECONDS) -> Run:
    """A new run, whatever the current one is doing (`newscorpus seed`); the current one is marked finished.

    Workers still crawling the old run finish its queue; workers started from now on join the new one."""
    return _join_or_start(server, site, "", 0, ttl, force=True)


def current_run(server: redis.Redis, site: SiteKeys) -> RunKeys | None:
    run_id = server.get(site.current_run)
    if run_id is None:
        return None
    return site.run(run_id.decode() if isinstance(run_id, bytes) else run_id)


def report_activity(server: redis.Redis, run: RunKeys, worker_id: str, last_active: float,
                    ttl: int = RUN_TTL_SECONDS) -> RunState:
    """Record this worker's last activity, keep the run's keys alive, and read the run's state: one round trip."""
    pipe = server.pipeline(transaction=False)
    pipe.hset(run.workers, worker_id, repr(last_active))
    for key in run.all():
        pipe.expire(key, ttl)
    pipe.zcard(run.requests)
    pipe.hvals(run.workers)
    pipe.exists(run.finished)
    *_, queued, seen, finished = pipe.execute()
    return RunState(queued, max((float(value) for value in seen), default=0.0), bool(finished))


def run_state(server: redis.Redis, run: RunKeys) -> RunState:
    pipe = server.pipeline(transaction=False)
    pipe.zcard(run.requests)
    pipe.hvals(run.workers)
    pipe.exists(run.finished)
    queued, seen, finished = pipe.execute()
    return RunState(queued, max((float(value) for value in seen), default=0.0), bool(finished))


def finish_run(server: redis.Redis, run: RunKeys, ttl: int = RUN_TTL_SECONDS) -> None:
    """Mark the run finished: no worker joins it any more; its keys stay until their TTL (for `frontier`)."""
    server.set(run.finished, repr(time.time()), ex=ttl)


DERIVATION_DONE = "done"
# KEYS[1]: the run's derivation key, KEYS[2]: its alive hash. ARGV: worker id, now, lease seconds, ttl seconds.
# The claim is taken when nobody holds it, or from a holder whose heartbeat is older than the lease (it died while
# deriving). Returns the holder after the call ("done" once the derivation is written).
_CLAIM_DERIVATION = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and holder ~= 'done' then
  local seen = redis.call('HGET', KEYS[2], holder)
  if seen and tonumber(ARGV[2]) - tonumber(seen) < tonumber(ARGV[3]) then return holder end
  holder = false
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[4]))
  return ARGV[1]
end
return holder
"""


def claim_derivation(server: redis.Redis, run: RunKeys, worker_id: str, now: float, lease_seconds: float,
                     ttl: int = RUN_TTL_SECONDS) -> str:
    """Who derives the finished run's articles: this worker if it is the first to ask (or the holder stopped
    beating), else the holder's id, or DERIVATION_DONE."""
    holder = server.eval(_CLAIM_DERIVATION, 2, run.derivation, run.alive, worker_id, repr(now), repr(lease_seconds),
                         ttl)
    return holder.decode() if isinstance(holder, bytes) else holder


def derivation_done(server: redis.Redis, run: RunKeys, ttl: int = RUN_TTL_SECONDS) -> None:
    server.set(run.derivation, DERIVATION_DONE, ex=ttl)


def may_close(state: RunState, now: float, idle_seconds: float) -> bool:
    """The idle/close rule: a worker may close when the run is finished, or when its queue is empty and no
    worker (this one included) has been active for ``idle_seconds`` — then nobody can add requests any more."""
    return state.finished or (state.queued == 0 and now - state.last_activity >= idle_seconds)
