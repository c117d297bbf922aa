"""Articles stored and seen recently are not fetched again (Postgres decides); listing pages always are."""

from __future__ import annotations

import psycopg
import pytest

from newscorpus.crawler.middlewares.refetch import StoredArticleSkipMiddleware
from tests.local_crawl import run_crawl


def test_a_second_crawl_skips_stored_articles_but_fetches_listings(demo_site, database_dsn, tmp_path):
    config = tmp_path / "demo.toml"
    config.write_text(demo_site.site_config_toml(), encoding="utf-8")
    first = run_crawl(database_dsn, f"site={config}")
    assert first.returncode == 0, first.stderr[-3000:]
    fetched_once = dict(demo_site.requests)
    with psycopg.connect(database_dsn) as connection:
        stored = connection.execute("SELECT count(*), max(last_seen) FROM articles").fetchone()

    second = run_crawl(database_dsn, f"site={config}")
    assert second.returncode == 0, second.stderr[-3000:]
    article_paths = {article.path for article in demo_site.all_articles}
    for path in article_paths:
        assert demo_site.requests[path] == fetched_once[path], path   # not asked for again
    assert demo_site.requests["/section/china/"] == 2 and demo_site.requests["/sitemap_index.xml"] == 2
    assert f"'newscorpus/skipped/already_stored': {len(article_paths)}" in second.stderr
    with psycopg.connect(database_dsn) as connection:
        assert connection.execute("SELECT count(*), max(last_seen) FROM articles").fetchone() == stored


def test_an_old_article_is_fetched_again(demo_site, database_dsn, tmp_path):
    config = tmp_path / "demo.toml"
    config.write_text(demo_site.site_config_toml(), encoding="utf-8")
    assert run_crawl(database_dsn, f"site={config}").returncode == 0
    old = demo_site.articles[5]
    with psycopg.connect(database_dsn) as connection:
        connection.execute("UPDATE articles SET last_seen = now() - interval '2 hours' WHERE url = %s",
                           (demo_site.base_url + old.path,))
    result = run_crawl(database_dsn, f"site={config}", settings={"NEWSCORPUS_REFETCH_AFTER_HOURS": "1"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert demo_site.requests[old.path] == 2
    assert demo_site.requests[demo_site.articles[6].path] == 1


def test_the_refetch_setting_is_checked_when_the_middleware_is_built():
    with pytest.raises(ValueError, match="NEWSCORPUS_REFETCH_AFTER_HOURS"):
        StoredArticleSkipMiddleware(None, -1)
