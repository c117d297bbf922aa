"""The near-duplicate decision in a process of its own, on a fresh schema of the real server: the same
outcomes as in the crawl process, a lean child (no Scrapy, Twisted or lxml), a database error raised as the child
met it, a killed child replaced with its batch decided again, and no child left behind (closed, or its parent
killed)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import psutil
import psycopg
import pytest

from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.store import retry
from newscorpus.store.errors import DatabaseUnavailableError
from newscorpus.store.held_connection import HeldConnection
from newscorpus.store.migrations import migrate
from newscorpus.store.near_duplicate.process import CRAWL_ONLY_MODULES, DecisionProcess
from newscorpus.store.near_duplicate.records import decide_batch
from tests.conftest import fresh_schema
from tests.core.near_duplicate.texts import (
    EN_FOLLOWUP_PARAGRAPHS,
    EN_FOLLOWUP_TITLE,
    EN_PARAGRAPHS,
    EN_TITLE,
    ZH_PARAGRAPHS,
    ZH_TITLE,
    en_reprint,
    zh_reprint,
)
from tests.local_crawl import PROJECT_ROOT

CONFIG = NearDuplicateConfig()
BATCHES = [  # (url, site id, title, body, language): two batches, the second's reprints of the first's articles
    [("https://a.example/zh/1", 1, ZH_TITLE, "\n".join(ZH_PARAGRAPHS), "zh"),
     ("https://a.example/en/1", 1, EN_TITLE, "\n\n".join(EN_PARAGRAPHS), "en"),
     ("https://a.example/en/2", 1, "Short note", "Opening hours change on Monday.", None)],
    [("https://b.example/zh/2", 2, *zh_reprint(), "zh"),
     ("https://b.example/en/2", 2, *en_reprint(), None),
     ("https://c.example/en/3", 3, EN_FOLLOWUP_TITLE, "\n\n".join(EN_FOLLOWUP_PARAGRAPHS), "en")],
]


@pytest.fixture
def index_dsns(postgres_server_dsn):
    """Two fresh schemas with the index: one for the crawl process's decisions, one for the child's."""
    with fresh_schema(postgres_server_dsn) as first, fresh_schema(postgres_server_dsn) as second:
        for dsn in (first, second):
            with psycopg.connect(dsn, autocommit=True) as connection:
                migrate(connection)
                connection.execute("INSERT INTO sites (name) VALUES ('a'), ('b'), ('c')")
        yield first, second


def decided_in_this_process(dsn: str) -> list:
    held = HeldConnection(dsn)
    try:
        return [decide_batch(held, batch, CONFIG) for batch in BATCHES]
    finally:
        held.close()


def test_the_process_decides_as_the_crawl_process_does_and_imports_no_crawl_module(index_dsns):
    expected = decided_in_this_process(index_dsns[0])
    assert [o and o.status for o in expected[0] + expected[1]] == \
        ["canonical", "canonical", None, "duplicate", "duplicate", "canonical"]
    process = DecisionProcess(index_dsns[1], CONFIG)
    try:
        assert [process.decide(batch) for batch in BATCHES] == expected
        again = process.decide(BATCHES[1])  # idempotent per URL and text
        assert [o and (o.status, o.article_id, o.canonical_url) for o in again] == \
            [o and ("unchanged", o.article_id, o.canonical_url) for o in expected[1]]
        modules = process.modules()
    finally:
        process.close()
    assert {"jieba", "numpy", "psycopg"} <= modules  # it did the Chinese article's features itself
    assert not modules & set(CRAWL_ONLY_MODULES), modules & set(CRAWL_ONLY_MODULES)
    assert process.deaths == 0


def test_a_killed_process_is_counted_and_replaced_and_its_batch_decided_again(index_dsns):
    expected = decided_in_this_process(index_dsns[0])
    process = DecisionProcess(index_dsns[1], CONFIG)
    try:
        assert process.decide(BATCHES[0]) == expected[0]
        first = process.pid
        os.kill(first, signal.SIGKILL)
        assert process.decide(BATCHES[1]) == expected[1]  # the batch it was sent to died with it
        assert process.deaths == 1 and process.pid != first
        assert not psutil.pid_exists(first) or psutil.Process(first).status() == psutil.STATUS_ZOMBIE
    finally:
        process.close()


def test_a_database_error_in_the_process_is_raised_in_the_crawl_process(postgres_server_dsn):
    # a schema without the index's tables: the lookup fails in the child, as it would in the crawl process
    dsn = psycopg.conninfo.make_conninfo(postgres_server_dsn, options="-csearch_path=no_such_schema")
    process = DecisionProcess(dsn, CONFIG)
    try:
        with pytest.raises(psycopg.errors.UndefinedFunction):
            process.decide(BATCHES[0])
        assert process.deaths == 0
    finally:
        process.close()


def test_the_process_ends_with_close_and_with_its_parent(database_dsn):
    process = DecisionProcess(database_dsn, CONFIG)
    process.start()
    child = psutil.Process(process.pid)
    process.close()
    assert not child.is_running()
    # a parent killed outright: the child reads the end of its stdin and exits on its own
    script = ("import sys, time\nfrom newscorpus.core.near_duplicate.config import NearDuplicateConfig\n"
              "from newscorpus.store.near_duplicate.process import DecisionProcess\n"
              "process = DecisionProcess(sys.argv[1], NearDuplicateConfig())\nprocess.start()\n"
              "print(process.pid, flush=True)\ntime.sleep(600)\n")
    parent = subprocess.Popen([sys.executable, "-c", script, database_dsn], cwd=PROJECT_ROOT, stdout=subprocess.PIPE,
                              text=True)
    try:
        child = psutil.Process(int(parent.stdout.readline()))
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 60
    while child.is_running() and child.status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not child.is_running() or child.status() == psutil.STATUS_ZOMBIE


def test_once_the_crawl_process_counts_the_database_as_gone_the_process_stops_retrying_too(monkeypatch):
    """As the decision thread shares the crawl process's "gave up" (newscorpus.store.retry), the process's calls
    stop after their first failed attempt instead of a whole retry window of their own (~60 s)."""
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(retry, "_gave_up", True)  # a call of the crawl process used up its window
    process = DecisionProcess(f"postgresql://postgres@127.0.0.1:{port}/test", CONFIG)
    try:
        with pytest.raises(DatabaseUnavailableError):
            process.decide(BATCHES[0])
        assert process.retries == 1  # one attempt, no retries
    finally:
        process.close()
