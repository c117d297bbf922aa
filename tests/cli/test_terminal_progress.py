"""Long work shows progress on a terminal and stays quiet in a pipe (the first `search` on a fresh crawl indexes for
many seconds). The terminal is a pseudo-terminal (python's pty), as tmux or a terminal emulator gives;
the same commands with stderr captured print no bar."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time

import psycopg
import pytest

from tests.cli.test_extraction_commands import PAGE
from tests.local_crawl import PROJECT_ROOT
from tests.terminal import run_on_terminal

NEWSCORPUS = [sys.executable, "-c", "import sys; from newscorpus.cli.main import main; sys.exit(main())"]


def on_terminal(*arguments: str, timeout: float = 120) -> tuple[int, str]:
    """Run `newscorpus ARGUMENTS` with stdout and stderr on a pseudo-terminal: (exit code, what it showed)."""
    return run_on_terminal([*NEWSCORPUS, *arguments], timeout=timeout)


def captured(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([*NEWSCORPUS, *arguments], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120)


def _forget_the_search_index(dsn: str) -> None:
    """Empty the index and queue every article again, as a fresh crawl leaves them."""
    with psycopg.connect(dsn) as connection:
        connection.execute("DELETE FROM article_search")
        connection.execute("INSERT INTO article_search_queue (article_id) SELECT id FROM articles "
                           "ON CONFLICT (article_id) DO NOTHING")


def test_search_shows_its_indexing_on_a_terminal_only(crawled_demo):
    _, dsn, _, _ = crawled_demo
    _forget_the_search_index(dsn)
    code, shown = on_terminal("search", "rail", "--dsn", dsn)
    assert code == 0, shown
    assert re.search(r"indexing new articles for search: +\d+%\|.*\| \d+/31 ", shown), shown  # of the 31 queued
    # The bar redraws at most every 0.2 s: with jieba's trie dictionary the 30 articles are indexed before
    # any redraw, so the count is read from the index, not from the bar.
    with psycopg.connect(dsn) as connection:
        indexed = connection.execute("SELECT count(*) FROM article_search").fetchone()[0]
    assert indexed == 30  # the published corpus: 31 stored, one near-duplicate left out
    _forget_the_search_index(dsn)
    piped = captured("search", "rail", "--dsn", dsn)
    assert piped.returncode == 0, piped.stderr
    assert "indexing" not in piped.stderr and "\r" not in piped.stderr


def test_eval_runs_show_pages_done_on_a_terminal_only(tmp_path):
    data = tmp_path / "set"
    data.mkdir()
    items = []
    for stem in ("a", "b", "c"):
        (data / f"{stem}.html").write_text(PAGE, encoding="utf-8")
        (data / f"{stem}.txt").write_text("大桥通车\n记者今天获悉，跨江大桥于上午正式通车。", encoding="utf-8")
        items.append({"stem": stem, "lang": "zh"})
    (data / "manifest.json").write_text(json.dumps({"items": items}), encoding="utf-8")
    code, shown = on_terminal("eval", "extraction", str(data))
    assert code == 0, shown
    assert re.search(r"newscorpus: +\d+%\|.*\| \d/3 \[.*pages/s\]", shown), shown  # pages done of 3, rate
    piped = captured("eval", "extraction", str(data))
    assert piped.returncode == 0 and "3/3" not in piped.stderr, piped.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_search_progress_in_a_tmux_window(crawled_demo, tmp_path):
    """The same through tmux, as a person would see it: the bar is drawn, then the results replace it."""
    _, dsn, _, _ = crawled_demo
    _forget_the_search_index(dsn)
    session = f"newscorpus-test-{os.getpid()}"
    log = tmp_path / "pane.log"
    command = " ".join([sys.executable, "-c", "'import sys; from newscorpus.cli.main import main; sys.exit(main())'",
                        "search", "rail", "--dsn", f"'{dsn}'"])
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "30", "-c", str(PROJECT_ROOT)],
                   check=True, env={k: v for k, v in os.environ.items() if k != "TMUX"})
    try:
        subprocess.run(["tmux", "pipe-pane", "-t", session, f"cat >> {log}"], check=True)
        subprocess.run(["tmux", "send-keys", "-t", session, f"{command}; echo search-exit=$?", "Enter"], check=True)
        deadline = time.monotonic() + 120
        while "search-exit=" not in (log.read_text(errors="replace") if log.exists() else "").replace(
                "echo search-exit", ""):
            assert time.monotonic() < deadline, log.read_text(errors="replace") if log.exists() else ""
            time.sleep(0.2)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    shown = log.read_text(errors="replace")
    assert "search-exit=0" in shown
    assert "indexing new articles for search" in shown
