
from newscorpus.core.extraction import extract
from newscorpus.core.site_aware.cascade import (
    METHOD_CLUSTER_DIFF,
    METHOD_TEMPLATE,
    SiteAwareConfig,
    SiteAwareExtractor,
)
from newscorpus.core.site_aware.templates import SiteTemplate
from tests.core.site_aware.pages import article, url


def test_generic_until_a_template_is_induced_then_template():
    extractor = SiteAwareExtractor()
    methods = [extractor.extract(article(n), url(n)).method for n in range(1, 7)]
    assert methods[:3] == ["default"] * 3  # K = 3 confident pages before a template
    assert methods[3:] == [METHOD_TEMPLATE] * 3
    assert len(extractor.state("news.example.com").clusters) == 1  # one layout, one cluster
    result = extractor.extract(article(7), url(7))
    assert "国家统计局数据显示" in result.body and "版权所有" not in result.body


def teaser_page(number: int, teasers: int = 10) -> str:
    """The synthetic article with a block of short teasers, the same on every page, that outweighs it. The
    teasers' own paragraph class keeps the generic region from climbing over both (the climb joins prose of the
    same markup)."""
    teaser = "今年前四个月，我国外贸进出口稳中有升，消费市场持续回暖。"
    block = "".join(f"<p class='teaser'>第{i}条：{teaser}</p>" for i in range(teasers))
    return article(number).replace('<div class="side">', f'<div class="more">{block}</div><div class="side">')


def test_cluster_difference_finds_the_article_the_template_text_hid():
    generic = extract(teaser_page(2), url(2))
    assert "第1条" in generic.body and "国家统计局数据显示" not in generic.body  # the generic region: teasers
    extractor = SiteAwareExtractor(SiteAwareConfig(min_elsewhere_chars=100, use_templates=False))
    extractor.extract(teaser_page(1), url(1))
    result = extractor.extract(teaser_page(2), url(2))
    assert result.method == METHOD_CLUSTER_DIFF
    assert "国家统计局数据显示" in result.body and "第1条" not in result.body


def test_a_short_region_elsewhere_is_a_teaser_and_the_generic_result_stands():
    extractor = SiteAwareExtractor(SiteAwareConfig(use_templates=False))  # MIN_ELSEWHERE_CHARS = 500
    extractor.extract(teaser_page(1), url(1))
    result = extractor.extract(teaser_page(2), url(2))
    assert result.method == "default" and result.body == extract(teaser_page(2), url(2)).body


def test_lines_repeated_on_the_site_are_left_to_the_line_noise_stage():
    """A same-region difference keeps the generic lines: the page reads the same whichever method extracts it."""
    def page(number: int) -> str:
        return article(number).replace("</div></div>", "<p>责任编辑：李明 【纠错】</p></div></div>", 1)

    extractor = SiteAwareExtractor(SiteAwareConfig(use_templates=False))
    bodies = [extractor.extract(page(n), url(n)).body for n in range(1, 4)]
    assert bodies == [extract(page(n), url(n)).body for n in range(1, 4)]
    assert all("责任编辑：李明" in body for body in bodies)


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


def test_pages_the_generic_extractor_fails_fail_for_the_same_reason():
    """The cascade reads the page as the generic extractor prepares it (prepare_page): a page that is not
    HTML, empty or too large gets the generic extractor's reason, never a body read from plain text."""
    extractor = SiteAwareExtractor()
    prose = "这是一段很长的纯文本，没有任何标记，不应当被当作新闻正文来抽取。" * 5
    for page in (prose, prose.encode(), b"   ", b"\x89PNG\r\n" + bytes(range(256)) * 8):
        assert extractor.extract(page, url(1)).reason == extract(page, url(1)).reason
        assert extractor.extract(page, url(1)).reason in ("not_html", "empty")


def test_template_reads_what_the_generic_extractor_reads_from_the_same_node():
    """Inline links in a sentence, a caption, a share box and a line of punctuation inside the body: the
    template's lines are trimmed as the generic region's are (a template must not lose what generic keeps)."""
    extras = (
        '<p>据<a href="/a">国家统计局和海关总署最新发布的数据</a>显示，<a href="/b">今年前四个月我国外贸进出口总值</a>'
        "同比增长百分之五，其中出口增长较快，进口保持稳定。</p>"
        "<figure><img src='x.jpg'><figcaption>图为港口码头（资料图）</figcaption></figure>"
        '<div class="share"><a href="/s">分享到微博</a> <a href="/w">分享到微信</a></div>'
        "<p>……——……</p>"
    )

    def page(n: int) -> str:
        return article(n).replace('<div class="article-body">', f'<div class="article-body">{extras}')

    extractor = SiteAwareExtractor()
    for n in range(1, 6):
        extractor.extract(page(n), url(n))
    result = extractor.extract(page(8), url(8))
    assert result.method == METHOD_TEMPLATE
    assert result.body == extract(page(8), url(8)).body
