"""Generate the demo site's articles and render its pages (deterministic for a given article count)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from html import escape

from newscorpus.demo import texts

ZH_SECTION, EN_SECTION = "china", "world"
COPYRIGHT_ZH = "版权所有 © 2026 示例新闻网 保留所有权利"
FEEDBACK_ZH = "如果你对新闻频道有任何意见或建议，请到交流平台反馈"
COPYRIGHT_EN = "Copyright © 2026 Demo News. All rights reserved."
# A line every article body of the demo ends with (inside the body region, so extraction keeps it and the
# line-noise stage has something to learn and remove).
BODY_NOISE_ZH = "责任编辑：李明 【纠错】 【分享到微信】"
BODY_NOISE_EN = "Share this article: email, X, Facebook. Sign up for our daily newsletter."


@dataclass(frozen=True)
class DemoArticle:
    number: int
    lang: str            # "zh" | "en"
    encoding: str        # "utf-8", "gbk-meta" (declared in <meta>), "gbk-undeclared" (no charset anywhere)
    title: str
    author: str
    published: date
    paragraphs: tuple[str, ...]
    folder: str | None = None  # first path segment; the section's name by default

    @property
    def section(self) -> str:
        return ZH_SECTION if self.lang == "zh" else EN_SECTION

    @property
    def path(self) -> str:
        day = self.published
        return f"/{self.folder or self.section}/{day:%Y/%m/%d}/story-{self.number:04d}.html"

    @property
    def body(self) -> str:
        return "\n".join(self.paragraphs)


def generate_articles(count: int = 30, seed: int = 20261122) -> list[DemoArticle]:
    """``count`` articles: 60 % Chinese (4 of them GBK-encoded for every 30), 40 % English."""
    rng = random.Random(seed)
    articles = []
    for number in range(1, count + 1):
        lang = "zh" if number % 5 in (1, 2, 3) else "en"
        encoding = "utf-8"
        if lang == "zh" and number % 30 in (1, 6):
            encoding = "gbk-meta"
        elif lang == "zh" and number % 30 in (11, 16):
            encoding = "gbk-undeclared"
        places, authors = ((texts.ZH_PLACES, texts.ZH_AUTHORS) if lang == "zh"
                           else (texts.EN_PLACES, texts.EN_AUTHORS))
        place = rng.choice(places)
        paragraphs = tuple(_paragraph(rng, lang, place) for _ in range(rng.randint(4, 7)))
        title = _title(rng, lang, place, number)
        published = date(2026, 11, 1) + timedelta(days=number % 20)
        articles.append(DemoArticle(number, lang, encoding, title, rng.choice(authors), published, paragraphs))
    return articles


def _project(rng: random.Random, lang: str) -> str:
    if lang == "zh":
        return rng.choice(texts.ZH_ADJ) + rng.choice(texts.ZH_NOUN) + rng.choice(texts.ZH_SUFFIX)
    return f"the {rng.choice(texts.EN_ADJ)} {rng.choice(texts.EN_NOUN)} {rng.choice(texts.EN_SUFFIX)}"


def _sentence(rng: random.Random, lang: str, place: str) -> str:
    """One sentence from independently drawn short parts (newscorpus.demo.texts)."""
    number = rng.randint(2, 99)
    if lang == "zh":
        detail = rng.choice(texts.ZH_DETAIL) if rng.random() < 0.4 else ""
        return (f"{detail}{rng.choice(texts.ZH_WHEN)}，{place}{rng.choice(texts.ZH_ORG)}{rng.choice(texts.ZH_DID)}"
                f"{_project(rng, lang)}，{rng.choice(texts.ZH_COUNT)}{number}{rng.choice(texts.ZH_UNIT)}"
                f"{rng.choice(texts.ZH_OUTCOME)}。")
    detail = rng.choice(texts.EN_DETAIL) + " " if rng.random() < 0.4 else ""
    when = rng.choice(texts.EN_WHEN)
    sentence = (f"{detail}{when if not detail else when[0].lower() + when[1:]}, the {place} "
                f"{rng.choice(texts.EN_ORG)} {rng.choice(texts.EN_DID)} {_project(rng, lang)}; "
                f"{rng.choice(texts.EN_COUNT).lower()}, {number} {rng.choice(texts.EN_UNIT)} "
                f"{rng.choice(texts.EN_OUTCOME)}.")
    return sentence[0].upper() + sentence[1:]


def _paragraph(rng: random.Random, lang: str, place: str) -> str:
    return ("" if lang == "zh" else " ").join(_sentence(rng, lang, place) for _ in range(rng.randint(2, 4)))


def _title(rng: random.Random, lang: str, place: str, number: int) -> str:
    if lang == "zh":
        return f"{place}{rng.choice(texts.ZH_ORG)}推进{_project(rng, lang)}（第{number}期）"
    return f"{place} {rng.choice(texts.EN_ORG)} moves ahead with {_project(rng, lang)} (report {number})"


def _layout(title: str, lang: str, main: str, sidebar_links: list[tuple[str, str]], meta_charset: str | None) -> str:
    charset = f'<meta http-equiv="Content-Type" content="text/html; charset={meta_charset}">' if meta_charset else ""
    nav = (
        '<a href="/">首页</a> <a href="/section/china/">国内</a> <a href="/section/world/">国际</a>'
        if lang == "zh" else
        '<a href="/">Home</a> <a href="/section/china/">China</a> <a href="/section/world/">World</a>'
    )
    side_title = "热门新闻" if lang == "zh" else "Most read"
    side = "".join(f'<li><a href="{escape(href)}">{escape(text)}</a></li>' for href, text in sidebar_links)
    footer = (f"<p>{COPYRIGHT_ZH}</p><p>{FEEDBACK_ZH}</p>" if lang == "zh" else f"<p>{COPYRIGHT_EN}</p>")
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head>{charset}<title>{escape(title)}</title>'
        '<link rel="stylesheet" href="/static/site.css"><script>var analytics = {page: 1};</script></head>'
        f'<body><div id="header"><div class="logo">Demo News</div><div class="nav">{nav}</div></div>'
        f'<div id="wrap"><div id="main">{main}</div>'
        f'<div id="side"><h3>{side_title}</h3><ul>{side}</ul></div></div>'
        f'<div id="footer">{footer}<a href="/missing.html">sitemap</a> <a href="/private/secret.html">admin</a>'
        '</div></body></html>'
    )


def render_article(article: DemoArticle, others: list[DemoArticle]) -> bytes:
    if article.lang == "zh":
        byline = f"来源：示例新闻网　作者：{article.author}　发布时间：{article.published:%Y-%m-%d} 10:30"
    else:
        byline = f"By {article.author} | Published {article.published:%d %B %Y}"
    paragraphs = "".join(f"<p>{escape(p)}</p>" for p in article.paragraphs)
    paragraphs += f"<p>{BODY_NOISE_ZH if article.lang == 'zh' else BODY_NOISE_EN}</p>"
    main = (
        f'<div class="crumbs"><a href="/">Demo News</a> &gt; <a href="/section/{article.section}/">'
        f'{article.section}</a></div><h1>{escape(article.title)}</h1><div class="byline">{escape(byline)}</div>'
        f'<div class="article-body">{paragraphs}</div>'
        f'<time datetime="{article.published:%Y-%m-%d}T10:30:00+08:00"></time>'
    )
    links = [(other.path, other.title) for other in others[:5]]
    meta_charset = {"utf-8": "utf-8", "gbk-meta": "gb2312", "gbk-undeclared": None}[article.encoding]
    html = _layout(f"{article.title} - Demo News", article.lang, main, links, meta_charset)
    if article.encoding.startswith("gbk"):
        return html.encode("gbk", errors="xmlcharrefreplace")  # as GBK sites write &copy; and the like
    return html.encode("utf-8")


def render_listing(title: str, lang: str, articles: list[DemoArticle], next_page: str | None) -> bytes:
    items = "".join(
        f'<li><a href="{a.path}">{escape(a.title)}</a> <span>{a.published:%Y-%m-%d}</span></li>' for a in articles
    )
    more = f'<a href="{next_page}">下一页 / next</a>' if next_page else ""
    main = f"<h2>{escape(title)}</h2><ul class=\"list\">{items}</ul>{more}"
    return _layout(title, lang, main, [], "utf-8").encode("utf-8")


def render_sitemap_index(base_url: str) -> bytes:
    entries = "".join(
        f"<sitemap><loc>{base_url}{name}</loc></sitemap>" for name in ("/sitemap-china.xml", "/sitemap-news.xml")
    )
    return (f'<?xml version="1.0" encoding="UTF-8"?><sitemapindex '
            f'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</sitemapindex>').encode()


def render_sitemap(base_url: str, articles: list[DemoArticle], news: bool) -> bytes:
    namespace = ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"' if news else ""
    entries = []
    for article in articles:
        extra = ""
        if news:
            extra = (f"<news:news><news:publication><news:name>Demo News</news:name><news:language>"
                     f"{article.lang}</news:language></news:publication><news:publication_date>"
                     f"{article.published:%Y-%m-%d}</news:publication_date><news:title>{escape(article.title)}"
                     "</news:title></news:news>")
        entries.append(f"<url><loc>{base_url}{article.path}</loc>{extra}</url>")
    return (f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
            f'{namespace}>{"".join(entries)}</urlset>').encode()


def render_rss(base_url: str, articles: list[DemoArticle]) -> bytes:
    items = "".join(
        f"<item><title>{escape(a.title)}</title><link>{base_url}{a.path}</link>"
        f"<pubDate>{a.published:%a, %d %b %Y} 10:30:00 +0000</pubDate></item>" for a in articles
    )
    return (f'<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Demo News</title>'
            f"<link>{base_url}/</link>{items}</channel></rss>").encode()
