"""What the eval commands share: the anchor tools asked for with --compare, and the floors verdict."""

from __future__ import annotations

import sys

from newscorpus.cli.main import CommandError


def anchor_not_installed(name: str, error: ImportError) -> CommandError:
    return CommandError(f"anchor {name} is not installed (pip install 'newscorpus[eval]'): {error}")


def load_anchors(names: list[str]) -> dict:
    """The extraction anchors (newscorpus.evaluation.anchors) named with --compare, loaded; an unknown or missing
    one is one CommandError line."""
    from newscorpus.evaluation.anchors import ANCHORS, load_anchor

    unknown = [name for name in names if name not in ANCHORS]
    if unknown:
        raise CommandError(f"unknown anchor(s) {unknown}; known: {sorted(ANCHORS)}")
    anchors = {}
    for name in names:
        try:
            anchors[name] = load_anchor(name)
        except ImportError as error:
            raise anchor_not_installed(name, error) from error
    return anchors


def floors_exit_code(failures: list[str]) -> int:
    """Each missed floor on stderr, exit code 1; none missed: "floors: all met", exit code 0."""
    for failure in failures:
        print(f"FLOOR MISSED {failure}", file=sys.stderr)
    if failures:
        return 1
    print("floors: all met")
    return 0
