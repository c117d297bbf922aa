"""The embedded Postgres through the real CLI: `kill -9` on `newscorpus demo` does not leave the server running
forever; `db start` keeps it up between commands, `db stop` stops it. Each test's server lives in
its own temporary folder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from newscorpus.store.embedded_server import USERS_FILE, running_postmaster
from tests.store.test_connection import wait_until_stopped

NEWSCORPUS = [sys.executable, "-c", "import sys; from newscorpus.cli.main import main; sys.exit(main())"]


def newscorpus(*args: str, idle_seconds: float, cwd, wait: bool = True):
    env = {k: v for k, v in os.environ.items() if k != "NEWSCORPUS_DB_DSN"}
    env["NEWSCORPUS_DB_IDLE_SECONDS"] = str(idle_seconds)
    if not wait:
        return subprocess.Popen([*NEWSCORPUS, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    return subprocess.run([*NEWSCORPUS, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_kill_9_on_demo_leaves_no_server_running(tmp_path):
    data_dir = tmp_path / "pg"
    demo = newscorpus("demo", "--port", "0", "--articles", "200", "--data-dir", str(data_dir), idle_seconds=1,
                      cwd=tmp_path, wait=False)
    try:
        deadline = time.monotonic() + 120
        while demo.pid not in _users(data_dir):   # the demo has started the server and is using it
            assert demo.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        demo.send_signal(signal.SIGKILL)
        demo.wait()
    finally:
        if demo.poll() is None:
            demo.kill()
    wait_until_stopped(data_dir)
    assert _users(data_dir) == []


def test_db_start_keeps_the_server_between_commands_and_db_stop_stops_it(tmp_path):
    data_dir = str(tmp_path / "pg")
    started = newscorpus("db", "start", "--data-dir", data_dir, idle_seconds=300, cwd=tmp_path)
    assert started.returncode == 0, started.stderr
    assert "stops after 300 s without a user" in started.stdout
    postmaster = running_postmaster(tmp_path / "pg")
    assert postmaster is not None                                        # still up after `db start` exited
    status = newscorpus("db", "status", "--data-dir", data_dir, idle_seconds=300, cwd=tmp_path)
    assert status.returncode == 0 and "0001_core" in status.stdout, status.stderr
    assert running_postmaster(tmp_path / "pg") == postmaster             # the same server answered
    stopped = newscorpus("db", "stop", "--data-dir", data_dir, idle_seconds=300, cwd=tmp_path)
    assert stopped.returncode == 0 and "stopped" in stopped.stdout, stopped.stderr
    assert running_postmaster(tmp_path / "pg") is None
    again = newscorpus("db", "stop", "--data-dir", data_dir, idle_seconds=300, cwd=tmp_path)
    assert again.returncode == 0 and "was not running" in again.stdout
    missing = newscorpus("db", "stop", "--data-dir", str(tmp_path / "nothing"), idle_seconds=300, cwd=tmp_path)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "no embedded database" in missing.stderr


def _users(data_dir) -> list[int]:
    try:
        return json.loads((data_dir / USERS_FILE).read_text() or "[]")
    except (OSError, ValueError):
        return []
