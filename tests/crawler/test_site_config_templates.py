import tomllib

import pytest

from newscorpus.core.site_aware.cascade import METHOD_TEMPLATE, SiteAwareExtractor
from newscorpus.core.site_aware.templates import SiteTemplate
from newscorpus.crawler.site_config import SiteConfigError, site_config_from_mapping
from tests.core.site_aware.pages import article, url

CONFIG = """
name = "example"
start_urls = ["https://news.example.com/"]
[[templates]]
url = "https://news.example.com/c/2024-05-01/doc-10001.shtml"
[templates.fields.body]
xpaths = ['//div[@class="article-body"]']
rules = { tag = "div", css_class = "article-body" }
[templates.fields.source]
xpaths = ['//div[@class="info"]/span']
rules = { keyword = "来源" }
"""


def test_hand_written_template_from_toml_is_used():
    config = site_config_from_mapping(tomllib.loads(CONFIG), "example.toml")
    [data] = config.templates
    assert data["site"] == "news.example.com" and data["source"] == "config"
    extractor = SiteAwareExtractor(templates=[SiteTemplate.from_dict(data)])
    result = extractor.extract(article(5), url(5))
    assert result.method == METHOD_TEMPLATE and "国家统计局数据显示" in result.body


@pytest.mark.parametrize(
    "template, message",
    [
        ({"url": "ftp://x/"}, "http"),
        ({"url": "https://a.example/x", "fields": {"body": {"xpaths": []}}}, "xpaths"),
        ({"url": "https://a.example/x", "fields": {"body": {"xpaths": ["//p"], "rules": {"bogus": 1}}}}, "bogus"),
    ],
)
def test_bad_templates_are_refused_with_the_file_named(template, message):
    data = {"name": "e", "start_urls": ["https://a.example/"], "templates": [template]}
    with pytest.raises(SiteConfigError, match=message) as raised:
        site_config_from_mapping(data, "bad.toml")
    assert "bad.toml" in str(raised.value)
