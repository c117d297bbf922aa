"""The database layer's errors, and how long one connection attempt may take before it is one."""

from __future__ import annotations

CONNECT_TIMEOUT_SECONDS = 10


class DatabaseError(Exception):
    """The database cannot be used; the message is meant for a person and never holds a password."""


class BadDsnError(DatabaseError):
    pass


class DatabaseUnavailableError(DatabaseError):
    pass
