"""A list of WARC files shared by ingest workers through Redis: each file is ingested by one worker, once.

    {prefix}:warc:{name}:files     every file of the list, in the order added (list)
    {prefix}:warc:{name}:listed    the same files (set: a file is added once)
    {prefix}:warc:{name}:leases    file -> unix time (Redis's clock) its worker's lease ends (hash)
    {prefix}:warc:{name}:done      files ingested to the end (set)

A worker claims the first file that is neither done nor leased, renews its lease while it reads it, and marks it
done at its end. A worker that stops (Ctrl-C, a crash, a lost machine) lets its lease run out; the next worker that
asks takes the file again and ingests it whole (pages stored already are seen again, as in a re-crawl): the list
resumes where it stopped, with each file done once.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis

from newscorpus.crawler.distributed.keys import KEY_PREFIX, RUN_TTL_SECONDS

# The first file neither done nor leased (a lease past its end is free), leased to the caller until now + ARGV[1].
CLAIM = """
local now = tonumber(redis.call('TIME')[1])
for _, file in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  if redis.call('SISMEMBER', KEYS[2], file) == 0 then
    local lease = redis.call('HGET', KEYS[3], file)
    if (not lease) or tonumber(lease) < now then
      redis.call('HSET', KEYS[3], file, now + tonumber(ARGV[1]))
      return file
    end
  end
end
return false
"""
RENEW = """
local now = tonumber(redis.call('TIME')[1])
redis.call('HSET', KEYS[1], ARGV[1], now + tonumber(ARGV[2]))
"""


@dataclass
class SharedWarcFiles:
    server: redis.Redis
    name: str
    prefix: str = KEY_PREFIX
    lease_seconds: int = 600   # a file's lease, renewed every third of it while its worker reads records

    def key(self, part: str) -> str:
        return f"{self.prefix}:warc:{self.name}:{part}"

    def add(self, paths: list[str]) -> int:
        """Add the files not listed yet, in order; how many were new."""
        added = 0
        for path in paths:
            if self.server.sadd(self.key("listed"), path):
                self.server.rpush(self.key("files"), path)
                added += 1
        for part in ("files", "listed", "leases", "done"):
            self.server.expire(self.key(part), RUN_TTL_SECONDS)
        return added

    def claim(self) -> str | None:
        found = self.server.eval(CLAIM, 3, self.key("files"), self.key("done"), self.key("leases"),
                                 self.lease_seconds)
        return found.decode() if isinstance(found, bytes) else found

    def renew(self, path: str) -> None:
        self.server.eval(RENEW, 1, self.key("leases"), path, self.lease_seconds)

    def done(self, path: str) -> None:
        self.server.sadd(self.key("done"), path)
        self.server.hdel(self.key("leases"), path)

    def files(self) -> list[str]:
        return [path.decode() for path in self.server.lrange(self.key("files"), 0, -1)]

    def remaining(self) -> list[str]:
        done = {path.decode() for path in self.server.smembers(self.key("done"))}
        return [path for path in self.files() if path not in done]
