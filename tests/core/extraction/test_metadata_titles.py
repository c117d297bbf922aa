"""Headlines (the single-page rules): the article-region <h1> over og:title's social headline,
the site's name removed, a logo heading or a site name never the title; on our own pages."""

from __future__ import annotations

import pytest

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.titles import strip_site_name

BODY = ("<p>The river authority opened the new footbridge on a grey morning, and the first walkers crossed before the "
        "ribbon was cut. Engineers had worked through the winter to finish the deck.</p><p>Residents said the "
        "crossing halves the walk to the station; the council will publish traffic counts after a month.</p>")


def title_of(head: str, header: str = "", article_heading: str = "<h1>Footbridge opens over the river</h1>",
             url: str = "https://www.gazette.example/news/footbridge") -> str | None:
    html = (f"<html><head>{head}</head><body><header>{header}</header><main><article>{article_heading}{BODY}"
            "</article></main></body></html>")
    result = extract(html, url)
    assert result.is_article
    return result.title


def test_the_visible_headline_beats_the_social_headline():
    head = ("<title>Footbridge opens over the river | Example Gazette</title>"
            '<meta property="og:title" content="You will not believe this new bridge">')
    assert title_of(head) == "Footbridge opens over the river"


@pytest.mark.parametrize("page_title", [
    "Footbridge opens over the river | Example Gazette",
    "Footbridge opens over the river - Example Gazette",
    "Example Gazette » Footbridge opens over the river",
    "Footbridge opens over the river – Gazette.example",
])
def test_the_site_name_is_removed_from_a_stated_title(page_title):
    head = f'<title>{page_title}</title><meta property="og:site_name" content="Example Gazette">'
    assert title_of(head, article_heading="<h2>Footbridge</h2>") == "Footbridge opens over the river"


def test_chinese_site_suffix():
    head = "<title>城市新建人行桥正式通行_本地新闻网</title><meta property='og:site_name' content='本地新闻网'>"
    assert title_of(head, article_heading="", url="https://news.example.cn/a/1.html") == "城市新建人行桥正式通行"


def test_a_logo_heading_repeated_on_every_page_is_never_the_title():
    head = "<title>Footbridge opens over the river – My Garden Blog</title>"
    header = '<h1 class="site-title"><a href="/">My Garden Blog</a></h1>'
    assert title_of(head, header=header, article_heading="<h2 class='entry-title'>Footbridge opens over the river"
                                                          "</h2>") == "Footbridge opens over the river"
    # the logo heading is the page's only <h1> and <title> is only the site's name: still no site name as title
    assert title_of("<title>My Garden Blog</title>", header=header,
                    article_heading="<h2>Footbridge opens over the river</h2>") != "My Garden Blog"


def test_the_article_h1_beats_the_logo_h1():
    header = '<div class="logo"><h1><a href="/">Example Gazette</a></h1></div>'
    head = "<title>Footbridge opens over the river - Example Gazette</title>"
    assert title_of(head, header=header) == "Footbridge opens over the river"


def test_capitals_from_css_take_the_stated_spelling():
    head = '<meta property="og:title" content="Tips for Online Success">'
    assert title_of(head, article_heading="<h1>TIPS FOR ONLINE SUCCESS</h1>") == "Tips for Online Success"


def test_strip_site_name_is_a_pure_function_for_the_site_aware_stage():
    assert strip_site_name("Footbridge opens | Example Gazette", "Example Gazette") == "Footbridge opens"
    assert strip_site_name("Example Gazette - Footbridge opens", "Example Gazette") == "Footbridge opens"
    assert strip_site_name("城市新建人行桥正式通行_本地新闻网", "本地新闻网") == "城市新建人行桥正式通行"
    assert strip_site_name("Footbridge opens", "Example Gazette") == "Footbridge opens"  # not there: unchanged
    assert strip_site_name("Example Gazette", "Example Gazette") == "Example Gazette"  # nothing would remain
    assert strip_site_name("COVID-19 rules change", "Rules") == "COVID-19 rules change"  # no spaced separator


def test_a_title_that_is_only_the_site_name_leaves_the_headline_to_the_h1():
    head = "<title>-本地新闻网</title>"  # a template that lost its headline
    assert title_of(head, article_heading="<h1>城市新建人行桥正式通行</h1>",
                    url="https://news.example.cn/a/1.html") == "城市新建人行桥正式通行"
    assert strip_site_name("城市新建人行桥正式通行-本地新闻网", "本地新闻网") == "城市新建人行桥正式通行"


def test_a_wiki_edit_link_is_not_part_of_the_heading_and_a_home_link_marks_a_logo():
    head = "<title>Footbridge opens over the river - Example Wiki</title>"
    assert title_of(head, article_heading="<h1>Footbridge opens over the river [edit]</h1>") == \
        "Footbridge opens over the river"
    header = '<h1><a href="/">Example Gazette</a></h1>'
    assert title_of("<title>Example Gazette</title>", header=header,
                    article_heading="<h2>Footbridge opens</h2>") != "Example Gazette"
