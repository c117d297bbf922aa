"""Crawl-time controls of a site config: a language filter (other languages counted as other_language, not
stored, and kept out by `reextract` too) and politeness of its own (delay, concurrency, user agent)."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg

from newscorpus.demo.server import DemoSite
from tests.cli.test_user_errors import newscorpus
from tests.conftest import fresh_schema
from tests.local_crawl import PROJECT_ROOT, run_crawl
from tests.reliability.crawling import site_toml
from tests.reliability.hostile_server import HTML, HostileSite, article_html, listing_html


def stored_languages(dsn: str) -> dict[str, int]:
    with psycopg.connect(dsn) as connection:
        rows = connection.execute("SELECT language, count(*) FROM articles GROUP BY language").fetchall()
        other = connection.execute("SELECT count(*) FROM pages WHERE outcome = 'other_language'").fetchone()[0]
    return {**dict(rows), "other_language pages": other}


def test_a_site_config_keeps_only_its_languages_through_the_crawl_and_reextract(postgres_server_dsn, tmp_path):
    with DemoSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        config = tmp_path / "zh-only.toml"
        config.write_text(site.site_config_toml("zhonly") + 'languages = ["zh"]\n', encoding="utf-8")
        result = run_crawl(dsn, f"site={config}")
        assert result.returncode == 0, result.stderr[-3000:]
        crawled = stored_languages(dsn)
        reextracted = newscorpus("reextract", "--dsn", dsn, "--site", "zhonly")
        assert reextracted.returncode == 0, reextracted.stderr[-2000:]
        after = stored_languages(dsn)
    english = sum(article.lang == "en" for article in site.all_articles)
    chinese = sum(article.lang == "zh" for article in site.all_articles)
    assert english > 0 and crawled == {"zh": chinese, "other_language pages": english}
    assert after == crawled


def test_the_language_setting_applies_where_the_site_config_names_none(postgres_server_dsn, tmp_path):
    with DemoSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        config = tmp_path / "any.toml"
        config.write_text(site.site_config_toml("anylang"), encoding="utf-8")
        result = run_crawl(dsn, f"site={config}", settings={"NEWSCORPUS_EXTRACTION_LANGUAGES": "en"})
        assert result.returncode == 0, result.stderr[-3000:]
        languages = stored_languages(dsn)
    assert set(languages) == {"en", "other_language pages"} and languages["other_language pages"] > 0


def test_a_site_config_sets_its_own_politeness_and_a_command_line_setting_still_wins(postgres_server_dsn, tmp_path):
    paths = [f"/2026/06/{day:02d}/story.html" for day in range(1, 4)]
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        site.routes["/"] = (200, {"Content-Type": HTML}, listing_html(paths))
        for number, path in enumerate(paths):
            site.routes[path] = (200, {"Content-Type": HTML}, article_html(number))
        config = site_toml(tmp_path / "polite.toml", "polite", start_urls=[f"{site.base_url}/"],
                           extra='user_agent = "polite-test/1.0"\ndownload_delay = 0.2\n'
                                 "concurrent_requests_per_domain = 1\n")
        # Without the fast local settings, which set the concurrency on the command line: only the delay is set there.
        command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config}", "-s", "LOG_LEVEL=INFO",
                   "-s", "DOWNLOAD_DELAY=0.1", "-s", "AUTOTHROTTLE_ENABLED=False"]
        result = subprocess.run(command, cwd=PROJECT_ROOT, env={**os.environ, "NEWSCORPUS_DB_DSN": dsn},
                                capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert set(site.user_agents) == {"polite-test/1.0"}        # robots.txt and every page
    overridden = result.stderr[result.stderr.index("Overridden settings"):].split("\n20", 1)[0]   # to the next line
    assert "'CONCURRENT_REQUESTS_PER_DOMAIN': 1" in overridden and "'DOWNLOAD_DELAY': '0.1'" in overridden


def test_a_bad_language_or_politeness_value_is_one_line(tmp_path):
    for extra, words in (('languages = ["chinese"]\n', "ISO 639-1"), ("download_delay = -1\n", "download_delay"),
                         ('user_agent = 3\n', "user_agent must be a string")):
        config = site_toml(tmp_path / "bad.toml", "bad", start_urls=["http://127.0.0.1:9/"], extra=extra)
        result = run_crawl(None, f"site={config}", timeout=60)
        assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr, result.stderr
