"""The stores' one connection holder (newscorpus.store.held_connection), on the real server: a connection the
server ends is dropped and opened again, the call retried and counted; run_once does not retry; the session
statement runs on every new connection."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from newscorpus.store.held_connection import AsyncHeldConnection, HeldConnection
from newscorpus.store.retry import RetryPolicy

QUICK = RetryPolicy(attempts=3, first_delay=0.0)


def end_backend(dsn: str, pid: int) -> None:
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_the_async_holder_reopens_a_connection_the_server_ended_and_counts_the_retry(database_dsn):
    async def run() -> tuple[int, int, str, int]:
        held = AsyncHeldConnection(database_dsn, session="SET application_name = 'held-test'", policy=QUICK)

        async def backend(connection: psycopg.AsyncConnection) -> tuple[int, str]:
            return await (await connection.execute(
                "SELECT pg_backend_pid(), current_setting('application_name')")).fetchone()

        first, _ = await held.run(backend, "first")
        await asyncio.to_thread(end_backend, database_dsn, first)
        second, name = await held.run(backend, "second")
        await held.close()
        return first, second, name, held.retries

    first, second, name, retries = asyncio.run(run())
    assert second != first and retries == 1
    assert name == "held-test"  # the session statement ran on the new connection too


def test_run_once_drops_a_lost_connection_without_retrying(database_dsn):
    async def run() -> tuple[int, int]:
        held = AsyncHeldConnection(database_dsn, policy=QUICK)

        async def pid(connection: psycopg.AsyncConnection) -> int:
            return (await (await connection.execute("SELECT pg_backend_pid()")).fetchone())[0]

        first = await held.run_once(pid)
        await asyncio.to_thread(end_backend, database_dsn, first)
        with pytest.raises(psycopg.OperationalError):
            await held.run_once(pid)
        second = await held.run_once(pid)  # the next call opens a new connection
        await held.close()
        assert held.retries == 0
        return first, second

    first, second = asyncio.run(run())
    assert first != second


def test_the_blocking_holder_reopens_a_connection_the_server_ended(database_dsn):
    held = HeldConnection(database_dsn, policy=QUICK)
    first = held.run(lambda connection: connection.execute("SELECT pg_backend_pid()").fetchone()[0], "first")
    end_backend(database_dsn, first)
    second = held.run(lambda connection: connection.execute("SELECT pg_backend_pid()").fetchone()[0], "second")
    held.close()
    assert second != first and held.retries == 1
