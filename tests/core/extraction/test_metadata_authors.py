"""Authors: markup conventions, byline lines in English and Chinese, organisations,
sources and editors; on our own pages."""

from __future__ import annotations

import pytest

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.bylines import line_authors
from newscorpus.core.extraction.names import split_names

BODY_EN = ("<p>The river authority opened the new footbridge on a grey morning, and the first walkers crossed before "
           "the ribbon was cut. Engineers had worked through the winter to finish the deck.</p><p>Residents said the "
           "crossing halves the walk to the station; the council will publish traffic counts after a month.</p>")
BODY_ZH = ("<p>市河道管理部门在一个阴天的早晨开放了新建的人行桥，市民在剪彩前就已经走过桥面。工程人员整个冬天都在施工，"
           "终于在春节前完成了桥面铺设。</p><p>附近居民说，新桥让去车站的路程缩短了一半。市政部门表示，通行一个月后将公布人流统计。"
           "</p>")


def page(byline: str = "", head: str = "", body: str = BODY_EN, title: str = "Footbridge opens over the river",
         before: str = "", after: str = "") -> str:
    return (f"<html><head><title>{title}</title>{head}</head><body><header><a href='/'>Example Gazette</a></header>"
            f"{before}<article><h1>{title}</h1>{byline}{body}{after}</article>"
            "<footer><p>© 2026 Example Gazette</p></footer></body></html>")


def authors(html: str, url: str = "https://example.com/news/footbridge") -> tuple[str, ...]:
    result = extract(html, url)
    assert result.is_article
    return result.authors


@pytest.mark.parametrize("byline", [
    '<span class="author">Jane Roe</span>',
    '<div class="post-author"><span>Jane Roe</span><span>Senior Transport Reporter</span></div>',
    '<p>By <a rel="author" href="/about">Jane Roe</a></p>',
    '<span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Jane Roe</span>'
    '</span>',
    '<p>By Jane Roe</p>',
    '<p>By: Jane Roe | March 3, 2025</p>',
    '<p>Written by Jane Roe</p>',
    '<p>Written by</p><p>Jane Roe</p>',
    '<p><a href="/authors/jane-roe/">Jane Roe</a></p>',
])
def test_author_markup_and_byline_lines(byline):
    assert authors(page(byline)) == ("Jane Roe",)


def test_author_past_the_first_forty_lines():
    menu = "<ul>" + "".join(f"<li><a href='/s{n}'>Section {n}</a></li>" for n in range(60)) + "</ul>"
    assert authors(page("<p>By Jane Roe and John Doe</p>", before=menu)) == ("Jane Roe", "John Doe")


def test_structured_data_first_and_an_organisation_is_no_author():
    head = ('<script type="application/ld+json">{"@context":"https://schema.org","@graph":['
            '{"@type":"NewsArticle","headline":"Footbridge opens over the river",'
            '"author":{"@id":"https://example.com/#/person/jr"}},'
            '{"@type":"Person","@id":"https://example.com/#/person/jr","name":"Jane Roe"}]}</script>')
    assert authors(page("<p>By The Desk</p>", head=head)) == ("Jane Roe",)  # @id resolved, JSON-LD first
    org = ('<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Organization",'
           '"name":"Example Gazette"}}</script><meta property="og:site_name" content="Example Gazette">')
    assert authors(page('<p class="byline">By Jane Roe</p>', head=org)) == ("Jane Roe",)
    assert authors(page(head=org)) == ()  # the site stated as an organisation is the publisher, never the author


def test_a_box_of_author_links_is_no_byline():
    names = ["Ann Lee", "Bo Chan", "Cy Young", "Di Moss", "Ed Park", "Flo Tran", "Gus Hale", "Hal Ruiz"]
    box = ('<div class="author-list">' + "".join(f'<a href="/u/{n}">{name}</a> ' for n, name in enumerate(names))
           + "<p>Follow our writers for more stories about bridges and rivers.</p></div>")
    assert authors(page(after=box)) == ()


def test_commenters_are_no_authors():
    comments = ('<div id="comments"><div class="comment"><span class="comment-author">Florence says</span>'
                '<p>Lovely bridge.</p></div></div>')
    assert authors(page(after=comments)) == ()


@pytest.mark.parametrize(("line", "expected"), [
    ("作者：张三", ("张三",)),
    ("记者 徐睿翔", ("徐睿翔",)),                       # no colon
    ("新华日报·交汇点记者 徐睿翔", ("徐睿翔",)),
    ("光明日报记者 王建宏 张文攀", ("王建宏", "张文攀")),
    ("（实习记者 樊亮 张明超 记者惠禾）", ("樊亮", "张明超", "惠禾")),
    ("据新华社拉萨电（记者 格桑边觉）记者近日从自治区农业农村厅了解到", ("格桑边觉",)),
    ("（姚峰 上海报道）", ("姚峰",)),
    ("（袁源）", ("袁源",)),
    ("[ 黄宇 ] 来源：[ 国际金融报 ]", ("黄宇",)),
    ("本贴由大卫于2005年8月12日16:12:21在论坛发表", ("大卫",)),
    ("作者:zboygirl 阅读(1660) 评论(5)", ("zboygirl",)),
    ("作者：芊草凡凡 时间：2005-08-22", ("芊草凡凡",)),
])
def test_chinese_bylines(line, expected):
    assert line_authors([line])[0].names == expected


@pytest.mark.parametrize("line", ["来源：新华社", "近日，本刊记者经历了近4个小时的车程", "记者了解到", "（含税）",
                                  "（关闭窗口）", "■该作者文章"])
def test_chinese_lines_that_name_no_author(line):
    assert [c for c in line_authors([line]) if c.source != "editor"] == []


def test_a_source_is_no_author_and_an_editor_only_when_no_one_else_is_named():
    zh = page("<p>2022-02-13 09:57 来源：本地日报 编辑：孙桂芳</p>", body=BODY_ZH, title="城市新建人行桥正式通行")
    assert authors(zh, "https://example.cn/a/1.html") == ("孙桂芳",)
    with_reporter = page("<p>来源：本地日报</p><p>本报记者 王建宏</p>", body=BODY_ZH, title="城市新建人行桥正式通行",
                         after="<p>（责任编辑：孙桂芳）</p>")
    assert authors(with_reporter, "https://example.cn/a/1.html") == ("王建宏",)


@pytest.mark.parametrize(("text", "expected"), [
    ("Jane Roe, John Doe", ("Jane Roe", "John Doe")),
    ("Angela Holliday-Bell, MD", ("Angela Holliday-Bell, MD",)),
    ("Paul Frew, Home & Digital Security Expert", ("Paul Frew",)),
    ("Manoj Jain and Jagpreet Chhatwal, The Commercial Appeal", ("Manoj Jain", "Jagpreet Chhatwal")),
    ("Harry Rabinowitz Tech Reporter", ("Harry Rabinowitz",)),
    ("View all posts by Jessie Festa →", ("Jessie Festa",)),
    ("Updated by Jon Linkov", ()),
    ("Sat, 20 Dec, 2025", ()),
    ("NOC Admin", ()),
    ("Sign In", ()),
    ("ops@example.com", ()),
    ("No Author", ()),
    ("黑利突然宣布，将在大选中支持特朗普！", ()),  # a headline in a link list, not a name
])
def test_names(text, expected):
    assert split_names(text) == expected


ZH_TITLE = "城市新建人行桥正式通行"
ZH_URL = "https://news.example.cn/a/1.html"
# A lead paragraph opening with the agency's dateline and the reporter's credit, and a closing one ending with it.
ZH_LEAD = ("<p>新华社北京3月5日电（记者 李明）"
           + "市河道管理部门在一个阴天的早晨开放了新建的人行桥，市民在剪彩前就已经走过桥面。" * 5 + "</p>")
ZH_CLOSING = ("<p>" + "附近居民说，新桥让去车站的路程缩短了一半。市政部门表示，通行一个月后将公布人流统计。" * 4
              + "（总台记者 张倩）</p>")


def zh_page(head: str = "", byline: str = "", body: str = BODY_ZH, after: str = "",
            page_title: str = ZH_TITLE) -> str:
    return (f"<html><head><title>{page_title}</title>{head}</head><body><div class='nav'><a href='/'>首页</a></div>"
            f"<div class='main'><h1>{ZH_TITLE}</h1>{byline}{body}{after}</div></body></html>")


def test_a_portals_outlet_is_no_author():
    head = '<meta name="author" content="网易">'
    dated = "<p>2022-02-13 09:57 来源：本地日报</p>"
    assert authors(zh_page(head, dated, page_title=f"{ZH_TITLE}_网易新闻"), ZH_URL) == ()
    with_reporter = zh_page(head, dated, body=BODY_ZH + "<p>（记者 李明）</p>", page_title=f"{ZH_TITLE}_网易新闻")
    assert authors(with_reporter, ZH_URL) == ("李明",)


def test_the_site_stated_as_an_organisation_is_no_author_and_a_person_beside_it_is():
    site = '<meta property="og:site_name" content="Example Gazette">'
    org = ('<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"NewsMediaOrganization",'
           '"name":"Example Gazette"}}</script>')
    assert authors(page(head=site + org)) == ()
    both = ('<script type="application/ld+json">{"@type":"NewsArticle","author":[{"@type":"Person","name":"Jane Roe"},'
            '{"@type":"Organization","name":"Example Gazette"}]}</script>')
    assert authors(page(head=site + both)) == ("Jane Roe",)
    other_org = ('<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Organization",'
                 '"name":"Roe Research"}}</script>')
    assert authors(page("<p>By Jane Roe</p>", head=other_org)) == ("Jane Roe",)  # a person before an organisation
    assert authors(page(head=other_org)) == ("Roe Research",)  # not the site: the organisation when no one else is
    shown = '<meta name="author" content="Example Gazette">'  # a meta author that is the site: a byline first
    assert authors(page("<p>By Jane Roe</p>", head=site + shown)) == ("Jane Roe",)


def test_the_reporter_not_the_editor():
    editor_meta = '<meta name="author" content="孙桂芳">'
    page_with_meta = zh_page(editor_meta, body=ZH_LEAD + BODY_ZH, after="<p>责任编辑：孙桂芳</p>")
    assert authors(page_with_meta, ZH_URL) == ("李明",)
    marked = zh_page(byline='<p class="show_author">责任编辑：<span>孙桂芳</span></p>', body=BODY_ZH + ZH_CLOSING)
    assert authors(marked, ZH_URL) == ("张倩",)
    people = zh_page(body=BODY_ZH + "<p>（记者 王建宏）</p>", after="<p>（责编：孙桂芳、岳弘彬）</p>")
    assert authors(people, ZH_URL) == ("王建宏",)


@pytest.mark.parametrize("body", [ZH_LEAD + BODY_ZH, BODY_ZH + ZH_CLOSING])
def test_a_reporters_credit_inside_a_paragraph(body):
    expected = ("李明",) if body.startswith(ZH_LEAD) else ("张倩",)
    assert authors(zh_page(body=body, after="<p>责任编辑：孙桂芳</p>"), ZH_URL) == expected


@pytest.mark.parametrize("widget", ['<div class="author-share"><a href="#">复制链接</a></div>',
                                    '<div class="author-tools">分享到 微信 微博</div>',
                                    '<div class="author">Taboola</div>',
                                    '<div class="byline-widget">Outbrain</div>'])
def test_widgets_in_byline_boxes_are_no_authors(widget):
    assert authors(zh_page(byline=widget), ZH_URL) == ()
    assert authors(page(widget)) == ()


# Failure classes of issue 37 (authors), each on a page of our own.
SITE_HEAD = ('<meta property="og:site_name" content="Example Gazette">'
             '<title>Footbridge opens over the river | Example Gazette</title>')


@pytest.mark.parametrize("head", [
    '<meta name="author" content="Example Gazette">' + SITE_HEAD,            # meta author = og:site_name
    '<meta name="author" content="Example Gazette"><title>Footbridge opens over the river | Example Gazette</title>',
])
def test_the_site_name_is_never_stored_as_the_author(head):
    html = page(head=head).replace("<title>Footbridge opens over the river</title>", "")
    assert authors(html) == ()


@pytest.mark.parametrize("source", [
    '<meta name="author" content="Maps for Rivers">',
    '<script type="application/ld+json">{"@type":"BlogPosting","author":{"@type":"Person",'
    '"name":"Maps for Rivers"}}</script>',
])
def test_a_site_name_cut_to_a_shorter_name_is_still_the_site(source):
    # the stated name is cut at "for" to "Maps", which alone is no site name; the whole is
    head = source + ('<meta property="og:site_name" content="Maps for Rivers">'
                     '<title>Footbridge opens over the river · Maps for Rivers</title>')
    html = page(head=head).replace("<title>Footbridge opens over the river</title>", "")
    assert authors(html) == ()
    posted = '<p class="post-meta">Posted on Mar 4, 2026 by Jane Roe</p>'
    html = html.replace("<h1>Footbridge opens over the river</h1>", "<h1>Footbridge opens over the river</h1>" + posted)
    assert authors(html) == ("Jane Roe",)
    # an embedded post by the site's own account, its author box marked as one
    embedded = ('<blockquote class="tweet"><p>The footbridge is open.</p><span class="author">'
                '<a href="https://social.example/maps">Maps for Rivers</a></span></blockquote>')
    assert authors(html.replace("</article>", embedded + "</article>")) == ("Jane Roe",)


@pytest.mark.parametrize("widget", [
    '<div class="author-box"><a href="/authors/jane-roe/">Learn More</a></div>',
    '<div class="author-box"><span class="author-social">Connect on LinkedIn</span></div>',
])
def test_widget_text_is_no_name_and_the_byline_beside_it_is(widget):
    assert authors(page(widget + '<p class="author-name">Jane Roe</p>')) == ("Jane Roe",)
    assert authors(page(widget)) == ()


@pytest.mark.parametrize("role", ["Editor-in-Chief", "Marketing", "Event Coordinator", "Staff Writer",
                                  "Senior Editor", "Contributing Writer"])
def test_a_role_alone_is_no_name(role):
    assert split_names(role) == ()
    assert split_names(role, strict=False) == ()
    assert authors(page(head=f'<meta name="author" content="{role}">')) == ()


def test_a_name_then_its_role_on_the_byline_keeps_only_the_name():
    assert authors(page('<p>By Jane Roe, Editor-in-Chief</p>')) == ("Jane Roe",)
    assert authors(page('<p class="byline"><span>Jane Roe</span> <span>Editor-in-Chief</span></p>')) == \
        ("Jane Roe",)


@pytest.mark.parametrize("name", ["Center for Drug Evaluation and Research",
                                  "Department of Health and Human Services"])
def test_an_organisation_is_not_split_at_and(name):
    assert split_names(name, strict=False) == (name,)
    head = ('<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Organization",'
            f'"name":"{name}"}}}}</script>')
    assert authors(page(head=head)) == (name,)


def test_two_people_are_still_split_at_and():
    assert split_names("Jane Roe and John Doe") == ("Jane Roe", "John Doe")
    assert split_names("Jane Roe and John Doe", strict=False) == ("Jane Roe", "John Doe")


@pytest.mark.parametrize("meta", ["citation_author", "citation_authors", "dc.creator"])
def test_every_author_of_several_metas(meta):
    head = "".join(f'<meta name="{meta}" content="{name}">' for name in ("Jane Roe", "John Doe", "Ann Lee"))
    assert authors(page(head=head)) == ("Jane Roe", "John Doe", "Ann Lee")
    first_only = '<meta name="DC.Creator" content="Jane Roe">'  # a paper's first author, before the full list
    assert authors(page(head=first_only + head)) == ("Jane Roe", "John Doe", "Ann Lee")


@pytest.mark.parametrize("byline", ['<p class="byline">By Jane Roe<span>21 Comments</span></p>',
                                    '<p>By Jane Roe 21 Comments</p>',
                                    '<p>By Jane Roe · 4 comments</p>'])
def test_a_name_is_not_run_into_the_next_text(byline):
    assert authors(page(byline)) == ("Jane Roe",)


def test_the_author_of_a_related_paper_is_no_author():
    related = ('<aside class="related-posts"><h3>Related</h3><ul><li><a href="/p/2">Bridges of the north</a> '
               '<span class="author">John Doe</span></li></ul></aside>')
    assert authors(page("<p>By Jane Roe</p>", after=related)) == ("Jane Roe",)


def test_a_personal_site_named_after_its_writer_keeps_the_name():
    head = ('<meta name="author" content="Karl Voit"><meta property="og:site_name" content="Karl Voit">'
            '<title>Footbridge opens over the river | Karl Voit</title>')
    assert authors(page(head=head).replace("<title>Footbridge opens over the river</title>", "")) == ("Karl Voit",)
    assert split_names("IANSViewed 124 times") == ()


@pytest.mark.parametrize("widget", ['<div class="post_author"><a href="#tie">热门跟贴</a></div>',
                                    '<div class="author-bar"><a href="/m/">手机版</a></div>',
                                    '<div class="author-app"><a href="/app">下载App</a></div>',
                                    '<div class="author-app"><a href="/app">打开客户端</a></div>',
                                    '<div class="post_author"><span class="time">前天</span></div>'])
def test_chinese_buttons_in_byline_boxes_are_no_authors(widget):
    assert authors(zh_page(byline=widget), ZH_URL) == ()
    assert authors(zh_page(byline=widget, body=BODY_ZH + "<p>（记者 李明）</p>"), ZH_URL) == ("李明",)


def test_a_portals_commenter_is_no_author():
    thread = ('<div class="tie-area"><div class="single-tie"><div class="tie-author">'
              '<a class="name" href="#">爱你不变新</a><span>[网友]</span></div><p>这座桥修得真好。</p></div></div>')
    assert authors(zh_page(after=thread), ZH_URL) == ()


def test_a_bare_name_under_the_headline_is_the_author_and_a_bare_word_is_not():
    essay = zh_page(byline="<p>胡平</p>")
    assert authors(essay, ZH_URL) == ("胡平",)
    assert authors(zh_page(byline="<p>正文</p>"), ZH_URL) == ()  # no surname first: no name
    assert authors(zh_page(body=BODY_ZH + "<p>胡平</p>"), ZH_URL) == ()  # not under the headline
