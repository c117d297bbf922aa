import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from newscorpus.store.connection import connect, redact, redact_dsn
from newscorpus.store.embedded_server import USERS_FILE, EmbeddedPostgres, running_postmaster, stop_server
from newscorpus.store.errors import BadDsnError, DatabaseUnavailableError

# A process that uses the embedded server in argv[1] until killed (or until it has printed "ready", with argv[2]
# == "exit"), as a crawl or a command does.
USER = ("import sys, time; from pathlib import Path; from newscorpus.store.connection import embedded_dsn, connect;"
        "c = connect(embedded_dsn(Path(sys.argv[1])), autocommit=True); c.execute('SELECT 1'); c.close();"
        "print('ready', flush=True); sys.argv[2:] == ['exit'] or time.sleep(600)")


def start_user(data_dir, idle_seconds: float, *extra: str) -> subprocess.Popen:
    environment = {**os.environ, "NEWSCORPUS_DB_IDLE_SECONDS": str(idle_seconds)}
    user = subprocess.Popen([sys.executable, "-c", USER, str(data_dir), *extra], stdout=subprocess.PIPE, text=True,
                            env=environment)
    assert user.stdout.readline().strip() == "ready"
    return user


def wait_until_stopped(data_dir, timeout: float = 90) -> None:
    """Until the server in data_dir has stopped; the timeout only bounds a server that never stops."""
    deadline = time.monotonic() + timeout
    while running_postmaster(data_dir) is not None:
        assert time.monotonic() < deadline, f"the embedded server in {data_dir} is still running"
        time.sleep(0.2)


def test_passwords_are_redacted_in_both_dsn_forms():
    assert redact_dsn("postgresql://app:s3cr%40t@db.example:5432/corpus") == "postgresql://app:***@db.example:5432/corpus"
    assert "s3cret" not in redact("connection to host=db password=s3cret dbname=x failed")
    assert "s3cret" not in redact("password='s3 cret' host=db")
    assert redact("postgres://u:pw@h/db and postgres://v:pw2@h2/db") == "postgres://u:***@h/db and postgres://v:***@h2/db"
    assert redact_dsn("host=localhost dbname=test") == "host=localhost dbname=test"


def test_bad_dsn_is_a_clear_error_without_the_password():
    for dsn in ("postgresql://u:hunter2@host/db?bogus=1", "mysql://u:hunter2@h/db", "host=x password=hunter2 bad"):
        with pytest.raises(BadDsnError, match="bad database DSN") as error:
            connect(dsn)
        assert "hunter2" not in str(error.value)


def test_unreachable_server_is_a_clear_error_without_the_password():
    with pytest.raises(DatabaseUnavailableError, match="cannot reach the database") as error:
        connect("postgresql://u:hunter2@127.0.0.1:1/db")
    assert "hunter2" not in str(error.value)
    assert "***" in str(error.value)


def test_embedded_server_recovers_from_a_half_initialised_directory(tmp_path):
    data_dir = tmp_path / "pg"
    data_dir.mkdir()
    (data_dir / "leftover").write_text("initdb was killed here")
    server = EmbeddedPostgres(data_dir, idle_seconds=0)
    dsn = server.start()
    try:
        with connect(dsn) as connection:
            assert connection.execute("SELECT 1").fetchone() == (1,)
    finally:
        server.stop()
    assert (data_dir / "PG_VERSION").exists()
    assert running_postmaster(data_dir) is None


def test_embedded_server_starts_again_after_a_crash(tmp_path):
    """The crawl process and its Postgres are killed hard (power loss): a stale postmaster.pid stays behind.
    The next start must still work on the same data directory, with the data intact; the killed process's
    pid, left in pgserver's user list, does not keep the restarted server up."""
    data_dir = tmp_path / "pg"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from pathlib import Path;"
         "from newscorpus.store.connection import EmbeddedPostgres, connect;"
         "c = connect(EmbeddedPostgres(Path(sys.argv[1])).start(), autocommit=True);"
         "c.execute('CREATE TABLE kept (x int)'); c.execute('INSERT INTO kept VALUES (42)');"
         "print('ready', flush=True); time.sleep(600)", str(data_dir)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "NEWSCORPUS_DB_IDLE_SECONDS": "0"})
    try:
        assert holder.stdout.readline().strip() == "ready"
        postmaster = psutil.Process(int((data_dir / "postmaster.pid").read_text().split()[0]))
        victims = [postmaster, *postmaster.children(recursive=True)]
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    for process in victims:
        try:
            process.kill()
        except psutil.NoSuchProcess:  # a backend that left with its postmaster
            pass
    psutil.wait_procs(victims, timeout=10)
    assert (data_dir / "postmaster.pid").exists()  # stale
    server = EmbeddedPostgres(data_dir, idle_seconds=0)
    dsn = server.start()
    try:
        with connect(dsn) as connection:
            assert connection.execute("SELECT x FROM kept").fetchone() == (42,)
    finally:
        server.stop()
    assert running_postmaster(data_dir) is None
    assert json.loads((data_dir / USERS_FILE).read_text() or "[]") == []


def test_a_user_killed_with_sigkill_does_not_keep_the_server_up(tmp_path):
    """`kill -9` on a process using the server (`newscorpus demo`, a crawl): its pid stayed in pgserver's list
    and the server ran forever. The watcher prunes the dead pid and stops the server (idle time 0 here)."""
    data_dir = tmp_path / "pg"
    user = start_user(data_dir, 0)
    postmaster = running_postmaster(data_dir)
    assert postmaster is not None and user.pid in json.loads((data_dir / USERS_FILE).read_text())
    user.send_signal(signal.SIGKILL)
    user.wait()
    wait_until_stopped(data_dir)
    try:
        psutil.Process(postmaster).wait(timeout=30)   # the server process itself ends, not only its pid file
    except psutil.NoSuchProcess:
        pass
    assert json.loads((data_dir / USERS_FILE).read_text() or "[]") == []


def test_the_server_stays_up_between_users_for_the_idle_time_and_db_stop_stops_it(tmp_path):
    """The second command finds the server running (no start); it stops after the idle time without
    a user, or at once with stop_server (`newscorpus db stop`), which refuses while a live process uses it."""
    data_dir = tmp_path / "pg"
    start_user(data_dir, 120, "exit").wait()
    postmaster = running_postmaster(data_dir)
    assert postmaster is not None                                 # kept up after its only user exited
    second = start_user(data_dir, 120)
    try:
        assert running_postmaster(data_dir) == postmaster          # the same server: not started again
        assert stop_server(data_dir) == (False, [second.pid])       # in use: not stopped without force
        assert running_postmaster(data_dir) == postmaster
    finally:
        second.kill()
        second.wait()
    assert stop_server(data_dir) == (True, [])                     # the killed user is pruned, not counted
    assert running_postmaster(data_dir) is None
    assert stop_server(data_dir) == (False, [])                    # nothing left to stop


def test_the_watcher_stops_the_server_after_the_idle_time(tmp_path):
    data_dir = tmp_path / "pg"
    start_user(data_dir, 1, "exit").wait()
    wait_until_stopped(data_dir)
    log = data_dir / "newscorpus-watcher.log"
    deadline = time.monotonic() + 30          # the watcher writes its line once pg_ctl has returned
    while "stopped the server" not in log.read_text():
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    assert "stopped the server: no live user for 1 s" in log.read_text()
