import psycopg
import pytest
from scrapy.settings import Settings

from newscorpus.core.extraction.config import ExtractionConfig
from newscorpus.core.site_aware.cascade import SiteAwareConfig
from newscorpus.demo.server import DemoSite
from newscorpus.pipelines.extraction import ExtractionPipeline, site_aware_enabled
from tests.conftest import fresh_schema
from tests.local_crawl import run_crawl


def test_site_aware_needs_in_process_extraction():
    with pytest.raises(ValueError, match="NEWSCORPUS_SITE_AWARE_ENABLED=False to extract in 2 worker processes"):
        ExtractionPipeline(None, None, ExtractionConfig(workers=2), SiteAwareConfig())


def project_settings(**cmdline) -> Settings:
    settings = Settings()
    settings.setmodule("newscorpus.crawler.settings", priority="project")
    for name, value in cmdline.items():
        settings.set(name, value, priority="cmdline")
    return settings


def test_site_aware_is_on_by_default_and_gives_way_to_a_worker_pool_asked_for():
    assert site_aware_enabled(project_settings())
    assert not site_aware_enabled(project_settings(NEWSCORPUS_EXTRACTION_WORKERS="2"))
    assert not site_aware_enabled(project_settings(NEWSCORPUS_SITE_AWARE_ENABLED="False"))
    # asked for both: kept on, so the stage raises the error above
    assert site_aware_enabled(project_settings(NEWSCORPUS_EXTRACTION_WORKERS="2",
                                               NEWSCORPUS_SITE_AWARE_ENABLED="True"))
    # the former name still works
    assert not site_aware_enabled(project_settings(NEWSCORPUS_SITEAWARE_ENABLED="False"))
    assert site_aware_enabled(project_settings(NEWSCORPUS_EXTRACTION_WORKERS="2", NEWSCORPUS_SITEAWARE_ENABLED="True"))


def test_crawl_with_site_aware_extraction_records_methods_and_stores_state(postgres_server_dsn, tmp_path):
    with DemoSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        result = run_crawl(dsn, f"site={config}", settings={"NEWSCORPUS_SITE_AWARE_ENABLED": "True"})
        assert result.returncode == 0, result.stderr[-3000:]
        with psycopg.connect(dsn) as connection:
            methods = dict(connection.execute("SELECT extraction_method, count(*) FROM articles GROUP BY 1").fetchall())
            skeletons = connection.execute("SELECT count(*) FROM site_skeletons").fetchone()[0]
            hits = connection.execute("SELECT sum(hits) FROM site_templates").fetchone()[0]
    assert set(methods) <= {"default", "template", "cluster_diff", "sibling_region"}
    # the demo site's articles share one layout: a template is induced after a few pages and then used
    assert methods.get("template", 0) > methods.get("default", 0)
    assert hits == methods["template"] and skeletons >= 1
