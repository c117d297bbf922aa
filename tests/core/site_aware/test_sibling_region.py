from lxml import etree

from newscorpus.core.extraction import extract
from newscorpus.core.site_aware.cascade import METHOD_SIBLING_REGION, SiteAwareConfig, SiteAwareExtractor
from newscorpus.core.site_aware.parsed_page import parse_page
from newscorpus.core.site_aware.sibling_region import ELSEWHERE, INSIDE, relation, sibling_region
from newscorpus.core.site_aware.templates import Observation, SearchRules
from tests.core.site_aware.pages import article, url

CONSENT = "".join(
    f'<p class="consent-text">We value your privacy, reader {i}: by clicking accept you agree that we and our '
    "partners may store and "
    "access information on your device, such as cookies, and process personal data, such as unique "
    "identifiers, for personalised advertising, content measurement and audience research.</p>"
    for i in range(4)
)


def with_consent_dialog(number: int) -> str:
    """The English article page with a long consent dialog, on this page only, that outweighs the article."""
    dialog = f'<div class="overlay"><div class="consent">{CONSENT}</div></div>'
    return article(number, english=True).replace("</body>", f"{dialog}</body>")


def test_the_last_confident_pages_body_node_replaces_a_region_elsewhere():
    # the rules' region is the dialog (the learned block model adds the article's paragraphs to it)
    rules = extract(with_consent_dialog(2), url(2), learned=False)
    assert "We value your privacy" in rules.body and "bus network" not in rules.body
    assert "We value your privacy" in extract(with_consent_dialog(2), url(2)).body
    extractor = SiteAwareExtractor(SiteAwareConfig(min_elsewhere_chars=300))  # the article has ~400 characters
    first = extractor.extract(article(1, english=True), url(1))
    assert first.method == "default" and "bus network" in first.body
    result = extractor.extract(with_consent_dialog(2), url(2))
    assert result.method == METHOD_SIBLING_REGION
    assert "bus network" in result.body and "privacy" not in result.body
    assert result.body == extractor.extract(article(2, english=True), url(2)).body  # as without the dialog


def test_without_a_confident_sibling_or_when_switched_off_the_generic_result_stands():
    alone = SiteAwareExtractor().extract(with_consent_dialog(2), url(2))
    assert alone.body == extract(with_consent_dialog(2), url(2)).body
    extractor = SiteAwareExtractor(SiteAwareConfig(min_elsewhere_chars=300, use_sibling_region=False))
    extractor.extract(article(1, english=True), url(1))
    result = extractor.extract(with_consent_dialog(2), url(2))
    assert result.method == "default" and "privacy" in result.body


def test_pages_read_from_the_same_node_as_the_sibling_stay_generic():
    extractor = SiteAwareExtractor()
    methods = [extractor.extract(article(n), url(n)).method for n in range(1, 4)]
    assert methods == ["default"] * 3
    assert extractor.counts.sibling_region == 0


def _tree():
    return etree.fromstring(
        "<body><div id='wrap'><span>2024-05-20</span><div id='story'><p>text</p></div></div>"
        "<div id='other'><p>x</p></div></body>"
    )


def test_relation_of_the_siblings_node_to_the_generic_region():
    root = _tree()
    wrap, story, other = (root.find(f".//div[@id='{name}']") for name in ("wrap", "story", "other"))
    assert relation(story, [wrap]) == INSIDE
    assert relation(other, [wrap]) == ELSEWHERE
    assert relation(story, [story]) is None  # the same region
    assert relation(wrap, [story]) is None  # the generic region is a narrower part of the sibling's node


def _wrapped_page():
    """A page whose article (div.story) sits in a wrapper with a date and a share counter."""
    sentence = "国家统计局数据显示，一季度国内生产总值同比增长百分之五点三，比上年加快{}个百分点。"
    paragraphs = "".join(f"<p>{sentence.format(i)}</p>" for i in range(4))
    html = (
        "<html><head><title>t</title></head><body><div class='wrap'><p>2024-05-20 06:48</p>"
        f"<div class='story'>{paragraphs}</div><p>首赞</p><p>+1</p></div></body></html>"
    )
    return parse_page(html, url(1))


def _observation(xpath: str) -> Observation:
    return Observation(url(2), xpath, SearchRules(tag="div"))


def _region(page, div_class: str):
    """The page's index, the block of its div of class `div_class` (taken as the generic region) and its lines."""
    index = page.index()
    block = index.block_of(page.root.find(f".//div[@class='{div_class}']"))
    return index, block, index.body_lines([block])


def test_a_node_inside_the_generic_region_holding_most_of_its_text_is_read():
    page = _wrapped_page()
    index, wrap, lines = _region(page, "wrap")
    assert "首赞" in lines
    found = sibling_region(index, [wrap], lines, _observation('//div[@class="story"]'), 0.5, 500)
    assert found is not None and found.relation == INSIDE
    assert "首赞" not in found.lines and "2024-05-20 06:48" not in found.lines and len(found.lines) == 4
    assert sibling_region(index, [wrap], lines, _observation('//div[@class="story"]'), 0.99, 500) is None


def test_no_node_or_an_invalid_one_gives_nothing():
    page = _wrapped_page()
    index, wrap, lines = _region(page, "wrap")
    assert sibling_region(index, [wrap], lines, _observation('//div[@class="missing"]'), 0.5, 500) is None
    assert sibling_region(index, [wrap], lines, _observation("//p"), 0.5, 500) is None  # not one node
    assert sibling_region(index, [], lines, _observation('//div[@class="story"]'), 0.5, 500) is None


def _short_post_page():
    """A short post with no punctuation (no prose F) beside a payment notice every page of the site carries."""
    rule = "余额说明第{}条：余额是钱包充值的虚拟货币，按照一比一的比例进行支付金额的抵扣。"
    notice = "".join(f"<p>{rule.format(i)}</p>" for i in range(3))
    html = (
        "<html><head><title>t</title></head><body><div class='post'><p>生态系统社会价值评估模型代做</p>"
        f"<p>联系方式 某鹅 说明来处</p></div><div class='notice'>{notice}</div></body></html>"
    )
    return parse_page(html, url(1))


def test_a_template_text_region_gives_way_to_the_siblings_node_even_without_prose():
    page = _short_post_page()
    index, notice, lines = _region(page, "notice")
    recent = frozenset(hash(line) for line in lines)  # the notice was on the site's recent pages
    sibling = _observation('//div[@class="post"]')
    assert sibling_region(index, [notice], lines, sibling, 0.5, 500) is None  # no prose: not a valid body
    found = sibling_region(index, [notice], lines, sibling, 0.5, 500, template_text=True, recent=recent)
    assert found is not None and found.relation == ELSEWHERE
    assert found.lines == ["生态系统社会价值评估模型代做", "联系方式 某鹅 说明来处"]
    seen = recent | {hash(line) for line in found.lines}  # the node's text is the site's repeated text too
    assert sibling_region(index, [notice], lines, sibling, 0.5, 500, template_text=True, recent=seen) is None


WORDS = ["alder", "birch", "cedar", "dogwood", "elm", "fir", "ginkgo", "hazel", "ironwood", "juniper"]


def related_page(number: int, short: bool = False) -> str:
    """A post with a related-posts section of other posts' excerpts after it; `short`: a two-line note, so the
    generic region of that page is the related section."""
    headline = f"Field notes on {WORDS[number]} trees"
    own = ([f"<p>Short note {number}: the {WORDS[number]} is in bloom.</p>"] if short else
           [f"<p>This week I walked past the {WORDS[number]} trees on the ridge, {number} of them in a row, and "
            f"counted how many had lost branches in the {WORDS[number]} storm of the spring.</p>"] * 4)
    related = "".join(f"<article><h3>About the {WORDS[k]} hedge</h3><p>An excerpt of another post: the {WORDS[k]} "
                      f"hedge along the lane was cut back hard this winter, and it has grown back thicker than "
                      f"before, full of sparrows.</p></article>" for k in range(5))
    return (f"<html><head><title>{headline} | Ridge Walks</title></head><body><main><h1>{headline}</h1>"
            f'<div class="post-content">{"".join(own)}</div>'
            f'<section class="related-block">{related}</section></main></body></html>')


def test_a_siblings_node_elsewhere_does_not_replace_a_region_the_pages_title_speaks_for():
    """One page whose generic region was the related-posts section (its own post is two lines) must not make the
    next pages read that section: the page's title words are in its article, not in other posts' excerpts."""
    extractor = SiteAwareExtractor()
    extractor.extract(related_page(1, short=True), "https://ridge.example/1.html")
    result = extractor.extract(related_page(2), "https://ridge.example/2.html")
    assert "ridge" in result.body and "excerpt of another post" not in result.body
    assert result.method != METHOD_SIBLING_REGION
