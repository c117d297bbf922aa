"""The cascade keeps to the per-page budget: huge pages and pages past the time share go to the generic method."""

import pytest

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.site_aware.cascade import (
    METHOD_LARGE_PAGE,
    METHOD_OUT_OF_TIME,
    METHOD_TEMPLATE,
    SiteAwareConfig,
    SiteAwareExtractor,
)
from newscorpus.core.site_aware.page_budget import MAX_ELEMENTS, OutOfTime, PageClock, element_count
from tests.core.site_aware.pages import article, url


def huge_page(items: int = 10_000) -> str:
    """A page of the synthetic site with a long list of teasers under the article: 5 elements per item."""
    teasers = "".join(
        f'<div class="teaser"><h3><a href="/c/{i}.shtml">相关新闻 第{i}条</a></h3>'
        f"<p>第{i}条摘要：今年一季度经济运行总体平稳。</p><span>5月{i % 28 + 1}日</span></div>"
        for i in range(items)
    )
    return article(99).replace("</body>", f'<div class="teasers">{teasers}</div></body>')


def test_huge_page_skips_the_site_aware_steps_and_gets_the_generic_result():
    html = huge_page()
    root = parse_html(html)
    clean_tree(root)
    assert element_count(root) > 5 * MAX_ELEMENTS  # 50k elements
    extractor = SiteAwareExtractor()
    for n in range(1, 7):  # the site has a template and a cluster of references by now
        extractor.extract(article(n), url(n))
    assert extractor.matching_template(url(99)) is not None
    clusters = [list(members) for members in extractor.state("news.example.com").clusters]
    result = extractor.extract(html, url(99))
    generic = extract(html, url(99))
    assert result.method == METHOD_LARGE_PAGE and result.reason is None
    assert result.body == generic.body and result.title == generic.title
    assert extractor.counts.large_page == 1
    assert extractor.state("news.example.com").clusters == clusters  # nothing learned from it


def test_site_aware_steps_past_their_time_share_fall_back_to_the_generic_method():
    extractor = SiteAwareExtractor(SiteAwareConfig(time_share=0.0))
    result = extractor.extract(article(2), url(2))
    assert result.method == METHOD_OUT_OF_TIME and result.reason is None
    assert result.body == extract(article(2), url(2)).body
    assert extractor.counts.out_of_time == 1 and not extractor.state("news.example.com").clusters


def test_template_pages_are_stopped_by_the_deadline_too():
    extractor = SiteAwareExtractor()
    for n in range(1, 7):
        extractor.extract(article(n), url(n))
    assert extractor.extract(article(7), url(7)).method == METHOD_TEMPLATE
    stopped = SiteAwareExtractor(SiteAwareConfig(time_share=0.0))
    stopped.sites = extractor.sites
    assert stopped.extract(article(8), url(8)).method == METHOD_OUT_OF_TIME


def test_page_past_the_whole_cap_is_a_timeout():
    result = SiteAwareExtractor().extract(article(1), url(1), max_seconds=0.0)
    assert result.reason == "timeout" and result.body == ""


def test_page_clock_share_and_cap():
    ticks = iter([0.0, 1.0, 2.0, 2.5, 6.0])
    clock = PageClock(5.0, 0.5, now=lambda: next(ticks))  # started at 0: site-aware until 2.5, page until 5
    clock.check()  # 1.0
    assert not clock.page_over()  # 2.0
    with pytest.raises(OutOfTime):
        clock.check()  # 2.5
    assert clock.page_over()  # 6.0
