import subprocess
import sys

from pipelines.core.site_aware.cascade import METHOD_CLUSTER_DIFF, METHOD_TEMPLATE, SiteAwareExtractor
from pipelines.core.site_aware.templates import SiteTemplate
from tests.core.site_aware.pages import article, url


def test_generic_then_cluster_diff_then_template():
    extractor = SiteAwareExtractor()
    methods = [extractor.extract(article(n), url(n)).method for n in range(1, 7)]
    assert methods[0] == "default"  # no sibling yet
    assert methods[1] == METHOD_CLUSTER_DIFF
    assert METHOD_TEMPLATE in methods[2:]
    assert methods[-1] == METHOD_TEMPLATE
    result = extractor.extract(article(7), url(7))
    assert "国家统计局数据显示" in result.body and "版权所有" not in result.body


def test_relaid_pages_are_repaired_without_manual_change():
    extractor = SiteAwareExtractor()
    for n in range(1, 6):
        extractor.extract(article(n), url(n))
    results = [extractor.extract(article(n, relaid=True), url(n)) for n in range(10, 13)]
    assert all(r.method == METHOD_TEMPLATE for r in results)
    assert extractor.counts.repairs == 1
    assert all("专家表示" in r.body for r in results)


def test_hand_written_template_is_used_first():
    template = SiteTemplate.from_dict(
        {
            "site": "news.example.com",
            "url": url(1),
            "source": "config",
            "fields": {"body": {"xpaths": ['//div[@class="article-body"]'], "rules": {"tag": "div"}}},
        }
    )
    extractor = SiteAwareExtractor(templates=[template])
    assert extractor.extract(article(4, english=True), url(4)).method == METHOD_TEMPLATE
    assert template.hits == 1


def test_never_raises():
    extractor = SiteAwareExtractor()
    for html in (b"", "", b"\x00\x01\x02" * 100, "<html", "plain text", None):
        result = extractor.extract(html, url(1))
        assert result.body == "" and result.reason is not None
    assert not extractor.extract(article(1), None).reason


def test_cores_import_no_scrapy_twisted_or_psycopg():
    code = (
        "import sys\n"
        "import pipelines.core.site_aware.cascade, pipelines.core.site_aware.clustering\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('scrapy', 'twisted', 'psycopg', 'psycopg2')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0
