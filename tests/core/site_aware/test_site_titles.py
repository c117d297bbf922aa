"""Site-level title evidence: the site's <title> affix learnt from many pages, the site's own texts (its name in a
logo <h1>) never an article's title, and template fields that keep being checked."""

from __future__ import annotations

from collections import Counter

from newscorpus.core.site_aware import site_titles
from newscorpus.core.site_aware.cascade import METHOD_TEMPLATE, SiteAwareExtractor
from newscorpus.core.site_aware.site_titles import SiteTitles, affixes_of, agrees
from newscorpus.core.site_aware.templates import BODY, FieldTemplate

SITE = "Pebble Notes – a blog about small tools"
HEADLINES = [
    "Why I stopped using tabs", "A week with a split keyboard", "Notes on shell history",
    "Backups that actually restore", "Reading logs without grep", "The joy of boring databases",
    "Testing the clock", "On writing small READMEs",
]
PARAGRAPHS = [
    "I have kept the same editor settings for years, and this spring I finally asked why they were there.",
    "Most of them came from a colleague who left long ago; nobody remembered what problem they solved.",
    "So I removed them one by one, waited a week each time, and wrote down what broke and what did not.",
    "Almost nothing broke. The few settings that mattered now have a comment saying why they exist.",
]


def blog_post(number: int, site_title_tag: str = "h1") -> str:
    """A WordPress-like post of our invented blog: the blog's name in <h1 class="site-title"> on every page
    (before the post's own <h1>), and "headline | Site name" as its <title>."""
    headline = HEADLINES[number % len(HEADLINES)] + f" ({number})"
    body = "".join(f"<p>{text} Post {number}.</p>" for text in PARAGRAPHS)
    return (
        f"<html><head><title>{headline} | {SITE.replace('–', '-')}</title>"
        f'<meta property="og:title" content="{headline} | {SITE}"></head><body>'
        f'<header><{site_title_tag} class="site-title"><a href="/">{SITE}</a></{site_title_tag}>'
        f'<p class="site-description">Small tools, used well</p></header>'
        f'<main><article><h1 class="entry-title">{headline}</h1><div class="entry-content">{body}</div>'
        f"</article></main><footer><p>Proudly powered by a static site</p></footer></body></html>"
    )


def blog_url(number: int) -> str:
    return f"https://pebble.example.org/2024/05/post-{number}.html"


def test_affixes_are_the_texts_after_or_before_a_separator():
    suffixes, prefixes = affixes_of("Why I stopped using tabs | Pebble Notes - a blog")
    assert "| pebble notes | a blog" in suffixes and "| a blog" in suffixes
    assert "why i stopped using tabs |" in prefixes
    assert affixes_of("No separator here") == (set(), set())


def test_suffix_is_learnt_from_three_pages_and_removed():
    titles = SiteTitles()
    titles.learn(["First story | Example Daily"], [])
    titles.learn(["Second story | Example Daily"], [])
    assert titles.without_affixes("Second story | Example Daily") == "Second story | Example Daily"  # 2 pages: thin
    titles.learn(["Third story | Example Daily"], [])
    assert titles.without_affixes("Fourth story | Example Daily") == "Fourth story"
    assert titles.without_affixes("Fourth story – Example Daily") == "Fourth story"  # another dash, the same affix
    assert titles.without_affixes("COVID-19 rules change") == "COVID-19 rules change"  # not the site's
    assert titles.is_site_text("Example Daily")  # the learnt affix itself is the site's name


def test_prefix_and_chinese_suffix_are_learnt():
    titles = SiteTitles()
    for story in ("一季度经济运行总体平稳", "城市公交线路调整", "春季农业生产有序推进"):
        titles.learn([f"{story}_示例新闻网"], [])
    assert titles.without_affixes("夏粮收购工作全面展开_示例新闻网") == "夏粮收购工作全面展开"
    prefixed = SiteTitles()
    for story in ("Rail fares rise", "Bus routes cut", "Ferry strike ends"):
        prefixed.learn([f"Example Daily | {story}"], [])
    assert prefixed.without_affixes("Example Daily | Tram line opens") == "Tram line opens"


def test_a_text_on_many_pages_above_different_titles_is_the_sites():
    titles = SiteTitles()
    for number in range(3):
        titles.learn([f"Story {'abc'[number]} of the day"], ["Pebble Notes", f"Story {'abc'[number]} of the day"])
    assert titles.is_site_text("Pebble Notes")
    assert not titles.is_site_text("Story a of the day")
    assert titles.choose(["Pebble Notes", "Story d of the day"]) == "Story d of the day"


def test_a_series_whose_pages_share_a_title_keeps_it():
    """A weekly quiz titled the same every week: the text is each page's own stated title, a minority of the
    site's pages: it is the article's title, not the site's."""
    titles = SiteTitles()
    for number in range(12):
        titles.learn([f"Unrelated story number {'abcdefghijkl'[number]}"], [])
    for _ in range(3):
        titles.learn(["News quiz"], ["News quiz"])
    assert not titles.is_site_text("News quiz")
    assert titles.choose(["News quiz"]) == "News quiz"


def test_agreement_with_the_stated_titles():
    assert agrees("Why I stopped using tabs", ["Why I stopped using tabs | Pebble Notes"])
    assert not agrees("Notes", ["Why I stopped using tabs | Pebble Notes"])  # too short to tell
    assert not agrees("Small tools, used well", ["Why I stopped using tabs | Pebble Notes"])


def test_a_site_title_h1_on_every_page_is_never_the_title():
    extractor = SiteAwareExtractor()
    results = [extractor.extract(blog_post(n), blog_url(n)) for n in range(1, 9)]
    headlines = [HEADLINES[n % len(HEADLINES)] + f" ({n})" for n in range(1, 9)]
    assert all(r.title and r.title != SITE for r in results)
    # The first two keep the generic title (evidence of two pages is thin); from the 3rd page on, the site's
    # suffix is learnt and removed: the title is the post's headline.
    assert all(r.title.startswith(headline) for r, headline in zip(results, headlines, strict=True))
    assert [r.title for r in results[2:]] == headlines[2:]
    assert any(r.method == METHOD_TEMPLATE for r in results)
    for template in extractor.templates():  # the logo <h1> never became a template's title field
        assert not any("site-title" in xpath for xpath in template.fields.get("title", FieldTemplate()).xpaths)


def test_a_template_title_that_stops_agreeing_is_dropped():
    extractor = SiteAwareExtractor()
    for n in range(1, 6):
        extractor.extract(blog_post(n), blog_url(n))
    template = extractor.templates()[0]
    template.fields["title"] = FieldTemplate(['//p[@class="site-description"]'])
    first = extractor.extract(blog_post(6), blog_url(6))
    assert first.title == HEADLINES[6 % len(HEADLINES)] + " (6)"  # the disagreeing value is not used
    assert "title" in template.fields and template.fields["title"].misses == 1
    extractor.extract(blog_post(7), blog_url(7))
    assert "title" not in template.fields and extractor.counts.dropped == 1


def test_a_template_whose_body_disagrees_with_the_generic_body_is_dropped():
    extractor = SiteAwareExtractor()
    for n in range(1, 6):
        extractor.extract(blog_post(n), blog_url(n))
    template = extractor.templates()[0]
    template.fields[BODY].xpaths = ["//footer"]  # a stale path: it reads the footer

    def footer_page(n: int) -> str:  # long enough to pass as a body, not the article
        footer = "".join(f"<p>Footer note {i}: this blog is written in the evenings, with tea.</p>" for i in range(6))
        return blog_post(n).replace("<footer><p>Proudly powered by a static site</p>", f"<footer>{footer}")

    results = [extractor.extract(footer_page(n), blog_url(n)) for n in range(6, 16)]
    assert all("Post " in r.body for r in results if r.method != METHOD_TEMPLATE)
    assert template not in extractor.templates()  # dropped after disagreeing twice in a row
    assert extractor.state("pebble.example.org").dropped == [template]
    assert "I have kept the same editor settings" in results[-1].body


def test_copies_of_one_post_are_no_evidence_about_the_site():
    """An ad-hoc crawl fetched one post under many URLs (?replytocom=): its title stands on most recent pages, but
    a copy is the same page, not another page of the site."""
    extractor = SiteAwareExtractor()
    for n in range(1, 6):
        extractor.extract(blog_post(n), blog_url(n))
    copies = [extractor.extract(blog_post(6), f"{blog_url(6)}?replytocom={1000 + k}") for k in range(30)]
    assert {r.title for r in copies} == {HEADLINES[6 % len(HEADLINES)] + " (6)"}
    titles = extractor.state("pebble.example.org").titles
    assert len(titles.recent) == 6  # the five posts and one of the copies


def test_a_part_of_the_site_name_is_never_the_title():
    """The site's name holds a separator ("Pebble Notes – a blog"): its tail is learnt as an affix too, and what
    is left of the name once it goes ("Pebble Notes") is not a headline either."""
    titles = SiteTitles()
    for story in ("First story", "Second story", "Third story"):
        titles.learn([f"{story} | {SITE}"], [SITE])
    assert titles.choose([SITE, f"Fourth story | {SITE}"]) == "Fourth story"
    assert titles.choose(["Pebble Notes"]) is None



def _learnt_from_scratch(titles: SiteTitles, kind: str) -> set[str]:
    """What was learnt, counted again over the remembered pages (the definition the kept counts must match)."""
    counts: Counter[str] = Counter()
    for page in titles.recent:
        counts.update(getattr(page, kind))
    needed = max(site_titles.AFFIX_MIN_PAGES, site_titles.AFFIX_SHARE * sum(1 for page in titles.recent if page.stated))
    learnt = {affix for affix, count in counts.items() if count >= needed}
    shorter = str.startswith if kind == "suffixes" else str.endswith
    return learnt | {affix for affix, count in counts.items()
                     if count >= site_titles.AFFIX_MIN_PAGES and any(shorter(long, affix) for long in learnt)}


def test_the_kept_affix_counts_match_a_count_over_the_remembered_pages_as_pages_come_and_go():
    titles = SiteTitles()
    sections = ["World", "Tech", "Sport"]
    for number in range(3 * site_titles.RECENT_PAGES):  # pages are pushed out twice over
        section = sections[number % 3] if number < 70 else "Opinion"  # the site's affixes change half-way
        stated = [f"Story {number} - {section} | Daily Example", f"Daily Example: Story {number}"]
        if number % 7 == 0:
            stated = []  # a page without a stated title
        titles.learn(stated, [f"Story {number}", "Daily Example"])
        for kind in ("suffixes", "prefixes"):
            assert titles._learnt(kind) == _learnt_from_scratch(titles, kind), (number, kind)
        assert titles.is_site_text("Daily Example") == (number >= 2)
    assert len(titles.recent) == site_titles.RECENT_PAGES
    assert "| opinion | daily example" in titles._learnt("suffixes")
    assert "| world | daily example" not in titles._learnt("suffixes")
