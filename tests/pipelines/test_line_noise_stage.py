"""The line-noise stage in a real crawl of the demo site: every article body ends with the same line; the
stage learns it, removes it, re-cleans the first articles after warm-up, and a second crawl counts nothing."""

from __future__ import annotations

import re
from datetime import UTC

import psycopg
import pytest
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings

from newscorpus.core.line_noise import LineNoiseConfig
from newscorpus.demo.pages import BODY_NOISE_EN, BODY_NOISE_ZH
from newscorpus.demo.server import DemoSite
from newscorpus.pipelines.line_noise import LineNoisePipeline, config_from_settings
from tests.conftest import fresh_schema
from tests.local_crawl import run_crawl

WARMUP = {"NEWSCORPUS_LINE_NOISE_WARMUP": "20"}


@pytest.fixture(scope="module")
def crawled(postgres_server_dsn, tmp_path_factory):
    with DemoSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        config = tmp_path_factory.mktemp("site-config") / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        result = run_crawl(dsn, f"site={config}", settings=WARMUP)
        assert result.returncode == 0, result.stderr[-3000:]
        yield site, dsn, config, result


def statistics(dsn: str):
    with psycopg.connect(dsn) as connection:
        articles_seen = connection.execute("SELECT articles_seen FROM site_line_stats").fetchone()[0]
        counts = dict(connection.execute("SELECT line_hash, articles FROM line_counts").fetchall())
    return articles_seen, counts


def test_every_stored_article_is_cleaned_of_the_repeated_line_and_keeps_its_body(crawled):
    site, dsn, _, result = crawled
    with psycopg.connect(dsn) as connection:
        rows = connection.execute(
            "SELECT url, body, clean_body, noise_lines, cleaned_with_articles_seen FROM articles").fetchall()
    assert len(rows) == len(site.all_articles)
    for _url, body, clean_body, noise_lines, articles_seen in rows:
        noise = BODY_NOISE_ZH if BODY_NOISE_ZH in body else BODY_NOISE_EN
        assert noise in body                      # the extracted body is kept
        assert noise not in clean_body and noise_lines == 1
        assert clean_body == body.replace("\n" + noise, "")
        assert articles_seen == len(rows)         # every article cleaned with the final statistics
    assert "newscorpus/line_noise/lines_removed" in result.stderr
    assert f"'newscorpus/derivation/articles': {len(rows)}" in result.stderr


def test_statistics_count_each_article_once(crawled):
    site, dsn, _, result = crawled
    articles_seen, counts = statistics(dsn)
    assert articles_seen == len(site.all_articles)
    batches = int(re.search(r"'newscorpus/line_noise/batches': (\d+)", result.stderr).group(1))
    assert 1 <= batches <= articles_seen  # articles that arrive together are counted in one transaction
    assert sorted(counts.values())[-2:] == sorted(
        [sum(a.lang == "en" for a in site.all_articles), sum(a.lang == "zh" for a in site.all_articles)])


def test_export_writes_the_cleaned_body(crawled, tmp_path):
    from newscorpus.cli.main import main

    _, dsn, _, _ = crawled
    assert main(["export", "--dsn", dsn, str(tmp_path / "out.jsonl")]) == 0
    text = (tmp_path / "out.jsonl").read_text("utf-8")
    assert "责任编辑" not in text and "Share this article" not in text


# Runs last in this module: it crawls the same database a second time.
def test_a_second_crawl_of_unchanged_articles_moves_no_count(crawled):
    _, dsn, config, _ = crawled
    before = statistics(dsn)
    # Fetch the stored articles again (the refetch middleware would skip them) so the stage sees them.
    result = run_crawl(dsn, f"site={config}", settings={**WARMUP, "NEWSCORPUS_REFETCH_AFTER_HOURS": "0"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert statistics(dsn) == before
    assert "'newscorpus/line_noise/articles_unchanged': 31" in result.stderr, result.stderr[-3000:]


def test_an_article_left_empty_is_dropped_and_recorded_by_the_database_extension(database_dsn):
    import asyncio
    from datetime import datetime

    from scrapy.utils.test import get_crawler

    from newscorpus.crawler.extensions.crawl_database import CrawlDatabase
    from newscorpus.crawler.items import PageItem
    from newscorpus.crawler.outcomes import EmptyAfterCleaning

    crawler = get_crawler()
    crawler.stats.open_spider()
    database = CrawlDatabase(crawler, dsn=database_dsn, data_dir=None, batch_size=1)
    stage = LineNoisePipeline(crawler, database, LineNoiseConfig(guard_articles=1, warmup=0))

    async def scenario():
        await database.open("emptysite")
        from newscorpus.store.line_noise import LineNoiseStore

        stage.store = LineNoiseStore(database.dsn, stage.config)
        outcomes = []
        for number in range(4):
            item = PageItem(url=f"http://e.test/{number}", final_url=f"http://e.test/{number}", site="emptysite",
                            status=200, fetched_at=datetime.now(UTC), content_type="text/html",
                            raw_body=b"<html></html>", url_kind="article", outcome="article",
                            body="Share this article\nFollow us on X")
            try:
                await stage.process_item(item)
                outcomes.append("kept")
            except EmptyAfterCleaning as drop:
                outcomes.append(drop.outcome)
                await database.item_dropped(item, drop)   # as Scrapy's item_dropped signal does
        await database.writer.close()
        await stage.store.close()
        return outcomes

    assert asyncio.run(scenario()) == ["kept", "kept", "empty_after_cleaning", "empty_after_cleaning"]
    with psycopg.connect(database_dsn) as connection:
        rows = connection.execute("SELECT outcome, outcome_detail FROM pages ORDER BY url").fetchall()
    assert rows == [("empty_after_cleaning", "2 noise line(s) removed")] * 2
    assert crawler.stats.get_value("newscorpus/outcome/empty_after_cleaning") == 2


def test_settings_are_checked_when_the_stage_is_built():
    assert config_from_settings(Settings({"NEWSCORPUS_LINE_NOISE_PER_ARTICLES": "20"})).per_articles == 20
    with pytest.raises(ValueError, match="NEWSCORPUS_LINE_NOISE_PER_ARTICLES must be >= 1, not 0"):
        config_from_settings(Settings({"NEWSCORPUS_LINE_NOISE_PER_ARTICLES": "0"}))
    with pytest.raises(ValueError, match="NEWSCORPUS_LINE_NOISE_GUARD_SHARE must be a number, not 'lots'"):
        config_from_settings(Settings({"NEWSCORPUS_LINE_NOISE_GUARD_SHARE": "lots"}))
    from scrapy.utils.test import get_crawler

    with pytest.raises(NotConfigured):
        LineNoisePipeline.from_crawler(get_crawler(settings_dict={"NEWSCORPUS_LINE_NOISE_ENABLED": False}))


def test_the_former_setting_names_still_work_and_errors_name_the_one_given():
    assert config_from_settings(Settings({"NEWSCORPUS_LINENOISE_L": "20"})).per_articles == 20
    with pytest.raises(ValueError, match="NEWSCORPUS_LINENOISE_L must be >= 1"):   # the name the value came under
        config_from_settings(Settings({"NEWSCORPUS_LINENOISE_L": "0"}))
    from scrapy.utils.test import get_crawler

    with pytest.raises(NotConfigured):
        LineNoisePipeline.from_crawler(get_crawler(settings_dict={"NEWSCORPUS_LINENOISE_ENABLED": False}))


def test_the_build_step_derives_a_site_whose_crawl_stopped_before_its_end(postgres_server_dsn, tmp_path):
    from newscorpus.builds.reextraction import clean_step

    with DemoSite(article_count=60) as site, fresh_schema(postgres_server_dsn) as dsn:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        # the crawl's end does not derive: its articles stay as cleaned on arrival, the first with young statistics
        result = run_crawl(dsn, f"site={config}", settings={"NEWSCORPUS_EXTRACTION_DERIVE_AT_CLOSE": "False"})
        assert result.returncode == 0, result.stderr[-3000:]
        with psycopg.connect(dsn) as connection:
            provisional = connection.execute(
                "SELECT count(*) FROM articles WHERE extractor_version IS NULL").fetchone()[0]
        assert provisional == len(site.all_articles)
        counters = clean_step(dsn, ["demo"])
        assert counters["articles"] == len(site.all_articles) and counters["articles_changed"] > 0
        with psycopg.connect(dsn) as connection:
            left = connection.execute("SELECT count(*) FROM articles WHERE clean_body LIKE %s OR clean_body LIKE %s "
                                      "OR extractor_version IS NULL",
                                      (f"%{BODY_NOISE_ZH}%", f"%{BODY_NOISE_EN}%")).fetchone()[0]
        assert left == 0
        again = clean_step(dsn, ["demo"])   # derived now: left as it is
        assert again["articles_changed"] == 0 and again["sites_already_derived"] == 1
        from newscorpus.builds.reextraction import clean

        assert clean(dsn, "demo")["changed"] == 0   # which is what deriving it again would have given
