"""Shared command groups (`eval`, `train`, ...) that several command modules add children to."""

from __future__ import annotations

import argparse

_CHILDREN_ATTRIBUTE = "_newscorpus_children"


def get_or_add_group(subparsers: argparse._SubParsersAction, name: str, help: str | None = None):
    """The sub-subparsers of group `name`, creating the group on first use.

    Usage from any command module: `get_or_add_group(subparsers, "eval").add_parser("dedup", ...)`.
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
