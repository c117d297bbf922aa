"""Where the database is: a server named by a DSN, or an embedded Postgres started in a local data directory."""

from __future__ import annotations

import logging
import os
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

from newscorpus.store.embedded_server import EmbeddedPostgres
from newscorpus.store.errors import CONNECT_TIMEOUT_SECONDS, BadDsnError, DatabaseUnavailableError

logger = logging.getLogger(__name__)

DSN_ENVIRONMENT_VARIABLE = "NEWSCORPUS_DB_DSN"
DEFAULT_EMBEDDED_DATA_DIR = Path(".newscorpus") / "pg"
_PASSWORD_IN_URL = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*:)(?P<password>[^@\s]*)(?=@)")
_PASSWORD_IN_KEYWORDS = re.compile(r"(?P<head>\bpassword\s*=\s*)(?P<password>'(?:[^'\\]|\\.)*'|\S+)")


def redact(text: str) -> str:
    """Hide passwords of DSNs (URL or key=value form) that appear anywhere in ``text``."""
    text = _PASSWORD_IN_URL.sub(lambda m: m.group("head") + "***", text)
    return _PASSWORD_IN_KEYWORDS.sub(lambda m: m.group("head") + "***", text)


def error_line(error: BaseException) -> str:
    """``error`` as one password-free line (its first line, else its type's name), for a log line."""
    lines = redact(str(error)).strip().splitlines()
    return lines[0] if lines else type(error).__name__


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


_embedded_lock = threading.Lock()
_embedded_servers: dict[Path, tuple[EmbeddedPostgres, str]] = {}


def embedded_data_dir(data_dir: str | os.PathLike | None = None) -> Path:
    """The embedded server's data directory: ``data_dir``, else the default, as an absolute path."""
    return (Path(data_dir) if data_dir else DEFAULT_EMBEDDED_DATA_DIR).expanduser().resolve()


def embedded_dsn(data_dir: str | os.PathLike | None = None) -> str:
    """Start (once per process) the embedded server in ``data_dir`` and return its DSN."""
    key = embedded_data_dir(data_dir)
    with _embedded_lock:
        if key not in _embedded_servers:
            server = EmbeddedPostgres(key)
            dsn = server.start()
            logger.info("embedded Postgres running in %s", key)
            _embedded_servers[key] = (server, dsn)
        return _embedded_servers[key][1]


def release_embedded(data_dir: str | os.PathLike | None = None) -> None:
    """This process stops using the embedded server in ``data_dir`` (see EmbeddedPostgres.stop)."""
    with _embedded_lock:
        server = _embedded_servers.pop(embedded_data_dir(data_dir), (None, None))[0]
    if server is not None:
        server.stop()


def resolve_dsn(dsn: str | None = None, data_dir: str | os.PathLike | None = None) -> str:
    """The DSN to use: ``dsn`` if given, else ``$NEWSCORPUS_DB_DSN``, else an embedded server's."""
    dsn = dsn or os.environ.get(DSN_ENVIRONMENT_VARIABLE) or None
    if dsn:
        check_dsn(dsn)
        return dsn
    return embedded_dsn(data_dir or os.environ.get("NEWSCORPUS_DB_DATA_DIR"))
