"""`newscorpus build|search|stats` end to end: the demo site built twice, an overlapping build refused, a killed
build resumed, search in Chinese and English, the stats plot. Real Postgres, the command run as a user would."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import psycopg
import pyarrow.parquet as pq
import pytest

from newscorpus.core.search_terms import search_terms
from newscorpus.demo.server import DemoSite
from newscorpus.store.builds import BUILD_LOCK_CLASS
from tests.conftest import fresh_schema
from tests.local_crawl import FAST_LOCAL_SETTINGS, PROJECT_ROOT

NEWSCORPUS = Path(sys.executable).parent / "newscorpus"  # the installed command, as a user (or cron) runs it
BUILD_SETTINGS = {name: value for name, value in FAST_LOCAL_SETTINGS.items() if name != "LOG_LEVEL"}


def newscorpus(dsn: str, *args: str, settings: dict | None = None, wait: bool = True, timeout: float = 240):
    command = [str(NEWSCORPUS), *args, "--dsn", dsn]
    for name, value in (settings or {}).items():
        command += ["-s", f"{name}={value}"]
    environment = {k: v for k, v in os.environ.items() if k != "NEWSCORPUS_DB_DSN"}
    if not wait:
        return subprocess.Popen(command, cwd=PROJECT_ROOT, env=environment, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    return subprocess.run(command, cwd=PROJECT_ROOT, env=environment, capture_output=True, text=True,
                          timeout=timeout)


def build(dsn: str, config, out, *extra: str, settings: dict | None = None, wait: bool = True):
    return newscorpus(dsn, "build", "--site-config", str(config), "--out", str(out), "--log-every", "1", *extra,
                      settings=BUILD_SETTINGS if settings is None else settings, wait=wait)


def snapshot_dirs(out) -> list:
    return sorted(path for path in out.iterdir() if path.is_dir() and not path.name.startswith("."))


@pytest.fixture(scope="module")
def built_twice(postgres_server_dsn, tmp_path_factory):
    """The demo site built twice in a row into a fresh schema: (dsn, snapshot folder, first, second run)."""
    with DemoSite(huge_bytes=3 * 1024 * 1024) as site, fresh_schema(postgres_server_dsn) as dsn:
        folder = tmp_path_factory.mktemp("build")
        config = folder / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        out = folder / "snapshots"
        first = build(dsn, config, out)
        assert first.returncode == 0, first.stderr[-3000:]
        second = build(dsn, config, out)
        assert second.returncode == 0, second.stderr[-3000:]
        yield dsn, out, first, second


def test_two_builds_write_two_consistent_snapshots_and_the_second_stores_nothing_new(built_twice):
    dsn, out, first, second = built_twice
    folders = snapshot_dirs(out)
    assert len(folders) == 2
    manifests = [json.loads((folder / "manifest.json").read_text("utf-8")) for folder in folders]
    reports = [json.loads((folder / "report.json").read_text("utf-8")) for folder in folders]
    assert [m["build_id"] for m in manifests] == [f.name for f in folders]
    assert manifests[0]["build_id"] != manifests[1]["build_id"]
    for key in ("rows", "counts_per_site", "date_range", "schema", "sites"):
        assert manifests[0][key] == manifests[1][key], key
    assert manifests[0]["rows"] > 20
    with psycopg.connect(dsn) as connection:
        stored, published = connection.execute(
            "SELECT (SELECT count(*) FROM articles), (SELECT count(*) FROM corpus_articles)").fetchone()
    # Every stored article is new in the first build; the snapshot holds the published (canonical) ones:
    # the demo's flaky page reprints another article, so it is stored but linked as a duplicate.
    assert reports[0]["crawl"]["articles_new"] == stored
    assert manifests[0]["rows"] == published
    assert reports[1]["crawl"]["articles_new"] == 0
    assert reports[0]["crawl"]["pages_fetched"] > 0 and reports[1]["status"] == "succeeded"
    assert "articles new 0" in second.stdout
    for folder in folders:
        jsonl = [json.loads(line) for line in (folder / "articles.jsonl").read_text("utf-8").splitlines()]
        parquet = [{k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in row.items()}
                   for row in pq.read_table(folder / "articles.parquet").to_pylist()]
        assert jsonl == parquet and len(jsonl) == manifests[0]["rows"]
    with psycopg.connect(dsn) as connection:
        statuses = connection.execute("SELECT status, phase FROM builds ORDER BY id").fetchall()
    assert statuses == [("succeeded", "done"), ("succeeded", "done")]


def test_a_build_is_refused_while_another_holds_the_lock(built_twice, tmp_path):
    dsn, out, _, _ = built_twice
    with psycopg.connect(dsn, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s, hashtext(current_schema()))", (BUILD_LOCK_CLASS,))
        result = build(dsn, out.parent / "demo.toml", tmp_path / "out")
    assert result.returncode == 3, result.stderr
    assert "another build is running" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_build_whose_phase_was_snapshot_resumes_there_without_crawling(built_twice, postgres_server_dsn):
    dsn, out, _, _ = built_twice
    with psycopg.connect(dsn, autocommit=True) as connection:
        build_id, key, runs = connection.execute(
            "UPDATE builds SET status = 'running', phase = 'snapshot' WHERE id = (SELECT max(id) FROM builds) "
            "RETURNING id, build_key, crawl_run_ids").fetchone()
    before = snapshot_dirs(out)
    (out / key / "manifest.json").unlink()  # as if the build died while writing its snapshot
    result = newscorpus(dsn, "build", "--sites", "no-such-site-is-needed-to-resume", "--out", str(out))
    assert result.returncode == 2  # a bad --sites is refused before anything else
    result = newscorpus(dsn, "build", "--site-config", str(out.parent / "demo.toml"), "--out", str(out))
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"resuming the interrupted build {key} from phase snapshot" in result.stderr
    with psycopg.connect(dsn) as connection:
        row = connection.execute("SELECT status, attempts, crawl_run_ids FROM builds WHERE id = %s",
                                 (build_id,)).fetchone()
    assert row == ("succeeded", 2, runs)
    assert snapshot_dirs(out) == before and (out / key / "manifest.json").is_file()


def test_search_finds_chinese_and_english_articles_by_words_of_their_bodies(built_twice):
    dsn, out, _, _ = built_twice
    rows = [json.loads(line) for line in (snapshot_dirs(out)[-1] / "articles.jsonl").read_text("utf-8").splitlines()]
    for language, minimum in (("zh", 2), ("en", 4)):
        articles = [row for row in rows if row["language"] == language]
        target = articles[0]
        title_terms = set(search_terms(target["title"]))
        words = [w for w in dict.fromkeys(search_terms(target["body"]))
                 if w not in title_terms and len(w) >= minimum and not w.isdigit()]
        words.sort(key=lambda w: (sum(w in search_terms(other["body"]) for other in articles), w))
        query = " ".join(words[:2])
        result = newscorpus(dsn, "search", query, "--limit", "100", "--json")
        assert result.returncode == 0, result.stderr
        hits = [json.loads(line) for line in result.stdout.splitlines()]
        assert target["url"] in [hit["url"] for hit in hits], (language, query)
        assert [hit["rank"] for hit in hits] == sorted((hit["rank"] for hit in hits), reverse=True)
        hit = next(hit for hit in hits if hit["url"] == target["url"])
        assert any(f"«{word}»" in hit["snippet"].lower() for word in words[:2]), hit["snippet"]
        plain = newscorpus(dsn, "search", query, "--site", "demo", "--limit", "3")
        assert plain.returncode == 0 and "1. [" in plain.stdout


def test_stats_prints_rates_and_plots_articles_per_day(built_twice, tmp_path):
    dsn, out, _, _ = built_twice
    png = tmp_path / "per-day.png"
    result = newscorpus(dsn, "stats", "--plot", str(png))
    assert result.returncode == 0, result.stderr
    # 31 stored demo articles, one of them (the flaky page) a reprint of another: 1 / 31 = 3.2 %.
    assert "demo: 31 article(s)" in result.stdout and "near duplicates 3.2%" in result.stdout
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def _wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_killed_build_refuses_overlap_while_alive_and_is_resumed_after(postgres_server_dsn, tmp_path):
    slow = {**BUILD_SETTINGS, "DOWNLOAD_DELAY": "0.3", "RANDOMIZE_DOWNLOAD_DELAY": "False",
            "CONCURRENT_REQUESTS_PER_DOMAIN": "1"}
    with DemoSite(huge_bytes=3 * 1024 * 1024) as site, fresh_schema(postgres_server_dsn) as dsn:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        out = tmp_path / "snapshots"
        first = build(dsn, config, out, settings=slow, wait=False)
        try:
            def crawling():
                try:
                    with psycopg.connect(dsn) as connection:
                        return connection.execute(
                            "SELECT build_key FROM builds WHERE status = 'running' AND phase = 'crawl' "
                            "AND cardinality(crawl_run_ids) > 0").fetchone()
                except psycopg.errors.UndefinedTable:
                    return None
            (key,) = _wait_for(crawling, 60, "the build to crawl")
            overlapping = build(dsn, config, out)
            assert overlapping.returncode == 3
            assert f"another build is running (build {key}, started at" in overlapping.stderr
            assert f"pid {first.pid}" in overlapping.stderr
            children = psutil.Process(first.pid).children(recursive=True)
            first.send_signal(signal.SIGKILL)
            first.wait(10)
        finally:
            if first.poll() is None:
                first.kill()
            first.communicate()
        _, alive = psutil.wait_procs(children, timeout=60)  # the orphaned crawl stops by itself
        assert not alive
        assert not out.exists() or snapshot_dirs(out) == []
        resumed = build(dsn, config, out)
        assert resumed.returncode == 0, resumed.stderr[-3000:]
        assert f"resuming the interrupted build {key} from phase crawl" in resumed.stderr
        assert [folder.name for folder in snapshot_dirs(out)] == [key]
        with psycopg.connect(dsn) as connection:
            rows = connection.execute("SELECT build_key, status, attempts FROM builds").fetchall()
            stored = connection.execute("SELECT count(*) FROM corpus_articles").fetchone()[0]
        assert rows == [(key, "succeeded", 2)]
        manifest = json.loads((out / key / "manifest.json").read_text("utf-8"))
        assert manifest["rows"] == stored > 20
        restarted = build(dsn, config, out, "--restart")
        assert restarted.returncode == 0 and "resuming" not in restarted.stderr
