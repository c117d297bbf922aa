from newscorpus.core.site_aware.url_similarity import MATCH_THRESHOLD, matches, segments, similarity, site_of


def test_digits_in_segments_are_generalised():
    assert segments("https://news.sina.com.cn/c/2024-05-01/doc-inaxyz1234.shtml") == {
        "c",
        "#-#-#",
        "doc-inaxyz#.shtml",
    }


def test_chinese_news_urls_of_one_channel_match():
    a = "https://news.sina.com.cn/c/2024-05-01/doc-inaxyz1234.shtml"
    b = "https://news.sina.com.cn/c/2024-06-12/doc-inbqrs9876.shtml"
    assert similarity(a, b) == 2 / 3
    assert matches(a, b)


def test_english_urls_article_vs_section_page():
    article = "http://www.bbc.co.uk/news/business-21302969"
    assert similarity(article, "http://bbc.co.uk/news/business-22036778") == 1.0
    # /news/health shares one of two segments: R = 0.5, not above t
    assert similarity(article, "http://bbc.co.uk/news/health") == 0.5
    assert not matches(article, "http://bbc.co.uk/news/health")
    assert MATCH_THRESHOLD == 0.5


def test_other_site_never_matches():
    assert site_of("https://www.Example.com/a") == "example.com"
    assert not matches("https://a.example.com/news/1.html", "https://b.example.com/news/1.html")


def test_r_uses_the_smaller_set():
    assert similarity("https://x.cn/a/b", "https://x.cn/a/b/c/d") == 1.0
    assert similarity("https://x.cn/", "https://x.cn/") == 1.0
    assert similarity("https://x.cn/", "https://x.cn/a") == 0.0


def test_a_site_is_its_host_and_a_port_that_is_not_the_schemes_default():
    assert site_of("http://www.Example.com:80/a") == "example.com" == site_of("https://example.com:443/b")
    assert site_of("http://127.0.0.1:8001/a") == "127.0.0.1:8001" != site_of("http://127.0.0.1:8002/a")
    assert site_of("https://example.com:8443/") == "example.com:8443"
