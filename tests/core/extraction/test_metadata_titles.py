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


# Failure classes of issue 37 (titles), each on a page of our own.
GAZETTE = "<title>Footbridge opens over the river | Example Gazette</title>" \
    '<meta property="og:site_name" content="Example Gazette">'


@pytest.mark.parametrize("heading", [
    "<h1>Footbridge opens over the river<span class='byline'>By Jane Roe</span></h1>",
    "<h1>Footbridge opens over the river <small class='author'>by Jane Roe</small></h1>",
    "<h1><time datetime='2025-12-18'>Dec 18 2025</time> Footbridge opens over the river</h1>",
    "<h1><a href='/news/footbridge'><span class='post-date'>Dec 18 2025</span> Footbridge opens over the river</a>"
    "</h1>",
])
def test_a_byline_or_date_inside_the_heading_is_not_part_of_the_title(heading):
    assert title_of(GAZETTE, article_heading=heading) == "Footbridge opens over the river"


@pytest.mark.parametrize("heading", ["<h1><span class='dropcap'>C</span>ycle lanes open on the river road</h1>",
                                     "<h1>Cycle lanes open on the <em>river</em> road</h1>",
                                     "<h1>Cycle lanes open<br>on the river road</h1>"])
def test_inline_markup_does_not_split_a_word_and_a_line_break_parts_words(heading):
    assert title_of("", article_heading=heading) == "Cycle lanes open on the river road"


def test_a_separator_the_heading_lost_is_taken_from_the_stated_title():
    head = "<title>Footbridge opens: a new crossing for walkers | Example Gazette</title>" \
        '<meta property="og:site_name" content="Example Gazette">'
    assert title_of(head, article_heading="<h1>Footbridge opens<br>a new crossing for walkers</h1>") == \
        "Footbridge opens: a new crossing for walkers"


@pytest.mark.parametrize(("stated", "shown"), [("Walkers' new bridge opens", "Walkers’ new bridge opens"),
                                               ("Walkers’ new bridge opens", "Walkers' new bridge opens")])
def test_curly_and_straight_apostrophes_agree_and_the_heading_keeps_its_own(stated, shown):
    head = f'<meta property="og:title" content="{stated}">'
    assert title_of(head, article_heading=f"<h1>{shown}</h1>") == shown
    entity = "<title>Walkers&#8217; new bridge opens | Example Gazette</title>" \
        '<meta property="og:site_name" content="Example Gazette">'
    assert title_of(entity, article_heading="") == "Walkers’ new bridge opens"
