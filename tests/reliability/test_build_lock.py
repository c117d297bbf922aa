"""A Postgres restart during a build frees the build's advisory lock (its connection ends). The first build takes
its lock again, and a second build is refused (exit 3) rather than resuming the first one's build row while the
first one's crawl goes on; the first completes. A private Postgres of
the test's own is restarted; the machine's is never touched."""

from __future__ import annotations

import time

import psycopg

from newscorpus.demo.server import DemoSite
from newscorpus.store.builds import BUILD_LOCK_CLASS
from tests.cli.test_build_commands import BUILD_SETTINGS, build
from tests.reliability.services import private_postgres

SLOW = {**BUILD_SETTINGS, "DOWNLOAD_DELAY": "0.3", "RANDOMIZE_DOWNLOAD_DELAY": "False",
        "CONCURRENT_REQUESTS_PER_DOMAIN": "1"}   # ~15 s of crawling: the restart falls inside it


def wait_for(query: str, dsn: str, what: str, timeout: float = 60):
    """Poll until ``query`` returns a row; the timeout only bounds a build that never gets there."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with psycopg.connect(dsn, connect_timeout=2) as connection:
                row = connection.execute(query, {"lock_class": BUILD_LOCK_CLASS}).fetchone()
            if row:
                return row
        except (psycopg.OperationalError, psycopg.errors.UndefinedTable):
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_build_takes_its_lock_again_after_a_restart_and_a_second_build_is_refused(tmp_path):
    with private_postgres(tmp_path / "pg") as server, DemoSite(huge_bytes=3 * 1024 * 1024) as site:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        out = tmp_path / "snapshots"
        first = build(server.dsn, config, out, settings=SLOW, wait=False)
        try:
            (key,) = wait_for("SELECT build_key FROM builds WHERE status = 'running' AND phase = 'crawl' "
                              "AND cardinality(crawl_run_ids) > 0", server.dsn, "the build to crawl")
            with server.stopped():
                time.sleep(2)
            wait_for("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = %(lock_class)s",
                     server.dsn, "the first build to take its lock again")
            second = build(server.dsn, config, out)
            first_stdout, first_stderr = first.communicate(timeout=240)
        finally:
            if first.poll() is None:
                first.kill()
        with psycopg.connect(server.dsn) as connection:
            rows = connection.execute("SELECT build_key, status, attempts FROM builds").fetchall()
    assert second.returncode == 3, second.stderr[-3000:]
    assert f"another build is running (build {key}" in second.stderr and f"pid {first.pid}" in second.stderr
    assert first.returncode == 0, first_stderr[-3000:]
    assert "build lock taken again" in first_stderr
    assert rows == [(key, "succeeded", 1)]                    # the second build never touched the row
