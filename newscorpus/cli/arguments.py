"""Argument types shared by the sub-commands: a bad value is one argparse error line (exit 2), never a traceback."""

from __future__ import annotations

import argparse
import json
from datetime import date
from pathlib import Path

# LIMIT takes a Postgres bigint: a larger --limit would fail in the database, not in the parser.
MAX_LIMIT = 2**63 - 1


def iso_date(value: str) -> date:
    """A calendar date written YYYY-MM-DD."""
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date: write it as YYYY-MM-DD, e.g. 2026-11-22") from None


def limit(value: str) -> int:
    """A row count: a whole number from 1 to :data:`MAX_LIMIT`."""
    number = positive_int(value)
    if number > MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"{value} is too large: give at most {MAX_LIMIT}")
    return number


def positive_int(value: str) -> int:
    """A whole number of 1 or more (pages, rounds, folds)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value} is too small: give 1 or more")
    return number


def port(value: str) -> int:
    """A TCP port, 0 (any free port) to 65535."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port number") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port: give 0 (any free port) to 65535")
    return number


def seconds(value: str) -> float:
    """A duration in seconds, 0 or more (a delay)."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds") from None
    if not number >= 0 or number == float("inf"):
        raise argparse.ArgumentTypeError(f"{value} is not a duration: give 0 or more seconds, e.g. 1.5")
    return number


def positive_seconds(value: str) -> float:
    """A duration in seconds above 0 (a timeout)."""
    number = seconds(value)
    if number == 0:
        raise argparse.ArgumentTypeError(f"{value} is too small: give more than 0 seconds")
    return number


def name_list(value: str) -> list[str]:
    """Comma-separated names (anchors, baselines), blanks dropped."""
    return [name.strip() for name in value.split(",") if name.strip()]


def json_file(value: str) -> dict:
    """A JSON file's content (floors), read when the command line is parsed."""
    try:
        return json.loads(Path(value).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise argparse.ArgumentTypeError(f"cannot read {value}: {error}") from None

