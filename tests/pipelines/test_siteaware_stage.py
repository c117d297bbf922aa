import psycopg
import pytest

from crawler.demo.server import DemoSite
from pipelines.extraction import ExtractionPipeline
from tests.conftest import fresh_schema
from tests.crawl import run_crawl


def test_site_aware_needs_in_process_extraction():
    with pytest.raises(ValueError, match="NEWSCORPUS_SITEAWARE_ENABLED"):
        ExtractionPipeline(None, None, 5.0, 2, site_aware=True)


def test_crawl_with_site_aware_extraction_records_methods_and_stores_state(postgres_server_dsn, tmp_path):
    with DemoSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        result = run_crawl(dsn, f"site={config}", settings={"NEWSCORPUS_SITEAWARE_ENABLED": "True"})
        assert result.returncode == 0, result.stderr[-3000:]
        with psycopg.connect(dsn) as connection:
            methods = dict(connection.execute("SELECT extraction_method, count(*) FROM articles GROUP BY 1").fetchall())
            skeletons = connection.execute("SELECT count(*) FROM site_skeletons").fetchone()[0]
            hits = connection.execute("SELECT sum(hits) FROM site_templates").fetchone()[0]
    assert set(methods) <= {"default", "template", "cluster_diff"}
    # the demo site's articles share one layout: a template is induced after a few pages and then used
    assert methods.get("template", 0) > methods.get("default", 0)
    assert hits == methods["template"] and skeletons >= 1
