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
