"""A list page (section, tag, index) is reported as listing_page, not as an article; pages that state an
article, or show their headline, keep it."""

from __future__ import annotations

from newscorpus.core.extraction import extract

EN_TEASERS = [f"Ferry story {n}: the timetable changes next month on the north pier line" for n in range(30)]
ZH_TEASERS = [f"轮渡新闻第{n}条：北码头航线下月起调整时刻表，增开第二班船" for n in range(30)]


def _list_page(teasers: list[str], intro: str, head: str = "") -> str:
    # Each entry: a linked headline and a byline-and-date line (text that is not prose).
    items = "".join(
        f"<li><a href='/s/{n}'>{t}</a><div class='meta'>Harbour desk {n} May 2026</div></li>"
        for n, t in enumerate(teasers)
    )
    return (
        f"<html><head><title>Ferries</title>{head}</head><body><nav><a href='/'>Home</a></nav>"
        f"<div class='section'><p>{intro}</p><ul class='list'>{items}</ul></div></body></html>"
    )


def test_a_list_page_is_a_listing_en_and_zh() -> None:
    en = _list_page(EN_TEASERS, "All our ferry coverage, updated every day, with the newest stories first.")
    zh = _list_page(ZH_TEASERS, "本栏目汇集轮渡相关报道，每天更新，最新的报道排在最前面。")
    assert extract(en).reason == "listing_page"
    assert extract(zh).reason == "listing_page"


def test_a_page_that_states_an_article_keeps_its_body() -> None:
    intro = "All our ferry coverage, updated every day, with the newest stories first."
    marked = _list_page(EN_TEASERS, intro, head="<meta property='og:type' content='article'>")
    ld = _list_page(EN_TEASERS, intro, head='<script type="application/ld+json">{"@type": "NewsArticle"}</script>')
    for page in (marked, ld):
        result = extract(page)
        assert result.reason is None and result.body == intro


EN_STORY = ("The council said on Monday that the second ferry will start running next month, and that queues at the "
            "north pier should be shorter by the summer. The new boat seats 300 people and will leave every forty "
            "minutes from seven in the morning. Tickets stay at the same price, the council said, and season passes "
            "bought before the change will be honoured. The harbour master asked passengers to arrive ten minutes "
            "early during the first week while staff learn the new timetable.")
ZH_STORY = ("市政府周一表示，第二班渡轮将于下月开始运营，北码头的排队情况预计在夏季前得到缓解。新船可容纳三百名乘客，"
            "从早上七点起每隔四十分钟开出一班。市政府说，票价保持不变，在调整前购买的季票仍然有效。港务长提醒乘客在"
            "新时刻表实施的第一周提前十分钟到达码头，因为工作人员还在熟悉新的安排。码头还将增加座椅和遮雨棚，方便老人"
            "和带孩子的乘客候船。市政府同时表示，如果客流继续增长，明年还会考虑开通第三条航线，连接南岸的新住宅区。"
            "附近的商户对此表示欢迎，认为更多的班次会带来更多的顾客。也有居民担心码头周边的交通会更加拥堵，希望政府"
            "同步调整公交线路和停车安排。港务部门表示，将在下月初召开说明会，听取市民的意见，并在网站上公布详细的时"
            "刻表和票价信息。")


def _story_among_teasers(story: str, teasers: list[str], summary: str, heading: str) -> str:
    # A short story on a page of teasers: many section links, then teasers each with a one-line summary, and a
    # heading that is not the page's title (so no headline is found to mark the article).
    nav = "".join(f"<li><a href='/section/{n}'>Section {n}</a></li>" for n in range(120))
    items = "".join(f"<div class='teaser'><a href='/s/{n}'>{t}</a><p>{summary}</p></div>"
                    for n, t in enumerate(teasers * 2))
    return (f"<html><head><title>Harbour News</title></head><body><nav><ul>{nav}</ul></nav><div class='content'>"
            f"<h1>{heading}</h1><p>{story}</p></div><aside>{items}</aside></body></html>")


def test_a_short_story_on_a_page_of_teasers_is_an_article_en_and_zh() -> None:
    for story, teasers, summary, heading in (
        (EN_STORY, EN_TEASERS, "A short summary of this story, two lines.", "Second ferry to start next month"),
        (ZH_STORY, ZH_TEASERS, "这是一条简短的新闻摘要，共有两行。", "第二班渡轮下月开通"),
    ):
        result = extract(_story_among_teasers(story, teasers, summary, heading))
        assert result.reason is None and story in result.body
        # the same page with a description only a few times as long as a teaser's summary is still a listing
        short = story[:len(story) // 3]
        assert extract(_story_among_teasers(short, teasers, summary, heading)).reason == "listing_page"
