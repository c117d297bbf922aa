from newscorpus.core.extraction import region
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.metadata import head_metadata
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.site_aware import templates as t
from tests.core.site_aware.pages import article, url


def page_index(html: str) -> tuple[t.PageIndex, region.RegionChoice]:
    root = parse_html(html)
    head = head_metadata(root)
    clean_tree(root)
    blocks = build_blocks(root)
    return t.PageIndex(root, blocks), region.choose_region(blocks, titles=head.titles)


def induced(k: int = 3) -> t.SiteTemplate | None:
    observations = []
    for number in range(1, k + 1):
        page, choice = page_index(article(number))
        observations.append(t.observe(url(number), page, choice.roots, choice.headline))
    return t.induce("news.example.com", observations, k=3)


def test_no_template_before_k_pages():
    assert induced(2) is None


def test_induced_after_k_pages_with_consistent_body_xpath():
    template = induced(3)
    assert template is not None
    assert template.fields[t.BODY].xpaths == ['//div[@class="article-body"]']
    assert template.fields[t.BODY].rules.tag == "div"
    assert template.fields[t.BODY].rules.css_class == "article-body"
    assert "title" in template.fields


def test_apply_reads_the_body_by_xpath_without_repair():
    template = induced()
    page, _ = page_index(article(7))
    result = t.apply(template, page)
    assert result.repairs == []
    assert "国家统计局数据显示" in result.values[t.BODY]
    assert "热门文章" not in result.values[t.BODY]
    assert result.values["title"] == "一季度经济运行总体平稳 第7期"


def test_renamed_and_moved_body_is_repaired_once_then_read_by_the_new_xpath():
    template = induced()
    page, _ = page_index(article(8, relaid=True))
    first = t.apply(template, page)
    assert len(first.repairs) == 1 and first.repairs[0].field == t.BODY
    assert "国家统计局数据显示" in first.values[t.BODY] and "热门文章" not in first.values[t.BODY]
    assert len(template.fields[t.BODY].xpaths) == 2 and template.repairs == 1
    page, _ = page_index(article(9, relaid=True))
    second = t.apply(template, page)
    assert second.repairs == [] and "专家表示" in second.values[t.BODY]


def test_keyword_rule_finds_a_unique_label():
    page, _ = page_index(article(1))
    element, score = t.search(page, "source", t.SearchRules(keyword="来源", tag="span"))
    assert score == 1.0 and element.tag == "span"


def test_json_round_trip():
    template = induced()
    template.hits = 5
    again = t.SiteTemplate.from_json(template.to_json())
    assert again == template
