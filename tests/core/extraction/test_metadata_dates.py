"""Dates as pages write them, on our own strings and pages."""

from __future__ import annotations

from datetime import date

import pytest

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.date_sources import DateCandidate, choose_dates
from newscorpus.core.extraction.dates import parse_date, parse_month, url_date

TODAY = date(2026, 11, 24)


@pytest.mark.parametrize(("text", "expected"), [
    ("16.12.2012", "2012-12-16"),                      # day-first, dotted
    ("Stand: 03.04.2021 14:05", "2021-04-03T14:05:00"),
    ("20/05/2024", "2024-05-20"),                      # the numbers say day-first
    ("05/20/2024", "2024-05-20"),                      # month-first
    ("05/06/2024", "2024-05-06"),                      # ambiguous slashes: month-first
    ("19. Juli 2014", "2014-07-19"),                   # German month
    ("December 29th 2019", "2019-12-29"),              # ordinal
    ("29th of December, 2019", "2019-12-29"),
    ("Dec. 29, 2019", "2019-12-29"),
    ("29 décembre 2019, 10h30", "2019-12-29T10:30:00"),
    ("5 de mayo de 2024", "2024-05-05"),               # Spanish
    ("12 marzo 2023", "2023-03-12"),                   # Italian
    ("7 мая 2022", "2022-05-07"),                      # Russian, genitive
    ("2023 Jan 7;15(1)", "2023-01-07"),                # citation style
    ("Published Mar. 5, 2024 at 3:04 p.m.", "2024-03-05T15:04:00"),
    ("7/5/2005 9:23:57 PM", "2005-07-05T21:23:57"),
    ("2024年5月20日 14:33", "2024-05-20T14:33:00"),
    ("2024年5月20日14时33分", "2024-05-20T14:33:00"),
    ("发布时间：2022-02-13 20:04:17", "2022-02-13T20:04:17"),
    ("2005-5-7 21:23:57", "2005-05-07T21:23:57"),
])
def test_spellings_of_a_day(text, expected):
    assert parse_date(text, TODAY) == expected


def test_offsets_are_kept_as_the_page_writes_them():
    assert parse_date("2024-05-20T01:30:00+08:00", TODAY) == "2024-05-20T01:30:00+08:00"  # not 2024-05-19 UTC
    assert parse_date("2024-05-20T01:30:00+0800", TODAY) == "2024-05-20T01:30:00+08:00"
    assert parse_date("2024-05-20T01:30:00Z", TODAY) == "2024-05-20T01:30:00+00:00"
    assert parse_date("2024-05-20 01:30", TODAY) == "2024-05-20T01:30:00"  # no offset stated: none added


@pytest.mark.parametrize("text", ["no date here", "in 2024 may 5 people came", "© 2025 Example Ltd",
                                  "2031-01-01", "1970-01-01", "31.02.2024", "12:30"])
def test_what_is_no_publication_day(text):
    assert parse_date(text, TODAY) is None


def test_month_precision_and_url_dates():
    assert parse_month("——《北京之春》1998年3月号", TODAY) == "1998-03"
    assert parse_month("Last updated: June 2022", TODAY) == "2022-06"
    assert parse_month("2024年5月20日", TODAY) is None  # a day, not a month
    assert url_date("https://example.com/news/2024/05/20/story.html", TODAY) == "2024-05-20"
    assert url_date("https://example.com/a/20240520/123.shtml", TODAY) == "2024-05-20"
    assert url_date("https://example.com/2024/99/story", TODAY) is None


def _candidate(source: str, value: str, kind: str = "published") -> DateCandidate:
    return DateCandidate(source, value, kind)


def test_a_utc_stamp_one_day_off_yields_to_the_pages_own_offset():
    chosen = choose_dates([_candidate("meta", "2025-12-19T02:41:41+00:00"),
                           _candidate("time", "2025-12-18T21:46:01-05:00", "unlabelled")])
    assert chosen.published == "2025-12-18T21:46:01-05:00"


def test_the_utc_stamp_yields_to_the_same_instant_in_the_pages_own_offset_not_to_a_mislabelled_one():
    # WordPress + Yoast (coolshell.cn): JSON-LD states the UTC wall time with the site's +08:00, the meta the
    # right UTC instant, the visible <time> the same instant on the next local day. The mislabelled JSON-LD
    # comes first among the local-offset candidates; the page's day is the <time>'s.
    chosen = choose_dates([_candidate("meta", "2014-02-21T16:27:10+00:00"),
                           _candidate("jsonld", "2014-02-21T16:27:10+08:00"),
                           _candidate("time", "2014-02-22T00:27:10+08:00", "unlabelled")])
    assert chosen.published == "2014-02-22T00:27:10+08:00"


def test_a_utc_stamp_on_the_same_day_as_every_local_time_is_kept():
    chosen = choose_dates([_candidate("meta", "2014-02-21T10:27:10+00:00"),
                           _candidate("time", "2014-02-21T18:27:10+08:00", "unlabelled")])
    assert chosen.published == "2014-02-21T10:27:10+00:00"


def test_a_generation_stamp_yields_to_an_earlier_visible_date():
    # JSON-LD published == modified (the page's build time) and the byline shows an earlier day.
    chosen = choose_dates([_candidate("jsonld", "2025-06-24"), _candidate("jsonld", "2025-06-24", "modified"),
                           _candidate("line", "2024-08-25", "unlabelled")])
    assert chosen.published == "2024-08-25" and chosen.modified == "2025-06-24"


def test_a_structured_date_after_the_modified_date_yields_to_an_earlier_visible_date():
    # nothing is modified before it is published: the JSON-LD published day is a build stamp
    chosen = choose_dates([_candidate("jsonld", "2025-08-21"), _candidate("jsonld", "2025-08-20", "modified"),
                           _candidate("line", "2023-04-26")])
    assert chosen.published == "2023-04-26"
    kept = choose_dates([_candidate("jsonld", "2025-08-21"), _candidate("jsonld", "2025-08-20", "modified"),
                         _candidate("line", "2023-04-26"), _candidate("time", "2025-08-21", "unlabelled")])
    assert kept.published == "2025-08-21"  # a visible source shows the structured day: it is the page's


PAGE = """<html><head><title>{title}</title>{head}</head><body>
<header><a href="/">Example Gazette</a><nav>{nav}</nav></header>
<article><h1>{title}</h1>{byline}
<p>The river authority opened the new footbridge on a grey morning, and the first walkers crossed before the
ribbon was cut. Engineers had worked through the winter to finish the deck.</p>
<p>Residents said the crossing halves the walk to the station; the council will publish traffic counts after a
month of use, and cyclists have asked for a ramp on the northern side.</p>{after}</article></body></html>"""


def page(title="Footbridge opens over the river", head="", byline="", after="", nav=""):
    return PAGE.format(title=title, head=head, byline=byline, after=after, nav=nav)


def test_a_date_line_past_the_first_forty_lines_is_read():
    nav = "".join(f"<li><a href='/s{n}'>Section {n}</a></li>" for n in range(60))
    result = extract(page(nav=f"<ul>{nav}</ul>", byline="<p>Published 19. Juli 2014</p>"),
                     "https://example.com/story")
    assert result.is_article and result.published_at == "2014-07-19"


def test_custom_meta_time_outside_the_head_and_url_dates():
    custom = extract(page(head='<meta name="w-published-date" content="2025-05-27T06:03:43Z">'),
                     "https://example.com/story")
    assert custom.published_at == "2025-05-27T06:03:43+00:00"
    time_in_body = extract(page(byline='<div class="meta"><time datetime="2024-11-02T08:00:00+01:00">2 Nov</time>'
                                       '</div>'), "https://example.com/story")
    assert time_in_body.published_at == "2024-11-02T08:00:00+01:00"
    from_url = extract(page(), "https://example.com/2023/03/07/footbridge-opens.html")
    assert from_url.published_at == "2023-03-07"


def test_a_modified_date_is_kept_apart():
    head = ('<meta property="article:published_time" content="2024-01-10T09:00:00+08:00">'
            '<meta property="article:modified_time" content="2024-02-01T10:00:00+08:00">')
    result = extract(page(head=head), "https://example.com/story")
    assert result.published_at == "2024-01-10T09:00:00+08:00"
    assert result.modified_at == "2024-02-01T10:00:00+08:00"


def test_chinese_date_lines():
    zh = PAGE.format(title="城市新建人行桥正式通行", head="", nav="", after="", byline=(
        "<div class='info'>2022-02-13 20:04:17 来源：本地日报</div>")).replace(
        "The river authority",
        "市河道管理部门在一个阴天的早晨开放了新建的人行桥，市民在剪彩前就已经走过桥面。工程人员整个冬天都在施工。"
        "The river authority")
    assert extract(zh.encode("gb18030"), "https://example.cn/a/1.html",
                   content_type="text/html; charset=gbk").published_at == "2022-02-13T20:04:17"


def test_a_listing_keeps_its_json_ld_date():
    links = "".join(f"<li><a href='/a{n}'>Another headline number {n} about the town</a></li>" for n in range(40))
    listing = (f'<html><head><script type="application/ld+json">{{"@type":"CollectionPage","datePublished":'
               f'"2024-03-05T08:30:00+08:00","name":"Town news"}}</script></head><body><ul>{links}</ul></body></html>')
    result = extract(listing, "https://example.com/town/")
    assert not result.is_article and result.reason == "listing_page"
    assert result.published_at == "2024-03-05T08:30:00+08:00"


@pytest.mark.parametrize(("text", "expected"), [
    ("18-03-08 10:23", "2018-03-08T10:23:00"),           # a two-digit year first, as zh portals write it
    ("发布时间：18-03-08", "2018-03-08"),                # a label before it
    ("Posted: 99-12-31", "1999-12-31"),                 # the century that puts it before today
    ("比分 18-03-08", None),                             # neither a clock nor a label: no date
    ("18.03.08 10:23", None),                           # dotted short dates are day-first elsewhere: not read
])
def test_a_two_digit_year_first(text, expected):
    assert parse_date(text, TODAY) == expected


def test_a_two_digit_year_on_a_page_is_read_year_first():
    zh = PAGE.format(title="城市新建人行桥正式通行", head="", nav="", after="",
                     byline="<div class='info'>发布时间：18-03-08 10:23 来源：本地日报</div>")
    assert extract(zh, "https://example.cn/a/1.html").published_at == "2018-03-08T10:23:00"


STAMP = ('<meta property="article:published_time" content="2024-05-20T09:00:00+00:00">'
         '<meta property="article:modified_time" content="2024-05-20T09:00:00+00:00">'
         '<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-05-20T09:00:00+00:00",'
         '"dateModified":"2024-05-20T09:00:00+00:00"}</script>')
QUOTED = "<p>Five years after the plan of March 5, 2019, the bridge opens to walkers and cyclists.</p>"


@pytest.mark.parametrize("byline", [
    QUOTED + "<p>By Jane Roe | May 20, 2024</p>",                        # the visible date agrees
    "<p>By Jane Roe</p>" + QUOTED,                                       # only the story states another day
])
def test_a_date_quoted_in_the_story_never_overrides_the_pages_own(byline):
    result = extract(page(head=STAMP, byline=byline), "https://example.com/story")
    assert result.published_at == "2024-05-20T09:00:00+00:00"


def test_a_story_date_is_the_last_resort():
    assert extract(page(byline="<p>By Jane Roe</p>" + QUOTED), "https://example.com/story").published_at == \
        "2019-03-05"


RELATED = ('<aside class="related"><ul><li><a href="/older">An older story <time datetime="2023-01-02">Jan 2, 2023'
           '</time></a></li></ul></aside>')


@pytest.mark.parametrize("head", [STAMP, ""])
def test_a_related_storys_date_is_not_the_pages(head):
    result = extract(page(head=head, byline='<p>By Jane Roe</p><span class="post-date">Published May 20, 2024</span>',
                          nav=RELATED), "https://example.com/story")
    assert result.published_at.startswith("2024-05-20")


@pytest.mark.parametrize(("header", "byline", "title"), [
    ("<div class='topbar'>Monday, December 7, 2026</div>", '<span class="post-date">May 20, 2024</span>',
     "Footbridge opens over the river"),
    ("<div class='top'>2026年12月7日 星期一</div>",
     "<div class='info'><span class='time'>2024-05-20 09:57</span></div>", "城市新建人行桥正式通行"),
])
def test_todays_date_in_the_header_is_not_the_pages(header, byline, title):
    assert extract(page(title=title, byline=byline, nav=header), "https://example.com/story").published_at \
        .startswith("2024-05-20")


def test_a_month_glued_to_the_word_before_it_is_read_as_the_lines_first_date():
    # inline elements joined without a space: the published day comes first, the "Updated" day after it
    assert parse_date("Mental HealthDECEMBER 22, 2022Updated: JANUARY 02, 2026", TODAY) == "2022-12-22"
    assert parse_date("summary 22, 2022", TODAY) is None  # a lower-case word ending in a month's letters is no date


@pytest.mark.parametrize("notice", [
    "<div class='notice'>Webinar: June 14, 2024 at 2 pm</div>",
    "<p>Register by June 14, 2024</p>",
    "<p>Event date: June 14, 2024</p>",
])
def test_an_event_notice_above_the_byline_is_not_the_pages_date(notice):
    result = extract(page(byline=notice + "<p>By Jane Roe</p><p>May 20, 2024</p>"), "https://example.com/story")
    assert result.published_at == "2024-05-20"


def test_a_date_in_the_opening_prose_is_not_the_byline_date():
    opening = ("<p>On March 5, 2019, the council approved the plan for a crossing, and the work began a year "
               "later.</p>")
    result = extract(page(byline=opening + "<p>By Jane Roe | May 20, 2024</p>"), "https://example.com/story")
    assert result.published_at == "2024-05-20"


def test_a_related_list_under_the_headline_does_not_date_the_page():
    related = ("<div class='related-posts'><ul><li><a href='/older'>An older story</a> <span class='date'>March 2, "
               "2023</span></li><li><a href='/old'>Another older story</a> <span class='date'>March 1, 2023</span>"
               "</li></ul></div>")
    result = extract(page(head=STAMP, byline="<p>By Jane Roe</p>" + related), "https://example.com/story")
    assert result.published_at.startswith("2024-05-20")
    result = extract(page(byline=related + "<p>By Jane Roe</p><p>Published May 20, 2024</p>"),
                     "https://example.com/story")
    assert result.published_at == "2024-05-20"


def test_a_marked_published_date_beats_an_unlabelled_time():
    card = ("<div class='card'><a href='/next'>Next: a ferry returns</a> <time datetime='2025-04-14'>Apr 14</time>"
            "</div>")
    result = extract(page(byline="<p>By Jane Roe</p><span class='post-date'>Published May 20, 2024</span>",
                          after=card), "https://example.com/story")
    assert result.published_at == "2024-05-20"


COMMENTS = ("<section id='comments' class='comments-area'><ol class='comment-list'><li class='comment'>"
            "<div class='comment-meta'><time datetime='2022-11-15T07:03:58-05:00'>November 15, 2022</time></div>"
            "<p>Great piece, thanks.</p></li></ol></section>"
            "<footer class='site-footer'><p>Site updated January 3, 2025</p></footer>")


@pytest.mark.parametrize("head", [STAMP, ""])
def test_a_comment_or_footer_date_is_not_the_pages(head):
    result = extract(page(head=head, byline="<p>By Jane Roe | May 20, 2024</p>", after=COMMENTS),
                     "https://example.com/story")
    assert result.published_at.startswith("2024-05-20")


def test_a_stamp_shown_as_the_updated_day_is_kept_over_a_comment_date():
    # JSON-LD published == modified, the byline shows that day as "Updated", a comment an older day
    head = ('<script type="application/ld+json">{"@type":"BlogPosting","datePublished":"2025-12-11T10:51:03+00:00",'
            '"dateModified":"2025-12-11T12:01:19+00:00"}</script>')
    result = extract(page(head=head, byline="<p>By Jane Roe</p><p>Updated December 11, 2025</p>", after=COMMENTS),
                     "https://example.com/story")
    assert result.published_at.startswith("2025-12-11")


def test_the_local_day_of_a_time_with_an_offset_is_the_pages():
    # 01:30 at +08:00 is the previous day in UTC: the page's day is its own
    head = '<meta property="article:published_time" content="2024-05-20T01:30:00+08:00">'
    result = extract(page(head=head, byline="<p>By Jane Roe</p>"), "https://example.com/story")
    assert result.published_at == "2024-05-20T01:30:00+08:00"
    chosen = choose_dates([_candidate("time", "2024-05-19T23:30:00-04:00", "unlabelled"),
                           _candidate("line", "2024-05-19", "unlabelled")])
    assert chosen.published[:10] == "2024-05-19"


def test_a_page_without_a_candidate_of_ours_takes_htmldates_date():
    pytest.importorskip("htmldate")
    # a date only in an element htmldate reads (a class it knows) and none of our sources reads
    html = page(byline="<p>By Jane Roe</p>").replace(
        "<article>", "<article><div class='entry-meta'><span class='byline-date'>2024-05-20</span></div>")
    result = extract(html, "https://example.com/story")
    assert result.published_at is not None and result.published_at.startswith("2024-05-20")


def test_a_date_deep_in_the_story_never_overrides_json_ld_meta_and_the_visible_date():
    deep = "".join(f"<p>Paragraph {n} of the account of the works on the river and the town that grew around it."
                   "</p>" for n in range(12))
    result = extract(page(head=STAMP, byline="<p>By Jane Roe | May 20, 2024</p>",
                          after=deep + "<p>Timeline</p><p>March 5, 2019</p><p>Plan approved</p>"),
                     "https://example.com/story")
    assert result.published_at == "2024-05-20T09:00:00+00:00"


@pytest.mark.parametrize(("head", "byline", "expected"), [
    # the meta's 03-09-2026 is ambiguous; the byline's spelled date fixes it as March 9
    ('<meta property="article:published_time" content="03-09-2026">', "<p>Published March 9, 2026</p>", "2026-03-09"),
    # the byline's 03/10/2023 is ambiguous; the URL's /2023/october/03/ fixes it as 3 October
    ("", "<p>By Jane Roe</p><p>03/10/2023</p>", "2023-10-03"),
])
def test_a_day_month_ambiguity_is_fixed_by_another_date_of_the_page(head, byline, expected):
    result = extract(page(head=head, byline=byline), "https://example.com/blog/2023/october/03/footbridge")
    assert result.published_at == expected


def test_an_ambiguous_date_stands_when_nothing_on_the_page_fixes_it():
    result = extract(page(byline="<p>By Jane Roe</p><p>05/06/2024</p>"), "https://example.com/story")
    assert result.published_at == "2024-05-06"


def test_a_time_in_the_site_menu_above_the_headline_is_not_the_pages():
    menu = ("<div class='menu-column'><div class='views-row'><a href='/news/1'>Career news</a>\n"
            "<time datetime='2025-01-31T12:00:00Z'>01/31/2025</time></div></div>")
    html = page(byline="<div class='node__meta'>\n<time datetime='2017-03-01T12:00:00Z'>03/01/2017</time>"
                       "\n</div>").replace("</header>", "</header>" + menu).replace("<h1>", "\n<h1>")
    assert extract(html, "https://example.com/story").published_at == "2017-03-01T12:00:00+00:00"


def test_a_month_alone_on_a_line_dates_a_page_that_states_no_day():
    assert parse_month("November 2015", TODAY) == "2015-11"
    assert parse_month("In November 2015 the works began", TODAY) is None  # a sentence: not a dateline
    assert extract(page(byline="<p>By Jane Roe</p><p>November 2015</p>"), "https://example.com/story") \
        .published_at == "2015-11"
    # a stated month beats the modified date, the only day the page states
    head = '<meta property="article:modified_time" content="2025-09-17T17:00:45+00:00">'
    assert extract(page(head=head, byline="<h6>Date</h6><p>November 2003</p>"), "https://example.com/story") \
        .published_at == "2003-11"


@pytest.mark.parametrize(("head", "byline", "expected"), [
    # a month line of the page (an archive link) fixes 12/03/2026 as 12 March
    ("", "<p>By Jane Roe - 12/03/2026</p><ul><li><a href='/archive/3/2026'>March 2026</a></li></ul>", "2026-03-12"),
    # the lead image's upload month fixes 04/01/2024 as 4 January
    ('<meta property="og:image" content="https://example.com/wp-content/uploads/2024/01/bike.jpg">',
     "<p>By Jane Roe</p><p>04/01/2024</p>", "2024-01-04"),
])
def test_a_month_of_the_page_fixes_an_ambiguous_day_and_month(head, byline, expected):
    assert extract(page(head=head, byline=byline), "https://example.com/story").published_at == expected
