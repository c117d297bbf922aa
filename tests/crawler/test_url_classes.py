import re

import pytest

from newscorpus.crawler.url_classes import ARTICLE, LISTING, SKIP, classify_url


@pytest.mark.parametrize("url", [
    "https://news.sina.com.cn/c/2024-05-09/doc-inavxkqm1234567.shtml",
    "http://www.news.cn/politics/2024-05/09/c_1130140000.htm",
    "https://www.bbc.co.uk/news/world-europe-68912345",
    "https://www.theguardian.com/world/2024/may/09/some-story-about-things",
    "https://example.com/2026/11/01/city-council-approves-new-budget",
    "https://www.sohu.com/a/777777777_121123",
    "https://example.com/article/abc123",
    "https://example.com/news/markets-rally-as-inflation-cools-in-march.html",
])
def test_article_shapes(url):
    assert classify_url(url) == ARTICLE


@pytest.mark.parametrize("url", [
    "https://news.sina.com.cn/",
    "https://example.com/world/",
    "https://example.com/section/politics/",
    "https://example.com/tag/economy/",
    "https://example.com/news/index_2.html",
    "https://example.com/news/?page=3",
    "https://example.com/about",
])
def test_listing_shapes(url):
    assert classify_url(url) == LISTING


@pytest.mark.parametrize("url", [
    "https://example.com/images/2024/05/09/photo.JPG",
    "https://example.com/files/report-2024-annual-results-final.pdf",
    "ftp://example.com/2024/05/09/story.html",
    "mailto:editor@example.com",
])
def test_skipped(url):
    assert classify_url(url) == SKIP


def test_site_patterns_win_over_shapes():
    articles = [re.compile(r"/story/\d+")]
    skips = [re.compile(r"/live/")]
    assert classify_url("https://example.com/story/42", articles) == ARTICLE
    # When a site names its article pattern, a dated URL that does not match it is a listing.
    assert classify_url("https://example.com/2026/11/01/a-long-story-slug-here", articles) == LISTING
    assert classify_url("https://example.com/live/2026/11/01/x", articles, (), skips) == SKIP
    assert classify_url("https://example.com/story/42", [], [re.compile("/story/")]) == LISTING
