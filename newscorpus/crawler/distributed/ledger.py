"""The frontier's acknowledgement: what a worker popped stays in its ledger until the page is durably stored.

A pop moves a request from the run's priority queue into the worker's in-flight hash in one Lua script; the
worker deletes entries once the batch holding their pages is written (and clears its ledger when it has nothing
in hand, or at its close). Each heartbeat records the worker as alive; a worker not heard of for the lease has
died, and the first live worker to notice puts its entries back in the queue (one script: exactly once), so the
others finish the run with nothing lost and no re-seed. Redis Streams would bring their own pending list, but
not the queue's priorities (sitemaps and articles first); the ledger keeps the sorted set and adds the lease.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis
from scrapy_redis.queue import PriorityQueue

from newscorpus.crawler.distributed.keys import RunKeys

LEDGER_ID = "newscorpus_ledger_id"      # request meta: the request's entry in its worker's ledger

# KEYS: queue, ledger. ARGV: ledger id, ttl. The queue's first member, moved to the ledger with its score.
_POP_INTO_LEDGER = """
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #first == 0 then return false end
redis.call('ZREM', KEYS[1], first[1])
redis.call('HSET', KEYS[2], ARGV[1], first[2] .. ' ' .. first[1])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2]))
return first[1]
"""

# KEYS: alive hash, queue. ARGV: ledger key prefix, this worker, now, lease seconds.
# Returns {entries put back, entries in the ledgers of the other live workers}.
_RECLAIM = """
local me, now, lease = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local back, elsewhere = 0, 0
local alive = redis.call('HGETALL', KEYS[1])
for i = 1, #alive, 2 do
  local worker, seen = alive[i], tonumber(alive[i + 1])
  if worker ~= me then
    local ledger = ARGV[1] .. worker
    if now - seen > lease then
      for _, entry in ipairs(redis.call('HVALS', ledger)) do
        local space = string.find(entry, ' ', 1, true)
        redis.call('ZADD', KEYS[2], string.sub(entry, 1, space - 1), string.sub(entry, space + 1))
        back = back + 1
      end
      redis.call('DEL', ledger)
      redis.call('HDEL', KEYS[1], worker)
    else
      elsewhere = elsewhere + redis.call('HLEN', ledger)
    end
  end
end
return {back, elsewhere}
"""


@dataclass(frozen=True)
class LedgerState:
    reclaimed: int      # entries of dead workers this call put back in the queue
    elsewhere: int      # entries other live workers hold (their pages are not stored yet)


class LedgeredPriorityQueue(PriorityQueue):
    """scrapy-redis's priority queue whose pop goes through a worker's ledger when one is given."""

    def pop_into(self, ledger_key: str, ledger_id: str, ttl_seconds: int):
        encoded = self.server.eval(_POP_INTO_LEDGER, 2, self.key, ledger_key, ledger_id, str(ttl_seconds))
        if not encoded:
            return None
        request = self._decode_request(encoded)
        request.meta[LEDGER_ID] = ledger_id
        return request


def acknowledge(server: redis.Redis, run: RunKeys, worker_id: str, ledger_ids: list[str]) -> None:
    if ledger_ids:
        server.hdel(run.inflight(worker_id), *ledger_ids)


def clear_ledger(server: redis.Redis, run: RunKeys, worker_id: str) -> None:
    """Everything this worker popped is stored (or ended with a recorded outcome)."""
    server.delete(run.inflight(worker_id))


def leave(server: redis.Redis, run: RunKeys, worker_id: str) -> None:
    """A worker's clean close: its ledger cleared and its heartbeat removed."""
    pipe = server.pipeline(transaction=False)
    pipe.delete(run.inflight(worker_id))
    pipe.hdel(run.alive, worker_id)
    pipe.execute()


def heartbeat_and_reclaim(server: redis.Redis, run: RunKeys, worker_id: str, now: float, lease_seconds: float,
                          ttl_seconds: int) -> LedgerState:
    """Record this worker alive, put back the entries of workers not heard of for ``lease_seconds``."""
    pipe = server.pipeline(transaction=False)
    pipe.hset(run.alive, worker_id, repr(now))
    pipe.expire(run.alive, ttl_seconds)
    pipe.expire(run.inflight(worker_id), ttl_seconds)
    pipe.eval(_RECLAIM, 2, run.alive, run.requests, run.inflight(""), worker_id, repr(now), repr(lease_seconds))
    *_, (back, elsewhere) = pipe.execute()
    return LedgerState(int(back), int(elsewhere))


def in_flight(server: redis.Redis, run: RunKeys) -> int:
    """Entries in every worker's ledger (for `newscorpus frontier`)."""
    return sum(server.hlen(run.inflight(worker.decode() if isinstance(worker, bytes) else worker))
               for worker in server.hkeys(run.alive))
