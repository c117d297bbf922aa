"""Is an article URL stored, and seen recently? One indexed lookup per question, on one async connection."""

from __future__ import annotations

import asyncio

import psycopg

from pipelines.db.connection import connect_async
from pipelines.db.named_queries import query


class StoredArticles:
    """Reads ``articles`` (the crawl's database) for the refetch check; reconnects after a lost connection."""

    def __init__(self, dsn: str):
        self.dsn = dsn
        self._connection: psycopg.AsyncConnection | None = None
        self._connecting = asyncio.Lock()

    async def _connected(self) -> psycopg.AsyncConnection:
        async with self._connecting:
            if self._connection is None or self._connection.closed:
                self._connection = await connect_async(self.dsn, autocommit=True)
            return self._connection

    async def seen_within(self, url: str, hours: float) -> bool:
        connection = await self._connected()
        try:
            cursor = await connection.execute(query("stored_recently", filename="stored_articles.sql"),
                                              {"url": url, "hours": hours})
        except psycopg.OperationalError:
            await connection.close()
            raise
        return bool((await cursor.fetchone())[0])

    async def close(self) -> None:
        if self._connection is not None:
            await self._connection.close()
            self._connection = None
