"""Is an article URL stored, and seen recently? One indexed lookup on one async connection for all the questions
asked while the previous lookup was out (one round trip per article would cost the reactor milliseconds a page;
the scheduler asks for up to CONCURRENT_REQUESTS at a time)."""

from __future__ import annotations

import asyncio

import psycopg

from newscorpus.store.held_connection import AsyncHeldConnection
from newscorpus.store.sql import query


class StoredArticles:
    """Reads ``articles`` (the crawl's database) for the refetch check; reconnects after a lost connection.

    Questions are grouped: the first one is looked up at once, with the others that came in the same turn of the
    event loop; those that come while it is out go together in the next lookup. A failed lookup fails each of its
    questions (the caller counts and logs each)."""

    def __init__(self, dsn: str):
        self.dsn = dsn
        self.database = AsyncHeldConnection(dsn)
        self._waiting: dict[tuple[str, float], list[asyncio.Future]] = {}
        self._lookups: asyncio.Task | None = None

    async def seen_within(self, url: str, hours: float) -> bool:
        answer = asyncio.get_running_loop().create_future()
        self._waiting.setdefault((url, hours), []).append(answer)
        if self._lookups is None:
            self._lookups = asyncio.ensure_future(self._look_up())
        return await answer

    async def _look_up(self) -> None:
        try:
            await asyncio.sleep(0)  # the questions of this turn of the loop go together
            while self._waiting:
                batch, self._waiting = self._waiting, {}
                for hours in sorted({hours for _, hours in batch}):
                    asked = [(url, answers) for (url, at), answers in batch.items() if at == hours]
                    try:
                        stored = await self._stored_recently([url for url, _ in asked], hours)
                    except Exception as error:
                        for _, answers in asked:
                            for answer in answers:
                                if not answer.done():
                                    answer.set_exception(error)
                        continue
                    for url, answers in asked:
                        for answer in answers:
                            if not answer.done():
                                answer.set_result(url in stored)
        finally:
            self._lookups = None

    async def _stored_recently(self, urls: list[str], hours: float) -> set[str]:
        async def look_up(connection: psycopg.AsyncConnection) -> list[tuple]:
            cursor = await connection.execute(query("corpus.stored_recently"), {"urls": urls, "hours": hours})
            return await cursor.fetchall()

        return {url for (url,) in await self.database.run_once(look_up)}  # a failed lookup is not retried

    async def close(self) -> None:
        if self._lookups is not None:
            await self._lookups
        await self.database.close()
