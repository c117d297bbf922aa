"""What the eval commands share at their end: the anchor that cannot be loaded, and the floors verdict."""

from __future__ import annotations

import sys

from newscorpus.cli.main import CommandError


def anchor_not_installed(name: str, error: ImportError) -> CommandError:
    return CommandError(f"anchor {name} is not installed (pip install 'newscorpus[eval]'): {error}")


def floors_exit_code(failures: list[str]) -> int:
    """Each missed floor on stderr, exit code 1; none missed: "floors: all met", exit code 0."""
    for failure in failures:
        print(f"FLOOR MISSED {failure}", file=sys.stderr)
    if failures:
        return 1
    print("floors: all met")
    return 0
