from lxml import etree

from newscorpus.core.site_aware.dom_diff import delete_same
from newscorpus.core.site_aware.skeleton import build_skeleton, content_root
from tests.core.site_aware.pages import article


def _parse(html: str):
    return etree.fromstring(html, etree.HTMLParser())


def test_delete_same_removes_nav_and_footer_keeps_the_body():
    page, sibling = _parse(article(1)), _parse(article(2))
    body = content_root(page)
    removed = delete_same(body, build_skeleton(body), build_skeleton(content_root(sibling)))
    text = "".join(page.itertext())
    assert removed >= 3
    assert "首页" not in text and "版权所有" not in text and "热门文章一" not in text  # nav, footer, sidebar
    assert "一季度经济运行总体平稳 第1期" in text  # own headline
    assert "国家统计局数据显示" in text  # body paragraphs
    assert "来源" not in text  # the fixed label is template text too


def test_delete_same_keeps_a_paragraph_both_pages_quote():
    quote = "<p>" + "A long paragraph that two digest pages of the same blog both quote word for word. " * 2 + "</p>"
    shell = "<html><body><div class='nav'><a>Home</a></div><div class='post'>{}</div></body></html>"
    first = shell.format(quote + "<p>First own text.</p>")
    second = shell.format(quote + "<p>Second text.</p>")
    page = _parse(first)
    body = content_root(page)
    delete_same(body, build_skeleton(body), build_skeleton(content_root(_parse(second))))
    text = "".join(page.itertext())
    assert "Home" not in text
    assert "quote word for word" in text and "First own text." in text


def test_identical_pages_leave_nothing():
    page = _parse(article(3, english=True))
    body = content_root(page)
    delete_same(body, build_skeleton(body), build_skeleton(content_root(_parse(article(3, english=True)))))
    assert "".join(body.itertext()).strip() == ""
