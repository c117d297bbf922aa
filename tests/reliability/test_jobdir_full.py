"""The JOBDIR on a full disk (a small tmpfs of the test's own): the crawl stops with exit code 1 and one line
naming the reason (newscorpus.crawler.jobdir_scheduler), never trusts the fingerprints of requests it could not
queue (newscorpus.crawler.extensions.jobdir_guard), and a rerun with the same JOBDIR, once there is room, stores
every article once."""

from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import psycopg

from newscorpus.demo.server import DemoSite
from tests.conftest import fresh_schema
from tests.reliability.crawling import crawl
from tests.reliability.services import skip_or_fail
from tests.reliability.test_kill_resume import SLOW_ENOUGH

ARTICLES = 300
REASON = "jobdir_write_failed"


@contextmanager
def small_tmpfs(folder: Path, size: str):
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        skip_or_fail(f"cannot mount a tmpfs for the JOBDIR: {mounted.stderr.strip() or mounted.returncode}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path, leave_bytes: int) -> Path:
    """A file taking all of the tmpfs but ``leave_bytes``."""
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(descriptor, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(descriptor)
    with filler.open("r+b") as out:
        out.truncate(max(0, filler.stat().st_size - leave_bytes))
    return filler


def stored(dsn: str) -> list[str]:
    with psycopg.connect(dsn) as connection:
        return [row[0] for row in connection.execute("SELECT url FROM articles")]


def run(dsn: str, site: DemoSite, tmp_path: Path, jobdir: Path, name: str):
    config = tmp_path / "demo.toml"
    config.write_text(site.site_config_toml(), encoding="utf-8")
    return crawl(dsn, config, tmp_path / f"{name}.log", settings={**SLOW_ENOUGH, "JOBDIR": str(jobdir / "job")},
                 timeout=240)


def assert_stopped_for_the_jobdir(finished) -> None:
    assert finished.returncode == 1, finished.stderr[-3000:]
    reasons = [line for line in finished.stderr.splitlines() if "cannot write to the JOBDIR" in line]
    assert len(reasons) == 1 and REASON in reasons[0], reasons
    assert "Traceback" not in finished.stderr, finished.stderr[-3000:]


def assert_rerun_stores_every_article_once(dsn, site, tmp_path, jobdir) -> None:
    rerun = run(dsn, site, tmp_path, jobdir, "rerun")
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    articles = stored(dsn)
    expected = {site.base_url + article.path for article in site.all_articles}
    print(f"rerun after freeing space: {len(set(articles) & expected)}/{len(expected)} stored, "
          f"{len(articles) - len(set(articles))} twice")
    assert set(articles) == expected and len(articles) == len(expected)


def test_a_full_jobdir_stops_the_crawl_and_a_rerun_with_room_stores_every_article(postgres_server_dsn, tmp_path):
    with DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024, sitemap_every=3) as site, \
            fresh_schema(postgres_server_dsn) as dsn, small_tmpfs(tmp_path / "disk", "1m") as disk:
        filler = fill(disk, leave_bytes=8 * 1024)
        first = run(dsn, site, tmp_path, disk, "first")
        assert_stopped_for_the_jobdir(first)
        again = run(dsn, site, tmp_path, disk, "again")        # still full: never a silent exit 0
        assert_stopped_for_the_jobdir(again)
        print(f"full JOBDIR: {len(stored(dsn))} stored before the stop")
        filler.unlink()
        assert_rerun_stores_every_article_once(dsn, site, tmp_path, disk)


def test_a_jobdir_filling_mid_crawl_stops_the_crawl_and_loses_nothing(postgres_server_dsn, tmp_path):
    with DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024, sitemap_every=3) as site, \
            fresh_schema(postgres_server_dsn) as dsn, small_tmpfs(tmp_path / "disk", "1m") as disk:
        filler = fill(disk, leave_bytes=24 * 1024)
        first = run(dsn, site, tmp_path, disk, "first")
        assert_stopped_for_the_jobdir(first)
        in_hand = stored(dsn)
        print(f"JOBDIR filled mid-crawl: {len(in_hand)} stored before the stop")
        assert in_hand
        filler.unlink()
        assert_rerun_stores_every_article_once(dsn, site, tmp_path, disk)
