"""A WARC file list shared through Redis: each file is ingested once, by one worker; a file whose worker stopped
goes to the next worker once its lease runs out."""

from __future__ import annotations

import subprocess
import sys

import redis

from newscorpus.crawler.distributed.warc_files import SharedWarcFiles
from newscorpus.store.connection import connect
from tests.crawler.warc_fixtures import EN_PARAGRAPHS, ZH_PARAGRAPHS, Record, article_html, write_warc
from tests.local_crawl import PROJECT_ROOT


def test_each_file_is_claimed_once_and_a_lapsed_lease_is_claimed_again(redis_server, key_prefix):
    files = SharedWarcFiles(redis_server, "list", key_prefix)
    assert files.add(["/a.warc.gz", "/b.warc.gz"]) == 2
    assert files.add(["/a.warc.gz", "/c.warc.gz"]) == 1          # a file is listed once
    assert [files.claim(), files.claim(), files.claim(), files.claim()] == [
        "/a.warc.gz", "/b.warc.gz", "/c.warc.gz", None]
    files.done("/a.warc.gz")
    redis_server.hset(files.key("leases"), "/b.warc.gz", 0)       # its worker stopped: the lease ran out
    assert files.claim() == "/b.warc.gz"
    assert files.remaining() == ["/b.warc.gz", "/c.warc.gz"]


def _page(number: int) -> bytes:
    paragraphs = (EN_PARAGRAPHS if number % 2 else ZH_PARAGRAPHS)[number % 3:] + [f"Report number {number}."]
    return article_html(f"Town report {number}", paragraphs, "en" if number % 2 else "zh", "utf-8",
                        f"2024-04-{number + 1:02d}").encode()


def test_two_workers_ingest_each_file_of_a_shared_list_once(database_dsn, redis_url, key_prefix, tmp_path):
    paths = []
    for number in range(4):
        path = tmp_path / f"part-{number}.warc.gz"
        write_warc(path, [Record(f"http://news.example.org/2024/04/{number:02d}/{n}.html", _page(number * 3 + n))
                          for n in range(3)])
        paths.append(str(path))
    command = [sys.executable, "-m", "newscorpus.cli.main", "ingest", "--shared", "parts", "--redis", redis_url,
               "-s", f"NEWSCORPUS_REDIS_KEY_PREFIX={key_prefix}", "--dsn", database_dsn]
    first = subprocess.Popen([*command, *paths], cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    second = subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for worker in (first, second):
        _, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err[-3000:]
    with connect(database_dsn) as connection:
        counters = [row[0] for row in connection.execute("SELECT counters FROM crawl_runs")]
        stored = connection.execute("SELECT count(*) FROM articles").fetchone()[0]
    assert sum(run.get("newscorpus/warc/files", 0) for run in counters) == 4   # each file once
    assert sum(run.get("newscorpus/warc/records", 0) for run in counters) == 12
    assert stored == 12
    files = SharedWarcFiles(redis.Redis.from_url(redis_url), "parts", key_prefix)
    assert files.remaining() == [] and len(files.files()) == 4
