"""Shared command groups (`eval`, `train`, ...) that several command modules add children to, and commands kept
under an old name (hidden from --help, one deprecation line on stderr)."""

from __future__ import annotations

import argparse
import sys

_CHILDREN_ATTRIBUTE = "_newscorpus_children"
OLD_NAMES: set[str] = set()  # commands' old names, not offered in a mistyped command's suggestion


def get_or_add_group(subparsers: argparse._SubParsersAction, name: str, help: str | None = None):
    """The sub-subparsers of group `name`, creating the group on first use.

    Usage from any command module: `get_or_add_group(subparsers, "eval").add_parser("near-duplicate", ...)`.
    """
    parser = subparsers.choices.get(name)
    if parser is None:
        parser = subparsers.add_parser(name, help=help or f"{name} sub-commands")
    children = getattr(parser, _CHILDREN_ATTRIBUTE, None)
    if children is None:
        children = parser.add_subparsers(dest=f"{name}_target", metavar="TARGET")
        children.required = True
        setattr(parser, _CHILDREN_ATTRIBUTE, children)
    return children


def add_parsers(subparsers: argparse._SubParsersAction, name: str, old_names: tuple[str, ...] = (), **kwargs
                ) -> list[argparse.ArgumentParser]:
    """The parser of command `name` and one per old name, to be given the same arguments and defaults: an old
    name is not listed by --help (no `help`) and prints `deprecation_notice` when run."""
    parser = subparsers.add_parser(name, **kwargs)
    parsers = [parser]
    for old_name in old_names:
        old = subparsers.add_parser(old_name, **{k: v for k, v in kwargs.items() if k != "help"})
        old.set_defaults(deprecated_command=(old.prog, parser.prog))
        OLD_NAMES.add(old_name)
        parsers.append(old)
    return parsers


def deprecation_notice(args: argparse.Namespace) -> None:
    """One line on stderr when the command was called by an old name."""
    old_new = getattr(args, "deprecated_command", None)
    if old_new:
        print(f"newscorpus: `{old_new[0]}` is deprecated, use `{old_new[1]}`", file=sys.stderr)
