"""The README fits on a screen or two and lists every command; CI runs its install and test lines."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

from newscorpus.cli.main import build_parser, main

README = Path(__file__).resolve().parents[1] / "README.md"
INSTALL_LINE = "python3 -m venv .venv && .venv/bin/pip install -U pip && .venv/bin/pip install -e '.[dev]'"
TEST_LINE = ".venv/bin/python -m pytest"


def leaf_commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[str]:
    """Every runnable command of the parser, e.g. "articles", "db migrate", "eval near-duplicate" (not the old names
    kept as hidden aliases)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return [leaf for name, child in action.choices.items() if child.get_default("deprecated_command") is None
                    for leaf in leaf_commands(child, (*path, name))]
    return [" ".join(path)]


def commands_table(text: str) -> list[str]:
    """The first cell of each row of the table under "## Commands", without its backticks."""
    section = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    return [row.split("|")[1].strip().strip("`") for row in section.splitlines() if row.startswith("| `")]


def test_the_readme_is_at_most_150_lines():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 150


def test_every_command_is_listed_once_with_one_line():
    rows = commands_table(README.read_text(encoding="utf-8"))
    commands = leaf_commands(build_parser())
    assert len(commands) >= 20
    for command in commands:
        listed = [row for row in rows if re.match(rf"newscorpus {re.escape(command)}(\s|$)", row)]
        assert len(listed) == 1, (command, listed)
    assert len(rows) == len(commands) + 1  # and `scrapy crawl site`
    assert any(row.startswith("scrapy crawl site") for row in rows)


def test_the_install_and_test_lines_ci_runs_are_there():
    text = README.read_text(encoding="utf-8")
    assert INSTALL_LINE in text and TEST_LINE in text


def test_the_readme_search_examples_find_articles_in_the_demo_data(crawled_demo, capsys):
    _, dsn, _, _ = crawled_demo
    text = README.read_text(encoding="utf-8")
    examples = re.findall(r"newscorpus search (杭州|\"[^\"]+\")", text)
    assert len(examples) >= 2
    for example in examples:
        assert main(["search", *shlex.split(example), "--dsn", dsn]) == 0
        assert re.search(r"^([1-9]\d*) article\(s\)$", capsys.readouterr().err, re.MULTILINE), example
