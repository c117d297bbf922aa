"""A user's mistakes through the real `newscorpus` process: one line on stderr naming the fix, exit code
2, no traceback; and no command quietly creates a database where there is no corpus."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.local_crawl import PROJECT_ROOT

NEWSCORPUS = [sys.executable, "-c", "import sys; from newscorpus.cli.main import main; sys.exit(main())"]


def newscorpus(*arguments: str, cwd=PROJECT_ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("NEWSCORPUS_DB_DSN", "NEWSCORPUS_DB_DATA_DIR")}
    environment.update(env or {})
    return subprocess.run([*NEWSCORPUS, *arguments], cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=120)


def one_line_error(result: subprocess.CompletedProcess, *words: str) -> str:
    """The error line, after checking exit code 2, a single line, no traceback and each of ``words`` in it."""
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("command", [("articles",), ("search", "rail"), ("stats",), ("build",)])
def test_a_date_that_is_not_a_date(command):
    one_line_error(newscorpus(*command, "--since", "yesterday"), "--since", "'yesterday' is not a date", "YYYY-MM-DD")


def test_a_limit_too_large_for_the_database_and_one_too_small():
    one_line_error(newscorpus("search", "rail", "--limit", "99999999999999999999"), "--limit", "at most")
    one_line_error(newscorpus("articles", "--limit", "0"), "--limit", "1 or more")


def test_a_mistyped_command_gets_a_suggestion():
    one_line_error(newscorpus("artcles"), "unknown command 'artcles'", "did you mean 'articles'")
    one_line_error(newscorpus("eval", "extractoin", "x"), "did you mean 'extraction'")
    one_line_error(newscorpus("demo", "--port", "70000"), "--port", "65535")


def test_commands_in_an_empty_folder_say_there_is_no_corpus_and_create_nothing(tmp_path):
    for command in (("articles",), ("search", "rail"), ("export", "out.jsonl"), ("db", "status"), ("stats",)):
        line = one_line_error(newscorpus(*command, cwd=tmp_path), "no corpus in .newscorpus/pg yet", "newscorpus demo",
                              "scrapy crawl site")
        assert "--data-dir" in line
    assert sorted(os.listdir(tmp_path)) == []


def test_export_target_mistakes_are_caught_before_anything_is_written(database_dsn, tmp_path):
    def export(out: str, *extra: str):
        return newscorpus("export", "--dsn", database_dsn, out, *extra, cwd=tmp_path)

    one_line_error(export(str(tmp_path)), "is a directory", "give a file name")
    one_line_error(export(str(tmp_path / "missing" / "corpus.jsonl")), "does not exist", "mkdir -p")
    existing = tmp_path / "corpus.jsonl"
    existing.write_text("keep me\n", encoding="utf-8")
    one_line_error(export(str(existing)), "exists", "--force")
    assert existing.read_text(encoding="utf-8") == "keep me\n"
    forced = export(str(existing), "--force")
    assert forced.returncode == 0, forced.stderr
    assert existing.read_text(encoding="utf-8") == ""  # an empty corpus, written over the old file
    one_line_error(export("/proc/corpus.jsonl"), "cannot write /proc/corpus.jsonl")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.jsonl"]  # no partial file left behind


def test_unknown_sites_are_named(database_dsn):
    for command in (("articles",), ("search", "rail"), ("stats",), ("export", "-"), ("near-duplicates",),
                    ("noise",), ("templates",)):
        one_line_error(newscorpus(*command, "--site", "nosuch", "--dsn", database_dsn), "'nosuch'", "sites: none yet")


def test_the_command_runs_as_a_module_too(tmp_path):
    result = subprocess.run([sys.executable, "-m", "newscorpus.cli.main", "articles",
                             "--data-dir", str(tmp_path / "pg")],
                            cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60,
                            env={k: v for k, v in os.environ.items() if k != "NEWSCORPUS_DB_DSN"})
    one_line_error(result, "no corpus in")
    assert not Path(tmp_path / "pg").exists()


def test_a_dsn_option_the_server_refuses_queries_for_is_one_line(database_dsn):
    # Read-only sessions refuse the first migration every time, as statement_timeout=1 cancels queries only mostly.
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
    options = conninfo_to_dict(database_dsn).get("options", "")
    dsn = make_conninfo(database_dsn, options=f"{options} -cdefault_transaction_read_only=on".strip())
    one_line_error(newscorpus("stats", env={"NEWSCORPUS_DB_DSN": dsn}), "read-only", "DSN")


def test_a_build_setting_of_the_wrong_kind_or_name_is_refused_before_anything_is_written(tmp_path):
    one_line_error(newscorpus("build", "--set", "NEWSCORPUS_MAX_DEPTH=x", cwd=tmp_path), "NEWSCORPUS_MAX_DEPTH", "'x'")
    one_line_error(newscorpus("build", "--set", "DOWNLOAD_MAXSIZE=-1", cwd=tmp_path), "DOWNLOAD_MAXSIZE", ">= 0")
    one_line_error(newscorpus("build", "--set", "NEWSCORPUS_MAX_DEPHT=2", cwd=tmp_path),
                   "NEWSCORPUS_MAX_DEPHT is not a setting", "NEWSCORPUS_MAX_DEPTH")
    assert sorted(os.listdir(tmp_path)) == []


def test_a_date_range_that_ends_before_it_starts():
    for command in (("search", "rail"), ("stats",)):
        one_line_error(newscorpus(*command, "--since", "2026-11-10", "--until", "2026-11-01"),
                       "--since 2026-11-10 is after --until 2026-11-01")


def test_the_version_is_printed():
    result = newscorpus("--version")
    assert result.returncode == 0 and result.stdout.strip().startswith("newscorpus 0."), result
